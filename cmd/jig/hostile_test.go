package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
