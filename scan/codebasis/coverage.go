package codebasis

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"planreview/scan/rules"
	"planreview/store"
)

// Coverage statuses.
const (
	StatusCertified = "CERTIFIED"
	StatusHeld      = "HELD"
)

// SchemaCoverage is the schemaVersion of a Coverage object.
const SchemaCoverage = "local-law-coverage-v1"

// DefaultMaxStaleness is laws.max_staleness when the config sets none.
const DefaultMaxStaleness = 90 * 24 * time.Hour

// DocumentTopics are the topics of document-completeness rules: sheet
// index, references, title blocks, unfinished (preliminary) sheets and
// readable pages. They rest on no law, so their findings are delivered
// whatever the coverage. Every other topic is law-based.
var DocumentTopics = []string{
	"coverage",
	"completeness.issue-status",
	"completeness.references",
	"completeness.sheet-index",
	"completeness.title-block",
	"completeness.unfinished-text",
	"completeness.consistency",
}

// IsDocumentTopic reports whether findings of topic t rest on no law.
func IsDocumentTopic(t string) bool { return slices.Contains(DocumentTopics, t) }

// Coverage is the contract's LocalLawCoverage object (local-law-coverage-v1).
type Coverage struct {
	SchemaVersion      string   `json:"schemaVersion"`
	Status             string   `json:"status"`
	JurisdictionID     *string  `json:"jurisdictionId"`
	VestingBasis       []string `json:"vestingBasis"`
	SelectedSnapshotID *string  `json:"selectedSnapshotId"`
	CertificateID      *string  `json:"certificateId"`
	CertifiedScope     *Scope   `json:"certifiedScope"`
	FreshnessCheckedAt string   `json:"freshnessCheckedAt"`
	DeliveredTopics    []string `json:"deliveredTopics"`
	HeldTopics         []string `json:"heldTopics"`
	MissingLayers      []string `json:"missingLayers"`
	Limitations        []string `json:"limitations"`
}

// Scope is what a certification covers: the topics (a topic covers its
// sub-topics) and when the operator certified them.
type Scope struct {
	Topics      []string `json:"topics"`
	CertifiedAt string   `json:"certifiedAt"`
}

// Case is what selects the law for one review: the job's jurisdiction and
// application date (YYYY-MM-DD; the law in force that day applies).
type Case struct {
	JurisdictionID  string
	ApplicationDate string
}

// Settings are the appliance's law settings.
type Settings struct {
	MaxStaleness time.Duration // laws.max_staleness
}

// Plan is the law a review applies: the selected snapshot (if any), the
// engine with its amendments and citations, and what coverage needs to
// judge the review's topics afterwards.
type Plan struct {
	Case     Case
	Engine   *rules.Engine
	Snapshot *Snapshot          // nil when none is selected
	Stored   *store.LawSnapshot // its stored record
	Fresh    bool
	now      time.Time
	settings Settings

	limitations []string
	missing     []string
	models      []CodeRef
	unreviewed  []CodeRef // model layers without a rule pack
	basisHead   []string  // code-basis lines of the layers
	vesting     []string

	// presumed is the law presumed from the plans for a job without a
	// jurisdiction (Presume); presumedNotHeld its codes without a pack.
	presumed        *Presumption
	presumedNotHeld []Adoption
}

// Snapshots is where plans read stored snapshots.
type Snapshots interface {
	LawSnapshots(jurisdictionID string, withContent bool) ([]store.LawSnapshot, error)
	LawSnapshot(id string) (store.LawSnapshot, error)
}

