package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session/demo"
)

// A server that dies after 3 of 10 fixtures: every report lists all ten,
// the seven that did not run as errors, so a CI system reading JUnit does
// not see green.
func TestReportsListEveryFixtureIncludingThoseNotRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "fixtures")
	for i := range 10 {
		file := filepath.Join(dir, fmt.Sprintf("echo-%02d.json", i))
		if code, _, errOut := jig(t, "", "call", "echo", "--args", fmt.Sprintf(`{"text":"%d"}`, i), "--demo", "--pin", file, "--no-record"); code != 0 {
			t.Fatalf("pin %d: exit %d\n%s", i, code, errOut)
		}
	}
	os.WriteFile(filepath.Join(dir, "broken.json"), []byte(`{"format":1,`), 0o600)
	junit, js := filepath.Join(t.TempDir(), "r.xml"), filepath.Join(t.TempDir(), "r.json")
	// One shared session (--reuse-session), so the server dies mid-run.
	args := append([]string{"replay", dir, "--reuse-session", "--in-flight", "1", "--report", "junit=" + junit, "--report", "json=" + js}, hostile(t, "crash-after:3")...)
	code, out, errOut := jig(t, "", args...)
	if code != exitUsage {
		t.Errorf("exit %d, want %d (an invalid fixture outranks the crash)\n%s\n%s", code, exitUsage, out, errOut)
	}
	if !strings.Contains(out, "11 scenarios: 8 not run, 3 ok") {
		t.Errorf("stdout must count every fixture, the ones not run too:\n%s", out)
	}
	if n := strings.Count(out, "! not run: "); n != 8 {
		t.Errorf("stdout names %d scenarios as not run, want 8:\n%s", n, out)
	}
	if !strings.Contains(out, "Scenario: broken") {
		t.Errorf("the fixture that did not load is missing from stdout:\n%s", out)
	}

	var doc struct {
		Tests  int `xml:"tests,attr"`
		Errors int `xml:"errors,attr"`
		Suites []struct {
			Cases []struct {
				Name  string `xml:"name,attr"`
				Error *struct {
					Message string `xml:"message,attr"`
					Body    string `xml:",chardata"`
				} `xml:"error"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	b, _ := os.ReadFile(junit)
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("junit: %v\n%s", err, b)
	}
	if doc.Tests != 11 || doc.Errors != 8 || len(doc.Suites) != 1 || len(doc.Suites[0].Cases) != 11 {
		t.Fatalf("junit: tests=%d errors=%d, want 11 and 8, one case per fixture:\n%s", doc.Tests, doc.Errors, b)
	}
	for _, c := range doc.Suites[0].Cases {
		if c.Error != nil && c.Error.Body == "" {
			t.Errorf("junit case %s is an error without saying why", c.Name)
		}
	}

	var rep struct {
		Summary   string `json:"summary"`
		Scenarios []struct {
			Scenario string `json:"scenario"`
			NotRun   string `json:"not_run"`
		} `json:"scenarios"`
	}
	b, _ = os.ReadFile(js)
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatalf("json report: %v\n%s", err, b)
	}
	notRun := 0
	for _, s := range rep.Scenarios {
		if s.NotRun != "" {
			notRun++
		}
	}
	if len(rep.Scenarios) != 11 || notRun != 8 {
		t.Errorf("json report: %d scenarios, %d not run; want 11 and 8:\n%s", len(rep.Scenarios), notRun, b)
	}
}

// hostileCall runs jig call t against a hostile mode, recording, and reads
// the recording back.
func hostileCall(t *testing.T, mode string, extra ...string) (code int, stdout, stderr string, rec *frames.Transcript) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	args := append([]string{"call", "t", "--record", path, "--protocol-version", "2025-11-25"}, extra...)
	code, stdout, stderr = jig(t, "", append(args, hostile(t, mode)...)...)
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("no recording: %v", err)
	}
	defer f.Close()
	rec, err = frames.ReadTranscript(f)
	if err != nil {
		t.Fatalf("the recording does not read back: %v", err)
	}
	if len(rec.Warnings) > 0 {
		t.Errorf("the recording has unreadable records: %v", rec.Warnings)
	}
	return code, stdout, stderr, rec
}

// frameWith returns the recorded server frame whose bytes are raw.
func frameWith(rec *frames.Transcript, raw string) *frames.Frame {
	for _, f := range rec.Frames {
		if f.Dir == frames.ServerToClient && string(f.Raw) == raw {
			return f
		}
	}
	return nil
}

// A line the SDK cannot decode no longer kills the session: it is recorded
// as what it is, withheld from the SDK, named on stderr, and the real answer
// that follows is the result.
func TestBadLinesAreWithheldAndTheSessionGoesOn(t *testing.T) {
	for mode, line := range badLines {
		t.Run(mode, func(t *testing.T) {
			code, out, errOut, rec := hostileCall(t, mode)
			if code != exitOK || !strings.Contains(out, "the real answer") {
				t.Fatalf("exit %d, want 0 with the real answer\nstdout: %s\nstderr: %s", code, out, errOut)
			}
			f := frameWith(rec, line)
			if f == nil {
				t.Fatalf("the line is not in the recording, byte for byte")
			}
			switch mode {
			case "trailing-space":
				if f.Kind != frames.KindNotification || strings.Contains(errOut, "withheld") {
					t.Errorf("a valid line with trailing blanks: kind %s, stderr %q; want a notification, delivered", f.Kind, errOut)
				}
				return
			case "id-null-error":
				if f.Kind != frames.KindError || !strings.Contains(errOut, "error tied to no request: -32700 Parse error") {
					t.Errorf("kind %s, stderr %q: want an error frame, shown as the server's complaint", f.Kind, errOut)
				}
				return
			}
			if f.Kind != frames.KindInvalid || f.Err == "" {
				t.Errorf("recorded as %s (%q), want invalid with a reason", f.Kind, f.Err)
			}
			if !strings.Contains(errOut, fmt.Sprintf("frame #%d from the server was withheld", f.Seq)) {
				t.Errorf("stderr does not name the withheld frame #%d:\n%s", f.Seq, errOut)
			}
		})
	}
}

// An answer jig cannot hand to the SDK ends the call at once, saying it
// arrived and why it could not be used — never a timeout with the answer in
// the frames.
func TestUnusableAnswerSaysItArrived(t *testing.T) {
	for _, tt := range []struct{ mode, why string }{
		{"answer-nan", "invalid character 'N'"},
		{"answer-utf8", "invalid UTF-8"},
		{"answer-batch", "inside a JSON-RPC batch"},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			start := time.Now()
			code, _, errOut, rec := hostileCall(t, tt.mode, "--timeout", "20s")
			if code != exitUnreachable || !strings.Contains(errOut, "the server's answer arrived (frame #") || !strings.Contains(errOut, tt.why) {
				t.Errorf("exit %d, want 3 saying the answer arrived and %q:\n%s", code, tt.why, errOut)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %s: the call waited for its timeout", d)
			}
			if strings.Contains(errOut, "timed out") || strings.Contains(errOut, "jig withheld") && !strings.Contains(errOut, "withheld from the session") {
				t.Errorf("the message blames a timeout or shows jig's internal error:\n%s", errOut)
			}
			if f := rec.Frames[len(rec.Frames)-1]; f.Kind != frames.KindTransport {
				t.Errorf("the recording does not end with the server's exit: %s", f.Kind)
			}
		})
	}
	// An answer whose id is an object cannot be tied to its call: the
	// timeout says what came meanwhile.
	code, _, errOut, _ := hostileCall(t, "answer-object-id", "--timeout", "2s")
	if code != exitUnreachable || !strings.Contains(errOut, "timed out") || !strings.Contains(errOut, "meanwhile the server sent what jig could not use: #") ||
		!strings.Contains(errOut, "id is an object") {
		t.Errorf("object id: exit %d, want 3, a timeout naming the withheld answer:\n%s", code, errOut)
	}
}

// planted is a set of secrets a test plants, by where they were planted.
type planted map[string]string

// sweep fails for every planted secret found in a text jig printed, in a
// file under one of dirs (its content or its name), and for every file or
// directory there that others may read: jig's files are 0600, its
// directories 0700.
func (p planted) sweep(t *testing.T, printed map[string]string, dirs ...string) {
	t.Helper()
	check := func(where, content string) {
		for name, secret := range p {
			if strings.Contains(content, secret) {
				t.Errorf("%s holds the secret planted as %s", where, name)
			}
		}
	}
	for where, text := range printed {
		check(where, text)
	}
	for _, dir := range dirs {
		filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil || path == dir {
				return err
			}
			check("the name "+path, path)
			info, _ := d.Info()
			if perm := info.Mode().Perm(); d.IsDir() && perm != 0o700 || !d.IsDir() && perm != 0o600 {
				t.Errorf("%s has mode %v: jig's files are 0600 and its directories 0700", path, perm)
			}
			if !d.IsDir() {
				b, _ := os.ReadFile(path)
				check(path, string(b))
			}
			return nil
		})
	}
}

// Secrets a stdio server is given or has, and echoes back in every way it
// can, reach none of what jig writes or prints: stdout, stderr, --frames
// (stderr and file), the recording and its name, the fixture, jig sessions,
// the error of a crash that prints them on stderr.
func TestPlantedSecretsStdio(t *testing.T) {
	state, work := t.TempDir(), t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	secrets := planted{
		"an $ENV reference in --env":           "planted-ref-3141592653",
		"a secret-named variable jig inherits": "planted-inherited-2718281828",
		"a password argument":                  "planted-argument-1618033988",
	}
	t.Setenv("JIG_PLANTED_REF", secrets["an $ENV reference in --env"])
	t.Setenv("JIG_PLANTED_SERVICE_TOKEN", secrets["a secret-named variable jig inherits"])
	args := `{"password":"` + secrets["a password argument"] + `"}`
	printed := map[string]string{}
	run := func(name string, want int, jigArgs ...string) string {
		if jigArgs[0] != "sessions" {
			jigArgs = append(jigArgs, hostile(t, "leak")...)
		}
		code, out, errOut := jig(t, "", jigArgs...)
		if code != want {
			t.Fatalf("%s: exit %d, want %d\n%s\n%s", name, code, want, out, errOut)
		}
		printed[name+" stdout"], printed[name+" stderr"] = out, errOut
		return out + errOut
	}
	out := run("call --frames", exitOK, "call", "t", "--args", args, "--env", "API_TOKEN=$JIG_PLANTED_REF", "--frames", "--protocol-version", "2025-11-25")
	if !strings.Contains(out, "API_TOKEN=") || !strings.Contains(out, "JIG_PLANTED_SERVICE_TOKEN=") || !strings.Contains(out, `"password"`) {
		t.Fatalf("the server did not echo the planted values; the test proves nothing:\n%s", out)
	}
	run("call --frames=FILE --pin", exitOK, "call", "t", "--args", args, "--env", "API_TOKEN=$JIG_PLANTED_REF",
		"--frames="+filepath.Join(work, "frames.txt"), "--pin", filepath.Join(work, "fixtures", "t.json"), "--protocol-version", "2025-11-25")
	run("crash", exitUnreachable, "call", "t", "--args", `{"crash":true}`, "--env", "API_TOKEN=$JIG_PLANTED_REF", "--protocol-version", "2025-11-25")
	code, out, errOut := jig(t, "", "replay", filepath.Join(work, "fixtures"), "--show-cosmetic", "--report", "json="+filepath.Join(work, "report.json"),
		"--report", "junit="+filepath.Join(work, "report.xml"))
	// The password argument was redacted with no variable behind it: the
	// replay stops for that fixture, naming the file, the field and the fix,
	// and never sends the placeholder.
	if code != exitUsage || !strings.Contains(errOut, "t.json: request.params.arguments.password holds [REDACTED:") || !strings.Contains(errOut, "--secret-env NAME") {
		t.Errorf("replay: exit %d, want 2 saying the password argument cannot be re-sent\n%s\n%s", code, out, errOut)
	}
	printed["replay stdout"], printed["replay stderr"] = out, errOut
	run("sessions", exitOK, "sessions")
	secrets.sweep(t, printed, state, work)
}

// Secrets in a URL (a password, an api_key parameter) and a token a server
// echoes in a 401 reach none of what jig writes or prints: the recording's
// header, frames and file name, jig sessions, --frames, error messages.
func TestPlantedSecretsHTTP(t *testing.T) {
	state, work := t.TempDir(), t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	secrets := planted{
		"a URL password":      "planted-urlpass-5772156649",
		"an api_key in a URL": "planted-apikey-1414213562",
		"a bearer token":      "planted-bearer-1732050807",
	}
	t.Setenv("JIG_PLANTED_BEARER", secrets["a bearer token"])
	srv, _ := demo.New(1)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/deny" {
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, "invalid credentials: %s (api_key %s)", r.Header.Get("Authorization"), r.URL.Query().Get("api_key"))
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	host := strings.TrimPrefix(ts.URL, "http://")
	good := "http://jig:" + secrets["a URL password"] + "@" + host + "/mcp?api_key=" + secrets["an api_key in a URL"]
	deny := "http://jig:" + secrets["a URL password"] + "@" + host + "/deny?api_key=" + secrets["an api_key in a URL"]
	printed := map[string]string{}
	for _, tt := range []struct {
		name string
		want int
		args []string
	}{
		{"call", exitOK, []string{"call", "echo", "--args", `{"text":"hi"}`, "--url", good, "--frames", "--protocol-version", "2025-11-25"}},
		{"call --frames=FILE", exitOK, []string{"call", "echo", "--args", `{"text":"hi"}`, "--url", good, "--frames=" + filepath.Join(work, "frames.txt")}},
		{"401", exitUnreachable, []string{"tools", "--url", deny, "--header", "Authorization: Bearer $JIG_PLANTED_BEARER", "--frames"}},
		{"unreachable", exitUnreachable, []string{"tools", "--url", "http://jig:" + secrets["a URL password"] + "@127.0.0.1:1/mcp?api_key=" + secrets["an api_key in a URL"]}},
		{"sessions", exitOK, []string{"sessions"}},
		{"sessions --json", exitOK, []string{"sessions", "--json"}},
	} {
		code, out, errOut := jig(t, "", tt.args...)
		if code != tt.want {
			t.Errorf("%s: exit %d, want %d\n%s\n%s", tt.name, code, tt.want, out, errOut)
		}
		printed[tt.name+" stdout"], printed[tt.name+" stderr"] = out, errOut
	}
	if !strings.Contains(printed["401 stderr"], "invalid credentials") {
		t.Errorf("the 401's body is not shown; the test proves nothing:\n%s", printed["401 stderr"])
	}
	secrets.sweep(t, printed, state, work)
}

// killDaemonLater kills the grandchild a hostile server started, by the pid
// it wrote, when the test ends.
func killDaemonLater(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "daemon.pid")
	t.Setenv("JIG_HOSTILE_PIDFILE", pidfile)
	t.Cleanup(func() {
		if b, err := os.ReadFile(pidfile); err == nil {
			if pid, err := strconv.Atoi(string(b)); err == nil {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
}

// within runs fn and fails the test if it has not returned after limit: a
// hang must be a failure, not a test binary killed by -timeout.
func within(t *testing.T, limit time.Duration, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(limit):
		t.Fatalf("%s did not return within %s: it hangs", what, limit)
	}
}

// A server whose daemonized grandchild keeps its stdout open: jig call
// prints the result and exits, instead of waiting for the grandchild.
func TestGrandchildHoldingStdoutDoesNotHangCall(t *testing.T) {
	killDaemonLater(t)
	var code int
	var out, errOut string
	within(t, 20*time.Second, "jig call", func() {
		code, out, errOut = jig(t, "", append([]string{"call", "t", "--no-record", "--protocol-version", "2025-11-25"}, hostile(t, "grandchild")...)...)
	})
	if code != exitOK || !strings.Contains(out, "the real answer") {
		t.Errorf("exit %d, want 0 with the answer\n%s\n%s", code, out, errOut)
	}
}

// jig proxy in front of a server whose grandchild holds both its stdout and
// its stderr: the proxy exits after its grace with every frame recorded.
func TestGrandchildHoldingPipesDoesNotHangProxy(t *testing.T) {
	killDaemonLater(t)
	exe, _ := os.Executable()
	t.Setenv(hostileEnv, "grandchild") // the proxied server's environment
	rec := filepath.Join(t.TempDir(), "run.jsonl")
	in := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t","arguments":{}}}` + "\n"
	var code int
	var out, errOut string
	within(t, 20*time.Second, "jig proxy", func() {
		code, out, errOut = runCmd(t, "proxy", in, "--record", rec, "--", exe)
	})
	if code != 0 || !strings.Contains(out, "the real answer") {
		t.Errorf("exit %d, want the server's 0 with its answer passed on\n%s\n%s", code, out, errOut)
	}
	tr := readRecording(t, rec)
	var c2s, s2c int
	for _, fr := range tr.Frames {
		if fr.Kind.IsMessage() {
			if fr.Dir == frames.ClientToServer {
				c2s++
			} else {
				s2c++
			}
		}
	}
	if c2s != 2 || s2c != 2 {
		t.Errorf("the recording holds %d requests and %d responses, want 2 and 2", c2s, s2c)
	}
}

// silentSSE is a legacy SSE server that opens the event stream and never
// sends its endpoint event; opened is signalled once per stream.
func silentSSE(t *testing.T) (url string, opened chan struct{}) {
	opened = make(chan struct{}, 8)
	quit := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		opened <- struct{}{}
		select {
		case <-r.Context().Done():
		case <-quit:
		}
	}))
	t.Cleanup(ts.Close)
	t.Cleanup(func() { close(quit) }) // runs first: a hung client must not hang Close
	return ts.URL + "/sse", opened
}

