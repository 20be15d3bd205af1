package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A server that answers 401 to everything, with no OAuth metadata at any
// well-known URL: jig says the server offers no OAuth metadata and to pass
// a token with --header, not that an authorization server at a guessed
// /register refused registration, nor to log in with jig auth login.
func TestUnauthorizedServerWithoutOAuthMetadataSaysSo(t *testing.T) {
	t.Setenv("BROWSER", "true")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="x"`)
		w.WriteHeader(http.StatusUnauthorized)
	}))
	defer srv.Close()
	code, _, errOut := jig(t, "", "tools", "--url", srv.URL+"/mcp", "--no-record")
	if code != exitUnreachable || !strings.Contains(errOut, "offers no OAuth metadata") || !strings.Contains(errOut, "--header 'Authorization: Bearer") ||
		strings.Contains(errOut, "jig auth login") || strings.Contains(errOut, "refused dynamic client registration") {
		t.Errorf("exit %d:\n%s", code, errOut)
	}
}
