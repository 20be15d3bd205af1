package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A directory where a command writes a file is refused before anything is
// called, by name and with the path to give instead.
func TestOutputDirectoryRefusedBeforeTheCall(t *testing.T) {
	dir := t.TempDir()
	fixtures := filepath.Join(dir, "fixtures")
	if err := os.Mkdir(fixtures, 0o700); err != nil {
		t.Fatal(err)
	}
	fix := filepath.Join(dir, "echo.json")
	if code, _, errOut := jig(t, "", "call", "echo", "--args", `{"text":"hi"}`, "--demo", "--no-record", "--pin", fix); code != 0 {
		t.Fatalf("pinning: exit %d\n%s", code, errOut)
	}
	call := []string{"call", "echo", "--args", `{"text":"hi"}`, "--demo", "--no-record"}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"pin", append(call, "--pin", fixtures), "--pin " + filepath.Join(fixtures, "call.json")},
		{"pin --force", append(call, "--pin", fixtures, "--force"), "--pin " + filepath.Join(fixtures, "call.json")},
		{"pin --append", append(call, "--pin", fixtures, "--append"), "--pin " + filepath.Join(fixtures, "call.json")},
		{"frames", append(call, "--frames="+fixtures), "--frames=" + filepath.Join(fixtures, "frames.txt")},
		{"record", []string{"call", "echo", "--args", `{"text":"hi"}`, "--demo", "--record", fixtures}, "--record " + filepath.Join(fixtures, "session.jsonl")},
		{"surface save", []string{"surface", "save", "--demo", "--output", fixtures}, "--output " + filepath.Join(fixtures, "surface.json")},
		{"replay report", []string{"replay", fix, "--report", "junit=" + fixtures}, "--report junit=" + filepath.Join(fixtures, "drift.xml")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := jig(t, "", tt.args...)
			if code != exitUsage || !strings.Contains(errOut, fixtures+" is a directory") || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, want %d naming the directory and %q:\n%s", code, exitUsage, tt.want, errOut)
			}
			if out != "" || strings.Contains(errOut, "normalization rules") {
				t.Errorf("the command ran before refusing its output path:\nstdout: %s\nstderr: %s", out, errOut)
			}
		})
	}
}

// jig surface save --output agrees with --pin: an existing file is kept
// unless --force, and what was written is said.
func TestSurfaceSaveOutputRefusesToOverwrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "surface.json")
	code, _, errOut := jig(t, "", "surface", "save", "--demo", "--no-record", "--output", path)
	if code != 0 || !strings.Contains(errOut, "wrote "+path) || !strings.Contains(errOut, "6 tools") {
		t.Fatalf("first save: exit %d, want it to say what it wrote:\n%s", code, errOut)
	}
	if err := os.WriteFile(path, []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = jig(t, "", "surface", "save", "--demo", "--no-record", "--output", path)
	if data, _ := os.ReadFile(path); code != exitUsage || string(data) != "mine" || !strings.Contains(errOut, "--force") {
		t.Errorf("second save without --force: exit %d, file %q:\n%s", code, data, errOut)
	}
	code, _, errOut = jig(t, "", "surface", "save", "--demo", "--no-record", "--output", path, "--force")
	if data, _ := os.ReadFile(path); code != 0 || string(data) == "mine" {
		t.Errorf("save --force: exit %d, file %q:\n%s", code, data, errOut)
	}
}

// A truncated fixture gets one diagnosis from every command that reads it:
// the file, where it is cut short, the next step.
func TestTruncatedFixtureOneDiagnosis(t *testing.T) {
	dir := t.TempDir()
	fix := filepath.Join(dir, "echo.json")
	if code, _, errOut := jig(t, "", "call", "echo", "--args", `{"text":"hi"}`, "--demo", "--no-record", "--pin", fix); code != 0 {
		t.Fatalf("pinning: exit %d\n%s", code, errOut)
	}
	data, err := os.ReadFile(fix)
	if err != nil || len(data) < 700 {
		t.Fatalf("the pinned fixture is %d bytes (%v)", len(data), err)
	}
	trunc := filepath.Join(dir, "trunc.json")
	if err := os.WriteFile(trunc, data[:700], 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"replay", trunc}, {"open", trunc}, {"mock", trunc}} {
		code, out, errOut := jig(t, "", args...)
		if code == 0 || !strings.Contains(out+errOut, "is cut short at byte 700 (line ") || !strings.Contains(out+errOut, "git checkout -- ") {
			t.Errorf("jig %s: exit %d, want the cut-short diagnosis:\n%s%s", args[0], code, out, errOut)
		}
	}
}

// F14: a report (or --frames, or lint's output) over a fixture in the
// directory being replayed replaced it, silently, and dropped it from the
// run. A file a run regenerates never replaces evidence: a fixture, a
// recording or a surface file is refused by name, before anything runs,
// and left as it was; a report jig wrote is replaced as before.
func TestOutputsNeverReplaceEvidence(t *testing.T) {
	dir := t.TempDir()
	fixtures := filepath.Join(dir, "fixtures")
	if err := os.Mkdir(fixtures, 0o700); err != nil {
		t.Fatal(err)
	}
	fix, rec, surf := filepath.Join(fixtures, "report.json"), filepath.Join(dir, "run.jsonl"), filepath.Join(dir, "surface.json")
	if code, _, errOut := jig(t, "", "call", "get_report", "--demo", "--record", rec, "--pin", fix); code != 0 {
		t.Fatalf("pinning: exit %d\n%s", code, errOut)
	}
	if code, _, errOut := jig(t, "", "surface", "save", "--demo", "--output", surf); code != 0 {
		t.Fatalf("surface save: exit %d\n%s", code, errOut)
	}
	for _, tt := range []struct {
		name, file, what string
		args             []string
	}{
		{"replay json report", fix, "a fixture", []string{"replay", fixtures, "--report", "json=" + fix}},
		{"replay junit report", fix, "a fixture", []string{"replay", fixtures, "--report", "junit=" + fix}},
		{"frames", fix, "a fixture", []string{"call", "echo", "--args", `{"text":"hi"}`, "--demo", "--no-record", "--frames=" + fix}},
		{"drift report", rec, "a recording", []string{"drift", "--baseline", rec, "--current", rec, "--report", "json=" + rec}},
		{"mock report", surf, "a surface file", []string{"mock", rec, "--report", "json=" + surf}},
		{"lint output", surf, "a surface file", []string{"lint", "--demo", "--output", surf}},
		{"record over a fixture", fix, "a fixture", []string{"call", "echo", "--args", `{"text":"hi"}`, "--demo", "--record", fix}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before, _ := os.ReadFile(tt.file)
			code, _, errOut := jig(t, "", tt.args...)
			if code != exitUsage || !strings.Contains(errOut, tt.file+" holds "+tt.what) {
				t.Errorf("exit %d, want %d saying %s holds %s:\n%s", code, exitUsage, tt.file, tt.what, errOut)
			}
			if after, _ := os.ReadFile(tt.file); string(after) != string(before) {
				t.Errorf("%s was changed", tt.file)
			}
		})
	}
	report := filepath.Join(dir, "drift.json")
	for range 2 {
		if code, out, errOut := jig(t, "", "replay", fixtures, "--report", "json="+report); code != 0 {
			t.Fatalf("a report over the previous report: exit %d\n%s%s", code, out, errOut)
		}
	}
}
