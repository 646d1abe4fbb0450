package sheets

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"planreview/internal/pdfgen"
	"planreview/scan/layout"
	"planreview/scan/pdftext"
)

// drawing builds a one-page PDF in displayed points (top-left origin, y
// down): Helvetica text for the text layer, and text stroked as lines the
// way CAD exports draw SHX fonts.
type drawing struct {
	w, h float64
	b    strings.Builder
}

func newDrawing() *drawing { return &drawing{w: 1224, h: 792} }

func (d *drawing) text(x, y, size float64, s string) {
	fmt.Fprintf(&d.b, "BT /F1 %g Tf %g %g Td (%s) Tj ET\n", size, x, d.h-y, s)
}

// mono writes s in Courier, whose advance (0.6 em) at size 10 is the
// stroke font's at size 6: the words lie over the strokes.
func (d *drawing) mono(x, y float64, s string) {
	fmt.Fprintf(&d.b, "BT /F2 10 Tf %g %g Td (%s) Tj ET\n", x, d.h-y, strings.NewReplacer(`"`, `\"`).Replace(s))
}

// polyline strokes one path through the points (displayed points).
func (d *drawing) polyline(pts ...[2]float64) {
	for i, p := range pts {
		op := "l"
		if i == 0 {
			op = "m"
		}
		fmt.Fprintf(&d.b, "%.2f %.2f %s ", p[0], d.h-p[1], op)
	}
	d.b.WriteString("S\n")
}

// strokeFont is a stroked capital font on a unit cell (x 0–0.7, y 0 at
// the baseline to 1 at the cap line, y up), one polyline per stroke.
var strokeFont = map[rune][][][2]float64{
	'A': {{{0, 0}, {0.35, 1}, {0.7, 0}}, {{0.12, 0.35}, {0.58, 0.35}}},
	'B': {{{0, 0}, {0, 1}, {0.5, 1}, {0.65, 0.85}, {0.65, 0.6}, {0.5, 0.5}, {0, 0.5}}, {{0.5, 0.5}, {0.7, 0.35}, {0.7, 0.12}, {0.55, 0}, {0, 0}}},
	'C': {{{0.7, 0.85}, {0.55, 1}, {0.15, 1}, {0, 0.85}, {0, 0.15}, {0.15, 0}, {0.55, 0}, {0.7, 0.15}}},
	'D': {{{0, 0}, {0, 1}, {0.45, 1}, {0.7, 0.75}, {0.7, 0.25}, {0.45, 0}, {0, 0}}},
	'E': {{{0.7, 1}, {0, 1}, {0, 0}, {0.7, 0}}, {{0, 0.5}, {0.5, 0.5}}},
	'F': {{{0.7, 1}, {0, 1}, {0, 0}}, {{0, 0.5}, {0.5, 0.5}}},
	'G': {{{0.7, 0.85}, {0.55, 1}, {0.15, 1}, {0, 0.85}, {0, 0.15}, {0.15, 0}, {0.55, 0}, {0.7, 0.15}, {0.7, 0.45}, {0.4, 0.45}}},
	'H': {{{0, 0}, {0, 1}}, {{0.7, 0}, {0.7, 1}}, {{0, 0.5}, {0.7, 0.5}}},
	'I': {{{0.35, 0}, {0.35, 1}}},
	'K': {{{0, 0}, {0, 1}}, {{0.7, 1}, {0, 0.35}}, {{0.2, 0.55}, {0.7, 0}}},
	'L': {{{0, 1}, {0, 0}, {0.7, 0}}},
	'M': {{{0, 0}, {0, 1}, {0.35, 0.4}, {0.7, 1}, {0.7, 0}}},
	'N': {{{0, 0}, {0, 1}, {0.7, 0}, {0.7, 1}}},
	'O': {{{0.15, 0}, {0, 0.15}, {0, 0.85}, {0.15, 1}, {0.55, 1}, {0.7, 0.85}, {0.7, 0.15}, {0.55, 0}, {0.15, 0}}},
	'P': {{{0, 0}, {0, 1}, {0.55, 1}, {0.7, 0.85}, {0.7, 0.6}, {0.55, 0.45}, {0, 0.45}}},
	'R': {{{0, 0}, {0, 1}, {0.55, 1}, {0.7, 0.85}, {0.7, 0.6}, {0.55, 0.45}, {0, 0.45}}, {{0.35, 0.45}, {0.7, 0}}},
	'S': {{{0.7, 0.85}, {0.55, 1}, {0.15, 1}, {0, 0.85}, {0, 0.6}, {0.15, 0.5}, {0.55, 0.5}, {0.7, 0.4}, {0.7, 0.15}, {0.55, 0}, {0.15, 0}, {0, 0.15}}},
	'T': {{{0, 1}, {0.7, 1}}, {{0.35, 1}, {0.35, 0}}},
	'U': {{{0, 1}, {0, 0.15}, {0.15, 0}, {0.55, 0}, {0.7, 0.15}, {0.7, 1}}},
	'V': {{{0, 1}, {0.35, 0}, {0.7, 1}}},
	'W': {{{0, 1}, {0.15, 0}, {0.35, 0.6}, {0.55, 0}, {0.7, 1}}},
	'X': {{{0, 0}, {0.7, 1}}, {{0, 1}, {0.7, 0}}},
	'Y': {{{0, 1}, {0.35, 0.5}, {0.7, 1}}, {{0.35, 0.5}, {0.35, 0}}},
	'1': {{{0.15, 0.8}, {0.35, 1}, {0.35, 0}}},
	'2': {{{0, 0.85}, {0.15, 1}, {0.55, 1}, {0.7, 0.85}, {0.7, 0.6}, {0, 0}, {0.7, 0}}},
	'3': {{{0, 0.85}, {0.15, 1}, {0.55, 1}, {0.7, 0.85}, {0.7, 0.6}, {0.5, 0.5}, {0.7, 0.4}, {0.7, 0.15}, {0.55, 0}, {0.15, 0}, {0, 0.15}}},
	'4': {{{0.55, 0}, {0.55, 1}, {0, 0.3}, {0.7, 0.3}}},
	'"': {{{0.25, 1}, {0.25, 0.75}}, {{0.45, 1}, {0.45, 0.75}}},
	'/': {{{0, 0}, {0.7, 1}}},
	'-': {{{0.1, 0.5}, {0.6, 0.5}}},
	'.': {{{0.3, 0}, {0.35, 0}}},
	',': {{{0.35, 0.05}, {0.25, -0.2}}},
}

