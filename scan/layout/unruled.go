package layout

// unruledTables finds tables set in aligned columns without rules.
func (a *analysis) unruledTables() {}
