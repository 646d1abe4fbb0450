// Package letter writes the plan-check correction letter of one submittal
// round: the comments an examiner sends the applicant, numbered and grouped
// by sheet in the order of the set, each with the code it rests on. The
// same model is written as PDF (the standard fonts, no font files) and as
// DOCX (WordprocessingML a clerk edits in Word or LibreOffice).
package letter

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"planreview/scan/annotate"
	"planreview/store"
)

// SetPage is one page of the set in set order (files in registration
// order, pages in order) and the sheet it is.
type SetPage struct {
	FileID, FileName        string
	Page                    int
	SheetNumber, SheetTitle string
}

// Input is what a letter is made from.
type Input struct {
	JobID, JobName, ExternalID string
	VersionID                  string
	Round                      int
	Address                    string // as read from the sheets; "" when none was
	Date                       time.Time
	CodeBasis                  []string
	Pages                      []SetPage
	Findings                   []store.Finding
	// Previous is the round this one answers (nil in a first round).
	Previous *PreviousRound
	// LeaveOutUnchanged (a partner's setting) leaves out new findings
	// that are not life safety on sheets that did not change since the
	// previous round: a later round raises no new comments on what the
	// applicant did not touch, except for life safety.
	LeaveOutUnchanged bool
	// UnchangedPages are this round's pages (pageKey) whose sheet is in
	// the previous round unchanged.
	UnchangedPages map[string]bool
}

// PreviousRound is what a later round's letter says of the one before.
type PreviousRound struct {
	Round int
	Pages []SetPage
	// Resolved are the previous round's findings not found again.
	Resolved []store.Finding
}

// PageKey names a page of the set in UnchangedPages.
func PageKey(fileID string, page int) string { return pageKey(fileID, page) }

// LifeSafety reports whether a finding is about life safety: egress, fire
// and life-safety topics, or a critical finding whatever its topic.
func LifeSafety(f store.Finding) bool {
	if f.Severity == "critical" {
		return true
	}
	for _, prefix := range []string{"life-safety", "egress", "fire"} {
		if f.Topic == prefix || strings.HasPrefix(f.Topic, prefix+".") || strings.HasPrefix(f.Topic, prefix+"-") {
			return true
		}
	}
	return false
}

// Section is a numbered part of the corrections.
type Section struct {
	Heading, Intro string
	Groups         []Group
	Items          int
}

// Item is one comment of the letter.
type Item struct {
	Number        int // in the letter, 1…n
	Tag           int // the finding's number on the marked-up sheets
	FindingID     string
	Title         string
	Comment       string
	CodeReference string
	Severity      string
	Examiner      bool
}

// Group is the items of one sheet (or of the set as a whole).
type Group struct {
	Heading string // "A-101 Floor plan", or "General (whole set)"
	Items   []Item
}

// Letter is the model both formats are written from.
type Letter struct {
	Input
	Groups  []Group // corrections, in set order
	Pending []Group // findings still open: listed apart, not numbered
	Items   int
	// Later rounds: the corrections still outstanding (persisting) and
	// the new ones, numbered on from them; the previous round's
	// corrections resolved since; how many new findings were left out.
	Outstanding, New []Group
	Resolved         []Group
	LeftOut          int
}

