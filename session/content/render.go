package content

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/schema"
)

// A Role says what a rendered line is, so that the TUI can style it and the
// CLI can print it plain; meaning never rests on the style alone (every
// line carries its glyph or word).
type Role uint8

const (
	Plain     Role = iota
	Heading        // a block's title: "[0] text · 12 B"
	Label          // a section: "structuredContent"
	Muted          // an aside
	OK             // "✓ structuredContent matches the tool's outputSchema"
	Warn           // a problem worth a look
	Error          // the result is not what its method answers with
	Partial        // the result says it is incomplete
	Violation      // a schema violation
)

// A Writer receives a rendering: short lines with a role, and bodies (a
// text block, pretty-printed JSON) drawn as they are, however long.
type Writer interface {
	Line(r Role, text string)
	Body(b []byte)
}

// RenderTool renders a tools/call result: the partial flags, each content
// block by type, structuredContent checked against output (the tool's
// outputSchema, nil when it declares none), and _meta. It reports whether
// the result says it is partial.
func RenderTool(w Writer, raw, output json.RawMessage) (partial bool) {
	r, err := DecodeToolResult(raw)
	if err != nil {
		notDecoded(w, err, raw)
		return false
	}
	r.Render(w, output)
	return len(r.Partial) > 0
}

// Render draws the result; output is the tool's outputSchema, or nil.
func (r *ToolResult) Render(w Writer, output json.RawMessage) {
	if len(r.Partial) > 0 {
		w.Line(Partial, " ⚠ PARTIAL RESULT: "+strings.Join(r.Partial, ", ")+" — this is not the complete set ")
	}
	w.Line(Plain, "")
	w.Line(Label, count(len(r.Content), "content: %d block", "content: %d blocks"))
	for i, b := range r.Content {
		b.render(w, i)
	}
	if !isNull(r.StructuredContent) {
		w.Line(Plain, "")
		w.Line(Label, "structuredContent")
		body(w, r.StructuredContent)
	}
	if !isNull(output) {
		w.Line(Plain, "")
		r.checkOutput(w, output)
	}
	meta(w, "_meta", r.Meta)
}

// checkOutput says whether structuredContent matches the outputSchema.
func (r *ToolResult) checkOutput(w Writer, output json.RawMessage) {
	switch {
	case isNull(r.StructuredContent) && r.IsError:
		w.Line(Muted, "outputSchema: not checked (isError results need no structuredContent)")
	case isNull(r.StructuredContent):
		w.Line(Violation, "✗ the tool declares an outputSchema but the result has no structuredContent")
	default:
		vs, err := schema.Validate(output, r.StructuredContent)
		switch {
		case err != nil:
			w.Line(Warn, "! the outputSchema does not compile: "+err.Error())
		case len(vs) == 0:
			w.Line(OK, "✓ structuredContent matches the tool's outputSchema")
		default:
			w.Line(Violation, fmt.Sprintf("✗ structuredContent violates the tool's outputSchema (%d):", len(vs)))
			for _, v := range vs {
				w.Line(Violation, "  "+v.String())
			}
		}
	}
}

// render draws block i by its type; a type jig does not know is shown as
// sent.
func (b *Block) render(w Writer, i int) {
	switch b.Type {
	case "text":
		text, isJSON := JSONText(b.Text)
		kind := "text"
		if isJSON {
			kind = "text (JSON, pretty-printed)"
		}
		w.Line(Heading, fmt.Sprintf("[%d] %s · %s", i, kind, frames.HumanSize(len(b.Text))))
		w.Body(text)
	case "image", "audio":
		w.Line(Heading, fmt.Sprintf("[%d] %s · %s · %s decoded (%s base64)", i, b.Type, orUnknown(b.MimeType),
			frames.HumanSize(len(b.Data)*3/4), frames.HumanSize(len(b.Data))))
	case "resource_link":
		b.renderLink(w, i)
	case "resource":
		if b.Resource == nil {
			w.Line(Violation, fmt.Sprintf("[%d] embedded resource without a resource member", i))
			return
		}
		b.Resource.renderEmbedded(w, i)
	default:
		w.Line(Heading, fmt.Sprintf("[%d] %s (unknown content type, shown as sent)", i, orUnknown(b.Type)))
		body(w, b.Raw)
	}
}

func (b *Block) renderLink(w Writer, i int) {
	w.Line(Heading, fmt.Sprintf("[%d] resource link", i))
	w.Line(Plain, "    uri  "+b.URI)
	if b.Name != "" || b.Title != "" {
		w.Line(Plain, "    name "+strings.TrimSpace(b.Name+" "+b.Title))
	}
	if b.MimeType != "" {
		w.Line(Plain, "    mime "+b.MimeType)
	}
	if b.Size != nil {
		w.Line(Plain, "    size "+frames.HumanSize(int(*b.Size)))
	}
	if b.Description != "" {
		w.Line(Muted, "    "+b.Description)
	}
}