// outlined strokes s with its baseline from (x, y), size points tall;
// turned, it reads up the page.
func (d *drawing) outlined(x, y, size float64, turned bool, s string) {
	for i, r := range s {
		for _, stroke := range strokeFont[r] {
			pts := make([][2]float64, len(stroke))
			for k, g := range stroke {
				along, up := (float64(i)+g[0])*size, g[1]*size
				if turned {
					pts[k] = [2]float64{x - up, y - along}
				} else {
					pts[k] = [2]float64{x + along, y - up}
				}
			}
			d.polyline(pts...)
		}
	}
}

// titleBlock writes what the text layer holds on every test sheet.
func (d *drawing) titleBlock() {
	d.text(1000, 700, 9, "PLUMBING SECOND FLOOR PLAN")
	d.text(1000, 720, 7, "SCALE: 1/8\" = 1'-0\"")
	d.text(1000, 735, 7, "ISSUED FOR CONSTRUCTION 3/6/2020")
	d.text(1100, 770, 24, "P-120")
	d.text(300, 300, 8, "OFFICE 2040")
	d.text(450, 300, 8, "CORRIDOR 2041")
}

func (d *drawing) page(t *testing.T) *pdftext.Page {
	t.Helper()
	gen := pdfgen.New()
	fonts := map[string]int{"F1": gen.StandardFont("Helvetica"), "F2": gen.StandardFont("Courier")}
	gen.AddPage(pdfgen.PageSpec{MediaBox: [4]float64{0, 0, d.w, d.h}, Content: d.b.String(), Fonts: fonts})
	data := gen.Bytes()
	doc, err := pdftext.OpenReader(context.Background(), bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	p, err := doc.Page(context.Background(), 1)
	if err != nil || p.Err != nil {
		t.Fatal(err, p.Err)
	}
	return p
}

var keyNotes = []string{
	"P1 INSTALL NEW TOILET IN LOCATION OF REMOVED TOILET",
	"P2 CONNECT NEW 1/2\" CW TO EXISTING SUPPLY",
	"P3 4\" SAN DOWN IN WALL TO 4\" SAN BELOW",
	"P4 PROVIDE NEW VENT THROUGH ROOF",
	"P5 REMOVE EXISTING SINK, CAP WASTE AND VENT",
	"P6 CONNECT TO EXISTING STACK ABOVE CEILING",
	"P7 PROVIDE ACCESS PANEL AT VALVE",
	"P8 NEW 3\" WASTE DOWN TO FIRST FLOOR",
}

// TestOutlinedNotesArePartial: a sheet whose key notes are stroked text
// (no words over them) has a region of outlined text where the notes
// are, and reads partial; its title block still reads.
func TestOutlinedNotesArePartial(t *testing.T) {
	d := newDrawing()
	d.titleBlock()
	for i, n := range keyNotes {
		d.outlined(700, 80+float64(i)*11, 6, false, n)
	}
	d.outlined(150, 600, 5, true, "4\" SAN DOWN TO FIRST FLOOR") // a pipe label up the page
	p := d.page(t)
	regions := layout.FindOutlinedText(p)
	notes := Box{X0: 700, Y0: 70, X1: 1020, Y1: 160}
	var inNotes, turned bool
	for _, r := range regions {
		if notes.Encloses(r.Box) && r.Lines >= 6 {
			inNotes = true
		}
		if r.Box.X1 <= 155 && r.Box.Height() > 60 {
			turned = true
		}
		if !notes.Encloses(r.Box) && r.Box.X1 > 155 {
			t.Errorf("a region away from the outlined text: %+v", r)
		}
	}
	if !inNotes || !turned {
		t.Errorf("notes found %v, turned label found %v: %+v", inNotes, turned, regions)
	}
	// Read from the words alone, and from the page's layout (as the
	// pipeline reads it: the regions found when the page was laid out).
	for _, layouts := range [][]*layout.Page{nil, {layout.Analyze(p)}} {
		pm := ReadSetLayouts([]*pdftext.Page{p}, layouts).Pages[0]
		if pm.TextLayer != TextPartial || !pm.PartlyOutlined || len(pm.Outlined) == 0 {
			t.Errorf("layouts %v: text layer %q, partly outlined %v, %d regions", layouts != nil, pm.TextLayer, pm.PartlyOutlined, len(pm.Outlined))
		}
		if pm.SheetNumber != "P-120" {
			t.Errorf("layouts %v: sheet number %q", layouts != nil, pm.SheetNumber)
		}
	}
}

// TestFilledOutlinesAreOutlined: text converted to filled glyph outlines
// (curves, filled) is outlined text too.
func TestFilledOutlinesAreOutlined(t *testing.T) {
	d := newDrawing()
	d.titleBlock()
	for row := 0; row < 8; row++ {
		y := d.h - (80 + float64(row)*11)
		for c := 0; c < 40; c++ {
			if c%7 == 6 {
				continue // a word space
			}
			// A bowl 4 pt wide and 6 pt tall, and its counter.
			x := 700 + float64(c)*5.5
			fmt.Fprintf(&d.b, "%g %g m %g %g %g %g %g %g c %g %g %g %g %g %g c h ", x, y, x, y+8, x+4, y+8, x+4, y, x+4, y-8, x, y-8, x, y)
			fmt.Fprintf(&d.b, "%g %g m %g %g %g %g %g %g c h f\n", x+1, y, x+1, y+5, x+3, y+5, x+3, y)
		}
	}
	p := d.page(t)
	regions := layout.FindOutlinedText(p)
	if len(regions) != 1 || regions[0].Lines != 8 {
		t.Errorf("filled outlines: %+v", regions)
	}
}

// TestWordsOverStrokesAreNotOutlined: strokes the text layer covers (an
// SHX font exported with its text, or text over its own outline) are
// read text.
func TestWordsOverStrokesAreNotOutlined(t *testing.T) {
	d := newDrawing()
	d.titleBlock()
	for i, n := range keyNotes {
		y := 80 + float64(i)*11
		d.outlined(700, y, 6, false, n)
		d.mono(700, y, n)
	}
	p := d.page(t)
	if r := layout.FindOutlinedText(p); len(r) != 0 {
		t.Errorf("strokes under words marked outlined: %+v", r)
	}
}

// TestOutlinedLookAlikes: the small strokes of a drawing that are no
// text (hatching, a chain of dimensions with ticks, plumbing fixtures and
// door swings, a dense table's rules) make no outlined region, and the
// sheet reads in full.
func TestOutlinedLookAlikes(t *testing.T) {
	cases := map[string]func(d *drawing){
		"hatching": func(d *drawing) {
			// A hatched wall 8 pt thick and a cross-hatched slab.
			for x := 100.0; x < 500; x += 2 {
				d.polyline([2]float64{x, 408}, [2]float64{x + 8, 400})
			}
			for y := 450.0; y < 550; y += 6 {
				for x := 100.0; x < 300; x += 6 {
					d.polyline([2]float64{x, y + 6}, [2]float64{x + 6, y})
					d.polyline([2]float64{x, y}, [2]float64{x + 6, y + 6})
				}
			}
		},
		"dimension string": func(d *drawing) {
			for i := 0; i < 10; i++ {
				x := 100 + float64(i)*40
				d.polyline([2]float64{x, 500}, [2]float64{x + 40, 500})
				d.polyline([2]float64{x, 492}, [2]float64{x, 508})
				d.polyline([2]float64{x - 2, 502}, [2]float64{x + 2, 498})
				d.text(x+12, 496, 6, "3'-4\"")
			}
			d.polyline([2]float64{498, 502}, [2]float64{502, 498})
		},
		"fixtures and door swings": func(d *drawing) {
			for i := 0; i < 8; i++ {
				x := 100 + float64(i)*28
				// A water closet: a tank, a bowl flattened to a polygon
				// as CAD exports draw arcs, a seat curve.
				d.polyline([2]float64{x, 400}, [2]float64{x + 14, 400}, [2]float64{x + 14, 405}, [2]float64{x, 405}, [2]float64{x, 400})
				var bowl [][2]float64
				for k := 0; k <= 16; k++ {
					a := float64(k) / 16 * 2 * math.Pi
					bowl = append(bowl, [2]float64{x + 7 + 6*math.Cos(a), 413 + 8*math.Sin(a)})
				}
				d.polyline(bowl...)
				fmt.Fprintf(&d.b, "%g %g m %g %g %g %g %g %g c S\n", x+2, d.h-413, x+2, d.h-420, x+12, d.h-420, x+12, d.h-413)
				// A door: its leaf and its swing.
				dx := 100 + float64(i)*40
				d.polyline([2]float64{dx, 600}, [2]float64{dx, 570})
				fmt.Fprintf(&d.b, "%g %g m %g %g %g %g %g %g c S\n", dx, d.h-570, dx+16, d.h-570, dx+30, d.h-584, dx+30, d.h-600)
			}
		},
		"table rules": func(d *drawing) {
			for r := 0; r < 20; r++ {
				for c := 0; c < 10; c++ {
					x, y := 100+float64(c)*12, 400+float64(r)*8
					d.polyline([2]float64{x, y}, [2]float64{x + 12, y})
					d.polyline([2]float64{x, y}, [2]float64{x, y + 8})
				}
			}
		},
	}
	for name, draw := range cases {
		t.Run(name, func(t *testing.T) {
			d := newDrawing()
			d.titleBlock()
			draw(d)
			p := d.page(t)
			if len(p.SmallPaths) == 0 {
				t.Fatal("the drawing drew no small paths")
			}
			if r := layout.FindOutlinedText(p); len(r) != 0 {
				t.Errorf("marked outlined: %+v", r)
			}
			if pm := ReadSet([]*pdftext.Page{p}).Pages[0]; pm.TextLayer != TextFull || pm.PartlyOutlined {
				t.Errorf("text layer %q", pm.TextLayer)
			}
		})
	}
}
