package rules

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"planreview/scan/model"
	"planreview/scan/sheets"
	"planreview/scan/units"
	"planreview/textmatch"
)

//go:embed packs
var embeddedPacks embed.FS

// Packs returns the rule packs built into the binary, one directory per pack
// (ibc-2021, irc-2021, completeness), for Load.
func Packs() fs.FS {
	sub, err := fs.Sub(embeddedPacks, "packs")
	if err != nil {
		// fs.Sub only fails on an invalid path, and "packs" is a constant.
		return embeddedPacks
	}
	return sub
}

// Pack kinds. Completeness packs check the plan set itself and always apply;
// code packs apply when the jurisdiction adopted their code and edition.
const (
	KindCode         = "code"
	KindCompleteness = "completeness"
)

// Occupancy applicability of a rule.
const (
	OccupancyAny         = "any"
	OccupancyResidential = model.OccupancyResidential // one- and two-family dwellings, townhouses: IRC
	OccupancyCommercial  = model.OccupancyCommercial  // everything the IBC governs
)

// Ref is one governing code reference.
type Ref struct {
	Code    string `json:"code"`
	Edition string `json:"edition"`
	Section string `json:"section"`
}

func (r Ref) String() string {
	return strings.Join(strings.Fields(r.Code+" "+r.Edition+" "+r.Section), " ")
}

// Rule is one loaded rule. One of Measure (a quantity of the document
// model judged against limits), Pattern (a word matcher with an optional
// numeric condition) or Check (a named Go check) is set.
type Rule struct {
	ID         string
	Title      string
	Topic      string
	Severity   string
	Confidence float64
	Refs       []Ref
	SheetTypes []string // empty: every sheet type
	Occupancy  string

	// Measure names the model quantity the rule judges (riser height,
	// guard height, …); Except lists the typed contexts it leaves alone (an
	// existing stair, the open side of a stair, a bathroom's ceiling) and
	// Only those it is limited to (a means of egress's ceiling, an egress
	// door). OneSuffices: the code asks for one such element (one egress
	// door per dwelling), so one compliant value answers the rule.
	Measure     model.QuantityKind
	Except      model.Tag
	ExceptNames []string
	Only        model.Tag
	OnlyNames   []string
	OneSuffices bool

	Pattern  *textmatch.Regexp
	Unless   *textmatch.Regexp // a line matching Unless is not evidence for this rule
	Quantity string            // of the "value" capture
	// Plausible bounds the values the matcher accepts as evidence: a
	// "TREAD 1 1/8"" is a thickness, not a depth, and "RISERS 9'-1"" a total
	// rise; values outside are ignored rather than reported.
	PlausibleMin, PlausibleMax *float64
	Min, Max                   *float64
	MinText                    string // the limits as the pack wrote them, for rationales
	MaxText                    string
	Present                    bool   // fires when nothing in scope matches
	Absent                     bool   // fires on every match ("NOT FOR CONSTRUCTION")
	Scope                      string // "set" or "sheet", for Present
	// DoubtfulUntil marks the band between the limit and this value where
	// an exception the sheets may not show could apply (a grade-floor escape
	// opening, a ramp that is not the egress ramp): findings in the band get
	// DoubtfulConfidence instead of the rule's confidence.
	DoubtfulUntil      *float64
	DoubtfulConfidence float64

	Check  string
	Params map[string]string

	Rationale string

	Pack string
	File string
	Line int

	// amendedBy names the local-law layer that set this copy's limits,
	// appended to rationales (ForJurisdiction).
	amendedBy string
}

// GoverningRefs joins the rule's references the way findings carry them.
func (r *Rule) GoverningRefs() string {
	parts := make([]string, len(r.Refs))
	for i, ref := range r.Refs {
		parts[i] = ref.String()
	}
	return strings.Join(parts, "; ")
}

func (r *Rule) appliesToType(sheetType string) bool {
	if len(r.SheetTypes) == 0 {
		return true
	}
	for _, t := range r.SheetTypes {
		if t == sheetType {
			return true
		}
	}
	return false
}

