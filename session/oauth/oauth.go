// Package oauth is jig's side of MCP authorization: the user-facing flow
// around the official go-sdk's client authorization (its auth, auth/extauth
// and oauthex packages do the protocol: discovery, client registration,
// PKCE, the token exchange, step-up, refresh), the capture of every step of
// the flow as transport frames with credentials redacted, and the store that
// keeps tokens per server and issuer, in the OS keyring or a file only the
// user can read.
//
// A Handler is the auth.OAuthHandler jig gives the Streamable HTTP transport.
// It never imports the session package: session builds one per connection.
package oauth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/auth/extauth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/mcpjig/jig/frames"
)

// Mode says what jig may do when a server asks for authorization.
type Mode int

const (
	// Interactive logs in when the server asks: the browser (or a printed
	// URL) and a loopback redirect.
	Interactive Mode = iota
	// StoredOnly never starts a login: stored credentials (refreshed when
	// they expire) or a NeedsLoginError. For CI.
	StoredOnly
	// ClientCredentials uses the client_credentials grant with a
	// pre-registered client, for service accounts: no user, no browser.
	ClientCredentials
)

// Options configure a Handler.
type Options struct {
	Server string // the MCP endpoint, as the user gave it
	Mode   Mode
	// ClientID and ClientSecret are a pre-registered client (--client-id,
	// --client-secret-env); without them jig registers itself dynamically.
	ClientID, ClientSecret string
	// ClientMetadataURL is a client ID metadata document jig is known by
	// (an https URL), used when the authorization server supports them.
	ClientMetadataURL string
	// Scopes, when set, are requested instead of what the server suggests.
	Scopes []string
	// RedirectURL is where the browser comes back; default
	// http://127.0.0.1:<free port>/callback.
	RedirectURL string
	NoBrowser   bool
	Browser     []string      // the command that opens a URL; default $BROWSER or the platform's
	Wait        time.Duration // how long to wait for the redirect; DefaultWait when 0
	// Store keeps credentials across sessions; nil keeps them in memory.
	Store *Store
	// Fresh ignores stored credentials: jig auth login.
	Fresh bool
	Log   *frames.Log
	// Redact learns every token, code and secret of the flow, so that
	// whatever writes the session can redact them.
	Redact *frames.Redactor
	// OnEvent is told each step, for the CLI's stderr and the TUI's panel.
	OnEvent func(Event)
	// OnWait is called with true while the flow waits on the user (the
	// browser), and false after: callers pause their timeouts meanwhile.
	OnWait func(waiting bool)
	// Transport is the base of the flow's HTTP requests; nil means a guarded
	// copy of http.DefaultTransport (see guardedTransport).
	Transport http.RoundTripper
}

// An Event is one step of a flow as a user should see it.
type Event struct {
	Step   string
	Text   string
	URL    string // StepAuthorization: the URL to open
	Issuer string
	Scopes []string
	Expiry time.Time
	Stored string // where the credentials were stored
	Err    error
}

// A Grant is the authorization a session uses.
type Grant struct {
	Source   string // "stored", "login", "refreshed", "client credentials"
	Server   string
	Issuer   string
	Resource string
	Scopes   []string
	Expiry   time.Time
	Stored   string // where it is stored; "" when not
}

// Handler is jig's auth.OAuthHandler.
type Handler struct {
	opts   Options
	log    *frames.Log
	redact *frames.Redactor
	cap    *capture
	client *http.Client

	mu        sync.Mutex
	stored    oauth2.TokenSource // from the store, nil when none is usable
	storedWhy string             // why no stored credentials are usable
	inner     auth.OAuthHandler
	listener  *listener
	grant     *Grant
	logins    int
	stepUp    bool  // the last challenge was a 403 insufficient_scope
	failed    error // a failed authorization is final for the session
}

var _ auth.OAuthHandler = (*Handler)(nil)

// maxLogins bounds the logins of one session: a server that refuses every
// fresh token must not send the user to the browser forever.
const maxLogins = 3

