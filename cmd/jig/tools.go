package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session"
)

// toolsOptions are jig tools's.
type toolsOptions struct {
	target  targetFlags
	frames  framesFlag
	json    bool
	command []string // the server's command after --
	pin     listPin
}

const toolsExample = `  jig tools --demo
  jig tools -- node server.js --flag
  jig tools --url http://127.0.0.1:3901/mcp --header 'Authorization: Bearer $TOKEN'
  jig tools --config ~/.cursor/mcp.json --server github --json | jq '.[].name'`

func newToolsCmd(st *streams, runF runFunc[toolsOptions]) *cobra.Command {
	o := &toolsOptions{}
	cmd := &cobra.Command{
		Use:     "tools [flags] [-- command args...]",
		Short:   "List every tool of a server (all pages)",
		Example: toolsExample,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.command = args
			return runF(cmd.Context(), o, st)
		},
	}
	o.target.bind(cmd)
	o.target.oneShot = true // it asks once and ends: no list_changed subscription
	o.frames.bind(cmd)
	cmd.Flags().BoolVar(&o.json, "json", false, "print the tools array exactly as the server sent it (all pages)")
	o.pin.bind(cmd, "tools.json")
	return cmd
}

func runTools(ctx context.Context, o *toolsOptions, st *streams) error {
	if err := o.pin.check(); err != nil {
		return err
	}
	return withSession(ctx, st, &o.target, o.command, &o.frames, "tools", func(ctx context.Context, s *session.Session) error {
		mark := s.Log.Len()
		raw, typed, err := s.ListTools(ctx)
		if err != nil {
			return err
		}
		if o.json {
			err = writeJSON(st.out, raw)
		} else {
			// One write: each line written on its own was a redaction pass
			// and a system call.
			var b bytes.Buffer
			printInfo(&b, s.Info())
			printTools(&b, typed, len(raw))
			printCacheHint(&b, s, "tools/list")
			_, err = st.out.Write(b.Bytes())
		}
		if err != nil || o.pin.file == "" {
			return err
		}
		opts, err := o.target.options(o.command)
		if err != nil {
			return err
		}
		return o.pin.pin(ctx, st, s, opts.Target, mark, "tools/list")
	})
}

// printCacheHint says what the server said of the list's freshness
// (2026-07-28 ttlMs and cacheScope); jig asks again every time regardless.
func printCacheHint(w io.Writer, s *session.Session, method string) {
	if h := s.ListCacheHint(method); h != "" {
		fmt.Fprintf(w, "%s: %s (jig asks the server again on every listing)\n", method, h)
	}
}

func writeJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

func printInfo(w io.Writer, info session.Info) {
	fmt.Fprintf(w, "%s · protocol %s (%s) · %s\n", frames.ServerLabel(info.ServerName, info.ServerVersion), info.ProtocolVersion, info.Era, info.Transport)
}

func printTools(w io.Writer, tools []*mcp.Tool, rawCount int) {
	fmt.Fprintln(w, frames.Count(len(tools), "tool"))
	if rawCount > len(tools) {
		fmt.Fprintf(w, "  (%d more listed by the server but invalid; see --json)\n", rawCount-len(tools))
	}
	width := 0
	for _, t := range tools {
		width = max(width, len(t.Name))
	}
	for _, t := range tools {
		desc := strings.SplitN(strings.TrimSpace(t.Description), "\n", 2)[0]
		fmt.Fprintf(w, "  %-*s  %s%s\n", width, t.Name, annotationMarks(t.Annotations), desc)
		if params := paramSummary(t.InputSchema); params != "" {
			fmt.Fprintf(w, "  %-*s    %s\n", width, "", params)
		}
	}
}

func annotationMarks(a *mcp.ToolAnnotations) string {
	if a == nil {
		return ""
	}
	var marks []string
	if a.ReadOnlyHint {
		marks = append(marks, "read-only")
	}
	if a.DestructiveHint != nil && *a.DestructiveHint {
		marks = append(marks, "destructive")
	}
	if a.IdempotentHint {
		marks = append(marks, "idempotent")
	}
	if len(marks) == 0 {
		return ""
	}
	return "[" + strings.Join(marks, ", ") + "] "
}

