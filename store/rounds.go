package store

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"planreview/rounds"

	bolt "go.etcd.io/bbolt"
)

// bucketRoundSheets holds what each completed version keeps of its sheets
// for the next round's comparison (version id -> rounds.Encode). Made by
// the first write: a database without it compares by sheet number alone.
var bucketRoundSheets = []byte("round_sheets")

// Round statuses of a finding against the previous completed version.
const (
	RoundNew        = "new"
	RoundPersisting = "persisting"
	RoundResolved   = "resolved"
)

// ActionCarried is the audit action of a disposition carried from the
// previous round to the same finding in the next one.
const ActionCarried = "finding.carried"

// ApplianceActor is the actor of what the appliance itself records (a
// disposition carried between rounds).
var ApplianceActor = Actor{ID: "planreview", Name: "planreview (round matching)"}

// FindingRound is a finding's standing against the previous completed
// version of its job.
type FindingRound struct {
	Status            string  `json:"status"` // new or persisting
	PreviousFindingID *string `json:"previousFindingId"`
	PreviousVersionID *string `json:"previousVersionId"`
}

// RoundSummary is a completed version's round: its number and what its
// comparison with the previous completed version found.
type RoundSummary struct {
	Number            int     `json:"number"`
	PreviousVersionID *string `json:"previousVersionId"`
	New               int     `json:"new"`
	Persisting        int     `json:"persisting"`
	Resolved          int     `json:"resolved"`
}

// previousCompleted is the completed version of v's job that came last
// before v, or ok false.
func previousCompleted(tx *bolt.Tx, v Version) (prev Version, ok bool, err error) {
	for _, id := range versionIDs(tx, v.JobID) {
		var o Version
		if err := getJSON(tx.Bucket(bucketVersions), id, &o); err != nil {
			return prev, false, err
		}
		if o.Number < v.Number && o.Status == StatusComplete && (!ok || o.Number > prev.Number) {
			prev, ok = o, true
		}
	}
	return prev, ok, nil
}

func putRoundSheets(tx *bolt.Tx, versionID string, sheets []rounds.Sheet) error {
	b, err := tx.CreateBucketIfNotExists(bucketRoundSheets)
	if err != nil {
		return err
	}
	return b.Put([]byte(versionID), rounds.Encode(sheets))
}

// roundSheets is a version's stored sheets; a version scanned before they
// were stored gets the sheets its findings name (number, no words).
func roundSheets(tx *bolt.Tx, versionID string, findings []Finding) ([]rounds.Sheet, error) {
	if b := tx.Bucket(bucketRoundSheets); b != nil {
		if raw := b.Get([]byte(versionID)); raw != nil {
			return rounds.Decode(raw)
		}
	}
	var out []rounds.Sheet
	seen := map[string]bool{}
	for _, f := range findings {
		k := sheetKey(f.FileID, f.Sheet.Page)
		if f.Sheet.Page > 0 && !seen[k] {
			seen[k] = true
			out = append(out, rounds.Sheet{FileID: f.FileID, Page: f.Sheet.Page, Number: f.Sheet.SheetNumber, Title: f.Sheet.SheetTitle})
		}
	}
	return out, nil
}

func sheetKey(fileID string, page int) string { return fileID + "\x00" + strconv.Itoa(page) }

// roundFindings is what matching reads of a round's findings. Examiner
// comments match by their sheet and their words.
func roundFindings(sheets []rounds.Sheet, findings []Finding) []rounds.Finding {
	index := make(map[string]int, len(sheets))
	for i, s := range sheets {
		index[sheetKey(s.FileID, s.Page)] = i
	}
	out := make([]rounds.Finding, len(findings))
	for i, f := range findings {
		// A finding with no evidence on a sheet is about the set as a
		// whole, whatever page it is filed under.
		sheet := -1
		if n, ok := index[sheetKey(f.FileID, f.Sheet.Page)]; ok && (len(f.Anchors) > 0 || f.Source == SourceExaminer) {
			sheet = n
		}
		rule, evidence := f.RuleID, evidenceText(f)
		if f.Source == SourceExaminer {
			rule, evidence = SourceExaminer, f.Title+" "+f.Rationale
		}
		out[i] = rounds.Finding{RuleID: rule, Sheet: sheet, Evidence: evidence}
	}
	return out
}

