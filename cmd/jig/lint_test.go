package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpjig/jig/frames/lint"
	"github.com/mcpjig/jig/session/peers"
)

// jig lint --demo finds the seed's planted faults and nothing on the clean
// tool beside them; --fail-on decides the exit code.
func TestLintDemo(t *testing.T) {
	code, out, errOut := jig(t, "", "lint", "--demo", "--no-record")
	if code != exitOK {
		t.Fatalf("lint --demo: exit %d (warnings only, --fail-on error)\n%s%s", code, out, errOut)
	}
	for _, want := range []string{
		"tool search_orders\n  warning date-bare-string  /inputSchema/properties/since\n",
		"  warning limit-without-maximum  /inputSchema/properties/limit\n",
		"  warning truncation-undocumented  /outputSchema/properties/truncated\n",
		"  warning matching-undocumented  /inputSchema/properties/customer\n",
		`"search_order" and "search_orders" differ only by a plural`,
		"jig-demo: 6 findings: 0 errors, 6 warnings, 0 info (6 tools, 1 prompt)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("lint --demo lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "revenue_by_day") {
		t.Errorf("the clean tool raised a finding:\n%s", out)
	}
	if code, _, _ := jig(t, "", "lint", "--demo", "--no-record", "--fail-on", "warning"); code != exitServerError {
		t.Errorf("--fail-on warning with warnings: exit %d", code)
	}
	// Release 2 documents the date and the truncation; the cap and the names remain.
	_, out, _ = jig(t, "", "lint", "--demo", "--release", "2", "--no-record", "--json")
	var r lint.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	got := map[string]bool{}
	for _, f := range r.Findings {
		got[f.Rule+" "+f.Item] = true
	}
	if got["date-bare-string tool search_orders"] || got["truncation-undocumented tool search_orders"] || !got["tool-names-confusable tool search_order"] {
		t.Errorf("release 2 findings: %v", got)
	}
}

func TestLintFormatsAndConfig(t *testing.T) {
	dir := t.TempDir()
	sarifFile := filepath.Join(dir, "lint.sarif")
	if code, _, errOut := jig(t, "", "lint", "--demo", "--no-record", "--format", "sarif", "--output", sarifFile); code != exitOK {
		t.Fatalf("sarif: exit %d: %s", code, errOut)
	}
	b, _ := os.ReadFile(sarifFile)
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string } `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b, &log); err != nil || log.Version != "2.1.0" || len(log.Runs) != 1 || len(log.Runs[0].Results) != 6 {
		t.Fatalf("sarif: %v\n%s", err, b)
	}
	_, out, _ := jig(t, "", "lint", "--demo", "--no-record", "--format", "junit")
	if !strings.Contains(out, `<testcase name="tool revenue_by_day"`) || !strings.Contains(out, `<failure type="date-bare-string"`) {
		t.Errorf("junit:\n%s", out)
	}

	rules := filepath.Join(dir, "rules.json")
	os.WriteFile(rules, []byte(`{"disable": ["tool-names-confusable"], "severity": {"date-bare-string": "error"}}`), 0o600)
	code, out, _ := jig(t, "", "lint", "--demo", "--no-record", "--rules", rules, "--disable", "matching-undocumented,description-missing")
	if code != exitServerError || strings.Contains(out, "confusable") || strings.Contains(out, "matching-undocumented") || !strings.Contains(out, "  error   date-bare-string") {
		t.Errorf("rules file and --disable: exit %d\n%s", code, out)
	}
	for _, bad := range []struct {
		args []string
		want string
	}{
		{[]string{"--disable", "date-bare-strings"}, `unknown rule "date-bare-strings" (did you mean date-bare-string?)`},
		{[]string{"--format", "xml"}, `--format "xml": use text, json, sarif or junit`},
		{[]string{"--fail-on", "fatal"}, `--fail-on: unknown severity "fatal"`},
		{[]string{"--rules", filepath.Join(dir, "none.json")}, "--rules: open"},
		{[]string{"--allow-writes"}, "--allow-writes applies only with --probe"},
	} {
		code, _, errOut := jig(t, "", append([]string{"lint", "--demo", "--no-record"}, bad.args...)...)
		if code != exitUsage || !strings.Contains(errOut, bad.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", bad.args, code, errOut, bad.want)
		}
	}
	os.WriteFile(rules, []byte(`{"disabled": []}`), 0o600)
	if code, _, errOut := jig(t, "", "lint", "--demo", "--no-record", "--rules", rules); code != exitUsage || !strings.Contains(errOut, rules+": not a lint config") {
		t.Errorf("a bad rules file: exit %d, %s", code, errOut)
	}

	// A saved surface lints the same as the live server.
	surf := filepath.Join(dir, "surface.json")
	jig(t, "", "surface", "save", "--demo", "--no-record", "--output", surf)
	_, live, _ := jig(t, "", "lint", "--demo", "--no-record")
	if _, saved, _ := jig(t, "", "lint", "--surface", surf); saved != live {
		t.Errorf("lint --surface differs from the live lint:\n%s\n---\n%s", saved, live)
	}

	_, out, _ = jig(t, "", "lint", "--list-rules")
	for _, r := range lint.Rules {
		if !strings.Contains(out, r.ID) {
			t.Errorf("--list-rules lacks %s", r.ID)
		}
	}
}

// Real servers: the go-sdk's example names tools "greet (structured)",
// which the spec's naming rule does not allow; server-everything lints
// without an error.
func TestLintRealServers(t *testing.T) {
	code, out, errOut := jig(t, "", "lint", "--no-record", "--", peers.Path(t, peers.GoSDKEverything))
	if code != exitServerError || !strings.Contains(out, "tool greet (structured)\n  error   tool-name-invalid  /name\n") {
		t.Errorf("go-sdk everything: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = jig(t, "", append([]string{"lint", "--no-record", "--json"}, serverEverything(t)...)...)
	var r lint.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != exitOK || r.Tools < 10 || r.Counts.Error != 0 {
		t.Errorf("server-everything: exit %d, %v, %+v\n%s", code, err, r.Counts, errOut)
	}
}

// jig lint --probe: the seed's first defect as a call's evidence, and what
// it did not call on stderr.
func TestLintProbe(t *testing.T) {
	code, out, errOut := jig(t, "", "lint", "--demo", "--no-record", "--probe")
	if code != exitOK || !strings.Contains(out, "  warning probe-unparseable-date-accepted  /inputSchema/properties/since\n") ||
		!strings.Contains(out, "          seen: since='last month' accepted, 0 results, no error\n") || !strings.Contains(out, "(6 tools, 1 prompt, probed)") {
		t.Errorf("lint --probe: exit %d\n%s", code, out)
	}
	if !strings.Contains(errOut, "probe: not called: cancel_order: not annotated read-only (--allow-writes calls it)") {
		t.Errorf("stderr: %s", errOut)
	}
	surf := filepath.Join(t.TempDir(), "s.json")
	jig(t, "", "surface", "save", "--demo", "--no-record", "--output", surf)
	if code, _, errOut := jig(t, "", "lint", "--surface", surf, "--probe"); code != exitUsage || !strings.Contains(errOut, "give a target, not --surface") {
		t.Errorf("--probe --surface: exit %d %s", code, errOut)
	}
}
