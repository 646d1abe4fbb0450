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
// and a tree with no pages (its root lost to truncation, say) falls back
// to the file's page objects in object order.
func collectPages(xt *model.XRefTable) (pages []page, root types.IndirectRef, err error) {
	t, err := walkPageTree(xt)
	return t.pages, t.root, err
}

// pageTree is the page list as the extractor reads it, and what a copy
// needs to repair to show it.
type pageTree struct {
	pages []page
	// root is the catalog's /Pages; rootDict is nil when the file lost it.
	root     types.IndirectRef
	rootDict types.Dict
	// repaired holds, for every node whose /Kids the walk skipped something
	// in (a missing kid, a loop), the kids that remain: a copy written whole
	// must not carry the damage, as pdfcpu's writer walks the tree again.
	repaired map[types.IndirectRef]types.Array
	// orphaned is set when the tree gave no pages and pages are the page
	// objects found outside it: the copy needs a new tree over them (see
	// adoptOrphans) for its marks to show.
	orphaned bool
}

func walkPageTree(xt *model.XRefTable) (t pageTree, err error) {
	catalog, err := xt.Catalog()
	if err != nil {
		return t, fmt.Errorf("catalog: %w", err)
	}
	rootRef := catalog.IndirectRefEntry("Pages")
	if rootRef != nil {
		t.root = *rootRef
		if d, err := xt.DereferenceDict(*rootRef); err == nil {
			t.rootDict = d
		}
	}
	visited := map[int]bool{}
	t.repaired = map[types.IndirectRef]types.Array{}
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
				t.pages = append(t.pages, page{geom: geometryOf(inh)})
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
			t.pages = append(t.pages, page{ref: ref, dict: d, geom: geometryOf(inh), ancestors: inh.ancestors,
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
			t.repaired[ref] = kept
		}
		return nil
	}
	if t.rootDict != nil {
		if err := walk(t.root, inherited{}, 0); err != nil {
			return t, err
		}
	}
	if len(t.pages) == 0 {
		t.pages, t.orphaned = orphanPages(xt), true
	}
	if len(t.pages) == 0 {
		return t, errors.New("document has no pages")
	}
	return t, nil
}

// orphanPages lists the page objects of a file whose page tree has none,
// in object order, as the extractor (and poppler) reconstruct it. They are
// outside any tree until adoptOrphans gives them one.
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
		e := xt.Table[n]
		d := e.Object.(types.Dict)
		inh := inherited{}
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
		gen := 0
		if e.Generation != nil {
			gen = *e.Generation
		}
		pages = append(pages, page{ref: *types.NewIndirectRef(n, gen), dict: d, geom: geometryOf(inh)})
	}
	return pages
}

// adoptOrphans makes t's orphan pages the kids of a page tree root: the
// catalog's, when it is still readable, else a new one the catalog is
// pointed at. Each page's /Parent is set to it, and the pages become
// writable.
func adoptOrphans(xt *model.XRefTable, objs *objectSet, t *pageTree) error {
	if xt.Root == nil {
		return fmt.Errorf("%w: no catalog", ErrUnreadablePDF)
	}
	catalog, err := xt.DereferenceDict(*xt.Root)
	if err != nil || catalog == nil {
		return fmt.Errorf("%w: catalog: %v", ErrUnreadablePDF, err)
	}
	root := t.rootDict
	if root == nil {
		root = types.Dict{"Type": types.Name("Pages")}
		t.root = objs.addEditable(root)
		catalog.Update("Pages", t.root)
		objs.replace(*xt.Root, catalog)
	}
	kids := make(types.Array, 0, len(t.pages))
	for i := range t.pages {
		p := &t.pages[i]
		kids = append(kids, p.ref)
		p.dict.Update("Parent", t.root)
		p.ancestors = []types.IndirectRef{t.root}
		p.writable = true
		objs.replace(p.ref, p.dict)
	}
	root.Update("Kids", kids)
	root.Update("Count", types.Integer(len(kids)))
	objs.replace(t.root, root)
	t.rootDict, t.orphaned = root, false
	return nil
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
