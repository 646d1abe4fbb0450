package rules

import (
	"fmt"
	"strconv"
)

func checkUnreadablePage(rv *review, r *Rule) []observation {
	type group struct {
		file   int
		reason string
	}
	var order []group
	pages := map[group][]*pageView{}
	reasons := map[group]string{}
	for _, pv := range rv.pages {
		if pv.Readable {
			continue
		}
		reason := pv.Page.Reason
		switch {
		case pv.Page.Err != nil:
			reason = "the page could not be read: " + pv.Page.Err.Error()
		case reason == "":
			reason = "no machine-readable text"
		}
		g := group{pv.FileIndex, reason}
		if _, ok := pages[g]; !ok {
			order = append(order, g)
		}
		pages[g] = append(pages[g], pv)
		reasons[g] = reason
	}
	var out []observation
	for _, g := range order {
		pvs := pages[g]
		// A few pages are named one by one, on their pages; a file of many
		// (a scanned set) is one sentence, not dozens.
		if len(pvs) <= 3 {
			for _, pv := range pvs {
				out = append(out, observation{page: pv,
					vars: map[string]string{"page": strconv.Itoa(pv.Page.Number), "what": fmt.Sprintf("Page %d was", pv.Page.Number),
						"reason": g.reason, "file": pv.FileID},
					// File position, not file id: ids change with every version.
					evidence: fmt.Sprintf("file%d/page%d/%s", pv.FileIndex, pv.Page.Number, pv.Page.Reason)})
			}
			continue
		}
		first := pvs[0]
		out = append(out, observation{page: first,
			vars: map[string]string{"page": strconv.Itoa(first.Page.Number), "what": upperFirst(pageNumbers(pvs)) + " were",
				"reason": g.reason, "file": first.FileID},
			evidence: fmt.Sprintf("file%d/pages%d+%d/%s", first.FileIndex, first.Page.Number, len(pvs), first.Page.Reason)})
	}
	return out
}