// Build groups the findings: accepted and examiner findings become the
// numbered corrections, open ones are listed apart as not yet decided, and
// dismissed ones are left out.
func Build(in Input) Letter {
	l := Letter{Input: in}
	order := map[string]int{}
	heading := map[string]string{}
	for i, p := range in.Pages {
		k := pageKey(p.FileID, p.Page)
		order[k] = i + 1
		heading[k] = sheetHeading(p, in.Pages)
	}
	type bucket struct {
		key   string
		items []store.Finding
	}
	collect := func(keep func(store.Finding) bool) []bucket {
		var out []bucket
		at := map[string]int{}
		for _, f := range in.Findings {
			if !keep(f) {
				continue
			}
			k := pageKey(f.FileID, f.Sheet.Page)
			if _, ok := order[k]; !ok || f.Sheet.Page == 0 {
				k = ""
			}
			i, ok := at[k]
			if !ok {
				i = len(out)
				at[k] = i
				out = append(out, bucket{key: k})
			}
			out[i].items = append(out[i].items, f)
		}
		// Set order: the set-wide group first, then sheets as bound.
		for i := 1; i < len(out); i++ {
			for j := i; j > 0 && order[out[j].key] < order[out[j-1].key]; j-- {
				out[j], out[j-1] = out[j-1], out[j]
			}
		}
		return out
	}
	decided := func(f store.Finding) bool {
		st := store.DispositionOf(f).Status
		return st == store.DispositionAccepted || (f.Source == store.SourceExaminer && st != store.DispositionDismissed)
	}
	open := func(f store.Finding) bool {
		return f.Source != store.SourceExaminer && store.DispositionOf(f).Status == store.DispositionOpen
	}
	n := 0
	toGroups := func(buckets []bucket, numbered bool) []Group {
		groups := make([]Group, len(buckets))
		for i, b := range buckets {
			groups[i].Heading = heading[b.key]
			if b.key == "" {
				groups[i].Heading = "General (the set as a whole)"
			}
			for _, f := range b.items {
				it := Item{Tag: f.Number, FindingID: f.ID, Title: f.Title, Comment: f.Rationale,
					CodeReference: f.GoverningRefs, Severity: f.Severity, Examiner: f.Source == store.SourceExaminer}
				if numbered {
					n++
					it.Number = n
				}
				groups[i].Items = append(groups[i].Items, it)
			}
		}
		return groups
	}
	persisting := func(f store.Finding) bool { return f.Round != nil && f.Round.Status == store.RoundPersisting }
	leftOut := func(f store.Finding) bool {
		return in.Previous != nil && in.LeaveOutUnchanged && !persisting(f) && f.Source != store.SourceExaminer &&
			in.UnchangedPages[pageKey(f.FileID, f.Sheet.Page)] && !LifeSafety(f)
	}
	if in.Previous == nil {
		l.Groups = toGroups(collect(decided), true)
	} else {
		l.Outstanding = toGroups(collect(func(f store.Finding) bool { return decided(f) && persisting(f) }), true)
		l.New = toGroups(collect(func(f store.Finding) bool { return decided(f) && !persisting(f) && !leftOut(f) }), true)
		l.Groups = append(append([]Group(nil), l.Outstanding...), l.New...)
		for _, f := range in.Findings {
			if leftOut(f) && (decided(f) || open(f)) {
				l.LeftOut++
			}
		}
		prev := Build(Input{Pages: in.Previous.Pages, Findings: in.Previous.Resolved})
		l.Resolved = prev.Groups
	}
	l.Items = n
	l.Pending = toGroups(collect(func(f store.Finding) bool { return open(f) && !leftOut(f) }), false)
	return l
}

// Sections are the numbered corrections: one section in a first round;
// what still stands, then what is new, in a later one.
func (l Letter) Sections() []Section {
	count := func(gs []Group) int {
		n := 0
		for _, g := range gs {
			n += len(g.Items)
		}
		return n
	}
	if l.Previous == nil {
		intro := introText
		if l.Items == 0 {
			intro = noItemsText
		}
		return []Section{{Heading: fmt.Sprintf("Corrections (%d)", l.Items), Intro: intro, Groups: l.Groups, Items: l.Items}}
	}
	prev := strconv.Itoa(l.Previous.Round)
	out := []Section{{Heading: fmt.Sprintf("Still outstanding from round %s (%d)", prev, count(l.Outstanding)),
		Intro: "These corrections of round " + prev + " are not resolved by the resubmitted plans.", Groups: l.Outstanding, Items: count(l.Outstanding)},
		{Heading: fmt.Sprintf("New in round %d (%d)", l.Round, count(l.New)), Intro: introText, Groups: l.New, Items: count(l.New)}}
	for i := range out {
		if out[i].Items == 0 {
			out[i].Intro = "None."
		}
	}
	if l.LeftOut > 0 {
		out[1].Intro += fmt.Sprintf(" %d new finding(s) on sheets that did not change since round %s are left out: this review raises new comments on unchanged sheets only for life safety.", l.LeftOut, prev)
	}
	return out
}

// resolvedHeading heads the list of the previous round's corrections the
// resubmitted plans resolved.
func (l Letter) resolvedHeading() string {
	return fmt.Sprintf("Resolved since round %d", l.Previous.Round)
}

func pageKey(fileID string, page int) string { return fileID + "\x00" + strconv.Itoa(page) }

// sheetHeading names a page: its sheet number and title as read, else its
// page number (and file, in a set of several files).
func sheetHeading(p SetPage, all []SetPage) string {
	name := strings.TrimSpace(p.SheetNumber + " " + p.SheetTitle)
	if p.SheetNumber != "" {
		name = "Sheet " + name
	} else if name == "" {
		name = "Page " + strconv.Itoa(p.Page)
		for _, q := range all {
			if q.FileID != p.FileID {
				name += " of " + p.FileName
				break
			}
		}
	} else {
		name = "Page " + strconv.Itoa(p.Page) + ": " + name
	}
	return name
}

// Title is the letter's heading.
func (l Letter) Title() string { return "Plan check correction letter" }

