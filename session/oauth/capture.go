package oauth

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/mcpjig/jig/frames"
)

// The steps of a flow, as frames, events and errors name them.
const (
	StepChallenge         = "challenge" // the MCP server's 401 or 403
	StepResourceMetadata  = "protected-resource metadata"
	StepServerMetadata    = "authorization-server metadata"
	StepRegistration      = "client registration"
	StepAuthorization     = "authorization" // the browser at the authorization endpoint
	StepRedirect          = "redirect"      // the browser back at jig's loopback listener
	StepTokenExchange     = "token exchange"
	StepRefresh           = "token refresh"
	StepClientCredentials = "client credentials"
	StepTokenRequest      = "token request" // another grant (token exchange, JWT bearer)
	StepRequest           = "request"
)

// maxBody bounds what of an authorization server's answer is kept in a
// frame and handed on: metadata documents are limited to 1 MB by the SDK.
const maxBody = 4 << 20

// A capture is the http.RoundTripper of every request an OAuth flow makes
// (discovery, registration, token requests, refreshes). It records each as a
// pair of transport frames, with credentials redacted before they reach the
// log, and keeps what the answers said (issuer, endpoints, scopes) so errors
// can name the step and credentials can be stored under their issuer. It is
// not the MCP connection's tap: authorization servers are other hosts, and
// the user's --header values must never go to them.
type capture struct {
	next   http.RoundTripper
	log    *frames.Log
	redact *frames.Redactor
	server string // the MCP endpoint

	mu      sync.Mutex
	prm     *oauthex.ProtectedResourceMetadata
	asms    []*oauthex.AuthServerMeta
	regMeta string // the resource_metadata URL of the last challenge
	last    stepOutcome
}

// stepOutcome is what the last request of the flow came to.
type stepOutcome struct {
	step, url   string
	status      int
	contentType string
	summary     string
	err         error
}

func (c *capture) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil && req.Body != http.NoBody {
		var err error
		if body, err = io.ReadAll(req.Body); err != nil {
			return nil, err
		}
		req.Body.Close()
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	step := c.classify(req, body)
	shownURL := c.redact.URL(req.URL.String())
	info := &frames.HTTP{Method: req.Method, URL: shownURL, Headers: c.redact.Headers(req.Header)}
	c.log.Append(frames.Frame{Dir: frames.ClientToServer, Kind: frames.KindTransport, HTTP: info,
		Note: "OAuth " + step + ": " + req.Method + " " + shownURL + c.origin(step, req), Raw: c.redactBody(req.Header.Get("Content-Type"), body)})

	resp, err := c.next.RoundTrip(req)
	if err != nil {
		c.setLast(stepOutcome{step: step, url: shownURL, err: err})
		c.log.Append(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport, HTTP: &frames.HTTP{Method: req.Method, URL: shownURL},
			Note: "OAuth " + step + ": request failed: " + c.redact.String(err.Error())})
		return nil, err
	}
	rbody, rerr := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(rbody))
	ct := resp.Header.Get("Content-Type")
	// Learn the secrets first, so the frame recording them is redacted.
	summary := c.observe(step, req, resp.StatusCode, ct, rbody)
	if rerr != nil {
		summary += "; reading the body failed: " + rerr.Error()
	}
	c.setLast(stepOutcome{step: step, url: shownURL, status: resp.StatusCode, contentType: ct, summary: summary})
	note := "OAuth " + step + ": " + resp.Status
	if summary != "" {
		note += " — " + summary
	}
	handed := rbody
	if step == StepServerMetadata && resp.StatusCode == http.StatusOK {
		if legacy, why := c.legacyIssuer(req, rbody); legacy != nil {
			handed, note = legacy, note+"; "+why
		}
	}
	c.log.Append(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport,
		HTTP: &frames.HTTP{Method: req.Method, URL: shownURL, Status: resp.StatusCode, Headers: c.redact.Headers(resp.Header)},
		Note: note, Raw: c.redactBody(ct, rbody)})
	resp.Body = io.NopCloser(bytes.NewReader(handed))
	return resp, nil
}

