package sheets

import "strings"

// Necessary conditions of the set model's expressions, checked on a
// phrase before the expression runs: each is a byte scan that rules out
// most phrases of a drawing, and none rules out a text its expression
// would match (so what the model reads does not change).

// hasASCIIDigit reports whether s holds an ASCII digit: what \d matches.
func hasASCIIDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if isASCIIDigit(s[i]) {
			return true
		}
	}
	return false
}

// containsFoldASCII reports whether s contains upper (upper-case ASCII
// letters) in any case. Only for literals without K or S, which (?i)
// also matches as U+212A and U+017F.
func containsFoldASCII(s, upper string) bool {
	n := len(upper)
	for i := 0; i+n <= len(s); i++ {
		if upperASCIIByte(s[i]) == upper[0] && equalFoldUpper(s[i+1:i+n], upper[1:]) {
			return true
		}
	}
	return false
}

func equalFoldUpper(s, upper string) bool {
	for i := 0; i < len(upper); i++ {
		if upperASCIIByte(s[i]) != upper[i] {
			return false
		}
	}
	return true
}

func upperASCIIByte(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

func isRESpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

// mayHoldAddress is a necessary condition for addressRe: a house number
// (digits, then at most one letter: ASCII, or U+212A or U+017F, which
// (?i) folds to K and S) followed by a space.
func mayHoldAddress(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if !isASCIIDigit(s[i]) || isASCIIDigit(s[i+1]) {
			continue
		}
		j := i + 1
		switch c := s[j]; {
		case 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z':
			j++
		case c == 0xC5 && j+1 < len(s) && s[j+1] == 0xBF: // U+017F
			j += 2
		case c == 0xE2 && j+2 < len(s) && s[j+1] == 0x84 && s[j+2] == 0xAA: // U+212A
			j += 3
		}
		if j < len(s) && isRESpace(s[j]) {
			return true
		}
	}
	return false
}

// mayHoldCode is a necessary condition for codeRe: every edition it reads
// has a digit, except the building codes and regulations named in words;
// and each of its forms has one of codeWords at the start of a word (after
// \b or \s), in any case. A text with U+017F, which (?i) matches as "S",
// is left to the expression.
func mayHoldCode(s string, digits bool) bool {
	if containsFoldASCII(s, "BUILDING") {
		return true
	}
	if !digits {
		return false
	}
	if strings.Contains(s, "\u017f") {
		return true
	}
	for i := 0; i < len(s); i++ {
		if i > 0 && isWordByte(s[i-1]) {
			continue
		}
		c := upperASCIIByte(s[i])
		if c < 'A' || c > 'Z' {
			continue
		}
		for _, w := range codeWords[c-'A'] {
			if len(s)-i >= len(w) && equalFoldUpper(s[i+1:i+len(w)], w[1:]) {
				return true
			}
		}
	}
	return false
}

// codeWords, by first letter: a word that starts one of codeRe's forms,
// or follows a space in it ("2021 IBC", "5th Edition", "NATIONAL BUILDING
// CODE").
var codeWords = [26][]string{
	'A' - 'A': {"AS", "ABC"},
	'C' - 'A': {"CBC", "CRC", "CEC", "CPC", "CMC"},
	'D' - 'A': {"DIN"},
	'E' - 'A': {"EDITION", "EUROCODE", "EN"},
	'F' - 'A': {"FBC"},
	'I' - 'A': {"IBC", "IRC", "IECC", "IFC", "IPC", "IMC", "IEBC"},
	'N' - 'A': {"NEC", "NFPA", "NBC", "NTC"},
	'O' - 'A': {"OBC"},
	'S' - 'A': {"SANS"},
	'U' - 'A': {"UBC"},
}

// isWordByte: \w of Go's regexp (ASCII letters, digits, underscore).
func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// mayHoldImperial is a necessary condition for imperialRe (case-sensitive):
// feet and inches (both marks), or an area or length unit.
func mayHoldImperial(s string) bool {
	var foot, inch bool
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\'':
			foot = true
		case '"':
			inch = true
		case 'S':
			if i+1 < len(s) && (s[i+1] == 'F' || s[i+1] == 'Q') {
				return true
			}
		case 'F':
			if i+1 < len(s) && s[i+1] == 'T' {
				return true
			}
		case 'f':
			if i+1 < len(s) && s[i+1] == 't' {
				return true
			}
		}
	}
	return foot && inch
}

