package sheetimage_test

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"planreview/embed/sheetimage"
)

const corpus = "../../../shared/corpus/"

// newRenderer shares the compiled module between test runs (compiling
// PDFium takes about 15 s on one core; the pages cache stays per test).
func newRenderer(t testing.TB, timeout time.Duration) *sheetimage.Renderer {
	return newRendererWith(t, timeout, nil)
}

func newRendererWith(t testing.TB, timeout time.Duration, memory *sheetimage.MemoryBudget) *sheetimage.Renderer {
	r := &sheetimage.Renderer{CacheDir: t.TempDir(), Timeout: timeout, Memory: memory,
		ModuleCacheDir: filepath.Join(os.TempDir(), "planreview-test-wasm-cache")}
	r.Start()
	t.Cleanup(r.Close)
	return r
}

func corpusFile(t testing.TB, name string) string {
	path := corpus + name
	if _, err := os.Stat(path); err != nil {
		t.Skipf("corpus file %s absent", name)
	}
	return path
}

// TestMatchesPdftoppm: a rendered page has pdftoppm's size for the same
// long side, and its dark pixels lie where pdftoppm's do (the right page,
// the right way up).
func TestMatchesPdftoppm(t *testing.T) {
	if _, err := exec.LookPath("pdftoppm"); err != nil {
		t.Skip("pdftoppm (poppler) not installed")
	}
	r := newRenderer(t, time.Minute)
	for _, tc := range []struct {
		file string
		page int
	}{
		{"polimi_QM-S3_A101_pianta.pdf", 1},
		{"ca_calgary_sample_dp_bp_house_26p.pdf", 3},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := corpusFile(t, tc.file)
			data, err := r.Page(context.Background(), path, "sum-"+tc.file, tc.page, sheetimage.SizeScreen)
			if err != nil {
				t.Fatal(err)
			}
			got, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "ref")
			pg := strconv.Itoa(tc.page)
			if b, err := exec.Command("pdftoppm", "-png", "-gray", "-f", pg, "-l", pg, "-singlefile",
				"-scale-to", strconv.Itoa(sheetimage.SizeScreen), path, out).CombinedOutput(); err != nil {
				t.Fatalf("pdftoppm: %v %s", err, b)
			}
			f, err := os.Open(out + ".png")
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			want, err := png.Decode(f)
			if err != nil {
				t.Fatal(err)
			}
			gb, wb := got.Bounds(), want.Bounds()
			if abs(gb.Dx()-wb.Dx()) > 2 || abs(gb.Dy()-wb.Dy()) > 2 {
				t.Fatalf("size %v, pdftoppm %v", gb.Size(), wb.Size())
			}
			// Dark ink per 16 px cell: most cells dark in one are dark in the other.
			g, w := darkCells(got), darkCells(want)
			both, either := 0, 0
			for k := range w {
				if g[k] && w[k] {
					both++
				}
			}
			either = len(g)
			for k := range w {
				if !g[k] {
					either++
				}
			}
			if either == 0 {
				t.Fatal("no dark pixels in either rendering")
			}
			overlap := float64(both) / float64(either)
			t.Logf("%s p%d: %v vs pdftoppm %v, dark-cell overlap %.2f", tc.file, tc.page, gb.Size(), wb.Size(), overlap)
			if overlap < 0.7 {
				t.Errorf("dark-cell overlap %.2f < 0.7", overlap)
			}
		})
	}
}

