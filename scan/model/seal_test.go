package model

import (
	"testing"

	"planreview/scan/pdftext"
)

func TestSealCaptionShape(t *testing.T) {
	for text, want := range map[string]bool{
		"SEAL":                               true,
		"SEAL:":                              true,
		"STAMPS/SEALS":                       true,
		"Consultants/Seals:":                 true,
		"ARCHITECT'S SEAL":                   true,
		"P.E. STAMP BOX":                     true,
		"SEAL AND SIGNATURE":                 true,
		"TIMBRO E FIRMA":                     true,
		"ARCHITECT/ENGINEER OF RECORD STAMP": true,
		"SEALANT":                            false,
		"SEALED":                             false,
		"AND SEAL AT TOP AND BOTTOM":         false,
		"SEAL BEACH, CA 90740":               false,
		"PROVIDE SEALANT AT ALL JOINTS":      false,
		"APPLY SEAL COAT TO ALL EXPOSED CONCRETE SURFACES": false,
	} {
		p := &pdftext.Page{}
		var words []int
		for i, w := range splitWords(text) {
			p.Words = append(p.Words, pdftext.Word{Text: w})
			words = append(words, i)
		}
		if got := isSealCaption(p, words); got != want {
			t.Errorf("%q: caption %v, want %v", text, got, want)
		}
	}
}

func splitWords(s string) []string {
	var out []string
	start := -1
	for i, r := range s + " " {
		if r == ' ' {
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	return out
}
