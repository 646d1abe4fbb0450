package rules

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"planreview/scan/sheets"
	"planreview/scan/units"
)

// checkSpec describes a Go check that YAML rules reference by name: the
// params it needs, the template variables it provides, and the function.
type checkSpec struct {
	params   []string
	vars     []string
	validate func(key, value string) error
	run      func(rv *review, r *Rule) []observation
	// quantities names the params that are numeric limits, which a
	// jurisdiction's amendment may override.
	quantities map[string]string
	// wholeSet: the check's findings are true only if the whole set was
	// read (a sheet or document "not in the set", a mark "on no plan"), so
	// their confidence is scaled by the share read (review.finding).
	wholeSet bool
	// last: the check reports what the other checks could not read, so
	// it runs after all of them (review.run).
	last bool
}

var checks = map[string]checkSpec{
	"unreadable_page":            {vars: []string{"page", "what", "reason", "file"}, run: checkUnreadablePage},
	"scope_not_reviewed":         {vars: []string{"reason", "docType"}, run: checkScopeNotReviewed},
	"unfinished_text":            {vars: []string{"text", "what", "more"}, run: checkUnfinishedText},
	"tag_not_in_schedule":        {vars: []string{"tag", "schedule"}, run: checkTagNotInSchedule},
	"schedule_mark_not_on_plans": {vars: []string{"tag"}, run: checkScheduleMarkNotOnPlans, wholeSet: true},
	"schedule_mark_repeated":     {vars: []string{"tag", "count"}, run: checkScheduleMarkRepeated},
	"room_number_repeated":       {vars: []string{"number", "first", "second"}, run: checkRoomNumberRepeated},
	"code_analysis_unread":       {vars: []string{"where"}, run: checkCodeAnalysisUnread},
	"missing_documents":          {vars: []string{"document", "text", "advice"}, run: checkMissingDocuments, wholeSet: true},
	"index_title_mismatch":       {vars: []string{"listed", "indexTitle", "sheetTitle", "indexSheet"}, run: checkIndexTitleMismatch},
	"empty_schedule":             {vars: []string{"rows", "empty", "cells", "header"}, run: checkEmptySchedule},
	"issue_status":               {vars: []string{"status", "stage"}, run: checkIssueStatus},
	"scale_conflict":             {vars: []string{"first", "second", "paper"}, run: checkScaleConflict},
	"codes_not_applied":          {vars: []string{"codes", "reason", "applied"}, run: checkCodesNotApplied},
	"no_readable_pages":          {vars: []string{"pages"}, run: checkNoReadablePages},
	"sheet_index_missing":        {vars: []string{"listed", "listedTitle", "indexSheet"}, run: checkIndexMissing, wholeSet: true},
	"sheet_index_unlisted":       {vars: []string{"number", "indexSheet"}, run: checkIndexUnlisted},
	"sheet_references":           {vars: []string{"target", "reference"}, run: checkSheetReferences, wholeSet: true},
	"drawing_references":         {vars: []string{"kind", "reference", "more"}, run: checkDrawingReferences, wholeSet: true},
	"sheet_index_absent":         {vars: []string{"where", "count"}, run: checkIndexAbsent, wholeSet: true},
	"index_placeholder_title":    {vars: []string{"listed", "indexTitle", "indexSheet"}, run: checkIndexPlaceholder},
	"index_duplicate_entry":      {vars: []string{"listed", "first", "second", "indexSheet", "meant"}, run: checkIndexDuplicate},
	"checks_not_covered":         {vars: []string{"what"}, run: checkNotCovered, last: true},
	"duplicate_sheet_numbers":    {vars: []string{"number", "other"}, run: checkDuplicateSheets},
	"title_block": {params: []string{"field"}, vars: []string{"field"}, run: checkTitleBlock,
		validate: oneOf("field", "number", "title", "date", "scale")},
	"code_edition_stated":  {vars: []string{"adopted", "where", "basis"}, run: checkCodeEditionStated},
	"code_edition_current": {vars: []string{"stated", "adopted", "code", "basis"}, run: checkCodeEditionCurrent},
	"code_analysis_field": {params: []string{"field"}, vars: []string{"field", "where"}, run: checkCodeAnalysisField,
		validate: oneOf("field", "occupancy", "construction_type", "sprinklers")},
	"exits_for_occupant_load": {vars: []string{"load", "exits", "required"}, run: checkExits},
	"egress_capacity_factor": {params: []string{"component"}, vars: []string{"stated", "minimum"},
		run: checkCapacityFactor, validate: oneOf("component", "stairs", "other")},
	"egress_capacity_width": {params: []string{"component"}, vars: []string{"provided", "required", "load", "factor"},
		run: checkCapacityWidth, validate: oneOf("component", "stairs", "other")},
	"stair_rise": {params: []string{"max"}, vars: []string{"totalRise", "risers", "computed", "limit"},
		run: checkStairRise, validate: lengthParam, quantities: map[string]string{"max": units.Length}},
	"area_total":           {vars: []string{"total", "totalLabel", "parts", "sum", "difference"}, run: checkAreaTotal},
	"floor_area_vs_plan":   {vars: []string{"level", "stated", "statedLabel", "statedSheet", "plan", "planLabel"}, run: checkFloorAreaVsPlan},
	"stories_vs_plans":     {vars: []string{"stories", "storiesLabel", "statedSheet", "planTitle", "least"}, run: checkStoriesVsPlans},
	"height_vs_elevations": {vars: []string{"height", "heightLabel", "statedSheet", "top", "grade", "bound"}, run: checkHeightVsElevations},
	"site_plan_setbacks":   {vars: []string{"lengths", "count"}, run: checkSitePlanSetbacks},
	"project_data_blank":   {vars: []string{"label", "field", "shown", "placement"}, run: checkProjectDataBlank},
	"riser_uniformity": {params: []string{"tolerance"}, vars: []string{"difference", "tolerance", "values"},
		run: checkRiserUniformity, validate: lengthParam, quantities: map[string]string{"tolerance": units.Length}},
}

