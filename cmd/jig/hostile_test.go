package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpjig/jig/frames"
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
	args := append([]string{"replay", dir, "--in-flight", "1", "--report", "junit=" + junit, "--report", "json=" + js}, hostile(t, "crash-after:3")...)
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
