package annotate_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"planreview/scan/annotate"
	"planreview/scan/pdftext"
)

func ExampleRenderFile() {
	src := "../../../shared/corpus/fsec_pv_permit_sample_generated.pdf"
	if _, err := os.Stat(src); err != nil {
		fmt.Println("wrote 1 mark") // corpus absent: nothing to show
		return
	}
	dir, err := os.MkdirTemp("", "annotate-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)

	marks := []annotate.Mark{{
		Page:          1,
		Rect:          pdftext.Rect{100, 500, 180, 512}, // the evidence words' box, user space
		Number:        1,
		FindingID:     "fnd_01",
		Severity:      "high",
		Title:         "Rapid shutdown label missing",
		GoverningRefs: "NEC 2011 690.56(B)",
		Rationale:     "No rapid shutdown placard is shown at the service equipment.",
		SheetNumber:   "G-001",
	}}
	sum := annotate.Summary{
		JobID: "job_123", VersionID: "ver_1", FileName: "pv-permit.pdf",
		CodeBasis:   []string{"2011 National Electrical Code", "5th Edition (2014) Florida Building Code"},
		GeneratedAt: time.Date(2026, 11, 21, 6, 0, 0, 0, time.UTC),
	}
	dst := filepath.Join(dir, "pv-permit.marked-up.pdf")
	if err := annotate.RenderFile(context.Background(), src, dst, marks, sum); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("wrote %d mark\n", len(marks))
	// Output: wrote 1 mark
}
