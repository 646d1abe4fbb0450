// Package sheetimage renders PDF pages to PNG images on the appliance, for
// the hosted job and chat screens (and, later, a vision model). It runs
// PDFium compiled to WebAssembly inside the Go process (go-pdfium's
// webassembly build on wazero): no cgo, no helper binary, no browser
// plugin, and the module ships inside the Go module, so nothing is
// downloaded at build or run time. docs/sheet-images.md says why.
//
// Each page is rendered once per size and kept under the cache folder
// (durable writes). A render is bounded: the WebAssembly memory has a cap,
// the pixel count has a cap, and a page that takes longer than the timeout
// has its PDFium instance killed; the page fails, the server does not.
package sheetimage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/requests"
	"github.com/klippa-app/go-pdfium/webassembly"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
)

// Sizes a page is rendered at: the long side in pixels. Screen fits a
// sheet in a browser column; Large is for zooming in on the words (about
// 100 dpi on a 24×36 in sheet).
const (
	SizeThumb  = 240
	SizeScreen = 1600
	SizeLarge  = 3600
)

// maxPixels caps one image whatever the page's shape (a 1 × 200 in strip
// would otherwise ask for a huge bitmap at the long-side size).
const maxPixels = 16_000_000

// ErrPage means the page could not be rendered: the file is not a PDF
// PDFium can open, the page does not exist, or the render ran out of time
// or memory. The caller answers the image as missing; nothing else fails.
var ErrPage = errors.New("page could not be rendered")

// Renderer renders and caches page images. Its zero value is not usable;
// set the fields and call Start.
type Renderer struct {
	CacheDir    string        // where PNGs and the compiled module live
	Timeout     time.Duration // per page; default 20 s
	MemoryLimit int           // WebAssembly memory per instance, bytes; default 1 GiB
	Workers     int           // concurrent renders; default 1
	// Memory, when set, is what all renders' PDFium memory draws from:
	// the process's memory ceiling, shared with the scans.
	Memory *MemoryBudget
	// ModuleCacheDir holds wazero's compiled PDFium; default CacheDir/wasm.
	ModuleCacheDir string
	// Compile, when set, fills ModuleCacheDir in another process before
	// PDFium starts in this one: compiling the 5.8 MB module takes about
	// 300 MB of heap for 15 s, which a serving appliance must not hold
	// (its scans have a memory ceiling); loading the compiled code takes
	// a fraction. On failure the module is compiled here as before.
	Compile func(ctx context.Context, moduleCacheDir string) error

	once    sync.Once
	ready   chan struct{}
	pool    pdfium.Pool
	initErr error
	slots   *gate

	inflightMu sync.Mutex
	inflight   map[string]*call
	renders    sync.WaitGroup // Close waits for them
	waiting    atomic.Int32   // callers a screen waits on; prerendering gives way
	screening  atomic.Int32   // files whose screen images are being drawn; zoom levels wait
	warmed     sync.Map       // sum → zoom levels being drawn or drawn
	stopping   chan struct{}  // closed by Close: background drawing ends
	stopOnce   sync.Once
}

type call struct {
	urgent atomic.Bool   // a screen waits for it: it no longer gives way
	took   time.Duration // in a render slot
	done   chan struct{}
	data   []byte
	err    error
}

// Start compiles the WebAssembly module in the background (about 15 s on
// one core the first time; wazero's compilation cache in CacheDir makes
// later starts fast). Renders wait for it.
func (r *Renderer) Start() {
	r.once.Do(func() {
		r.ready = make(chan struct{})
		if r.Workers <= 0 {
			r.Workers = 1
		}
		r.slots = newGate(r.Workers)
		r.stopping = make(chan struct{})
		r.inflight = map[string]*call{}
		go func() {
			defer close(r.ready)
			r.pool, r.initErr = r.initPool()
		}()
	})
}

