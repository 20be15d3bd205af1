package oauth

import (
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// A 2025-03-26 server's metadata may name an issuer with a path on the
// server's own origin; only then, and only without protected-resource
// metadata, does jig hand the SDK the origin as issuer.
func TestLegacyIssuer(t *testing.T) {
	cases := []struct {
		name, metaURL, issuer string
		prm                   bool
		accept                bool
	}{
		{"same origin, with a path", "http://127.0.0.1:5000/.well-known/oauth-authorization-server", "http://127.0.0.1:5000/oauth", false, true},
		{"another origin", "http://127.0.0.1:5000/.well-known/oauth-authorization-server", "http://127.0.0.1:6000/oauth", false, false},
		{"another host's metadata", "http://127.0.0.1:6000/.well-known/oauth-authorization-server", "http://127.0.0.1:6000/oauth", false, false},
		{"protected-resource metadata was found", "http://127.0.0.1:5000/.well-known/oauth-authorization-server", "http://127.0.0.1:5000/oauth", true, false},
		{"issuer is the origin already", "http://127.0.0.1:5000/.well-known/oauth-authorization-server", "http://127.0.0.1:5000", false, false},
	}
	for _, c := range cases {
		cp := &capture{server: "http://127.0.0.1:5000/mcp"}
		if c.prm {
			cp.prm = &oauthex.ProtectedResourceMetadata{Resource: "http://127.0.0.1:5000/mcp"}
		}
		req, _ := http.NewRequest(http.MethodGet, c.metaURL, nil)
		out, why := cp.legacyIssuer(req, []byte(`{"issuer":"`+c.issuer+`","token_endpoint":"`+c.issuer+`/token"}`))
		if got := out != nil; got != c.accept {
			t.Errorf("%s: accepted = %v, want %v (%s)", c.name, got, c.accept, out)
		}
		if c.accept && (!strings.Contains(string(out), `"issuer":"http://127.0.0.1:5000"`) || !strings.Contains(why, "2025-03-26")) {
			t.Errorf("%s: handed %s, said %q", c.name, out, why)
		}
	}
}
