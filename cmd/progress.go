package cmd

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// progressBar draws scan progress on a terminal and stays silent when the
// output is a pipe or file, so logs and CI output stay clean.
type progressBar struct {
	w        io.Writer
	on       bool
	stage    string
	lastDraw time.Time
}

func newProgressBar(w io.Writer) *progressBar {
	f, ok := w.(*os.File)
	on := false
	if ok {
		if st, err := f.Stat(); err == nil {
			on = st.Mode()&os.ModeCharDevice != 0
		}
	}
	return &progressBar{w: w, on: on}
}

func (p *progressBar) Stage(name string) {
	p.stage = name
	p.draw(fmt.Sprintf("%-12s", name), true)
}

func (p *progressBar) Pages(done, total int) {
	const width = 30
	filled := 0
	if total > 0 {
		filled = done * width / total
	}
	p.draw(fmt.Sprintf("%-12s [%s%s] %d/%d pages", p.stage, strings.Repeat("#", filled),
		strings.Repeat(".", width-filled), done, total), done == total)
}

func (p *progressBar) draw(line string, force bool) {
	if !p.on || (!force && time.Since(p.lastDraw) < 100*time.Millisecond) {
		return
	}
	p.lastDraw = time.Now()
	fmt.Fprintf(p.w, "\r\033[K%s", line)
}

func (p *progressBar) done() {
	if p.on {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
