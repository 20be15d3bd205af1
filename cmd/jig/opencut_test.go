package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A recording cut mid-record (head -c) is opened with the frames before the
// cut, and says so: the file, the line and byte of the cut, how many bytes
// were not read — on stderr, beside the last frame in --text, and in what
// jig stats and jig check print.
func TestOpenCutRecordingSaysWhereItIsCut(t *testing.T) {
	full := recordDemo(t, 1, "search_orders", `{"customer":"Acme Corp","since":"2026-01-01"}`)
	data, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	last := len(lines) - 1
	for len(bytes.TrimSpace(lines[last])) == 0 {
		last--
	}
	start := 0
	for _, l := range lines[:last] {
		start += len(l)
	}
	keep := start + len(lines[last])/2
	cut := filepath.Join(t.TempDir(), "cut.jsonl")
	if err := os.WriteFile(cut, data[:keep], 0o600); err != nil {
		t.Fatal(err)
	}
	where := "line " + strconv.Itoa(last+1)
	bytesNot := strconv.Itoa(keep - start)

	code, out, errOut := jig(t, "", "open", cut, "--text")
	if code != exitOK {
		t.Fatalf("jig open --text: exit %d\n%s", code, errOut)
	}
	if !strings.Contains(errOut, cut+": "+where+": cut off") || !strings.Contains(errOut, bytesNot+" bytes from byte "+strconv.Itoa(start)) {
		t.Errorf("stderr does not say where %s is cut (%s, %s bytes from byte %d):\n%s", cut, where, bytesNot, start, errOut)
	}
	if !strings.Contains(out, "⚠ "+cut+" is cut off at "+where+": its last "+bytesNot+" bytes") {
		t.Errorf("--text does not end with the cut:\n%s", out[max(0, len(out)-400):])
	}
	if !strings.Contains(out, "#1 ") {
		t.Errorf("the frames before the cut are gone:\n%s", out)
	}
	_, _, errOut = jig(t, "", "stats", cut)
	if !strings.Contains(errOut, where+": cut off") {
		t.Errorf("jig stats is silent about the cut:\n%s", errOut)
	}
}