func checkNames() []string {
	names := make([]string, 0, len(checks))
	for n := range checks {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func oneOf(param string, values ...string) func(string, string) error {
	return func(k, v string) error {
		if k != param {
			return fmt.Errorf("unknown param %q", k)
		}
		for _, x := range values {
			if v == x {
				return nil
			}
		}
		return fmt.Errorf("%q: want one of %s", v, strings.Join(values, ", "))
	}
}

func lengthParam(_, v string) error {
	if _, err := units.ParseLength(v); err != nil {
		return errors.New("want a length such as 7 3/4\"")
	}
	return nil
}

// --- coverage ---------------------------------------------------------------

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

func checkNoReadablePages(rv *review, r *Rule) []observation {
	for _, pv := range rv.pages {
		if pv.Readable {
			return nil
		}
	}
	return []observation{{page: nil, vars: map[string]string{"pages": strconv.Itoa(len(rv.pages))}, evidence: "no readable pages"}}
}

// --- sheet index ------------------------------------------------------------

// indexPages returns the pages carrying a sheet index.
func (rv *review) indexPages() []*pageView {
	var out []*pageView
	for _, pv := range rv.pages {
		if len(pv.Index) > 0 {
			out = append(out, pv)
		}
	}
	return out
}

func (rv *review) presentSheets() map[string]*pageView {
	present := map[string]*pageView{}
	for _, pv := range rv.pages {
		if pv.Ident.Key != "" {
			if _, ok := present[pv.Ident.Key]; !ok {
				present[pv.Ident.Key] = pv
			}
		}
	}
	return present
}

func checkIndexMissing(rv *review, r *Rule) []observation {
	present := rv.presentSheets()
	var out []observation
	// Sets that repeat the index on several sheets report a missing sheet
	// once, on the first index.
	reported := map[string]bool{}
	for _, ip := range rv.indexPages() {
		for _, e := range ip.Index {
			// A number the index marks reserved is kept free on purpose;
			// a sheet it marks by others or separate is submitted apart.
			if _, ok := present[e.Key]; ok || reported[e.Key] || notExpected(e) {
				continue
			}
			reported[e.Key] = true
			// A page whose number was not read may be the sheet: the
			// coverage finding says so instead (indexUndecided).
			if len(rv.unnumberedCandidates(ip, e)) > 0 {
				continue
			}
			out = append(out, observation{page: ip, words: e.Words,
				vars:     map[string]string{"listed": e.Number, "listedTitle": e.Title, "indexSheet": ip.sheetNumberOr()},
				evidence: "missing " + e.Key})
		}
	}
	return out
}

func checkIndexUnlisted(rv *review, r *Rule) []observation {
	ips := rv.indexPages()
	if len(ips) == 0 {
		return nil
	}
	listed := map[string]bool{}
	for _, ip := range ips {
		for _, e := range ip.Index {
			listed[e.Key] = true
		}
	}
	// The sheet an index is printed on introduces the sheets it lists:
	// a cover that does not list itself leaves nothing unaccounted for.
	for _, ip := range ips {
		listed[ip.Ident.Key] = true
	}
	var out []observation
	reported := map[string]bool{}
	for _, pv := range rv.pages {
		if pv.Ident.Key == "" || listed[pv.Ident.Key] || reported[pv.Ident.Key] {
			continue
		}
		reported[pv.Ident.Key] = true
		out = append(out, observation{page: pv, words: pv.Ident.NumberWords,
			vars:     map[string]string{"number": pv.Ident.Number, "indexSheet": ips[0].sheetNumberOr()},
			evidence: "unlisted " + pv.Ident.Key})
	}
	return out
}

// referenceRe finds sheet references: "3/A4.2", "A/A-501", "SEE A-501",
// "SEE SHEET A-501", "REFER TO S-201".
var referenceRe = lineSet.MustCompile(`(?i)(?:\b(?:SEE|REFER\s+TO)\s+(?:DETAIL\s+|DET\.?\s+)?)?\b(?:[0-9]{1,3}|[A-Z])\s*/\s*([A-Z]{1,2}[-.]?\d{1,3}(?:\.\d{1,3})?[A-Z]?)\b|\b(?:SEE|REFER\s+TO)\s+(?:SHEET\s+|DWG\.?\s+|DRAWING\s+)?([A-Z]{1,2}[-.]?\d{1,3}(?:\.\d{1,3})?[A-Z]?)\b`)

func checkDuplicateSheets(rv *review, r *Rule) []observation {
	first := map[string]*pageView{}
	var out []observation
	for _, pv := range rv.pages {
		if pv.Ident.Key == "" {
			continue
		}
		f, ok := first[pv.Ident.Key]
		if !ok {
			first[pv.Ident.Key] = pv
			continue
		}
		other := fmt.Sprintf("page %d", f.Page.Number)
		if f.FileID != pv.FileID {
			other = fmt.Sprintf("page %d of file %s", f.Page.Number, f.FileID)
		}
		out = append(out, observation{page: pv, words: pv.Ident.NumberWords,
			vars:     map[string]string{"number": pv.Ident.Number, "other": other},
			evidence: "duplicate " + pv.Ident.Key})
	}
	return out
}

// --- title block --------------------------------------------------------------

func checkTitleBlock(rv *review, r *Rule) []observation {
	field := r.Params["field"]
	var out []observation
	for _, pv := range rv.pages {
		if !pv.Readable || !r.appliesToType(pv.Ident.Type) {
			continue
		}
		// A page read only in part (stamps over a raster drawing) may print
		// the field where the engine cannot read it.
		if pv.Model != nil && pv.Model.TextLayer != sheets.TextFull {
			continue
		}
		var missing bool
		switch field {
		case "number":
			// Only against the numbering the rest of the set follows; a file
			// whose numbers the engine cannot read at all is not a file
			// without numbers.
			// A number drawn as outlines is printed: it could not be
			// read (the coverage finding says so), it is not missing.
			missing = pv.Ident.Number == "" && (pv.Model == nil || pv.schemeLearned()) && !pv.Model.FieldUnread(sheets.FieldNumber)
		case "title":
			missing = pv.Ident.Number != "" && pv.Ident.Title == ""
		case "date":
			missing = pv.Ident.Number != "" && pv.Ident.Date == "" && !pv.hasField(sheets.FieldDate)
		case "scale":
			missing = pv.Ident.Number != "" && pv.Ident.Scale == "" && pv.drawnToScale()
		}
		if missing {
			out = append(out, observation{page: pv, vars: map[string]string{"field": strings.ReplaceAll(field, "_", " ")},
				evidence: fmt.Sprintf("no %s p%d", field, pv.Page.Number)})
		}
	}
	return out
}

// hasField reports whether the set model read a filled field of this kind
// in the page's title block.
func (pv *pageView) hasField(kind string) bool {
	if pv.Model == nil {
		return false
	}
	for _, f := range pv.Model.Fields {
		if f.Kind == kind && strings.TrimSpace(f.Value) != "" {
			return true
		}
	}
	return false
}

// drawnToScale reports whether the sheet's title names a view drawn to
// scale (plan, elevation, section, detail) and no diagram, schedule or
// notes, whose sheets are commonly unscaled. Without a title the sheet is
// judged by the set model's view scales alone.
func (pv *pageView) drawnToScale() bool {
	if pv.Model != nil && len(pv.Model.ViewScales) > 0 {
		return false
	}
	t := pv.Ident.Title
	return t != "" && scaledViewRe.MatchString(t) && !unscaledViewRe.MatchString(t)
}

// --- code analysis ------------------------------------------------------------

func (rv *review) adoptedText() string {
	// A state code is named with the model code it is based on, which is
	// then not named again: "IBC 2021, CRC 2022 (based on IRC 2021)".
	var state []string
	based := map[string]bool{}
	for _, a := range rv.eng.stateCodes {
		text := a.Code + " " + a.Edition
		if rv.eng.base != nil {
			if bc, be, ok := rv.eng.base(a.Code, a.Edition); ok {
				text += " (based on " + bc + " " + be + ")"
				based[bc+" "+be] = true
			}
		}
		state = append(state, text)
	}
	var parts []string
	for _, a := range rv.eng.adopted {
		if !based[a.Code+" "+a.Edition] {
			parts = append(parts, a.Code+" "+a.Edition)
		}
	}
	parts = append(parts, state...)
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func checkCodeEditionStated(rv *review, r *Rule) []observation {
	where, ok := rv.codeAnalysisExpected()
	// A state's codes named as a whole with their edition ("2018 NORTH
	// CAROLINA STATE BUILDING CODE") state an edition too.
	if len(rv.facts.codes) > 0 || len(rv.facts.stateEditions) > 0 || rv.firstReadable() == nil || !ok {
		return nil
	}
	adopted := rv.adoptedText()
	return []observation{{vars: map[string]string{"adopted": adopted, "where": where.sheetNumberOr(), "basis": rv.basisClause(adopted)}, evidence: "no code edition"}}
}

// basisClause says where the codes a review applies come from, for
// rationales: the job's jurisdiction, the plans they were presumed from,
// or the appliance's configured codes when neither names one.
func (rv *review) basisClause(codes string) string {
	switch {
	case rv.eng.presumedFrom != "":
		return "the code basis presumed from " + rv.eng.presumedFrom + " is " + codes
	case rv.job.Jurisdiction == "":
		return "the job names no jurisdiction and the review applies " + codes + " (the codes configured for this appliance)"
	}
	return "the jurisdiction has adopted " + codes
}

func (rv *review) firstReadable() *pageView {
	for _, pv := range rv.pages {
		if pv.Readable {
			return pv
		}
	}
	return nil
}

// checkCodeEditionCurrent reports a stated code whose family the
// jurisdiction adopted in another edition ("2018 IBC" where IBC 2021 is in
// force). Codes the jurisdiction did not adopt through a pack are not judged.
//
// With a jurisdiction's adoption table, a stated state code is read through
// its base: "2022 CBC" (based on IBC 2021) is current where IBC 2021 is the
// model code; "2019 CRC" is judged against the CRC edition adopted, or
// through its base (IRC 2018) against the IRC.
func checkCodeEditionCurrent(rv *review, r *Rule) []observation {
	adopted := map[string]string{}
	for _, a := range rv.eng.adopted {
		adopted[a.Code] = a.Edition
	}
	for _, a := range rv.eng.stateCodes {
		adopted[a.Code] = a.Edition
	}
	var out []observation
	for _, c := range rv.facts.codes {
		code, edition := c.group, c.extra
		want, ok := adopted[code]
		if !ok && rv.eng.base != nil {
			if bc, be, known := rv.eng.base(code, edition); known {
				if w, adoptedBase := adopted[bc]; adoptedBase {
					code, edition, want, ok = bc, be, w, true
				}
			}
		}
		if !ok || edition == want {
			continue
		}
		stated := c.group + " " + c.extra
		if code != c.group {
			stated += " (based on " + code + " " + edition + ")"
		}
		out = append(out, observation{page: c.pv, words: c.words,
			vars:     map[string]string{"stated": stated, "adopted": code + " " + want, "code": code, "basis": rv.basisClause(code + " " + want)},
			evidence: c.group + " " + c.extra})
	}
	return out
}

func checkCodeAnalysisField(rv *review, r *Rule) []observation {
	where, ok := rv.codeAnalysisExpected()
	if rv.firstReadable() == nil || !ok {
		return nil
	}
	var stated bool
	switch r.Params["field"] {
	case "occupancy":
		stated = len(rv.facts.groups) > 0
	case "construction_type":
		// The residential code does not classify a dwelling by
		// construction type (that is the building code's chapter 6): an
		// IRC house is not asked for one.
		stated = len(rv.facts.construction) > 0 || underResidentialCode(rv.facts)
	case "sprinklers":
		stated = rv.sprinklersStated()
	}
	// A field printed blank is reported once, on its label, by
	// project_data_blank.
	if stated || rv.blankOf(r.Params["field"]) {
		return nil
	}
	return []observation{{vars: map[string]string{"field": strings.ReplaceAll(r.Params["field"], "_", " "), "where": where.sheetNumberOr()},
		evidence: "no " + r.Params["field"]}}
}

// residentialCode reports whether a code family is one of one- and
// two-family dwellings and townhouses: the IRC and the adoption table's
// codes based on it.
func residentialCode(family string) bool {
	return family == "IRC" || adoptions.ModelOf(family) == "IRC"
}

// underResidentialCode reports whether the set is a dwelling under the
// residential code: it states one, and every occupancy it states is R-3
// or U (a house and its garage). With no occupancy stated, a building
// code stated beside it leaves the question open.
func underResidentialCode(f setFacts) bool {
	residential, building := false, false
	for _, c := range f.codes {
		switch {
		case residentialCode(c.group):
			residential = true
		case buildingFamily(c.group):
			building = true
		}
	}
	if !residential {
		return false
	}
	for _, g := range f.groups {
		if g.group != "R-3" && g.group != "U" {
			return false
		}
	}
	return len(f.groups) > 0 || !building
}

// requiredExits is the minimum number of exits for a story's occupant load
// (IBC 2021 Table 1006.3.3). Loads under 50 are not judged: a single exit may
// be allowed there (1006.3.4), which depends on facts the plans rarely state.
func requiredExits(load float64) int {
	switch {
	case load < 50:
		return 0
	case load <= 500:
		return 2
	case load <= 1000:
		return 3
	}
	return 4
}

// nearest returns the statement among hs on the same page closest (in lines)
// to h, within maxLines.
func nearest(h hit, hs []hit, maxLines int) (hit, bool) {
	best, bestD := hit{}, -1
	for _, o := range hs {
		if o.pv != h.pv {
			continue
		}
		d := o.line - h.line
		if d < 0 {
			d = -d
		}
		if d <= maxLines && (bestD < 0 || d < bestD) {
			best, bestD = o, d
		}
	}
	return best, bestD >= 0
}

func checkExits(rv *review, r *Rule) []observation {
	var out []observation
	for _, load := range rv.facts.occupantLoads {
		need := requiredExits(load.value)
		if need == 0 {
			continue
		}
		ex, ok := nearest(load, rv.facts.exits, 12)
		if !ok || int(ex.value) >= need {
			continue
		}
		out = append(out, observation{page: load.pv, words: append(append([]int{}, load.words...), ex.words...),
			vars: map[string]string{"load": units.TrimFloat(load.value, 0), "exits": units.TrimFloat(ex.value, 0),
				"required": strconv.Itoa(need)},
			evidence: load.text + "|" + ex.text})
	}
	return out
}

// capacityFactors returns the code's stair and other-component factors
// (IBC 2021 1005.3.1, 1005.3.2): 0.3 and 0.2 inch per occupant, or 0.2 and
// 0.15 where the set states both an automatic sprinkler system and an
// emergency voice/alarm communication system. reduced tells whether the
// reduced factors were used.
func (rv *review) capacityFactors() (stairs, other float64, reduced bool) {
	if rv.facts.sprinklered && rv.facts.voiceAlarm {
		return 0.2, 0.15, true
	}
	return 0.3, 0.2, false
}

func checkCapacityFactor(rv *review, r *Rule) []observation {
	stairs, other, reduced := rv.capacityFactors()
	stated, minimum := rv.facts.stairFactors, stairs
	if r.Params["component"] == "other" {
		stated, minimum = rv.facts.otherFactors, other
	}
	var out []observation
	for _, s := range stated {
		if s.value >= minimum-1e-9 {
			continue
		}
		o := observation{page: s.pv, words: s.words,
			vars:     map[string]string{"stated": units.TrimFloat(s.value, 3) + " in per occupant", "minimum": units.TrimFloat(minimum, 3) + " in per occupant"},
			evidence: s.text}
		// Below the full factor but at or above the reduced one: the
		// reduction may apply through systems the sheets do not mention.
		reducedMin := 0.2
		if r.Params["component"] == "other" {
			reducedMin = 0.15
		}
		if !reduced && s.value >= reducedMin-1e-9 {
			o.confidence = math.Min(r.Confidence, 0.6)
		}
		out = append(out, o)
	}
	return out
}

func checkCapacityWidth(rv *review, r *Rule) []observation {
	stairs, other, reduced := rv.capacityFactors()
	widths, factor := rv.facts.stairWidths, stairs
	if r.Params["component"] == "other" {
		widths, factor = rv.facts.otherWidths, other
	}
	var out []observation
	for _, w := range widths {
		load, ok := nearest(w, rv.facts.occupantLoads, 12)
		if !ok {
			continue
		}
		required := load.value * factor
		if w.value >= required-1e-6 {
			continue
		}
		o := observation{page: w.pv, words: append(append([]int{}, load.words...), w.words...),
			vars: map[string]string{"provided": units.FormatLength(w.value), "required": units.FormatLength(required),
				"load": units.TrimFloat(load.value, 0), "factor": units.TrimFloat(factor, 3) + " in per occupant"},
			evidence: w.text + "|" + load.text}
		if !reduced && rv.facts.sprinklered {
			// Sprinklered but no voice/alarm system stated: the reduced
			// factor might apply; report only what fails even with it, and
			// with less confidence what fails only the full factor.
			redFactor := 0.2
			if r.Params["component"] == "other" {
				redFactor = 0.15
			}
			if w.value >= load.value*redFactor-1e-6 {
				o.confidence = math.Min(r.Confidence, 0.6)
			}
		}
		out = append(out, o)
	}
	return out
}

// --- stairs -----------------------------------------------------------------

var (
	totalRiseRe  = lineSet.MustCompile(`(?i)\bTOTAL\s+RISE\s*[:=\-]?\s*(` + units.LengthPattern + `)`)
	riserCountRe = lineSet.MustCompile(`(?i)\b(\d{1,2})\s+(?:EQ(?:UAL)?\.?\s+)?RISERS?\b(?:\s*(?:@|AT)\s*(` + units.LengthPattern + `))?`)
	riserRangeRe = lineSet.MustCompile(`(?i)\bRISERS?\b[^0-9]{0,20}(` + units.LengthPattern + `)\s*(?:TO|-|–|AND|/)\s*(` + units.LengthPattern + `)`)
)

// stairStatement is a stair's total rise with its riser count (and the
// stated riser height, when "N RISERS @ x" gives one), read from one line or
// two lines stacked in the same note.
type stairStatement struct {
	pv              *pageView
	words           []int
	text            string
	total           float64
	risers          int
	stated          float64 // 0 when not stated
	totalText       string
	riserCountText  string
	statedRiserText string
}

func (rv *review) stairStatements() []stairStatement {
	var out []stairStatement
	for _, pv := range rv.pages {
		if !pv.Readable {
			continue
		}
		for li, l := range pv.Lines {
			tm := pv.find(totalRiseRe, li)
			if tm == nil {
				continue
			}
			total, err := units.ParseLength(l.Text[tm[2]:tm[3]])
			if err != nil || total <= 0 {
				continue
			}
			// The riser count on the same line, else on the line just above
			// or below in the same column.
			candidates := []int{li}
			for lj, m := range pv.Lines {
				if lj == li {
					continue
				}
				gap := math.Max(m.Box.Y0-l.Box.Y1, l.Box.Y0-m.Box.Y1)
				overlap := m.Box.X0 < l.Box.X1 && m.Box.X1 > l.Box.X0
				if overlap && gap < 1.5*l.Box.Y1-1.5*l.Box.Y0 {
					candidates = append(candidates, lj)
				}
			}
			for _, lj := range candidates {
				m := pv.Lines[lj]
				cm := pv.find(riserCountRe, lj)
				if cm == nil {
					continue
				}
				n, _ := strconv.Atoi(m.Text[cm[2]:cm[3]])
				if n < 2 {
					continue
				}
				s := stairStatement{pv: pv, total: total, risers: n,
					totalText: l.Text[tm[0]:tm[1]], riserCountText: m.Text[cm[0]:cm[1]]}
				if cm[4] >= 0 {
					if v, err := units.ParseLength(m.Text[cm[4]:cm[5]]); err == nil {
						s.stated, s.statedRiserText = v, m.Text[cm[4]:cm[5]]
					}
				}
				s.words = append(l.WordsInSpan(tm[0], tm[1]), m.WordsInSpan(cm[0], cm[1])...)
				if lj == li {
					s.words = l.WordsInSpan(min(tm[0], cm[0]), max(tm[1], cm[1]))
				}
				s.text = s.totalText + " " + s.riserCountText
				out = append(out, s)
				break
			}
		}
	}
	return out
}

func checkStairRise(rv *review, r *Rule) []observation {
	limit, err := units.ParseLength(r.Params["max"])
	if err != nil {
		return nil
	}
	var out []observation
	for _, s := range rv.stairStatements() {
		if !r.appliesToType(s.pv.Ident.Type) {
			continue
		}
		computed := s.total / float64(s.risers)
		if computed <= limit+1e-6 {
			continue
		}
		out = append(out, observation{page: s.pv, words: s.words,
			vars: map[string]string{"totalRise": units.FormatLength(s.total), "risers": strconv.Itoa(s.risers),
				"computed": units.FormatLength(computed), "limit": units.FormatLength(limit)},
			evidence: s.text})
	}
	return out
}

// checkRiserUniformity reports a flight whose riser heights differ by more
// than the tolerance: a stated range ("RISERS 7" TO 7 3/4"") or a stated
// riser height that cannot be uniform with the stated total rise and count.
func checkRiserUniformity(rv *review, r *Rule) []observation {
	tol, err := units.ParseLength(r.Params["tolerance"])
	if err != nil {
		return nil
	}
	var out []observation
	for _, s := range rv.stairStatements() {
		if s.stated == 0 || !r.appliesToType(s.pv.Ident.Type) {
			continue
		}
		// n-1 risers at the stated height leave the last one to make up
		// the total: that riser differs from the others by n·|avg−stated|.
		diff := math.Abs(s.total - s.stated*float64(s.risers-1) - s.stated)
		if diff <= tol+1e-6 {
			continue
		}
		out = append(out, observation{page: s.pv, words: s.words,
			vars: map[string]string{"difference": units.FormatLength(diff), "tolerance": units.FormatLength(tol),
				"values": fmt.Sprintf("%d risers @ %s against a total rise of %s", s.risers, units.FormatLength(s.stated), units.FormatLength(s.total))},
			evidence: s.text})
	}
	for _, pv := range rv.pages {
		if !pv.Readable || !r.appliesToType(pv.Ident.Type) {
			continue
		}
		for li, l := range pv.Lines {
			for _, m := range pv.findAll(riserRangeRe, li) {
				a, err1 := units.ParseLength(l.Text[m[2]:m[3]])
				b, err2 := units.ParseLength(l.Text[m[4]:m[5]])
				if err1 != nil || err2 != nil {
					continue
				}
				diff := math.Abs(a - b)
				if diff <= tol+1e-6 {
					continue
				}
				text := l.Text[m[0]:m[1]]
				out = append(out, observation{page: pv, words: l.WordsInSpan(m[0], m[1]),
					vars: map[string]string{"difference": units.FormatLength(diff), "tolerance": units.FormatLength(tol),
						"values": fmt.Sprintf("risers from %s to %s", units.FormatLength(min(a, b)), units.FormatLength(max(a, b)))},
					evidence: text})
			}
		}
	}
	return out
}
