package scan_test

import (
	"fmt"
	"math"
	"os"
	"strconv"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"planreview/rounds/pdfedit"
)

// The planted variants are written with pdfcpu: pages removed or collected
// (a page twice), text stamped with position, size, rotation and opacity,
// all with pdfedit's configuration (the files edited as they are).

func removePage(in, out string, page int) error {
	err := api.RemovePagesFile(in, out, []string{strconv.Itoa(page)}, pdfedit.Config())
	if err == nil {
		return nil
	}
	return withContext(in, out, model.REMOVEPAGES, err, func(ctx *model.Context) (*model.Context, error) {
		var keep []int
		for p := 1; p <= ctx.PageCount; p++ {
			if p != page {
				keep = append(keep, p)
			}
		}
		return pdfcpu.ExtractPages(ctx, keep, false)
	})
}

// withContext redoes an operation that pdfcpu's validation refused (a
// real file can break a rule pdfcpu checks, such as a measure dictionary's
// precision) on the document read without validation.
func withContext(in, out string, cmd model.CommandMode, validationErr error, op func(*model.Context) (*model.Context, error)) error {
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	conf := pdfedit.Config()
	conf.Cmd = cmd
	ctx, err := api.ReadContext(f, conf)
	if err != nil {
		return fmt.Errorf("%w; unvalidated read: %v", validationErr, err)
	}
	if err := ctx.EnsurePageCount(); err != nil {
		return fmt.Errorf("%w; unvalidated page count: %v", validationErr, err)
	}
	if err := pdfcpu.OptimizeXRefTable(ctx); err != nil {
		return fmt.Errorf("%w; unvalidated optimize: %v", validationErr, err)
	}
	dst, err := op(ctx)
	if err != nil {
		return fmt.Errorf("%w; unvalidated: %v", validationErr, err)
	}
	w, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := api.WriteContext(dst, w); err != nil {
		w.Close()
		return fmt.Errorf("%w; unvalidated write: %v", validationErr, err)
	}
	return w.Close()
}

// duplicatePage writes the set with page repeated right after itself.
func duplicatePage(in, out string, page, pages int) error {
	sel := []string{fmt.Sprintf("1-%d", page), strconv.Itoa(page)}
	if page < pages {
		sel = append(sel, fmt.Sprintf("%d-%d", page+1, pages))
	}
	err := api.CollectFile(in, out, sel, pdfedit.Config())
	if err == nil {
		return nil
	}
	return withContext(in, out, model.COLLECT, err, func(ctx *model.Context) (*model.Context, error) {
		var seq []int
		for p := 1; p <= ctx.PageCount; p++ {
			seq = append(seq, p)
			if p == page {
				seq = append(seq, p)
			}
		}
		return pdfcpu.ExtractPages(ctx, seq, false)
	})
}

// textStamp is text placed on a page of displayed size (w, h): its
// baseline starts at (x, baseline) in displayed points from the top-left
// corner, or, rotated, it is centred on (x, baseline).
type textStamp struct {
	text        string
	x, baseline float64
	size        float64
	rotation    float64 // degrees counter-clockwise; non-zero: centred
	color       string  // #RRGGBB
	opacity     float64
}

// helveticaWidth is the advance of s in Helvetica at size 1 (uppercase and
// digits: about 0.67 em on average; close enough to find room for it).
func helveticaWidth(s string) float64 {
	w := 0.0
	for _, r := range s {
		switch {
		case r == ' ':
			w += 0.278
		case r == '/' || r == '-' || r == '.':
			w += 0.3
		case r == '?':
			w += 0.556
		case r >= '0' && r <= '9':
			w += 0.556
		default:
			w += 0.7
		}
	}
	return w
}

const stampPoints = 10 // pdfcpu takes whole points; scaled from 10 to any size

func stampTexts(in, out string, pageW, pageH float64, stamps map[int][]textStamp) error {
	m := map[int][]*model.Watermark{}
	for page, list := range stamps {
		for _, s := range list {
			scale := s.size / stampPoints
			var desc string
			if s.rotation == 0 {
				// pdfcpu places the text box's lower-left corner at the
				// offset from the page's lower-left; the box starts at the
				// font's descent, about 0.21 em below the baseline.
				dx := s.x
				dy := pageH - s.baseline - 0.21*s.size
				desc = fmt.Sprintf("fontname:Helvetica, points:%d, position:bl, offset:%.2f %.2f, scalefactor:%.4f abs, rotation:0, fillcolor:%s, opacity:%.2f",
					stampPoints, dx, dy, scale, s.color, s.opacity)
			} else {
				// Centred: the offset moves the box's centre from the page's.
				dx := s.x - pageW/2
				dy := pageH/2 - s.baseline
				desc = fmt.Sprintf("fontname:Helvetica, points:%d, position:c, offset:%.2f %.2f, scalefactor:%.4f abs, rotation:%.0f, fillcolor:%s, opacity:%.2f",
					stampPoints, dx, dy, scale, s.rotation, s.color, s.opacity)
			}
			wm, err := api.TextWatermark(s.text, desc, true, false, types.POINTS)
			if err != nil {
				return fmt.Errorf("stamp %q: %w", s.text, err)
			}
			m[page] = append(m[page], wm)
		}
	}
	err := api.AddWatermarksSliceMapFile(in, out, m, pdfedit.Config())
	if err == nil {
		return nil
	}
	return withContext(in, out, model.ADDWATERMARKS, err, func(ctx *model.Context) (*model.Context, error) {
		return ctx, pdfcpu.AddWatermarksSliceMap(ctx, m)
	})
}

// diagonalExtent is half the width and height of the axis-aligned hull of
// text of the given width and size turned by 45 degrees.
func diagonalExtent(width, size float64) float64 {
	return (width + size) * math.Sqrt2 / 4
}
