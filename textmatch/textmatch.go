// Package textmatch is regexp with a literal prefilter. Plan sheets have
// tens of thousands of text lines and the rules hundreds of patterns, most
// of them case-insensitive alternations that Go's backtracker tries at
// every position of every line. A pattern like `(?i)\bRISERS?\b.*\d` can
// only match a line that contains "RISER"; checking that first with a fast
// substring search skips the regexp engine on nearly every line.
//
// The literals come from the pattern's syntax tree and are a necessary
// condition, never a sufficient one: Regexp finds exactly what the wrapped
// regexp finds, only faster.
package textmatch

import (
	"os"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Regexp is a compiled regexp whose find and match methods first check
// that the input contains one of the literals every match must contain.
//
// The wrapped regexp is compiled on first use: the rules declare hundreds of
// patterns at package level, and the prefilter spares most of them any run
// on a given set. Compile parses the expression (and so checks it) at once;
// MustCompile, for patterns written in the source, parses on first use too,
// as parsing them all at package initialisation cost every command (even
// `version`) some 25 ms. A test binary parses them as they are declared, so
// a bad pattern still fails its package's tests at once.
type Regexp struct {
	// source is the expression; buildSource, when set, builds it once on
	// first use (buildOnce), for MustCompileFunc.
	source      string
	buildSource func() string
	buildOnce   sync.Once
	re          atomic.Pointer[regexp.Regexp] // compiled on first use
	// parsed holds what the parse gives (nil until then); parseErr is
	// MustCompile's panic for a bad expression, raised on first use.
	parsed atomic.Pointer[parse]
	// set and member: the Set r belongs to and r's bit in a Possible of it
	// (member index + 1; 0: not a member). bits, once the Set has
	// registered r's literals, are their Present bits (bit 0 too when
	// foldsKS); see MayMatch.
	set    *Set
	member int
	bits   atomic.Pointer[[]int]
}

// parse is a Regexp's parsed expression, as the prefilter uses it.
type parse struct {
	names []string // capture names, as regexp's SubexpNames
	// need holds upper-case ASCII literals; a match contains at least one
	// of them (compared ignoring ASCII case). Empty: no prefilter.
	need []string
	// byFirst lists need by each literal's first byte, so one pass over the
	// text checks every literal.
	byFirst *[256][]string
	// foldsKS: the pattern folds case and a literal has K or S, which (?i)
	// also matches as the Kelvin sign and the long s; an ASCII comparison
	// does not see those, so text holding either skips the prefilter.
	foldsKS bool
	// branches: a long top-level alternation kept apart (splitBranches),
	// for MatchString and the leftmost finds; nil for most patterns.
	branches []*Regexp
}

// inTest: the running binary is a `go test` binary.
var inTest = strings.HasSuffix(os.Args[0], ".test") || strings.HasSuffix(os.Args[0], ".test.exe")

// Compile parses a regular expression like regexp.Compile.
func Compile(expr string) (*Regexp, error) {
	return compile(expr, minSplitProgram)
}

// compile is Compile splitting a top-level alternation of minSplit
// instructions or more (0: never).
func compile(expr string, minSplit int) (*Regexp, error) {
	p, err := parseExpr(expr, minSplit)
	if err != nil {
		return nil, err
	}
	r := &Regexp{source: expr}
	r.parsed.Store(p)
	return r, nil
}

// expr is r's expression, built on first use for MustCompileFunc.
func (r *Regexp) expr() string {
	if r.buildSource != nil {
		r.buildOnce.Do(func() { r.source = r.buildSource() })
	}
	return r.source
}

// compiled is r's regexp, compiled on first use (two goroutines may
// compile it at once; both get the same one).
func (r *Regexp) compiled() *regexp.Regexp {
	if re := r.re.Load(); re != nil {
		return re
	}
	re := regexp.MustCompile(r.expr())
	if !r.re.CompareAndSwap(nil, re) {
		return r.re.Load()
	}
	return re
}

func parseExpr(expr string, minSplit int) (*parse, error) {
	if p, ok := tabledParse(expr, minSplit); ok {
		return p, nil
	}
	return parseAfresh(expr, minSplit)
}

// parseAfresh is parseExpr without the table.
func parseAfresh(expr string, minSplit int) (*parse, error) {
	// regexp.Compile parses with the same flags, so it cannot fail where
	// this parse succeeded.
	tree, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, err
	}
	p := &parse{names: tree.CapNames(), need: required(tree.Simplify())}
	p.foldsKS = foldsCase(tree) && slices.ContainsFunc(p.need, func(lit string) bool {
		return strings.ContainsAny(lit, "KS")
	})
	p.index()
	if minSplit > 0 && p.byFirst != nil {
		p.branches = splitBranches(tree, expr, minSplit)
	}
	return p, nil
}

