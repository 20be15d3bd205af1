package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session/oauth"
)

// A Hint is the likely cause of a failed connection and the next step,
// read from the evidence the attempt left: the frames, the target, the
// error. An error alone ("Not Found", "timed out") names neither; the frames
// usually do (a 404 to a POST on a path ending in /sse, a banner the server
// printed on stdout, a 401's challenge).
type Hint struct {
	Cause string // what most likely went wrong, quoting the evidence
	Next  string // what to type or change
}

func (h *Hint) String() string {
	if h == nil {
		return ""
	}
	return "likely cause: " + h.Cause + "\nnext: " + h.Next
}

// diagnose reads a failed connection's frames from index mark on. It
// returns nil when nothing in them explains the failure better than the
// error does.
func diagnose(t Target, log frames.Reader, mark int, err error) *Hint {
	ev := gather(log, mark)
	for _, rule := range []func(Target, *evidence, error) *Hint{
		strayStdout, refusedConnection, authRefused, wrongEndpoint, serverFailed, notMCP,
	} {
		if h := rule(t, ev, err); h != nil {
			return h
		}
	}
	return nil
}

// evidence is what a failed attempt's frames hold, sorted for the rules.
type evidence struct {
	stray []*frames.Frame // stdio lines from the server that are not JSON-RPC
	// refused is the last HTTP answer that was not a success (the era
	// probe's expected refusal aside), and refusedTo the request it answered.
	refused   *frames.Frame
	refusedTo *frames.Frame
	failed    *frames.Frame // a transport frame: "HTTP request failed: …"
	// foreign is a success whose body is neither JSON nor an event stream.
	foreign *frames.Frame
}

func gather(log frames.Reader, mark int) *evidence {
	ev := &evidence{}
	var lastReq *frames.Frame
	for i := mark; i < log.Len(); i++ {
		f := log.Frame(i)
		if f.Dir == frames.ClientToServer {
			if f.HTTP != nil && f.HTTP.Method != "" {
				lastReq = f
			}
			continue
		}
		switch {
		case f.HTTP == nil && f.Kind == frames.KindInvalid:
			ev.stray = append(ev.stray, f)
		case f.HTTP != nil && f.HTTP.Status == 0 && strings.HasPrefix(f.Note, "HTTP request failed"):
			ev.failed = f
		case f.HTTP != nil && f.HTTP.Status >= 300 && !isProbe(lastReq):
			ev.refused, ev.refusedTo = f, lastReq
		case f.HTTP != nil && f.HTTP.Status >= 200 && f.HTTP.Status < 300 && foreignType(header(f, "Content-Type")):
			ev.foreign = f
		}
	}
	return ev
}

// foreignType reports whether a success's Content-Type cannot be MCP.
func foreignType(ct string) bool {
	return ct != "" && !strings.Contains(ct, "json") && !strings.HasPrefix(ct, "text/event-stream")
}

// isProbe reports whether req is jig's server/discover era probe over
// Streamable HTTP, which a legacy server refuses by design.
func isProbe(req *frames.Frame) bool {
	if req == nil || req.HTTP == nil || req.Method != "server/discover" {
		return false
	}
	for _, v := range req.HTTP.Headers["Mcp-Session-Id"] {
		if v == probeSessionID {
			return true
		}
	}
	return false
}

// AnswersEraProbe reports whether frame i of log is the server's answer to
// jig's era probe (see probeSessionID): a legacy server's refusal of it is
// expected, not a warning.
func AnswersEraProbe(log frames.Reader, i int) bool {
	f := log.Frame(i)
	if f.Dir != frames.ServerToClient || f.HTTP == nil {
		return false
	}
	for j := i - 1; j >= 0; j-- {
		if r := log.Frame(j); r.Dir == frames.ClientToServer && r.HTTP != nil && r.HTTP.Method != "" {
			return isProbe(r)
		}
	}
	return false
}

