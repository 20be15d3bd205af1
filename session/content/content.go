// Package content is the one decoded model of what a server answers with —
// a tool's result and its content blocks, a resource's contents, a prompt's
// messages — and its one rendering as role-tagged lines. The TUI draws the
// lines in its styles and the CLI prints them, so the two never describe
// the same result in two ways.
//
// Decoding reads the result as received and keeps what it does not know:
// a block of an unknown type keeps its raw JSON, a missing member stays
// missing. Nothing here talks to a server.
package content

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// A Block is one content block of a tool result or a prompt message.
type Block struct {
	// Type is "text", "image", "audio", "resource_link", "resource", or
	// whatever the server sent.
	Type        string    `json:"type"`
	Text        string    `json:"text"`
	MimeType    string    `json:"mimeType"`
	Data        string    `json:"data"` // base64, for image and audio
	URI         string    `json:"uri"`  // resource_link
	Name        string    `json:"name"`
	Title       string    `json:"title"`
	Description string    `json:"description"`
	Size        *int64    `json:"size"`
	Resource    *Resource `json:"resource"` // an embedded resource
	// Raw is the block exactly as received.
	Raw json.RawMessage `json:"-"`
}

// A Resource is one item of a resource's contents: an embedded resource in
// a block, or an entry of a ReadResourceResult.
type Resource struct {
	URI      string          `json:"uri"`
	MimeType string          `json:"mimeType"`
	Text     *string         `json:"text"`
	Blob     *string         `json:"blob"`
	Meta     json.RawMessage `json:"_meta"`
}

// ToolResult is a CallToolResult.
type ToolResult struct {
	Content           []Block
	StructuredContent json.RawMessage
	IsError           bool
	Meta              json.RawMessage
	// Partial lists where the result says it is not the whole answer, as
	// "structuredContent.truncated: true" (see PartialMarkers).
	Partial []string
}

// ReadResult is a ReadResourceResult.
type ReadResult struct {
	Contents []Resource
	Meta     json.RawMessage
}

// PromptResult is a GetPromptResult.
type PromptResult struct {
	Description string
	Messages    []Message
	Meta        json.RawMessage
}

// A Message is one message of a prompt.
type Message struct {
	Role    string
	Content Block
}

// A DecodeError says a result is not the object its method answers with.
type DecodeError struct {
	What string // "CallToolResult", ...
	Err  error
}

func (e *DecodeError) Error() string {
	return fmt.Sprintf("the result is not a %s object: %v", e.What, e.Err)
}

