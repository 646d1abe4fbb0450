package annotate

import (
	"errors"
	"fmt"
	"slices"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// page is one leaf of the page tree with the attributes it inherits.
type page struct {
	ref  types.IndirectRef
	dict types.Dict
	geom pageGeometry
	// ancestors are the page tree nodes above the page, root first.
	ancestors []types.IndirectRef
	// writable is false for a page the tree lists but that cannot take
	// annotations in an update: a kid the file lost, or a page written
	// inline in /Kids. It keeps its place, so page numbers agree with the
	// extractor's; its findings are listed on the summary only.
	writable bool
}

// maxPageTreeDepth bounds recursion on hostile files; real page trees are a
// handful of levels deep.
const maxPageTreeDepth = 64

var letter = box{0, 0, 612, 792}

type inherited struct {
	media, crop *box
	rotate      int
	ancestors   []types.IndirectRef
}

// collectPages walks the page tree once, in document order. pdfcpu's own
// page lookup walks the tree per page and needs a validated context; this
// needs neither, so the renderer can skip validation (the scan already
// decided the file is readable) and stays linear in the page count.
//
// It repairs a damaged tree by the rules scan/pdftext uses, so the two
// agree on the page list the findings are numbered by: each node is
// visited once (cycles and a tree that lists itself add nothing the second
// time), a missing kid keeps its place as a page that cannot be annotated,
// and a tree with no pages falls back to the file's page objects in object
// order.
func collectPages(xt *model.XRefTable) (pages []page, root types.IndirectRef, err error) {
	pages, root, _, err = walkPageTree(xt)
	return pages, root, err
}

// walkPageTree is collectPages that also returns, for every node whose
// /Kids the repair skipped something in (a missing kid, a loop), the kids
// that remain: a copy written whole must not carry the damage, as pdfcpu's
// writer walks the tree again.
func walkPageTree(xt *model.XRefTable) (pages []page, root types.IndirectRef, repaired map[types.IndirectRef]types.Array, err error) {
	catalog, err := xt.Catalog()
	if err != nil {
		return nil, root, nil, fmt.Errorf("catalog: %w", err)
	}
	rootRef := catalog.IndirectRefEntry("Pages")
	if rootRef == nil {
		return nil, root, nil, errors.New("catalog has no indirect /Pages")
	}
	if d, err := xt.DereferenceDict(*rootRef); err != nil || d == nil {
		// The summary page goes under the root: without one there is
		// nothing to update (the extractor reads the orphaned pages, but
		// a marked-up copy of them cannot be made).
		return nil, root, nil, fmt.Errorf("page tree root %d is missing", rootRef.ObjectNumber.Value())
	}
	visited := map[int]bool{}
	repaired = map[types.IndirectRef]types.Array{}
	// sound reports whether kid is a node the walk will use: an indirect,
	// readable dictionary not met before.
	sound := func(kid types.Object) bool {
		r, ok := kid.(types.IndirectRef)
		if !ok || visited[r.ObjectNumber.Value()] {
			return false
		}
		d, err := xt.DereferenceDict(r)
		return err == nil && d != nil
	}
	var walk func(node types.Object, inh inherited, depth int) error
	walk = func(node types.Object, inh inherited, depth int) error {
		if depth > maxPageTreeDepth {
			return errors.New("page tree too deep")
		}
		ref, isRef := node.(types.IndirectRef)
		var d types.Dict
		if isRef {
			nr := ref.ObjectNumber.Value()
			if visited[nr] {
				return nil // a loop in the tree
			}
			visited[nr] = true
			d, _ = xt.DereferenceDict(ref) // unreadable reads as missing
		} else {
			d, _ = node.(types.Dict)
		}
		if d == nil {
			if depth > 0 {
				pages = append(pages, page{geom: geometryOf(inh)})
			}
			return nil
		}
		if b, ok := boxEntry(xt, d, "MediaBox"); ok {
			inh.media = &b
		}
		if b, ok := boxEntry(xt, d, "CropBox"); ok {
			inh.crop = &b
		}
		if o, found := d.Find("Rotate"); found {
			if r, err := xt.DereferenceInteger(o); err == nil && r != nil {
				inh.rotate = r.Value()
			}
		}
		kidsObj, hasKids := d.Find("Kids")
		typ := ""
		if t := d.Type(); t != nil {
			typ = *t
		}
		if typ == "Page" || (!hasKids && typ != "Pages") {
			pages = append(pages, page{ref: ref, dict: d, geom: geometryOf(inh), ancestors: inh.ancestors,
				writable: isRef})
			return nil
		}
		if isRef {
			inh.ancestors = append(inh.ancestors[:len(inh.ancestors):len(inh.ancestors)], ref)
		}
		kids, _ := xt.DereferenceArray(kidsObj) // not an array: no kids
		kept := make(types.Array, 0, len(kids))
		for _, k := range kids {
			if sound(k) {
				kept = append(kept, k)
			}
			if err := walk(k, inh, depth+1); err != nil {
				return err
			}
		}
		if isRef && len(kept) != len(kids) {
			repaired[ref] = kept
		}
		return nil
	}
	if err := walk(*rootRef, inherited{}, 0); err != nil {
		return nil, root, nil, err
	}
	if len(pages) == 0 {
		pages = orphanPages(xt)
	}
	if len(pages) == 0 {
		return nil, root, nil, errors.New("document has no pages")
	}
	return pages, *rootRef, repaired, nil
}

// orphanPages lists the page objects of a file whose page tree has none,
// in object order, as the extractor (and poppler) reconstruct it. They are
// outside the tree, so no update can show annotations on them.
func orphanPages(xt *model.XRefTable) []page {
	var nums []int
	for n, e := range xt.Table {
		if e == nil || e.Free {
			continue
		}
		if d, ok := e.Object.(types.Dict); ok && d.Type() != nil && *d.Type() == "Page" {
			nums = append(nums, n)
		}
	}
	slices.Sort(nums)
	pages := make([]page, 0, len(nums))
	for _, n := range nums {
		d := xt.Table[n].Object.(types.Dict)
		inh := inherited{}
		if b, ok := boxEntry(xt, d, "MediaBox"); ok {
			inh.media = &b
		}
		if b, ok := boxEntry(xt, d, "CropBox"); ok {
			inh.crop = &b
		}
		pages = append(pages, page{dict: d, geom: geometryOf(inh)})
	}
	return pages
}

func geometryOf(inh inherited) pageGeometry {
	media := letter
	if inh.media != nil && !inh.media.empty() {
		media = *inh.media
	}
	crop := media
	if inh.crop != nil {
		// Viewers clip the CropBox to the MediaBox; an empty result means a
		// broken CropBox, which they ignore.
		if c := inh.crop.intersect(media); !c.empty() {
			crop = c
		}
	}
	return pageGeometry{media: media, crop: crop, rotate: normaliseRotate(inh.rotate)}
}

func boxEntry(xt *model.XRefTable, d types.Dict, key string) (box, bool) {
	o, found := d.Find(key)
	if !found {
		return box{}, false
	}
	a, err := xt.DereferenceArray(o)
	if err != nil || len(a) != 4 {
		return box{}, false
	}
	var v [4]float64
	for i, e := range a {
		f, err := xt.DereferenceNumber(e)
		if err != nil {
			return box{}, false
		}
		v[i] = f
	}
	b := boxFromRect(v)
	return b, !b.empty()
}

// summaryKind is the private /PieceInfo value that marks a summary page.
const summaryKind = "FindingsSummary"

// isGeneratedSummary tells a summary page an earlier run appended.
func isGeneratedSummary(xt *model.XRefTable, d types.Dict) bool {
	pieceInfo, err := xt.DereferenceDict(d["PieceInfo"])
	if err != nil || pieceInfo == nil {
		return false
	}
	ours, err := xt.DereferenceDict(pieceInfo[Author])
	if err != nil || ours == nil {
		return false
	}
	private, err := xt.DereferenceDict(ours["Private"])
	if err != nil || private == nil {
		return false
	}
	kind, ok := private["Kind"].(types.Name)
	return ok && string(kind) == summaryKind
}