// legacyIssuer accepts the metadata of a 2025-03-26 server, which predates
// protected-resource metadata: with none found, the MCP server's origin is
// the authorization server, and its metadata at the root may name an
// issuer with a path on that same origin (…/oauth). The SDK checks the
// issuer against the origin (RFC 8414 §3.3) and refuses; jig hands it the
// metadata with the origin as issuer — only then, only on the MCP server's
// own origin — and the frame keeps what the server sent. It returns nil
// when the answer is not such a case.
func (c *capture) legacyIssuer(req *http.Request, body []byte) ([]byte, string) {
	c.mu.Lock()
	prm := c.prm
	c.mu.Unlock()
	su, err := url.Parse(c.server)
	if prm != nil || err != nil || req.URL.Host != su.Host || req.URL.Scheme != su.Scheme || req.URL.Path != "/.well-known/oauth-authorization-server" {
		return nil, ""
	}
	var m map[string]json.RawMessage
	var issuer string
	if json.Unmarshal(body, &m) != nil || json.Unmarshal(m["issuer"], &issuer) != nil {
		return nil, ""
	}
	origin := su.Scheme + "://" + su.Host
	iu, err := url.Parse(issuer)
	if err != nil || iu.Scheme != su.Scheme || iu.Host != su.Host || issuer == origin || strings.TrimSuffix(issuer, "/") == origin {
		return nil, ""
	}
	m["issuer"], _ = json.Marshal(origin)
	out, err := json.Marshal(m)
	if err != nil {
		return nil, ""
	}
	return out, fmt.Sprintf("no protected-resource metadata (a 2025-03-26 server): its issuer %s is on the server's own origin, accepted as %s", issuer, origin)
}

// origin says where a protected-resource metadata URL came from.
func (c *capture) origin(step string, req *http.Request) string {
	if step != StepResourceMetadata {
		return ""
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.regMeta != "" && c.regMeta == req.URL.String() {
		return " (from the WWW-Authenticate resource_metadata)"
	}
	return " (the well-known URL)"
}

func (c *capture) setLast(o stepOutcome) {
	c.mu.Lock()
	c.last = o
	c.mu.Unlock()
}

// noMetadata says whether discovery found no OAuth metadata at all.
func (c *capture) noMetadata() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.prm == nil && len(c.asms) == 0
}

func (c *capture) lastOutcome() stepOutcome {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.last
}

// classify names the step a request is.
func (c *capture) classify(req *http.Request, body []byte) string {
	p := req.URL.Path
	switch {
	case strings.Contains(p, "/.well-known/oauth-protected-resource"):
		return StepResourceMetadata
	case strings.Contains(p, "/.well-known/oauth-authorization-server"), strings.Contains(p, "/.well-known/openid-configuration"):
		return StepServerMetadata
	}
	if req.Method != http.MethodPost {
		return StepRequest
	}
	c.mu.Lock()
	for _, m := range c.asms {
		if m.RegistrationEndpoint != "" && m.RegistrationEndpoint == req.URL.String() {
			c.mu.Unlock()
			return StepRegistration
		}
	}
	c.mu.Unlock()
	if form, err := url.ParseQuery(string(body)); err == nil && form.Get("grant_type") != "" {
		switch form.Get("grant_type") {
		case "authorization_code":
			return StepTokenExchange
		case "refresh_token":
			return StepRefresh
		case "client_credentials":
			return StepClientCredentials
		}
		return StepTokenRequest
	}
	if strings.HasSuffix(p, "/register") {
		return StepRegistration
	}
	return StepRequest
}

// observe reads an answer: it adds any credential in it to the redactor and
// returns a one-line summary of what it says.
func (c *capture) observe(step string, req *http.Request, status int, ct string, body []byte) string {
	media, _, _ := mime.ParseMediaType(ct)
	isJSON := media == "application/json" || strings.HasSuffix(media, "+json")
	if status == http.StatusNotFound && (step == StepResourceMetadata || step == StepServerMetadata) {
		return "none here" // discovery tries several well-known URLs
	}
	if status >= 400 {
		return errorSummary(isJSON, media, body)
	}
	switch step {
	case StepResourceMetadata:
		var m oauthex.ProtectedResourceMetadata
		if bad := decode(isJSON, media, body, &m); bad != "" {
			return bad
		}
		c.mu.Lock()
		c.prm = &m
		c.mu.Unlock()
		return fmt.Sprintf("resource %s, authorization servers %s, scopes %s", orNone(m.Resource), list(m.AuthorizationServers), list(m.ScopesSupported))
	case StepServerMetadata:
		var m oauthex.AuthServerMeta
		if bad := decode(isJSON, media, body, &m); bad != "" {
			return bad
		}
		c.mu.Lock()
		c.asms = append(c.asms, &m)
		c.mu.Unlock()
		reg := "no dynamic registration"
		if m.RegistrationEndpoint != "" {
			reg = "dynamic registration"
		}
		if m.ClientIDMetadataDocumentSupported {
			reg += ", client ID metadata documents"
		}
		return fmt.Sprintf("issuer %s, %s, PKCE %s, scopes %s", orNone(m.Issuer), reg, list(m.CodeChallengeMethodsSupported), list(m.ScopesSupported))
	case StepRegistration:
		var r struct {
			ClientID     string `json:"client_id"`
			ClientSecret string `json:"client_secret"`
			AuthMethod   string `json:"token_endpoint_auth_method"`
			RegToken     string `json:"registration_access_token"`
		}
		if bad := decode(isJSON, media, body, &r); bad != "" {
			return bad
		}
		c.redact.Add(r.ClientSecret, r.RegToken)
		secret := "no client secret"
		if r.ClientSecret != "" {
			secret = "a client secret (redacted)"
		}
		return fmt.Sprintf("client_id %s, %s, token endpoint auth %s", r.ClientID, secret, orNone(r.AuthMethod))
	case StepTokenExchange, StepRefresh, StepClientCredentials, StepTokenRequest:
		return c.tokenSummary(isJSON, media, body)
	}
	return ""
}

