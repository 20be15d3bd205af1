package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpjig/jig/frames/surface"
)

// jig review shows the surface changes a report's --surface check found and
// accepts them with a reason into the surface file, in the same write as
// the fixtures; then jig surface diff against the same server is clean.
func TestReviewSurface(t *testing.T) {
	t.Setenv("CI", "")
	t.Setenv("JIG_REVIEWER", "Ana <ana@example.com>")
	dir := pinReviewFixtures(t)
	surf := filepath.Join(t.TempDir(), "surface.json")
	if code, _, errOut := jig(t, "", "surface", "save", "--demo", "--no-record", "--output", surf); code != 0 {
		t.Fatalf("surface save: exit %d\n%s", code, errOut)
	}
	report := filepath.Join(t.TempDir(), "drift.json")
	code, out, errOut := jig(t, "", "replay", dir, "--demo", "--release", "2", "--no-record", "--surface", surf, "--report", "json="+report)
	if code != exitServerError || !strings.Contains(out, "or one by one, with the fixtures' drift:\n  jig review "+report) {
		t.Fatalf("replay --surface: exit %d\n%s\n%s", code, out, errOut)
	}
	_, out, errOut = jig(t, "", "review", report, "--json")
	r := decodeReview(t, out)
	var surfItems []string
	for _, it := range r.Items {
		if it.Kind == "surface" {
			surfItems = append(surfItems, it.Item)
		}
	}
	if len(surfItems) != 1 || surfItems[0] != "surface:tool search_orders" {
		t.Fatalf("surface items %v\n%s\n%s", surfItems, out, errOut)
	}
	// Replayed now, with --surface: the same item.
	_, out, errOut = jig(t, "", "review", dir, "--demo", "--release", "2", "--no-record", "--surface", surf, "--json")
	if !strings.Contains(out, `"item": "surface:tool search_orders"`) {
		t.Fatalf("review FIXTURES --surface:\n%s\n%s", out, errOut)
	}
	if code, _, errOut := jig(t, "", "review", report, "--surface", surf); code != exitUsage || !strings.Contains(errOut, "a report carries its own surface check") {
		t.Errorf("--surface with a report: exit %d\n%s", code, errOut)
	}
	before, _ := os.ReadFile(surf)
	// A decision without a reason is refused, and nothing is written.
	if code, _, errOut := jig(t, "", "review", report, "--accept", "surface:tool search_orders"); code != exitUsage || !strings.Contains(errOut, "--reason") {
		t.Fatalf("accept without a reason: exit %d\n%s", code, errOut)
	}
	code, out, errOut = jig(t, "", "review", report, "--accept", "surface:tool search_orders", "--accept", "tool:search_orders",
		"--reason", "v2 documents since as a date", "--reject", "search-globex")
	if !strings.Contains(out, "wrote "+surf+": tool search_orders accepted") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	sf, err := surface.Load(surf)
	if err != nil {
		t.Fatal(err)
	}
	last := sf.History[len(sf.History)-1]
	if last.Reason != "v2 documents since as a date" || !strings.HasPrefix(last.By, "Ana <ana@example.com>") || strings.Join(last.Accepted, ",") != "tool search_orders" {
		t.Errorf("history: %+v", sf.History)
	}
	if code, out, errOut := jig(t, "", "surface", "diff", surf, "--demo", "--release", "2", "--no-record"); code != 0 {
		t.Errorf("surface diff after review: exit %d\n%s\n%s", code, out, errOut)
	}
	// The same report again: the surface file is another revision now.
	if code, _, errOut := jig(t, "", "review", report, "--json"); code != exitUsage || !strings.Contains(errOut, surf+": changed since the report was written") {
		t.Errorf("a stale surface: exit %d\n%s", code, errOut)
	}
	if now, _ := os.ReadFile(surf); string(now) == string(before) {
		t.Error("the surface file was not rewritten")
	}
}