// paramSummary renders an input schema's top-level properties as
// "customer* string, since string, limit integer" (* marks required).
func paramSummary(schema any) string {
	props, required, ok := plainParams(schema)
	if !ok {
		props, required, ok = decodedParams(schema)
	}
	if !ok {
		return ""
	}
	return renderParams(props, required)
}

// renderParams is paramSummary's line for properties (name → type) and the
// required names.
func renderParams(props map[string]any, required []string) string {
	if len(props) == 0 {
		return ""
	}
	req := map[string]bool{}
	for _, r := range required {
		req[r] = true
	}
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if req[names[i]] != req[names[j]] {
			return req[names[i]]
		}
		return names[i] < names[j]
	})
	parts := make([]string, len(names))
	for i, n := range names {
		mark := ""
		if req[n] {
			mark = "*"
		}
		parts[i] = fmt.Sprintf("%s%s %v", n, mark, typeName(props[n]))
	}
	return strings.Join(parts, ", ")
}

// decodedParams reads an input schema's properties (each one's "type") and
// required names by encoding/json's rules: marshalled, then decoded into
// the struct below (keys matched without case, a null map, a wrong type
// anywhere in them fails the whole).
func decodedParams(schema any) (map[string]any, []string, bool) {
	b, _ := json.Marshal(schema)
	var s struct {
		Properties map[string]struct {
			Type any `json:"type"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if json.Unmarshal(b, &s) != nil {
		return nil, nil, false
	}
	props := make(map[string]any, len(s.Properties))
	for n, p := range s.Properties {
		props[n] = p.Type
	}
	return props, s.Required, true
}

// plainParams is decodedParams for the schemas servers send, read from
// the map the SDK decoded without encoding it again (two passes over every
// tool's schema on every jig tools). It answers only when nothing could
// make the two differ: no key but "properties", "required" and "type"
// themselves matches those names without case; names and strings are
// valid UTF-8 (encoding/json would replace bytes); each property is an
// object or null; a type is null, a string or an array of strings, numbers,
// booleans and nulls; required is null or an array of strings. Anything
// else (ok false) goes to decodedParams.
func plainParams(schema any) (props map[string]any, required []string, ok bool) {
	m, isMap := schema.(map[string]any)
	if !isMap {
		return nil, nil, false
	}
	for k := range m {
		if k != "properties" && strings.EqualFold(k, "properties") || k != "required" && strings.EqualFold(k, "required") {
			return nil, nil, false
		}
	}
	switch p := m["properties"].(type) {
	case nil:
	case map[string]any:
		props = make(map[string]any, len(p))
		for n, v := range p {
			t, ok := plainType(v)
			if !ok || !utf8.ValidString(n) {
				return nil, nil, false
			}
			props[n] = t
		}
	default:
		return nil, nil, false
	}
	switch r := m["required"].(type) {
	case nil:
	case []any:
		required = make([]string, len(r))
		for i, x := range r {
			s, isString := x.(string)
			if !isString || !utf8.ValidString(s) {
				return nil, nil, false
			}
			required[i] = s
		}
	default:
		return nil, nil, false
	}
	return props, required, true
}

// plainType is a property's "type" for plainParams.
func plainType(prop any) (any, bool) {
	if prop == nil {
		return nil, true
	}
	p, isMap := prop.(map[string]any)
	if !isMap {
		return nil, false
	}
	for k := range p {
		if k != "type" && strings.EqualFold(k, "type") {
			return nil, false
		}
	}
	switch t := p["type"].(type) {
	case nil:
		return nil, true
	case string:
		return t, utf8.ValidString(t)
	case []any:
		for _, x := range t {
			switch x := x.(type) {
			case nil, float64, bool:
			case string:
				if !utf8.ValidString(x) {
					return nil, false
				}
			default:
				return nil, false
			}
		}
		return t, true
	}
	return nil, false
}

func typeName(t any) string {
	switch v := t.(type) {
	case string:
		return v
	case []any:
		var s []string
		for _, x := range v {
			s = append(s, fmt.Sprint(x))
		}
		return strings.Join(s, "|")
	}
	return "any"
}