// Select picks the snapshot for a case: the newest certified one of the
// jurisdiction whose effective range holds the application date (newest by
// effectiveFrom, then by certification time). Uncertified snapshots are
// never selected; the others that were passed over are returned for the
// limitations.
func Select(all []store.LawSnapshot, c Case) (selected *store.LawSnapshot, uncertified []store.LawSnapshot) {
	for i := range all {
		s := all[i]
		if s.JurisdictionID != c.JurisdictionID || !inForce(s, c.ApplicationDate) {
			continue
		}
		if !s.Certified() {
			uncertified = append(uncertified, s)
			continue
		}
		if selected == nil || s.EffectiveFrom > selected.EffectiveFrom ||
			(s.EffectiveFrom == selected.EffectiveFrom && s.CertifiedAt.After(*selected.CertifiedAt)) {
			selected = &all[i]
		}
	}
	return selected, uncertified
}

func inForce(s store.LawSnapshot, date string) bool {
	return s.EffectiveFrom <= date && (s.EffectiveUntil == "" || date <= s.EffectiveUntil)
}

// Planner prepares the law of each review. It caches what it compiled of
// each snapshot (decoded content, amended engine) by id: ids derive from
// the content, so a cached compilation can never be of other content.
type Planner struct {
	Library   *rules.Library
	Fallback  *rules.Engine // the configured adopted codes: reviews without a snapshot
	Snapshots Snapshots     // nil: none imported
	Settings  Settings

	cache sync.Map // snapshot id -> *compiled
}

// compiled is what a snapshot makes of the rules, the same for every scan.
type compiled struct {
	snap        *Snapshot
	engine      *rules.Engine
	models      []CodeRef
	unreviewed  []CodeRef
	limitations []string // from amendments the rules cannot apply, packs missing
}

// NewPlan is a Planner's Plan without its cache (tests, one-off reviews).
func NewPlan(c Case, src Snapshots, lib *rules.Library, fallback *rules.Engine, settings Settings, now time.Time) (*Plan, error) {
	return (&Planner{Library: lib, Fallback: fallback, Snapshots: src, Settings: settings}).Plan(c, now)
}

// Plan prepares the law for one review: without a jurisdiction, or without
// a certified snapshot in force on the application date, the fallback
// engine reviews the set.
func (pl *Planner) Plan(c Case, now time.Time) (*Plan, error) {
	settings := pl.Settings
	if settings.MaxStaleness <= 0 {
		settings.MaxStaleness = DefaultMaxStaleness
	}
	p := &Plan{Case: c, Engine: pl.Fallback, now: now.UTC(), settings: settings}
	if c.JurisdictionID == "" {
		return p, nil
	}
	p.vesting = append(p.vesting, fmt.Sprintf("Application date %s: the law in force on that date applies (vesting), not the law on the scan date (%s).",
		c.ApplicationDate, p.now.Format(time.DateOnly)))
	var all []store.LawSnapshot
	if pl.Snapshots != nil {
		var err error
		if all, err = pl.Snapshots.LawSnapshots(c.JurisdictionID, false); err != nil {
			return nil, fmt.Errorf("local-law snapshots: %w", err)
		}
	}
	selected, uncertified := Select(all, c)
	if selected != nil {
		comp, err := pl.compile(*selected)
		if err != nil {
			return nil, err
		}
		if comp == nil {
			p.limitations = append(p.limitations, fmt.Sprintf("Snapshot %s was not used: its stored content no longer matches its SHA-256 (run planreview laws verify %s).",
				selected.ID, selected.ID))
			selected = nil
		} else {
			p.apply(selected, comp)
		}
	}
	if selected == nil {
		p.vesting = append(p.vesting, fmt.Sprintf("No certified local-law snapshot of %s is in force on %s.", c.JurisdictionID, c.ApplicationDate))
		p.limitations = append(p.limitations, fmt.Sprintf("No certified local-law snapshot of %s is in force on the application date %s: state and local law were not evaluated and law-based findings are held.",
			c.JurisdictionID, c.ApplicationDate))
		for _, u := range uncertified {
			p.limitations = append(p.limitations, fmt.Sprintf("Snapshot %s (%s) is in force on %s but not certified (planreview laws certify %s --certificate ID).",
				u.ID, u.Name, c.ApplicationDate, u.ID))
		}
		p.missing = expectedLayers(c.JurisdictionID)
	}
	return p, nil
}