func (r *Renderer) initPool() (pool pdfium.Pool, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("sheet images: starting PDFium: %v", p)
		}
	}()
	limit := r.MemoryLimit
	if limit <= 0 {
		limit = 1 << 30
	}
	cfg := wazero.NewRuntimeConfig().
		WithCoreFeatures(api.CoreFeaturesV2 | experimental.CoreFeaturesExceptionHandling).
		WithMemoryLimitPages(uint32(limit / 65536)).
		WithCloseOnContextDone(true) // Kill interrupts a page that runs too long
	dir := r.moduleCacheDir()
	if dir != "" && r.Compile != nil {
		_ = r.Compile(context.Background(), dir) // a failure compiles here instead
	}
	if dir != "" {
		if err := os.MkdirAll(dir, 0o700); err == nil {
			if cache, err := wazero.NewCompilationCacheWithDir(dir); err == nil {
				cfg = cfg.WithCompilationCache(cache)
			}
		}
	}
	ctx := experimental.WithMemoryAllocator(context.Background(), allocator(r.Memory))
	return webassembly.Init(webassembly.Config{Context: ctx, MinIdle: 0, MaxIdle: r.Workers, MaxTotal: r.Workers, RuntimeConfig: cfg})
}

func (r *Renderer) moduleCacheDir() string {
	if r.ModuleCacheDir == "" && r.CacheDir != "" {
		return filepath.Join(r.CacheDir, "wasm")
	}
	return r.ModuleCacheDir
}

// CompileInto compiles PDFium into wazero's compilation cache in dir and
// stops: what Renderer.Compile runs in a child process.
func CompileInto(dir string) error {
	if dir == "" {
		return errors.New("sheet images: no module cache folder")
	}
	r := &Renderer{ModuleCacheDir: dir, Workers: 1}
	pool, err := r.initPool()
	if err != nil {
		return err
	}
	return pool.Close()
}

// Close stops PDFium; renders after it fail.
func (r *Renderer) Close() {
	if r.ready == nil {
		return
	}
	<-r.ready
	r.stopOnce.Do(func() { close(r.stopping) })
	r.renders.Wait()
	if r.pool != nil {
		_ = r.pool.Close()
	}
}

// Budgets of the background drawing. A file whose page takes longer than
// slowPage to draw, or that fails, stops its background drawing: its
// pages are drawn as screens ask for them.
const (
	slowPage      = 5 * time.Second
	screensBudget = 45 * time.Second // a file's screen images after its scan
	levelsBudget  = 10 * time.Minute // a file's zoom levels once a screen shows it
)

// Prerender draws the screen images (and the thumbnails made from them)
// of a scanned file's pages, in order, within screensBudget, so any
// sheet's first view comes from the cache. It gives way to renders a
// screen is waiting for: one page render at most stands between a screen
// and its image.
func (r *Renderer) Prerender(ctx context.Context, pdfPath, sum string, pages int) {
	r.screening.Add(1)
	defer r.screening.Add(-1)
	r.background(ctx, pages, screensBudget, nil, func(ctx context.Context, page int) error {
		_, err := r.page(ctx, pdfPath, sum, page, SizeThumb, backgroundScreen)
		return err
	})
}

// WarmLevels draws, in the background, the zoom levels cut into tiles in
// one render (LevelsPrerendered) for every page of a file, once per file
// and process: the job screen calls it when it first shows the file's
// sheets, so the zoom steps that follow come from the cache. It waits
// while screen images are drawn after a scan: every sheet's first view
// comes before any zoom. Close stops it.
func (r *Renderer) WarmLevels(pdfPath, sum string, pages int) {
	if _, started := r.warmed.LoadOrStore(sum, true); started {
		return
	}
	r.Start()
	r.renders.Add(1)
	go func() {
		defer r.renders.Done()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go func() {
			select {
			case <-r.stopping:
				cancel()
			case <-ctx.Done():
			}
		}()
		for level := 1; level <= LevelsPrerendered; level++ {
			if r.background(ctx, pages, levelsBudget, &r.screening, func(ctx context.Context, page int) error {
				_, err := r.tile(ctx, pdfPath, sum, page, level, 0, 0, backgroundLevel)
				return err
			}) != nil {
				return
			}
		}
	}()
}