// A legacy SSE server that never sends its endpoint: --timeout bounds the
// wait, and the message says what jig was waiting for.
func TestLegacySSEWithoutEndpointTimesOut(t *testing.T) {
	u, _ := silentSSE(t)
	var code int
	var errOut string
	within(t, 15*time.Second, "jig tools --transport sse", func() {
		code, _, errOut = jig(t, "", "tools", "--url", u, "--transport", "sse", "--timeout", "1s", "--no-record")
	})
	if code != exitUnreachable || !strings.Contains(errOut, "timed out") || !strings.Contains(errOut, "endpoint") {
		t.Errorf("exit %d, want 3 saying it timed out waiting for the endpoint event:\n%s", code, errOut)
	}
}

// The same wait ends on SIGINT and on SIGTERM, in a real process.
func TestLegacySSEWaitIsInterruptible(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			u, opened := silentSSE(t)
			cmd := exec.Command(binary(t), "tools", "--url", u, "--transport", "sse", "--timeout", "10m", "--no-record")
			var errOut strings.Builder
			cmd.Stderr = &errOut
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			select {
			case <-opened:
			case <-time.After(10 * time.Second):
				t.Fatal("jig never opened the event stream")
			}
			cmd.Process.Signal(sig)
			within(t, 10*time.Second, "jig after "+sig.String(), func() { cmd.Wait() })
			if cmd.ProcessState.ExitCode() == 0 {
				t.Errorf("exit 0 after %s, want a failure:\n%s", sig, errOut.String())
			}
		})
	}
}

