// Package session owns jig's connection to an MCP server: the targets it can
// reach (a stdio child, Streamable HTTP, legacy SSE, an mcpServers config
// entry, the embedded demo server), the taps that record every frame, the
// negotiated era, and the calls made over it. It never imports Bubble Tea.
package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/mcpjig/jig/frames"
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
	// Workspace is what ${workspaceFolder} means (a config file's folder).
	Workspace string `json:"workspace,omitempty"`
	// DetectSSE lets a URL without a stated transport fall back to the
	// legacy HTTP+SSE transport when Streamable HTTP is refused.
	DetectSSE bool `json:"detectSSE,omitempty"`
	// Inputs are the values of ${input:ID} references (VS Code). They are
	// secrets as often as not: never written out.
	Inputs map[string]string `json:"-"`
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
		return frames.NewRedactor(commandSecrets(t.Command)...).String(strings.Join(t.Command, " "))
	default:
		return redactURL(t.URL)
	}
}

// envRef matches the variable syntaxes of MCP client config files:
// ${env:NAME} (Cursor, VS Code), ${input:ID} and ${workspaceFolder} and
// ${userHome} (VS Code), ${NAME} and ${NAME:-default} (Claude Code), and $NAME.
var envRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}|\$\{input:([^}]*)\}|\$\{(workspaceFolder|userHome)\}|\$\{([A-Za-z_][A-Za-z0-9_]*)(:-[^}]*)?\}|\$([A-Za-z_][A-Za-z0-9_]*)`)
})

// envRefs is envRef's FindAllStringSubmatch. Every reference starts with
// '$', so a value without one (nearly every argument, URL and header) is
// answered without compiling or running the regexp.
func envRefs(s string) [][]string {
	if strings.IndexByte(s, '$') < 0 {
		return nil
	}
	return envRef().FindAllStringSubmatch(s, -1)
}

// expandWith expands every reference in s. bare says whether $NAME counts:
// in headers and env values it does; in a command's arguments, a URL and a
// folder only the ${...} forms do, since "$1" or "$HOME" there may be meant
// literally. missing holds each reference that has no value, as written.
func (t Target) expandWith(s string, lookup func(string) (string, bool), bare bool) (string, []string) {
	if strings.IndexByte(s, '$') < 0 {
		return s, nil // no reference: see envRefs
	}
	var missing []string
	out := envRef().ReplaceAllStringFunc(s, func(m string) string {
		sub := envRef().FindStringSubmatch(m)
		switch {
		case sub[1] != "":
			if v, ok := lookup(sub[1]); ok {
				return v
			}
		case strings.HasPrefix(m, "${input:"):
			if v, ok := t.Inputs[sub[2]]; ok {
				return v
			}
		case sub[3] == "workspaceFolder":
			if t.Workspace != "" {
				return t.Workspace
			}
		case sub[3] == "userHome":
			if h, err := os.UserHomeDir(); err == nil {
				return h
			}
		case sub[4] != "":
			if v, ok := lookup(sub[4]); ok && (v != "" || sub[5] == "") {
				return v
			}
			if sub[5] != "" {
				return sub[5][2:]
			}
		case sub[6] != "":
			if !bare {
				return m
			}
			if v, ok := lookup(sub[6]); ok {
				return v
			}
		}
		missing = append(missing, m)
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

// Expanded returns the target with every variable reference replaced, ready
// to connect. Session variables (Options.Vars) win over the environment. An
// unresolved reference is a usage error naming the field it is in and how to
// give it a value.
//
// A command typed after -- was expanded by the user's shell already, so in
// its arguments only session variables expand, and a reference with no value
// stays as typed; a config file's arguments expand as its client would.
func (t Target) Expanded(vars map[string]string) (Target, error) {
	var errs []error
	env := withVars(vars, os.LookupEnv)
	field := func(name, v string, bare bool) string {
		ev, missing := t.expandWith(v, env, bare)
		for _, m := range missing {
			errs = append(errs, t.missingError(name, m))
		}
		return ev
	}
	e := t
	e.Command = make([]string, len(t.Command))
	for i, a := range t.Command {
		name := fmt.Sprintf("args[%d]", i-1)
		if i == 0 {
			name = "command"
		}
		if t.Config == "" {
			e.Command[i], _ = t.expandWith(a, withVars(vars, nil), true)
			continue
		}
		e.Command[i] = field(name, a, false)
	}
	e.URL = field("url", t.URL, false)
	e.Dir = field("cwd", t.Dir, true)
	e.Env = expandMap("env", t.Env, field)
	e.Headers = expandMap("headers", t.Headers, field)
	if len(errs) > 0 {
		return t, &UsageError{errors.Join(errs...)}
	}
	return e, nil
}

// MissingInputs lists the ${input:ID} references that have no value yet, in
// the order they first appear.
func (t Target) MissingInputs() []string {
	values := append(append([]string{}, t.Command...), t.URL, t.Dir)
	for _, m := range []map[string]string{t.Env, t.Headers} {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			values = append(values, m[k])
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, v := range values {
		for _, m := range envRefs(v) {
			if !strings.HasPrefix(m[0], "${input:") || seen[m[2]] {
				continue
			}
			if _, ok := t.Inputs[m[2]]; !ok {
				seen[m[2]] = true
				out = append(out, m[2])
			}
		}
	}
	return out
}

func expandMap(what string, m map[string]string, field func(name, v string, bare bool) string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys) // errors in a stable order
	for _, k := range keys {
		out[k] = field(what+"."+k, m[k], true)
	}
	return out
}

func (t Target) missingError(field, ref string) error {
	where := field
	if t.Server != "" {
		where = fmt.Sprintf("config %s: server %q: %s", t.Config, t.Server, field)
	}
	switch {
	case strings.HasPrefix(ref, "${input:"):
		id := strings.TrimSuffix(strings.TrimPrefix(ref, "${input:"), "}")
		return fmt.Errorf("%s: %s has no value (give it with --input %s=VALUE)", where, ref, id)
	case ref == "${workspaceFolder}":
		return fmt.Errorf("%s: %s has no value outside a config file (use --cwd or a full path)", where, ref)
	}
	name := strings.Trim(strings.TrimPrefix(ref, "${env:"), "${}")
	if field == "env" || strings.HasPrefix(field, "env.") {
		return fmt.Errorf("%s: environment variable $%s is not set (export it, or pass the value with --env %s=VALUE)", where, name, strings.TrimPrefix(field, "env."))
	}
	return fmt.Errorf("%s: environment variable $%s is not set (export it first)", where, name)
}

// Secrets returns every secret value jig knows for the target, which no
// transcript, fixture, report, log, terminal line or file name may contain:
// the expanded values of the header and env entries the user gave (those
// given by reference or under a sensitive name), every ${input:...} value,
// the expanded value of any argument or URL that held a reference, the
// password and secret-named query parameters of its URL, the values of
// secret-named flags of its command, and for a server jig starts, the values
// of the secret-named variables of the environment it inherits
// (GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY, ...), which a server that dumps its
// environment would otherwise print.
func (t Target) Secrets() []string {
	out := append(urlSecrets(t.URL), commandSecrets(t.Command)...)
	if eu, missing := t.expandWith(t.URL, os.LookupEnv, false); len(missing) == 0 && eu != t.URL {
		out = append(out, urlSecrets(eu)...) // a password or key given as ${NAME}, whatever the name
	}
	if t.Transport == TransportStdio || t.Transport == TransportDemo {
		for _, s := range frames.EnvSecrets(os.Environ()) {
			out = append(out, s.Value)
		}
	}
	// A value whose reference has no value is not sent, and what it holds
	// is the reference as written ("Bearer $HDR_TOKEN"): the name of the
	// variable to export, which the error saying so must show.
	for k, v := range t.Headers {
		if ev, missing := t.expandWith(v, os.LookupEnv, true); len(missing) == 0 && (ev != v || isSensitiveName(k)) {
			out = append(out, ev)
			// "Bearer abc": the token alone must go too.
			if i := strings.LastIndexByte(ev, ' '); i >= 0 {
				out = append(out, ev[i+1:])
			}
		}
	}
	for k, v := range t.Env {
		if ev, missing := t.expandWith(v, os.LookupEnv, true); len(missing) == 0 && (ev != v || isSensitiveName(k)) {
			out = append(out, ev)
		}
	}
	for _, v := range t.Inputs {
		if v != "" {
			out = append(out, v)
		}
	}
	// An argument or URL keeps its literal text; what its ${env:...},
	// ${input:...} or ${SECRET_NAME} references stood for is secret.
	for _, v := range append(append([]string{}, t.Command...), t.URL) {
		for _, m := range envRefs(v) {
			if m[1] == "" && m[2] == "" && !(m[4] != "" && isSensitiveName(m[4])) {
				continue
			}
			if ev, missing := t.expandWith(m[0], os.LookupEnv, false); len(missing) == 0 && ev != "" {
				out = append(out, ev)
			}
		}
	}
	return out
}

// commandSecrets returns the values a command line gives to secret-named
// flags: "--api-key VALUE", "--token=VALUE".
func commandSecrets(command []string) []string {
	var out []string
	for i, arg := range command {
		if !strings.HasPrefix(arg, "-") || !isSensitiveName(strings.SplitN(arg, "=", 2)[0]) {
			continue
		}
		if _, v, ok := strings.Cut(arg, "="); ok {
			out = append(out, v)
		} else if i+1 < len(command) && !strings.HasPrefix(command[i+1], "-") {
			out = append(out, command[i+1])
		}
	}
	return out
}

// urlSecrets returns the password of a URL's user information and the
// values of its secret-named query parameters, as written and decoded.
func urlSecrets(raw string) []string {
	u, err := url.Parse(raw)
	if err != nil || raw == "" {
		return nil
	}
	var out []string
	if p, ok := u.User.Password(); ok {
		out = append(out, p, url.QueryEscape(p), url.PathEscape(p))
	}
	for k, vs := range u.Query() {
		if !secretParamName().MatchString(k) {
			continue
		}
		for _, v := range vs {
			if envRefs(v) != nil {
				continue // a reference: its value is among the expanded URL's
			}
			out = append(out, v, url.QueryEscape(v))
		}
	}
	return out
}

// secretParamName matches query parameters that carry credentials. It
// compiles on first use.
var secretParamName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)token|secret|passw|api_?key|apikey|private_?key|credential|signature|^sig$|^key$|^code$|auth`)
})