// DecodeToolResult reads a tools/call result as received.
func DecodeToolResult(raw json.RawMessage) (*ToolResult, error) {
	var r struct {
		Content           []json.RawMessage `json:"content"`
		StructuredContent json.RawMessage   `json:"structuredContent"`
		IsError           bool              `json:"isError"`
		Meta              json.RawMessage   `json:"_meta"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, &DecodeError{"CallToolResult", err}
	}
	out := &ToolResult{StructuredContent: r.StructuredContent, IsError: r.IsError, Meta: r.Meta, Content: make([]Block, len(r.Content))}
	for i, c := range r.Content {
		out.Content[i] = decodeBlock(c)
	}
	out.Partial = partialMarkers(raw, out)
	return out, nil
}

func decodeBlock(raw json.RawMessage) Block {
	var b Block
	_ = json.Unmarshal(raw, &b) // a block that is not an object keeps only Raw
	b.Raw = raw
	return b
}

// DecodeReadResult reads a resources/read result as received.
func DecodeReadResult(raw json.RawMessage) (*ReadResult, error) {
	var r struct {
		Contents []Resource      `json:"contents"`
		Meta     json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, &DecodeError{"ReadResourceResult", err}
	}
	return &ReadResult{Contents: r.Contents, Meta: r.Meta}, nil
}

// DecodePromptResult reads a prompts/get result as received.
func DecodePromptResult(raw json.RawMessage) (*PromptResult, error) {
	var r struct {
		Description string `json:"description"`
		Messages    []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Meta json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, &DecodeError{"GetPromptResult", err}
	}
	out := &PromptResult{Description: r.Description, Meta: r.Meta}
	for _, m := range r.Messages {
		out.Messages = append(out.Messages, Message{Role: m.Role, Content: decodeBlock(m.Content)})
	}
	return out, nil
}

// IsError reports whether a tools/call result says isError: true, without
// decoding the rest (a cheap look spares parsing a 10 MB result).
func IsError(raw json.RawMessage) bool {
	if !bytes.Contains(raw, []byte(`"isError"`)) {
		return false
	}
	var r struct {
		IsError bool `json:"isError"`
	}
	return json.Unmarshal(raw, &r) == nil && r.IsError
}

// ToolErrorWhat says what is known of a result with isError: true: the
// server answered isError: true. Whether the tool's own code ran is not in
// the result; when its text is plainly an SDK's argument validation (the Go
// SDK's `validating "arguments": …`, the TypeScript SDK's `Input validation
// error: …` or `Invalid arguments for tool …`), it says the server refused
// the arguments. The TUI and jig call both head a tool error with it.
func ToolErrorWhat(raw json.RawMessage) string {
	const known = "the server answered isError: true"
	var r struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	if json.Unmarshal(raw, &r) != nil {
		return known
	}
	for _, c := range r.Content {
		if c.Type == "text" && isValidationRefusal(c.Text) {
			return known + ": its text is an argument-validation refusal (the server checked the arguments against the input schema and refused them)"
		}
	}
	return known + " (its content says what failed)"
}

// validationPrefixes begin the text of the SDKs' argument-validation
// refusals, which come back as isError results.
var validationPrefixes = []string{
	`validating "arguments":`, // modelcontextprotocol/go-sdk
	"Input validation error:", // the TypeScript SDK
	"MCP error -32602: Input validation error",
	"MCP error -32602: Invalid arguments for tool",
	"Invalid arguments for tool",
}

func isValidationRefusal(text string) bool {
	text = strings.TrimSpace(text)
	for _, p := range validationPrefixes {
		if strings.HasPrefix(text, p) {
			return true
		}
	}
	return false
}

// partialKeys are the members by which a result says it is not the whole
// answer: flags first, then cursors.
var (
	partialFlagKeys   = []string{"truncated", "hasMore", "has_more", "partial", "incomplete"}
	partialCursorKeys = []string{"nextCursor", "next_cursor", "cursor"}
)

// PartialMarkers lists where a tools/call result says it is partial — a
// truncated flag, hasMore, a next cursor — at the result's top level, in
// structuredContent, or in JSON carried by a text block, as
// "structuredContent.truncated: true". The seed transcript's agent read a
// truncated set as complete; jig flags it wherever the server said so.
func PartialMarkers(raw json.RawMessage) []string {
	r, err := DecodeToolResult(raw)
	if err != nil {
		return nil
	}
	return r.Partial
}

func partialMarkers(raw json.RawMessage, r *ToolResult) []string {
	out := markers(raw, "")
	out = append(out, markers(r.StructuredContent, "structuredContent.")...)
	for i, c := range r.Content {
		if c.Type == "text" {
			out = append(out, markers([]byte(c.Text), fmt.Sprintf("content[%d].", i))...)
		}
	}
	return out
}

// markers finds the partial markers among a JSON object's own members.
func markers(v []byte, prefix string) []string {
	t := bytes.TrimSpace(v)
	if len(t) == 0 || t[0] != '{' {
		return nil
	}
	// A cheap look before the parse: most results name none of the markers.
	found := false
	for _, k := range append(partialFlagKeys, partialCursorKeys...) {
		found = found || bytes.Contains(t, []byte(`"`+k+`"`))
	}
	if !found {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(t, &m) != nil {
		return nil
	}
	var out []string
	for _, k := range partialFlagKeys {
		if string(bytes.TrimSpace(m[k])) == "true" {
			out = append(out, prefix+k+": true")
		}
	}
	for _, k := range partialCursorKeys {
		var s string
		if json.Unmarshal(m[k], &s) == nil && s != "" {
			out = append(out, prefix+k+": "+s)
		}
	}
	return out
}