// strayStdout: a stdio server wrote text on stdout, where only JSON-RPC may
// go. A server that never answers often is not an MCP stdio server at all:
// an HTTP server saying where it listens.
func strayStdout(t Target, ev *evidence, _ error) *Hint {
	if len(ev.stray) == 0 || t.Transport != TransportStdio {
		return nil
	}
	var quoted []string
	seen := map[string]bool{}
	for _, f := range ev.stray {
		line := quoteLine(f.Raw)
		if seen[line] {
			continue
		}
		seen[line] = true
		if len(quoted) == 3 {
			quoted = append(quoted, "…")
			break
		}
		quoted = append(quoted, fmt.Sprintf("%s (frame #%d)", line, f.Seq))
	}
	h := &Hint{
		Cause: "the server wrote to stdout lines that are not JSON-RPC: " + strings.Join(quoted, ", "),
		Next:  "over stdio, stdout carries JSON-RPC only: make the server log to stderr (a quiet or logging option, or a fix in its code); the lines are kept as frames",
	}
	switch u := listensAt(ev.stray); {
	case u != "":
		h.Cause += "; it looks like an HTTP server saying where it listens"
		h.Next = "connect to it over HTTP instead: start it on its own and run jig with --url " + u
	case httpBanner(ev.stray):
		h.Cause += "; it looks like an HTTP server starting"
		h.Next = "connect to it over HTTP instead: start it on its own and run jig with --url http://HOST:PORT/mcp (the address it listens at)"
	}
	return h
}

var (
	listenURL  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`https?://[^\s"'<>]+`) })
	listenPort = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bport:?\s+(\d{2,5})\b`) })
)

// listensAt is the URL a server's banner says it listens at, or "".
func listensAt(lines []*frames.Frame) string {
	for _, f := range lines {
		if u := listenURL().Find(f.Raw); u != nil {
			s := strings.TrimRight(string(u), ".,;)")
			if p, err := url.Parse(s); err == nil && (p.Path == "" || p.Path == "/") {
				s = strings.TrimRight(s, "/") + "/mcp"
			}
			return s
		}
		if m := listenPort().FindSubmatch(f.Raw); m != nil {
			return "http://127.0.0.1:" + string(m[1]) + "/mcp"
		}
	}
	return ""
}

var httpWords = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\b(https?|sse)\b.*\bserver\b|\blistening\b`) })

// httpBanner reports whether a line says an HTTP server is starting.
func httpBanner(lines []*frames.Frame) bool {
	for _, f := range lines {
		if httpWords().Match(f.Raw) {
			return true
		}
	}
	return false
}

// quoteLine is a line as quoted in a hint: in quotes, at most 80 runes.
func quoteLine(raw []byte) string {
	s := strings.TrimSpace(string(raw))
	if r := []rune(s); len(r) > 80 {
		s = string(r[:79]) + "…"
	}
	return fmt.Sprintf("%q", s)
}

// refusedConnection: nothing answered at the URL's address.
func refusedConnection(t Target, ev *evidence, _ error) *Hint {
	if ev.failed == nil {
		return nil
	}
	host := hostOf(t.URL)
	note := ev.failed.Note
	switch {
	case strings.Contains(note, "connection refused"):
		return &Hint{Cause: "nothing accepts connections at " + host + " (connection refused)",
			Next: "start the server, or check the host and port in the URL"}
	case strings.Contains(note, "no such host"):
		return &Hint{Cause: "the host name in the URL does not resolve (" + host + ")",
			Next: "check the URL's host name"}
	case strings.Contains(note, "server gave HTTP response to HTTPS client"):
		return &Hint{Cause: "the server at " + host + " speaks plain HTTP, and the URL says https",
			Next: "use the URL with http:// instead of https://"}
	case strings.Contains(note, "certificate"):
		return &Hint{Cause: "the server's TLS certificate was refused: " + strings.TrimPrefix(note, "HTTP request failed: "),
			Next: "check the URL's host name against the certificate, or trust its issuer (SSL_CERT_FILE)"}
	}
	return nil
}

func hostOf(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.Host != "" {
		return u.Host
	}
	return raw
}