// Warm compiles every certified snapshot not compiled yet.
func (pl *Planner) Warm() error {
	if pl.Snapshots == nil {
		return nil
	}
	all, err := pl.Snapshots.LawSnapshots("", false)
	if err != nil {
		return err
	}
	for _, s := range all {
		if s.Certified() {
			if _, err := pl.compile(s); err != nil {
				return err
			}
		}
	}
	return nil
}

// compile decodes and compiles a snapshot once; nil when its stored
// content does not hash to its id (tampered at rest).
func (pl *Planner) compile(meta store.LawSnapshot) (*compiled, error) {
	if v, ok := pl.cache.Load(meta.ID); ok {
		return v.(*compiled), nil
	}
	full, err := pl.Snapshots.LawSnapshot(meta.ID)
	if err != nil {
		return nil, fmt.Errorf("local-law snapshot %s: %w", meta.ID, err)
	}
	if store.LawSnapshotID(full.Content) != meta.ID {
		return nil, nil
	}
	snap, err := Decode(full.Content)
	if err != nil {
		return nil, err
	}
	comp := &compiled{snap: snap}
	for _, l := range snap.Layers {
		if l.Kind == LayerModel {
			comp.models = append(comp.models, CodeRef{Code: l.Code, Edition: l.Edition})
		}
	}
	if err := comp.build(pl.Library); err != nil {
		return nil, err
	}
	pl.cache.Store(meta.ID, comp)
	return comp, nil
}

// apply makes the plan use a selected snapshot: freshness, layers.
func (p *Plan) apply(meta *store.LawSnapshot, comp *compiled) {
	p.Snapshot, p.Stored, p.Engine = comp.snap, meta, comp.engine
	p.models, p.unreviewed = comp.models, comp.unreviewed
	p.vesting = append(p.vesting, fmt.Sprintf("Snapshot %s (%s) is in force from %s to %s, which holds the application date.",
		meta.ID, comp.snap.Name, meta.EffectiveFrom, orOpen(meta.EffectiveUntil)))
	p.Fresh = meta.FreshnessCheckedAt != nil && p.now.Sub(*meta.FreshnessCheckedAt) <= p.settings.MaxStaleness
	if !p.Fresh {
		checked := "never"
		if meta.FreshnessCheckedAt != nil {
			checked = meta.FreshnessCheckedAt.UTC().Format(time.RFC3339)
		}
		p.limitations = append(p.limitations, fmt.Sprintf("Snapshot %s is stale: its freshness was last checked %s, more than laws.max_staleness (%s) before the scan; law-based findings are held until an operator confirms it is current (planreview laws verify %s).",
			meta.ID, checked, formatDays(p.settings.MaxStaleness), meta.ID))
	}
	present := map[string]bool{}
	for _, l := range comp.snap.Layers {
		present[l.Kind] = true
	}
	for _, want := range expectedLayers(p.Case.JurisdictionID) {
		if !present[want] {
			p.missing = append(p.missing, want)
			p.limitations = append(p.limitations, fmt.Sprintf("Snapshot %s has no %s layer, which a jurisdiction at the level of %s has; its %s amendments were not evaluated.",
				meta.ID, want, p.Case.JurisdictionID, want))
		}
	}
	p.limitations = append(p.limitations, comp.limitations...)
}

