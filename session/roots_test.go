package session

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpjig/jig/frames"
)

// rootsAnswer waits for server-everything's roots/list request and returns
// the roots jig answered it with, as sent on the wire.
func rootsAnswer(t *testing.T, s *Session) []Root {
	t.Helper()
	wctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	for {
		for i := 0; i < s.Log.Len(); i++ {
			f := s.Log.Frame(i)
			if f.Method != "roots/list" || f.Dir != frames.ServerToClient || f.Kind != frames.KindRequest {
				continue
			}
			p := s.Log.Partner(i)
			if p < 0 {
				continue
			}
			var resp struct {
				Result struct {
					Roots []Root `json:"roots"`
				} `json:"result"`
			}
			if err := json.Unmarshal(s.Log.Frame(p).Raw, &resp); err != nil {
				t.Fatalf("jig's roots/list answer is not JSON: %s", s.Log.Frame(p).Raw)
			}
			return resp.Result.Roots
		}
		if _, err := s.Log.Wait(wctx, s.Log.Len()); err != nil {
			t.Fatalf("the server's roots/list request was not answered within 15 s")
		}
	}
}

// jig answers roots/list with no roots unless asked: the working directory
// is the user's business, and a server that sees it behaves differently
// from one directory to the next.
func TestRootsAreNoneUnlessGiven(t *testing.T) {
	s := open(t, Options{Target: nodeTarget(t, "stdio"), Capabilities: []string{"roots"}})
	if got := rootsAnswer(t, s); len(got) != 0 {
		t.Errorf("roots/list answered %v without --root; want no roots", got)
	}
	if r := s.Info().Roots; len(r) != 0 {
		t.Errorf("Info().Roots = %v, want none", r)
	}

	dir := t.TempDir()
	root, err := RootOf(dir)
	if err != nil {
		t.Fatal(err)
	}
	s = open(t, Options{Target: nodeTarget(t, "stdio"), Capabilities: []string{"roots"}, Roots: []Root{root}})
	got := rootsAnswer(t, s)
	if len(got) != 1 || got[0].URI != "file://"+filepath.ToSlash(dir) {
		t.Errorf("roots/list answered %v, want exactly file://%s", got, dir)
	}
	if r := s.Info().Roots; len(r) != 1 || r[0] != root.URI {
		t.Errorf("Info().Roots = %v, want [%s]", r, root.URI)
	}
}

func TestRootOf(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ arg, uri, err string }{
		{dir, "file://" + dir, ""},
		{"file:///srv/data", "file:///srv/data", ""},
		{filepath.Join(dir, "missing"), "", "give an existing directory"},
		{"", "", "empty"},
	} {
		r, err := RootOf(tt.arg)
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("RootOf(%q) = %v, %v; want an error saying %q", tt.arg, r, err, tt.err)
		case tt.err == "" && (err != nil || r.URI != tt.uri):
			t.Errorf("RootOf(%q) = %v, %v; want %s", tt.arg, r, err, tt.uri)
		}
	}
}

// Session variables expand in a stdio command's arguments, env values and
// working directory; environment variables do not expand in arguments.
func TestSessionVarsExpand(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("JIG_TEST_OUTER", "outer")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := Open(ctx, Options{
		Target: Target{Transport: TransportStdio,
			Command: []string{"sh", "-c", `printf '%s|%s|%s|%s\n' "$1" "$2" "$WHERE" "$(pwd)" >&2; exit 1`, "sh", "${JIG_SCRATCH}/x", "$JIG_TEST_OUTER"},
			Env:     map[string]string{"WHERE": "$JIG_SCRATCH/$JIG_TEST_OUTER"}, Dir: "$JIG_SCRATCH"},
		Vars: map[string]string{"JIG_SCRATCH": dir},
	})
	var ce *ConnectError
	if !errors.As(err, &ce) {
		t.Fatalf("Open = %v, want the server's exit as a ConnectError", err)
	}
	want := dir + "/x|$JIG_TEST_OUTER|" + dir + "/outer|" + dir
	if got := strings.Join(ce.Stderr, "\n"); got != want {
		t.Errorf("the server saw %q, want %q", got, want)
	}
}
