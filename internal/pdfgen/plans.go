package pdfgen

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// PlanSetOptions shapes a generated plan set.
type PlanSetOptions struct {
	Pages         int
	LabelsPerPage int
	// Width and Height of each sheet in points; ARCH D (36×24 in) when 0.
	Width, Height float64
	// FontSize of the labels; 7 when 0.
	FontSize float64
	// SwitchFonts selects a different font for every label, the pattern
	// of CAD exports that defeats per-font caching in naive extractors.
	SwitchFonts bool
	Seed        uint64
}

// Label vocabulary of architectural sheets.
var (
	roomNames = []string{"BEDROOM", "KITCHEN", "LIVING", "BATH", "CLOSET", "GARAGE", "DINING", "OFFICE", "STAIR", "CORRIDOR", "MECH", "STORAGE", "LOBBY", "LAUNDRY"}
	noteWords = []string{"PROVIDE", "5/8\"", "TYPE", "X", "GYP.", "BD.", "EACH", "SIDE", "SEE", "DETAIL", "ON", "SHEET", "FIRE", "RATED", "ASSEMBLY", "U419", "1-HR", "SMOKE", "ALARM", "EGRESS", "WINDOW", "TEMPERED", "GLAZING", "GUARD", "42\"", "MIN.", "HANDRAIL", "TYP."}
	sheetRefs = []string{"A-101", "A-201", "A-501", "S-001", "M-101", "E-201", "P-301", "G-001"}
)

func dimension(r *rand.Rand) string {
	return fmt.Sprintf("%d'-%d\"", 1+r.IntN(40), r.IntN(12))
}

func label(r *rand.Rand, maxChars int) string {
	var s string
	switch r.IntN(5) {
	case 0:
		s = fmt.Sprintf("%s %d", roomNames[r.IntN(len(roomNames))], 100+r.IntN(400))
	case 1:
		s = dimension(r)
	case 2:
		s = fmt.Sprintf("%d/%s", 1+r.IntN(12), sheetRefs[r.IntN(len(sheetRefs))])
	case 3:
		n := 2 + r.IntN(4)
		words := make([]string, n)
		for i := range words {
			words[i] = noteWords[r.IntN(len(noteWords))]
		}
		s = strings.Join(words, " ")
	default:
		s = fmt.Sprintf("D%d %s", 100+r.IntN(900), dimension(r))
	}
	if len(s) > maxChars {
		s = strings.TrimSpace(s[:maxChars])
	}
	return s
}

// PlanSet generates a plan set: sheets with a grid of labels in several
// fonts (standard 14 without widths, a TrueType with widths, a CID font),
// some rotated a quarter turn, linework, and a title block drawn through a
// Form XObject shared by every sheet.
func PlanSet(o PlanSetOptions) []byte {
	if o.Width == 0 {
		o.Width, o.Height = 2592, 1728
	}
	if o.FontSize == 0 {
		o.FontSize = 7
	}
	r := rand.New(rand.NewPCG(o.Seed, 0x9e3779b97f4a7c15))
	d := New()
	alphabet := []rune(" ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-'\"/.#")
	widths := make([]int, len(alphabet))
	for i := range widths {
		widths[i] = 500 + (i*37)%250
	}
	cid := d.NewCIDFont("PlanSans-CID", alphabet, widths)
	fonts := map[string]int{
		"F1": d.StandardFont("Helvetica"),
		"F2": d.WidthsFont("ArialNarrow", 480, 905, -212),
		"F3": cid.Obj,
		"F4": d.StandardFont("Times-Roman"),
		"F5": d.StandardFont("Helvetica-Bold"),
		"F6": d.StandardFont("Courier"),
	}
	fontNames := []string{"F1", "F2", "F3", "F4", "F5", "F6"}
	titleBlock := d.Form(fmt.Sprintf("0.5 w 0 0 m 400 0 l 400 200 l 0 200 l h S BT /F5 14 Tf 20 160 Td (PLANREVIEW ARCHITECTS) Tj /F1 9 Tf 0 -20 Td (PROJECT: GENERATED RESIDENCE) Tj 0 -14 Td (SCALE: 1/4\" = 1'-0\") Tj ET"),
		[6]float64{1, 0, 0, 1, 0, 0}, [4]float64{0, 0, 400, 200}, map[string]int{"F1": fonts["F1"], "F5": fonts["F5"]}, nil)

	cols := 1
	for cols*cols*2/3 < o.LabelsPerPage {
		cols++
	}
	rows := (o.LabelsPerPage + cols - 1) / cols
	margin := 36.0
	usableH := o.Height - 2*margin - 220 // keep clear of the title block
	cellW := (o.Width - 2*margin) / float64(cols)
	cellH := usableH / float64(rows)
	maxChars := max(3, int(cellW/(o.FontSize*0.75)))

	for p := range o.Pages {
		var c strings.Builder
		// Linework: a border and grid lines, as vector art around the text.
		fmt.Fprintf(&c, "0.8 w %s %s %s %s re S\n", num(margin/2), num(margin/2), num(o.Width-margin), num(o.Height-margin))
		for i := 0; i <= cols; i += max(1, cols/8) {
			x := margin + float64(i)*cellW
			fmt.Fprintf(&c, "%s %s m %s %s l S\n", num(x), num(margin+220), num(x), num(o.Height-margin))
		}
		cur := ""
		for i := range o.LabelsPerPage {
			col, row := i%cols, i/cols
			x := margin + float64(col)*cellW + 2 + r.Float64()*cellW*0.1
			y := margin + 220 + float64(row)*cellH + cellH*0.3 + r.Float64()*cellH*0.2
			fontName := fontNames[i%len(fontNames)]
			if !o.SwitchFonts {
				fontName = fontNames[(i/40)%len(fontNames)]
			}
			text := label(r, maxChars)
			size := o.FontSize
			if i%23 == 0 {
				size = o.FontSize * 1.5
			}
			c.WriteString("BT ")
			if fontName != cur || o.SwitchFonts || size != o.FontSize || i%23 == 1 {
				fmt.Fprintf(&c, "/%s %s Tf ", fontName, num(size))
				cur = fontName
			}
			rotated := i%17 == 0 && cellH > float64(len(text))*size*0.7
			if rotated {
				fmt.Fprintf(&c, "0 1 -1 0 %s %s Tm ", num(x+size), num(y-cellH*0.25))
			} else {
				fmt.Fprintf(&c, "1 0 0 1 %s %s Tm ", num(x), num(y))
			}
			switch {
			case fontName == "F3":
				fmt.Fprintf(&c, "%s Tj", cid.Hex(text))
			case i%7 == 0 && strings.Contains(text, " "):
				// Kerned runs and explicit word spacing, as CAD exports write.
				parts := strings.SplitN(text, " ", 2)
				fmt.Fprintf(&c, "[(%s) -250 (%s)] TJ", Escape(parts[0]), Escape(parts[1]))
			default:
				fmt.Fprintf(&c, "(%s) Tj", Escape(text))
			}
			c.WriteString(" ET\n")
		}
		fmt.Fprintf(&c, "q 1 0 0 1 %s %s cm /TB Do Q\n", num(o.Width-margin-410), num(margin))
		fmt.Fprintf(&c, "BT /F5 24 Tf 1 0 0 1 %s %s Tm (A-%03d) Tj ET\n", num(o.Width-margin-120), num(margin+230), 101+p)
		d.AddPage(PageSpec{
			MediaBox: [4]float64{0, 0, o.Width, o.Height},
			Content:  c.String(),
			Fonts:    fonts,
			XObjects: map[string]int{"TB": titleBlock},
		})
	}
	return d.Bytes()
}
