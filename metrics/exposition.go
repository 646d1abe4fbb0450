package metrics

import (
	"bytes"
	"compress/gzip"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// contentType is the Prometheus text exposition format, version 0.0.4:
// what every Prometheus server and scraping agent reads.
const contentType = "text/plain; version=0.0.4; charset=utf-8"

// Kinds of metric family, as the # TYPE line names them.
const (
	kindCounter   = "counter"
	kindGauge     = "gauge"
	kindHistogram = "histogram"
	kindSummary   = "summary"
)

// desc names a metric family: its full name, help text, kind and label
// names (in the order a series' label values come in).
type desc struct {
	name   string
	help   string
	kind   string
	labels []string
}

// series is one labelled member of a family: a value (counter, gauge), a
// histogram, or a summary's quantiles with its sum and count.
type series struct {
	labels    []string // values, in the order of desc.labels
	value     float64
	histogram *histogramSnapshot
	summary   *summarySnapshot
}

type summarySnapshot struct {
	quantiles []float64 // the quantiles' ranks, ascending
	values    []float64
	sum       float64
	count     uint64
}

// scrape gathers the families of one scrape.
type scrape struct{ families []family }

type family struct {
	desc *desc
	rows []series
}

// add records a family's series; a family without series is left out of
// the scrape, as a vector nothing has recorded into yet.
func (s *scrape) add(d *desc, rows ...series) {
	if len(rows) > 0 {
		s.families = append(s.families, family{d, rows})
	}
}

// gaugeValue is a family of one unlabelled gauge.
func (s *scrape) gaugeValue(d *desc, v float64) { s.add(d, series{value: v}) }

// render writes the families in the text format: sorted by name, and the
// series of each by their label values (labels in name order), so two
// scrapes list the same series in the same order. sizeHint is the
// expected length (the previous scrape's), so the text is not regrown.
func (s *scrape) render(sizeHint int) []byte {
	slices.SortFunc(s.families, func(a, b family) int { return strings.Compare(a.desc.name, b.desc.name) })
	b := make([]byte, 0, sizeHint)
	for _, f := range s.families {
		b = f.render(b)
	}
	return b
}

func (f family) render(b []byte) []byte {
	d := f.desc
	b = append(b, "# HELP "...)
	b = append(b, d.name...)
	b = append(b, ' ')
	b = appendEscaped(b, d.help, false)
	b = append(b, "\n# TYPE "...)
	b = append(b, d.name...)
	b = append(b, ' ')
	b = append(b, d.kind...)
	b = append(b, '\n')

	// Label names in sorted order, as Prometheus' own clients write them.
	order := make([]int, len(d.labels))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int { return strings.Compare(d.labels[i], d.labels[j]) })
	slices.SortFunc(f.rows, func(x, y series) int {
		for _, i := range order {
			if c := strings.Compare(x.labels[i], y.labels[i]); c != 0 {
				return c
			}
		}
		return 0
	})

	for _, r := range f.rows {
		switch {
		case r.histogram != nil:
			h := r.histogram
			for i, n := range h.cumulative {
				le := math.Inf(1)
				if i < len(h.upper) {
					le = h.upper[i]
				}
				b = appendSample(b, d.name, "_bucket", d.labels, order, r.labels, "le", le, float64(n))
			}
			b = appendSample(b, d.name, "_sum", d.labels, order, r.labels, "", 0, h.sum)
			b = appendSample(b, d.name, "_count", d.labels, order, r.labels, "", 0, float64(h.cumulative[len(h.cumulative)-1]))
		case r.summary != nil:
			q := r.summary
			for i, rank := range q.quantiles {
				b = appendSample(b, d.name, "", d.labels, order, r.labels, "quantile", rank, q.values[i])
			}
			b = appendSample(b, d.name, "_sum", d.labels, order, r.labels, "", 0, q.sum)
			b = appendSample(b, d.name, "_count", d.labels, order, r.labels, "", 0, float64(q.count))
		default:
			b = appendSample(b, d.name, "", d.labels, order, r.labels, "", 0, r.value)
		}
	}
	return b
}

// appendSample writes one sample line: name and suffix, the labels in the
// given order, then extra (le or quantile) with its number, if any.
func appendSample(b []byte, name, suffix string, names []string, order []int, values []string, extra string, extraValue, v float64) []byte {
	b = append(b, name...)
	b = append(b, suffix...)
	if len(order) > 0 || extra != "" {
		b = append(b, '{')
		for n, i := range order {
			if n > 0 {
				b = append(b, ',')
			}
			b = appendLabel(b, names[i], values[i])
		}
		if extra != "" {
			if len(order) > 0 {
				b = append(b, ',')
			}
			b = append(b, extra...)
			b = append(b, `="`...)
			b = appendFloat(b, extraValue)
			b = append(b, '"')
		}
		b = append(b, '}')
	}
	b = append(b, ' ')
	b = appendFloat(b, v)
	return append(b, '\n')
}

func appendLabel(b []byte, name, value string) []byte {
	b = append(b, name...)
	b = append(b, `="`...)
	if !utf8.ValidString(value) {
		// The format is UTF-8; a stray byte must not make the scrape unreadable.
		value = strings.ToValidUTF8(value, "\uFFFD")
	}
	b = appendEscaped(b, value, true)
	return append(b, '"')
}

// appendEscaped escapes a backslash and a newline (help text and label
// values) and, in a label value, a double quote.
func appendEscaped(b []byte, s string, quote bool) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			b = append(b, `\\`...)
		case c == '\n':
			b = append(b, `\n`...)
		case c == '"' && quote:
			b = append(b, `\"`...)
		default:
			b = append(b, c)
		}
	}
	return b
}

// appendFloat writes a number as Prometheus does: shortest 'g' form
// (1234, 0.005, 1.7e+09) and +Inf, -Inf, NaN.
func appendFloat(b []byte, f float64) []byte {
	switch {
	case math.IsInf(f, 1):
		return append(b, "+Inf"...)
	case math.IsInf(f, -1):
		return append(b, "-Inf"...)
	case math.IsNaN(f):
		return append(b, "NaN"...)
	}
	return strconv.AppendFloat(b, f, 'g', -1, 64)
}

// serve answers a scrape: the whole exposition, gzipped when the scraper
// accepts it (Prometheus does; a scrape shrinks 4 to 20 times).
func serve(w http.ResponseWriter, r *http.Request, body []byte) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Add("Vary", "Accept-Encoding")
	if acceptsGzip(r.Header.Get("Accept-Encoding")) {
		var buf bytes.Buffer
		gz, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
		gz.Write(body)
		gz.Close()
		h.Set("Content-Encoding", "gzip")
		body = buf.Bytes()
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// acceptsGzip reports whether an Accept-Encoding header lists gzip (or *)
// without q=0.
func acceptsGzip(header string) bool {
	for part := range strings.SplitSeq(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.TrimSpace(coding)
		if !strings.EqualFold(coding, "gzip") && coding != "*" {
			continue
		}
		q := 1.0
		for p := range strings.SplitSeq(params, ";") {
			if k, v, ok := strings.Cut(strings.TrimSpace(p), "="); ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				}
			}
		}
		return q > 0
	}
	return false
}
