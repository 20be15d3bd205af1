package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/mcpjig/jig/frames"
)

// A ConfigFile is an MCP client's config file as jig read it: the servers it
// names, each with its target or what is wrong with that one entry, so one
// malformed entry leaves the others usable.
//
// jig reads the shapes the clients write: "mcpServers" (Claude Desktop,
// Claude Code's .mcp.json, Cursor, Windsurf), "servers" (VS Code's
// .vscode/mcp.json, with its "inputs") and "mcp": {"servers"} (VS Code's
// settings.json), with comments and trailing commas (JSONC).
type ConfigFile struct {
	Path    string
	Key     string // the object the servers were read from: "mcpServers", "servers" or "mcp.servers"
	Servers []ConfigServer
	Inputs  []ConfigInput
}

// A ConfigServer is one named entry.
type ConfigServer struct {
	Name   string
	Target Target
	Err    error // nil when the entry is usable
}

// A ConfigInput is a VS Code input: a value ${input:ID} asks the user for.
type ConfigInput struct {
	ID          string `json:"id"`
	Description string `json:"description"`
	Password    bool   `json:"password"`
	Default     string `json:"default"`
}

// ReadConfig reads a client config file. An error means the file as a whole
// is unusable (unreadable, not JSON, no servers); a bad entry is reported on
// that entry.
func ReadConfig(path string) (*ConfigFile, error) {
	data, err := frames.ReadRegular(path, frames.MaxConfigFile)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	// JSONC as VS Code writes it: comments become spaces, so offsets hold.
	std, err := hujson.Standardize(bytes.Clone(data))
	if err != nil {
		return nil, fmt.Errorf("config %s: not valid JSON: %v", path, err)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(std, &top); err != nil {
		return nil, fmt.Errorf("config %s: not valid JSON: %s", path, jsonErrorAt(std, err))
	}
	cf := &ConfigFile{Path: path}
	var servers json.RawMessage
	switch {
	case len(top["mcpServers"]) > 0:
		cf.Key, servers = "mcpServers", top["mcpServers"]
	case len(top["servers"]) > 0:
		cf.Key, servers = "servers", top["servers"]
	case len(top["mcp"]) > 0:
		var mcpObj map[string]json.RawMessage
		if json.Unmarshal(top["mcp"], &mcpObj) == nil && len(mcpObj["servers"]) > 0 {
			cf.Key, servers = "mcp.servers", mcpObj["servers"]
			if in := mcpObj["inputs"]; len(in) > 0 {
				top["inputs"] = in
			}
		}
	}
	if servers == nil {
		return nil, fmt.Errorf("config %s: no \"mcpServers\", \"servers\" or \"mcp\": {\"servers\"} object (the shapes of Claude, Cursor, Windsurf and VS Code files; see the README)", path)
	}
	var entries map[string]json.RawMessage
	if err := json.Unmarshal(servers, &entries); err != nil {
		return nil, fmt.Errorf("config %s: %q must be an object of named servers: %v", path, cf.Key, err)
	}
	if len(entries) == 0 {
		return nil, fmt.Errorf("config %s: %q has no servers", path, cf.Key)
	}
	if in := top["inputs"]; len(in) > 0 {
		if err := json.Unmarshal(in, &cf.Inputs); err != nil {
			return nil, fmt.Errorf("config %s: \"inputs\" must be an array of {\"id\", \"description\"}: %v", path, err)
		}
	}
	workspace := workspaceOf(path)
	for name, raw := range entries {
		t, err := configTarget(raw)
		t.Config, t.Server, t.Workspace = path, name, workspace
		if err != nil {
			err = fmt.Errorf("config %s: server %q: %w", path, name, err)
		}
		cf.Servers = append(cf.Servers, ConfigServer{Name: name, Target: t, Err: err})
	}
	sort.Slice(cf.Servers, func(i, j int) bool { return cf.Servers[i].Name < cf.Servers[j].Name })
	return cf, nil
}

// workspaceOf is what VS Code's ${workspaceFolder} means for a config file:
// the folder that holds .vscode/, else the file's own folder.
func workspaceOf(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	dir := filepath.Dir(abs)
	if filepath.Base(dir) == ".vscode" {
		return filepath.Dir(dir)
	}
	return dir
}

// jsonErrorAt says where a syntax error is, by line and column.
func jsonErrorAt(data []byte, err error) string {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return err.Error()
	}
	line, col := 1, 1
	for _, c := range data[:min(int(se.Offset), len(data))] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return fmt.Sprintf("line %d, column %d: %v", line, col, err)
}