// credentialSpy is a demo Streamable HTTP server that remembers whether any
// request reached it carrying one of jig's configured headers.
type credentialSpy struct {
	*httptest.Server
	mu   sync.Mutex
	seen []string
}

func newCredentialSpy(t *testing.T) *credentialSpy {
	srv, _ := demo.New(1)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	c := &credentialSpy{}
	c.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		for _, name := range []string{"Authorization", "X-Api-Key"} {
			if r.Header.Get(name) != "" {
				c.seen = append(c.seen, r.Method+" "+r.URL.Path+" "+name)
			}
		}
		c.mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(c.Close)
	return c
}

func (c *credentialSpy) got() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.seen...)
}

// A 307 to another host is followed without the configured headers, as
// Go's client and curl -L do; a redirect within the origin keeps them.
func TestRedirectToAnotherOriginGetsNoCredentials(t *testing.T) {
	t.Setenv("JIG_SPY_TOKEN", "spy-token-0123456789")
	other := newCredentialSpy(t)
	home := newCredentialSpy(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/mcp", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/mcp", http.StatusTemporaryRedirect)
	})
	mux.Handle("/mcp", home.Config.Handler)
	front := httptest.NewServer(mux)
	t.Cleanup(front.Close)
	creds := []string{"--header", "Authorization: Bearer $JIG_SPY_TOKEN", "--header", "X-Api-Key: $JIG_SPY_TOKEN", "--no-record"}

	code, out, errOut := jig(t, "", append([]string{"call", "echo", "--args", `{"text":"x"}`, "--url", front.URL + "/away", "--frames"}, creds...)...)
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if got := other.got(); len(got) > 0 {
		t.Errorf("the other origin received jig's credentials: %v", got)
	}
	if !strings.Contains(errOut, "another origin") {
		t.Errorf("the frames do not say the headers were withheld:\n%s", errOut)
	}
	if code, _, errOut = jig(t, "", append([]string{"call", "echo", "--args", `{"text":"x"}`, "--url", front.URL + "/moved"}, creds...)...); code != exitOK {
		t.Fatalf("same-origin redirect: exit %d\n%s", code, errOut)
	}
	if got := home.got(); len(got) == 0 {
		t.Errorf("a redirect within the origin lost the configured headers")
	}
}