// build chooses the rule packs of the snapshot's model codes and applies
// its amendments and citations.
func (comp *compiled) build(lib *rules.Library) error {
	var packs []string
	for _, m := range comp.models {
		if id, ok := lib.PackFor(m.Code, m.Edition); ok {
			packs = append(packs, id)
		} else {
			comp.unreviewed = append(comp.unreviewed, m)
			comp.limitations = append(comp.limitations, fmt.Sprintf("The appliance has no rule pack for %s %s; that code's requirements were not reviewed.", m.Code, m.Edition))
		}
	}
	base, err := lib.Engine(packs)
	if err != nil {
		return err
	}
	table, err := Adoptions()
	if err != nil {
		return err
	}
	j := rules.Jurisdiction{Overrides: map[string]rules.Override{}, Base: table.Base, Cite: citation(comp.snap, table)}
	all := base.Rules()
	bySection := map[string][]*rules.Rule{} // the sections the rules cite, upper case
	for i := range all {
		r := &all[i]
		for _, ref := range r.Refs {
			key := strings.ToUpper(ref.Section)
			if !slices.Contains(bySection[key], r) {
				bySection[key] = append(bySection[key], r)
			}
		}
	}
	for _, l := range comp.snap.Layers {
		if l.Kind == LayerModel {
			continue
		}
		if l.Code != "" {
			j.Adopted = append(j.Adopted, rules.AdoptedCode{Code: l.Code, Edition: l.Edition})
		}
		for _, a := range l.Amendments {
			if citing := bySection[strings.ToUpper(a.Section)]; len(citing) > 0 {
				comp.applyAmendment(&j, citing, l, a)
			}
		}
	}
	comp.engine, err = base.ForJurisdiction(j)
	return err
}

// applyAmendment records what one amendment changes in the rules citing
// its section.
func (comp *compiled) applyAmendment(j *rules.Jurisdiction, all []*rules.Rule, l Layer, a Amendment) {
	setBy := fmt.Sprintf("%s (%s amendment to %s)", layerTitle(l), l.Kind, a.Section)
	switch {
	case len(a.Values) > 0:
		for _, key := range sortedKeys(a.Values) {
			targets, err := ResolveValue(all, comp.models, a.Section, key)
			if err != nil {
				comp.limitations = append(comp.limitations, fmt.Sprintf("%s: values %s not applied: %v", setBy, key, err))
				continue
			}
			for _, t := range targets {
				if err := t.Rule.ValidateOverride(t.Param, a.Values[key]); err != nil {
					comp.limitations = append(comp.limitations, fmt.Sprintf("%s: values %s not applied: %v", setBy, key, err))
					continue
				}
				o := j.Overrides[t.Rule.ID]
				if o.Values == nil {
					o.Values = map[string]string{}
				}
				o.Values[t.Param] = a.Values[key]
				o.SetBy = setBy
				o.Disabled = false
				j.Overrides[t.Rule.ID] = o
			}
		}
	case a.Action == ActionDelete || a.Action == ActionReplace:
		var ids []string
		for _, r := range all {
			for _, m := range comp.models {
				if r.Cites(m.Code, m.Edition, a.Section) {
					ids = append(ids, r.ID)
					j.Overrides[r.ID] = rules.Override{Disabled: true, SetBy: setBy}
					break
				}
			}
		}
		if a.Action == ActionReplace && len(ids) > 0 {
			comp.limitations = append(comp.limitations, fmt.Sprintf("%s replaces the section with text the rules cannot check; not applied: %s.",
				setBy, strings.Join(ids, ", ")))
		}
	}
}

// citation cites the adopted code over a model reference: the highest
// layer whose code is based on the reference's code and edition.
func citation(snap *Snapshot, table *AdoptionTable) rules.Citation {
	return func(ref rules.Ref) string {
		for i := len(snap.Layers) - 1; i >= 0; i-- {
			l := snap.Layers[i]
			if l.Kind == LayerModel || l.Code == "" {
				continue
			}
			b := basedOn(l, table)
			if b != nil && strings.EqualFold(b.Code, ref.Code) && b.Edition == ref.Edition {
				return fmt.Sprintf("%s %s %s (%s)", l.Code, l.Edition, ref.Section, ref.String())
			}
		}
		return ""
	}
}

