package sheetimage

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/draw"
	"math"
	"os"
	"path/filepath"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/requests"
)

// Zoom tiles. Level L (1..MaxLevel) draws a page with its long side
// SizeScreen<<L pixels (level 0 is the screen image), cut into TileSize
// squares from the top left; the tiles on the right and bottom edges are
// padded with white, so every tile is TileSize square and a screen places
// tile (x, y) of level L at x*TileSize/(SizeScreen<<L) of the long side.
// At MaxLevel a 42 in sheet is drawn at about 300 dpi: 8x the width it has
// fitted into a laptop's browser, still sharp.
const (
	TileSize = 512
	MaxLevel = 3
	// LevelsPrerendered are drawn whole (one render, then cut) for every
	// page once a screen shows the file (WarmLevels), or at their first
	// tile; deeper levels a block of tiles at a time; all kept once drawn.
	LevelsPrerendered = 2
	// blockTiles: a deep level is drawn a block of blockTiles² tiles at a
	// time. Most of a render's time goes to reading the page's drawing,
	// whatever the region, so a view's tiles come in one or two renders.
	blockTiles = 4
	// maxLevelPixels caps a level drawn whole (a grey 40 MP bitmap); a
	// page of unusual shape is drawn in bands of one tile row instead.
	maxLevelPixels = 40_000_000
)

// Tile returns the PNG of tile (x, y) of zoom level level of a page.
func (r *Renderer) Tile(ctx context.Context, pdfPath, sum string, page, level, x, y int) ([]byte, error) {
	return r.tile(ctx, pdfPath, sum, page, level, x, y, foreground)
}

func (r *Renderer) tile(ctx context.Context, pdfPath, sum string, page, level, x, y int, class priority) ([]byte, error) {
	long := SizeScreen << max(level, 0)
	if page < 1 || level < 1 || level > MaxLevel || x < 0 || y < 0 || x*TileSize >= long || y*TileSize >= long {
		return nil, ErrPage
	}
	dir := filepath.Join(r.CacheDir, "pages", sum, fmt.Sprintf("%d-L%d", page, level))
	cached := filepath.Join(dir, fmt.Sprintf("%d-%d.png", x, y))
	if level <= LevelsPrerendered {
		return r.single(ctx, dir, cached, class, func(j *job) ([]byte, error) {
			return nil, r.renderLevel(j, pdfPath, dir, page, level)
		})
	}
	bx, by := x/blockTiles, y/blockTiles
	return r.single(ctx, fmt.Sprintf("%s/b%d-%d", dir, bx, by), cached, class, func(j *job) ([]byte, error) {
		return nil, r.renderBlock(j, pdfPath, dir, page, level, bx, by)
	})
}

// levelSize is a page's size in pixels at a level and its pixels per point.
func levelSize(wPt, hPt float64, level int) (w, h int, scale float64) {
	scale = float64(int(SizeScreen)<<level) / max(wPt, hPt)
	return max(1, int(math.Ceil(wPt*scale-0.01))), max(1, int(math.Ceil(hPt*scale-0.01))), scale
}

// renderLevel draws a whole level (in bands when it is too big for one
// bitmap) and writes all its tiles; a level already on disk is skipped.
// A level drawn in one bitmap is cut and encoded after its render slot is
// freed, so a screen's render waits for the drawing only.
func (r *Renderer) renderLevel(j *job, pdfPath, dir string, page, level int) error {
	if _, ok := readCache(filepath.Join(dir, "0-0.png")); ok {
		return nil
	}
	tiles := map[[2]int][]byte{}
	whole, err := r.run(j, page, func(inst pdfium.Pdfium) (image.Image, error) {
		return withPage(inst, pdfPath, page, func(ref requests.Page, wPt, hPt float64) (image.Image, error) {
			w, h, scale := levelSize(wPt, hPt, level)
			if w*h <= maxLevelPixels {
				return drawRegion(inst, ref, scale, 0, 0, w, h)
			}
			for top := 0; top < h; top += TileSize {
				bh := min(TileSize, h-top)
				img, err := drawRegion(inst, ref, scale, 0, top, w, bh)
				if err != nil {
					return nil, err
				}
				if err := cutAll(img, 0, top, tiles); err != nil {
					return nil, err
				}
			}
			return nil, nil
		})
	})
	if err != nil {
		return err
	}
	if img, ok := whole.(*image.Gray); ok && img != nil {
		if err := cutAll(img, 0, 0, tiles); err != nil {
			return err
		}
	}
	// 0-0.png last: its presence says the level is complete.
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	for at, data := range tiles {
		if at != [2]int{0, 0} {
			if err := writeCache(filepath.Join(dir, fmt.Sprintf("%d-%d.png", at[0], at[1])), data, 0o600); err != nil {
				return err
			}
		}
	}
	return writeCache(filepath.Join(dir, "0-0.png"), tiles[[2]int{0, 0}], 0o600)
}

