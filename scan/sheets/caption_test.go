package sheets

import "testing"

// A caption whose words run together at an abbreviation's full stop reads
// as the caption, over one printed word; a word that only contains a full
// stop is no caption.
func TestCaptionRunTogether(t *testing.T) {
	for _, c := range []struct {
		norms []string
		kind  string
		words int
	}{
		{[]string{"NO.LUKISAN", "JKR/SD/1"}, FieldNumber, 1},
		{[]string{"NO", "LUKISAN", "JKR/SD/1"}, FieldNumber, 2},
		{[]string{"DWG.NO", "A-101"}, FieldNumber, 1},
		{[]string{"SHEET", "A-101"}, FieldNumber, 1},
		{[]string{"5.1.00"}, "", 0},
		{[]string{"NO.", "PLAN"}, "", 0},
	} {
		got, n := matchCaption(c.norms)
		if n != c.words || n > 0 && got.kind != c.kind {
			t.Errorf("%q: caption %q over %d words, want %q over %d", c.norms, got.kind, n, c.kind, c.words)
		}
	}
}