// pack is one loaded pack directory.
type pack struct {
	ID      string
	Kind    string
	Code    string
	Edition string
	Name    string
	Rules   []*Rule
}

// PackError is a validation failure in a rule pack file.
type PackError struct {
	File   string
	Line   int
	Reason string
}

func (e *PackError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Reason) }

// loader accumulates the errors of every file so that one start-up shows
// all of a pack author's mistakes at once.
type loader struct {
	errs []error
	file string
}

func (l *loader) fail(n *yaml.Node, format string, args ...any) {
	line := 0
	if n != nil {
		line = n.Line
	}
	l.errs = append(l.errs, &PackError{File: l.file, Line: line, Reason: fmt.Sprintf(format, args...)})
}

// Library is every validated pack of a pack set. Validate once at start-up
// with LoadLibrary, then build an Engine per jurisdiction's adopted codes.
type Library struct {
	packs []*pack
}

// Load reads and validates every pack in fsys (see LoadLibrary) and returns
// the engine for the adopted codes (see Library.Engine).
func Load(fsys fs.FS, adopted []string) (*Engine, error) {
	lib, err := LoadLibrary(fsys)
	if err != nil {
		return nil, err
	}
	return lib.Engine(adopted)
}

// LoadLibrary reads every pack in fsys (one directory per pack, *.yaml files
// in it) and validates all of them. An invalid pack or a duplicate rule id
// is an error naming file:line and the reason; all errors are reported at
// once, joined.
func LoadLibrary(fsys fs.FS) (*Library, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("rule packs: %w", err)
	}
	l := &loader{}
	var packs []*pack
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		p := l.loadPack(fsys, e.Name())
		if p != nil {
			packs = append(packs, p)
		}
	}
	// Rule ids are global: findings and fingerprints name them.
	seen := map[string]*Rule{}
	for _, p := range packs {
		for _, r := range p.Rules {
			if prev, dup := seen[r.ID]; dup {
				l.errs = append(l.errs, &PackError{File: r.File, Line: r.Line,
					Reason: fmt.Sprintf("duplicate rule id %q (first at %s:%d)", r.ID, prev.File, prev.Line)})
				continue
			}
			seen[r.ID] = r
		}
	}
	if len(l.errs) > 0 {
		return nil, errors.Join(l.errs...)
	}
	return &Library{packs: packs}, nil
}

// CodePacks lists the ids of the library's code packs ("ibc-2021", …), the
// values an adopted-codes setting may name.
func (lib *Library) CodePacks() []string {
	var ids []string
	for _, p := range lib.packs {
		if p.Kind == KindCode {
			ids = append(ids, p.ID)
		}
	}
	sort.Strings(ids)
	return ids
}

// Engine returns the engine for a jurisdiction: the completeness packs plus
// the code packs named in adopted (pack ids, case-insensitive). An adopted
// code without a pack is an error, so a typo cannot silently disable a code.
func (lib *Library) Engine(adopted []string) (*Engine, error) {
	byID := map[string]*pack{}
	for _, p := range lib.packs {
		byID[p.ID] = p
	}
	eng := &Engine{}
	chosen := map[string]bool{}
	for _, a := range adopted {
		id := strings.ToLower(strings.TrimSpace(a))
		p, ok := byID[id]
		if !ok || p.Kind != KindCode {
			return nil, fmt.Errorf("adopted code %q has no rule pack (available: %s)", a, strings.Join(lib.CodePacks(), ", "))
		}
		chosen[id] = true
	}
	for _, p := range lib.packs {
		if p.Kind == KindCompleteness || chosen[p.ID] {
			eng.packs = append(eng.packs, p)
			eng.rules = append(eng.rules, p.Rules...)
			if p.Kind == KindCode {
				eng.adopted = append(eng.adopted, adoptedCode{Code: p.Code, Edition: p.Edition, Name: p.Name, PackID: p.ID})
			}
		}
	}
	sort.SliceStable(eng.rules, func(i, j int) bool { return eng.rules[i].ID < eng.rules[j].ID })
	return eng, nil
}

