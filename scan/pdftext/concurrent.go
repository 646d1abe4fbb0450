package pdftext

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// PanicError is a panic raised on a worker of PagesConcurrently (in its
// then function), raised again in the goroutine that ranges over the pages
// so that whoever recovers panics there sees it, with the worker's stack.
type PanicError struct {
	Value any
	Stack []byte
}

func (e *PanicError) Error() string { return fmt.Sprintf("%v\n[worker]\n%s", e.Value, e.Stack) }

// PagesConcurrently streams the pages in order, like Pages, while up to
// workers goroutines extract the pages ahead. then, when not nil, runs on
// each page in the worker that extracted it, before the page is yielded
// (the caller's per-page work, such as its layout analysis, done in
// parallel too); a panic there is raised again, as a *PanicError, in the
// ranging goroutine.
//
// Each worker reads with state of its own (fonts, CMaps, form content,
// the page's budget meter; only the parsed objects are shared, behind a
// lock), so a page's words are exactly what a sequential read gives. The
// per-page budgets are the same too: a page that crosses one on a worker
// (whose caches may be colder than a sequential read's) is read again as
// Pages would read it, and from there on the file is read sequentially,
// so a file is over a budget exactly when Pages finds it so. Usage's
// per-page maxima of decoded bytes and lookups may come out higher than
// a sequential read's, for the same reason. At most 2×workers pages are held between extraction
// and the consumer. When the consumer stops early, or a page carries a
// context error (yielded, then the sequence ends), the workers are
// cancelled and waited for before the sequence returns: no worker touches
// the document after the loop. workers <= 1 is Pages.
func (d *Document) PagesConcurrently(ctx context.Context, workers int, then func(*Page)) iter.Seq[*Page] {
	workers = min(workers, d.pageCount)
	if workers <= 1 {
		return func(yield func(*Page) bool) {
			for p := range d.Pages(ctx) {
				if then != nil {
					then(p)
				}
				if !yield(p) {
					return
				}
			}
		}
	}
	return func(yield func(*Page) bool) {
		wctx, cancel := context.WithCancel(ctx)
		slots := make([]chan pageResult, d.pageCount)
		for i := range slots {
			slots[i] = make(chan pageResult, 1)
		}
		ahead := make(chan struct{}, 2*workers) // pages taken and not yet consumed
		var next atomic.Int64
		views := make([]*Document, workers)
		var wg sync.WaitGroup
		for i := range workers {
			views[i] = d.view()
			wg.Go(func() {
				w := views[i]
				for {
					select {
					case ahead <- struct{}{}:
					case <-wctx.Done():
						return
					}
					n := int(next.Add(1))
					if n > d.pageCount {
						return
					}
					slots[n-1] <- w.pageThen(wctx, n, then)
				}
			})
		}
		exited := make(chan struct{})
		go func() {
			wg.Wait()
			close(exited)
		}()
		defer func() {
			cancel()
			<-exited
			for _, w := range views {
				d.usage = d.usage.max(w.usage)
			}
		}()
		for n := 1; n <= d.pageCount; n++ {
			var r pageResult
			select {
			case r = <-slots[n-1]:
				<-ahead
			case <-exited:
				// Every worker is gone: either all pages were taken (and
				// this one is waiting), or ctx ended before a worker took
				// it, which reads as Pages reads a page after ctx ended.
				select {
				case r = <-slots[n-1]:
				default:
					r = pageResult{page: &Page{Number: n, Err: ctx.Err(), Words: []Word{}}, stop: true}
				}
			}
			if r.panic != nil {
				panic(r.panic)
			}
			if errors.Is(r.page.Err, ErrTooComplex) {
				// Budgets count what a page decodes and resolves, and a
				// worker that has read fewer of the pages before it has
				// colder caches than a sequential read: over a budget
				// here may be within it there. The verdict is the
				// sequential read's, so from this page on the file is
				// read as Pages reads it (the pages before it again, to
				// warm the caches as they would be).
				cancel()
				<-exited
				d.sequentialFrom(ctx, n, then, yield)
				return
			}
			if !yield(r.page) || r.stop {
				return
			}
		}
	}
}

// sequentialFrom yields pages from..pageCount as Pages would, on a fresh
// reader that first reads the pages before from (and drops them).
func (d *Document) sequentialFrom(ctx context.Context, from int, then func(*Page), yield func(*Page) bool) {
	s := d.view()
	defer func() { d.usage = d.usage.max(s.usage) }()
	for n := 1; n < from; n++ {
		if _, err := s.Page(ctx, n); err != nil {
			yield(&Page{Number: from, Err: err, Words: []Word{}})
			return
		}
	}
	for n := from; n <= d.pageCount; n++ {
		p, err := s.Page(ctx, n)
		if p == nil {
			p = &Page{Number: n, Err: err, Words: []Word{}}
		}
		if then != nil {
			then(p)
		}
		if !yield(p) || err != nil {
			return
		}
	}
}

// pageResult is one page as a worker hands it over: stop when Page
// returned an error (ctx ended), panic when then panicked.
type pageResult struct {
	page  *Page
	stop  bool
	panic *PanicError
}

// pageThen extracts page n and runs then on it, as Pages would yield it.
func (d *Document) pageThen(ctx context.Context, n int, then func(*Page)) (r pageResult) {
	p, err := d.Page(ctx, n)
	if p == nil {
		p = &Page{Number: n, Err: err, Words: []Word{}}
	}
	r.page, r.stop = p, err != nil
	if then == nil {
		return r
	}
	defer func() {
		if v := recover(); v != nil {
			r.panic = &PanicError{Value: v, Stack: debug.Stack()}
		}
	}()
	then(p)
	return r
}

// view is a reader of d for one worker: the parsed objects, pages and
// budgets are d's; the caches, the content buffer, the page meter and the
// usage counts are its own.
func (d *Document) view() *Document {
	w := &Document{
		obj:       d.obj,
		pages:     d.pages,
		hidden:    d.hidden,
		fonts:     map[int]*font{},
		formRes:   map[int]*resources{},
		forms:     map[int][]byte{},
		pageCount: d.pageCount,
		budgets:   d.budgets,
	}
	w.obj.cmaps = map[int]*cmap{}
	w.obj.meter = &meter{}
	return w
}

// max is the usage of two readers of one file taken together.
func (u Usage) max(v Usage) Usage {
	u.ContentBytes = max(u.ContentBytes, v.ContentBytes)
	u.Ops = max(u.Ops, v.Ops)
	u.FormDepth = max(u.FormDepth, v.FormDepth)
	u.Forms = max(u.Forms, v.Forms)
	u.InlineImages = max(u.InlineImages, v.InlineImages)
	u.Resolves = max(u.Resolves, v.Resolves)
	u.PageTreeNodes = max(u.PageTreeNodes, v.PageTreeNodes)
	u.Objects = max(u.Objects, v.Objects)
	u.ObjectSpan = max(u.ObjectSpan, v.ObjectSpan)
	return u
}