// tokenSummary reads a token response (JSON, or the form encoding some
// servers still answer with) and learns its tokens.
func (c *capture) tokenSummary(isJSON bool, media string, body []byte) string {
	var t struct {
		AccessToken  string `json:"access_token"`
		RefreshToken string `json:"refresh_token"`
		IDToken      string `json:"id_token"`
		TokenType    string `json:"token_type"`
		Scope        string `json:"scope"`
		ExpiresIn    any    `json:"expires_in"`
	}
	switch {
	case isJSON:
		if err := json.Unmarshal(body, &t); err != nil {
			return "invalid JSON: " + err.Error()
		}
	case media == "application/x-www-form-urlencoded" || media == "text/plain":
		v, err := url.ParseQuery(string(body))
		if err != nil {
			return notJSON(media)
		}
		t.AccessToken, t.RefreshToken, t.TokenType, t.Scope = v.Get("access_token"), v.Get("refresh_token"), v.Get("token_type"), v.Get("scope")
		if e := v.Get("expires_in"); e != "" {
			t.ExpiresIn = e
		}
	default:
		return notJSON(media)
	}
	c.redact.Add(t.AccessToken, t.RefreshToken, t.IDToken)
	if t.AccessToken == "" {
		return "no access_token in the answer"
	}
	s := orNone(t.TokenType) + " token (redacted)"
	if t.ExpiresIn != nil {
		s += fmt.Sprintf(", expires in %vs", t.ExpiresIn)
	}
	if t.Scope != "" {
		s += ", scope " + t.Scope
	}
	if t.RefreshToken != "" {
		s += ", a refresh token"
	}
	return s
}

func errorSummary(isJSON bool, media string, body []byte) string {
	var e struct {
		Error       string `json:"error"`
		Description string `json:"error_description"`
	}
	if isJSON && json.Unmarshal(body, &e) == nil && e.Error != "" {
		if e.Description != "" {
			return fmt.Sprintf("error=%s: %s", e.Error, e.Description)
		}
		return "error=" + e.Error
	}
	if !isJSON && len(bytes.TrimSpace(body)) > 0 {
		return notJSON(media)
	}
	return ""
}

// decode reads a JSON answer into v, or says why it is not one.
func decode(isJSON bool, media string, body []byte, v any) string {
	if !isJSON {
		return notJSON(media)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return "invalid JSON: " + err.Error()
	}
	return ""
}

func notJSON(media string) string {
	if media == "" {
		return "not JSON: no Content-Type"
	}
	return "not JSON: " + media
}

// redactBody is the body of a frame: form bodies by parameter, everything
// by the redactor's values and shapes.
func (c *capture) redactBody(ct string, body []byte) []byte {
	if len(body) == 0 {
		return nil
	}
	media, _, _ := mime.ParseMediaType(ct)
	if media == "application/x-www-form-urlencoded" || media == "text/plain" {
		return c.redact.Form(body)
	}
	return c.redact.Bytes(body)
}

// issuerOf returns the issuer whose metadata names tokenURL as its token
// endpoint, or the token URL's origin (the 2025-03-26 fallback).
func (c *capture) issuerOf(tokenURL string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := len(c.asms) - 1; i >= 0; i-- {
		if c.asms[i].TokenEndpoint == tokenURL {
			return c.asms[i].Issuer
		}
	}
	if u, err := url.Parse(tokenURL); err == nil {
		return u.Scheme + "://" + u.Host
	}
	return tokenURL
}

func (c *capture) resource() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.prm != nil {
		return c.prm.Resource
	}
	return ""
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func list(s []string) string {
	if len(s) == 0 {
		return "(none)"
	}
	return strings.Join(s, " ")
}
