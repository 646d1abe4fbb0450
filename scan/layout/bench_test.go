package layout

import (
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
