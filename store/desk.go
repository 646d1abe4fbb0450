package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The examiner's desk: dispositions of findings, examiner comments, a
// partner's comment templates and each job's audit trail. Its buckets are
// made by the first write, like the law buckets: a database without them
// simply has no desk records, and older binaries ignore them.
var (
	bucketAudit     = []byte("audit")     // job id 0x00 seq (8 bytes BE) -> AuditEvent
	bucketTemplates = []byte("templates") // partner id 0x00 template id -> CommentTemplate
)

// Id prefixes of the desk's records.
const (
	PrefixTemplate = "tpl_"
	PrefixAudit    = "aud_"
)

// Disposition statuses.
const (
	DispositionOpen      = "open"
	DispositionAccepted  = "accepted"
	DispositionDismissed = "dismissed"
)

// SourceExaminer marks a finding a person added.
const SourceExaminer = "examiner"

// Audit actions.
const (
	ActionCreated   = "finding.created"
	ActionAccepted  = "finding.accepted"
	ActionDismissed = "finding.dismissed"
	ActionReopened  = "finding.reopened"
	ActionEdited    = "finding.edited"
)

// GenesisHash is the prevHash of a job's first audit event.
const GenesisHash = "0000000000000000000000000000000000000000000000000000000000000000"

// ErrScanNotComplete is a change to the findings of a version whose scan
// has not finished.
var ErrScanNotComplete = errors.New("scan not complete")

// Actor is the person behind a change: the partner's own user id and
// display name.
type Actor struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Disposition is what an examiner decided about a finding. A finding
// stored without one is open.
type Disposition struct {
	Status    string     `json:"status"`
	Note      string     `json:"note"`
	Actor     *Actor     `json:"actor"`
	UpdatedAt *time.Time `json:"updatedAt"`
}

// DispositionOf is f's disposition, open when nobody acted on it.
func DispositionOf(f Finding) Disposition {
	if f.Disposition != nil {
		return *f.Disposition
	}
	return Disposition{Status: DispositionOpen}
}

// FindingState is the part of a finding people change, as the audit trail
// records it before and after each change.
type FindingState struct {
	Status    string `json:"status"`
	Note      string `json:"note"`
	Title     string `json:"title"`
	Rationale string `json:"rationale"`
	Severity  string `json:"severity"`
}

func stateOf(f Finding) FindingState {
	d := DispositionOf(f)
	return FindingState{Status: d.Status, Note: d.Note, Title: f.Title, Rationale: f.Rationale, Severity: f.Severity}
}

// AuditEvent is one entry of a job's append-only audit trail. Hash is the
// SHA-256 of PrevHash followed by the event's canonical JSON without Hash
// (AuditHash), so an entry changed or removed afterwards breaks the chain.
type AuditEvent struct {
	ID        string          `json:"eventId"`
	At        time.Time       `json:"at"`
	Actor     Actor           `json:"actor"`
	Action    string          `json:"action"`
	VersionID string          `json:"versionId"`
	FindingID string          `json:"findingId"`
	Before    json.RawMessage `json:"before"`
	After     json.RawMessage `json:"after"`
	PrevHash  string          `json:"prevHash"`
	Hash      string          `json:"hash"`
}

// CommentTemplate is one of a partner's standard comments.
type CommentTemplate struct {
	ID            string    `json:"templateId"`
	PartnerID     string    `json:"-"`
	Title         string    `json:"title"`
	Text          string    `json:"text"`
	GoverningRefs string    `json:"governingRefs"`
	Severity      string    `json:"severity"`
	CreatedAt     time.Time `json:"createdAt"`
}

// FindingChange is a PATCH of a finding; nil fields stay as they are.
type FindingChange struct {
	Status, Note, Title, Rationale, Severity *string
	Actor                                    Actor
	// View is the finding as the API shows it, for the finding.updated
	// event written with the change; nil sends the stored finding.
	View func(Finding) any
}

// changedFields names the fields a change set, for the finding.updated
// event.
func changedFields(before, after FindingState) []string {
	var out []string
	for _, c := range []struct {
		name string
		a, b string
	}{{"status", before.Status, after.Status}, {"note", before.Note, after.Note}, {"title", before.Title, after.Title},
		{"rationale", before.Rationale, after.Rationale}, {"severity", before.Severity, after.Severity}} {
		if c.a != c.b {
			out = append(out, c.name)
		}
	}
	return out
}

// ChangedFinding is a finding after a change, with its version and the
// audit event that recorded it (nil when the change changed nothing).
type ChangedFinding struct {
	Finding Finding
	Version Version
	Event   *AuditEvent
}