// cutAll cuts img, the region of a level at pixel (left, top), a multiple
// of TileSize, into its tiles and encodes them into tiles.
func cutAll(img *image.Gray, left, top int, tiles map[[2]int][]byte) error {
	b := img.Bounds()
	for ty := 0; ty*TileSize < b.Dy(); ty++ {
		for tx := 0; tx*TileSize < b.Dx(); tx++ {
			data, err := encodePNG(cut(img, tx*TileSize, ty*TileSize))
			if err != nil {
				return err
			}
			tiles[[2]int{left/TileSize + tx, top/TileSize + ty}] = data
		}
	}
	return nil
}

// renderBlock draws block (bx, by) of a deep level and keeps its tiles,
// cut and encoded after the render slot is freed.
func (r *Renderer) renderBlock(j *job, pdfPath, dir string, page, level, bx, by int) error {
	left, top := bx*blockTiles*TileSize, by*blockTiles*TileSize
	img, err := r.run(j, page, func(inst pdfium.Pdfium) (image.Image, error) {
		return withPage(inst, pdfPath, page, func(ref requests.Page, wPt, hPt float64) (image.Image, error) {
			w, h, scale := levelSize(wPt, hPt, level)
			if left >= w || top >= h {
				return nil, ErrPage
			}
			return drawRegion(inst, ref, scale, left, top, min(blockTiles*TileSize, w-left), min(blockTiles*TileSize, h-top))
		})
	})
	if err != nil {
		return err
	}
	gray, ok := img.(*image.Gray)
	if !ok || gray == nil {
		return ErrPage
	}
	tiles := map[[2]int][]byte{}
	if err := cutAll(gray, left, top, tiles); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	for at, data := range tiles {
		if err := writeCache(filepath.Join(dir, fmt.Sprintf("%d-%d.png", at[0], at[1])), data, 0o600); err != nil {
			return err
		}
	}
	return nil
}

// drawRegion renders the w × h pixels at (left, top) of the page drawn
// at scale pixels per point, in grey, copied out of the instance.
func drawRegion(inst pdfium.Pdfium, ref requests.Page, scale float64, left, top, w, h int) (*image.Gray, error) {
	res, err := inst.RenderPageInPixels(&requests.RenderPageInPixels{Page: ref, Width: w, Height: h,
		ImageFormat: requests.RenderImageFormatGrayscale,
		Crop:        &requests.RenderPageCrop{X: float64(left) / scale, Y: float64(top) / scale, Width: float64(w) / scale, Height: float64(h) / scale}})
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrPage, err)
	}
	defer res.Cleanup()
	src, ok := res.Result.RenderedImage.(*image.Gray)
	if !ok {
		return nil, fmt.Errorf("%w: unexpected bitmap %T", ErrPage, res.Result.RenderedImage)
	}
	dst := image.NewGray(src.Bounds())
	copy(dst.Pix, src.Pix)
	return dst, nil
}

// cut is the TileSize square of img at (left, top), white where the
// page ends.
func cut(img *image.Gray, left, top int) *image.Gray {
	out := image.NewGray(image.Rect(0, 0, TileSize, TileSize))
	for i := range out.Pix {
		out.Pix[i] = 0xff
	}
	b := img.Bounds()
	draw.Draw(out, out.Bounds(), img, image.Pt(b.Min.X+left, b.Min.Y+top), draw.Src)
	return out
}

// pngEnd is the IEND chunk every complete PNG ends with.
var pngEnd = []byte{0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82}

// writeCache writes a cached image: a temporary file renamed into place,
// so a reader sees all of it or none, without an fsync per file (a level
// is a hundred tiles; the cache is rebuilt from the upload at need).
func writeCache(path string, data []byte, perm os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), perm)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
	}
	return err
}

// readCache reads a cached image; one a crash left incomplete (written,
// renamed, not yet on disk) counts as missing and is drawn again.
func readCache(path string) ([]byte, bool) {
	data, err := os.ReadFile(path)
	if err != nil || !bytes.HasSuffix(data, pngEnd) {
		return nil, false
	}
	return data, true
}
