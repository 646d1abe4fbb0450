package hostile

import "testing"

// TestWithPages: the update keeps the file's pages after the new ones, and
// pdfcpu reads the result (a classic cross-reference section after the
// file's own, /Prev pointing back).
func TestWithPages(t *testing.T) {
	base := FormFanOut(2, 1, 3) // three pages
	out, err := WithPages(base, 2, filterChainPage(50))
	if err != nil {
		t.Fatal(err)
	}
	_, _, count, _, err := pageTreeOf(out)
	if err != nil {
		t.Fatalf("updated file: %v", err)
	}
	if count != 5 {
		t.Fatalf("%d pages, want 3 + 2", count)
	}
	// Updating an updated file follows both /Prev links.
	again, err := WithPages(out, 1, operatorPage(10))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, count, _, err = pageTreeOf(again); err != nil || count != 6 {
		t.Fatalf("twice updated: %d pages, %v; want 6", count, err)
	}
}

// TestEncryptAES256: the encrypted file needs its user password.
func TestEncryptAES256(t *testing.T) {
	out, err := EncryptAES256(FormFanOut(2, 1, 1))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, _, err := pageTreeOf(out); err == nil {
		t.Fatal("read without the user password")
	}
}
