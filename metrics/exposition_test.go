package metrics

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// parsed is a scrape read back by parseExposition.
type parsed struct {
	types  map[string]string  // family name: kind
	help   map[string]string  // family name: help text, unescaped
	values map[string]float64 // sample name and labels as written ("a{b=\"c\"}"): value
	series []parsedSample
}

type parsedSample struct {
	family, name string
	labels       [][2]string // name, unescaped value; in written order
	value        float64
}

var (
	metricName = regexp.MustCompile(`^[a-zA-Z_:][a-zA-Z0-9_:]*$`)
	labelName  = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)
)

// parseExposition reads a text-format (0.0.4) exposition line by line,
// independently of the writer, and reports whatever breaks the format or
// what Prometheus expects of it: names, HELP and TYPE once per family and
// before its samples, every sample under the family its TYPE announced
// (with the suffixes its kind allows), families contiguous and sorted,
// series sorted and unique, label escapes, histogram buckets cumulative
// and ending in +Inf with _count equal to the +Inf bucket.
func parseExposition(t testing.TB, body string) parsed {
	t.Helper()
	p := parsed{types: map[string]string{}, help: map[string]string{}, values: map[string]float64{}}
	if body == "" || !strings.HasSuffix(body, "\n") {
		t.Errorf("exposition is empty or does not end in a newline")
		return p
	}
	var family, lastFamily string
	var lastSeries []string // label values of the family's previous series (le, quantile aside)
	closed := map[string]bool{}
	for n, line := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
		bad := func(format string, args ...any) {
			t.Errorf("line %d %q: %s", n+1, line, fmt.Sprintf(format, args...))
		}
		if rest, ok := strings.CutPrefix(line, "# "); ok {
			keyword, rest, _ := strings.Cut(rest, " ")
			name, text, _ := strings.Cut(rest, " ")
			if !metricName.MatchString(name) {
				bad("invalid metric name %q", name)
			}
			if name != family {
				if family != "" {
					closed[family] = true
				}
				if closed[name] {
					bad("family %s is not contiguous", name)
				}
				if name < lastFamily {
					bad("family %s after %s: not sorted", name, lastFamily)
				}
				family, lastFamily, lastSeries = name, name, nil
			}
			switch keyword {
			case "HELP":
				if _, dup := p.help[name]; dup {
					bad("second HELP")
				}
				help, err := unescape(text, false)
				if err != nil || help == "" {
					bad("help text: %v", err)
				}
				p.help[name] = help
			case "TYPE":
				if _, dup := p.types[name]; dup {
					bad("second TYPE")
				}
				switch text {
				case kindCounter, kindGauge, kindHistogram, kindSummary:
				default:
					bad("unknown type %q", text)
				}
				p.types[name] = text
			default:
				bad("a comment that is neither HELP nor TYPE")
			}
			continue
		}

		s, raw, err := parseSample(line)
		if err != nil {
			bad("%v", err)
			continue
		}
		kind, typed := p.types[family]
		if !typed {
			bad("sample before any # TYPE of its family")
			continue
		}
		suffix, ok := strings.CutPrefix(s.name, family)
		allowed := map[string][]string{kindCounter: {""}, kindGauge: {""},
			kindHistogram: {"_bucket", "_sum", "_count"}, kindSummary: {"", "_sum", "_count"}}[kind]
		if !ok || !slices.Contains(allowed, suffix) {
			bad("sample %s does not belong to family %s (%s)", s.name, family, kind)
			continue
		}
		s.family = family
		if _, dup := p.values[s.name+raw]; dup {
			bad("duplicate series")
		}
		p.values[s.name+raw] = s.value
		p.series = append(p.series, s)

		var names, values []string
		for i, l := range s.labels {
			if !labelName.MatchString(l[0]) || strings.HasPrefix(l[0], "__") {
				bad("invalid label name %q", l[0])
			}
			special := (kind == kindHistogram && l[0] == "le") || (kind == kindSummary && l[0] == "quantile")
			if special {
				if i != len(s.labels)-1 {
					bad("%s is not the last label", l[0])
				}
				continue
			}
			names, values = append(names, l[0]), append(values, l[1])
		}
		if !slices.IsSorted(names) || len(slices.Compact(slices.Clone(names))) != len(names) {
			bad("label names not sorted or repeated: %v", names)
		}
		if slices.Compare(values, lastSeries) < 0 {
			bad("series %v after %v: not sorted", values, lastSeries)
		}
		lastSeries = values
	}
	for name := range p.types {
		if !slices.ContainsFunc(p.series, func(s parsedSample) bool { return s.family == name }) {
			t.Errorf("family %s has a TYPE but no samples", name)
		}
	}
	checkHistograms(t, p)
	return p
}

