package textmatch

import (
	"regexp/syntax"
	"strings"
)

// minSplitProgram is the size (instructions of the compiled program) from
// which a pattern that is an alternation at its top level is also kept as
// its branches. Go's backtracker visits every instruction at every
// position of a text, so a long (?i) alternation of stamps or phrases
// costs tens of microseconds a line even where only one branch's words
// are present (a sheet reading tried one on every title-block phrase:
// 7 ms a 26-sheet set, none matching). Apart, each branch runs only where
// its own literals are, on a program a tenth the size.
const minSplitProgram = 200

// splitBranches returns expr's top-level branches, each compiled with
// expr's leading flags, when expr's program has at least minProgram
// instructions and every branch has a prefilter of its own; else nil.
func splitBranches(tree *syntax.Regexp, expr string, minProgram int) []*Regexp {
	flags, parts := alternatives(expr)
	if len(parts) < 2 {
		return nil
	}
	prog, err := syntax.Compile(tree.Simplify())
	if err != nil || len(prog.Inst) < minProgram {
		return nil
	}
	branches := make([]*Regexp, len(parts))
	for i, part := range parts {
		b, err := compile(flags+part, 0)
		if err != nil || b.parse().byFirst == nil {
			return nil // a branch every text may match gains nothing apart
		}
		branches[i] = b
	}
	return branches
}

// alternatives splits expr at its top-level |, returning the flags group
// that leads it (a "(?i)" applies to every branch) and the branches; no
// branches when expr has no top-level alternation or a construct the
// split does not see through (\Q…\E, a flags group later at the top
// level, which would reach into the branches after it).
func alternatives(expr string) (string, []string) {
	flags, rest := "", expr
	if n := flagsGroup(rest); n > 0 {
		flags, rest = rest[:n], rest[n:]
	}
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case '\\':
			if i+1 < len(rest) && rest[i+1] == 'Q' {
				return "", nil
			}
			i++
		case '[':
			end := classEnd(rest, i)
			if end < 0 {
				return "", nil
			}
			i = end
		case '(':
			if depth == 0 && flagsGroup(rest[i:]) > 0 {
				return "", nil
			}
			depth++
		case ')':
			depth--
		case '|':
			if depth == 0 {
				parts = append(parts, rest[start:i])
				start = i + 1
			}
		}
	}
	if len(parts) == 0 {
		return "", nil
	}
	return flags, append(parts, rest[start:])
}

// flagsGroup is the length of the flags-only group ("(?i)", "(?-s)") s
// starts with, or 0.
func flagsGroup(s string) int {
	if !strings.HasPrefix(s, "(?") {
		return 0
	}
	for i := 2; i < len(s); i++ {
		switch c := s[i]; {
		case c == ')':
			if i == 2 {
				return 0
			}
			return i + 1
		case c == '-' || c == 'i' || c == 'm' || c == 's' || c == 'U':
		default:
			return 0
		}
	}
	return 0
}

// classEnd is the index of the ] that closes the character class opening
// at s[open], or -1.
func classEnd(s string, open int) int {
	j := open + 1
	if j < len(s) && s[j] == '^' {
		j++
	}
	if j < len(s) && s[j] == ']' {
		j++ // a ] first in the class is itself
	}
	for ; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '[':
			if strings.HasPrefix(s[j:], "[:") {
				k := strings.Index(s[j+2:], ":]")
				if k < 0 {
					return -1
				}
				j += 2 + k + 1
			}
		case ']':
			return j
		}
	}
	return -1
}

// matchBranches is MatchString over the branches.
func (p *parse) matchBranches(s string) bool {
	for _, b := range p.branches {
		if b.MatchString(s) {
			return true
		}
	}
	return false
}

// findBranches is FindStringIndex over the branches: the leftmost match
// of any, and where several start there the first branch's, as the
// joined alternation prefers it.
func (p *parse) findBranches(s string) []int {
	var best []int
	for _, b := range p.branches {
		if loc := b.FindStringIndex(s); loc != nil && (best == nil || loc[0] < best[0]) {
			best = loc
		}
	}
	return best
}
