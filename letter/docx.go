package letter

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"io"
	"strconv"
	"strings"
	"time"
)

// WriteDOCX writes the letter as an Office Open XML document (ECMA-376,
// transitional WordprocessingML): the minimal package Word and LibreOffice
// open and edit (content types, relationships, document, styles, core
// properties). Headings use the built-in heading styles, so the navigation
// pane lists the sheets; items are numbered in the text, exactly as the PDF
// numbers them, with a hanging indent.
func (l Letter) WriteDOCX(w io.Writer) error {
	zw := zip.NewWriter(w)
	modified := l.Date
	if modified.IsZero() {
		modified = time.Now()
	}
	parts := []struct{ name, body string }{
		{"[Content_Types].xml", contentTypes},
		{"_rels/.rels", packageRels},
		{"docProps/core.xml", coreProps(l.Title()+" \u2014 "+l.JobName, modified)},
		{"docProps/app.xml", appProps},
		{"word/_rels/document.xml.rels", documentRels},
		{"word/styles.xml", styles},
		{"word/settings.xml", settings},
		{"word/document.xml", l.documentXML()},
	}
	for _, p := range parts {
		fw, err := zw.CreateHeader(&zip.FileHeader{Name: p.name, Method: zip.Deflate, Modified: modified.UTC()})
		if err != nil {
			return err
		}
		if _, err := io.WriteString(fw, p.body); err != nil {
			return err
		}
	}
	return zw.Close()
}

const xmlHeader = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n"

const contentTypes = xmlHeader + `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
	`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
	`<Default Extension="xml" ContentType="application/xml"/>` +
	`<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>` +
	`<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>` +
	`<Override PartName="/word/settings.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.settings+xml"/>` +
	`<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>` +
	`<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>` +
	`</Types>`

const packageRels = xmlHeader + `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
	`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>` +
	`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>` +
	`<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties" Target="docProps/app.xml"/>` +
	`</Relationships>`

const documentRels = xmlHeader + `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
	`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>` +
	`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/settings" Target="settings.xml"/>` +
	`</Relationships>`

const appProps = xmlHeader + `<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>planreview</Application></Properties>`

const settings = xmlHeader + `<w:settings xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:defaultTabStop w:val="720"/><w:compat><w:compatSetting w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word" w:val="15"/></w:compat></w:settings>`

func coreProps(title string, modified time.Time) string {
	stamp := modified.UTC().Format(time.RFC3339)
	return xmlHeader + `<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ` +
		`xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" ` +
		`xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">` +
		`<dc:title>` + esc(title) + `</dc:title><dc:creator>planreview</dc:creator>` +
		`<dcterms:created xsi:type="dcterms:W3CDTF">` + stamp + `</dcterms:created>` +
		`<dcterms:modified xsi:type="dcterms:W3CDTF">` + stamp + `</dcterms:modified></cp:coreProperties>`
}

// styles: the document defaults (Calibri-like sans at 10.5 pt) and the
// built-in style ids Word maps to its own Title and Heading 1/2.
const styles = xmlHeader + `<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">` +
	`<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Arial" w:hAnsi="Arial" w:cs="Arial" w:eastAsia="Arial"/><w:sz w:val="21"/><w:szCs w:val="21"/><w:lang w:val="en-US"/></w:rPr></w:rPrDefault>` +
	`<w:pPrDefault><w:pPr><w:spacing w:after="80" w:line="264" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults>` +
	`<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:qFormat/></w:style>` +
	`<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:qFormat/><w:pPr><w:spacing w:after="200"/></w:pPr><w:rPr><w:b/><w:sz w:val="34"/><w:szCs w:val="34"/></w:rPr></w:style>` +
	`<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:qFormat/><w:pPr><w:keepNext/><w:spacing w:before="280" w:after="80"/><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:b/><w:sz w:val="26"/><w:szCs w:val="26"/></w:rPr></w:style>` +
	`<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:qFormat/><w:pPr><w:keepNext/><w:spacing w:before="200" w:after="60"/><w:outlineLvl w:val="1"/></w:pPr><w:rPr><w:b/><w:sz w:val="23"/><w:szCs w:val="23"/></w:rPr></w:style>` +
	`<w:style w:type="paragraph" w:customStyle="1" w:styleId="CorrectionItem"><w:name w:val="Correction item"/><w:basedOn w:val="Normal"/><w:pPr><w:spacing w:before="100" w:after="40"/><w:ind w:left="560" w:hanging="560"/></w:pPr></w:style>` +
	`<w:style w:type="paragraph" w:customStyle="1" w:styleId="CodeReference"><w:name w:val="Code reference"/><w:basedOn w:val="Normal"/><w:pPr><w:ind w:left="560"/></w:pPr><w:rPr><w:color w:val="4D4D4D"/><w:sz w:val="18"/><w:szCs w:val="18"/></w:rPr></w:style>` +
	`<w:style w:type="paragraph" w:customStyle="1" w:styleId="Note"><w:name w:val="Note"/><w:basedOn w:val="Normal"/><w:rPr><w:color w:val="4D4D4D"/><w:sz w:val="18"/><w:szCs w:val="18"/></w:rPr></w:style>` +
	`</w:styles>`

