package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/oauth"
	"github.com/mcpjig/jig/session/oauth/oauthtest"
)

func oauthConfig(t *testing.T, browser []string) (Config, *oauthtest.AuthServer) {
	as := oauthtest.NewAuthServer(t)
	rs := oauthtest.NewResourceServer(t, as)
	return Config{Options: &session.Options{
		Target: session.Target{Transport: session.TransportStreamable, URL: rs.URL()},
		Auth:   &oauth.Options{Store: oauth.FileStore(filepath.Join(t.TempDir(), "c.json")), Browser: browser},
	}}, as
}

// The server asks for OAuth: the panel opens by itself with the steps, and
// says what was granted once the browser came back; then the tools show.
func TestFlowOAuthLogin(t *testing.T) {
	cfg, as := oauthConfig(t, oauthtest.Browser())
	f := start(t, cfg, 120, 35)
	f.waitFor("OAuth", "✓ Authorized by "+as.URL(), "scopes   read write", "token exchange: 200 OK")
	for _, s := range as.Secrets() {
		if strings.Contains(f.p.screen(), s) {
			t.Errorf("the panel shows the secret %q", s)
		}
	}
	f.keys("esc")
	f.waitFor("● connected", "Tools (2)")
	f.keys("O")
	f.waitFor("✓ Authorized by " + as.URL())
}

// A browser that never comes back: the panel shows the URL to open and
// what jig waits for, at 80×24 too; the header says a login waits; esc
// hides the panel and O brings it back.
func TestFlowOAuthWaitsForTheBrowser(t *testing.T) {
	cfg, as := oauthConfig(t, []string{"true"})
	f := start(t, cfg, 80, 24)
	f.waitFor("Log in in the browser", as.URL()+"/authorize?", "Waiting for the browser", "⚠ OAuth: log in")
	f.keys("esc")
	f.waitFor("⚠ OAuth: log in in the browser (O shows the URL)", "2 Arguments")
	if strings.Contains(f.p.screen(), "/authorize?") {
		t.Errorf("esc did not hide the panel:\n%s", f.p.screen())
	}
	f.keys("O")
	f.waitFor(as.URL() + "/authorize?")
}
