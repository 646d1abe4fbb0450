package annotate

import (
	"fmt"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// minEvidenceSide keeps a degenerate evidence box (a zero-width glyph, a
// point) visible: it is grown to this size around its centre.
const minEvidenceSide = 2.0

// builder creates the new objects of the marked-up copy.
type builder struct {
	objs *objectSet
	xt   *model.XRefTable
	date types.StringLiteral

	regularFont, boldFont types.IndirectRef
	appearanceResources   types.IndirectRef
	summaryResources      types.IndirectRef
}

func standardFont(base string) types.Dict {
	return types.Dict{
		"Type":     types.Name("Font"),
		"Subtype":  types.Name("Type1"),
		"BaseFont": types.Name(base),
		"Encoding": types.Name("WinAnsiEncoding"),
	}
}

// sharedResources adds the fonts and graphics state that every appearance
// and summary page points at, once per file rather than once per mark.
func (b *builder) sharedResources() {
	b.regularFont = b.objs.add(standardFont(regularFont))
	b.boldFont = b.objs.add(standardFont(boldFont))
	tint := b.objs.add(types.Dict{
		"Type": types.Name("ExtGState"),
		"ca":   pdfNumber(tintOpacity),
		"CA":   types.Integer(1),
	})
	b.appearanceResources = b.objs.add(types.Dict{
		"Font":      types.Dict{tagFontKey: b.boldFont},
		"ExtGState": types.Dict{tintStateKey: tint},
		"ProcSet":   types.Array{types.Name("PDF"), types.Name("Text")},
	})
	b.summaryResources = b.objs.add(types.Dict{
		"Font":    types.Dict{regularFontKey: b.regularFont, boldFontKey: b.boldFont},
		"ProcSet": types.Array{types.Name("PDF"), types.Name("Text")},
	})
}

// addMark adds the Square, its appearance and its Popup for one anchor and
// returns the references to put in the page's /Annots.
//
// A sheet-level mark (see Mark.SheetLevel) is its page's sheetSlot-th
// margin tag.
func (b *builder) addMark(p page, m Mark, nm string, sheetSlot int) (square, popup types.IndirectRef, err error) {
	sev := severityStyles[strings.ToLower(m.Severity)]
	var l markLayout
	if m.SheetLevel() {
		l = layoutSheetTag(p.geom, m.Number, sheetSlot)
	} else {
		evidence := boxFromRect(m.Rect)
		if evidence.width() < minEvidenceSide {
			cx := (evidence.llx + evidence.urx) / 2
			evidence.llx, evidence.urx = cx-minEvidenceSide/2, cx+minEvidenceSide/2
		}
		if evidence.height() < minEvidenceSide {
			cy := (evidence.lly + evidence.ury) / 2
			evidence.lly, evidence.ury = cy-minEvidenceSide/2, cy+minEvidenceSide/2
		}
		l = layoutMark(p.geom, evidence, m.Number)
	}
	mtx := l.formMatrix
	ap, err := b.objs.newStream(types.Dict{
		"Type":      types.Name("XObject"),
		"Subtype":   types.Name("Form"),
		"FormType":  types.Integer(1),
		"BBox":      pdfNumbers(0, 0, l.formW, l.formH),
		"Matrix":    pdfNumbers(mtx[:]...),
		"Resources": b.appearanceResources,
	}, l.appearance(sev), false)
	if err != nil {
		return square, popup, fmt.Errorf("appearance for finding %q: %w", m.FindingID, err)
	}
	apRef := b.objs.add(ap)

	rd := l.rectDifferences
	note := textString(contents(m, sev))
	squareDict := types.Dict{
		"Type":         types.Name("Annot"),
		"Subtype":      types.Name("Square"),
		"Rect":         pdfRect(l.rect),
		"P":            p.ref,
		"NM":           textString(nm),
		"T":            textString(Author),
		"Subj":         textString(m.Title),
		"Contents":     note,
		"M":            b.date,
		"CreationDate": b.date,
		"F":            types.Integer(4), // Print
		"C":            sev.color.array(),
		"CA":           types.Integer(1),
		"BS": types.Dict{
			"Type": types.Name("Border"),
			"W":    pdfNumber(l.style.lineWidth),
			"S":    types.Name("S"),
		},
		"RD": pdfNumbers(rd[:]...),
		"AP": types.Dict{"N": apRef},
	}
	// The square and its popup point at each other: reserve the square's
	// number so the popup can be completed (and, in an update, written) first.
	square = b.objs.reserve()
	popup = b.objs.add(types.Dict{
		"Type":    types.Name("Annot"),
		"Subtype": types.Name("Popup"),
		"Rect":    pdfRect(l.popupRect),
		"P":       p.ref,
		"Parent":  square,
		// Viewers show the parent's text; the copy serves tools that read
		// the popup on its own.
		"Contents": note,
		"Open":     types.Boolean(false),
		// Print (so an opened note prints), NoZoom and NoRotate, as viewers
		// create popups themselves.
		"F": types.Integer(4 | 8 | 16),
	})
	squareDict.Insert("Popup", popup)
	b.objs.define(square, squareDict)
	return square, popup, nil
}

// contents is the note text: what a reviewer needs without the findings list.
func contents(m Mark, sev severityStyle) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#%d %s: %s", m.Number, sev.label, strings.TrimSpace(m.Title))
	if m.SheetNumber != "" {
		fmt.Fprintf(&b, "\nSheet %s", m.SheetNumber)
	}
	if m.GoverningRefs != "" {
		fmt.Fprintf(&b, "\nGoverning: %s", m.GoverningRefs)
	}
	if m.Rationale != "" {
		fmt.Fprintf(&b, "\n\n%s", m.Rationale)
	}
	fmt.Fprintf(&b, "\n\nFinding %s (planreview)", m.FindingID)
	return b.String()
}

