package rules

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// corpusReadings runs every value reader over every page of a corpus file
// (limits not applied): what the readers read on a real sheet.
func corpusReadings(t *testing.T, name string) map[string][]valueReading {
	t.Helper()
	path := filepath.Join("../../../shared/corpus", name)
	if _, err := os.Stat(path); err != nil {
		t.Skip("corpus not present")
	}
	c, err := Classify(context.Background(), PlanSet{Files: []File{{ID: "f", Pages: pdfPages(t, path)}}})
	if err != nil {
		t.Fatal(err)
	}
	e := loadAll(t)
	out := map[string][]valueReading{}
	ids := make([]string, 0, len(valueReaders))
	for id := range valueReaders {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		var r *Rule
		for _, rr := range e.rules {
			if rr.ID == id {
				r = rr
			}
		}
		if r == nil {
			continue
		}
		for _, pv := range c.pages {
			pn := newPageNotes(pv)
			if !pv.Readable || !pn.mayRead(valueReaders[id].keys) {
				continue
			}
			out[id] = append(out[id], valueReaders[id].read(pv, pv.Layout(), pn, r)...)
		}
	}
	return out
}

// On real sheets: the Calgary house section prints its stairs as stacked
// annotations ("15 RISERS" / "10" RUN" / "7 1/4" RISE") and a window head
// height ("7'-10 3/4" TYP HEAD HEIGHT") that is not stair headroom; the
// Crayfish Inn's stair note is metric ("14 RISERS x 163.9mm HIGH, 3 TREADS
// X 300mm WIDE") and the JKR school's too ("RISER: 150MM"), never read; the
// VA finish plans name corner guards and handrail products, not heights.
// (These sets are outside the IBC/IRC by their scope; what is checked here
// is what the readers read, not findings.)
func TestCorpusValueReadings(t *testing.T) {
	summary := func(name string) map[string]bool {
		out := map[string]bool{}
		for id, rs := range corpusReadings(t, name) {
			for _, r := range rs {
				out[id+" "+r.text] = true
			}
		}
		return out
	}
	calgary := summary("ca_calgary_sample_dp_bp_house_26p.pdf")
	for _, want := range []string{`irc-r311.7.5.1-riser-height 7 1/4" RISE`, `irc-r311.7.5.2-tread-depth 10" RUN`} {
		if !calgary[want] {
			t.Errorf("calgary: %s not read; read %v", want, calgary)
		}
	}
	for k := range calgary {
		if strings.Contains(k, "headroom") || strings.Contains(k, "HEAD HEIGHT") {
			t.Errorf("calgary: a head height read as %s", k)
		}
	}
	for _, name := range []string{"za_crayfish_inn_architectural_plans.pdf", "my_jkr_sabah_school_admin_block.pdf",
		"opentakeoff_va_finish_plan.pdf", "us_va_stcloud_bldg28_renovation_cds.pdf"} {
		if got := summary(name); len(got) != 0 {
			t.Errorf("%s: read %v", name, got)
		}
	}
}