// New returns a Handler. It reads the store (unless opts.Fresh), so a
// session starts with the stored token and never asks for a login it does
// not need.
func New(opts Options) (*Handler, error) {
	if opts.Log == nil {
		opts.Log = frames.NewLog(nil)
	}
	if opts.Redact == nil {
		opts.Redact = frames.NewRedactor()
	}
	if opts.Mode == ClientCredentials && (opts.ClientID == "" || opts.ClientSecret == "") {
		return nil, errors.New("--client-credentials needs --client-id and --client-secret-env (a pre-registered confidential client)")
	}
	if opts.ClientMetadataURL != "" {
		if u, err := url.Parse(opts.ClientMetadataURL); err != nil || u.Scheme != "https" || u.Path == "" || u.Path == "/" {
			return nil, fmt.Errorf("--client-metadata-url %q: a client ID metadata document is an https URL with a path", opts.ClientMetadataURL)
		}
	}
	opts.Redact.Add(opts.ClientSecret)
	base := opts.Transport
	if base == nil {
		base = guardedTransport(opts.Server)
	}
	h := &Handler{opts: opts, log: opts.Log, redact: opts.Redact}
	h.cap = &capture{next: base, log: opts.Log, redact: opts.Redact, server: opts.Server}
	h.client = &http.Client{Transport: h.cap, Timeout: 30 * time.Second}
	if opts.Mode == ClientCredentials {
		cc, err := extauth.NewClientCredentialsHandler(&extauth.ClientCredentialsHandlerConfig{
			Credentials: &oauthex.ClientCredentials{ClientID: opts.ClientID, ClientSecretAuth: &oauthex.ClientSecretAuth{ClientSecret: opts.ClientSecret}},
			HTTPClient:  h.client,
		})
		if err != nil {
			return nil, err
		}
		h.inner = cc
		return h, nil
	}
	h.loadStored()
	return h, nil
}

// loadStored makes the stored token, if one is usable, the first one sent.
func (h *Handler) loadStored() {
	switch {
	case h.opts.Fresh:
		h.storedWhy = "a fresh login was asked for"
		return
	case h.opts.Store == nil:
		h.storedWhy = "no credentials store"
		return
	}
	e, sec, err := h.opts.Store.Lookup(h.opts.Server)
	switch {
	case err != nil:
		h.storedWhy = err.Error()
		return
	case e == nil:
		h.storedWhy = "no stored credentials for it"
		return
	}
	h.redact.Add(sec.Values()...)
	if !e.Expiry.IsZero() && time.Now().After(e.Expiry) && sec.RefreshToken == "" {
		h.storedWhy = fmt.Sprintf("the stored token (issuer %s) expired %s and has no refresh token", e.Issuer, e.Expiry.Format(time.RFC3339))
		return
	}
	cfg := &oauth2.Config{ClientID: e.ClientID, ClientSecret: sec.ClientSecret, Scopes: e.Scopes,
		Endpoint: oauth2.Endpoint{AuthURL: e.AuthURL, TokenURL: e.TokenURL, AuthStyle: oauth2.AuthStyle(e.AuthStyle)}}
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, h.client)
	tok := sec.token(e)
	h.stored = &persisting{h: h, base: cfg.TokenSource(ctx, tok), last: tok, entry: *e, clientSecret: sec.ClientSecret}
	h.storedWhy = fmt.Sprintf("the stored token (issuer %s) was refused", e.Issuer)
	h.grant = &Grant{Source: "stored", Server: e.Server, Issuer: e.Issuer, Resource: e.Resource, Scopes: e.Scopes, Expiry: e.Expiry, Stored: e.Storage}
}

// TokenSource is the token the transport sends: the stored one until a
// login or a grant replaces it.
func (h *Handler) TokenSource(ctx context.Context) (oauth2.TokenSource, error) {
	h.mu.Lock()
	inner, stored := h.inner, h.stored
	h.mu.Unlock()
	if inner != nil {
		return inner.TokenSource(ctx)
	}
	if stored == nil {
		return nil, nil
	}
	return stored, nil
}

// Grant returns the authorization in use, or nil before any.
func (h *Handler) Grant() *Grant {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.grant == nil {
		return nil
	}
	g := *h.grant
	return &g
}

// Close stops the redirect listener.
func (h *Handler) Close() {
	h.mu.Lock()
	l := h.listener
	h.listener = nil
	h.mu.Unlock()
	if l != nil {
		l.close()
	}
}

