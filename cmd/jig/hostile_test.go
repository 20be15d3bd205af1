package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
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
