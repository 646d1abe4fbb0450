package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// settleJS resolves, in the frame, with the milliseconds from now until
// act() has run and the viewer shows its sheet: the screen image in, no
// loading notice, every tile the view asked for in, all decoded.
const settleJS = `(function(act){
	var t0 = performance.now();
	act();
	return new Promise(function(resolve){
		function check(){
			var port = document.getElementById('v-port'), base = port.querySelector('img.base'), tiles = port.querySelectorAll('.tile');
			var ok = base && base.complete && base.naturalWidth > 0 && document.getElementById('v-loading').hidden &&
				Array.prototype.every.call(tiles, function(i){ return i.complete });
			if (!ok) { requestAnimationFrame(check); return; }
			var imgs = [base].concat(Array.prototype.slice.call(tiles));
			Promise.all(imgs.map(function(i){ return i.decode().catch(function(){}) })).then(function(){ resolve(performance.now() - t0) });
		}
		check();
	});
})`

// BenchmarkSheetViewer measures the job screen's viewer in Chromium on the
// 26-sheet Calgary set, at 1366 x 900, once the scan's images are drawn:
// the first view of every sheet (a thumbnail clicked to the sheet drawn)
// and every zoom step from fit to 8x on five sheets (+ pressed to the
// tiles of the new zoom drawn), then the step past 8x to 12x; and, first,
// every sheet's first view on a screen opened as the scan ended, while
// the images are still being drawn. It reports medians and maxima (ms).
//
//	go test ./cmd -run '^$' -bench SheetViewer -benchtime 1x
func BenchmarkSheetViewer(b *testing.B) {
	r := newBrowserRig(b)
	if err := chromedp.Do(r.ctx, chromedp.EmulateViewport(1366, 900)); err != nil {
		b.Fatal(err)
	}
	jobID := r.scanned("Calgary sample house", "ca_calgary_sample_dp_bp_house_26p.pdf")
	scanEnd := time.Now()
	// Just scanned: the screen opened as the scan ends, every sheet
	// viewed while the images are still being drawn, last sheet first.
	var cold []float64
	r.open(r.link("job", jobID))
	r.waitFrame("viewer", `document.querySelectorAll('.thumb').length === 26 && document.querySelector('#v-port img.base')`, time.Minute)
	for n := 25; n >= 0; n-- {
		var ms float64
		r.mustFrame(fmt.Sprintf(settleJS+`(function(){ document.querySelectorAll('.thumb')[%d].click() })`, n), &ms)
		cold = append(cold, ms)
	}
	// The images drawn when the scan ended: thumbnails, screen images and
	// the first two zoom levels of all 26 pages.
	pages := filepath.Join(r.cfg.Data.Dir, "sheet-images", "pages")
	deadline := time.Now().Add(10 * time.Minute)
	for {
		screens, _ := filepath.Glob(filepath.Join(pages, "*", "*-1600.png"))
		levels, _ := filepath.Glob(filepath.Join(pages, "*", "*-L2", "0-0.png"))
		if len(screens) >= 26 && len(levels) >= 26 {
			break
		}
		if time.Now().After(deadline) {
			b.Fatalf("images after 10 min: %d screen, %d level 2", len(screens), len(levels))
		}
		time.Sleep(250 * time.Millisecond)
	}
	b.Logf("scan end to all 26 sheets' images drawn: %s", time.Since(scanEnd).Round(100*time.Millisecond))
	var first, steps, beyond []float64
	for i := 0; i < b.N; i++ {
		r.open(r.link("job", jobID))
		r.waitFrame("viewer", `document.querySelectorAll('.thumb').length === 26 && document.querySelector('#v-port img.base') && document.querySelector('#v-port img.base').complete`, time.Minute)
		for n := 25; n >= 0; n-- { // the first sheet last: it opened with the screen
			var ms float64
			r.mustFrame(fmt.Sprintf(settleJS+`(function(){ document.querySelectorAll('.thumb')[%d].click() })`, n), &ms)
			first = append(first, ms)
		}
		for _, n := range []int{2, 5, 10, 15, 20} {
			r.mustFrame(fmt.Sprintf(settleJS+`(function(){ document.querySelectorAll('.thumb')[%d].click() })`, n), nil)
			for z := 0; z < 7; z++ { // 1, 1.5, 2, 3, 4, 6, 8, then 12
				var ms float64
				r.mustFrame(settleJS+`(function(){ document.getElementById('v-in').click() })`, &ms)
				if z < 6 {
					steps = append(steps, ms)
				} else {
					beyond = append(beyond, ms)
				}
			}
		}
	}
	b.ReportMetric(median(cold), "just-scanned-first-view-p50-ms")
	b.ReportMetric(maxOf(cold), "just-scanned-first-view-max-ms")
	b.ReportMetric(median(beyond), "zoom-8x-to-12x-p50-ms")
	b.ReportMetric(median(first), "first-view-p50-ms")
	b.ReportMetric(maxOf(first), "first-view-max-ms")
	b.ReportMetric(median(steps), "zoom-step-p50-ms")
	b.ReportMetric(maxOf(steps), "zoom-step-max-ms")
	if os.Getenv("PLANREVIEW_BENCH_VERBOSE") != "" {
		b.Logf("first views: %v", first)
		b.Logf("zoom steps: %v", steps)
		b.Logf("just scanned: %v", cold)
		b.Logf("8x to 12x: %v", beyond)
	}
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}

func maxOf(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = max(m, x)
	}
	return m
}