func evidenceText(f Finding) string {
	parts := make([]string, 0, len(f.Anchors))
	for _, a := range f.Anchors {
		parts = append(parts, a.Text)
	}
	return strings.Join(parts, " ")
}

// matchRound sets each finding of a version that completes its scan
// against the previous completed version: persisting findings keep their
// disposition (audited as carried), and the previous round's examiner
// comments on sheets still in the set are carried onto them. It returns
// the findings to store and the version's round.
func (db *DB) matchRound(tx *bolt.Tx, v Version, findings []Finding, sheets []rounds.Sheet, now time.Time) ([]Finding, *RoundSummary, error) {
	summary := &RoundSummary{Number: v.Number}
	prev, ok, err := previousCompleted(tx, v)
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		// A later version with no completed one before it (the earlier
		// scans failed): everything in it is new.
		if v.Number > 1 {
			for i := range findings {
				findings[i].Round = &FindingRound{Status: RoundNew}
			}
			summary.New = len(findings)
		}
		return findings, summary, nil
	}
	prevFindings, err := versionFindings(tx, prev.ID)
	if err != nil {
		return nil, nil, err
	}
	prevSheets, err := roundSheets(tx, prev.ID, prevFindings)
	if err != nil {
		return nil, nil, err
	}
	if sheets == nil {
		sheets, err = roundSheets(tx, v.ID, findings)
		if err != nil {
			return nil, nil, err
		}
	}
	prevID := prev.ID
	summary.PreviousVersionID = &prevID
	sm := rounds.MatchSheets(prevSheets, sheets)

	// The engine's findings against the previous round's engine findings.
	var prevEngine, prevExaminer []Finding
	for _, f := range prevFindings {
		if f.Source == SourceExaminer {
			prevExaminer = append(prevExaminer, f)
		} else {
			prevEngine = append(prevEngine, f)
		}
	}
	fm := rounds.MatchFindings(sm, roundFindings(prevSheets, prevEngine), roundFindings(sheets, findings))
	for i := range findings {
		findings[i].Round = &FindingRound{Status: RoundNew, PreviousVersionID: &prevID}
	}
	carry := func(f *Finding, from Finding) error {
		fromID := from.ID
		f.Round = &FindingRound{Status: RoundPersisting, PreviousFindingID: &fromID, PreviousVersionID: &prevID}
		if from.Disposition == nil {
			return nil
		}
		d := *from.Disposition
		f.Disposition = &d
		_, err := appendAudit(tx, v.JobID, AuditEvent{ID: NewID(PrefixAudit), At: now, Actor: ApplianceActor,
			Action: ActionCarried, VersionID: v.ID, FindingID: f.ID}, stateOf(from), stateOf(*f))
		return err
	}
	for _, p := range fm.Pairs {
		if err := carry(&findings[p.Next], prevEngine[p.Prev]); err != nil {
			return nil, nil, err
		}
	}
	summary.New = len(fm.New)
	summary.Persisting = len(fm.Pairs)
	summary.Resolved = len(fm.Resolved)

	// Examiner comments stand until an examiner closes them, like markups
	// carried between rounds: onto the same sheet of the new set, at the
	// same place. A comment whose sheet left the set is resolved.
	number := len(findings)
	for i, f := range prevExaminer {
		sheet := -1
		for j, s := range prevSheets {
			if s.FileID == f.FileID && s.Page == f.Sheet.Page {
				sheet = sm.NextOf(j)
				break
			}
		}
		if sheet < 0 {
			summary.Resolved++
			continue
		}
		to := sheets[sheet]
		c := f
		c.ID = NewID(PrefixFinding)
		number++
		c.Number = number
		c.FileID = to.FileID
		c.Sheet.Page, c.Sheet.SheetNumber = to.Page, to.Number
		if to.Title != "" {
			c.Sheet.SheetTitle = to.Title
		}
		c.Anchors = append([]Anchor(nil), f.Anchors...)
		for k := range c.Anchors {
			c.Anchors[k].Page = to.Page
		}
		c.Disposition = nil
		if err := carry(&c, prevExaminer[i]); err != nil {
			return nil, nil, err
		}
		findings = append(findings, c)
		summary.Persisting++
	}
	return findings, summary, nil
}