// Authorize answers the server's 401 (or 403 insufficient_scope): a login,
// a client-credentials grant, or — when jig may not log in — a
// NeedsLoginError naming the command that would.
func (h *Handler) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	challenges, _ := oauthex.ParseWWWAuthenticate(resp.Header[http.CanonicalHeaderKey("WWW-Authenticate")])
	errCode, scopes, metaURL := challengeParams(challenges)
	if resp.StatusCode == http.StatusForbidden && errCode != "insufficient_scope" {
		// A plain 403 is the server's answer, not a request to authorize.
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return nil
	}
	h.mu.Lock()
	failed := h.failed
	h.mu.Unlock()
	if failed != nil {
		// The SDK retries a refused server/discover with initialize: one
		// failed login (or refusal to log in) must not become two.
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return failed
	}
	h.cap.mu.Lock()
	h.cap.regMeta = metaURL
	h.cap.mu.Unlock()
	text := fmt.Sprintf("the server answered %s: it needs OAuth", resp.Status)
	if resp.StatusCode == http.StatusForbidden {
		text = fmt.Sprintf("the server answered 403 insufficient_scope: it needs scope %q (step-up)", strings.Join(scopes, " "))
	}
	h.emit(Event{Step: StepChallenge, Text: text, Scopes: scopes})

	h.mu.Lock()
	why := h.storedWhy
	if resp.StatusCode == http.StatusForbidden {
		why = fmt.Sprintf("the server asks for more scope (%s)", strings.Join(scopes, " "))
	}
	h.logins++
	logins := h.logins
	h.stepUp = resp.StatusCode == http.StatusForbidden
	h.mu.Unlock()
	if h.opts.Mode == StoredOnly {
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		err := &NeedsLoginError{Server: h.opts.Server, Reason: why, Scopes: scopes}
		h.fail(err)
		h.emit(Event{Step: StepChallenge, Err: err})
		return err
	}
	if logins > maxLogins {
		resp.Body.Close()
		err := &Error{Step: StepChallenge, URL: req.URL.String(), Err: fmt.Errorf("the server refused %d fresh authorizations in this session", maxLogins),
			Hint: "its tokens, scopes or audience do not match what it checks; the frames show each attempt"}
		h.fail(err)
		h.emit(Event{Step: StepChallenge, Err: err})
		return err
	}
	inner, err := h.ensureInner()
	if err != nil {
		resp.Body.Close()
		return err
	}
	if err := inner.Authorize(ctx, req, resp); err != nil {
		werr := h.explain(err)
		h.fail(werr)
		h.emit(Event{Step: werr.Step, Err: werr})
		return werr
	}
	if h.opts.Mode == ClientCredentials {
		h.clientCredentialsGrant(ctx, inner)
	}
	g := h.Grant()
	if g != nil {
		h.emit(Event{Step: "done", Text: "authorized", Issuer: g.Issuer, Scopes: g.Scopes, Expiry: g.Expiry, Stored: g.Stored})
	}
	return nil
}

func (h *Handler) fail(err error) {
	h.mu.Lock()
	h.failed = err
	h.mu.Unlock()
}

// challengeParams reads the Bearer challenge: its error, scope and
// resource_metadata.
func challengeParams(cs []oauthex.Challenge) (errCode string, scopes []string, metaURL string) {
	for _, c := range cs {
		if c.Scheme != "bearer" {
			continue
		}
		if errCode == "" {
			errCode = c.Params["error"]
		}
		if scopes == nil && c.Params["scope"] != "" {
			scopes = strings.Fields(c.Params["scope"])
		}
		if metaURL == "" {
			metaURL = c.Params["resource_metadata"]
		}
	}
	return errCode, scopes, metaURL
}