func (r *Resource) renderEmbedded(w Writer, i int) {
	switch {
	case r.Text != nil:
		w.Line(Heading, fmt.Sprintf("[%d] embedded resource %s · %s · text %s", i, r.URI, orUnknown(r.MimeType), frames.HumanSize(len(*r.Text))))
		text, _ := JSONText(*r.Text)
		w.Body(text)
	case r.Blob != nil:
		w.Line(Heading, fmt.Sprintf("[%d] embedded resource %s · %s · blob %s decoded", i, r.URI, orUnknown(r.MimeType), frames.HumanSize(len(*r.Blob)*3/4)))
	default:
		w.Line(Violation, fmt.Sprintf("[%d] embedded resource %s · %s · neither text nor blob", i, r.URI, orUnknown(r.MimeType)))
	}
}

// RenderRead renders a resources/read result: each item with its URI and
// MIME type, text pretty-printed when it is JSON, a blob by its size.
func RenderRead(w Writer, raw json.RawMessage) {
	r, err := DecodeReadResult(raw)
	if err != nil {
		notDecoded(w, err, raw)
		return
	}
	w.Line(Plain, "")
	w.Line(Label, count(len(r.Contents), "contents: %d item", "contents: %d items"))
	for i, c := range r.Contents {
		switch {
		case c.Text != nil:
			text, isJSON := JSONText(*c.Text)
			kind := "text"
			if isJSON {
				kind = "text (JSON, pretty-printed)"
			}
			w.Line(Heading, fmt.Sprintf("[%d] %s · %s · %s %s", i, c.URI, orUnknown(c.MimeType), kind, frames.HumanSize(len(*c.Text))))
			w.Body(text)
		case c.Blob != nil:
			w.Line(Heading, fmt.Sprintf("[%d] %s · %s · blob %s decoded (%s base64)", i, c.URI, orUnknown(c.MimeType),
				frames.HumanSize(len(*c.Blob)*3/4), frames.HumanSize(len(*c.Blob))))
		default:
			w.Line(Violation, fmt.Sprintf("[%d] %s · %s · neither text nor blob", i, c.URI, orUnknown(c.MimeType)))
		}
		if !isNull(c.Meta) {
			w.Line(Label, "    _meta")
			body(w, c.Meta)
		}
	}
	meta(w, "_meta", r.Meta)
}

// RenderPrompt renders a prompts/get result: its description, then each
// message's role and content, drawn by content type like a tool's.
func RenderPrompt(w Writer, raw json.RawMessage) {
	r, err := DecodePromptResult(raw)
	if err != nil {
		notDecoded(w, err, raw)
		return
	}
	if r.Description != "" {
		w.Line(Plain, "")
		w.Line(Plain, r.Description)
	}
	w.Line(Plain, "")
	w.Line(Label, fmt.Sprintf("messages: %d", len(r.Messages)))
	for i, m := range r.Messages {
		w.Line(Label, fmt.Sprintf("── %d · %s", i, orUnknown(m.Role)))
		m.Content.render(w, i)
	}
	meta(w, "_meta", r.Meta)
}

// JSONText is a text's content indented for reading when it is a JSON
// object or array, the kind of text worth calling JSON (a bare "42" is the
// text it is); otherwise the text as it is.
func JSONText(text string) ([]byte, bool) {
	t := strings.Trim(text, " \t\r\n")
	if t == "" || t[0] != '{' && t[0] != '[' {
		return []byte(text), false
	}
	return frames.Indent([]byte(text))
}

func notDecoded(w Writer, err error, raw json.RawMessage) {
	w.Line(Error, err.Error())
	body(w, raw)
}

// body draws JSON indented, or the bytes as they are when they are not JSON.
func body(w Writer, raw json.RawMessage) {
	out, _ := frames.Indent(raw)
	w.Body(out)
}

func meta(w Writer, label string, raw json.RawMessage) {
	if isNull(raw) {
		return
	}
	w.Line(Plain, "")
	w.Line(Label, label)
	body(w, shortDataURIs(raw))
}

// dataURI is a data: URI in a JSON string, long enough that printing it
// whole buries what is around it: a server's icon in _meta is kilobytes of
// base64. Its head is kept. Compiled on first use.
var dataURI = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`"(data:[^",;\\]{0,60}[;,][^"\\]{0,16})[^"\\]{100,}"`)
})

// shortDataURIs shortens the long data: URIs in a _meta for reading, with
// their size; the raw frame (and --json) keeps them whole.
func shortDataURIs(raw json.RawMessage) json.RawMessage {
	if !bytes.Contains(raw, []byte(`"data:`)) {
		return raw
	}
	return dataURI().ReplaceAllFunc(raw, func(m []byte) []byte {
		head := dataURI().FindSubmatch(m)[1]
		return fmt.Appendf(nil, `"%s… (a %s data URI; the raw frame has it whole)"`, head, frames.HumanSize(len(m)-2))
	})
}

func isNull(raw json.RawMessage) bool {
	t := bytes.Trim(raw, " \t\r\n")
	return len(t) == 0 || string(t) == "null"
}

func orUnknown(s string) string {
	if s == "" {
		return "(no type)"
	}
	return s
}

func count(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf(one, n)
	}
	return fmt.Sprintf(many, n)
}
