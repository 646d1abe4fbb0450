package layout

import (
	"slices"
	"strings"
	"testing"
)

// roleOfText is the role of the line whose text is text, else of the
// first line holding it.
func roleOfText(t *testing.T, p *Page, r *Roles, text string) RegionRole {
	t.Helper()
	for li, l := range p.Lines {
		if l.Text == text {
			return r.OfLine(li)
		}
	}
	for li, l := range p.Lines {
		if strings.Contains(l.Text, text) {
			return r.OfLine(li)
		}
	}
	t.Fatalf("no line %q in %q", text, lineTexts(p))
	return RoleNone
}

func TestRolesSymbolLegend(t *testing.T) {
	s := newSheet(1224, 792)
	// A symbols legend with no heading: samples (a tag, a sample callout
	// in its bubble, a room number) beside their meanings.
	meanings := []string{"NEW COLUMN LINE", "SECTION INDICATOR", "SHEET NUMBER", "ROOM NUMBER DESIGNATION", "DOOR TAG"}
	for i, m := range meanings {
		s.text(200, 110+float64(i)*22, 9, 0, m)
	}
	s.text(120, 110, 9, 0, "XX")
	s.text(124, 128, 9, 0, "1")
	s.text(116, 139, 9, 0, "A101")
	s.text(118, 176, 9, 0, "100")
	s.text(120, 198, 9, 0, "XXX")
	// Look-alike: keynotes numbered in order beside their text.
	keynotes := []string{"REMOVE EXISTING SINK", "PATCH WALL TO MATCH", "NEW DUPLEX OUTLET", "CAP EXISTING PIPING", "RELOCATE THERMOSTAT"}
	for i, k := range keynotes {
		s.text(700, 110+float64(i)*22, 9, 0, k)
		s.text(660, 110+float64(i)*22, 9, 0, string(rune('1'+i)))
	}
	// Look-alike: wrapped notes with tags beside them are running text.
	notes := []string{"ALLOCATE 120V FOR WATER BOTTLE FILLER AND", "LOCATION TO BE DETERMINED BY THE ENGINEER.", "PROVIDE DEDICATED CIRCUIT FOR EACH UNIT", "AND CONNECT TO THE NEAREST PANEL BOARD."}
	for i, n := range notes {
		s.text(700, 400+float64(i)*12, 9, 0, n)
	}
	s.text(650, 400, 9, 0, "N-2")
	s.text(650, 424, 9, 0, "E-1")
	p := s.analyze(t)
	r := FindRoles(p)
	for _, m := range meanings {
		if got := roleOfText(t, p, r, m); got != RoleKey {
			t.Errorf("meaning %q: role %v, want key", m, got)
		}
	}
	for _, sample := range []string{"XX", "A101", "100", "XXX"} {
		if got := roleOfText(t, p, r, sample); got != RoleKey {
			t.Errorf("sample %q: role %v, want key", sample, got)
		}
	}
	for _, text := range append(slices.Clone(keynotes), "1", "3", "N-2", "LOCATION TO BE DETERMINED BY THE ENGINEER.") {
		if got := roleOfText(t, p, r, text); got == RoleKey {
			t.Errorf("%q read as a key", text)
		}
	}
}

func TestRolesScheduleColumnIsNoKey(t *testing.T) {
	s := newSheet(1224, 792)
	// A schedule: short descriptions with a tag to the left and more cells
	// right after them.
	for i, row := range [][3]string{{"EF-1", "EXHAUST FAN", "120V"}, {"EF-2", "EXHAUST FAN", "208V"}, {"UH-1", "UNIT HEATER", "480V"}, {"XX", "CABINET HEATER", "120V"}} {
		y := 110 + float64(i)*16
		s.text(100, y, 9, 0, row[0])
		s.text(160, y, 9, 0, row[1])
		s.text(240, y, 9, 0, row[2])
	}
	p := s.analyze(t)
	r := FindRoles(p)
	if got := roleOfText(t, p, r, "XX"); got == RoleKey {
		t.Errorf("a schedule's cell read as a key sample")
	}
}

func TestRolesAbbreviationList(t *testing.T) {
	s := newSheet(1224, 792)
	s.text(100, 80, 14, 0, "ABBREVIATIONS")
	for i, row := range [][2]string{{"A/C", "AIR CONDITIONING"}, {"ACOUS.", "ACOUSTICAL"}, {"C.F.C.I.", "CONTRACTOR FURNISHED-CONTRACTOR"}, {"CLG.", "CEILING"}, {"TBD", "TO BE DETERMINED"}, {"U.N.O.", "UNLESS NOTED OTHERWISE"}} {
		y := 110 + float64(i)*12
		s.text(100, y, 9, 0, row[0])
		s.text(150, y, 9, 0, row[1])
	}
	// A small ruled key: a sample tag over letter codes and their words.
	s.grid([]float64{600, 640, 700}, []float64{100, 116, 132, 148, 164})
	s.text(604, 112, 8, 0, "XXX")
	for i, row := range [][2]string{{"W", "WALL"}, {"B", "BASE"}, {"F", "FLR"}} {
		s.text(604, 128+float64(i)*16, 8, 0, row[0])
		s.text(644, 128+float64(i)*16, 8, 0, row[1])
	}
	// Look-alikes: room numbers beside room names, a note.
	for i, row := range [][2]string{{"101", "OFFICE"}, {"102", "CORRIDOR"}, {"103", "STORAGE"}} {
		s.text(400, 300+float64(i)*12, 9, 0, row[0])
		s.text(440, 300+float64(i)*12, 9, 0, row[1])
	}
	s.text(400, 400, 9, 0, "HEADER SIZE TO BE DETERMINED")
	p := s.analyze(t)
	r := FindRoles(p)
	for _, text := range []string{"TBD", "TO BE DETERMINED", "A/C", "CONTRACTOR FURNISHED-CONTRACTOR", "XXX", "WALL"} {
		if got := roleOfText(t, p, r, text); got != RoleAbbreviations {
			t.Errorf("%q: role %v, want abbreviations", text, got)
		}
	}
	for _, text := range []string{"101", "OFFICE", "HEADER SIZE TO BE DETERMINED"} {
		if got := roleOfText(t, p, r, text); got == RoleAbbreviations || got == RoleKey {
			t.Errorf("%q read as %v", text, got)
		}
	}
}

