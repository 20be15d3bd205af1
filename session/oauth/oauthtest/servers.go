// Package oauthtest is real servers for jig's OAuth tests, on 127.0.0.1:
// an authorization server (each knob is one way real ones go wrong) and an
// MCP server built from the go-sdk's own pieces (mcp.StreamableHTTPHandler
// behind auth.RequireBearerToken, auth.ProtectedResourceMetadataHandler).
// The browser is the test binary re-executed (see Browse): a real process
// that follows the authorization server's redirect to jig's loopback
// listener. Only tests import it.
package oauthtest

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// BrowserArg is the argument that makes a test binary the browser: a
// TestMain calls Browse when os.Args[1] is BrowserArg.
const BrowserArg = "jig-test-browser"

// MaybeBrowse makes the test binary a browser when it was started as one
// (Browser): a TestMain calls it first.
func MaybeBrowse() {
	if len(os.Args) >= 3 && os.Args[1] == BrowserArg {
		Browse(os.Args[len(os.Args)-1])
	}
}

// Browser is the command that runs the test binary as the browser.
func Browser() []string { return []string{os.Args[0], BrowserArg} }

// Browse is the test browser: it loads the URL and follows redirects, as a
// user's browser does after they approve the login, then exits.
func Browse(u string) {
	resp, err := http.Get(u)
	if err != nil {
		fmt.Fprintln(os.Stderr, "test browser:", err)
		os.Exit(1)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	os.Exit(0)
}

// Knobs are the ways an AuthServer behaves; the zero value is a good server.
type Knobs struct {
	Metadata        string // "" ok, "html", "bad-json", "wrong-issuer", "no-pkce"
	Registration    string // "" ok, "reject", "none" (not advertised)
	Authorize       string // "" redirect with a code, "deny", "bad-state", "bad-iss", "never"
	Token           string // "" ok, "html"
	IssSupported    bool   // advertise and send RFC 9207 iss
	ExpiresIn       int    // seconds; 3600 when 0
	RefreshFails    bool
	ScopesSupported []string
	ClientID        string // a pre-registered client (client_credentials)
	ClientSecret    string
}

// An AuthServer is an OAuth 2.1 authorization server with knobs for the
// ways real ones fail.
type AuthServer struct {
	srv *httptest.Server

	mu             sync.Mutex
	knobs          Knobs
	codes          map[string]codeGrant
	tokens         map[string]issued
	refreshes      map[string]issued
	secrets        []string // everything secret this server ever issued or was sent
	authorizations int
	refreshCount   int
	lastScope      string
	n              int
}

type codeGrant struct {
	challenge, scope, resource, clientID string
}

type issued struct {
	scopes   []string
	expiry   time.Time
	resource string
}

func NewAuthServer(t testing.TB) *AuthServer {
	as := &AuthServer{codes: map[string]codeGrant{}, tokens: map[string]issued{}, refreshes: map[string]issued{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-authorization-server", as.serveMetadata)
	mux.HandleFunc("/register", as.serveRegister)
	mux.HandleFunc("/authorize", as.serveAuthorize)
	mux.HandleFunc("/token", as.serveToken)
	as.srv = httptest.NewServer(mux)
	t.Cleanup(as.srv.Close)
	return as
}

// URL is the issuer.
func (as *AuthServer) URL() string { return as.srv.URL }

// Close stops the server.
func (as *AuthServer) Close() { as.srv.Close() }

// Set changes the knobs.
func (as *AuthServer) Set(change func(*Knobs)) {
	as.mu.Lock()
	change(&as.knobs)
	as.mu.Unlock()
}

func (as *AuthServer) k() Knobs {
	as.mu.Lock()
	defer as.mu.Unlock()
	return as.knobs
}

// Authorizations is how often the authorization endpoint was visited.
func (as *AuthServer) Authorizations() int {
	as.mu.Lock()
	defer as.mu.Unlock()
	return as.authorizations
}

// LastScope is the scope the last authorization request asked for.
func (as *AuthServer) LastScope() string {
	as.mu.Lock()
	defer as.mu.Unlock()
	return as.lastScope
}

// Remember adds a value to Secrets (one the test gave jig).
func (as *AuthServer) Remember(s string) { as.remember(s) }

func (as *AuthServer) secret(prefix string) string {
	as.mu.Lock()
	defer as.mu.Unlock()
	as.n++
	s := fmt.Sprintf("%s-%d-%s", prefix, as.n, rand.Text())
	as.secrets = append(as.secrets, s)
	return s
}

func (as *AuthServer) remember(s string) {
	as.mu.Lock()
	as.secrets = append(as.secrets, s)
	as.mu.Unlock()
}

// Secrets returns every secret the server issued or received.
func (as *AuthServer) Secrets() []string {
	as.mu.Lock()
	defer as.mu.Unlock()
	return append([]string(nil), as.secrets...)
}

func (as *AuthServer) serveMetadata(w http.ResponseWriter, r *http.Request) {
	k := as.k()
	m := map[string]any{
		"issuer":                                as.srv.URL,
		"authorization_endpoint":                as.srv.URL + "/authorize",
		"token_endpoint":                        as.srv.URL + "/token",
		"response_types_supported":              []string{"code"},
		"grant_types_supported":                 []string{"authorization_code", "refresh_token", "client_credentials"},
		"code_challenge_methods_supported":      []string{"S256"},
		"token_endpoint_auth_methods_supported": []string{"none", "client_secret_basic"},
	}
	if k.Registration != "none" {
		m["registration_endpoint"] = as.srv.URL + "/register"
	}
	if k.ScopesSupported != nil {
		m["scopes_supported"] = k.ScopesSupported
	}
	if k.IssSupported {
		m["authorization_response_iss_parameter_supported"] = true
	}
	switch k.Metadata {
	case "html":
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<html><body>Sign in to continue</body></html>")
		return
	case "bad-json":
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"issuer": "`+as.srv.URL+`", "token_endpoint": `)
		return
	case "wrong-issuer":
		m["issuer"] = "https://someone-else.example"
	case "no-pkce":
		delete(m, "code_challenge_methods_supported")
	}
	writeJSON(w, http.StatusOK, m)
}

func (as *AuthServer) serveRegister(w http.ResponseWriter, r *http.Request) {
	if as.k().Registration == "reject" {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_client_metadata", "error_description": "registration is closed to new clients"})
		return
	}
	var meta oauthex.ClientRegistrationMetadata
	json.NewDecoder(r.Body).Decode(&meta)
	as.mu.Lock()
	as.n++
	id := fmt.Sprintf("client-%d", as.n) // a client_id is public
	as.mu.Unlock()
	secret := as.secret("client-secret")
	writeJSON(w, http.StatusCreated, map[string]any{"client_id": id, "client_secret": secret, "redirect_uris": meta.RedirectURIs, "token_endpoint_auth_method": "client_secret_basic"})
}

func (as *AuthServer) serveAuthorize(w http.ResponseWriter, r *http.Request) {
	k := as.k()
	q := r.URL.Query()
	as.mu.Lock()
	as.authorizations++
	as.lastScope = q.Get("scope")
	as.mu.Unlock()
	if q.Get("code_challenge") == "" || q.Get("code_challenge_method") != "S256" {
		http.Error(w, "PKCE S256 is required", http.StatusBadRequest)
		return
	}
	back, err := url.Parse(q.Get("redirect_uri"))
	if err != nil {
		http.Error(w, "bad redirect_uri", http.StatusBadRequest)
		return
	}
	v := url.Values{}
	state := q.Get("state")
	switch k.Authorize {
	case "never":
		io.WriteString(w, "<html><body>Please sign in (this page never redirects)</body></html>")
		return
	case "deny":
		v.Set("error", "access_denied")
		v.Set("error_description", "The user declined")
	case "bad-state":
		state = "forged-state"
		fallthrough
	default:
		code := as.secret("code")
		as.mu.Lock()
		as.codes[code] = codeGrant{challenge: q.Get("code_challenge"), scope: q.Get("scope"), resource: q.Get("resource"), clientID: q.Get("client_id")}
		as.mu.Unlock()
		v.Set("code", code)
	}
	v.Set("state", state)
	switch {
	case k.Authorize == "bad-iss":
		v.Set("iss", "https://evil.example")
	case k.IssSupported:
		v.Set("iss", as.srv.URL)
	}
	back.RawQuery = v.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

func (as *AuthServer) serveToken(w http.ResponseWriter, r *http.Request) {
	k := as.k()
	r.ParseForm()
	for _, k := range []string{"code", "code_verifier", "refresh_token", "client_secret"} {
		if v := r.PostForm.Get(k); v != "" {
			as.remember(v)
		}
	}
	if k.Token == "html" {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<!doctype html><html><body>Our login page moved</body></html>")
		return
	}
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		as.mu.Lock()
		g, ok := as.codes[r.PostForm.Get("code")]
		delete(as.codes, r.PostForm.Get("code"))
		as.mu.Unlock()
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		if !ok || base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant", "error_description": "unknown code or PKCE verifier"})
			return
		}
		as.issue(w, strings.Fields(g.scope), g.resource)
	case "refresh_token":
		as.mu.Lock()
		as.refreshCount++
		g, ok := as.refreshes[r.PostForm.Get("refresh_token")]
		as.mu.Unlock()
		if !ok || k.RefreshFails {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant", "error_description": "the refresh token was revoked"})
			return
		}
		as.issue(w, g.scopes, g.resource)
	case "client_credentials":
		id, secret, ok := r.BasicAuth()
		if !ok {
			id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
		}
		if k.ClientID == "" || id != k.ClientID || secret != k.ClientSecret {
			writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_client"})
			return
		}
		as.issue(w, strings.Fields(r.PostForm.Get("scope")), r.PostForm.Get("resource"))
	default:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "unsupported_grant_type"})
	}
}

func (as *AuthServer) issue(w http.ResponseWriter, scopes []string, resource string) {
	exp := as.k().ExpiresIn
	if exp == 0 {
		exp = 3600
	}
	access, refresh := as.secret("access"), as.secret("refresh")
	g := issued{scopes: scopes, expiry: time.Now().Add(time.Duration(exp) * time.Second), resource: resource}
	as.mu.Lock()
	as.tokens[access] = g
	as.refreshes[refresh] = g
	as.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"access_token": access, "token_type": "Bearer", "expires_in": exp, "refresh_token": refresh, "scope": strings.Join(scopes, " ")})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// A resourceServer is an MCP server behind bearer tokens from an
// authServer. Its "publish" tool needs the "write" scope: calling it with a
// read token is answered 403 insufficient_scope (step-up).
type ResourceServer struct {
	srv    *httptest.Server
	as     *AuthServer
	prmURL string

	mu sync.Mutex
	// authServers is what the protected-resource metadata names; as by default.
	authServers []string
	seen        []string // every bearer token the server was sent
}

// PointTo makes the protected-resource metadata name these authorization
// servers instead of the AuthServer.
func (rs *ResourceServer) PointTo(servers ...string) {
	rs.mu.Lock()
	rs.authServers = servers
	rs.mu.Unlock()
}

func NewResourceServer(t testing.TB, as *AuthServer) *ResourceServer {
	rs := &ResourceServer{as: as}
	server := mcp.NewServer(&mcp.Implementation{Name: "oauth-test", Version: "1.0.0"}, nil)
	server.AddTool(&mcp.Tool{Name: "echo", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
		})
	server.AddTool(&mcp.Tool{Name: "publish", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "published"}}}, nil
		})
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	mux := http.NewServeMux()
	rs.srv = httptest.NewServer(mux)
	t.Cleanup(rs.srv.Close)
	rs.prmURL = rs.srv.URL + "/.well-known/oauth-protected-resource/mcp"
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		rs.mu.Lock()
		servers := rs.authServers
		rs.mu.Unlock()
		if servers == nil {
			servers = []string{as.srv.URL}
		}
		auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
			Resource: rs.srv.URL + "/mcp", AuthorizationServers: servers, ScopesSupported: []string{"read", "write"},
		}).ServeHTTP(w, r)
	})
	mux.Handle("/mcp", auth.RequireBearerToken(rs.verify, &auth.RequireBearerTokenOptions{ResourceMetadataURL: rs.prmURL})(rs.stepUp(handler)))
	return rs
}

// URL is the MCP endpoint.
func (rs *ResourceServer) URL() string { return rs.srv.URL + "/mcp" }

func (rs *ResourceServer) verify(ctx context.Context, token string, req *http.Request) (*auth.TokenInfo, error) {
	rs.mu.Lock()
	rs.seen = append(rs.seen, token)
	rs.mu.Unlock()
	rs.as.mu.Lock()
	g, ok := rs.as.tokens[token]
	rs.as.mu.Unlock()
	if !ok {
		return nil, auth.ErrInvalidToken
	}
	return &auth.TokenInfo{Scopes: g.scopes, Expiration: g.expiry}, nil
}

// Seen returns the bearer tokens the server was sent.
func (rs *ResourceServer) Seen() []string {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return append([]string(nil), rs.seen...)
}

func (rs *ResourceServer) stepUp(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var msg struct {
			Method string `json:"method"`
			Params struct {
				Name string `json:"name"`
			} `json:"params"`
		}
		json.Unmarshal(body, &msg)
		if msg.Method == "tools/call" && msg.Params.Name == "publish" {
			if ti := auth.TokenInfoFromContext(r.Context()); ti == nil || !slices.Contains(ti.Scopes, "write") {
				w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope="read write", resource_metadata=%q`, rs.prmURL))
				http.Error(w, "insufficient scope", http.StatusForbidden)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}