// authRefused: a 401 or 403, with what the server said and its challenge.
func authRefused(t Target, ev *evidence, err error) *Hint {
	f := ev.refused
	if f == nil || (f.HTTP.Status != http.StatusUnauthorized && f.HTTP.Status != http.StatusForbidden) {
		return nil
	}
	challenge := header(f, "WWW-Authenticate")
	h := &Hint{Cause: "the server answered " + statusBody(f)}
	if challenge != "" {
		h.Cause += " (WWW-Authenticate: " + challenge + ")"
	}
	login := "jig auth login --url " + redactURL(t.URL)
	given := t.Headers["Authorization"] != "" || t.Headers["authorization"] != ""
	switch {
	case f.HTTP.Status == http.StatusForbidden && strings.Contains(challenge, "insufficient_scope"):
		if scope := challengeParam(challenge, "scope"); scope != "" {
			login += fmt.Sprintf(" --scope %q", scope)
		}
		h.Next = "the token lacks a scope the server wants: log in again with " + login
	case f.HTTP.Status == http.StatusForbidden && strings.Contains(strings.ToLower(bodyText(f)), "host"):
		h.Next = "the server accepts requests only for some host names (DNS-rebinding protection): use the URL with the host name it names (localhost rather than 127.0.0.1, or the reverse)"
	case f.HTTP.Status == http.StatusForbidden:
		h.Next = "the server refuses this client: what it said above is why; check the credentials and the server's access rules"
	case t.Transport == TransportSSE:
		h.Next = "jig logs in with OAuth over Streamable HTTP (--transport http); over SSE pass --header 'Authorization: Bearer $TOKEN'"
	case noOAuthMetadata(err) && given:
		h.Next = "the Authorization header given was refused, and the server offers no OAuth metadata to log in with: renew the token"
	case noOAuthMetadata(err):
		h.Next = "the server offers no OAuth metadata, so jig cannot log in: pass a token with --header 'Authorization: Bearer $TOKEN'"
	case given:
		h.Next = "the Authorization header given was refused: renew the token, or drop --header and log in with " + login
	default:
		h.Next = "log in with " + login
	}
	return h
}

// noOAuthMetadata says whether err is an OAuth flow that found no metadata.
func noOAuthMetadata(err error) bool {
	var oe *oauth.Error
	return errors.As(err, &oe) && oe.NoMetadata
}

// wrongEndpoint: the URL answers, but not with the transport jig spoke.
func wrongEndpoint(t Target, ev *evidence, _ error) *Hint {
	f := ev.refused
	if f == nil || (f.HTTP.Status != 400 && f.HTTP.Status != 404 && f.HTTP.Status != 405) {
		return nil
	}
	path := "/"
	if u, err := url.Parse(t.URL); err == nil && u.Path != "" {
		path = u.Path
	}
	sse := strings.HasSuffix(strings.TrimRight(path, "/"), "/sse")
	switch {
	case t.Transport == TransportStreamable && sse:
		return &Hint{Cause: fmt.Sprintf("the path ends in /sse, the usual endpoint of the legacy HTTP+SSE transport, and the server answered a Streamable HTTP POST with %s", statusBody(f)),
			Next: "add --transport sse (unless it is a Streamable HTTP server, whose endpoint is often /mcp)"}
	case t.Transport == TransportStreamable:
		return &Hint{Cause: fmt.Sprintf("the server answered a Streamable HTTP POST to %s with %s", path, statusBody(f)),
			Next: "check the endpoint's path (Streamable HTTP servers often serve /mcp); a legacy HTTP+SSE server takes --transport sse and its /sse URL"}
	case t.Transport == TransportSSE && ev.refusedTo != nil && ev.refusedTo.HTTP.Method == http.MethodGet:
		return &Hint{Cause: fmt.Sprintf("the server answered the SSE transport's GET of %s with %s", path, statusBody(f)),
			Next: "if it is a Streamable HTTP server, use --transport http (often with the path /mcp); else check the path (often /sse)"}
	}
	return nil
}

// serverFailed: a 5xx, with what the server said.
func serverFailed(t Target, ev *evidence, _ error) *Hint {
	f := ev.refused
	if f == nil || f.HTTP.Status < 500 {
		return nil
	}
	return &Hint{Cause: "the server failed on the request: " + statusBody(f),
		Next: "the server's own log says why; --frames shows the request it failed on"}
}

