package rules

import "planreview/scan/layout"

// The regions of a sheet by role (legends, abbreviation lists, revision
// rows, notes paragraphs), recognised by the layout from structure: the
// checks that read content ask them whether text is content at all.

// roles is the page's regions by role, found on first use.
func (pv *pageView) roles() *layout.Roles {
	if pv.regionRoles == nil {
		pv.regionRoles = layout.FindRoles(pv.layoutPage())
	}
	return pv.regionRoles
}

// roleOf is the role of the words' lines when they share one.
func (pv *pageView) roleOf(words []int) layout.RegionRole {
	if len(words) == 0 {
		return layout.RoleNone
	}
	return pv.roles().OfWords(pv.layoutPage(), words)
}

// explains reports whether any of the words lies in a legend, symbol key
// or abbreviation list: text that shows the drawing's conventions (a
// sample callout, an "XX" tag, "TBD = TO BE DETERMINED") and so is neither
// a reference nor a placeholder.
func (pv *pageView) explains(words []int) bool {
	if len(words) == 0 {
		return false
	}
	lp, r := pv.layoutPage(), pv.roles()
	for _, w := range words {
		if w < 0 || w >= len(lp.LineOf) {
			continue
		}
		switch r.OfLine(lp.LineOf[w]) {
		case layout.RoleKey, layout.RoleAbbreviations:
			return true
		}
	}
	return false
}

// history reports whether most of the words lie in revision rows or notes
// paragraphs: text that records an earlier issue or states a condition,
// never the sheet's issue status. A row's mark may stand apart from it, so
// most words decide, not all.
func (pv *pageView) history(words []int) bool {
	lp, r := pv.layoutPage(), pv.roles()
	n := 0
	for _, w := range words {
		if w < 0 || w >= len(lp.LineOf) {
			continue
		}
		switch r.OfLine(lp.LineOf[w]) {
		case layout.RoleRevisions, layout.RoleNotes:
			n++
		}
	}
	return len(words) > 0 && n*2 >= len(words)
}
