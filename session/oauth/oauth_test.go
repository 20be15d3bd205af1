package oauth_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/oauth"
	"github.com/mcpjig/jig/session/oauth/oauthtest"
)

func TestMain(m *testing.M) {
	oauthtest.MaybeBrowse()
	os.Exit(m.Run())
}

// flow is one session against a resource server, with what it captured.
type flow struct {
	s      *session.Session
	err    error
	log    *frames.Log
	redact *frames.Redactor
	events []oauth.Event
}

func open(t *testing.T, rs *oauthtest.ResourceServer, ao oauth.Options) *flow {
	t.Helper()
	f := &flow{log: frames.NewLog(nil), redact: frames.NewRedactor()}
	var mu sync.Mutex
	ao.OnEvent = func(e oauth.Event) { mu.Lock(); f.events = append(f.events, e); mu.Unlock() }
	if ao.Browser == nil {
		ao.Browser = oauthtest.Browser()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	f.s, f.err = session.Open(ctx, session.Options{
		Target: session.Target{Transport: session.TransportStreamable, URL: rs.URL()},
		Log:    f.log, Redact: f.redact, Auth: &ao,
	})
	if f.s != nil {
		t.Cleanup(func() { f.s.Close() })
	}
	return f
}

// notes returns the notes of the OAuth frames, in order.
func (f *flow) notes() []string {
	var out []string
	for i := 0; i < f.log.Len(); i++ {
		if n := f.log.Frame(i).Note; strings.HasPrefix(n, "OAuth ") {
			out = append(out, n)
		}
	}
	return out
}

// assertNoSecrets fails if any frame holds a secret the authorization
// server issued or was sent: in its bytes, note, URL or headers.
func assertNoSecrets(t *testing.T, f *flow, as *oauthtest.AuthServer) {
	t.Helper()
	for i := 0; i < f.log.Len(); i++ {
		fr := f.log.Frame(i)
		text := string(fr.Raw) + " " + fr.Note
		if fr.HTTP != nil {
			text += " " + fr.HTTP.URL
			for k, vs := range fr.HTTP.Headers {
				text += " " + k + ": " + strings.Join(vs, ",")
			}
		}
		for _, s := range as.Secrets() {
			if strings.Contains(text, s) {
				t.Errorf("frame #%d holds the secret %q: %s", fr.Seq, s, text)
			}
		}
	}
}

func wantSteps(t *testing.T, notes []string, steps ...string) {
	t.Helper()
	all := strings.Join(notes, "\n")
	for _, s := range steps {
		if !strings.Contains(all, "OAuth "+s+":") {
			t.Errorf("no frame of step %q among the OAuth frames:\n%s", s, all)
		}
	}
}

// A first session logs in (every step a frame, nothing secret in them) and
// stores the token; the next, told it may not log in, uses the stored token
// without a single OAuth request.
func TestLoginIsCapturedStoredAndReused(t *testing.T) {
	as := oauthtest.NewAuthServer(t)
	rs := oauthtest.NewResourceServer(t, as)
	store := oauth.FileStore(filepath.Join(t.TempDir(), "jig", "credentials.json"))

	f := open(t, rs, oauth.Options{Store: store})
	if f.err != nil {
		t.Fatalf("login: %v\n%s", f.err, strings.Join(f.notes(), "\n"))
	}
	if _, _, err := f.s.ListTools(context.Background()); err != nil {
		t.Fatalf("tools/list after login: %v", err)
	}
	wantSteps(t, f.notes(), oauth.StepResourceMetadata, oauth.StepServerMetadata, oauth.StepRegistration, oauth.StepAuthorization, oauth.StepRedirect, oauth.StepTokenExchange)
	if !strings.Contains(strings.Join(f.notes(), "\n"), "(from the WWW-Authenticate resource_metadata)") {
		t.Errorf("the protected-resource metadata frame does not say it came from the challenge:\n%s", strings.Join(f.notes(), "\n"))
	}
	assertNoSecrets(t, f, as)
	g := f.s.Auth()
	if g == nil || g.Issuer != as.URL() || g.Source != "login" || g.Stored == "" {
		t.Fatalf("grant after login = %+v; want issuer %s from a login, stored", g, as.URL())
	}

	// The store: one entry, the file 0600 in a 0700 directory.
	entries, _, err := store.List()
	if err != nil || len(entries) != 1 {
		t.Fatalf("store.List = %v, %v; want one entry", entries, err)
	}
	if e := entries[0]; e.Issuer != as.URL() || e.Server != oauth.CanonicalServer(rs.URL()) || !e.Refreshable || e.Registration != "dynamic" || e.Secrets != nil {
		t.Errorf("stored entry = %+v", e)
	}
	assertMode(t, store.Path(), 0o600)
	assertMode(t, filepath.Dir(store.Path()), 0o700)
	f.s.Close()

	before := as.Authorizations()
	g2 := open(t, rs, oauth.Options{Store: store, Mode: oauth.StoredOnly})
	if g2.err != nil {
		t.Fatalf("a session with the stored token: %v", g2.err)
	}
	if n := len(g2.notes()); n != 0 {
		t.Errorf("a session with a valid stored token made %d OAuth requests:\n%s", n, strings.Join(g2.notes(), "\n"))
	}
	if as.Authorizations() != before {
		t.Errorf("the authorization endpoint was visited again")
	}
	if g := g2.s.Auth(); g == nil || g.Source != "stored" {
		t.Errorf("grant = %+v, want the stored one", g)
	}
}

func assertMode(t *testing.T, path string, want os.FileMode) {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := info.Mode().Perm(); got != want {
		t.Errorf("%s has mode %v, want %v", path, got, want)
	}
}

// An expired stored token is refreshed without asking anyone, the refresh
// is a frame, and the new token replaces the old one in the store.
func TestExpiredTokenRefreshesSilently(t *testing.T) {
	as := oauthtest.NewAuthServer(t)
	as.Set(func(k *oauthtest.Knobs) { k.ExpiresIn = 1 }) // within oauth2's 10s early expiry: stale at once
	rs := oauthtest.NewResourceServer(t, as)
	store := oauth.FileStore(filepath.Join(t.TempDir(), "credentials.json"))
	if f := open(t, rs, oauth.Options{Store: store}); f.err != nil {
		t.Fatalf("login: %v", f.err)
	}
	_, old, _ := store.Lookup(rs.URL())
	as.Set(func(k *oauthtest.Knobs) { k.ExpiresIn = 3600 })

	f := open(t, rs, oauth.Options{Store: store, Mode: oauth.StoredOnly})
	if f.err != nil {
		t.Fatalf("a session with an expired, refreshable token: %v\n%s", f.err, strings.Join(f.notes(), "\n"))
	}
	wantSteps(t, f.notes(), oauth.StepRefresh)
	assertNoSecrets(t, f, as)
	_, now, _ := store.Lookup(rs.URL())
	if now.AccessToken == old.AccessToken {
		t.Errorf("the refreshed token was not stored")
	}
	if g := f.s.Auth(); g == nil || g.Source != "refreshed" {
		t.Errorf("grant = %+v, want refreshed", g)
	}
}

// A refresh that fails: non-interactively, a NeedsLoginError (exit 3 with
// the login command); interactively, a new login.
func TestRefreshFailure(t *testing.T) {
	as := oauthtest.NewAuthServer(t)
	as.Set(func(k *oauthtest.Knobs) { k.ExpiresIn = 1 })
	rs := oauthtest.NewResourceServer(t, as)
	store := oauth.FileStore(filepath.Join(t.TempDir(), "credentials.json"))
	if f := open(t, rs, oauth.Options{Store: store}); f.err != nil {
		t.Fatalf("login: %v", f.err)
	}
	as.Set(func(k *oauthtest.Knobs) { k.RefreshFails = true })

	f := open(t, rs, oauth.Options{Store: store, Mode: oauth.StoredOnly})
	var ne *oauth.NeedsLoginError
	var ce *session.ConnectError
	if !errors.As(f.err, &ne) || !errors.As(f.err, &ce) {
		t.Fatalf("err = %v; want a ConnectError holding a NeedsLoginError", f.err)
	}
	for _, want := range []string{"refreshing it failed", "invalid_grant", "jig auth login --url " + rs.URL()} {
		if !strings.Contains(f.err.Error(), want) {
			t.Errorf("error %q does not say %q", f.err, want)
		}
	}
	wantSteps(t, f.notes(), oauth.StepRefresh)

	before := as.Authorizations()
	as.Set(func(k *oauthtest.Knobs) { k.ExpiresIn = 3600 })
	f = open(t, rs, oauth.Options{Store: store})
	if f.err != nil {
		t.Fatalf("interactive session after a failed refresh: %v\n%s", f.err, strings.Join(f.notes(), "\n"))
	}
	if as.Authorizations() != before+1 {
		t.Errorf("a failed refresh did not start a login (authorizations %d → %d)", before, as.Authorizations())
	}
}

// Without stored credentials, --auth-stored-only never starts a login.
func TestStoredOnlyWithoutCredentials(t *testing.T) {
	as := oauthtest.NewAuthServer(t)
	rs := oauthtest.NewResourceServer(t, as)
	f := open(t, rs, oauth.Options{Store: oauth.FileStore(filepath.Join(t.TempDir(), "c.json")), Mode: oauth.StoredOnly})
	var ne *oauth.NeedsLoginError
	if !errors.As(f.err, &ne) || !strings.Contains(f.err.Error(), "no stored credentials") {
		t.Fatalf("err = %v; want a NeedsLoginError saying nothing is stored", f.err)
	}
	if as.Authorizations() != 0 || len(f.notes()) != 0 {
		t.Errorf("a stored-only session started a flow: %d authorizations, frames %q", as.Authorizations(), f.notes())
	}
	if f.log.Len() == 0 {
		t.Errorf("the 401 is not among the frames")
	}
}

// A token stored for one server is never sent to another.
func TestStoredTokenStaysWithItsServer(t *testing.T) {
	as := oauthtest.NewAuthServer(t)
	a, b := oauthtest.NewResourceServer(t, as), oauthtest.NewResourceServer(t, as)
	store := oauth.FileStore(filepath.Join(t.TempDir(), "c.json"))
	if f := open(t, a, oauth.Options{Store: store}); f.err != nil {
		t.Fatal(f.err)
	}
	_, sec, _ := store.Lookup(a.URL())
	f := open(t, b, oauth.Options{Store: store, Mode: oauth.StoredOnly})
	if f.err == nil {
		t.Fatalf("server B accepted a session with server A's credentials")
	}
	for _, tok := range b.Seen() {
		if tok == sec.AccessToken {
			t.Errorf("server A's token was sent to server B")
		}
	}
}

// A 403 insufficient_scope mid-session is a step-up: a second login asks
// for the union of the scopes, and the call then goes through.
func TestStepUp(t *testing.T) {
	as := oauthtest.NewAuthServer(t)
	rs := oauthtest.NewResourceServer(t, as)
	f := open(t, rs, oauth.Options{Scopes: []string{"read"}})
	if f.err != nil {
		t.Fatal(f.err)
	}
	if as.LastScope() != "read" {
		t.Errorf("--scope read requested %q", as.LastScope())
	}
	res, err := f.s.CallTool(context.Background(), "publish", json.RawMessage(`{}`))
	if err != nil {
		t.Fatalf("publish after step-up: %v\n%s", err, strings.Join(f.notes(), "\n"))
	}
	if !strings.Contains(string(res.Result), "published") {
		t.Errorf("publish result = %s", res.Result)
	}
	if as.Authorizations() != 2 || !strings.Contains(as.LastScope(), "write") || !strings.Contains(as.LastScope(), "read") {
		t.Errorf("step-up: %d authorizations, last scope %q; want 2, read and write", as.Authorizations(), as.LastScope())
	}
	var stepUp bool
	for _, e := range f.events {
		stepUp = stepUp || strings.Contains(e.Text, "insufficient_scope")
	}
	if !stepUp {
		t.Errorf("no event says the server asked for more scope")
	}
}

// --client-credentials: a service account's grant, no browser.
func TestClientCredentials(t *testing.T) {
	as := oauthtest.NewAuthServer(t)
	as.Set(func(k *oauthtest.Knobs) { k.ClientID, k.ClientSecret = "svc-jig", "svc-secret-value-42" })
	rs := oauthtest.NewResourceServer(t, as)
	f := open(t, rs, oauth.Options{Mode: oauth.ClientCredentials, ClientID: "svc-jig", ClientSecret: "svc-secret-value-42", Browser: []string{"false"}})
	if f.err != nil {
		t.Fatalf("client credentials: %v\n%s", f.err, strings.Join(f.notes(), "\n"))
	}
	wantSteps(t, f.notes(), oauth.StepClientCredentials)
	if as.Authorizations() != 0 {
		t.Errorf("client credentials visited the authorization endpoint")
	}
	as.Remember("svc-secret-value-42")
	assertNoSecrets(t, f, as)
	if g := f.s.Auth(); g == nil || g.Source != "client credentials" || g.Issuer != as.URL() {
		t.Errorf("grant = %+v", g)
	}
}

// Each way an authorization server goes wrong is an error that names the
// step, keeps the frames so far, and is a ConnectError (exit 3).
func TestBadAuthorizationServers(t *testing.T) {
	cases := []struct {
		name  string
		setup func(as *oauthtest.AuthServer, rs *oauthtest.ResourceServer)
		wait  time.Duration
		step  string
		want  []string
	}{
		{"unreachable", func(as *oauthtest.AuthServer, rs *oauthtest.ResourceServer) { rs.PointTo(closedURL(t)) },
			0, oauth.StepServerMetadata, []string{"cannot be reached"}},
		{"metadata is HTML", func(as *oauthtest.AuthServer, rs *oauthtest.ResourceServer) {
			as.Set(func(k *oauthtest.Knobs) { k.Metadata = "html" })
		},
			0, oauth.StepServerMetadata, []string{"text/html"}},
		{"metadata is cut-off JSON", func(as *oauthtest.AuthServer, rs *oauthtest.ResourceServer) {
			as.Set(func(k *oauthtest.Knobs) { k.Metadata = "bad-json" })
		},
			0, oauth.StepServerMetadata, []string{"broken JSON", "unexpected end of JSON input"}},
		{"metadata names another issuer", func(as *oauthtest.AuthServer, rs *oauthtest.ResourceServer) {
			as.Set(func(k *oauthtest.Knobs) { k.Metadata = "wrong-issuer" })
		},
			0, oauth.StepServerMetadata, []string{"someone-else.example", "RFC 8414"}},
		{"no PKCE", func(as *oauthtest.AuthServer, rs *oauthtest.ResourceServer) {
			as.Set(func(k *oauthtest.Knobs) { k.Metadata = "no-pkce" })
		},
			0, oauth.StepServerMetadata, []string{"PKCE"}},
		{"registration rejected", func(as *oauthtest.AuthServer, rs *oauthtest.ResourceServer) {
			as.Set(func(k *oauthtest.Knobs) { k.Registration = "reject" })
		},
			0, oauth.StepRegistration, []string{"registration is closed", "--client-id"}},
		{"no registration at all", func(as *oauthtest.AuthServer, rs *oauthtest.ResourceServer) {
			as.Set(func(k *oauthtest.Knobs) { k.Registration = "none" })
		},
			0, oauth.StepRegistration, []string{"--client-id"}},
		{"access denied", func(as *oauthtest.AuthServer, rs *oauthtest.ResourceServer) {
			as.Set(func(k *oauthtest.Knobs) { k.Authorize = "deny" })
		},
			0, oauth.StepRedirect, []string{"error=access_denied", "The user declined"}},
		{"state mismatch", func(as *oauthtest.AuthServer, rs *oauthtest.ResourceServer) {
			as.Set(func(k *oauthtest.Knobs) { k.Authorize = "bad-state" })
		},
			0, oauth.StepRedirect, []string{"state mismatch"}},
		{"issuer mismatch (RFC 9207)", func(as *oauthtest.AuthServer, rs *oauthtest.ResourceServer) {
			as.Set(func(k *oauthtest.Knobs) { k.Authorize, k.IssSupported = "bad-iss", true })
		},
			0, oauth.StepRedirect, []string{"evil.example", "RFC 9207"}},
		{"redirect never comes", func(as *oauthtest.AuthServer, rs *oauthtest.ResourceServer) {
			as.Set(func(k *oauthtest.Knobs) { k.Authorize = "never" })
		},
			300 * time.Millisecond, oauth.StepRedirect, []string{"no redirect came back within 300ms", "/authorize?"}},
		{"token endpoint answers HTML", func(as *oauthtest.AuthServer, rs *oauthtest.ResourceServer) {
			as.Set(func(k *oauthtest.Knobs) { k.Token = "html" })
		},
			0, oauth.StepTokenExchange, []string{"text/html"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			as := oauthtest.NewAuthServer(t)
			rs := oauthtest.NewResourceServer(t, as)
			c.setup(as, rs)
			f := open(t, rs, oauth.Options{Wait: c.wait, Store: oauth.FileStore(filepath.Join(t.TempDir(), "c.json"))})
			var oe *oauth.Error
			var ce *session.ConnectError
			if !errors.As(f.err, &oe) || !errors.As(f.err, &ce) {
				t.Fatalf("err = %v; want a ConnectError holding an oauth.Error", f.err)
			}
			t.Logf("error: %v", f.err)
			if oe.Step != c.step {
				t.Errorf("step = %q, want %q (error: %v)", oe.Step, c.step, f.err)
			}
			msg := f.err.Error()
			if !strings.Contains(msg, "OAuth "+c.step) {
				t.Errorf("error %q does not name the step %q", msg, c.step)
			}
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not say %q", msg, w)
				}
			}
			if len(f.notes()) == 0 {
				t.Errorf("no OAuth frames were kept")
			}
			if as.Authorizations() > 1 {
				t.Errorf("one failed login sent the browser to the authorization server %d times", as.Authorizations())
			}
			assertNoSecrets(t, f, as)
		})
	}
}

// closedURL is a loopback URL nothing listens on.
func closedURL(t *testing.T) string {
	as := oauthtest.NewAuthServer(t)
	u := as.URL()
	as.Close()
	return u
}

// A pre-registered client needs no registration request; a frame says
// which client was used instead.
func TestPreregisteredClientIsAFrame(t *testing.T) {
	as := oauthtest.NewAuthServer(t)
	rs := oauthtest.NewResourceServer(t, as)
	f := open(t, rs, oauth.Options{ClientID: "jig-preregistered"})
	if f.err != nil {
		t.Fatal(f.err)
	}
	all := strings.Join(f.notes(), "\n")
	if !strings.Contains(all, "OAuth client registration: none needed — the pre-registered client_id jig-preregistered") || strings.Contains(all, "POST "+as.URL()+"/register") {
		t.Errorf("the frames do not say the pre-registered client was used (or registered anyway):\n%s", all)
	}
}
