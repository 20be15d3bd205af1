package ui

import (
	"strings"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/stats"
)

// openStats shows the per-tool statistics of the session's tools/call
// exchanges so far, as jig stats prints them for a recording: calls,
// error and isError rates, latency and size quantiles, and per argument
// shape each field's cardinality, numbers and values.
func (m *Model) openStats() {
	text := sessionStats(m.env.reader)
	m.openOverlay(newTextOverlay(m.st(), "Statistics", m.env.out, m.env.redact, func(w int) (*doc, []string) {
		return nil, wrapLines(m.env.redact.String(text), w)
	}))
}

// sessionStats is the text of the statistics of r's tools/call exchanges.
func sessionStats(r frames.Reader) string {
	c := stats.New(stats.Options{})
	feed := c.Session()
	for i := range r.Len() {
		f := *r.Frame(i)
		if f.Raw == nil {
			body, err := r.Body(i)
			if err != nil {
				continue
			}
			f.Raw = body
		}
		feed.Add(&f)
	}
	feed.Close()
	var b strings.Builder
	rep := c.Report("")
	if len(rep.Tools) == 0 {
		return "No tools/call exchange in this session yet: call a tool, then press S again."
	}
	rep.WriteText(&b)
	b.WriteString("\nThe same over recordings: jig stats FILE...; against a baseline: jig drift.")
	return b.String()
}