// A legacy SSE server whose endpoint event names another origin is refused:
// nothing is POSTed there, and the error says why.
func TestLegacySSEEndpointOnAnotherOriginIsRefused(t *testing.T) {
	t.Setenv("JIG_SPY_TOKEN", "spy-token-0123456789")
	other := newCredentialSpy(t)
	quit := make(chan struct{})
	sse := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "event: endpoint\ndata: %s/messages?sessionid=1\n\n", other.URL)
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-quit:
		}
	}))
	t.Cleanup(sse.Close)
	t.Cleanup(func() { close(quit) })
	var code int
	var errOut string
	within(t, 20*time.Second, "jig tools", func() {
		code, _, errOut = jig(t, "", "tools", "--url", sse.URL+"/sse", "--transport", "sse", "--header", "Authorization: Bearer $JIG_SPY_TOKEN", "--timeout", "5s", "--no-record")
	})
	if code != exitUnreachable || !strings.Contains(errOut, "another origin") || !strings.Contains(errOut, other.URL) {
		t.Errorf("exit %d, want 3 naming the other origin:\n%s", code, errOut)
	}
	other.mu.Lock()
	defer other.mu.Unlock()
	if len(other.seen) > 0 {
		t.Errorf("the other origin was sent %v", other.seen)
	}
}