func esc(s string) string {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(stripControls(s)))
	return b.String()
}

// stripControls drops characters XML 1.0 cannot carry.
func stripControls(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r != 0xFFFE && r != 0xFFFF {
			return r
		}
		return -1
	}, s)
}

type docxWriter struct{ b strings.Builder }

// para writes a paragraph of a style ("" for Normal) made of runs.
func (d *docxWriter) para(style string, runs ...run) {
	d.b.WriteString(`<w:p>`)
	if style != "" {
		d.b.WriteString(`<w:pPr><w:pStyle w:val="` + style + `"/></w:pPr>`)
	}
	for _, r := range runs {
		d.b.WriteString(`<w:r>`)
		if r.bold {
			d.b.WriteString(`<w:rPr><w:b/></w:rPr>`)
		}
		for i, line := range strings.Split(strings.ReplaceAll(r.text, "\r\n", "\n"), "\n") {
			if i > 0 {
				d.b.WriteString(`<w:br/>`)
			}
			d.b.WriteString(`<w:t xml:space="preserve">` + esc(line) + `</w:t>`)
		}
		if r.tab {
			d.b.WriteString(`<w:tab/>`)
		}
		d.b.WriteString(`</w:r>`)
	}
	d.b.WriteString(`</w:p>`)
}

type run struct {
	text      string
	bold, tab bool
}

func (l Letter) documentXML() string {
	d := &docxWriter{}
	d.b.WriteString(xmlHeader + `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`)
	d.para("Title", run{text: l.Title()})
	for _, h := range l.headerLines() {
		d.para("", run{text: h[0] + ": ", bold: true}, run{text: h[1]})
	}
	d.para("Heading1", run{text: "Code basis"})
	if len(l.CodeBasis) == 0 {
		d.para("Note", run{text: "No code basis was recorded for this review."})
	}
	for _, line := range l.CodeBasis {
		d.para("Note", run{text: "\u2022 " + line})
	}
	for _, sec := range l.Sections() {
		d.para("Heading1", run{text: sec.Heading})
		d.para("", run{text: sec.Intro})
		for _, g := range sec.Groups {
			d.para("Heading2", run{text: g.Heading})
			for _, it := range g.Items {
				d.para("CorrectionItem", run{text: strconv.Itoa(it.Number) + ".", bold: true, tab: true}, run{text: itemText(it)})
				if it.CodeReference != "" {
					d.para("CodeReference", run{text: "Code reference: " + it.CodeReference})
				}
			}
		}
	}
	if l.Previous != nil {
		d.para("Heading1", run{text: l.resolvedHeading()})
		if len(l.Resolved) == 0 {
			d.para("Note", run{text: "None of the earlier corrections is resolved yet."})
		}
		for _, g := range l.Resolved {
			d.para("", run{text: g.Heading, bold: true})
			for _, it := range g.Items {
				d.para("", run{text: "\u2022 " + it.Title})
			}
		}
	}
	if len(l.Pending) > 0 {
		d.para("Heading1", run{text: "Not yet decided (not part of this letter's corrections)"})
		d.para("Note", run{text: pendingIntro})
		for _, g := range l.Pending {
			d.para("", run{text: g.Heading, bold: true})
			for _, it := range g.Items {
				text := "\u2022 " + it.Title
				if it.CodeReference != "" {
					text += " (" + it.CodeReference + ")"
				}
				d.para("", run{text: text})
			}
		}
	}
	// Letter paper, one-inch margins, and the footer text as the last line.
	d.para("Note", run{text: l.footer()})
	d.b.WriteString(`<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>`)
	d.b.WriteString(`</w:body></w:document>`)
	return d.b.String()
}
