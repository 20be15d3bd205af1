package oauth_test

// Real servers for the OAuth tests, on 127.0.0.1: an authorization server
// written for these tests (each knob is one way real ones go wrong) and an
// MCP server built from the go-sdk's own pieces (mcp.StreamableHTTPHandler
// behind auth.RequireBearerToken, auth.ProtectedResourceMetadataHandler).
// The browser is this test binary re-executed: a real process that follows
// the authorization server's redirect to jig's loopback listener.

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

func TestMain(m *testing.M) {
	if len(os.Args) >= 3 && os.Args[1] == "jig-test-browser" {
		browse(os.Args[len(os.Args)-1])
		return
	}
	os.Exit(m.Run())
}

// browse is the test browser: it loads the URL and follows redirects, as a
// user's browser does after they approve the login.
func browse(u string) {
	resp, err := http.Get(u)
	if err != nil {
		fmt.Fprintln(os.Stderr, "test browser:", err)
		os.Exit(1)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	os.Exit(0)
}

// testBrowser is the Options.Browser that runs browse.
func testBrowser() []string { return []string{os.Args[0], "jig-test-browser"} }

// An authServer is an OAuth 2.1 authorization server with knobs for the ways
// real ones fail.
type authServer struct {
	srv *httptest.Server

	// Knobs, set before the flow starts.
	metadata        string // "" ok, "html", "bad-json", "wrong-issuer", "no-pkce"
	registration    string // "" ok, "reject", "none" (not advertised)
	authorize       string // "" redirect with a code, "deny", "bad-state", "bad-iss", "never"
	token           string // "" ok, "html"
	issSupported    bool   // advertise and send RFC 9207 iss
	expiresIn       int    // seconds; 3600 when 0
	refreshFails    bool
	scopesSupported []string
	clientID        string // a pre-registered client (client_credentials)
	clientSecret    string

	mu             sync.Mutex
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

func newAuthServer(t *testing.T) *authServer {
	as := &authServer{codes: map[string]codeGrant{}, tokens: map[string]issued{}, refreshes: map[string]issued{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-authorization-server", as.serveMetadata)
	mux.HandleFunc("/register", as.serveRegister)
	mux.HandleFunc("/authorize", as.serveAuthorize)
	mux.HandleFunc("/token", as.serveToken)
	as.srv = httptest.NewServer(mux)
	t.Cleanup(as.srv.Close)
	return as
}

func (as *authServer) secret(prefix string) string {
	as.mu.Lock()
	defer as.mu.Unlock()
	as.n++
	s := fmt.Sprintf("%s-%d-%s", prefix, as.n, rand.Text())
	as.secrets = append(as.secrets, s)
	return s
}

func (as *authServer) remember(s string) {
	as.mu.Lock()
	as.secrets = append(as.secrets, s)
	as.mu.Unlock()
}

// Secrets returns every secret the server issued or received.
func (as *authServer) Secrets() []string {
	as.mu.Lock()
	defer as.mu.Unlock()
	return append([]string(nil), as.secrets...)
}

func (as *authServer) serveMetadata(w http.ResponseWriter, r *http.Request) {
	m := map[string]any{
		"issuer":                                as.srv.URL,
		"authorization_endpoint":                as.srv.URL + "/authorize",
		"token_endpoint":                        as.srv.URL + "/token",
		"response_types_supported":              []string{"code"},
		"grant_types_supported":                 []string{"authorization_code", "refresh_token", "client_credentials"},
		"code_challenge_methods_supported":      []string{"S256"},
		"token_endpoint_auth_methods_supported": []string{"none", "client_secret_basic"},
	}
	if as.registration != "none" {
		m["registration_endpoint"] = as.srv.URL + "/register"
	}
	if as.scopesSupported != nil {
		m["scopes_supported"] = as.scopesSupported
	}
	if as.issSupported {
		m["authorization_response_iss_parameter_supported"] = true
	}
	switch as.metadata {
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

func (as *authServer) serveRegister(w http.ResponseWriter, r *http.Request) {
	if as.registration == "reject" {
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

func (as *authServer) serveAuthorize(w http.ResponseWriter, r *http.Request) {
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
	switch as.authorize {
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
	case as.authorize == "bad-iss":
		v.Set("iss", "https://evil.example")
	case as.issSupported:
		v.Set("iss", as.srv.URL)
	}
	back.RawQuery = v.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

func (as *authServer) serveToken(w http.ResponseWriter, r *http.Request) {
	r.ParseForm()
	for _, k := range []string{"code", "code_verifier", "refresh_token", "client_secret"} {
		if v := r.PostForm.Get(k); v != "" {
			as.remember(v)
		}
	}
	if as.token == "html" {
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
		if !ok || as.refreshFails {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant", "error_description": "the refresh token was revoked"})
			return
		}
		as.issue(w, g.scopes, g.resource)
	case "client_credentials":
		id, secret, ok := r.BasicAuth()
		if !ok {
			id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
		}
		if as.clientID == "" || id != as.clientID || secret != as.clientSecret {
			writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_client"})
			return
		}
		as.issue(w, strings.Fields(r.PostForm.Get("scope")), r.PostForm.Get("resource"))
	default:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "unsupported_grant_type"})
	}
}

func (as *authServer) issue(w http.ResponseWriter, scopes []string, resource string) {
	exp := as.expiresIn
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
type resourceServer struct {
	srv    *httptest.Server
	as     *authServer
	prmURL string
	// authServers is what the protected-resource metadata names; as by default.
	authServers []string

	mu   sync.Mutex
	seen []string // every bearer token the server was sent
}

func newResourceServer(t *testing.T, as *authServer) *resourceServer {
	rs := &resourceServer{as: as}
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
		servers := rs.authServers
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
func (rs *resourceServer) URL() string { return rs.srv.URL + "/mcp" }

func (rs *resourceServer) verify(ctx context.Context, token string, req *http.Request) (*auth.TokenInfo, error) {
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
func (rs *resourceServer) Seen() []string {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return append([]string(nil), rs.seen...)
}

func (rs *resourceServer) stepUp(next http.Handler) http.Handler {
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