// configTarget reads one entry, field by field, so an error names the field.
func configTarget(raw json.RawMessage) (Target, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return Target{}, fmt.Errorf("expected an object with \"command\" or \"url\", got %s", kindOfJSON(raw))
	}
	var (
		typ, command, cwd, url string
		args                   []string
		env, headers           map[string]string
	)
	str := func(field string, dst *string) error {
		if v, ok := fields[field]; ok && string(v) != "null" {
			if err := json.Unmarshal(v, dst); err != nil {
				return fmt.Errorf("%s: expected a string, got %s", field, kindOfJSON(v))
			}
		}
		return nil
	}
	var errs []error
	for field, dst := range map[string]*string{"type": &typ, "command": &command, "cwd": &cwd} {
		errs = append(errs, str(field, dst))
	}
	// Windsurf writes serverUrl, Gemini CLI httpUrl.
	for _, field := range []string{"url", "serverUrl", "httpUrl"} {
		if url == "" {
			errs = append(errs, str(field, &url))
		}
	}
	if v, ok := fields["args"]; ok && string(v) != "null" {
		if err := json.Unmarshal(v, &args); err != nil {
			errs = append(errs, fmt.Errorf("args: expected an array of strings, got %s", kindOfJSON(v)))
		}
	}
	for field, dst := range map[string]*map[string]string{"env": &env, "headers": &headers} {
		if v, ok := fields[field]; ok && string(v) != "null" {
			if err := json.Unmarshal(v, dst); err != nil {
				errs = append(errs, fmt.Errorf("%s: expected an object of string values, got %s", field, kindOfJSON(v)))
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return Target{}, err
	}
	t := Target{Env: env, Dir: cwd, Headers: headers}
	switch strings.ToLower(typ) {
	case "", "stdio", "local":
		switch {
		case command != "":
			t.Transport = TransportStdio
			t.Command = append([]string{command}, args...)
		case typ != "" && typ != "local":
			return Target{}, fmt.Errorf("type %q needs \"command\"", typ)
		case url != "":
			// No type: Streamable HTTP, falling back to the legacy SSE
			// transport the way the spec tells clients to (Cursor's
			// {"url": "http://host/sse"} is an SSE server).
			t.Transport, t.URL, t.DetectSSE = TransportStreamable, url, true
		default:
			return Target{}, errors.New("has neither \"command\" nor \"url\"")
		}
	case "http", "streamable-http", "streamablehttp", "streamable", "remote":
		if url == "" {
			return Target{}, fmt.Errorf("type %q needs \"url\"", typ)
		}
		t.Transport, t.URL = TransportStreamable, url
	case "sse":
		if url == "" {
			return Target{}, fmt.Errorf("type %q needs \"url\"", typ)
		}
		t.Transport, t.URL = TransportSSE, url
	default:
		return Target{}, fmt.Errorf("type %q: jig reads stdio, http (streamable-http) and sse", typ)
	}
	if t.Transport == TransportStdio && len(headers) > 0 {
		return Target{}, errors.New("headers: only HTTP servers take headers")
	}
	return t, nil
}

func kindOfJSON(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return "invalid JSON"
	}
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	}
	return "null"
}

// Names lists the servers, usable ones first described by their target,
// broken ones by what is wrong.
func (c *ConfigFile) Names() []string {
	out := make([]string, len(c.Servers))
	for i, s := range c.Servers {
		out[i] = s.Name
	}
	return out
}

// Describe is the list of servers to choose from, one per line.
func (c *ConfigFile) Describe() string {
	var b strings.Builder
	for _, s := range c.Servers {
		if s.Err != nil {
			fmt.Fprintf(&b, "  %-20s  unusable: %v\n", s.Name, strings.TrimPrefix(s.Err.Error(), fmt.Sprintf("config %s: server %q: ", c.Path, s.Name)))
			continue
		}
		fmt.Fprintf(&b, "  %-20s  %-5s %s\n", s.Name, s.Target.Transport, s.Target)
	}
	return b.String()
}

// Target returns the named server's target. With no name, a file with one
// server gives that one; otherwise the error lists the servers to choose from.
func (c *ConfigFile) Target(name string) (Target, error) {
	if name == "" {
		if len(c.Servers) == 1 {
			name = c.Servers[0].Name
		} else {
			return Target{}, fmt.Errorf("config %s: several servers; pick one with --server NAME:\n%s", c.Path, strings.TrimRight(c.Describe(), "\n"))
		}
	}
	for _, s := range c.Servers {
		if s.Name == name {
			return s.Target, s.Err
		}
	}
	return Target{}, fmt.Errorf("config %s: no server named %q; it has: %s", c.Path, name, strings.Join(c.Names(), ", "))
}

// LoadConfigTarget reads a config file and returns the named server's target.
func LoadConfigTarget(path, name string) (Target, error) {
	cf, err := ReadConfig(path)
	if err != nil {
		return Target{}, err
	}
	return cf.Target(name)
}

// Input returns the config's input with id, if it declares one.
func (c *ConfigFile) Input(id string) (ConfigInput, bool) {
	for _, in := range c.Inputs {
		if in.ID == id {
			return in, true
		}
	}
	return ConfigInput{}, false
}
