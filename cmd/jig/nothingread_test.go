package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNothingReadIsAnError: jig stats, jig drift (either side) and jig
// check given files none of which is a recording — an empty file, JSON that
// is no transcript, prose — exit 2 naming each file and why, and say what
// to name instead. They exited 0 ("0 tool calls … no violations", "not
// enough data"): a CI job checking an empty capture went green. A JSON file
// that is no transcript beside recordings in a directory is skipped with
// its reason like any other file that is no recording (it stopped the whole
// run with exit 2).
func TestNothingReadIsAnError(t *testing.T) {
	rec := recordTraffic(t, 1, 1, 40)
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.jsonl")
	config := filepath.Join(dir, "config.json")
	prose := filepath.Join(dir, "notes.txt")
	os.WriteFile(empty, nil, 0o600)
	os.WriteFile(config, []byte(`{"servers":{"a":1}}`), 0o600)
	os.WriteFile(prose, []byte("hello world\n"), 0o600)
	contracts := tempFile(t, "contracts.json", seedContracts)
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"stats", []string{"stats", empty, config, prose}, []string{"recordings: no recording could be used", "empty.jsonl: the file is empty", "config.json: JSON, but not a transcript", "notes.txt: not a format"}},
		{"drift baseline", []string{"drift", "--baseline", empty, "--current", rec}, []string{"--baseline: no recording could be used", "empty.jsonl"}},
		{"drift current", []string{"drift", "--baseline", rec, "--current", config}, []string{"--current: no recording could be used", "config.json"}},
		{"check", []string{"check", contracts, empty, config}, []string{"recordings: no recording could be used", "empty.jsonl", "config.json"}},
	} {
		code, _, errOut := jig(t, "", c.args...)
		if code != exitUsage || !strings.Contains(errOut, "jig sessions lists them") {
			t.Errorf("%s: exit %d, want 2 with the next step:\n%s", c.name, code, errOut)
		}
		for _, w := range c.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("%s: stderr does not say %q:\n%s", c.name, w, errOut)
			}
		}
	}
	data, _ := os.ReadFile(rec)
	os.WriteFile(filepath.Join(dir, "a.jsonl"), data, 0o600)
	code, out, errOut := jig(t, "", "stats", dir)
	if code != 0 || !strings.Contains(out, "search_orders") || !strings.Contains(errOut, "config.json: skipped: ") {
		t.Errorf("a directory with a recording and a config.json: exit %d, want the recording's statistics and config.json skipped:\n%s\n%s", code, out, errOut)
	}
}
