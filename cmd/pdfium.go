package cmd

import (
	"context"
	"os"
	"os/exec"

	"github.com/spf13/cobra"

	"planreview/embed/sheetimage"
)

// newCompilePDFiumCmd is the child process serve starts to compile the
// sheet-image renderer (PDFium as WebAssembly) into its code cache, so the
// serving process never holds the compiler's memory. Hidden: operators
// have no reason to call it.
func newCompilePDFiumCmd() *cobra.Command {
	return &cobra.Command{
		Use:    "compile-pdfium DIR",
		Short:  "Compile the sheet-image renderer into DIR (run by serve)",
		Hidden: true,
		Args:   cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return sheetimage.CompileInto(args[0])
		},
	}
}

// compilePDFiumOutOfProcess runs `planreview compile-pdfium DIR` with this
// binary; with a warm cache it only checks it.
func compilePDFiumOutOfProcess(ctx context.Context, dir string) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	c := exec.CommandContext(ctx, exe, "compile-pdfium", dir)
	c.Env = os.Environ()
	return c.Run()
}