// background runs draw for pages 1..pages in order, giving way to
// screens (and, before each page, waiting while after is above zero),
// until one fails or is slow, the budget is spent or ctx ends. Time spent
// waiting for after does not count against the budget.
func (r *Renderer) background(ctx context.Context, pages int, budget time.Duration, after *atomic.Int32, draw func(ctx context.Context, page int) error) error {
	start, waited := time.Now(), time.Duration(0)
	for page := 1; page <= pages; page++ {
		if err := r.yield(ctx, &r.waiting); err != nil {
			return err
		}
		if after != nil {
			t0 := time.Now()
			if err := r.yield(ctx, after); err != nil {
				return err
			}
			waited += time.Since(t0)
		}
		if time.Since(start)-waited > budget {
			return context.DeadlineExceeded
		}
		// Slow is the page's time in a render slot, not its time queued
		// behind the images screens ask for.
		var clock atomic.Int64
		if err := draw(context.WithValue(ctx, renderClock{}, &clock), page); err != nil {
			return err
		}
		if time.Duration(clock.Load()) > slowPage {
			return context.DeadlineExceeded
		}
	}
	return nil
}

// yield waits while count is above zero (screens waiting for a render).
func (r *Renderer) yield(ctx context.Context, count *atomic.Int32) error {
	for count.Load() > 0 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	return ctx.Err()
}

// Page returns the PNG of one page (1-based) of the PDF at pdfPath, whose
// content hash is sum (the cache key), with its long side size pixels.
// Thumbnails give way to the other images a screen waits for.
func (r *Renderer) Page(ctx context.Context, pdfPath, sum string, page, size int) ([]byte, error) {
	class := foreground
	if size == SizeThumb {
		class = backgroundScreen
	}
	return r.page(ctx, pdfPath, sum, page, size, class)
}

func (r *Renderer) page(ctx context.Context, pdfPath, sum string, page, size int, class priority) ([]byte, error) {
	if page < 1 || size < 64 || size > SizeLarge {
		return nil, ErrPage
	}
	cached := filepath.Join(r.CacheDir, "pages", sum, strconv.Itoa(page)+"-"+strconv.Itoa(size)+".png")
	return r.single(ctx, cached, cached, class, func(j *job) ([]byte, error) {
		if size == SizeThumb {
			// A thumbnail is the screen image made small: no render of its own.
			return r.thumbFromScreen(context.WithoutCancel(ctx), pdfPath, sum, cached, page, j.class())
		}
		return r.renderAndStore(j, pdfPath, cached, page, size)
	})
}

// ctx carries only the caller's render clock (renderClock): the render
// is detached from the caller.
func (r *Renderer) thumbFromScreen(ctx context.Context, pdfPath, sum, cached string, page int, class priority) ([]byte, error) {
	data, err := r.page(ctx, pdfPath, sum, page, SizeScreen, class)
	if err != nil {
		return nil, err
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrPage, err)
	}
	thumb, err := encodePNG(shrink(img, SizeThumb))
	if err != nil {
		return nil, err
	}
	_ = writeCache(cached, thumb, 0o600)
	return thumb, nil
}

