package layout

import (
	"path/filepath"
	"testing"

	"planreview/scan/pdftext"
)

// BenchmarkAnalyzeCorpus times layout.Analyze alone over every page of the
// real corpus (extracted once), beside BenchmarkExtractCorpus, the
// extraction of the same files: go test ./scan/layout -run '^$' -bench Corpus
func BenchmarkAnalyzeCorpus(b *testing.B) {
	var pages []*pdftext.Page
	for _, path := range corpusFiles(b) {
		pages = append(pages, corpusPages(b, path)...)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range pages {
			Analyze(p)
		}
	}
	b.ReportMetric(float64(len(pages)), "pages")
}

// BenchmarkExtractCorpus extracts every page of the real corpus.
func BenchmarkExtractCorpus(b *testing.B) {
	files := corpusFiles(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, path := range files {
			corpusPages(b, path)
		}
	}
}

// BenchmarkOutlinedCorpus times the search for outlined text, as Analyze
// runs it, on sets of many small strokes (stroked notes; a detailed
// plan's 66,000 on one sheet): go test ./scan/layout -run '^$' -bench
// OutlinedCorpus; BenchmarkExtractCorpus is the reference.
func BenchmarkOutlinedCorpus(b *testing.B) {
	for _, name := range []string{"ca_calgary_sample_dp_bp_house_26p.pdf", "us_ct_kent_substance_abuse_center_plumbing_cd_addendum1_3sh.pdf",
		"de_karlsruhe_carehome_ground_floor.pdf", "us_va_stcloud_bldg28_renovation_cds.pdf"} {
		pages := corpusPages(b, filepath.Join(corpusDir, name))
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				for _, p := range pages {
					PartlyOutlined(p)
				}
			}
		})
	}
}