// parseSample reads name{labels} value; raw is the label part as written.
func parseSample(line string) (s parsedSample, raw string, err error) {
	i := strings.IndexAny(line, "{ ")
	if i < 0 {
		return s, "", fmt.Errorf("no value")
	}
	s.name = line[:i]
	if !metricName.MatchString(s.name) {
		return s, "", fmt.Errorf("invalid metric name %q", s.name)
	}
	rest := line[i:]
	if strings.HasPrefix(rest, "{") {
		pos := 1
		for {
			eq := strings.IndexByte(rest[pos:], '=')
			if eq < 0 || len(rest) < pos+eq+2 || rest[pos+eq+1] != '"' {
				return s, "", fmt.Errorf("label without =\"")
			}
			name := rest[pos : pos+eq]
			pos += eq + 2
			var value strings.Builder
			for {
				if pos >= len(rest) {
					return s, "", fmt.Errorf("unterminated label value")
				}
				c := rest[pos]
				if c == '"' {
					break
				}
				if c == '\\' {
					if pos+1 >= len(rest) {
						return s, "", fmt.Errorf("escape at the end")
					}
					switch rest[pos+1] {
					case '\\':
						value.WriteByte('\\')
					case '"':
						value.WriteByte('"')
					case 'n':
						value.WriteByte('\n')
					default:
						return s, "", fmt.Errorf("unknown escape \\%c", rest[pos+1])
					}
					pos += 2
					continue
				}
				if c == '\n' {
					return s, "", fmt.Errorf("raw newline in a label value")
				}
				value.WriteByte(c)
				pos++
			}
			s.labels = append(s.labels, [2]string{name, value.String()})
			pos++ // the closing quote
			if pos < len(rest) && rest[pos] == ',' {
				pos++
				continue
			}
			if pos < len(rest) && rest[pos] == '}' {
				pos++
				break
			}
			return s, "", fmt.Errorf("label list not closed")
		}
		raw, rest = rest[:pos], rest[pos:]
	}
	value, ok := strings.CutPrefix(rest, " ")
	if !ok || strings.Contains(value, " ") {
		return s, "", fmt.Errorf("want one space and a value (no timestamp)")
	}
	if s.value, err = strconv.ParseFloat(value, 64); err != nil {
		return s, "", fmt.Errorf("value %q: %v", value, err)
	}
	if math.IsInf(s.value, 0) && value != "+Inf" && value != "-Inf" || math.IsNaN(s.value) && value != "NaN" {
		return s, "", fmt.Errorf("value %q is not written as Prometheus does", value)
	}
	return s, raw, nil
}

// checkHistograms: per histogram series, le bounds rise and end in +Inf,
// counts are cumulative, and _count is the +Inf bucket; _sum is there.
func checkHistograms(t testing.TB, p parsed) {
	t.Helper()
	type hist struct {
		bounds, counts []float64
		sum, count     *float64
	}
	byKey := map[string]*hist{}
	var order []string
	for _, s := range p.series {
		if p.types[s.family] != kindHistogram {
			continue
		}
		var key []string
		le := ""
		for _, l := range s.labels {
			if l[0] == "le" {
				le = l[1]
				continue
			}
			key = append(key, l[0]+"="+l[1])
		}
		k := s.family + "{" + strings.Join(key, ",") + "}"
		h := byKey[k]
		if h == nil {
			h = &hist{}
			byKey[k] = h
			order = append(order, k)
		}
		v := s.value
		switch strings.TrimPrefix(s.name, s.family) {
		case "_bucket":
			bound, err := strconv.ParseFloat(le, 64)
			if err != nil || (math.IsInf(bound, 1) && le != "+Inf") {
				t.Errorf("%s: le %q", k, le)
			}
			h.bounds, h.counts = append(h.bounds, bound), append(h.counts, v)
		case "_sum":
			h.sum = &v
		case "_count":
			h.count = &v
		}
	}
	for _, k := range order {
		h := byKey[k]
		switch {
		case len(h.bounds) == 0 || !math.IsInf(h.bounds[len(h.bounds)-1], 1):
			t.Errorf("%s: buckets do not end in +Inf: %v", k, h.bounds)
		case !slices.IsSorted(h.counts):
			t.Errorf("%s: bucket counts not cumulative: %v", k, h.counts)
		case h.sum == nil || h.count == nil:
			t.Errorf("%s: no _sum or _count", k)
		case *h.count != h.counts[len(h.counts)-1]:
			t.Errorf("%s: _count %v, +Inf bucket %v", k, *h.count, h.counts[len(h.counts)-1])
		}
		for i := 1; i < len(h.bounds); i++ {
			if h.bounds[i] <= h.bounds[i-1] {
				t.Errorf("%s: le bounds do not rise: %v", k, h.bounds)
				break
			}
		}
	}
}