// basedOn is the layer's stated base, else the adoption table's.
func basedOn(l Layer, table *AdoptionTable) *CodeRef {
	if l.BasedOn != nil {
		return l.BasedOn
	}
	if a, ok := table.Find(l.Code, l.Edition); ok {
		b := a.BasedOn
		return &b
	}
	return nil
}

func layerTitle(l Layer) string {
	if l.Name != "" {
		return l.Name
	}
	return l.Code + " " + l.Edition
}

// expectedLayers are the layers a jurisdiction at this level has: a state
// (or district, territory) has a state layer, anything below it a local
// layer too.
func expectedLayers(jurisdictionID string) []string {
	parts := strings.Split(jurisdictionID, "/")
	switch {
	case len(parts) >= 4:
		return []string{LayerState, LayerLocal}
	case len(parts) == 3:
		return []string{LayerState}
	}
	return []string{}
}

// NoteOccupancy records how the set reads (rules.Report.Occupancy): a
// commercial set under a snapshot that adopts no IBC, or a residential one
// without the IRC, had none of its occupancy's code rules applied, which
// must not read as a clean review.
func (p *Plan) NoteOccupancy(occupancy string) {
	if p.Snapshot == nil {
		return
	}
	want := map[string]string{rules.OccupancyResidential: "IRC", rules.OccupancyCommercial: "IBC"}[occupancy]
	if want == "" {
		return
	}
	for _, m := range p.models {
		if strings.EqualFold(m.Code, want) && !slices.Contains(p.unreviewed, m) {
			return
		}
	}
	p.limitations = append(p.limitations, fmt.Sprintf("The plans read as %s (%s), but snapshot %s adopts no %s the appliance has rules for: none of its requirements were reviewed.",
		occupancy, want, p.Stored.ID, want))
}

// Result is the law's verdict on one review.
type Result struct {
	Coverage  *Coverage // nil when the job has no jurisdiction
	Delivered []bool    // per finding: whether it is delivered
	CodeBasis CodeBasis
}

// CodeBasis is the findings answer's codeBasis object.
type CodeBasis struct {
	RequiresAck      bool      `json:"requiresAck"`
	Lines            []string  `json:"lines"`
	LocalLawCoverage *Coverage `json:"localLawCoverage"`
}

