package rules

import (
	"fmt"

	"planreview/scan/model"
)

// setReadForKinds reports whether every page of the set was read enough to
// say it holds no sheet of a kind: readable, and either read in full or
// with its title read (a drawing whose text is outlined still names
// itself in its title block).
func (rv *review) setReadForKinds() bool {
	for _, pv := range rv.pages {
		if !pv.Readable || (!pv.ReadInFull() && pv.Ident.Title == "") {
			return false
		}
	}
	return true
}

// hasDrawing reports whether some sheet of the set is or shows a drawing
// of the named kind.
func (rv *review) hasDrawing(kind string) bool {
	for _, pv := range rv.pages {
		if pv.ShowsDrawing(kind) {
			return true
		}
	}
	return false
}

// checkDrawingReferences reports notes that point at a kind of drawing
// ("SEE REFLECTED CEILING PLAN", "REFER TO STRUCTURAL DRAWINGS") when no
// sheet of the submitted set is of that kind: once per kind for the set,
// anchored on the first note, the others named as further anchors. Only
// a set read in full is judged (a page not read could be that drawing);
// a note that names the sheet or detail ("SEE ROOF PLAN 2/A-301") is the
// sheet-reference check's, a line relying on a document the document
// check reads (calculations, the engineer's design) is that check's. A
// written pointer in a legend or key still instructs (unlike a sample
// callout bubble), so it counts wherever it lies.
func checkDrawingReferences(rv *review, r *Rule) []observation {
	if len(rv.pages) == 0 || !rv.setReadForKinds() {
		return nil
	}
	type kindState struct {
		first   *observation
		more    int
		present bool
	}
	states := map[string]*kindState{}
	for _, pv := range rv.pages {
		refs := pv.References()
		onDocumentLine := map[int]bool{}
		for _, ref := range refs {
			if ref.Kind == model.RefDocument {
				onDocumentLine[ref.Line] = true
			}
		}
		for _, ref := range refs {
			if ref.Kind != model.RefDrawings || ref.Particular || onDocumentLine[ref.Line] {
				continue
			}
			st := states[ref.Drawing]
			if st == nil {
				st = &kindState{present: rv.hasDrawing(ref.Drawing)}
				states[ref.Drawing] = st
			}
			if st.present {
				continue
			}
			if st.first == nil {
				st.first = &observation{page: pv, words: ref.Words,
					vars:     map[string]string{"kind": ref.Drawing, "reference": ref.Text},
					evidence: "drawing " + ref.Drawing}
				continue
			}
			st.more++
			if len(st.first.also) < 10 {
				st.first.also = append(st.first.also, evidenceRef{page: pv, words: ref.Words})
			}
		}
	}
	// A note listing several disciplines ("MECHANICAL/PLUMBING
	// DRAWINGS") is one finding naming every kind it relies on, in the
	// order of the kinds.
	var out []observation
	at := map[string]int{}
	for _, k := range model.DrawingKinds {
		st := states[k.Name]
		if st == nil || st.first == nil || st.present {
			continue
		}
		more := ""
		if st.more > 0 {
			more = fmt.Sprintf(" (and %d more such note%s)", st.more, plural(st.more))
		}
		key := fmt.Sprint(st.first.page.FileIndex, st.first.page.Page.Number, st.first.words)
		if i, ok := at[key]; ok {
			o := &out[i]
			o.vars["kind"] += " and " + st.first.vars["kind"]
			o.evidence += " and " + st.first.vars["kind"]
			if o.vars["more"] == "" {
				o.vars["more"] = more
			}
			continue
		}
		st.first.vars["more"] = more
		at[key] = len(out)
		out = append(out, *st.first)
	}
	return out
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