// headerLines are the facts under the title, label and value.
func (l Letter) headerLines() [][2]string {
	addr := l.Address
	if addr == "" {
		addr = "not read from the plans"
	}
	permit := l.ExternalID
	if permit == "" {
		permit = "none given"
	}
	return [][2]string{
		{"Project", l.JobName},
		{"Permit / reference", permit},
		{"Project address (as read from the plans)", addr},
		{"Review round", strconv.Itoa(l.Round)},
		{"Date", l.Date.Format("January 2, 2006")},
	}
}

const (
	introText = "The plans submitted for this round were reviewed. Each item below must be addressed " +
		"on the sheet named before the plans can be approved. Respond to each item by number, and " +
		"cloud and delta-mark every change on the resubmitted sheets."
	noItemsText  = "No corrections are required in this round."
	pendingIntro = "The following findings of the automated review have not been decided by an examiner " +
		"yet. They are not corrections and need no response until an examiner accepts them."
)

func itemText(it Item) string {
	t := it.Title
	if c := strings.TrimSpace(it.Comment); c != "" {
		t += ". " + c
		t = strings.Replace(t, "..", ".", 1)
	}
	return t
}

// Blocks is the letter as a run of text blocks, the PDF's layout.
func (l Letter) Blocks() []annotate.TextBlock {
	var b []annotate.TextBlock
	add := func(style annotate.TextStyle, text string) {
		b = append(b, annotate.TextBlock{Style: style, Text: text})
	}
	add(annotate.StyleTitle, l.Title())
	for _, h := range l.headerLines() {
		add(annotate.StyleBody, h[0]+": "+h[1])
	}
	b = append(b, annotate.TextBlock{Style: annotate.StyleHeading, Text: "Code basis", KeepWithNext: true})
	if len(l.CodeBasis) == 0 {
		add(annotate.StyleMuted, "No code basis was recorded for this review.")
	}
	for _, line := range l.CodeBasis {
		b = append(b, annotate.TextBlock{Style: annotate.StyleMuted, Text: "\u2022 " + line, Indent: 8})
	}
	for _, sec := range l.Sections() {
		b = append(b, annotate.TextBlock{Style: annotate.StyleHeading, Text: sec.Heading, KeepWithNext: true})
		add(annotate.StyleBody, sec.Intro)
		for _, g := range sec.Groups {
			b = append(b, annotate.TextBlock{Style: annotate.StyleHeading, Text: g.Heading, KeepWithNext: true})
			for _, it := range g.Items {
				b = append(b, annotate.TextBlock{Style: annotate.StyleItem, Label: strconv.Itoa(it.Number) + ".", Text: itemText(it)})
				if it.CodeReference != "" {
					b = append(b, annotate.TextBlock{Style: annotate.StyleMuted, Text: "Code reference: " + it.CodeReference, Indent: 28})
				}
			}
		}
	}
	if l.Previous != nil {
		b = append(b, annotate.TextBlock{Style: annotate.StyleHeading, Text: l.resolvedHeading(), KeepWithNext: true})
		if len(l.Resolved) == 0 {
			add(annotate.StyleMuted, "None of the earlier corrections is resolved yet.")
		}
		for _, g := range l.Resolved {
			b = append(b, annotate.TextBlock{Style: annotate.StyleBold, Text: g.Heading, KeepWithNext: true})
			for _, it := range g.Items {
				b = append(b, annotate.TextBlock{Style: annotate.StyleBody, Text: "\u2022 " + it.Title, Indent: 8})
			}
		}
	}
	if len(l.Pending) > 0 {
		b = append(b, annotate.TextBlock{Style: annotate.StyleHeading, Text: "Not yet decided (not part of this letter's corrections)", KeepWithNext: true})
		add(annotate.StyleMuted, pendingIntro)
		for _, g := range l.Pending {
			b = append(b, annotate.TextBlock{Style: annotate.StyleBold, Text: g.Heading, KeepWithNext: true})
			for _, it := range g.Items {
				text := "\u2022 " + it.Title
				if it.CodeReference != "" {
					text += " (" + it.CodeReference + ")"
				}
				b = append(b, annotate.TextBlock{Style: annotate.StyleBody, Text: text, Indent: 8})
			}
		}
	}
	return b
}

func (l Letter) footer() string {
	f := l.JobName
	if l.ExternalID != "" {
		f = l.ExternalID + " \u00b7 " + f
	}
	return f + " \u00b7 round " + strconv.Itoa(l.Round)
}

// WritePDF writes the letter as PDF.
func (l Letter) WritePDF(w io.Writer) error {
	return annotate.WriteTextPDF(w, annotate.TextMeta{Title: l.Title() + " \u2014 " + l.JobName,
		Subject: "Round " + strconv.Itoa(l.Round) + " corrections", Author: "planreview",
		Footer: l.footer(), Created: l.Date}, l.Blocks())
}