// unescape undoes the HELP (\\, \n) or label value (also \") escapes.
func unescape(s string, quote bool) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 == len(s) {
			return "", fmt.Errorf("escape at the end")
		}
		i++
		switch s[i] {
		case '\\':
			b.WriteByte('\\')
		case 'n':
			b.WriteByte('\n')
		case '"':
			if !quote {
				return "", fmt.Errorf("\\\" in help text")
			}
			b.WriteByte('"')
		default:
			return "", fmt.Errorf("unknown escape \\%c", s[i])
		}
	}
	return b.String(), nil
}

// TestExpositionParses: a scrape with every family recorded, odd label
// values included, reads back under a strict, separate parser, and the
// values come back as recorded.
func TestExpositionParses(t *testing.T) {
	m := New("v1.0.0 \"quoted\"", func() (int, int, error) { return 2, 1, nil })
	awkward := "a \"quoted\" \\path\\\nwith a newline"
	m.Request(awkward, "GET", 200, 2*time.Millisecond)
	m.Request("/api/v1/jobs", "POST", 201, 30*time.Millisecond)
	m.Request("/api/v1/jobs", "GET", 200, 400*time.Second) // above every bound
	m.Request("/api/v1/jobs", "GET", 200, 500*time.Microsecond)
	m.Request("bad \xff utf-8", "GET", 404, time.Millisecond)
	m.UploadBytes(123456789)
	m.ScanStarted()
	m.StageEnded("extracting", 1500*time.Millisecond)
	m.ModelCall("review", "ok", 3*time.Second)
	m.CertificateExpiry(func() time.Time { return time.Unix(1_900_000_000, 0) })
	m.Webhooks(func() (int64, int64, int64, error) { return 1, 2, 3, nil }).WebhookAttempt("failed", 10*time.Second)

	_, _, body := get(t, m)
	p := parseExposition(t, body)

	var routes []string
	for _, s := range p.series {
		if s.name == "planreview_http_request_duration_seconds_count" {
			for _, l := range s.labels {
				if l[0] == "route" {
					routes = append(routes, l[1])
				}
			}
		}
	}
	if !slices.Contains(routes, awkward) || !slices.Contains(routes, "bad \uFFFD utf-8") {
		t.Errorf("label values did not round-trip: %q", routes)
	}
	for key, want := range map[string]float64{
		`planreview_upload_bytes_total`:                      123456789,
		`planreview_scans_running`:                           1,
		`planreview_build_info{version="v1.0.0 \"quoted\""}`: 1,
		`planreview_http_request_duration_seconds_bucket{method="GET",route="/api/v1/jobs",status="200",le="0.0005"}`: 1,
		`planreview_http_request_duration_seconds_bucket{method="GET",route="/api/v1/jobs",status="200",le="300"}`:    1,
		`planreview_http_request_duration_seconds_bucket{method="GET",route="/api/v1/jobs",status="200",le="+Inf"}`:   2,
		`planreview_http_request_duration_seconds_sum{method="GET",route="/api/v1/jobs",status="200"}`:                400.0005,
		`planreview_tls_certificate_expiry_timestamp_seconds`:                                                         1.9e9,
		`planreview_webhook_attempt_duration_seconds_bucket{outcome="failed",le="5"}`:                                 0,
		`planreview_webhook_attempt_duration_seconds_bucket{outcome="failed",le="10"}`:                                1,
		`planreview_scan_stage_duration_seconds_count{stage="extracting"}`:                                            1,
	} {
		if got, ok := p.values[key]; !ok || got != want {
			t.Errorf("%s = %v (present %v), want %v", key, got, ok, want)
		}
	}
	if p.help["planreview_http_request_duration_seconds"] != requestsDesc.help || p.types["go_gc_duration_seconds"] != kindSummary {
		t.Errorf("HELP or TYPE lines did not read back")
	}

	// Help text with a backslash and a newline is escaped too.
	d := desc{name: "x", kind: kindGauge, help: "a \\ b\nc \"d\""}
	var s scrape
	s.gaugeValue(&d, 1)
	if got := string(s.render(0)); got != "# HELP x a \\\\ b\\nc \"d\"\n# TYPE x gauge\nx 1\n" {
		t.Errorf("help escaping: %q", got)
	}
}