// hostileHTTP is the demo server over Streamable HTTP (legacy era), except
// that every tools/call is answered by answer, byte by byte.
func hostileHTTP(t *testing.T, answer func(w http.ResponseWriter, id string)) string {
	srv, _ := demo.New(1)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if json.Unmarshal(body, &m) == nil && m.Method == "tools/call" {
				answer(w, string(m.ID))
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}

func sse(w http.ResponseWriter, events ...string) {
	w.Header().Set("Content-Type", "text/event-stream")
	for _, e := range events {
		fmt.Fprint(w, e+"\n\n")
	}
}

// Over HTTP too, what the SDK cannot decode is withheld and named, the
// session goes on, and an unusable answer ends its call saying it arrived.
func TestHTTPBadEventsAndBodies(t *testing.T) {
	answer := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"result":{"content":[{"type":"text","text":"the real answer"}]}}`
	}
	for _, tt := range []struct {
		name   string
		answer func(w http.ResponseWriter, id string)
		code   int
		want   string
	}{
		{"a non-JSON event before the answer", func(w http.ResponseWriter, id string) {
			sse(w, "data: ping", "event: heartbeat\ndata: {}", "data: "+answer(id))
		}, exitOK, "withheld from the session"},
		{"NaN in the answer's event", func(w http.ResponseWriter, id string) {
			sse(w, "data: "+strings.Replace(answer(id), `"content"`, `"score":NaN,"content"`, 1))
		}, exitUnreachable, "the server's answer arrived"},
		{"NaN in a JSON body", func(w http.ResponseWriter, id string) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, strings.Replace(answer(id), `"content"`, `"score":NaN,"content"`, 1))
		}, exitUnreachable, "the server's answer arrived"},
		{"a body cut off before its Content-Length", func(w http.ResponseWriter, id string) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", "5000")
			fmt.Fprint(w, answer(id)[:40])
		}, exitUnreachable, "cut off"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			u := hostileHTTP(t, tt.answer)
			rec := filepath.Join(t.TempDir(), "run.jsonl")
			var code int
			var out, errOut string
			within(t, 20*time.Second, "jig call", func() {
				code, out, errOut = jig(t, "", "call", "echo", "--args", `{"text":"x"}`, "--url", u, "--protocol-version", "2025-11-25", "--record", rec, "--timeout", "15s")
			})
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, want %d with %q\n%s\n%s", code, tt.code, tt.want, out, errOut)
			}
			if tt.code == exitOK && !strings.Contains(out, "the real answer") {
				t.Errorf("the answer after the bad event is lost:\n%s", out)
			}
			f, _ := os.Open(rec)
			defer f.Close()
			tr, err := frames.ReadTranscript(f)
			if err != nil || len(tr.Warnings) > 0 {
				t.Fatalf("recording: %v %v", err, tr.Warnings)
			}
			if len(frames.Withheld(tr, 0)) == 0 {
				t.Errorf("the bad event or body is not in the recording as withheld")
			}
		})
	}
}

// A line that never ends: the frame is recorded truncated with its size so
// far, and the session ends with exit 3 saying so, instead of running out
// of memory.
func TestEndlessLineIsRecordedTruncated(t *testing.T) {
	var code int
	var errOut string
	var rec *frames.Transcript
	within(t, 60*time.Second, "jig call", func() {
		code, _, errOut, rec = hostileCall(t, "endless", "--max-frame", "4MiB")
	})
	if code != exitUnreachable || !strings.Contains(errOut, "longer than the frame limit (4.0 MB") {
		t.Errorf("exit %d, want 3 naming the frame limit:\n%s", code, errOut)
	}
	var cut *frames.Frame
	for _, f := range rec.Frames {
		if f.Length > 0 {
			cut = f
		}
	}
	if cut == nil || cut.Length <= 4<<20 || len(cut.Raw) > frames.TruncatedKeep || cut.ID == "" {
		t.Fatalf("no truncated frame with its size, its beginning and its id: %+v", cut)
	}
	// An endless stderr line is cut too, and the session goes on.
	code, out, errOut, _ := hostileCall(t, "endless-stderr", "--max-frame", "1MiB")
	if code != exitOK || !strings.Contains(out, "the real answer") {
		t.Errorf("endless stderr: exit %d\n%s\n%s", code, out, errOut)
	}
}

// Files jig reads are regular files within a size limit: a fixture that is
// a FIFO or a link to /dev/zero, a config or an --args file that is one, is
// refused at once, by name, with exit 2 — never a hang, never out of memory.
func TestFilesThatAreNotFilesAreRefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "fixtures")
	if code, _, errOut := jig(t, "", "call", "echo", "--args", `{"text":"x"}`, "--demo", "--pin", filepath.Join(dir, "echo.json"), "--no-record"); code != 0 {
		t.Fatalf("pin: %d %s", code, errOut)
	}
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	os.Symlink("/dev/zero", filepath.Join(dir, "zero.json"))
	var code int
	var out, errOut string
	within(t, 30*time.Second, "jig replay", func() { code, out, errOut = jig(t, "", "replay", dir, "--demo") })
	if code != exitUsage || !strings.Contains(errOut, "fifo.json") || !strings.Contains(errOut, "zero.json") || !strings.Contains(errOut, "not a regular file") {
		t.Errorf("exit %d, want 2 naming both files:\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "1 ok") {
		t.Errorf("the good fixture did not replay beside the bad ones:\n%s", out)
	}
	for _, args := range [][]string{
		{"call", "echo", "--args", "@/dev/zero", "--demo"},
		{"call", "echo", "--args", "@" + fifo, "--demo"},
		{"tools", "--config", fifo},
	} {
		within(t, 30*time.Second, strings.Join(args, " "), func() { code, _, errOut = jig(t, "", args...) })
		if code != exitUsage || !strings.Contains(errOut, "not a regular file") {
			t.Errorf("%v: exit %d, want 2 saying it is not a regular file:\n%s", args, code, errOut)
		}
	}
}

// dumpsSpacing rewrites a JSON text the way Python's json.dumps spaces it:
// ", " and ": " outside strings.
func dumpsSpacing(line []byte) []byte {
	var out []byte
	inString, escaped := false, false
	for _, c := range line {
		out = append(out, c)
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case !inString && (c == ',' || c == ':'):
			out = append(out, ' ')
		}
	}
	return out
}

// jig open reads every readable record: past a corrupt body, records
// re-spaced by another tool, a transcript without its header, one of a
// format it does not know, one arriving on a pipe — saying what it assumed.
func TestOpenReadsEveryReadableRecord(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "run.jsonl")
	if code, _, errOut := jig(t, "", "call", "echo", "--args", `{"text":"hi"}`, "--demo", "--record", rec); code != 0 {
		t.Fatalf("record: %d %s", code, errOut)
	}
	good, _ := os.ReadFile(rec)
	lines := strings.Split(strings.TrimSuffix(string(good), "\n"), "\n")
	var frameLines []int
	for i, l := range lines {
		if strings.HasPrefix(l, `{"type":"frame"`) {
			frameLines = append(frameLines, i)
		}
	}
	total := len(frameLines)
	if total < 6 {
		t.Fatalf("only %d frames recorded", total)
	}
	variant := func(name string, edit func([]string) []string) string {
		ls := edit(append([]string(nil), lines...))
		p := filepath.Join(t.TempDir(), name+".jsonl")
		os.WriteFile(p, []byte(strings.Join(ls, "\n")+"\n"), 0o600)
		return p
	}
	corrupt := variant("corrupt", func(ls []string) []string {
		i := frameLines[1]
		ls[i] = ls[i][:strings.Index(ls[i], `"raw":"`)] + `"raw":"\x"}`
		return ls
	})
	spaced := variant("spaced", func(ls []string) []string {
		for i := range ls {
			ls[i] = string(dumpsSpacing([]byte(ls[i])))
		}
		return ls
	})
	headerless := variant("headerless", func(ls []string) []string { return ls[1:] })
	future := variant("future", func(ls []string) []string {
		ls[0] = strings.Replace(ls[0], `"format":1`, `"format":99`, 1)
		return ls
	})
	fifo := filepath.Join(t.TempDir(), "pipe")
	syscall.Mkfifo(fifo, 0o600)
	go func() {
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			w.Write(good)
			w.Close()
		}
	}()
	for _, tt := range []struct{ name, path, warn string }{
		{"a corrupt body", corrupt, "unreadable"},
		{"records spaced by json.dumps", spaced, ""},
		{"no header", headerless, "no header record"},
		{"format 99", future, "format 99"},
		{"a pipe", fifo, "pipe"},
	} {
		var code int
		var out, errOut string
		within(t, 20*time.Second, "jig open "+tt.name, func() { code, out, errOut = jig(t, "", "open", tt.path, "--text") })
		n := strings.Count(out, "\n#")
		if strings.HasPrefix(out, "#") {
			n++
		}
		want := total
		if code != exitOK || n != want || !strings.Contains(out+errOut, tt.warn) {
			t.Errorf("%s: exit %d, %d of %d frames, want 0, all frames and %q\n%s\n%s", tt.name, code, n, want, tt.warn, out, errOut)
		}
	}
}