// shrink scales img down so its long side is size pixels, each pixel the
// mean of the grey levels it covers.
func shrink(img image.Image, size int) *image.Gray {
	b := img.Bounds()
	scale := float64(size) / float64(max(b.Dx(), b.Dy()))
	w, h := max(1, int(float64(b.Dx())*scale+0.5)), max(1, int(float64(b.Dy())*scale+0.5))
	out := image.NewGray(image.Rect(0, 0, w, h))
	sum := make([]float64, w*h)
	n := make([]float64, w*h)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		ty := min(h-1, int(float64(y-b.Min.Y)*scale))
		for x := b.Min.X; x < b.Max.X; x++ {
			tx := min(w-1, int(float64(x-b.Min.X)*scale))
			r, g, bl, _ := img.At(x, y).RGBA()
			sum[ty*w+tx] += float64(r*299+g*587+bl*114) / 1000 / 257
			n[ty*w+tx]++
		}
	}
	for i := range out.Pix {
		if n[i] > 0 {
			out.Pix[i] = uint8(sum[i]/n[i] + 0.5)
		}
	}
	return out
}

// single answers the cached file, or runs render once however many callers
// ask for key at the same time. The render is detached from the caller:
// a browser that goes away does not waste a render another screen will
// ask for next.
//
// A background call gives way (before it queues for a render slot) while
// a screen waits for another image, and queues behind the renders screens
// wait for, unless a screen waits for this one.
func (r *Renderer) single(ctx context.Context, key, cached string, class priority, render func(j *job) ([]byte, error)) ([]byte, error) {
	if data, ok := readCache(cached); ok {
		return data, nil
	}
	background := class != foreground
	if !background {
		r.waiting.Add(1)
		defer r.waiting.Add(-1)
	}
	r.inflightMu.Lock()
	c, busy := r.inflight[key]
	if !busy {
		c = &call{done: make(chan struct{})}
		r.inflight[key] = c
	}
	if !background {
		c.urgent.Store(true)
	}
	r.inflightMu.Unlock()
	if !busy {
		r.renders.Add(1)
		go func() {
			defer r.renders.Done()
			j := &job{class: func() priority {
				if c.urgent.Load() {
					return foreground
				}
				return class
			}}
			c.data, c.err = render(j)
			c.took = time.Duration(j.took.Load())
			r.inflightMu.Lock()
			delete(r.inflight, key)
			r.inflightMu.Unlock()
			close(c.done)
		}()
	}
	select {
	case <-c.done:
		if clock, ok := ctx.Value(renderClock{}).(*atomic.Int64); ok {
			clock.Add(int64(c.took))
		}
		if c.err == nil && key != cached {
			// The call rendered a whole level; this caller's tile is one
			// of the files it wrote.
			if data, ok := readCache(cached); ok {
				return data, nil
			}
			return nil, ErrPage
		}
		return c.data, c.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (r *Renderer) renderAndStore(j *job, pdfPath, cached string, page, size int) ([]byte, error) {
	data, err := r.render(j, pdfPath, page, size)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(cached), 0o700); err != nil {
		return data, nil // served, just not cached
	}
	_ = writeCache(cached, data, 0o600)
	return data, nil
}

func (r *Renderer) timeout() time.Duration {
	if r.Timeout > 0 {
		return r.Timeout
	}
	return 20 * time.Second
}

func (r *Renderer) render(j *job, pdfPath string, page, size int) ([]byte, error) {
	img, err := r.run(j, page, func(inst pdfium.Pdfium) (image.Image, error) { return renderPage(inst, pdfPath, page, size) })
	if err != nil {
		return nil, err
	}
	return encodePNG(img)
}

// encodePNG: line drawings compress well even at the fastest level,
// which is several times quicker than the default on a big sheet.
func encodePNG(img image.Image) ([]byte, error) {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// job is one render's priority (read each time it is asked: a screen may
// come to wait for a background render) and the time it held a slot.
type job struct {
	class func() priority
	took  atomic.Int64 // nanoseconds in a render slot
}

// renderClock is the context key of an *atomic.Int64 that a caller's
// renders add their time in a render slot to (not the time queued): the
// background drawing's measure of a slow page.
type renderClock struct{}

// run runs one render on a PDFium instance of the pool, within the
// worker slots and the timeout. A background render waits while a screen
// waits for another image, then queues for a slot behind the renders of
// better priority.
func (r *Renderer) run(j *job, page int, draw func(inst pdfium.Pdfium) (image.Image, error)) (image.Image, error) {
	r.Start()
	for j.class() != foreground && r.waiting.Load() > 0 {
		time.Sleep(20 * time.Millisecond)
	}
	<-r.ready
	if r.initErr != nil {
		return nil, r.initErr
	}
	r.slots.acquire(j.class)
	t0 := time.Now()
	defer func() {
		j.took.Add(int64(time.Since(t0)))
		r.slots.release()
	}()

	inst, err := r.instance()
	if err != nil {
		// An instance the memory budget cannot start is a page that
		// cannot be rendered now, like one that runs out during a render.
		return nil, fmt.Errorf("%w: sheet images: %v", ErrPage, err)
	}
	type result struct {
		img image.Image
		err error
	}
	out := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				out <- result{err: fmt.Errorf("%w: %v", ErrPage, p)}
			}
		}()
		img, err := draw(inst)
		out <- result{img, err}
	}()
	select {
	case res := <-out:
		_ = inst.Close()
		return res.img, res.err
	case <-time.After(r.timeout()):
		_ = inst.Kill() // interrupts the WebAssembly call; the pool makes a fresh instance
		return nil, fmt.Errorf("%w: page %d took longer than %s", ErrPage, page, r.timeout())
	}
}

