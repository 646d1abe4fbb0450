package pdftext

import (
	"fmt"
	"slices"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// pageEntry is one leaf of the page tree with the attributes it inherits
// (PDF 32000-1 7.7.3.4).
type pageEntry struct {
	dict      types.Dict
	resources types.Dict
	mediaBox  types.Array
	cropBox   types.Array
	rotate    int
}

// maxPageTreeDepth bounds the page tree walk; real trees are a few levels.
const maxPageTreeDepth = 64

// pageTree lists the pages in order with one walk of the tree, so reading
// page n does not walk the tree again (pdfcpu's PageDict does, which makes
// a long set quadratic). It repairs a damaged tree the way viewers do:
// every node is visited once (a cycle, or a tree that lists itself, adds
// nothing the second time), and a kid that is missing keeps its place as
// a page that reports the damage. scan/annotate walks the tree by the same
// rules, so both agree on the page list. More than maxNodes nodes is
// ErrTooComplex; nodes is how many were walked.
func (o objects) pageTree(root types.Object, maxNodes int) (pages []pageEntry, nodes int, err error) {
	visited := map[int]bool{}
	var walk func(node types.Object, inh pageEntry, depth int) error
	walk = func(node types.Object, inh pageEntry, depth int) error {
		if depth > maxPageTreeDepth {
			return fmt.Errorf("page tree deeper than %d levels", maxPageTreeDepth)
		}
		if nodes++; nodes > maxNodes {
			return fmt.Errorf("%w: page tree over %d nodes", ErrTooComplex, maxNodes)
		}
		if id := objectID(node); id != 0 {
			if visited[id] {
				return nil // a loop in the tree
			}
			visited[id] = true
		}
		d := o.dict(node)
		if d == nil {
			if depth > 0 {
				// A kid the file lost (truncation, a broken object): keep its
				// place so the page numbers after it stay right, and let the
				// page report the damage.
				pages = append(pages, pageEntry{})
			}
			return nil
		}
		if r := o.dict(d["Resources"]); r != nil {
			inh.resources = r
		}
		if a := o.array(d["MediaBox"]); len(a) == 4 {
			inh.mediaBox = a
		}
		if a := o.array(d["CropBox"]); len(a) == 4 {
			inh.cropBox = a
		}
		if v, ok := o.number(d["Rotate"]); ok {
			inh.rotate = int(v)
		}
		kids, hasKids := d["Kids"]
		typ := o.name(d["Type"])
		if typ == "Page" || (!hasKids && typ != "Pages") {
			inh.dict = d
			pages = append(pages, inh)
			return nil
		}
		for _, kid := range o.array(kids) {
			if err := walk(kid, inh, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(root, pageEntry{}, 0); err != nil {
		return nil, nodes, err
	}
	if len(pages) == 0 {
		pages = o.orphanPages()
	}
	return pages, nodes, nil
}

// orphanPages lists the page objects of a file whose page tree is gone, in
// object order, as poppler does when it reconstructs a damaged file.
func (o objects) orphanPages() []pageEntry {
	// Finding them takes every object: the whole-file read.
	xref, err := o.xref.wholeFile()
	if err != nil {
		return nil
	}
	var nums []int
	for n, e := range xref.Table {
		if e == nil || e.Free {
			continue
		}
		if d, ok := e.Object.(types.Dict); ok && o.name(d["Type"]) == "Page" {
			nums = append(nums, n)
		}
	}
	slices.Sort(nums)
	pages := make([]pageEntry, 0, len(nums))
	for _, n := range nums {
		d := xref.Table[n].Object.(types.Dict)
		pe := pageEntry{dict: d, resources: o.dict(d["Resources"]), mediaBox: o.array(d["MediaBox"]), cropBox: o.array(d["CropBox"])}
		if v, ok := o.number(d["Rotate"]); ok {
			pe.rotate = int(v)
		}
		pages = append(pages, pe)
	}
	return pages
}

// rectOf reads a box array; ok is false unless it holds four finite
// numbers spanning a non-empty, sane area.
func (o objects) rectOf(a types.Array) ([4]float64, bool) {
	if len(a) != 4 {
		return [4]float64{}, false
	}
	var v [4]float64
	for i, e := range a {
		n, ok := o.number(e)
		if !ok || !finite(n) {
			return v, false
		}
		v[i] = n
	}
	r := [4]float64{min(v[0], v[2]), min(v[1], v[3]), max(v[0], v[2]), max(v[1], v[3])}
	w, h := r[2]-r[0], r[3]-r[1]
	if w <= 0 || h <= 0 || w > 1e6 || h > 1e6 {
		return r, false
	}
	return r, true
}
