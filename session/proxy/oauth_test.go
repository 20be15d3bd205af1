package proxy

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/oauth"
	"github.com/mcpjig/jig/session/oauth/oauthtest"
)

// In front of a server behind OAuth the proxy passes the client's own
// authorization through untouched, records it redacted, passes the
// server's 401 challenge back as it was, and adds no authorization of its
// own.
func TestHTTPProxyPassesTheClientsAuthorization(t *testing.T) {
	as := oauthtest.NewAuthServer(t)
	rs := oauthtest.NewResourceServer(t, as)
	// A token the client got itself, by logging in to the server directly.
	store := oauth.FileStore(filepath.Join(t.TempDir(), "credentials.json"))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	direct, err := session.Open(ctx, session.Options{Target: session.Target{Transport: session.TransportStreamable, URL: rs.URL()},
		Auth: &oauth.Options{Store: store, Browser: oauthtest.Browser()}})
	if err != nil {
		t.Fatalf("logging in directly: %v", err)
	}
	direct.Close()
	_, sec, _ := store.Lookup(rs.URL())

	proxyURL, log, stop := startHTTPProxy(t, rs.URL())
	seenBefore := len(rs.Seen())
	s, err := session.Open(ctx, session.Options{Target: session.Target{Transport: session.TransportStreamable, URL: proxyURL + "/mcp",
		Headers: map[string]string{"Authorization": "Bearer " + sec.AccessToken}}})
	if err != nil {
		t.Fatalf("the client's own token through the proxy: %v", err)
	}
	if _, _, err := s.ListTools(ctx); err != nil {
		t.Fatal(err)
	}
	s.Close()
	for _, tok := range rs.Seen()[seenBefore:] {
		if tok != sec.AccessToken {
			t.Errorf("the server was sent %q through the proxy, not the client's token", tok)
		}
	}

	// Without a token of its own, the client gets the server's challenge.
	seenBefore = len(rs.Seen())
	_, err = session.Open(ctx, session.Options{Target: session.Target{Transport: session.TransportStreamable, URL: proxyURL + "/mcp"}})
	var ce *session.ConnectError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "Unauthorized") {
		t.Fatalf("a client without a token through the proxy: %v, want the server's 401", err)
	}
	if n := len(rs.Seen()) - seenBefore; n != 0 {
		t.Errorf("the proxy sent %d bearer tokens of its own", n)
	}
	stop()

	var challenges int
	for _, f := range log.Frames() {
		if f.HTTP == nil {
			continue
		}
		for k, vs := range f.HTTP.Headers {
			switch {
			case strings.EqualFold(k, "Authorization") && !slices.Equal(vs, []string{frames.Placeholder("header")}):
				t.Errorf("the proxy recorded Authorization %q, want it redacted", vs)
			case strings.EqualFold(k, "WWW-Authenticate") && strings.Contains(vs[0], `resource_metadata="`+rs.URL()[:strings.LastIndex(rs.URL(), "/")]):
				challenges++
			}
		}
		if strings.Contains(string(f.Raw)+f.Note, sec.AccessToken) {
			t.Errorf("frame #%d holds the client's token", f.Seq)
		}
	}
	if challenges == 0 {
		t.Errorf("the recording has no 401 challenge with the server's resource_metadata, as the server sent it")
	}
}