// The smaller ones: --record never replaces a recording; a fixture with
// data after its JSON is refused; a server whose cursors go round in a cycle
// is listed once, with a warning.
func TestSmallerHostileCases(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "run.jsonl")
	jig(t, "", "tools", "--demo", "--record", rec)
	before, _ := os.ReadFile(rec)
	code, _, errOut := jig(t, "", "tools", "--demo", "--record", rec)
	after, _ := os.ReadFile(rec)
	if code != exitUsage || !strings.Contains(errOut, "does not overwrite") || string(before) != string(after) {
		t.Errorf("--record over an existing recording: exit %d, changed %v:\n%s", code, string(before) != string(after), errOut)
	}

	dir := filepath.Join(t.TempDir(), "fixtures")
	file := filepath.Join(dir, "echo.json")
	jig(t, "", "call", "echo", "--args", `{"text":"x"}`, "--demo", "--pin", file, "--no-record")
	b, _ := os.ReadFile(file)
	os.WriteFile(file, append(b, []byte(`{"format":1}`)...), 0o600)
	if code, _, errOut = jig(t, "", "replay", file, "--no-record"); code != exitUsage || !strings.Contains(errOut, "data after the fixture's JSON") {
		t.Errorf("a fixture with trailing data: exit %d:\n%s", code, errOut)
	}

	code, out, errOut := jig(t, "", append([]string{"tools", "--no-record", "--protocol-version", "2025-11-25"}, hostile(t, "cursor-cycle")...)...)
	if code != exitOK || !strings.Contains(out, "3 tools") || !strings.Contains(errOut, "go round in a cycle") {
		t.Errorf("cycling cursors: exit %d, want the 3 pages until the cursor repeats and a warning:\n%s\n%s", code, out, errOut)
	}
}