func darkCells(img image.Image) map[[2]int]bool {
	cells := map[[2]int]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if (r+g+bl)/3 < 0x6000 {
				cells[[2]int{(x - b.Min.X) / 16, (y - b.Min.Y) / 16}] = true
			}
		}
	}
	return cells
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// TestBoundedPage: a page that runs past its time fails alone; the next
// render works, and a file that is not a PDF fails its image only.
func TestBoundedPage(t *testing.T) {
	path := corpusFile(t, "us_va_stcloud_bldg28_renovation_cds.pdf")
	r := newRenderer(t, time.Millisecond)
	// Wait for the module first so the timeout hits the page, not start-up.
	if _, err := r.Page(context.Background(), path, "warm", 999, sheetimage.SizeScreen); !errors.Is(err, sheetimage.ErrPage) {
		t.Logf("warm-up: %v", err)
	}
	if _, err := r.Page(context.Background(), path, "slow", 1, sheetimage.SizeLarge); !errors.Is(err, sheetimage.ErrPage) {
		t.Fatalf("a page past its time: %v, want ErrPage", err)
	}
	r.Timeout = time.Minute
	if _, err := r.Page(context.Background(), path, "after", 1, sheetimage.SizeScreen); err != nil {
		t.Fatalf("render after a killed page: %v", err)
	}
	junk := filepath.Join(t.TempDir(), "junk.pdf")
	if err := os.WriteFile(junk, []byte("%PDF-1.7\nnot really"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Page(context.Background(), junk, "junk", 1, sheetimage.SizeScreen); !errors.Is(err, sheetimage.ErrPage) {
		t.Fatalf("junk file: %v, want ErrPage", err)
	}
}

// TestMemoryBudget: a render whose PDFium memory the budget refuses fails
// its image only; one the budget allows works, and gives all its memory
// back when it ends.
func TestMemoryBudget(t *testing.T) {
	path := corpusFile(t, "drawingparser_adu_existing_site_plan.pdf")
	starved := newRendererWith(t, time.Minute, &sheetimage.MemoryBudget{Ceiling: 1})
	// At the large size the bitmap alone (35 MB) is past PDFium's initial
	// memory, so PDFium must grow it.
	if _, err := starved.Page(context.Background(), path, "starved", 1, sheetimage.SizeLarge); !errors.Is(err, sheetimage.ErrPage) {
		t.Fatalf("render without memory: %v, want ErrPage", err)
	}
	var peak uint64
	budget := &sheetimage.MemoryBudget{Changed: func(inUse uint64) { peak = max(peak, inUse) }}
	r := newRendererWith(t, time.Minute, budget)
	if _, err := r.Page(context.Background(), path, "fed", 1, sheetimage.SizeLarge); err != nil {
		t.Fatalf("render within the budget: %v", err)
	}
	if peak == 0 || budget.InUse() != 0 {
		t.Fatalf("PDFium held %d bytes at most, %d after the render: want some, then none", peak, budget.InUse())
	}
	t.Logf("PDFium memory for one 24x36 in sheet at %d px: %d MiB", sheetimage.SizeLarge, peak>>20)
}

// BenchmarkFirstImage is the job screen's first sheet on a 24×36 in sheet
// (2592 × 1728 pt): rendered (cold) and cached.
func BenchmarkFirstImage(b *testing.B) {
	path := corpusFile(b, "drawingparser_adu_existing_site_plan.pdf")
	r := newRenderer(b, time.Minute)
	if _, err := r.Page(context.Background(), path, "warm", 1, sheetimage.SizeScreen); err != nil {
		b.Fatal(err)
	}
	b.Run("cold", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			if _, err := r.Page(context.Background(), path, "cold-"+strconv.Itoa(i), 1, sheetimage.SizeScreen); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cached", func(b *testing.B) {
		for b.Loop() {
			if _, err := r.Page(context.Background(), path, "warm", 1, sheetimage.SizeScreen); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestTiles: zoom levels are cut into TileSize squares, the edges padded
// white; a tile past the page's edge is not a tile; a deep level draws the
// words a level above shows (its tile is darker than blank paper).
func TestTiles(t *testing.T) {
	path := corpusFile(t, "us_ca_kaiser_richmond_E201A_power_signal.pdf") // 42 x 30 in
	r := newRenderer(t, 2*time.Minute)
	ctx := context.Background()
	// Level 1: 3200 x 2286 px, 7 x 5 tiles.
	for _, at := range [][2]int{{0, 0}, {6, 4}, {3, 2}} {
		data, err := r.Tile(ctx, path, "kaiser", 1, 1, at[0], at[1])
		if err != nil {
			t.Fatalf("tile %v: %v", at, err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if b := img.Bounds(); b.Dx() != sheetimage.TileSize || b.Dy() != sheetimage.TileSize {
			t.Fatalf("tile %v is %v", at, b)
		}
		if at == [2]int{6, 4} {
			// 3200 - 6*512 = 128 px of page, the rest white.
			if c, _, _, _ := img.At(300, 50).RGBA(); c>>8 != 0xff {
				t.Errorf("past the page's right edge is not white: %d", c>>8)
			}
		}
	}
	if _, err := r.Tile(ctx, path, "kaiser", 1, 1, 7, 0); !errors.Is(err, sheetimage.ErrPage) {
		t.Errorf("a tile past the right edge: %v", err)
	}
	if _, err := r.Tile(ctx, path, "kaiser", 1, 1, 0, 5); !errors.Is(err, sheetimage.ErrPage) {
		t.Errorf("a tile past the bottom edge: %v", err)
	}
	if _, err := r.Tile(ctx, path, "kaiser", 1, sheetimage.MaxLevel+1, 0, 0); !errors.Is(err, sheetimage.ErrPage) {
		t.Errorf("a level past the deepest: %v", err)
	}
	data, err := r.Tile(ctx, path, "kaiser", 1, sheetimage.MaxLevel, 12, 8)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	dark := 0
	for y := 0; y < sheetimage.TileSize; y++ {
		for x := 0; x < sheetimage.TileSize; x++ {
			if c, _, _, _ := img.At(x, y).RGBA(); c>>8 < 128 {
				dark++
			}
		}
	}
	if dark == 0 {
		t.Error("a tile in the middle of a floor plan at the deepest level is blank")
	}
}

// BenchmarkLevels: drawing a 42 x 30 in sheet's prerendered zoom levels
// whole and cut into tiles, and one tile of the deepest level, cold.
func BenchmarkLevels(b *testing.B) {
	path := corpusFile(b, "us_ca_kaiser_richmond_E201A_power_signal.pdf")
	r := newRenderer(b, 2*time.Minute)
	ctx := context.Background()
	if _, err := r.Page(ctx, path, "warm", 1, sheetimage.SizeThumb); err != nil {
		b.Fatal(err)
	}
	for _, level := range []int{1, 2, 3} {
		b.Run("level"+strconv.Itoa(level), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				sum := "bench-" + strconv.Itoa(level) + "-" + strconv.Itoa(i)
				if _, err := r.Tile(ctx, path, sum, 1, level, 2, 2); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestThumbFromScreen: a thumbnail is the screen image made small, the
// page's shape kept.
func TestThumbFromScreen(t *testing.T) {
	path := corpusFile(t, "ca_calgary_sample_dp_bp_house_26p.pdf")
	r := newRenderer(t, time.Minute)
	data, err := r.Page(context.Background(), path, "calgary", 3, sheetimage.SizeThumb)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	screenData, err := r.Page(context.Background(), path, "calgary", 3, sheetimage.SizeScreen)
	if err != nil {
		t.Fatal(err)
	}
	screen, err := png.Decode(bytes.NewReader(screenData))
	if err != nil {
		t.Fatal(err)
	}
	b, sb := img.Bounds(), screen.Bounds()
	if max(b.Dx(), b.Dy()) != sheetimage.SizeThumb || abs(b.Dx()*sb.Dy()-b.Dy()*sb.Dx()) > max(sb.Dx(), sb.Dy()) {
		t.Errorf("thumbnail %v of a screen image %v", b, sb)
	}
	dark := 0
	for y := 0; y < img.Bounds().Dy(); y++ {
		for x := 0; x < img.Bounds().Dx(); x++ {
			if c, _, _, _ := img.At(x, y).RGBA(); c>>8 < 200 {
				dark++
			}
		}
	}
	if dark == 0 {
		t.Error("a blank thumbnail of a drawn page")
	}
}
