package sheets

import "planreview/scan/pdftext"

// ReadFields reads one page's title-block fields by caption, without the
// set-level decisions of ReadSet (numbering scheme, titles, document type,
// jurisdiction hints): what the chat index needs, at a fraction of the
// cost.
func ReadFields(p *pdftext.Page) []Field {
	if p == nil || len(p.Words) == 0 {
		return nil
	}
	phrases := phrasesOf(p, pageRuns(p))
	return readFields(p, phrases, findCaptions(p, phrases))
}
