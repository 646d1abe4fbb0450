package layout

import "strings"

// WordCount is len(strings.Fields(s)), counted without making the fields:
// the readers ask how many words a line has far more often than what
// they are.
func WordCount(s string) int {
	n := 0
	for range strings.FieldsSeq(s) {
		n++
	}
	return n
}