// mayBeRatioOnly is a necessary condition for ratioOnlyRe on the
// upper-cased text: it starts with a digit or "M" and holds the ":" of a
// ratio or the "=" of an architectural scale.
func mayBeRatioOnly(s string) bool {
	if s == "" || !isASCIIDigit(s[0]) && s[0] != 'M' && s[0] != 'm' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] == ':' || s[i] == '=' {
			return true
		}
	}
	return false
}

// mayHoldMetric is a necessary condition for metricRe (case-sensitive): a
// unit's first letter (mm, cm, m, m², m2, kPa, MPa, sqm) right after a
// digit, or after a digit and one space.
func mayHoldMetric(s string) bool {
	for j := 1; j < len(s); j++ {
		switch s[j] {
		case 'm', 'c', 'k', 'M', 's':
		default:
			continue
		}
		if isASCIIDigit(s[j-1]) || isRESpace(s[j-1]) && j >= 2 && isASCIIDigit(s[j-2]) {
			return true
		}
	}
	return false
}

// civilWord is a word that starts a form of civilRe without a "+" (the
// station forms "STA 12+50" and "12+50" have one), and what must follow it;
// civilWords lists them by first letter.
type civilWord struct {
	word   string
	follow byte // 0: anything; 's': one space or hyphen, then a digit; 'w': a space; 'b': a word end; 'd': a digit
}

var civilWords = [26][]civilWord{
	'C' - 'A': {{"CARRIAGEWAY", 0}, {"CHAINAGE", 0}},
	'D' - 'A': {{"DEPARTMENT", 0}, {"DOT", 'b'}},
	'E' - 'A': {{"EXPRESSWAY", 0}},
	'F' - 'A': {{"FED", 0}, {"FREEWAY", 0}},
	'H' - 'A': {{"HWY", 's'}},
	'I' - 'A': {{"I-", 'd'}, {"INTERCHANGE", 0}},
	'M' - 'A': {{"MILEPOST", 0}, {"MP", 'w'}, {"M.P.", 0}},
	'R' - 'A': {{"ROUTE", 's'}, {"ROADWAY", 0}, {"RIGHT", 0}},
	'S' - 'A': {{"SR", 's'}, {"STATIONING", 0}},
	'T' - 'A': {{"TOLLING", 0}},
	'U' - 'A': {{"US", 's'}},
}

// mayHoldCivil is a necessary condition for civilRe: a "+" (the station
// forms), or one of civilWords at the start of a word followed as its form
// requires. Text with U+017F or U+212A (which (?i) reads as S and K) is
// left to the expression.
func mayHoldCivil(s string) bool {
	if strings.IndexByte(s, '+') >= 0 || strings.Contains(s, "\u017f") || strings.Contains(s, "\u212a") {
		return true
	}
	for i := 0; i < len(s); i++ {
		if i > 0 && isWordByte(s[i-1]) {
			continue
		}
		c := upperASCIIByte(s[i])
		if c < 'A' || c > 'Z' {
			continue
		}
		for _, cw := range civilWords[c-'A'] {
			w := cw.word
			if len(s)-i < len(w) || !equalFoldUpper(s[i+1:i+len(w)], w[1:]) {
				continue
			}
			j := i + len(w)
			switch cw.follow {
			case 0:
				return true
			case 's':
				if j+1 < len(s) && (isRESpace(s[j]) || s[j] == '-') && isASCIIDigit(s[j+1]) {
					return true
				}
			case 'w':
				if j < len(s) && isRESpace(s[j]) {
					return true
				}
			case 'b':
				if j == len(s) || !isWordByte(s[j]) {
					return true
				}
			case 'd':
				if j < len(s) && isASCIIDigit(s[j]) {
					return true
				}
			}
		}
	}
	return false
}

// mayHoldScale is a necessary condition for scaleRe: "SCALE" (a caption, or
// NOT TO SCALE), "NOTED", an architectural scale's marks (", = and '), or
// a word starting N.T or NT (NTS and its dotted forms). Text with U+017F is
// left to the expression.
func mayHoldScale(s string) bool {
	if containsFoldASCII(s, "SCALE") || containsFoldASCII(s, "NOTED") || strings.Contains(s, "\u017f") {
		return true
	}
	if strings.IndexByte(s, '"') >= 0 && strings.IndexByte(s, '=') >= 0 && strings.IndexByte(s, '\'') >= 0 {
		return true
	}
	for i := 0; i+1 < len(s); i++ {
		if upperASCIIByte(s[i]) != 'N' || i > 0 && isWordByte(s[i-1]) {
			continue
		}
		if upperASCIIByte(s[i+1]) == 'T' || s[i+1] == '.' && i+2 < len(s) && upperASCIIByte(s[i+2]) == 'T' {
			return true
		}
	}
	return false
}