// UpdateFinding applies a change to a finding of a partner's job and
// appends its audit event in the same transaction. A change that leaves
// the finding as it was records nothing, so a retried PATCH adds no event.
func (db *DB) UpdateFinding(partnerID, jobID, findingID string, ch FindingChange) (ChangedFinding, error) {
	var out ChangedFinding
	eventID := NewID(PrefixAudit)
	err := db.bolt.Batch(func(tx *bolt.Tx) error {
		out = ChangedFinding{}
		j, err := ownedJob(tx, partnerID, jobID)
		if err != nil {
			return err
		}
		v, key, f, err := findFinding(tx, j, findingID)
		if err != nil {
			return err
		}
		out.Version = v
		before := stateOf(f)
		after := before
		set := func(dst *string, src *string) {
			if src != nil {
				*dst = *src
			}
		}
		set(&after.Status, ch.Status)
		set(&after.Note, ch.Note)
		set(&after.Title, ch.Title)
		set(&after.Rationale, ch.Rationale)
		set(&after.Severity, ch.Severity)
		if after == before {
			out.Finding = f
			return nil
		}
		now := db.now().UTC()
		actor := ch.Actor
		f.Title, f.Rationale, f.Severity = after.Title, after.Rationale, after.Severity
		f.Disposition = &Disposition{Status: after.Status, Note: after.Note, Actor: &actor, UpdatedAt: &now}
		raw, err := marshal(f)
		if err != nil {
			return err
		}
		if err := tx.Bucket(bucketFindings).Put(key, raw); err != nil {
			return err
		}
		if v, err = touchFindings(tx, v, now, before.Severity != after.Severity); err != nil {
			return err
		}
		out.Version, out.Finding = v, f
		action := ActionEdited
		if before.Status != after.Status {
			action = map[string]string{DispositionAccepted: ActionAccepted, DispositionDismissed: ActionDismissed,
				DispositionOpen: ActionReopened}[after.Status]
		}
		ev, err := appendAudit(tx, j.ID, AuditEvent{ID: eventID, At: now, Actor: actor, Action: action,
			VersionID: v.ID, FindingID: f.ID}, before, after)
		if err != nil {
			return err
		}
		out.Event = &ev
		var view any = f
		if ch.View != nil {
			view = ch.View(f)
		}
		return db.recordFindingUpdated(tx, partnerID, FindingUpdatedData{JobID: j.ID, VersionID: v.ID, FindingID: f.ID,
			Finding: view, Changed: changedFields(before, after), Actor: actor})
	})
	return out, err
}

// AddExaminerFinding stores a finding a person made on a file of the
// partner's job (its version's scan complete): numbered after the
// version's last finding, disposition accepted, recorded in the audit
// trail in the same transaction. reply answers the request there too.
func (db *DB) AddExaminerFinding(partnerID, jobID string, f Finding, actor Actor, reply *Reply[ChangedFinding]) (ChangedFinding, error) {
	var out ChangedFinding
	f.ID = NewID(PrefixFinding)
	eventID := NewID(PrefixAudit)
	err := db.bolt.Batch(func(tx *bolt.Tx) error {
		out = ChangedFinding{}
		j, err := ownedJob(tx, partnerID, jobID)
		if err != nil {
			return err
		}
		var file File
		if err := getJSON(tx.Bucket(bucketFiles), f.FileID, &file); err != nil {
			return err
		}
		if file.JobID != j.ID {
			return ErrNotFound
		}
		var v Version
		if err := getJSON(tx.Bucket(bucketVersions), file.VersionID, &v); err != nil {
			return err
		}
		if v.Status != StatusComplete {
			return ErrScanNotComplete
		}
		if file.Status == FileRejected {
			return ErrNotFound
		}
		now := db.now().UTC()
		nf := f
		nf.Source = SourceExaminer
		nf.Disposition = &Disposition{Status: DispositionAccepted, Actor: &actor, UpdatedAt: &now}
		if v.Round != nil && v.Round.PreviousVersionID != nil {
			nf.Round = &FindingRound{Status: RoundNew, PreviousVersionID: v.Round.PreviousVersionID}
		}
		b := tx.Bucket(bucketFindings)
		prefix := indexKey(v.ID, "")
		next, number := uint32(0), 0
		c := b.Cursor()
		for k, raw := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, raw = c.Next() {
			next = binary.BigEndian.Uint32(k[len(prefix):]) + 1
			var n struct {
				Number int `json:"number"`
			}
			if err := unmarshal(raw, &n); err != nil {
				return err
			}
			number = max(number, n.Number)
		}
		nf.Number = number + 1
		raw, err := marshal(nf)
		if err != nil {
			return err
		}
		var seq [4]byte
		binary.BigEndian.PutUint32(seq[:], next)
		if err := b.Put(append(prefix, seq[:]...), raw); err != nil {
			return err
		}
		if v, err = touchFindings(tx, v, now, true); err != nil {
			return err
		}
		ev, err := appendAudit(tx, j.ID, AuditEvent{ID: eventID, At: now, Actor: actor, Action: ActionCreated,
			VersionID: v.ID, FindingID: nf.ID}, nil, stateOf(nf))
		if err != nil {
			return err
		}
		out = ChangedFinding{Finding: nf, Version: v, Event: &ev}
		return reply.answer(tx, out, now)
	})
	return out, err
}

