package rules

import (
	"strconv"
)

func checkNoReadablePages(rv *review, r *Rule) []observation {
	for _, pv := range rv.pages {
		if pv.Readable {
			return nil
		}
	}
	return []observation{{page: nil, vars: map[string]string{"pages": strconv.Itoa(len(rv.pages))}, evidence: "no readable pages"}}
}