// withoutOwnAnnotations returns the page's annotations minus those an
// earlier planreview run wrote (and their popups), and whether any went.
func (b *builder) withoutOwnAnnotations(pageDict types.Dict) (kept []types.Object, removed bool) {
	obj, found := pageDict.Find("Annots")
	if !found {
		return nil, false
	}
	arr, err := b.xt.DereferenceArray(obj)
	if err != nil {
		return nil, false
	}
	ours := map[int]bool{}
	dicts := make([]types.Dict, len(arr))
	for i, e := range arr {
		d, err := b.xt.DereferenceDict(e)
		if err != nil || d == nil {
			continue
		}
		dicts[i] = d
		ref, isRef := e.(types.IndirectRef)
		if isRef && b.isOwnAnnotation(d) {
			ours[ref.ObjectNumber.Value()] = true
		}
	}
	kept = make([]types.Object, 0, len(arr))
	for i, e := range arr {
		if ref, isRef := e.(types.IndirectRef); isRef && ours[ref.ObjectNumber.Value()] {
			removed = true
			continue
		}
		if d := dicts[i]; d != nil {
			if parent := d.IndirectRefEntry("Parent"); parent != nil && ours[parent.ObjectNumber.Value()] {
				removed = true
				continue
			}
		}
		kept = append(kept, e)
	}
	return kept, removed
}

func (b *builder) isOwnAnnotation(d types.Dict) bool {
	if _, hasNM := d.Find("NM"); !hasNM {
		return false
	}
	t, found := d.Find("T")
	if !found {
		return false
	}
	author, err := b.xt.DereferenceStringOrHexLiteral(t, model.V10, nil)
	return err == nil && author == Author
}