// TestRecordingWhileScraping: many goroutines record into new and existing
// series while others scrape; every scrape parses, and at the end every
// observation is counted once. Run with -race.
func TestRecordingWhileScraping(t *testing.T) {
	m := New("v", func() (int, int, error) { return 0, 0, nil })
	w := m.Webhooks(func() (int64, int64, int64, error) { return 0, 0, 0, nil })
	routes := []string{"/a", "/b", "/c", "/d", "/e", "/f", "/g"}
	statuses := []int{200, 201, 404, 429, 500, 1000}
	const recorders, each = 8, 3000

	// Two scrapers take 20 scrapes each while the recorders run; the
	// recorders go on until both are done.
	const scrapesEach = 20
	var scrapers sync.WaitGroup
	var scrapersDone atomic.Bool
	for range 2 {
		scrapers.Add(1)
		go func() {
			defer scrapers.Done()
			for range scrapesEach {
				_, _, body := get(t, m)
				parseExposition(t, body)
			}
		}()
	}
	go func() { scrapers.Wait(); scrapersDone.Store(true) }()
	var recorded atomic.Int64
	var wg sync.WaitGroup
	for g := range recorders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each || !scrapersDone.Load(); i++ {
				m.Request(routes[(g+i)%len(routes)], "GET", statuses[(g*7+i)%len(statuses)], time.Millisecond)
				m.UploadBytes(3)
				m.Refused("rate_limited", "key")
				m.ScanStarted()
				m.ScanEnded("complete", "", time.Second)
				w.WebhookAttempt("delivered", time.Millisecond)
				recorded.Add(1)
			}
		}()
	}
	wg.Wait()

	_, _, body := get(t, m)
	p := parseExposition(t, body)
	var requests, bucketInf float64
	for _, s := range p.series {
		switch s.name {
		case "planreview_http_request_duration_seconds_count":
			requests += s.value
		case "planreview_http_request_duration_seconds_bucket":
			if s.labels[len(s.labels)-1][1] == "+Inf" {
				bucketInf += s.value
			}
		}
	}
	total := float64(recorded.Load())
	for name, got := range map[string]float64{
		"requests":          requests,
		"+Inf buckets":      bucketInf,
		"upload bytes / 3":  p.values["planreview_upload_bytes_total"] / 3,
		"refusals":          p.values[`planreview_refusals_total{code="rate_limited",limit="key"}`],
		"scans":             p.values[`planreview_scans_total{code="",outcome="complete"}`],
		"webhook attempts":  p.values[`planreview_webhook_attempts_total{outcome="delivered"}`],
		"scan duration n":   p.values[`planreview_scan_duration_seconds_count{outcome="complete"}`],
		"scan duration sum": p.values[`planreview_scan_duration_seconds_sum{outcome="complete"}`],
		"running + total":   p.values["planreview_scans_running"] + total,
	} {
		if got != total {
			t.Errorf("%s: %v, want %v", name, got, total)
		}
	}
	if n := len(routesIn(p)); n != len(routes)*len(statuses) {
		t.Errorf("%d request series, want %d", n, len(routes)*len(statuses))
	}
}

// routesIn is the distinct (route, status) pairs of the request family.
func routesIn(p parsed) map[string]bool {
	out := map[string]bool{}
	for _, s := range p.series {
		if s.name == "planreview_http_request_duration_seconds_count" {
			out[s.labels[1][1]+" "+s.labels[2][1]] = true
		}
	}
	return out
}
