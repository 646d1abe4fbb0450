package api

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// checkText validates an optional or required text field: length in
// characters, not blank when required, and no control characters (they
// break logs, CSV exports and screens).
func checkText(param string, v *string, required bool, maxLen int) error {
	if v == nil {
		if required {
			return invalidParam(param, "%s is required.", param)
		}
		return nil
	}
	if required && strings.TrimSpace(*v) == "" {
		return invalidParam(param, "%s must not be blank.", param)
	}
	if n := utf8.RuneCountInString(*v); n > maxLen {
		return invalidParam(param, "%s is %d characters; at most %d are allowed.", param, n, maxLen)
	}
	if !utf8.ValidString(*v) {
		return invalidParam(param, "%s is not valid UTF-8.", param)
	}
	if strings.IndexFunc(*v, isForbiddenControl) >= 0 {
		return invalidParam(param, "%s must not contain control characters.", param)
	}
	return nil
}

// isForbiddenControl allows the line breaks and tabs of a multi-line
// description and refuses every other control character.
func isForbiddenControl(r rune) bool {
	return unicode.IsControl(r) && r != '\n' && r != '\r' && r != '\t'
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