// Judge computes the coverage of a finished review from the topics its
// rules touched, and which of its findings may be delivered (by topic).
func (p *Plan) Judge(touched []string, findingTopics []string, engineLines []string, configured string) Result {
	res := Result{Delivered: make([]bool, len(findingTopics))}
	if p.Case.JurisdictionID == "" {
		for i := range res.Delivered {
			res.Delivered[i] = true
		}
		var lines []string
		switch {
		case p.presumed != nil:
			lines = p.presumedLines()
		default:
			for _, l := range engineLines {
				if configured == "" {
					// No jurisdiction adopted these: they are the codes the
					// appliance is configured with.
					l = strings.Replace(l, ", as adopted", ", configured model code", 1)
				}
				lines = append(lines, l)
			}
			if configured != "" {
				lines = append([]string{"Jurisdiction: " + configured}, lines...)
			} else {
				lines = append(lines, "Code basis: the job names no jurisdiction and the plans name no state whose adopted codes the appliance knows: the configured model codes apply")
			}
		}
		lines = append(lines, "Local law: not evaluated (the job names no jurisdiction; no local-law snapshot applies)")
		res.CodeBasis = CodeBasis{RequiresAck: true, Lines: lines}
		return res
	}
	var scope []string
	if p.Stored != nil && p.Fresh {
		scope = p.Stored.CertifiedScope
	}
	delivered, held := []string{}, []string{}
	for _, t := range touched {
		switch {
		case IsDocumentTopic(t), coveredByAny(scope, t):
			delivered = append(delivered, t)
		default:
			held = append(held, t)
		}
	}
	limitations := append([]string{}, p.limitations...)
	if p.Stored != nil && p.Fresh {
		for _, t := range held {
			limitations = append(limitations, fmt.Sprintf("Topic %s is outside the certified scope of snapshot %s; its findings are held.", t, p.Stored.ID))
		}
	}
	for i, t := range findingTopics {
		res.Delivered[i] = IsDocumentTopic(t) || coveredByAny(scope, t)
	}
	jid := p.Case.JurisdictionID
	cov := &Coverage{
		SchemaVersion: SchemaCoverage, Status: StatusHeld, JurisdictionID: &jid,
		VestingBasis: p.vesting, FreshnessCheckedAt: p.now.Format(time.RFC3339),
		DeliveredTopics: delivered, HeldTopics: held, MissingLayers: orEmpty(p.missing), Limitations: limitations,
	}
	if s := p.Stored; s != nil {
		id, cert := s.ID, s.CertificateID
		cov.SelectedSnapshotID, cov.CertificateID = &id, &cert
		cov.CertifiedScope = &Scope{Topics: s.CertifiedScope, CertifiedAt: s.CertifiedAt.UTC().Format(time.RFC3339)}
		cov.FreshnessCheckedAt = s.FreshnessCheckedAt.UTC().Format(time.RFC3339)
		if p.Fresh && len(held) == 0 {
			cov.Status = StatusCertified
		}
	}
	res.Coverage = cov
	res.CodeBasis = CodeBasis{
		RequiresAck:      !(cov.Status == StatusCertified && len(cov.Limitations) == 0),
		Lines:            p.lines(engineLines),
		LocalLawCoverage: cov,
	}
	return res
}

// lines are the code-basis lines: one per layer applied, or the model
// codes and a line saying local law was not evaluated.
func (p *Plan) lines(engineLines []string) []string {
	if p.Snapshot == nil {
		lines := append([]string(nil), engineLines...)
		return append(lines, fmt.Sprintf("Local law of %s: not evaluated (no certified local-law snapshot in force on %s)",
			p.Case.JurisdictionID, p.Case.ApplicationDate))
	}
	table, _ := Adoptions()
	tail := fmt.Sprintf("snapshot %s, certificate %s", p.Stored.ID, p.Stored.CertificateID)
	var lines []string
	for _, l := range p.Snapshot.Layers {
		switch l.Kind {
		case LayerModel:
			name := modelNames[strings.ToUpper(l.Code)]
			if name == "" {
				name = l.Code
			}
			note := "model code"
			if slices.Contains(p.unreviewed, CodeRef{Code: l.Code, Edition: l.Edition}) {
				note = "model code, not reviewed (no rule pack)"
			}
			lines = append(lines, fmt.Sprintf("%s %s (%s), %s — %s", l.Edition, name, l.Code, note, tail))
		default:
			title := layerTitle(l)
			if l.Code != "" && !strings.Contains(title, l.Edition) {
				title = l.Edition + " " + title
			}
			if b := basedOn(l, table); b != nil {
				title += fmt.Sprintf(" (based on %s %s)", b.Code, b.Edition)
			}
			effective := p.Stored.EffectiveFrom
			if a, ok := table.Find(l.Code, l.Edition); ok && l.Code != "" {
				effective = a.Effective
			}
			if l.Kind == LayerLocal {
				title += fmt.Sprintf(" (local layer, %d amendment%s)", len(l.Amendments), plural(len(l.Amendments)))
			}
			lines = append(lines, fmt.Sprintf("%s, effective %s — %s", title, effective, tail))
		}
	}
	return lines
}

func orOpen(date string) string {
	if date == "" {
		return "open-ended"
	}
	return date
}

func orEmpty(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

func formatDays(d time.Duration) string {
	if d%(24*time.Hour) == 0 {
		return fmt.Sprintf("%d days", int(d/(24*time.Hour)))
	}
	return d.String()
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