// touchFindings moves a version's findings revision (the marked-up copies
// are drawn again for it) and, when severities changed, its counts.
func touchFindings(tx *bolt.Tx, v Version, now time.Time, recount bool) (Version, error) {
	v.FindingsRevision++
	if recount {
		findings, err := versionFindings(tx, v.ID)
		if err != nil {
			return v, err
		}
		v.FindingCounts = countFindings(findings)
	}
	return v, putJSON(tx.Bucket(bucketVersions), v.ID, v)
}

// findFinding locates a finding among a job's versions. Stored findings
// begin with their id (Finding's first field), so the search compares
// bytes and decodes one record.
func findFinding(tx *bolt.Tx, j Job, findingID string) (Version, []byte, Finding, error) {
	var f Finding
	head := []byte(`{"findingId":"` + findingID + `"`)
	b := tx.Bucket(bucketFindings)
	ids := versionIDs(tx, j.ID)
	for i := len(ids) - 1; i >= 0; i-- {
		prefix := indexKey(ids[i], "")
		c := b.Cursor()
		for k, raw := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, raw = c.Next() {
			if !bytes.HasPrefix(raw, head) {
				continue
			}
			var v Version
			if err := getJSON(tx.Bucket(bucketVersions), ids[i], &v); err != nil {
				return v, nil, f, err
			}
			if v.Status != StatusComplete {
				return v, nil, f, ErrScanNotComplete
			}
			err := unmarshal(raw, &f)
			return v, append([]byte(nil), k...), f, err
		}
	}
	// Not found: before the current version's scan finished its findings
	// cannot be acted on yet, which the client is told rather than 404.
	var current Version
	if err := getJSON(tx.Bucket(bucketVersions), j.CurrentVersionID, &current); err == nil && current.Status != StatusComplete {
		return current, nil, f, ErrScanNotComplete
	}
	return Version{}, nil, f, ErrNotFound
}

