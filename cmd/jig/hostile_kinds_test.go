package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpjig/jig/frames"
)

// The hostile kinds jig already survived before issue 11, each its own row
// against a real misbehaving server (a process for stdio, a socket for
// HTTP) that leaks a planted secret into what it sends: the exit code, a
// message that names the input and the next step, a recording that reads
// back whole, and no planted secret in anything jig printed or wrote.
func TestHostileKinds(t *testing.T) {
	state, work := t.TempDir(), t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	secrets := planted{"a secret-named variable the server inherits": "planted-kind-3141592653", "a bearer token": "planted-kind-bearer-2718281828"}
	t.Setenv(plantedEnv, secrets["a secret-named variable the server inherits"])
	t.Setenv("JIG_PLANTED_KIND_BEARER", secrets["a bearer token"])
	bearer := []string{"--header", "Authorization: Bearer $JIG_PLANTED_KIND_BEARER"}

	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth := r.Header.Get("Authorization") // every kind leaks it
		switch r.URL.Path {
		case "/html":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, "<html><body><h1>Welcome</h1>%s</body></html>", auth)
		case "/5xx":
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusBadGateway)
			fmt.Fprintf(w, "<html><body><h1>502 Bad Gateway</h1>%s</body></html>", auth)
		case "/loop-a":
			http.Redirect(w, r, "/loop-b?t="+auth[len("Bearer "):], http.StatusTemporaryRedirect)
		case "/loop-b":
			http.Redirect(w, r, "/loop-a", http.StatusTemporaryRedirect)
		case "/slow":
			// Slow-loris: a 200 whose body comes a blank at a time.
			w.Header().Set("Content-Type", "application/json")
			for {
				if _, err := w.Write([]byte(" ")); err != nil {
					return
				}
				w.(http.Flusher).Flush()
				select {
				case <-r.Context().Done():
					return
				case <-time.After(200 * time.Millisecond):
				}
			}
		case "/huge-headers":
			w.Header().Set("X-Padding", strings.Repeat("p", 11<<20)+auth)
			w.WriteHeader(http.StatusOK)
		}
	}))
	t.Cleanup(web.Close)

	printed := map[string]string{}
	for _, tt := range []struct {
		name string
		mode string   // a hostile stdio server, or
		path string   // a path on the hostile HTTP server
		code int      // the exit code
		want []string // what stderr says (stdout holds the answer on exit 0)
		note string   // a transport note the recording must hold
		wait string   // --timeout: short where the timeout is what is proved
	}{
		{name: "an answer to an id jig never sent", mode: "unknown-id", code: exitOK, want: []string{"response to unknown id 987654", "it was ignored"}},
		{name: "a duplicate answer", mode: "duplicate-id", code: exitOK, want: []string{"duplicate response to id", "it was ignored"}},
		{name: "an answer before its request", mode: "early-id", code: exitOK, want: []string{"response to unknown id", "it was ignored"}},
		{name: "a notification flood", mode: "flood", code: exitOK},
		{name: "closed stdout", mode: "closed-stdout", code: exitUnreachable, want: []string{"closed its stdout but is still running", "its stderr may say", "closing stdout [REDACTED"}},
		{name: "ignored SIGTERM", mode: "ignore-sigterm", code: exitOK, note: "after SIGTERM; jig sent SIGKILL\nserver exited: signal: killed (jig sent SIGKILL: it was still running"},
		{name: "a hang", mode: "hang", code: exitUnreachable, want: []string{"timed out", "raise --timeout"}, wait: "2s"},
		{name: "an HTML page", path: "/html", code: exitUnreachable, want: []string{"text/html", `"<html><body><h1>Welcome</h1>[REDACTED`, "MCP endpoint (often /mcp)"}},
		{name: "a 5xx", path: "/5xx", code: exitUnreachable, want: []string{"HTTP 502 Bad Gateway", "check it is up and healthy"}},
		{name: "a redirect loop", path: "/loop-a", code: exitUnreachable, want: []string{"redirected 10 times", "/loop-b", "give --url the address"}},
		{name: "slow-loris", path: "/slow", code: exitUnreachable, want: []string{"timed out", "raise --timeout"}, wait: "2s"},
		{name: "huge headers", path: "/huge-headers", code: exitUnreachable, want: []string{"headers exceeded", "jig refused them"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec := filepath.Join(work, strings.ReplaceAll(tt.name, " ", "-")+".jsonl")
			if tt.wait == "" {
				tt.wait = "60s" // never the limit on a loaded machine
			}
			args := []string{"call", "t", "--record", rec, "--timeout", tt.wait, "--protocol-version", "2025-11-25"}
			var input string
			if tt.mode != "" {
				args, input = append(args, hostile(t, tt.mode)...), "the server's command"
			} else {
				input = web.URL + tt.path
				args = append(append(args, "--url", input), bearer...)
			}
			var code int
			var out, errOut string
			within(t, 90*time.Second, "jig call", func() { code, out, errOut = jig(t, "", args...) })
			printed[tt.name+" stdout"], printed[tt.name+" stderr"] = out, errOut
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout: %.2000s\nstderr: %.2000s", code, tt.code, out, errOut)
			}
			if code == exitOK && !strings.Contains(out, "the real answer") {
				t.Errorf("the real answer is not the result:\n%.2000s", out)
			}
			if code != exitOK && tt.path != "" && !strings.Contains(errOut, "jig: "+input+":") {
				t.Errorf("the message does not name %s:\n%s", input, errOut)
			}
			for _, w := range tt.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr does not say %q:\n%.3000s", w, errOut)
				}
			}
			f, err := os.Open(rec)
			if err != nil {
				t.Fatalf("no recording: %v", err)
			}
			defer f.Close()
			tr, err := frames.ReadTranscript(f)
			if err != nil || len(tr.Warnings) > 0 {
				t.Fatalf("the recording does not read back whole: %v %v", err, tr.Warnings)
			}
			notes, logs := "", 0
			for _, fr := range tr.Frames {
				notes += fr.Note + "\n"
				if fr.Method == "notifications/message" {
					logs++
				}
			}
			if tt.note != "" && !strings.Contains(notes, tt.note) {
				t.Errorf("the recording does not note %q:\n%s", tt.note, notes)
			}
			if tt.mode == "flood" && logs != 19_980 {
				t.Errorf("the recording holds %d of the 19,980 log notifications", logs)
			}
		})
	}
	secrets.sweep(t, printed, state, work)
}
