package rules

import (
	"errors"
	"fmt"
	"sort"
	"strings"

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
	"seal_block":           {vars: []string{"sheets", "count", "status", "caption"}, run: checkSealBlock},
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