func versionFindings(tx *bolt.Tx, versionID string) ([]Finding, error) {
	var out []Finding
	prefix := indexKey(versionID, "")
	c := tx.Bucket(bucketFindings).Cursor()
	for k, raw := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, raw = c.Next() {
		var f Finding
		if err := unmarshal(raw, &f); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// appendAudit chains an event onto the job's trail and stores it.
func appendAudit(tx *bolt.Tx, jobID string, ev AuditEvent, before, after any) (AuditEvent, error) {
	b, err := tx.CreateBucketIfNotExists(bucketAudit)
	if err != nil {
		return ev, err
	}
	if ev.Before, err = rawOrNull(before); err != nil {
		return ev, err
	}
	if ev.After, err = rawOrNull(after); err != nil {
		return ev, err
	}
	prefix := indexKey(jobID, "")
	ev.PrevHash = GenesisHash
	seq := uint64(0)
	c := b.Cursor()
	if k, raw := c.Seek(append(slices.Clone(prefix), 0xff)); true {
		if k == nil {
			k, raw = c.Last()
		} else {
			k, raw = c.Prev()
		}
		if k != nil && bytes.HasPrefix(k, prefix) {
			var last AuditEvent
			if err := unmarshal(raw, &last); err != nil {
				return ev, err
			}
			ev.PrevHash = last.Hash
			seq = binary.BigEndian.Uint64(k[len(prefix):]) + 1
		}
	}
	if ev.Hash, err = AuditHash(ev); err != nil {
		return ev, err
	}
	raw, err := marshal(ev)
	if err != nil {
		return ev, err
	}
	var sk [8]byte
	binary.BigEndian.PutUint64(sk[:], seq)
	return ev, b.Put(append(prefix, sk[:]...), raw)
}

func rawOrNull(v any) (json.RawMessage, error) {
	if v == nil {
		return json.RawMessage("null"), nil
	}
	if s, ok := v.(FindingState); ok {
		return marshal(s)
	}
	return marshal(v)
}

// AuditQuery pages and filters a job's audit trail.
type AuditQuery struct {
	After     string // event id of the previous page's last event
	Limit     int
	FindingID string // only this finding's events
}

// Audit lists a partner's job's audit events, oldest first. next is the
// cursor of the following page, "" on the last.
func (db *DB) Audit(partnerID, jobID string, q AuditQuery) (events []AuditEvent, next string, err error) {
	if q.Limit <= 0 {
		q.Limit = 100
	}
	err = db.bolt.View(func(tx *bolt.Tx) error {
		if _, err := ownedJob(tx, partnerID, jobID); err != nil {
			return err
		}
		all, err := auditEvents(tx, jobID)
		if err != nil {
			return err
		}
		after := q.After == ""
		for _, ev := range all {
			if !after {
				after = ev.ID == q.After
				continue
			}
			if q.FindingID != "" && ev.FindingID != q.FindingID {
				continue
			}
			if len(events) == q.Limit {
				next = events[len(events)-1].ID
				return nil
			}
			events = append(events, ev)
		}
		return nil
	})
	return events, next, err
}

func auditEvents(tx *bolt.Tx, jobID string) ([]AuditEvent, error) {
	b := tx.Bucket(bucketAudit)
	if b == nil {
		return nil, nil
	}
	var out []AuditEvent
	prefix := indexKey(jobID, "")
	c := b.Cursor()
	for k, raw := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, raw = c.Next() {
		var ev AuditEvent
		if err := unmarshal(raw, &ev); err != nil {
			// A record that no longer decodes is a broken link, for the
			// verifier to name; listings stop at it.
			return out, &BrokenAuditError{Index: len(out), Reason: "the stored event is not valid JSON"}
		}
		out = append(out, ev)
	}
	return out, nil
}

// BrokenAuditError names the first event of a trail that does not verify.
type BrokenAuditError struct {
	Index   int // 0-based position in the trail
	EventID string
	Reason  string
}

func (e *BrokenAuditError) Error() string {
	id := e.EventID
	if id == "" {
		id = "(unreadable)"
	}
	return "audit event " + id + " is broken: " + e.Reason
}

// AuditVerification is the result of recomputing a job's hash chain.
type AuditVerification struct {
	JobID  string
	Events int
	Head   string // hash of the last event (GenesisHash for an empty trail)
	Broken *BrokenAuditError
}

// VerifyAudit recomputes a job's audit chain (any partner's: an operator
// command). ErrNotFound for an unknown job.
func (db *DB) VerifyAudit(jobID string) (AuditVerification, error) {
	res := AuditVerification{JobID: jobID, Head: GenesisHash}
	err := db.bolt.View(func(tx *bolt.Tx) error {
		if tx.Bucket(bucketJobs).Get([]byte(jobID)) == nil {
			return ErrNotFound
		}
		events, err := auditEvents(tx, jobID)
		var broken *BrokenAuditError
		if errors.As(err, &broken) {
			res.Broken = broken
		} else if err != nil {
			return err
		}
		prev := GenesisHash
		for i, ev := range events {
			res.Events = i + 1
			if ev.PrevHash != prev {
				res.Broken = &BrokenAuditError{Index: i, EventID: ev.ID, Reason: "prevHash does not match the hash of the event before it"}
				return nil
			}
			want, err := AuditHash(ev)
			if err != nil {
				return err
			}
			if want != ev.Hash {
				res.Broken = &BrokenAuditError{Index: i, EventID: ev.ID, Reason: "its content does not hash to its stored hash"}
				return nil
			}
			prev = ev.Hash
		}
		if res.Broken != nil && res.Broken.EventID == "" {
			res.Broken.Index = len(events)
			res.Events = len(events) + 1
		}
		res.Head = prev
		return nil
	})
	return res, err
}

// CreateTemplate stores one of a partner's comment templates.
func (db *DB) CreateTemplate(t CommentTemplate, reply *Reply[CommentTemplate]) (CommentTemplate, error) {
	t.ID = NewID(PrefixTemplate)
	t.CreatedAt = db.now().UTC()
	err := db.bolt.Batch(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketTemplates)
		if err != nil {
			return err
		}
		if err := putJSON(b, string(indexKey(t.PartnerID, t.ID)), t); err != nil {
			return err
		}
		return reply.answer(tx, t, t.CreatedAt)
	})
	return t, err
}

