package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

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
		return nil, wrapStats(m.env.redact.String(text), w)
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

// wrapStats wraps the statistics' lines to w cells, each under its own
// indentation: a field's line continues under its value column (where
// there is room beside the paths), any other under its first word, so the
// tools, shapes and fields stay apart in a narrow terminal.
func wrapStats(text string, w int) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if ansi.StringWidth(line) <= w || w < 30 {
			out = append(out, wrapLines(line, w)...)
			continue
		}
		lead := len(line) - len(strings.TrimLeft(line, " "))
		head, body, hang := line[:lead], line[lead:], lead+4
		if i := strings.Index(body, "  "); i > 0 {
			col := lead + i + len(body[i:]) - len(strings.TrimLeft(body[i:], " "))
			if col <= w/2 {
				head, body, hang = line[:col], line[col:], col
			}
		}
		rows := strings.Split(ansi.Wrap(body, w-hang, ""), "\n")
		out = append(out, head+rows[0])
		for _, r := range rows[1:] {
			out = append(out, strings.Repeat(" ", hang)+r)
		}
	}
	return out
}
