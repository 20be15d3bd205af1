package surface

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpjig/jig/frames/fixture"
)

// A surface's changes reviewed with the fixtures: each is an item; accepted
// ones (each with its reason and who) are written into the file in the
// review's one set, rejected ones stay changes and red.
func TestPendingReview(t *testing.T) {
	path := filepath.Join(t.TempDir(), "surface.json")
	b, err := base().Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	now := base()
	now.Tools = raws(strings.Replace(ordersTool, "recent orders.", "recent orders, exactly.", 1), cancelTool) // printEnv removed
	now.Instructions = "Changed."
	rec, err := Record(path, b, now)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPending(rec)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	rv := fixture.NewReview(nil, fixture.ReviewOptions{By: "Ana", Now: func() time.Time { return at }})
	rv.Attach(p)
	var keys []string
	for _, it := range rv.Items {
		keys = append(keys, it.Key)
		if len(rv.Hunks(it)) == 0 {
			t.Errorf("%s: no hunks to show", it.Key)
		}
	}
	if strings.Join(keys, ",") != "surface:tool search_orders,surface:tool printEnv,surface:instructions" {
		t.Fatalf("items %v", keys)
	}
	decide := func(key, action, reason string) {
		it, err := rv.Find(key)
		if err == nil {
			err = rv.Decide(it, action, reason)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	decide("surface:tool search_orders", fixture.ActionAccept, "the wording is intended")
	decide("surface:tool printEnv", fixture.ActionAccept, "printEnv leaked the environment")
	decide("surface:instructions", fixture.ActionReject, "")
	changes, err := rv.Changes()
	if err != nil || len(changes) != 1 || changes[0].File != path {
		t.Fatalf("changes %+v %v", changes, err)
	}
	if d := rv.Decisions(); strings.Join(d.StillRed, ",") != "surface:instructions" {
		t.Errorf("still red: %v", d.StillRed)
	}
	if _, errs := rv.Write(changes); len(errs) > 0 {
		t.Fatal(errs)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if items := Compare(got, now).Items(); strings.Join(items, ",") != "instructions" {
		t.Errorf("left after the review: %v", items)
	}
	if len(got.History) != 2 || got.History[0].Reason != "the wording is intended" || got.History[1].Reason != "printEnv leaked the environment" ||
		got.History[0].By != "Ana" || got.History[0].At != "2026-12-01T10:00:00Z" {
		t.Errorf("history %+v", got.History)
	}
	// The report's record no longer matches the file.
	if _, err := NewPending(rec); err == nil || !strings.Contains(err.Error(), "changed since the report") {
		t.Errorf("a stale record: %v", err)
	}
}