// Templates lists a partner's comment templates, oldest first.
func (db *DB) Templates(partnerID string) ([]CommentTemplate, error) {
	out := []CommentTemplate{}
	err := db.bolt.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketTemplates)
		if b == nil {
			return nil
		}
		prefix := indexKey(partnerID, "")
		c := b.Cursor()
		for k, raw := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, raw = c.Next() {
			var t CommentTemplate
			if err := unmarshal(raw, &t); err != nil {
				return err
			}
			t.PartnerID = partnerID
			out = append(out, t)
		}
		return nil
	})
	return out, err
}

// Template returns one of a partner's templates.
func (db *DB) Template(partnerID, templateID string) (CommentTemplate, error) {
	var t CommentTemplate
	err := db.bolt.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketTemplates)
		if b == nil {
			return ErrNotFound
		}
		return getJSON(b, string(indexKey(partnerID, templateID)), &t)
	})
	t.PartnerID = partnerID
	return t, err
}

// DeleteTemplate removes one of a partner's templates; comments made from
// it keep their text.
func (db *DB) DeleteTemplate(partnerID, templateID string) error {
	return db.bolt.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketTemplates)
		key := indexKey(partnerID, templateID)
		if b == nil || b.Get(key) == nil {
			return ErrNotFound
		}
		return b.Delete(key)
	})
}

// VersionFindings returns a version's findings without a partner check,
// for the signed download of its marked-up copy.
func (db *DB) VersionFindings(versionID string) (Version, []Finding, error) {
	var v Version
	var out []Finding
	err := db.bolt.View(func(tx *bolt.Tx) error {
		if err := getJSON(tx.Bucket(bucketVersions), versionID, &v); err != nil {
			return err
		}
		var err error
		out, err = versionFindings(tx, versionID)
		if err == nil {
			out, err = inContractOrder(tx, versionID, out)
		}
		return err
	})
	return v, out, err
}

// SetAnnotatedRevision records which findings revision a file's marked-up
// copy shows.
func (db *DB) SetAnnotatedRevision(fileID string, revision int) error {
	return db.bolt.Batch(func(tx *bolt.Tx) error {
		var f File
		if err := getJSON(tx.Bucket(bucketFiles), fileID, &f); err != nil {
			return err
		}
		if f.AnnotatedRevision == revision {
			return nil
		}
		f.AnnotatedRevision = revision
		return putJSON(tx.Bucket(bucketFiles), f.ID, f)
	})
}

var severityRank = map[string]int{"critical": 0, "high": 1, "medium": 2, "low": 3, "info": 4}

// inContractOrder sorts findings as the contract lists them (severity,
// then file in registration order, then page) once examiner comments,
// which are stored after the engine's, are among them. The engine stores
// its findings in that order already, and the sort is stable, so its own
// ties keep their order.
func inContractOrder(tx *bolt.Tx, versionID string, findings []Finding) ([]Finding, error) {
	if !slices.ContainsFunc(findings, func(f Finding) bool { return f.Source == SourceExaminer }) {
		return findings, nil
	}
	files, err := versionFiles(tx, versionID)
	if err != nil {
		return nil, err
	}
	order := map[string]int{}
	for i, f := range files {
		order[f.ID] = i
	}
	slices.SortStableFunc(findings, func(a, b Finding) int {
		if d := severityRank[a.Severity] - severityRank[b.Severity]; d != 0 {
			return d
		}
		if d := order[a.FileID] - order[b.FileID]; d != 0 {
			return d
		}
		return a.Sheet.Page - b.Sheet.Page
	})
	return findings, nil
}

// AuditHash is the hash an event must carry: hex SHA-256 of its PrevHash
// followed by its canonical JSON without hash (keys sorted by code point,
// no insignificant space, no HTML escaping), the bytes a verifier outside
// the appliance recomputes from the event as the API serves it.
func AuditHash(ev AuditEvent) (string, error) {
	raw, err := marshal(ev)
	if err != nil {
		return "", err
	}
	canonical, err := CanonicalJSON(raw, "hash")
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(append([]byte(ev.PrevHash), canonical...))
	return hex.EncodeToString(sum[:]), nil
}

// CanonicalJSON re-encodes a JSON object with sorted keys and no space,
// leaving out the top-level keys named in drop.
func CanonicalJSON(raw []byte, drop ...string) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	for _, k := range drop {
		delete(v, k)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
