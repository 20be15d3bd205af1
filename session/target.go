// Package session owns jig's connection to an MCP server: the targets it can
// reach (a stdio child, Streamable HTTP, legacy SSE, an mcpServers config
// entry, the embedded demo server), the taps that record every frame, the
// negotiated era, and the calls made over it. It never imports Bubble Tea.
package session

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
)

// Transport names a way of reaching a server.
type Transport string

const (
	TransportStdio      Transport = "stdio"
	TransportStreamable Transport = "http"
	TransportSSE        Transport = "sse"
	TransportDemo       Transport = "demo"
)

// Target is what the user asked jig to connect to, as they gave it. Header and
// Env values may reference environment variables ($TOKEN, ${TOKEN}) so secrets
// never need to be typed into a file; they are expanded only when connecting.
type Target struct {
	Transport Transport         `json:"transport"`
	Command   []string          `json:"command,omitempty"`
	Env       map[string]string `json:"env,omitempty"`
	Dir       string            `json:"dir,omitempty"`
	URL       string            `json:"url,omitempty"`
	Headers   map[string]string `json:"headers,omitempty"`
	Release   int               `json:"release,omitempty"` // demo server release
	// Config and Server record where the target came from, for display.
	Config string `json:"config,omitempty"`
	Server string `json:"server,omitempty"`
}

// String is a short human description of the target.
func (t Target) String() string {
	switch t.Transport {
	case TransportDemo:
		if t.Release > 1 {
			return fmt.Sprintf("demo server (release %d)", t.Release)
		}
		return "demo server"
	case TransportStdio:
		return strings.Join(t.Command, " ")
	default:
		return t.URL
	}
}

var envRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)`)

// expand replaces $VAR and ${VAR} with values from the environment. It reports
// the names it could not resolve so the error can name them.
func expand(s string, lookup func(string) (string, bool)) (string, []string) {
	var missing []string
	out := envRef.ReplaceAllStringFunc(s, func(m string) string {
		name := strings.Trim(m, "${}")
		if v, ok := lookup(name); ok {
			return v
		}
		missing = append(missing, name)
		return m
	})
	return out, missing
}

// withVars looks a name up in vars first, then with next (nil: nowhere).
func withVars(vars map[string]string, next func(string) (string, bool)) func(string) (string, bool) {
	return func(name string) (string, bool) {
		if v, ok := vars[name]; ok {
			return v, true
		}
		if next == nil {
			return "", false
		}
		return next(name)
	}
}

// Secrets returns the expanded values of every header and env entry the user
// gave, which transcripts and fixtures must never contain.
func (t Target) Secrets() []string {
	var out []string
	for k, v := range t.Headers {
		if ev, _ := expand(v, os.LookupEnv); ev != v || isSensitiveName(k) {
			out = append(out, ev)
			// "Bearer abc": the token alone must go too.
			if i := strings.LastIndexByte(ev, ' '); i >= 0 {
				out = append(out, ev[i+1:])
			}
		}
	}
	for k, v := range t.Env {
		if ev, _ := expand(v, os.LookupEnv); ev != v || isSensitiveName(k) {
			out = append(out, ev)
		}
	}
	return out
}

func isSensitiveName(k string) bool {
	l := strings.ToLower(k)
	for _, w := range []string{"auth", "token", "secret", "key", "password", "cookie", "credential"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// Redacted returns the target as it may be written to disk: header and env
// values that were environment references stay references; literal secrets
// are replaced.
func (t Target) Redacted() Target {
	r := t
	r.Headers = redactMap(t.Headers)
	r.Env = redactMap(t.Env)
	return r
}

func redactMap(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		switch {
		case envRef.MatchString(v) || !isSensitiveName(k):
			out[k] = v // a reference, or not a secret
		case strings.LastIndexByte(v, ' ') >= 0:
			out[k] = v[:strings.LastIndexByte(v, ' ')+1] + "[REDACTED]" // keep "Bearer "
		default:
			out[k] = "[REDACTED]"
		}
	}
	return out
}

// JSON returns the redacted target as JSON, for transcript headers.
func (t Target) JSON() json.RawMessage {
	b, _ := json.Marshal(t.Redacted())
	return b
}

// configFile is the mcpServers shape shared by Claude Desktop, Cursor and
// (under "servers") VS Code.
type configFile struct {
	MCPServers map[string]configEntry `json:"mcpServers"`
	Servers    map[string]configEntry `json:"servers"`
}

type configEntry struct {
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
	Cwd     string            `json:"cwd"`
	URL     string            `json:"url"`
	Type    string            `json:"type"`
	Headers map[string]string `json:"headers"`
}

// LoadConfigTarget reads an mcpServers config file and returns the named
// server's target. Errors name the file and list the servers it does have.
func LoadConfigTarget(path, name string) (Target, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Target{}, fmt.Errorf("config %s: %w", path, err)
	}
	var cf configFile
	if err := json.Unmarshal(data, &cf); err != nil {
		return Target{}, fmt.Errorf("config %s: not valid JSON: %v (expected {\"mcpServers\": {\"name\": {...}}})", path, err)
	}
	all := cf.MCPServers
	if len(all) == 0 {
		all = cf.Servers
	}
	if len(all) == 0 {
		return Target{}, fmt.Errorf("config %s: no \"mcpServers\" (or \"servers\") object with entries", path)
	}
	names := make([]string, 0, len(all))
	for n := range all {
		names = append(names, n)
	}
	sort.Strings(names)
	if name == "" {
		if len(all) == 1 {
			name = names[0]
		} else {
			return Target{}, fmt.Errorf("config %s: several servers (%s); pick one with --server NAME", path, strings.Join(names, ", "))
		}
	}
	e, ok := all[name]
	if !ok {
		return Target{}, fmt.Errorf("config %s: no server named %q; it has: %s", path, name, strings.Join(names, ", "))
	}
	t := Target{Env: e.Env, Dir: e.Cwd, Headers: e.Headers, Config: path, Server: name}
	switch {
	case e.Command != "":
		t.Transport = TransportStdio
		t.Command = append([]string{e.Command}, e.Args...)
	case e.URL != "":
		t.URL = e.URL
		t.Transport = TransportStreamable
		if e.Type == "sse" {
			t.Transport = TransportSSE
		}
	default:
		return Target{}, fmt.Errorf("config %s: server %q has neither \"command\" nor \"url\"", path, name)
	}
	return t, nil
}
