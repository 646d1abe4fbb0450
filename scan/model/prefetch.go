package model

import (
	"fmt"
	"runtime/debug"

	"planreview/internal/perpage"
)

// ReadRegions reads, on every core, what the review's checks ask of every
// readable sheet and would otherwise read one sheet after another on
// first use: its regions by role, its references (and the lines that may
// caption a view), its project data and its blank project-data fields,
// its stamps and its room tags (most of the reviewing stage's work). Each
// sheet's reading depends on that sheet alone; call it before the checks,
// which then only read.
//
// The set's code facts (CodeFacts: the codes, occupancy and construction
// the sheets state, which the code basis is presumed from) are read beside
// them, on a goroutine of their own: their reading has a serial part, the
// sheets' reading a ragged end, and each fills the other's idle core. The
// two share no memo: the code facts' are each read once (sync.Once), the
// sheets' are never touched by the code facts' reading.
func (set *Set) ReadRegions() {
	var codeFailed any
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if v := recover(); v != nil {
				codeFailed = fmt.Sprintf("%v\n[code facts]\n%s", v, debug.Stack())
			}
		}()
		set.CodeFacts()
	}()
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
	<-done
	if codeFailed != nil {
		panic(codeFailed)
	}
}