// appendSummary adds the summary pages as the last kids of the page tree
// root. Every attribute a page could inherit is set explicitly so nothing of
// the original's root (a /Rotate, a CropBox) leaks onto the summary.
func (b *builder) appendSummary(rootRef types.IndirectRef, pages []page, marks []Mark, sum Summary) error {
	root, err := b.xt.DereferenceDict(rootRef)
	if err != nil || root == nil {
		return fmt.Errorf("%w: page tree root: %v", ErrUnreadablePDF, err)
	}
	kidsObj, _ := root.Find("Kids")
	kids, err := b.xt.DereferenceArray(kidsObj)
	if err != nil {
		return fmt.Errorf("%w: page tree root /Kids: %v", ErrUnreadablePDF, err)
	}
	w, h := summaryPageSize(pages[0].geom)
	streams, links := summaryContents(w, h, sum, summaryRows(marks))
	annots := make([]types.Array, len(streams))
	for _, l := range links {
		if l.target > len(pages) || !pages[l.target-1].writable {
			continue // a page no reference can reach
		}
		annots[l.page] = append(annots[l.page], b.objs.add(types.Dict{
			"Type":    types.Name("Annot"),
			"Subtype": types.Name("Link"),
			"Rect":    pdfRect(l.rect),
			"Border":  pdfNumbers(0, 0, 0),
			"F":       types.Integer(4),
			"Dest":    types.Array{pages[l.target-1].ref, types.Name("Fit")},
		}))
	}
	newKids := make(types.Array, 0, len(kids)+len(streams))
	newKids = append(newKids, kids...)
	for i, content := range streams {
		cs, err := b.objs.newStream(types.Dict{}, content, true)
		if err != nil {
			return fmt.Errorf("summary page: %w", err)
		}
		mediaBox := pdfNumbers(0, 0, w, h)
		pageDict := types.Dict{
			"Type":      types.Name("Page"),
			"Parent":    rootRef,
			"MediaBox":  mediaBox,
			"CropBox":   mediaBox,
			"Rotate":    types.Integer(0),
			"Resources": b.summaryResources,
			"Contents":  b.objs.add(cs),
			// PieceInfo marks the page as generated, so that a later stage
			// meeting this copy again can tell it from the drawings.
			"PieceInfo": types.Dict{Author: types.Dict{
				"LastModified": b.date,
				"Private":      types.Dict{"Kind": types.Name(summaryKind)},
			}},
		}
		if len(annots[i]) > 0 {
			pageDict["Annots"] = annots[i]
		}
		newKids = append(newKids, b.objs.add(pageDict))
	}
	b.objs.releaseDeflater()
	root.Update("Kids", newKids)
	root.Update("Count", types.Integer(len(pages)+len(streams)))
	b.objs.replace(rootRef, root)
	return nil
}

// ensureVersion raises the catalog's /Version to 1.4 when the file declares
// less: the tint's constant alpha and /NM are PDF 1.4 features.
func (b *builder) ensureVersion(pctx *model.Context) {
	if pctx.XRefTable.Version() >= model.V14 || b.xt.Root == nil {
		return
	}
	catalog, err := b.xt.Catalog()
	if err != nil || catalog == nil {
		return
	}
	catalog.Update("Version", types.Name("1.4"))
	b.objs.replace(*b.xt.Root, catalog)
}

// removePages takes pages out of the page tree: out of their parent's /Kids
// and out of every ancestor's /Count.
func (b *builder) removePages(pages []page) error {
	for _, p := range pages {
		if len(p.ancestors) == 0 {
			return fmt.Errorf("%w: page object %d has no parent", ErrUnreadablePDF, p.ref.ObjectNumber.Value())
		}
		parentRef := p.ancestors[len(p.ancestors)-1]
		parent, err := b.xt.DereferenceDict(parentRef)
		if err != nil || parent == nil {
			return fmt.Errorf("%w: page tree node %d: %v", ErrUnreadablePDF, parentRef.ObjectNumber.Value(), err)
		}
		kids, err := b.xt.DereferenceArray(parent["Kids"])
		if err != nil {
			return fmt.Errorf("%w: page tree node %d /Kids: %v", ErrUnreadablePDF, parentRef.ObjectNumber.Value(), err)
		}
		kept := make(types.Array, 0, len(kids))
		for _, k := range kids {
			if kr, ok := k.(types.IndirectRef); ok && kr.ObjectNumber == p.ref.ObjectNumber {
				continue
			}
			kept = append(kept, k)
		}
		parent.Update("Kids", kept)
		for _, ancestorRef := range p.ancestors {
			node, err := b.xt.DereferenceDict(ancestorRef)
			if err != nil || node == nil {
				return fmt.Errorf("%w: page tree node %d: %v", ErrUnreadablePDF, ancestorRef.ObjectNumber.Value(), err)
			}
			if count, err := b.xt.DereferenceInteger(node["Count"]); err == nil && count != nil && count.Value() > 0 {
				node.Update("Count", types.Integer(count.Value()-1))
			}
			b.objs.replace(ancestorRef, node)
		}
	}
	return nil
}