func (l *loader) loadPack(fsys fs.FS, dir string) *pack {
	files, err := fs.Glob(fsys, path.Join(dir, "*.yaml"))
	if err != nil || len(files) == 0 {
		return nil
	}
	sort.Strings(files)
	p := &pack{ID: dir}
	headerSet := false
	for _, f := range files {
		l.file = f
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			l.errs = append(l.errs, &PackError{File: f, Line: 0, Reason: err.Error()})
			continue
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(data, &doc); err != nil {
			l.errs = append(l.errs, &PackError{File: f, Line: yamlErrorLine(err), Reason: err.Error()})
			continue
		}
		if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
			l.fail(&doc, "a pack file is a mapping with pack, kind and rules")
			continue
		}
		root := doc.Content[0]
		h := packHeader{}
		l.fields(root, map[string]func(*yaml.Node){
			"pack":    func(n *yaml.Node) { h.id = l.str(n) },
			"kind":    func(n *yaml.Node) { h.kind = l.str(n) },
			"code":    func(n *yaml.Node) { h.code = l.str(n) },
			"edition": func(n *yaml.Node) { h.edition = l.str(n) },
			"name":    func(n *yaml.Node) { h.name = l.str(n) },
			"rules":   func(n *yaml.Node) { h.rules = n },
		})
		if h.id != dir {
			l.fail(root, "pack %q does not match its directory %q", h.id, dir)
			continue
		}
		switch h.kind {
		case KindCode:
			if h.code == "" || h.edition == "" || h.name == "" {
				l.fail(root, "a code pack needs code, edition and name")
				continue
			}
		case KindCompleteness:
		default:
			l.fail(root, "kind %q: want %q or %q", h.kind, KindCode, KindCompleteness)
			continue
		}
		if !headerSet {
			p.Kind, p.Code, p.Edition, p.Name = h.kind, h.code, h.edition, h.name
			headerSet = true
		} else if p.Kind != h.kind || p.Code != h.code || p.Edition != h.edition || p.Name != h.name {
			l.fail(root, "pack header differs from the other files of pack %q", dir)
			continue
		}
		if h.rules == nil || h.rules.Kind != yaml.SequenceNode {
			l.fail(root, "rules: want a list of rules")
			continue
		}
		for _, rn := range h.rules.Content {
			if r := l.rule(rn, p); r != nil {
				p.Rules = append(p.Rules, r)
			}
		}
	}
	if !headerSet {
		return nil
	}
	return p
}

type packHeader struct {
	id, kind, code, edition, name string
	rules                         *yaml.Node
}

var yamlLineRe = textmatch.MustCompile(`line (\d+)`)