// ensureInner builds the SDK's authorization-code handler on the first
// challenge: only then does jig listen for a redirect.
func (h *Handler) ensureInner() (auth.OAuthHandler, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.inner != nil {
		return h.inner, nil
	}
	redirectURL := h.opts.RedirectURL
	if redirectURL == "" {
		redirectURL = "http://127.0.0.1:0/callback"
	}
	l, err := listen(redirectURL)
	if err != nil {
		return nil, &Error{Step: StepRedirect, Err: err}
	}
	cfg := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL:              l.url,
		AuthorizationCodeFetcher: h.fetcher(l),
		Client:                   h.client,
		RequestRefreshToken:      true,
		NewTokenSource:           h.newTokenSource,
		ScopeFilter:              h.scopeFilter,
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			RedirectURIs:            []string{l.url},
			ClientName:              "jig",
			ClientURI:               "https://github.com/mcpjig/jig",
			GrantTypes:              []string{"authorization_code", "refresh_token"},
			ResponseTypes:           []string{"code"},
			TokenEndpointAuthMethod: "none",
			SoftwareID:              "jig",
		}},
	}
	if h.stored != nil {
		cfg.InitialTokenSource = h.stored
	}
	if h.opts.ClientMetadataURL != "" {
		cfg.ClientIDMetadataDocumentConfig = &auth.ClientIDMetadataDocumentConfig{URL: h.opts.ClientMetadataURL}
	}
	if h.opts.ClientID != "" {
		cfg.PreregisteredClient = &oauthex.ClientCredentials{ClientID: h.opts.ClientID}
		if h.opts.ClientSecret != "" {
			cfg.PreregisteredClient.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: h.opts.ClientSecret}
		}
	}
	inner, err := auth.NewAuthorizationCodeHandler(cfg)
	if err != nil {
		l.close()
		return nil, &Error{Step: StepAuthorization, Err: err}
	}
	h.listener, h.inner = l, inner
	return inner, nil
}

