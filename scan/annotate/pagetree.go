package annotate

import (
	"errors"
	"fmt"

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
func collectPages(xt *model.XRefTable) (pages []page, root types.IndirectRef, err error) {
	catalog, err := xt.Catalog()
	if err != nil {
		return nil, root, fmt.Errorf("catalog: %w", err)
	}
	rootRef := catalog.IndirectRefEntry("Pages")
	if rootRef == nil {
		return nil, root, errors.New("catalog has no indirect /Pages")
	}
	visited := map[int]bool{}
	var walk func(ref types.IndirectRef, inh inherited, depth int) error
	walk = func(ref types.IndirectRef, inh inherited, depth int) error {
		if depth > maxPageTreeDepth {
			return errors.New("page tree too deep")
		}
		nr := ref.ObjectNumber.Value()
		if visited[nr] {
			return fmt.Errorf("page tree loops through object %d", nr)
		}
		visited[nr] = true
		d, err := xt.DereferenceDict(ref)
		if err != nil {
			return fmt.Errorf("page tree node %d: %w", nr, err)
		}
		if d == nil {
			return fmt.Errorf("page tree node %d is missing", nr)
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
		if typ == "Pages" && !hasKids {
			return nil // an empty intermediate node
		}
		if typ == "Page" || !hasKids {
			pages = append(pages, page{ref: ref, dict: d, geom: geometryOf(inh), ancestors: inh.ancestors})
			return nil
		}
		inh.ancestors = append(inh.ancestors[:len(inh.ancestors):len(inh.ancestors)], ref)
		kids, err := xt.DereferenceArray(kidsObj)
		if err != nil {
			return fmt.Errorf("page tree node %d /Kids: %w", nr, err)
		}
		for _, k := range kids {
			kr, ok := k.(types.IndirectRef)
			if !ok {
				return fmt.Errorf("page tree node %d has a direct kid", nr)
			}
			if err := walk(kr, inh, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(*rootRef, inherited{}, 0); err != nil {
		return nil, root, err
	}
	if len(pages) == 0 {
		return nil, root, errors.New("document has no pages")
	}
	return pages, *rootRef, nil
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