func yamlErrorLine(err error) int {
	if m := yamlLineRe.FindStringSubmatch(err.Error()); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

// fields walks a mapping, calling the handler of each known key and
// reporting unknown keys (a misspelt "condtion" must not silently disable a
// check).
func (l *loader) fields(m *yaml.Node, handlers map[string]func(*yaml.Node)) {
	if m.Kind != yaml.MappingNode {
		l.fail(m, "want a mapping")
		return
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		h, ok := handlers[k.Value]
		if !ok {
			known := make([]string, 0, len(handlers))
			for name := range handlers {
				known = append(known, name)
			}
			sort.Strings(known)
			l.fail(k, "unknown field %q (known: %s)", k.Value, strings.Join(known, ", "))
			continue
		}
		if seen[k.Value] {
			l.fail(k, "field %q given twice", k.Value)
			continue
		}
		seen[k.Value] = true
		h(v)
	}
}

func (l *loader) str(n *yaml.Node) string {
	if n.Kind != yaml.ScalarNode {
		l.fail(n, "want a single value")
		return ""
	}
	return n.Value
}

func (l *loader) strList(n *yaml.Node) []string {
	if n.Kind != yaml.SequenceNode {
		l.fail(n, "want a list")
		return nil
	}
	out := make([]string, 0, len(n.Content))
	for _, c := range n.Content {
		out = append(out, l.str(c))
	}
	return out
}

func (l *loader) boolean(n *yaml.Node) bool {
	v := l.str(n)
	b, err := strconv.ParseBool(v)
	if err != nil {
		l.fail(n, "want true or false, got %q", v)
	}
	return b
}

var ruleIDRe = textmatch.MustCompile(`^[a-z0-9][a-z0-9.\-]*[a-z0-9]$`)

// rule decodes and validates one rule mapping.
func (l *loader) rule(n *yaml.Node, p *pack) *Rule {
	errsBefore := len(l.errs)
	r := &Rule{Pack: p.ID, File: l.file, Line: n.Line, Occupancy: OccupancyAny, Scope: "set"}
	var (
		confNode, sevNode, patternNode, unlessNode, quantityNode, minNode, maxNode *yaml.Node
		rationaleNode, checkNode, refsNode, condNode, matchNode, idNode            *yaml.Node
		doubtfulNode, doubtfulConfNode, plausibleNode                              *yaml.Node
		measureNode, exceptNode, onlyNode                                          *yaml.Node
	)
	l.fields(n, map[string]func(*yaml.Node){
		"id":            func(v *yaml.Node) { idNode = v; r.ID = l.str(v) },
		"title":         func(v *yaml.Node) { r.Title = l.str(v) },
		"topic":         func(v *yaml.Node) { r.Topic = l.str(v) },
		"severity":      func(v *yaml.Node) { sevNode = v; r.Severity = l.str(v) },
		"confidence":    func(v *yaml.Node) { confNode = v },
		"governingRefs": func(v *yaml.Node) { refsNode = v },
		"rationale":     func(v *yaml.Node) { rationaleNode = v; r.Rationale = l.str(v) },
		"check":         func(v *yaml.Node) { checkNode = v; r.Check = l.str(v) },
		"measure":       func(v *yaml.Node) { measureNode = v; r.Measure = model.QuantityKind(l.str(v)) },
		"except":        func(v *yaml.Node) { exceptNode = v },
		"only":          func(v *yaml.Node) { onlyNode = v },
		"params": func(v *yaml.Node) {
			r.Params = map[string]string{}
			if v.Kind != yaml.MappingNode {
				l.fail(v, "params: want a mapping")
				return
			}
			for i := 0; i+1 < len(v.Content); i += 2 {
				r.Params[v.Content[i].Value] = l.str(v.Content[i+1])
			}
		},
		"appliesTo": func(v *yaml.Node) {
			l.fields(v, map[string]func(*yaml.Node){
				"sheetTypes": func(s *yaml.Node) {
					r.SheetTypes = l.strList(s)
					valid := map[string]bool{}
					for _, t := range sheets.Types() {
						valid[t] = true
					}
					for i, t := range r.SheetTypes {
						if !valid[t] {
							l.fail(s.Content[i], "unknown sheet type %q", t)
						}
					}
				},
				"occupancy": func(s *yaml.Node) {
					r.Occupancy = l.str(s)
					switch r.Occupancy {
					case OccupancyAny, OccupancyResidential, OccupancyCommercial:
					default:
						l.fail(s, "occupancy %q: want any, residential or commercial", r.Occupancy)
					}
				},
			})
		},
		"match": func(v *yaml.Node) {
			matchNode = v
			l.fields(v, map[string]func(*yaml.Node){
				"pattern":   func(s *yaml.Node) { patternNode = s },
				"unless":    func(s *yaml.Node) { unlessNode = s },
				"quantity":  func(s *yaml.Node) { quantityNode = s },
				"plausible": func(s *yaml.Node) { plausibleNode = s },
			})
		},
		"condition": func(v *yaml.Node) {
			condNode = v
			l.fields(v, map[string]func(*yaml.Node){
				"min":                func(s *yaml.Node) { minNode = s; r.MinText = l.str(s) },
				"max":                func(s *yaml.Node) { maxNode = s; r.MaxText = l.str(s) },
				"present":            func(s *yaml.Node) { r.Present = l.boolean(s) },
				"doubtfulUntil":      func(s *yaml.Node) { doubtfulNode = s },
				"doubtfulConfidence": func(s *yaml.Node) { doubtfulConfNode = s },
				"absent":             func(s *yaml.Node) { r.Absent = l.boolean(s) },
				"oneSuffices":        func(s *yaml.Node) { r.OneSuffices = l.boolean(s) },
				"scope": func(s *yaml.Node) {
					r.Scope = l.str(s)
					if r.Scope != "set" && r.Scope != "sheet" {
						l.fail(s, "scope %q: want set or sheet", r.Scope)
					}
				},
			})
		},
	})

	if r.ID == "" {
		l.fail(n, "rule without id")
	} else if !ruleIDRe.MatchString(r.ID) {
		l.fail(idNode, "rule id %q: use lower-case letters, digits, dots and hyphens", r.ID)
	}
	if r.Title == "" {
		l.fail(n, "rule %s: title is required", r.ID)
	}
	if r.Topic == "" {
		l.fail(n, "rule %s: topic is required", r.ID)
	}
	if _, ok := severityRank[r.Severity]; !ok {
		l.fail(orNode(sevNode, n), "rule %s: severity %q: want critical, high, medium, low or info", r.ID, r.Severity)
	}
	if confNode == nil {
		l.fail(n, "rule %s: confidence is required", r.ID)
	} else if c, err := strconv.ParseFloat(confNode.Value, 64); err != nil || c < 0 || c > 1 {
		l.fail(confNode, "rule %s: confidence %q: want a number in [0, 1]", r.ID, confNode.Value)
	} else {
		r.Confidence = c
	}
	l.refs(refsNode, n, r, p)
	if rationaleNode == nil || strings.TrimSpace(r.Rationale) == "" {
		l.fail(n, "rule %s: rationale template is required", r.ID)
	}

	var vars map[string]bool
	given := 0
	for _, n := range []*yaml.Node{checkNode, matchNode, measureNode} {
		if n != nil {
			given++
		}
	}
	if measureNode == nil && (exceptNode != nil || onlyNode != nil) {
		l.fail(orNode(exceptNode, onlyNode), "rule %s: except and only qualify a measure", r.ID)
	}
	if r.OneSuffices && measureNode == nil {
		l.fail(condNode, "rule %s: oneSuffices qualifies a measure", r.ID)
	}
	switch {
	case given > 1:
		l.fail(n, "rule %s: give one of measure, match or check", r.ID)
	case checkNode != nil:
		spec, ok := checks[r.Check]
		if !ok {
			l.fail(checkNode, "rule %s: unknown check %q (known: %s)", r.ID, r.Check, strings.Join(checkNames(), ", "))
			break
		}
		if condNode != nil {
			l.fail(condNode, "rule %s: a check rule takes params, not condition", r.ID)
		}
		for _, need := range spec.params {
			if _, ok := r.Params[need]; !ok {
				l.fail(n, "rule %s: check %s needs param %q", r.ID, r.Check, need)
			}
		}
		keys := make([]string, 0, len(r.Params))
		for k := range r.Params {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if !slices.Contains(spec.params, k) {
				l.fail(n, "rule %s: check %s takes no param %q", r.ID, r.Check, k)
				continue
			}
			if spec.validate != nil {
				if err := spec.validate(k, r.Params[k]); err != nil {
					l.fail(n, "rule %s: param %s: %v", r.ID, k, err)
				}
			}
		}
		vars = setOf(append([]string{"refs", "sheet"}, spec.vars...))
	case measureNode != nil:
		vars = l.measure(r, measureNode, exceptNode, onlyNode, minNode, maxNode, condNode, n)
		l.doubtful(r, doubtfulNode, doubtfulConfNode)
	case matchNode != nil:
		vars = l.matcher(r, patternNode, unlessNode, quantityNode, minNode, maxNode, matchNode)
		l.doubtful(r, doubtfulNode, doubtfulConfNode)
		l.plausible(r, plausibleNode)
	default:
		l.fail(n, "rule %s: needs a measure, a match or a check", r.ID)
	}
	if vars != nil && rationaleNode != nil {
		for _, m := range templateVarRe.FindAllStringSubmatch(r.Rationale, -1) {
			if !vars[m[1]] {
				l.fail(rationaleNode, "rule %s: rationale uses {%s}, which this rule does not provide (available: %s)",
					r.ID, m[1], strings.Join(sortedKeys(vars), ", "))
			}
		}
	}
	if len(l.errs) > errsBefore {
		return nil
	}
	return r
}

func (l *loader) refs(refsNode, ruleNode *yaml.Node, r *Rule, p *pack) {
	if refsNode == nil || refsNode.Kind != yaml.SequenceNode || len(refsNode.Content) == 0 {
		l.fail(orNode(refsNode, ruleNode), "rule %s: governingRefs needs at least one {code, edition, section}", r.ID)
		return
	}
	for _, rn := range refsNode.Content {
		var ref Ref
		l.fields(rn, map[string]func(*yaml.Node){
			"code":    func(v *yaml.Node) { ref.Code = l.str(v) },
			"edition": func(v *yaml.Node) { ref.Edition = l.str(v) },
			"section": func(v *yaml.Node) { ref.Section = l.str(v) },
		})
		if ref.Code == "" || ref.Section == "" {
			l.fail(rn, "rule %s: a governing ref needs code and section", r.ID)
			continue
		}
		// A code pack's rules cite its own edition; citing another edition
		// from the 2021 pack would misstate the code basis.
		if p.Kind == KindCode && ref.Code == p.Code && ref.Edition != p.Edition {
			l.fail(rn, "rule %s: cites %s %s from the %s %s pack", r.ID, ref.Code, ref.Edition, p.Code, p.Edition)
		}
		r.Refs = append(r.Refs, ref)
	}
}

// plausible reads match.plausible: [low, high] in the rule's quantity.
func (l *loader) plausible(r *Rule, n *yaml.Node) {
	if n == nil {
		return
	}
	if n.Kind != yaml.SequenceNode || len(n.Content) != 2 || r.Quantity == "" {
		l.fail(n, "rule %s: plausible wants [low, high] in the rule's quantity", r.ID)
		return
	}
	lo, err1 := units.ParseQuantity(r.Quantity, n.Content[0].Value)
	hi, err2 := units.ParseQuantity(r.Quantity, n.Content[1].Value)
	if err1 != nil || err2 != nil || lo > hi {
		l.fail(n, "rule %s: plausible [%s, %s] is not a %s range", r.ID, n.Content[0].Value, n.Content[1].Value, r.Quantity)
		return
	}
	r.PlausibleMin, r.PlausibleMax = &lo, &hi
}

// doubtful validates the optional doubtful band of a min/max rule.
func (l *loader) doubtful(r *Rule, until, conf *yaml.Node) {
	r.DoubtfulConfidence = 0.6
	if conf != nil {
		c, err := strconv.ParseFloat(conf.Value, 64)
		if err != nil || c < 0 || c > 1 {
			l.fail(conf, "rule %s: doubtfulConfidence %q: want a number in [0, 1]", r.ID, conf.Value)
		}
		r.DoubtfulConfidence = c
	}
	if until == nil {
		if conf != nil {
			l.fail(conf, "rule %s: doubtfulConfidence without doubtfulUntil", r.ID)
		}
		return
	}
	if r.Quantity == "" || (r.Min == nil) == (r.Max == nil) {
		l.fail(until, "rule %s: doubtfulUntil needs exactly one of min or max", r.ID)
		return
	}
	v, err := units.ParseQuantity(r.Quantity, until.Value)
	if err != nil {
		l.fail(until, "rule %s: doubtfulUntil %q is not a %s", r.ID, until.Value, r.Quantity)
		return
	}
	if (r.Max != nil && v < *r.Max) || (r.Min != nil && v > *r.Min) {
		l.fail(until, "rule %s: doubtfulUntil %q lies inside the compliant range", r.ID, until.Value)
		return
	}
	r.DoubtfulUntil = &v
}

var templateVarRe = textmatch.MustCompile(`\{([a-zA-Z]+)\}`)

// matcher compiles a word-matcher rule: placeholders expand to unit
// sub-patterns with a "value" capture, limits are parsed with the same unit
// parser the plans are read with.
func (l *loader) matcher(r *Rule, patternNode, unlessNode, quantityNode, minNode, maxNode, matchNode *yaml.Node) map[string]bool {
	if patternNode == nil {
		l.fail(matchNode, "rule %s: match needs a pattern", r.ID)
		return nil
	}
	src := l.str(patternNode)
	expanded, quantity, err := expandPattern(src)
	if err != nil {
		l.fail(patternNode, "rule %s: %v", r.ID, err)
		return nil
	}
	re, err := lineSet.Compile(`(?i)` + expanded)
	if err != nil {
		l.fail(patternNode, "rule %s: pattern does not compile: %v", r.ID, err)
		return nil
	}
	r.Pattern = re
	if unlessNode != nil {
		u, err := lineSet.Compile(`(?i)` + l.str(unlessNode))
		if err != nil {
			l.fail(unlessNode, "rule %s: unless does not compile: %v", r.ID, err)
		}
		r.Unless = u
	}
	if quantityNode != nil {
		q := l.str(quantityNode)
		if quantity != "" && q != quantity {
			l.fail(quantityNode, "rule %s: quantity %q but the pattern captures a %s", r.ID, q, quantity)
		}
		quantity = q
	}
	r.Quantity = quantity
	if quantity == "" && slices.Contains(re.SubexpNames(), "value") {
		l.fail(patternNode, "rule %s: a hand-written (?P<value>…) group needs match.quantity", r.ID)
	}
	hasLimit := minNode != nil || maxNode != nil
	switch {
	case hasLimit && (r.Present || r.Absent):
		l.fail(orNode(minNode, maxNode), "rule %s: min/max cannot be combined with present/absent", r.ID)
	case r.Present && r.Absent:
		l.fail(matchNode, "rule %s: present and absent exclude each other", r.ID)
	case !hasLimit && !r.Present && !r.Absent:
		l.fail(matchNode, "rule %s: a match rule needs a condition (min, max, present or absent)", r.ID)
	}
	if hasLimit {
		if r.Quantity == "" {
			l.fail(patternNode, "rule %s: min/max need a {length}, {slope}, {area}, {count} or {number} placeholder", r.ID)
			return nil
		}
		r.Min, r.Max = l.limit(r, minNode), l.limit(r, maxNode)
		if r.Min != nil && r.Max != nil && *r.Min > *r.Max {
			l.fail(minNode, "rule %s: min %s is above max %s", r.ID, r.MinText, r.MaxText)
		}
	}
	vars := setOf([]string{"refs", "sheet", "text"})
	if r.Quantity != "" {
		for _, v := range []string{"value", "measured"} {
			vars[v] = true
		}
	}
	// Keyed on the nodes, not the parsed limits, so that an unparseable
	// limit is reported once rather than again as a missing variable.
	if minNode != nil {
		vars["min"], vars["limit"] = true, true
	}
	if maxNode != nil {
		vars["max"], vars["limit"] = true, true
	}
	return vars
}

// measure validates a measured rule: a quantity the model reads, typed
// contexts it knows, and a min or max in the quantity's unit.
func (l *loader) measure(r *Rule, measureNode, exceptNode, onlyNode, minNode, maxNode, condNode, ruleNode *yaml.Node) map[string]bool {
	if !r.Measure.Known() {
		var names []string
		for _, k := range model.QuantityKinds() {
			names = append(names, fmt.Sprintf("%s (%s)", k, k.Describe()))
		}
		l.fail(measureNode, "rule %s: measure %q: the model reads %s", r.ID, r.Measure, strings.Join(names, ", "))
		return nil
	}
	r.Quantity = r.Measure.Unit()
	tags := func(n *yaml.Node) (model.Tag, []string) {
		if n == nil {
			return 0, nil
		}
		var t model.Tag
		names := l.strList(n)
		for i, name := range names {
			tag, ok := model.ParseTag(name)
			if !ok {
				l.fail(n.Content[i], "rule %s: unknown context %q (known: %s)", r.ID, name, strings.Join(model.TagNames(), ", "))
				continue
			}
			t |= tag
		}
		return t, names
	}
	r.Except, r.ExceptNames = tags(exceptNode)
	r.Only, r.OnlyNames = tags(onlyNode)
	if r.Except&r.Only != 0 {
		l.fail(exceptNode, "rule %s: a context is both excepted and required", r.ID)
	}
	if minNode == nil && maxNode == nil {
		l.fail(orNode(condNode, ruleNode), "rule %s: a measure needs a condition with min or max", r.ID)
		return nil
	}
	if r.Present || r.Absent {
		l.fail(condNode, "rule %s: present/absent are for match rules", r.ID)
	}
	r.Min, r.Max = l.limit(r, minNode), l.limit(r, maxNode)
	if r.Min != nil && r.Max != nil && *r.Min > *r.Max {
		l.fail(minNode, "rule %s: min %s is above max %s", r.ID, r.MinText, r.MaxText)
	}
	vars := setOf([]string{"refs", "sheet", "text", "value", "measured"})
	if minNode != nil {
		vars["min"], vars["limit"] = true, true
	}
	if maxNode != nil {
		vars["max"], vars["limit"] = true, true
	}
	return vars
}

// limit parses a min or max in the rule's quantity.
func (l *loader) limit(r *Rule, n *yaml.Node) *float64 {
	if n == nil {
		return nil
	}
	v, err := units.ParseQuantity(r.Quantity, n.Value)
	if err != nil {
		l.fail(n, "rule %s: limit %q is not a %s: %v", r.ID, n.Value, r.Quantity, err)
		return nil
	}
	return &v
}

// placeholders maps the macros a rule pattern may use to their sub-pattern
// and quantity kind.
var placeholders = map[string]struct{ pattern, quantity string }{
	"{length}": {units.LengthPattern, units.Length},
	"{slope}":  {units.SlopePattern, units.Slope},
	"{area}":   {units.AreaPattern, units.Area},
	"{count}":  {units.CountPattern, units.Count},
	"{number}": {units.NumberPattern, units.Number},
}

// expandPattern replaces each placeholder with a "value" capture of its
// unit sub-pattern. Alternatives may each carry a placeholder (the engine
// reads the first one that matched) but all must be of one quantity kind.
func expandPattern(src string) (string, string, error) {
	out := src
	quantity := ""
	for {
		first, firstAt := "", -1
		for name := range placeholders {
			if i := strings.Index(out, name); i >= 0 && (firstAt < 0 || i < firstAt) {
				first, firstAt = name, i
			}
		}
		if firstAt < 0 {
			break
		}
		ph := placeholders[first]
		if quantity != "" && ph.quantity != quantity {
			return "", "", fmt.Errorf("pattern mixes %s and %s placeholders", quantity, ph.quantity)
		}
		quantity = ph.quantity
		out = out[:firstAt] + `(?P<value>` + ph.pattern + `)` + out[firstAt+len(first):]
	}
	return out, quantity, nil
}

func orNode(a, b *yaml.Node) *yaml.Node {
	if a != nil {
		return a
	}
	return b
}

func setOf(xs []string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