// notMCP: a success that is not MCP at all, such as a web page.
func notMCP(t Target, ev *evidence, _ error) *Hint {
	f := ev.foreign
	if f == nil || ev.refused != nil {
		return nil
	}
	return &Hint{Cause: fmt.Sprintf("the URL answered HTTP %d with %s, not MCP (JSON or an event stream)", f.HTTP.Status, header(f, "Content-Type")),
		Next: "check the URL: it reaches something other than an MCP endpoint (Streamable HTTP servers often serve /mcp)"}
}

// statusBody is an HTTP answer as a hint quotes it: "HTTP 404 Not Found:
// the body", the body cut to a line.
func statusBody(f *frames.Frame) string {
	s := fmt.Sprintf("HTTP %d %s", f.HTTP.Status, http.StatusText(f.HTTP.Status))
	if b := oneLine(bodyText(f)); b != "" {
		s += ": " + b
	}
	return s
}

var (
	htmlTitle = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?is)<title[^>]*>.*?</title>|<head.*?</head>|<(script|style)[^>]*>.*?</(script|style)>`)
	})
	htmlTag = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)<[^>]*>`) })
)

// oneLine is a body as a hint quotes it: an HTML page's text without its
// markup, on one line, at most 160 runes.
func oneLine(body string) string {
	if strings.HasPrefix(strings.TrimSpace(body), "<") {
		body = htmlTag().ReplaceAllString(htmlTitle().ReplaceAllString(body, " "), " ")
	}
	s := strings.Join(strings.Fields(body), " ")
	if r := []rune(s); len(r) > 160 {
		s = string(r[:159]) + "…"
	}
	return s
}

// bodyText is what an HTTP answer's frame holds of its body: the message, or
// the note a transport frame keeps after its reason phrase.
func bodyText(f *frames.Frame) string {
	if len(f.Raw) > 0 {
		return strings.TrimSpace(string(f.Raw))
	}
	note := f.Note
	if i := strings.Index(note, " (WWW-Authenticate:"); i >= 0 {
		note = note[:i]
	}
	if _, rest, ok := strings.Cut(note, ": "); ok {
		return strings.TrimSpace(rest)
	}
	return ""
}

func header(f *frames.Frame, name string) string {
	for k, v := range f.HTTP.Headers {
		if strings.EqualFold(k, name) && len(v) > 0 {
			return strings.Join(v, ", ")
		}
	}
	return ""
}

// challengeParam is a parameter of a WWW-Authenticate challenge: scope="a b".
func challengeParam(challenge, name string) string {
	m := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `="([^"]*)"`).FindStringSubmatch(challenge)
	if m == nil {
		return ""
	}
	return m[1]
}

// capabilityOf is the server capability a client method belongs to.
func capabilityOf(method string) string {
	switch {
	case strings.HasPrefix(method, "tools/"):
		return "tools"
	case strings.HasPrefix(method, "resources/"):
		return "resources"
	case strings.HasPrefix(method, "prompts/"):
		return "prompts"
	case method == "completion/complete":
		return "completions"
	case method == "logging/setLevel":
		return "logging"
	}
	return ""
}

// undeclared explains a "method not found" for a method of a capability the
// server did not declare in its handshake: it does not have that feature,
// and said so; the error is no fault of the request.
func (s *Session) undeclared(method string, re *RPCError) string {
	capability := capabilityOf(method)
	if re.Code != -32601 || capability == "" {
		return ""
	}
	if s.ServerDeclares(capability) {
		if ok, why := s.CanSubscribe(); method == "resources/subscribe" && !ok {
			return why + ", so it has no resources/subscribe"
		}
		return ""
	}
	return fmt.Sprintf("the server did not declare the %s capability in its handshake (it declared: %s), so it has no %s",
		capability, strings.Join(orNone(s.DeclaredCapabilities()), ", "), method)
}

// DeclaredCapabilities are the names of the capabilities the server
// declared, sorted.
func (s *Session) DeclaredCapabilities() []string {
	var caps map[string]json.RawMessage
	if json.Unmarshal(s.info.ServerCapabilities, &caps) != nil {
		return nil
	}
	names := make([]string, 0, len(caps))
	for k := range caps {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

func orNone(s []string) []string {
	if len(s) == 0 {
		return []string{"none"}
	}
	return s
}
