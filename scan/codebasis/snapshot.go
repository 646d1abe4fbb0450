package codebasis

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"planreview/scan/codebasis/adoption"
	"planreview/scan/rules"
	"planreview/textmatch"
)

// SchemaSnapshot is the schemaVersion of a snapshot file.
const SchemaSnapshot = "local-law-snapshot-v1"

// Layer kinds, lowest first.
const (
	LayerModel = "model"
	LayerState = "state"
	LayerLocal = "local"
)

// Amendment actions.
const (
	ActionReplace = "replace"
	ActionAdd     = "add"
	ActionDelete  = "delete"
	ActionValue   = "value"
)

// Snapshot is the law in force for one jurisdiction over a date range: a
// local-law-snapshot-v1 file as validated. Its JSON encoding (field order as
// declared, map keys sorted, topics sorted) is the canonical content that
// is hashed and stored.
type Snapshot struct {
	SchemaVersion  string   `json:"schemaVersion"`
	JurisdictionID string   `json:"jurisdictionId"`
	Name           string   `json:"name"`
	EffectiveFrom  string   `json:"effectiveFrom"`
	EffectiveUntil *string  `json:"effectiveUntil"`
	Topics         []string `json:"topics"`
	Layers         []Layer  `json:"layers"`
	Sources        []Source `json:"sources"`
}

// Layer is one layer of law, lowest (model code) first.
type Layer struct {
	Kind       string      `json:"kind"`
	Name       string      `json:"name,omitempty"`
	Code       string      `json:"code,omitempty"`
	Edition    string      `json:"edition,omitempty"`
	BasedOn    *CodeRef    `json:"basedOn,omitempty"`
	Amendments []Amendment `json:"amendments,omitempty"`
}

// CodeRef names a code and edition.
type CodeRef = adoption.CodeRef

// Amendment changes one section of the layer below.
type Amendment struct {
	Section string            `json:"section"`
	Topic   string            `json:"topic"`
	Action  string            `json:"action"`
	Text    string            `json:"text,omitempty"`
	Values  map[string]string `json:"values,omitempty"`
}

// Source is where the snapshot's content was read.
type Source struct {
	Title       string `json:"title"`
	URL         string `json:"url"`
	RetrievedAt string `json:"retrievedAt"`
}

// Canonical is the snapshot's canonical content: compact JSON as
// encoding/json writes it, which is what is hashed and stored.
func (s *Snapshot) Canonical() []byte {
	raw, err := json.Marshal(s)
	if err != nil {
		panic(err) // strings, slices and maps of strings always encode
	}
	return raw
}

// Decode reads stored canonical content back.
func Decode(content []byte) (*Snapshot, error) {
	var s Snapshot
	if err := json.Unmarshal(content, &s); err != nil {
		return nil, fmt.Errorf("stored snapshot content: %w", err)
	}
	return &s, nil
}

// ParseError is one problem in a snapshot file, at a line.
type ParseError struct {
	File   string
	Line   int
	Reason string
}

func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Reason) }

