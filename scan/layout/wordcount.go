package layout

import (
	"unicode"
	"unicode/utf8"
)

// WordCount is WordCount(s), counted without making the fields:
// the readers ask how many words a line has far more often than what
// they are.
func WordCount(s string) int {
	n, inWord := 0, false
	for i := 0; i < len(s); {
		c := s[i]
		var space bool
		if c < utf8.RuneSelf {
			space = asciiSpace[c]
			i++
		} else {
			r, size := utf8.DecodeRuneInString(s[i:])
			space = unicode.IsSpace(r)
			i += size
		}
		if !space && !inWord {
			n++
		}
		inWord = !space
	}
	return n
}

var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}