func TestRolesDefinitionLine(t *testing.T) {
	s := newSheet(1224, 792)
	s.text(100, 100, 9, 0, "TBD = TO BE DETERMINED")
	s.text(100, 300, 9, 0, "N.I.C. - NOT IN CONTRACT")
	s.text(100, 500, 9, 0, "LOCATION TBD - SEE OWNER")
	s.text(600, 100, 9, 0, "SIZE: TBD")
	p := s.analyze(t)
	r := FindRoles(p)
	for _, text := range []string{"TBD = TO BE DETERMINED", "N.I.C. - NOT IN CONTRACT"} {
		if got := roleOfText(t, p, r, text); got != RoleAbbreviations {
			t.Errorf("%q: role %v, want abbreviations", text, got)
		}
	}
	for _, text := range []string{"LOCATION TBD - SEE OWNER", "SIZE: TBD"} {
		if got := roleOfText(t, p, r, text); got != RoleNone {
			t.Errorf("%q: role %v, want none", text, got)
		}
	}
}

func TestAbbreviates(t *testing.T) {
	for _, c := range []struct {
		tok, exp string
		want     bool
	}{
		{"TBD", "TO BE DETERMINED", true},
		{"ACOUS.", "ACOUSTICAL", true},
		{"A/E", "ARCHITECT/ENGINEER", true},
		{"CL.", "CENTERLINE", true},
		{"W", "WALL", true},
		{"XX", "NEW COLUMN LINE", false},
		{"1", "SECTION INDICATOR", false},
		{"A101", "ARCHITECTURAL FLOOR PLAN", false},
		{"101", "OFFICE", false},
		{"WALL", "W", false},
		{"TBD", "TBD", false},
	} {
		if got := Abbreviates(c.tok, c.exp); got != c.want {
			t.Errorf("Abbreviates(%q, %q) = %v, want %v", c.tok, c.exp, got, c.want)
		}
	}
}

func TestRolesRevisionRowsAndNotes(t *testing.T) {
	s := newSheet(1224, 792)
	s.text(1000, 600, 8, 0, "REVISIONS")
	s.text(1000, 612, 8, 0, "1")
	s.text(1020, 612, 8, 0, "ADDENDUM 1 6/10/20")
	s.text(1000, 624, 8, 0, "B 2024-10-03 ISSUED FOR REVIEW")
	s.text(1000, 700, 8, 0, "DATE: 6/10/20")
	s.text(1000, 720, 8, 0, "ISSUED FOR BID")
	// A conditions paragraph that mentions review and approval.
	for i, l := range []string{"SAMPLES SHALL BE SUBMITTED TO THE ARCHITECT", "FOR REVIEW AND APPROVAL BEFORE ORDERING;", "WORK SHALL NOT PROCEED WITHOUT WRITTEN", "ACCEPTANCE OF THE SAMPLES BY THE ARCHITECT."} {
		s.text(100, 600+float64(i)*10, 8, 0, l)
	}
	p := s.analyze(t)
	r := FindRoles(p)
	for _, text := range []string{"ADDENDUM 1 6/10/20", "B 2024-10-03 ISSUED FOR REVIEW"} {
		if got := roleOfText(t, p, r, text); got != RoleRevisions {
			t.Errorf("%q: role %v, want revisions", text, got)
		}
	}
	for _, text := range []string{"DATE: 6/10/20", "ISSUED FOR BID"} {
		if got := roleOfText(t, p, r, text); got != RoleNone {
			t.Errorf("%q: role %v, want none", text, got)
		}
	}
	if got := roleOfText(t, p, r, "FOR REVIEW AND APPROVAL BEFORE ORDERING;"); got != RoleNotes {
		t.Errorf("conditions paragraph: role %v, want notes", got)
	}
}

// A stamp's letters drawn one by one at 45° (each glyph its own word)
// are put back together from their angle and baseline into one overlay
// run, so a check reads the stamp as one word.
func TestStampFragmentsJoin(t *testing.T) {
	s := newSheet(1224, 792)
	const size, deg = 48.0, 45.0
	x, y := 500.0, 500.0
	// Helvetica bold-ish advance approximated per glyph by the AFM widths
	// of the regular face the test font uses.
	widths := map[rune]float64{'P': 667, 'R': 722, 'E': 667, 'L': 556, 'I': 278, 'M': 833, 'N': 722, 'A': 667, 'Y': 667}
	for _, c := range "PRELIMINARY" {
		s.text(x, y, size, deg, string(c))
		adv := widths[c] / 1000 * size
		x += adv * 0.7071
		y -= adv * 0.7071
	}
	p := s.analyze(t)
	found := false
	for _, r := range p.Runs {
		if strings.ReplaceAll(r.Text, " ", "") == "PRELIMINARY" {
			found = true
			if r.Layer != LayerOverlay || r.Angle < 40 || r.Angle > 50 {
				t.Errorf("stamp run %q: layer %v angle %v", r.Text, r.Layer, r.Angle)
			}
		}
	}
	if !found {
		var texts []string
		for _, r := range p.Runs {
			texts = append(texts, r.Text)
		}
		t.Errorf("stamp letters not joined: runs %q", texts)
	}
}
