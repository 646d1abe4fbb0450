package pdftext_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"planreview/internal/pdfgen"
	"planreview/scan/pdftext"
)

// A scan opens the file once, checks the page count and streams the pages;
// each word carries its box on the displayed page (fractions, top-left
// origin) and in PDF user space (for annotations).
func Example() {
	d := pdfgen.New()
	d.AddPage(pdfgen.PageSpec{
		MediaBox: [4]float64{0, 0, 612, 792},
		Content:  "BT /F1 12 Tf 72 720 Td (SHEET A-101) Tj ET",
		Fonts:    map[string]int{"F1": d.StandardFont("Helvetica")},
	})
	pdf := d.Bytes()

	ctx := context.Background()
	doc, err := pdftext.OpenReader(ctx, bytes.NewReader(pdf), int64(len(pdf)))
	switch {
	case errors.Is(err, pdftext.ErrEncrypted):
		fmt.Println("encrypted_pdf")
		return
	case errors.Is(err, pdftext.ErrNotPDF), errors.Is(err, pdftext.ErrInvalid):
		fmt.Println("invalid_pdf")
		return
	case err != nil:
		fmt.Println(err)
		return
	}
	defer doc.Close()
	if doc.NumPages() == 0 {
		fmt.Println("empty_pdf")
		return
	}
	for page := range doc.Pages(ctx) {
		if page.Err != nil || !page.Readable {
			fmt.Println("page", page.Number, "unreadable:", page.Reason, page.Err)
			continue
		}
		for _, w := range page.Words {
			fmt.Printf("%s left=%.3f top=%.3f rect=%.1f\n", w.Text, w.BBox.Left, w.BBox.Top, w.Rect)
		}
	}
	// Output:
	// SHEET left=0.118 top=0.080 rect=[72.0 717.5 112.0 728.6]
	// A-101 left=0.188 top=0.080 rect=[115.3 717.5 147.4 728.6]
}
