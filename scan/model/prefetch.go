package model

import "planreview/internal/perpage"

// ReadRegions reads, on every core, what the review's checks ask of every
// readable sheet and would otherwise read one sheet after another on
// first use: its regions by role, its references (and the lines that may
// caption a view), its project data and its blank project-data fields,
// its stamps and its room tags (most of the reviewing stage's work). Each sheet's reading depends on that sheet
// alone; call it before the checks, which then only read.
func (set *Set) ReadRegions() {
	perpage.Each(len(set.Sheets), func(i int) {
		if s := set.Sheets[i]; s.Readable {
			s.Roles()
			s.References()
			s.ProjectFacts()
			s.BlankFields()
			s.Stamps()
			s.RoomTags()
		}
	})
}