// A request from the server that jig withholds (invalid UTF-8, NaN, inside
// a batch) is answered with a JSON-RPC error naming what was wrong, recorded
// as a frame like every other, so a server waiting on it (sampling,
// elicitation) goes on instead of waiting for ever.
func TestWithheldServerRequestIsAnswered(t *testing.T) {
	for _, tt := range []struct{ kind, code, why string }{
		{"utf8", "-32700", "invalid UTF-8"},
		{"nan", "-32700", "invalid character 'N'"},
		{"batch", "-32600", "inside a JSON-RPC batch"},
	} {
		t.Run(tt.kind, func(t *testing.T) {
			code, out, errOut, rec := hostileCall(t, "ask:"+tt.kind, "--timeout", "20s")
			if code != exitOK || !strings.Contains(out, "the client answered: "+tt.code+" jig could not use this ") || !strings.Contains(out, tt.why) {
				t.Fatalf("exit %d, want 0 with the server told %s (%s)\nstdout: %s\nstderr: %s", code, tt.code, tt.why, out, errOut)
			}
			var ask, answer *frames.Frame
			for _, f := range rec.Frames {
				switch {
				case f.Dir == frames.ServerToClient && bytes.Contains(f.Raw, []byte(`"ask-1"`)):
					ask = f
				case f.Dir == frames.ClientToServer && f.ID == `"ask-1"`:
					answer = f
				}
			}
			if ask == nil || ask.Dispatchable() {
				t.Fatalf("the server's request is not recorded as withheld: %+v", ask)
			}
			if answer == nil || answer.Kind != frames.KindError || answer.Seq < ask.Seq || !strings.Contains(string(answer.Raw), fmt.Sprintf(`"jigWithheldFrame":%d`, ask.Seq)) {
				t.Fatalf("jig's error answer is not recorded after the request, naming it: %+v", answer)
			}
			if !strings.Contains(errOut, fmt.Sprintf("frame #%d", ask.Seq)) || !strings.Contains(errOut, "answered") {
				t.Errorf("stderr does not say the request was withheld and answered:\n%s", errOut)
			}
		})
	}
}

// jig proxy --max-frame: a line over the limit reaches the client whole and
// is recorded truncated with its true size; a bad limit is a usage error naming
// the flag.
func TestProxyMaxFrame(t *testing.T) {
	script := `read line; printf '{"jsonrpc":"2.0","id":1,"result":{"blob":"%s"}}\n' "$(head -c 300000 /dev/zero | tr '\0' x)"`
	rec := filepath.Join(t.TempDir(), "run.jsonl")
	code, out, errOut := runCmd(t, "proxy", `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n", "--max-frame", "64KiB", "--record", rec, "--", "sh", "-c", script)
	if code != 0 || len(out) < 300000 || !strings.HasSuffix(out, `"}}`+"\n") {
		t.Fatalf("exit %d, %d bytes passed on; want 0 and the whole line\n%s", code, len(out), errOut)
	}
	f, _ := os.Open(rec)
	defer f.Close()
	tr, err := frames.ReadTranscript(f)
	if err != nil || len(tr.Warnings) > 0 {
		t.Fatalf("recording: %v %v", err, tr.Warnings)
	}
	var cut *frames.Frame
	for _, fr := range tr.Frames {
		if fr.Length > 0 {
			cut = fr
		}
	}
	if cut == nil || cut.Length != int64(len(out)-1) || len(cut.Raw) > 64<<10 || !strings.Contains(cut.Err, "--max-frame") {
		t.Errorf("no truncated frame naming --max-frame with its size: %+v", cut)
	}
	if code, _, errOut = runCmd(t, "proxy", "", "--max-frame", "lots", "--no-record", "--", "true"); code != exitUsage || !strings.Contains(errOut, `--max-frame "lots"`) {
		t.Errorf("a bad --max-frame: exit %d\n%s", code, errOut)
	}
}