// instance takes a PDFium instance from the pool; a panic while one is
// made is an error, not the end of the process.
func (r *Renderer) instance() (inst pdfium.Pdfium, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("starting an instance: %v", p)
		}
	}()
	return r.pool.GetInstance(r.timeout())
}

// renderPage renders one page to a grey image whose long side is size
// pixels (fewer when the page's shape would exceed maxPixels).
func renderPage(inst pdfium.Pdfium, pdfPath string, page, size int) (image.Image, error) {
	return withPage(inst, pdfPath, page, func(ref requests.Page, wPt, hPt float64) (image.Image, error) {
		w, h := fit(wPt, hPt, size)
		res, err := inst.RenderPageInPixels(&requests.RenderPageInPixels{Page: ref, Width: w, Height: h})
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrPage, err)
		}
		defer res.Cleanup()
		// Copy out: the bitmap belongs to the instance and goes with Cleanup.
		src := res.Result.Image
		dst := image.NewRGBA(src.Bounds())
		copy(dst.Pix, src.Pix)
		return dst, nil
	})
}

// withPage opens the PDF and hands draw one page and its size in points
// (rotation and crop box applied).
func withPage(inst pdfium.Pdfium, pdfPath string, page int, draw func(ref requests.Page, wPt, hPt float64) (image.Image, error)) (image.Image, error) {
	f, err := os.Open(pdfPath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	doc, err := inst.OpenDocument(&requests.OpenDocument{FileReader: f, FileReaderSize: st.Size()})
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrPage, err)
	}
	defer inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: doc.Document})
	count, err := inst.FPDF_GetPageCount(&requests.FPDF_GetPageCount{Document: doc.Document})
	if err != nil || page > count.PageCount {
		return nil, ErrPage
	}
	ref := requests.Page{ByIndex: &requests.PageByIndex{Document: doc.Document, Index: page - 1}}
	dims, err := inst.GetPageSize(&requests.GetPageSize{Page: ref})
	if err != nil || dims.Width <= 0 || dims.Height <= 0 {
		return nil, ErrPage
	}
	return draw(ref, dims.Width, dims.Height)
}

// fit scales a page of w × h points so its long side is size pixels,
// within maxPixels.
func fit(w, h float64, size int) (int, int) {
	scale := float64(size) / max(w, h)
	if px := w * h * scale * scale; px > maxPixels {
		scale *= math.Sqrt(maxPixels / px)
	}
	return max(1, int(w*scale+0.5)), max(1, int(h*scale+0.5))
}