// Comparison is two completed versions of a job compared.
type Comparison struct {
	From               *Version // nil: the job has no earlier completed version
	To                 Version
	Prev, Next         []Finding
	PrevSheets, Sheets []rounds.Sheet
	SheetMatch         rounds.SheetMatch
	FindingMatch       rounds.FindingMatch
}

// ErrVersionOrder is a comparison whose from version is not older than its
// to version.
var ErrVersionOrder = errors.New("from must be an earlier version than to")

// Compare compares two completed versions of a partner's job (fromID and
// toID; "" for the defaults: to is the last completed version, from the
// completed version before it). ErrNotFound for an unknown version,
// ErrScanNotComplete for one whose scan has not completed.
func (db *DB) Compare(partnerID, jobID, fromID, toID string) (Comparison, error) {
	var c Comparison
	err := db.bolt.View(func(tx *bolt.Tx) error {
		if _, err := ownedJob(tx, partnerID, jobID); err != nil {
			return err
		}
		load := func(id string) (Version, error) {
			var v Version
			if err := getJSON(tx.Bucket(bucketVersions), id, &v); err != nil {
				return v, err
			}
			if v.JobID != jobID {
				return v, ErrNotFound
			}
			if v.Status != StatusComplete {
				return v, ErrScanNotComplete
			}
			return v, nil
		}
		var err error
		if toID != "" {
			if c.To, err = load(toID); err != nil {
				return err
			}
		} else {
			last, ok, err := lastCompleted(tx, jobID)
			if err != nil {
				return err
			}
			if !ok {
				return ErrScanNotComplete
			}
			c.To = last
		}
		if fromID != "" {
			from, err := load(fromID)
			if err != nil {
				return err
			}
			if from.Number >= c.To.Number {
				return ErrVersionOrder
			}
			c.From = &from
		} else if from, ok, err := previousCompleted(tx, c.To); err != nil {
			return err
		} else if ok {
			c.From = &from
		}
		if c.Next, err = versionFindings(tx, c.To.ID); err != nil {
			return err
		}
		if c.Next, err = inContractOrder(tx, c.To.ID, c.Next); err != nil {
			return err
		}
		if c.Sheets, err = roundSheets(tx, c.To.ID, c.Next); err != nil {
			return err
		}
		if c.From != nil {
			if c.Prev, err = versionFindings(tx, c.From.ID); err != nil {
				return err
			}
			if c.Prev, err = inContractOrder(tx, c.From.ID, c.Prev); err != nil {
				return err
			}
			if c.PrevSheets, err = roundSheets(tx, c.From.ID, c.Prev); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return c, err
	}
	c.SheetMatch = rounds.MatchSheets(c.PrevSheets, c.Sheets)
	c.FindingMatch = rounds.MatchFindings(c.SheetMatch, roundFindings(c.PrevSheets, c.Prev), roundFindings(c.Sheets, c.Next))
	return c, nil
}

// lastCompleted is the job's newest completed version.
func lastCompleted(tx *bolt.Tx, jobID string) (last Version, ok bool, err error) {
	for _, id := range versionIDs(tx, jobID) {
		var v Version
		if err := getJSON(tx.Bucket(bucketVersions), id, &v); err != nil {
			return last, false, err
		}
		if v.Status == StatusComplete && (!ok || v.Number > last.Number) {
			last, ok = v, true
		}
	}
	return last, ok, nil
}

// LastCompletedVersion is the id of the newest completed version among
// versions (a job's, any order), "" when none completed.
func LastCompletedVersion(versions []Version) string {
	best, number := "", 0
	for _, v := range versions {
		if v.Status == StatusComplete && v.Number > number {
			best, number = v.ID, v.Number
		}
	}
	return best
}