// index lists need by first byte (none when need is empty: no filter).
func (p *parse) index() {
	if len(p.need) == 0 {
		return
	}
	p.byFirst = new([256][]string)
	for _, lit := range p.need {
		p.byFirst[lit[0]] = append(p.byFirst[lit[0]], lit)
	}
}

// parse returns r's parsed expression, parsing it on first use (a bad
// expression from MustCompile panics then, as it would have at once).
func (r *Regexp) parse() *parse {
	if p := r.parsed.Load(); p != nil {
		return p
	}
	p, err := parseExpr(r.expr(), minSplitProgram)
	if err != nil {
		panic("textmatch: " + err.Error())
	}
	// Two goroutines may parse at once; both get the same result.
	if !r.parsed.CompareAndSwap(nil, p) {
		return r.parsed.Load()
	}
	return p
}

// MustCompile is Compile that panics on a bad expression, for patterns
// written in the source. The expression is parsed on first use.
func MustCompile(expr string) *Regexp {
	return mustDeclare(&Regexp{source: expr})
}

// MustCompileFunc is MustCompile for an expression built from data that
// is itself loaded on first use (the adoption table's code names): expr
// runs once, when the pattern is first used, so declaring the pattern
// costs a command that never uses it nothing.
func MustCompileFunc(expr func() string) *Regexp {
	return mustDeclare(&Regexp{buildSource: expr})
}

// mustDeclare records a pattern made by MustCompile or MustCompileFunc;
// a test binary parses it at once.
func mustDeclare(r *Regexp) *Regexp {
	declare(r)
	if inTest {
		r.parse()
	}
	return r
}

func (r *Regexp) Regexp() *regexp.Regexp { return r.compiled() }

func (r *Regexp) String() string { return r.expr() }

// SubexpNames is regexp's, read from the parsed expression without
// compiling it.
func (r *Regexp) SubexpNames() []string { return r.parse().names }

func (r *Regexp) NumSubexp() int { return len(r.parse().names) - 1 }

// Required returns the literals the prefilter looks for (for tests).
func (r *Regexp) Required() []string { return r.parse().need }

func (r *Regexp) mayMatch(s string) bool { return r.parse().mayMatch(s) }

// mayMatch reports whether s contains one of the required literals, in one
// pass over s whatever the number of literals.
func (p *parse) mayMatch(s string) bool {
	if p.byFirst == nil {
		return true
	}
	nonASCII := false
	for i := 0; i < len(s); i++ {
		c := upperASCII(s[i])
		nonASCII = nonASCII || c >= 0x80
		for _, lit := range p.byFirst[c] {
			if len(s)-i >= len(lit) && equalFoldASCII(s[i:i+len(lit)], lit) {
				return true
			}
		}
	}
	// Rare: only lines with non-ASCII text pay for this check.
	return p.foldsKS && nonASCII && (strings.Contains(s, "\u212a") || strings.Contains(s, "\u017f"))
}

// Any is a necessary condition for one of several patterns to match a
// text, checked in one pass over it: the union of their prefilters'
// literals.
type Any struct{ p *parse }

// AnyOf is the union of the patterns' prefilters. When one of them has
// none, every text may match.
func AnyOf(res ...*Regexp) *Any {
	u := &parse{}
	for _, r := range res {
		p := r.parse()
		if p.byFirst == nil {
			return &Any{p: &parse{}}
		}
		u.foldsKS = u.foldsKS || p.foldsKS
		for _, lit := range p.need {
			if !slices.Contains(u.need, lit) {
				u.need = append(u.need, lit)
			}
		}
	}
	u.index()
	return &Any{p: u}
}

// MayMatch reports whether one of the patterns may match s.
func (a *Any) MayMatch(s string) bool { return a.p.mayMatch(s) }

// Required returns the union's literals (none: no filter).
func (a *Any) Required() []string { return a.p.need }

func (r *Regexp) MatchString(s string) bool {
	p := r.parse()
	if !p.mayMatch(s) {
		return false
	}
	if p.branches != nil {
		return p.matchBranches(s)
	}
	return r.compiled().MatchString(s)
}