// redactURL is the URL as it may be shown or written: without the password
// of its user information, secret-named query values replaced.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || raw == "" {
		return shapes.URL(raw)
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "[REDACTED]")
	}
	if u.RawQuery != "" {
		q := strings.Split(u.RawQuery, "&")
		for i, kv := range q {
			k, v, ok := strings.Cut(kv, "=")
			if envRefs(v) != nil {
				continue // a reference (${NAME}) is kept: replay expands it
			}
			if name, err := url.QueryUnescape(k); ok && err == nil && secretParamName().MatchString(name) {
				q[i] = k + "=" + frames.Placeholder("secret-param")
			}
		}
		u.RawQuery = strings.Join(q, "&")
	}
	return strings.Replace(u.String(), "%5BREDACTED%5D", "[REDACTED]", 1)
}

// shapes redacts by shape alone, for text about a target whose secrets are
// not at hand.
var shapes = frames.NewRedactor()

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
	r.URL = redactURL(t.URL)
	if secrets := commandSecrets(t.Command); len(secrets) > 0 {
		red := frames.NewRedactor(secrets...)
		r.Command = make([]string, len(t.Command))
		for i, arg := range t.Command {
			r.Command[i] = red.String(arg)
		}
	}
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
		case envRefs(v) != nil || !isSensitiveName(k):
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
