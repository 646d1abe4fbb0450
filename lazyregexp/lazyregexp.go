// Package lazyregexp is regexp compiled on first use. The rules, the sheet
// reader and the chat each hold hundreds of package-level patterns; compiled
// at package initialisation they cost every command (even `version`) tens of
// milliseconds, and many of them are never run for a given set.
//
// A test binary compiles every pattern as it is declared, so a bad pattern
// still fails the package's tests at once, as regexp.MustCompile would.
package lazyregexp

import (
	"os"
	"regexp"
	"strings"
	"sync"
)

// Regexp is a *regexp.Regexp compiled the first time one of its methods is
// called; it is safe for concurrent use.
type Regexp struct {
	expr string
	re   func() *regexp.Regexp
}

// inTest: the running binary is a `go test` binary.
var inTest = strings.HasSuffix(os.Args[0], ".test") || strings.HasSuffix(os.Args[0], ".test.exe")

// New returns expr to be compiled like regexp.MustCompile on first use.
func New(expr string) *Regexp {
	r := &Regexp{expr: expr, re: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })}
	if inTest {
		r.re()
	}
	return r
}

// Regexp returns the compiled expression.
func (r *Regexp) Regexp() *regexp.Regexp { return r.re() }

func (r *Regexp) String() string { return r.expr }

func (r *Regexp) MatchString(s string) bool  { return r.re().MatchString(s) }
func (r *Regexp) Match(b []byte) bool        { return r.re().Match(b) }
func (r *Regexp) FindString(s string) string { return r.re().FindString(s) }
func (r *Regexp) FindStringIndex(s string) []int {
	return r.re().FindStringIndex(s)
}
func (r *Regexp) FindStringSubmatch(s string) []string {
	return r.re().FindStringSubmatch(s)
}
func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	return r.re().FindStringSubmatchIndex(s)
}
func (r *Regexp) FindAllString(s string, n int) []string {
	return r.re().FindAllString(s, n)
}
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return r.re().FindAllStringIndex(s, n)
}
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.re().FindAllStringSubmatch(s, n)
}
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.re().FindAllStringSubmatchIndex(s, n)
}
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.re().ReplaceAllString(src, repl)
}
func (r *Regexp) ReplaceAllLiteralString(src, repl string) string {
	return r.re().ReplaceAllLiteralString(src, repl)
}
func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.re().ReplaceAllStringFunc(src, repl)
}
func (r *Regexp) Split(s string, n int) []string { return r.re().Split(s, n) }
func (r *Regexp) SubexpNames() []string          { return r.re().SubexpNames() }
func (r *Regexp) SubexpIndex(name string) int    { return r.re().SubexpIndex(name) }
func (r *Regexp) NumSubexp() int                 { return r.re().NumSubexp() }