func (r *Regexp) FindString(s string) string {
	p := r.parse()
	if !p.mayMatch(s) {
		return ""
	}
	if p.branches != nil {
		if loc := p.findBranches(s); loc != nil {
			return s[loc[0]:loc[1]]
		}
		return ""
	}
	return r.compiled().FindString(s)
}

func (r *Regexp) FindStringIndex(s string) []int {
	p := r.parse()
	if !p.mayMatch(s) {
		return nil
	}
	if p.branches != nil {
		return p.findBranches(s)
	}
	return r.compiled().FindStringIndex(s)
}

func (r *Regexp) FindStringSubmatch(s string) []string {
	if !r.mayMatch(s) {
		return nil
	}
	return r.compiled().FindStringSubmatch(s)
}

func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	if !r.mayMatch(s) {
		return nil
	}
	return r.compiled().FindStringSubmatchIndex(s)
}

func (r *Regexp) FindAllString(s string, n int) []string {
	if !r.mayMatch(s) {
		return nil
	}
	return r.compiled().FindAllString(s, n)
}

func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	if !r.mayMatch(s) {
		return nil
	}
	return r.compiled().FindAllStringIndex(s, n)
}

func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	if !r.mayMatch(s) {
		return nil
	}
	return r.compiled().FindAllStringSubmatch(s, n)
}

func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	if !r.mayMatch(s) {
		return nil
	}
	return r.compiled().FindAllStringSubmatchIndex(s, n)
}

func (r *Regexp) Match(b []byte) bool {
	return r.mayMatch(string(b)) && r.compiled().Match(b)
}

// ReplaceAllString and its kin return src itself when no match can occur:
// a pattern with a required literal never matches the empty string.
func (r *Regexp) ReplaceAllString(src, repl string) string {
	if !r.mayMatch(src) {
		return src
	}
	return r.compiled().ReplaceAllString(src, repl)
}

func (r *Regexp) ReplaceAllLiteralString(src, repl string) string {
	if !r.mayMatch(src) {
		return src
	}
	return r.compiled().ReplaceAllLiteralString(src, repl)
}

func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	if !r.mayMatch(src) {
		return src
	}
	return r.compiled().ReplaceAllStringFunc(src, repl)
}

// required returns literals one of which every match of re contains, or
// nil when it cannot tell. Only ASCII literals are used, compared ignoring
// case, which keeps the condition necessary for both case-sensitive and
// (?i) patterns.
func required(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		lit := string(re.Rune)
		for _, c := range lit {
			if c >= 0x80 {
				return nil // Unicode case folding is not ASCII's: no filter
			}
		}
		if lit == "" {
			return nil
		}
		return []string{strings.ToUpper(lit)}
	case syntax.OpCapture:
		return required(re.Sub[0])
	case syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
		return nil
	case syntax.OpConcat:
		// Every part must match, so any part's literals will do: take the
		// most selective (longest shortest literal, then fewest).
		var best []string
		for _, sub := range re.Sub {
			if cand := required(sub); better(cand, best) {
				best = cand
			}
		}
		return best
	case syntax.OpAlternate:
		// One branch matches: the union, but only if every branch has one.
		var all []string
		for _, sub := range re.Sub {
			cand := required(sub)
			if cand == nil {
				return nil
			}
			all = append(all, cand...)
		}
		return all
	}
	return nil // classes, any-char, empty, anchors, star, quest
}

func foldsCase(re *syntax.Regexp) bool {
	if re.Flags&syntax.FoldCase != 0 {
		return true
	}
	for _, sub := range re.Sub {
		if foldsCase(sub) {
			return true
		}
	}
	return false
}

func better(cand, best []string) bool {
	if cand == nil {
		return false
	}
	if best == nil {
		return true
	}
	cm, bm := shortest(cand), shortest(best)
	return cm > bm || (cm == bm && len(cand) < len(best))
}

func shortest(lits []string) int {
	n := len(lits[0])
	for _, l := range lits[1:] {
		n = min(n, len(l))
	}
	return n
}

func equalFoldASCII(s, upper string) bool {
	for k := 0; k < len(upper); k++ {
		if upperASCII(s[k]) != upper[k] {
			return false
		}
	}
	return true
}

func upperASCII(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// SubexpIndex is regexp's, read from the parsed expression.
func (r *Regexp) SubexpIndex(name string) int {
	if name != "" {
		for i, s := range r.parse().names {
			if name == s {
				return i
			}
		}
	}
	return -1
}