// --allow-cross-origin-endpoint lets a real legacy SSE server whose
// endpoint event names another origin be used: the session works, the
// recording says the endpoint was allowed, and the other origin never
// receives the configured headers. Without the flag it is refused.
func TestAllowCrossOriginEndpoint(t *testing.T) {
	t.Setenv("JIG_SPY_TOKEN", "spy-token-0123456789")
	srv, _ := demo.New(1)
	sseH := mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	var mu sync.Mutex
	var leaked []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		if r.Header.Get("Authorization") != "" {
			leaked = append(leaked, r.Method+" "+r.URL.Path)
		}
		mu.Unlock()
		sseH.ServeHTTP(w, r)
	}))
	t.Cleanup(other.Close)
	// The target relays other's event stream, its endpoint made absolute:
	// the session's POSTs are to go straight to the other origin.
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, _ := http.NewRequestWithContext(r.Context(), http.MethodGet, other.URL+"/sse", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		buf := make([]byte, 32<<10)
		first := true
		for {
			n, err := resp.Body.Read(buf)
			if n > 0 {
				chunk := buf[:n]
				if first {
					chunk = bytes.Replace(chunk, []byte("data: /"), []byte("data: "+other.URL+"/"), 1)
					first = false
				}
				w.Write(chunk)
				w.(http.Flusher).Flush()
			}
			if err != nil {
				return
			}
		}
	}))
	t.Cleanup(front.Close)
	args := []string{"call", "echo", "--args", `{"text":"across"}`, "--url", front.URL + "/sse", "--transport", "sse",
		"--header", "Authorization: Bearer $JIG_SPY_TOKEN", "--timeout", "10s", "--frames", "--no-record"}
	var code int
	var out, errOut string
	within(t, 30*time.Second, "jig call", func() { code, _, errOut = jig(t, "", args...) })
	if code != exitUnreachable || !strings.Contains(errOut, "--allow-cross-origin-endpoint") {
		t.Fatalf("without the flag: exit %d, want 3 naming the flag that allows it:\n%s", code, errOut)
	}
	within(t, 30*time.Second, "jig call --allow-cross-origin-endpoint", func() {
		code, out, errOut = jig(t, "", append(args, "--allow-cross-origin-endpoint")...)
	})
	if code != exitOK || !strings.Contains(out, "across") {
		t.Fatalf("with the flag: exit %d, want the call to work\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "allowed by --allow-cross-origin-endpoint") || !strings.Contains(errOut, "did not send your headers") {
		t.Errorf("the frames do not say the endpoint was allowed and the headers withheld:\n%s", errOut)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(leaked) > 0 {
		t.Errorf("the other origin received the configured Authorization: %v", leaked)
	}
}

// Over Streamable HTTP too, a server request jig withholds is answered with
// jig's error, POSTed in the session like any answer, and recorded.
func TestWithheldServerRequestIsAnsweredOverHTTP(t *testing.T) {
	for _, tt := range []struct{ kind, code, why string }{
		{"utf8", "-32700", "invalid UTF-8"},
		{"nan", "-32700", "invalid character 'N'"},
	} {
		t.Run(tt.kind, func(t *testing.T) {
			srv, _ := demo.New(1)
			h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
			got := make(chan string, 1)
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodPost {
					body, _ := io.ReadAll(r.Body)
					var m struct {
						ID     json.RawMessage `json:"id"`
						Method string          `json:"method"`
						Error  *struct {
							Code    int    `json:"code"`
							Message string `json:"message"`
						} `json:"error"`
					}
					json.Unmarshal(body, &m)
					switch {
					case string(m.ID) == `"ask-1"` && m.Method == "":
						if m.Error != nil {
							got <- fmt.Sprintf("%d %s", m.Error.Code, m.Error.Message)
						} else {
							got <- "no error: " + string(body)
						}
						w.WriteHeader(http.StatusAccepted)
						return
					case m.Method == "tools/call":
						w.Header().Set("Content-Type", "text/event-stream")
						fmt.Fprintf(w, "data: %s\n\n", withheldAsks[tt.kind])
						w.(http.Flusher).Flush()
						var answer string
						select {
						case answer = <-got:
						case <-time.After(10 * time.Second):
							answer = "nothing"
						case <-r.Context().Done():
							return
						}
						text, _ := json.Marshal("the client answered: " + answer)
						fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"content\":[{\"type\":\"text\",\"text\":%s}]}}\n\n", m.ID, text)
						return
					}
					r.Body = io.NopCloser(bytes.NewReader(body))
				}
				h.ServeHTTP(w, r)
			}))
			t.Cleanup(ts.Close)
			rec := filepath.Join(t.TempDir(), "run.jsonl")
			var code int
			var out, errOut string
			within(t, 30*time.Second, "jig call", func() {
				code, out, errOut = jig(t, "", "call", "echo", "--args", `{"text":"x"}`, "--url", ts.URL+"/mcp", "--protocol-version", "2025-11-25", "--record", rec, "--timeout", "20s")
			})
			if code != exitOK || !strings.Contains(out, "the client answered: "+tt.code+" jig could not use this ") || !strings.Contains(out, tt.why) {
				t.Fatalf("exit %d, want 0 with the server told %s (%s)\nstdout: %s\nstderr: %s", code, tt.code, tt.why, out, errOut)
			}
			f, _ := os.Open(rec)
			defer f.Close()
			tr, err := frames.ReadTranscript(f)
			if err != nil || len(tr.Warnings) > 0 {
				t.Fatalf("recording: %v %v", err, tr.Warnings)
			}
			var answer *frames.Frame
			for _, fr := range tr.Frames {
				if fr.Dir == frames.ClientToServer && fr.ID == `"ask-1"` {
					answer = fr
				}
			}
			if answer == nil || answer.Kind != frames.KindError || !strings.Contains(string(answer.Raw), "jigWithheldFrame") {
				t.Errorf("jig's error answer is not recorded as sent: %+v", answer)
			}
		})
	}
}
