package api_test

import (
	"testing"

	"planreview/rounds/pdfedit"
)

// The second rounds of these tests are real corpus sets changed the way an
// applicant's revised set changes (package pdfedit).

func collectPages(t *testing.T, pdf []byte, pages ...int) []byte {
	t.Helper()
	out, err := pdfedit.Collect(pdf, pages...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func mergePDFs(t *testing.T, files ...[]byte) []byte {
	t.Helper()
	out, err := pdfedit.Merge(files...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func replaceText(t *testing.T, pdf []byte, page int, old, new string) []byte {
	t.Helper()
	out, err := pdfedit.ReplaceText(pdf, page, old, new)
	if err != nil {
		t.Fatalf("replace %q by %q on page %d: %v", old, new, page, err)
	}
	return out
}