// scopeFilter requests the user's --scope instead of the server's
// suggestion; a step-up adds what the server asks for.
func (h *Handler) scopeFilter(discovered []string) []string {
	if len(h.opts.Scopes) == 0 {
		return discovered
	}
	out := append([]string(nil), h.opts.Scopes...)
	h.mu.Lock()
	stepUp := h.stepUp
	h.mu.Unlock()
	if stepUp {
		for _, s := range discovered {
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// newTokenSource is called by the SDK with a freshly exchanged token: jig
// stores it and wraps the source so refreshed tokens are stored too.
func (h *Handler) newTokenSource(ctx context.Context, cfg *oauth2.Config, tok *oauth2.Token) (oauth2.TokenSource, error) {
	e := Entry{
		Server:   CanonicalServer(h.opts.Server),
		Resource: h.cap.resource(),
		Issuer:   h.cap.issuerOf(cfg.Endpoint.TokenURL),
		Grant:    "authorization_code",
		ClientID: cfg.ClientID, AuthURL: cfg.Endpoint.AuthURL, TokenURL: cfg.Endpoint.TokenURL, AuthStyle: int(cfg.Endpoint.AuthStyle),
		Scopes:   grantedScopes(tok, cfg.Scopes),
		Expiry:   tok.Expiry,
		Obtained: time.Now().UTC(),
	}
	switch cfg.ClientID {
	case h.opts.ClientMetadataURL:
		e.Registration = "metadata-document"
	case h.opts.ClientID:
		e.Registration = "pre-registered"
	default:
		e.Registration = "dynamic"
	}
	p := &persisting{h: h, base: cfg.TokenSource(ctx, tok), last: tok, entry: e, clientSecret: cfg.ClientSecret}
	h.redact.Add(tok.AccessToken, tok.RefreshToken, cfg.ClientSecret)
	stored := p.save(tok)
	h.mu.Lock()
	h.grant = &Grant{Source: "login", Server: e.Server, Issuer: e.Issuer, Resource: e.Resource, Scopes: e.Scopes, Expiry: e.Expiry, Stored: stored}
	h.storedWhy = fmt.Sprintf("the token from this session's login (issuer %s) was refused", e.Issuer)
	h.mu.Unlock()
	return p, nil
}

func (h *Handler) clientCredentialsGrant(ctx context.Context, inner auth.OAuthHandler) {
	ts, _ := inner.TokenSource(ctx)
	if ts == nil {
		return
	}
	tok, err := ts.Token()
	if err != nil {
		return
	}
	h.redact.Add(tok.AccessToken)
	last := h.cap.lastOutcome()
	issuer := ""
	if last.step == StepClientCredentials {
		h.cap.mu.Lock()
		if n := len(h.cap.asms); n > 0 {
			issuer = h.cap.asms[n-1].Issuer
		}
		h.cap.mu.Unlock()
	}
	h.mu.Lock()
	h.grant = &Grant{Source: "client credentials", Server: CanonicalServer(h.opts.Server), Issuer: issuer, Resource: h.cap.resource(), Scopes: grantedScopes(tok, nil), Expiry: tok.Expiry}
	h.mu.Unlock()
}

// grantedScopes are the scopes a token was granted (its "scope", else what
// was asked for), sorted: their order means nothing, and a stored entry or
// a fixture must not change with it.
func grantedScopes(tok *oauth2.Token, requested []string) []string {
	out := append([]string(nil), requested...)
	if s, ok := tok.Extra("scope").(string); ok && s != "" {
		out = strings.Fields(s)
	}
	slices.Sort(out)
	return out
}

func (h *Handler) emit(e Event) {
	if h.opts.OnEvent != nil {
		h.opts.OnEvent(e)
	}
}

func (h *Handler) waiting(w bool) {
	if h.opts.OnWait != nil {
		h.opts.OnWait(w)
	}
}

// A persisting token source stores every token it hands out that differs
// from the last one (a refresh), and turns a failed refresh into "no
// token", so the server's 401 starts a login (or a NeedsLoginError) instead
// of failing the request.
type persisting struct {
	h            *Handler
	base         oauth2.TokenSource
	entry        Entry
	clientSecret string

	mu   sync.Mutex
	last *oauth2.Token
	dead bool
}

func (p *persisting) Token() (*oauth2.Token, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.dead {
		return nil, &oauth2.RetrieveError{ErrorCode: "invalid_grant", ErrorDescription: "refreshing the token failed earlier"}
	}
	tok, err := p.base.Token()
	if err != nil {
		p.dead = true
		reason := fmt.Sprintf("the token (issuer %s) expired and refreshing it failed: %s", p.entry.Issuer, p.h.redact.String(err.Error()))
		p.h.mu.Lock()
		p.h.storedWhy = reason
		p.h.mu.Unlock()
		p.h.emit(Event{Step: StepRefresh, Err: errors.New(reason)})
		return nil, &oauth2.RetrieveError{ErrorCode: "invalid_grant", ErrorDescription: reason}
	}
	if tok.AccessToken != p.last.AccessToken {
		p.h.redact.Add(tok.AccessToken, tok.RefreshToken)
		p.entry.Refreshed = time.Now().UTC()
		p.entry.Expiry = tok.Expiry
		stored := p.save(tok)
		p.h.mu.Lock()
		if p.h.grant != nil {
			p.h.grant.Source, p.h.grant.Expiry, p.h.grant.Stored = "refreshed", tok.Expiry, stored
		}
		p.h.mu.Unlock()
		p.h.emit(Event{Step: StepRefresh, Text: "the token was refreshed", Issuer: p.entry.Issuer, Expiry: tok.Expiry, Stored: stored})
		p.last = tok
	}
	return tok, nil
}

// save stores tok under the entry and says where; "" when there is no store
// or storing failed (the session goes on with the token in memory).
func (p *persisting) save(tok *oauth2.Token) string {
	st := p.h.opts.Store
	if st == nil {
		return ""
	}
	where, err := st.Save(p.entry, Secrets{AccessToken: tok.AccessToken, TokenType: tok.TokenType, RefreshToken: tok.RefreshToken, ClientSecret: p.clientSecret})
	if err != nil {
		p.h.emit(Event{Step: "store", Err: fmt.Errorf("the credentials could not be stored (this session still uses them): %w", err)})
		return ""
	}
	return where
}

// explain turns an error of the SDK's flow into an Error naming the step
// that failed and what to do.
func (h *Handler) explain(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	last := h.cap.lastOutcome()
	msg := h.redact.String(err.Error())
	out := &Error{Step: last.step, Err: errors.New(msg)}
	if out.Step == "" || out.Step == StepRequest {
		out.Step = StepAuthorization
	}
	switch {
	case strings.Contains(msg, "failed to register client"):
		out.Step = StepRegistration
		out.Hint = "the authorization server refused dynamic client registration: register jig there and pass --client-id (and --client-secret-env)"
	case strings.Contains(msg, "no configured client registration methods"):
		out.Step = StepRegistration
		out.Hint = "the authorization server offers neither dynamic registration nor client ID metadata documents: pass a pre-registered --client-id, or --client-metadata-url"
	case strings.Contains(msg, "does not implement PKCE"):
		out.Step = StepServerMetadata
		out.Hint = "its metadata has no code_challenge_methods_supported; MCP requires PKCE, so jig will not log in there"
	case strings.Contains(msg, "metadata issuer"):
		out.Step = StepServerMetadata
		out.Hint = "its metadata names another issuer than the URL it was fetched from (RFC 8414 §3.3): a misconfigured or impersonated authorization server"
	case strings.Contains(msg, "authorization response issuer"), strings.Contains(msg, "iss parameter"):
		out.Step = StepRedirect
		out.Hint = "the redirect's iss is not the issuer jig discovered (RFC 9207): this is what a mix-up attack looks like; check which authorization server the server points to"
	case strings.Contains(msg, "failed to get authorization server metadata"):
		out.Step = StepServerMetadata
	case strings.Contains(msg, "protected resource metadata"):
		out.Step = StepResourceMetadata
	case strings.Contains(msg, "token exchange failed"):
		out.Step = StepTokenExchange
	case strings.Contains(msg, "client credentials token request failed"):
		out.Step = StepClientCredentials
	}
	if last.step == out.Step {
		out.URL = last.url
		switch {
		case last.err != nil:
			out.Hint = join(out.Hint, "the authorization server cannot be reached; check the URL the server's metadata gives, and your network")
		case strings.HasPrefix(last.summary, "not JSON"):
			out.Hint = join(out.Hint, fmt.Sprintf("it answered %d %s instead of JSON: the endpoint is wrong or behind a login page (the frames show the body)", last.status, last.contentType))
		case strings.HasPrefix(last.summary, "invalid JSON"):
			out.Hint = join(out.Hint, fmt.Sprintf("it answered %d with broken JSON (%s; the frames show the body)", last.status, last.summary))
		case last.status >= 400 && out.Hint == "":
			out.Hint = fmt.Sprintf("it answered %d %s", last.status, last.summary)
		}
	}
	if h.cap.noMetadata() {
		// The SDK fell back to the 2025-03-26 default endpoints on the
		// server's origin (/authorize, /token, /register): with no metadata
		// anywhere, their refusal says nothing about an authorization
		// server, and no login can work.
		out.Step, out.URL, out.NoMetadata = StepResourceMetadata, h.cap.server, true
		out.Err = errors.New("the server offers no OAuth metadata: neither protected-resource metadata (RFC 9728) nor authorization-server metadata (RFC 8414) at its well-known URLs, so there is no authorization server to log in at (the default endpoints jig then tried refused too: " + msg + ")")
		out.Hint = "the server wants a token it does not say how to get: pass one with --header 'Authorization: Bearer $TOKEN'"
	}
	if out.Hint == "" {
		out.Hint = "the frames show every step so far"
	}
	return out
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// guardedTransport is the base of the flow's requests: like the SDK's own
// discovery client, it will not dial private, link-local or unspecified
// addresses that a server's metadata points to (SSRF) — unless the MCP
// server itself is on such a network (an internal gateway), or a proxy is
// configured. Loopback is always allowed, as the SDK allows it.
func guardedTransport(server string) http.RoundTripper {
	t := http.DefaultTransport.(*http.Transport).Clone()
	if os.Getenv("HTTPS_PROXY") != "" || os.Getenv("https_proxy") != "" || os.Getenv("HTTP_PROXY") != "" || os.Getenv("http_proxy") != "" {
		return t
	}
	if u, err := url.Parse(server); err == nil {
		if ip, err := netip.ParseAddr(u.Hostname()); err == nil && privateOrReserved(ip) {
			return t
		}
	}
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second,
		Control: func(_, address string, _ syscall.RawConn) error {
			host, _, err := net.SplitHostPort(address)
			if err != nil {
				host = address
			}
			ip, err := netip.ParseAddr(host)
			if err != nil {
				return fmt.Errorf("not an IP address: %q", host)
			}
			if privateOrReserved(ip) {
				return fmt.Errorf("refusing %s: a private or reserved address, and the MCP server is not on such a network (a server's metadata must not make jig reach into this network)", ip)
			}
			return nil
		}}
	t.DialContext = d.DialContext
	return t
}

var cgnat = netip.MustParsePrefix("100.64.0.0/10")

func privateOrReserved(ip netip.Addr) bool {
	ip = ip.Unmap()
	return !ip.IsValid() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsMulticast() || ip.IsUnspecified() || cgnat.Contains(ip)
}