var (
	ocdIDRe   = textmatch.MustCompile(`^ocd-division/country:[a-z]{2}(?:/[a-z_]+:[a-z0-9_.~\-]+)*$`)
	topicRe   = textmatch.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)*$`)
	sectionRe = textmatch.MustCompile(`^[A-Za-z0-9][A-Za-z0-9.\-()]*$`)
)

// MaxJurisdictionIDLen is the contract's limit on a jurisdictionId.
const MaxJurisdictionIDLen = 200

// ValidJurisdictionID reports whether id is an Open Civic Data division id
// (ocd-division/country:us/state:ca/county:marin) of at most 200 characters.
func ValidJurisdictionID(id string) bool {
	return len(id) <= MaxJurisdictionIDLen && ocdIDRe.MatchString(id)
}

// ValidTopic reports whether t is a topic name: lower-case words joined by
// hyphens, segments joined by dots (life-safety.stairs).
func ValidTopic(t string) bool { return len(t) <= 100 && topicRe.MatchString(t) }

// Covers reports whether scope topic covers topic t: the same topic or a
// parent of it ("life-safety" covers "life-safety.stairs").
func Covers(scope, t string) bool {
	return t == scope || strings.HasPrefix(t, scope+".")
}

func coveredByAny(scope []string, t string) bool {
	for _, s := range scope {
		if Covers(s, t) {
			return true
		}
	}
	return false
}

// parser validates one file, collecting every problem with its line.
type parser struct {
	file  string
	errs  []error
	rules []*rules.Rule
}

func (p *parser) fail(n *yaml.Node, format string, args ...any) {
	line := 0
	if n != nil {
		line = n.Line
	}
	p.errs = append(p.errs, &ParseError{File: p.file, Line: line, Reason: fmt.Sprintf(format, args...)})
}

// Parse reads and validates a snapshot file (YAML or JSON; JSON is read as
// YAML, which keeps line numbers). Every problem is reported at once, each
// as file:line: reason. Value amendments are checked against the rule
// library: each key must name a parameter of a rule that cites the amended
// section, with a value in that rule's quantity.
func Parse(file string, data []byte, lib *rules.Library) (*Snapshot, error) {
	p := &parser{file: file}
	if lib != nil {
		p.rules = lib.Rules()
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		line, reason := yamlError(err)
		return nil, &ParseError{File: file, Line: line, Reason: reason}
	}
	if len(doc.Content) == 0 {
		return nil, &ParseError{File: file, Line: 1, Reason: "empty file: want a local-law-snapshot-v1 mapping"}
	}
	root := doc.Content[0]
	s := &Snapshot{}
	var topicsNode, layersNode, untilNode *yaml.Node
	p.fields(root, "snapshot", map[string]field{
		"schemaVersion": {true, func(n *yaml.Node) {
			s.SchemaVersion = p.str(n)
			if s.SchemaVersion != "" && s.SchemaVersion != SchemaSnapshot {
				p.fail(n, "schemaVersion %q: want %s", s.SchemaVersion, SchemaSnapshot)
			}
		}},
		"jurisdictionId": {true, func(n *yaml.Node) {
			s.JurisdictionID = p.str(n)
			if !ValidJurisdictionID(s.JurisdictionID) {
				p.fail(n, "jurisdictionId %q: want an Open Civic Data division id like ocd-division/country:us/state:ca/county:marin (at most 200 characters)", s.JurisdictionID)
			}
		}},
		"name":          {true, func(n *yaml.Node) { s.Name = p.text(n, "name", 200) }},
		"effectiveFrom": {true, func(n *yaml.Node) { s.EffectiveFrom = p.date(n, "effectiveFrom") }},
		"effectiveUntil": {true, func(n *yaml.Node) {
			untilNode = n
			if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
				return
			}
			d := p.date(n, "effectiveUntil")
			s.EffectiveUntil = &d
		}},
		"topics": {true, func(n *yaml.Node) { topicsNode = n; s.Topics = p.topics(n) }},
		"layers": {true, func(n *yaml.Node) { layersNode = n }},
		"sources": {true, func(n *yaml.Node) {
			if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
				p.fail(n, "sources: want a list of {title, url, retrievedAt}, at least one")
				return
			}
			for _, sn := range n.Content {
				s.Sources = append(s.Sources, p.source(sn))
			}
		}},
	})
	if s.EffectiveUntil != nil && s.EffectiveFrom != "" && *s.EffectiveUntil != "" && *s.EffectiveUntil < s.EffectiveFrom {
		p.fail(untilNode, "effectiveUntil %s is before effectiveFrom %s", *s.EffectiveUntil, s.EffectiveFrom)
	}
	if layersNode != nil {
		s.Layers = p.layers(layersNode, s, topicsNode)
	}
	if len(p.errs) > 0 {
		return nil, errors.Join(p.errs...)
	}
	sort.Strings(s.Topics)
	return s, nil
}

// field is a key's handler and whether the key is required.
type field struct {
	required bool
	handle   func(*yaml.Node)
}

// fields walks a mapping: unknown and repeated keys are errors, missing
// required keys too.
func (p *parser) fields(m *yaml.Node, what string, handlers map[string]field) {
	if m.Kind != yaml.MappingNode {
		p.fail(m, "%s: want a mapping", what)
		return
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		h, ok := handlers[k.Value]
		if !ok {
			p.fail(k, "%s: unknown key %q (known: %s)", what, k.Value, strings.Join(sortedFieldNames(handlers), ", "))
			continue
		}
		if seen[k.Value] {
			p.fail(k, "%s: key %q given twice", what, k.Value)
			continue
		}
		seen[k.Value] = true
		h.handle(v)
	}
	for _, name := range sortedFieldNames(handlers) {
		if handlers[name].required && !seen[name] {
			p.fail(m, "%s: missing required key %q", what, name)
		}
	}
}

func sortedFieldNames(m map[string]field) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (p *parser) str(n *yaml.Node) string {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		p.fail(n, "want a single value")
		return ""
	}
	return n.Value
}

// text is a non-blank single-line string of at most max characters.
func (p *parser) text(n *yaml.Node, what string, max int) string {
	v := p.str(n)
	switch {
	case n.Kind != yaml.ScalarNode:
	case strings.TrimSpace(v) == "":
		p.fail(n, "%s must not be blank", what)
	case len([]rune(v)) > max:
		p.fail(n, "%s is over %d characters", what, max)
	}
	return v
}

func (p *parser) date(n *yaml.Node, what string) string {
	v := p.str(n)
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return v
	}
	if _, err := time.Parse(time.DateOnly, v); err != nil {
		p.fail(n, "%s %q is not a date as YYYY-MM-DD", what, v)
	}
	return v
}

func (p *parser) topics(n *yaml.Node) []string {
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		p.fail(n, "topics: want a list of topics, at least one")
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, c := range n.Content {
		t := p.str(c)
		switch {
		case c.Kind != yaml.ScalarNode:
		case !ValidTopic(t):
			p.fail(c, "topic %q: use lower-case words and hyphens, segments joined by dots (life-safety.stairs)", t)
		case seen[t]:
			p.fail(c, "topic %q listed twice", t)
		default:
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

func (p *parser) source(n *yaml.Node) Source {
	var src Source
	p.fields(n, "source", map[string]field{
		"title": {true, func(v *yaml.Node) { src.Title = p.text(v, "source title", 500) }},
		"url": {true, func(v *yaml.Node) {
			src.URL = p.str(v)
			u, err := url.Parse(src.URL)
			if v.Kind == yaml.ScalarNode && (err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "") {
				p.fail(v, "source url %q is not an http(s) URL", src.URL)
			}
		}},
		"retrievedAt": {true, func(v *yaml.Node) { src.RetrievedAt = p.date(v, "retrievedAt") }},
	})
	return src
}

func (p *parser) layers(n *yaml.Node, s *Snapshot, topicsNode *yaml.Node) []Layer {
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		p.fail(n, "layers: want a list of layers, lowest (model) first")
		return nil
	}
	rank := map[string]int{LayerModel: 0, LayerState: 1, LayerLocal: 2}
	var out []Layer
	var models []CodeRef
	last := -1
	for i, ln := range n.Content {
		var l Layer
		var amendmentsNode, kindNode *yaml.Node
		p.fields(ln, fmt.Sprintf("layer %d", i+1), map[string]field{
			"kind":    {true, func(v *yaml.Node) { kindNode = v; l.Kind = p.str(v) }},
			"name":    {false, func(v *yaml.Node) { l.Name = p.text(v, "layer name", 200) }},
			"code":    {false, func(v *yaml.Node) { l.Code = p.str(v) }},
			"edition": {false, func(v *yaml.Node) { l.Edition = p.str(v) }},
			"basedOn": {false, func(v *yaml.Node) {
				var ref CodeRef
				p.fields(v, "basedOn", map[string]field{
					"code":    {true, func(c *yaml.Node) { ref.Code = p.str(c) }},
					"edition": {true, func(c *yaml.Node) { ref.Edition = p.str(c) }},
				})
				l.BasedOn = &ref
			}},
			"amendments": {false, func(v *yaml.Node) { amendmentsNode = v }},
		})
		if ln.Kind != yaml.MappingNode {
			continue
		}
		r, ok := rank[l.Kind]
		switch {
		case kindNode == nil:
		case !ok:
			p.fail(kindNode, "layer %d: kind %q: want model, state or local", i+1, l.Kind)
		case r < last:
			p.fail(kindNode, "layer %d: a %s layer after a higher one; list layers lowest first (model, state, local)", i+1, l.Kind)
		}
		if ok && r > last {
			last = r
		}
		if (l.Code == "") != (l.Edition == "") {
			p.fail(ln, "layer %d: give code and edition together", i+1)
		}
		switch l.Kind {
		case LayerModel:
			if l.Code == "" {
				p.fail(ln, "layer %d: a model layer needs code and edition (IRC, \"2021\")", i+1)
			}
			if l.BasedOn != nil || amendmentsNode != nil {
				p.fail(ln, "layer %d: a model layer has no basedOn or amendments; amend it in a state or local layer", i+1)
			}
			models = append(models, CodeRef{Code: l.Code, Edition: l.Edition})
		case LayerState, LayerLocal:
			if l.Name == "" {
				p.fail(ln, "layer %d: a %s layer needs a name", i+1, l.Kind)
			}
			if l.BasedOn != nil && l.Code == "" {
				p.fail(ln, "layer %d: basedOn needs the layer's own code and edition", i+1)
			}
			p.checkAdoption(ln, i+1, &l)
		}
		if i == 0 && l.Kind != "" && l.Kind != LayerModel {
			p.fail(ln, "layer 1: the lowest layer must be the model code (kind: model)")
		}
		if amendmentsNode != nil {
			l.Amendments = p.amendments(amendmentsNode, i+1, s, models, topicsNode)
		}
		out = append(out, l)
	}
	return out
}

// checkAdoption compares a layer's basedOn with the adoption table, so a
// snapshot cannot cite "CRC 2022 (IRC 2018)".
func (p *parser) checkAdoption(n *yaml.Node, index int, l *Layer) {
	table, err := Adoptions()
	if err != nil || l.Code == "" || l.BasedOn == nil {
		return
	}
	if a, ok := table.Find(l.Code, l.Edition); ok && (!strings.EqualFold(a.BasedOn.Code, l.BasedOn.Code) || a.BasedOn.Edition != l.BasedOn.Edition) {
		p.fail(n, "layer %d: %s %s is based on %s %s (adoption table), not %s %s",
			index, l.Code, l.Edition, a.BasedOn.Code, a.BasedOn.Edition, l.BasedOn.Code, l.BasedOn.Edition)
	}
}

func (p *parser) amendments(n *yaml.Node, layer int, s *Snapshot, models []CodeRef, topicsNode *yaml.Node) []Amendment {
	if n.Kind != yaml.SequenceNode {
		p.fail(n, "layer %d: amendments: want a list", layer)
		return nil
	}
	out := make([]Amendment, 0, len(n.Content))
	for j, an := range n.Content {
		what := fmt.Sprintf("layer %d amendment %d", layer, j+1)
		var a Amendment
		var valuesNode, actionNode, topicNode, sectionNode *yaml.Node
		p.fields(an, what, map[string]field{
			"section": {true, func(v *yaml.Node) { sectionNode = v; a.Section = p.str(v) }},
			"topic":   {true, func(v *yaml.Node) { topicNode = v; a.Topic = p.str(v) }},
			"action":  {true, func(v *yaml.Node) { actionNode = v; a.Action = p.str(v) }},
			"text":    {false, func(v *yaml.Node) { a.Text = p.str(v) }},
			"values":  {false, func(v *yaml.Node) { valuesNode = v }},
		})
		if an.Kind != yaml.MappingNode {
			continue
		}
		if sectionNode != nil && a.Section != "" && !sectionRe.MatchString(a.Section) {
			p.fail(sectionNode, "%s: section %q: write it as the code numbers it (R311.7.5.1, 1011.5.2)", what, a.Section)
		}
		if topicNode != nil && a.Topic != "" {
			if !ValidTopic(a.Topic) {
				p.fail(topicNode, "%s: topic %q is not a topic name", what, a.Topic)
			} else if len(s.Topics) > 0 && !coveredByAny(s.Topics, a.Topic) {
				p.fail(topicNode, "%s: topic %q is not among the snapshot's topics (line %d)", what, a.Topic, lineOf(topicsNode))
			}
		}
		if valuesNode != nil {
			a.Values = p.values(valuesNode, what)
		}
		switch a.Action {
		case ActionReplace, ActionAdd:
			if strings.TrimSpace(a.Text) == "" {
				p.fail(an, "%s: action %s needs the new text", what, a.Action)
			}
		case ActionDelete:
			if len(a.Values) > 0 {
				p.fail(valuesNode, "%s: a deleted section has no values", what)
			}
		case ActionValue:
			if len(a.Values) == 0 {
				p.fail(an, "%s: action value needs values: {parameter: value}", what)
			}
		case "":
		default:
			p.fail(actionNode, "%s: action %q: want replace, add, delete or value", what, a.Action)
		}
		if a.Action == ActionAdd && len(a.Values) > 0 {
			p.fail(valuesNode, "%s: an added section has no rule limit to change; values go with action value or replace", what)
		}
		if len(a.Values) > 0 && a.Section != "" {
			p.checkValues(valuesNode, what, a, models)
		}
		out = append(out, a)
	}
	return out
}

func (p *parser) values(n *yaml.Node, what string) map[string]string {
	if n.Kind != yaml.MappingNode || len(n.Content) == 0 {
		p.fail(n, "%s: values: want a mapping of parameter names to limits (max: 7 1/2\")", what)
		return nil
	}
	out := map[string]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if _, dup := out[k.Value]; dup {
			p.fail(k, "%s: value %q given twice", what, k.Value)
			continue
		}
		out[k.Value] = p.str(v)
	}
	return out
}

// checkValues resolves each values key to rules and checks the value
// parses as their quantity.
func (p *parser) checkValues(n *yaml.Node, what string, a Amendment, models []CodeRef) {
	if p.rules == nil {
		return
	}
	byKey := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		byKey[n.Content[i].Value] = n.Content[i+1]
	}
	for _, key := range sortedKeys(a.Values) {
		targets, err := ResolveValue(p.rules, models, a.Section, key)
		if err != nil {
			p.fail(byKey[key], "%s: values %s: %v", what, key, err)
			continue
		}
		for _, t := range targets {
			if err := t.Rule.ValidateOverride(t.Param, a.Values[key]); err != nil {
				p.fail(byKey[key], "%s: values %s: %v", what, key, err)
				break
			}
		}
	}
}

// Target is one rule parameter a values key sets.
type Target struct {
	Rule  *rules.Rule
	Param string
}

// ResolveValue finds the rules a values key changes: "max" is the max of
// every rule citing the section (of one of the model codes) that has one;
// "RULE_ID.max" one rule's. A bare name that means different limits in
// different rules must be qualified.
func ResolveValue(all []*rules.Rule, models []CodeRef, section, key string) ([]Target, error) {
	param, ruleID := key, ""
	if i := strings.LastIndex(key, "."); i > 0 {
		ruleID, param = key[:i], key[i+1:]
	}
	var citing []*rules.Rule
	for _, r := range all {
		for _, m := range models {
			if r.Cites(m.Code, m.Edition, section) {
				citing = append(citing, r)
				break
			}
		}
	}
	if len(citing) == 0 {
		var codes []string
		for _, m := range models {
			codes = append(codes, m.Code+" "+m.Edition)
		}
		return nil, fmt.Errorf("no rule of this appliance checks section %s of %s, so no limit there can be set; "+
			"write the change as action replace with its text", section, strings.Join(codes, ", "))
	}
	var out []Target
	var limits []string
	for _, r := range citing {
		if ruleID != "" && r.ID != ruleID {
			continue
		}
		for _, prm := range r.Parameters() {
			if prm.Name == param {
				out = append(out, Target{Rule: r, Param: param})
				limits = append(limits, r.ID+" "+prm.Value)
			}
		}
	}
	if len(out) == 0 {
		var have []string
		for _, r := range citing {
			for _, prm := range r.Parameters() {
				have = append(have, r.ID+"."+prm.Name)
			}
		}
		if len(have) == 0 {
			return nil, fmt.Errorf("the rules checking %s have no numeric limit to set", section)
		}
		return nil, fmt.Errorf("no rule checking %s has parameter %q (parameters: %s)", section, key, strings.Join(have, ", "))
	}
	if ruleID == "" {
		first := out[0].Rule.Parameters()
		for _, t := range out[1:] {
			for _, prm := range t.Rule.Parameters() {
				for _, f := range first {
					if prm.Name == param && f.Name == param && (prm.Quantity != f.Quantity || prm.Value != f.Value) {
						return nil, fmt.Errorf("%q means different limits in %s; qualify it as RULE_ID.%s", param, strings.Join(limits, ", "), param)
					}
				}
			}
		}
	}
	return out, nil
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func lineOf(n *yaml.Node) int {
	if n == nil {
		return 0
	}
	return n.Line
}

var (
	yamlLineRe = textmatch.MustCompile(`^yaml: line (\d+): (.*)$`)
	// yaml.v3 reports its parser's errors at the 0-based line of the
	// enclosing collection (its scanner's are 1-based): one more is the
	// line, counted from 1, where that collection starts.
	yamlParserErrRe = textmatch.MustCompile(`^did not find expected (?:node content|key|',' or '[\]}]'|'-' indicator|<document start>)`)
)

// yamlError is a YAML syntax error's line and reason.
func yamlError(err error) (int, string) {
	m := yamlLineRe.FindStringSubmatch(err.Error())
	if m == nil {
		return 1, "YAML syntax: " + strings.TrimPrefix(err.Error(), "yaml: ")
	}
	n, _ := strconv.Atoi(m[1])
	if yamlParserErrRe.MatchString(m[2]) {
		n++
	}
	return n, "YAML syntax: " + m[2]
}
