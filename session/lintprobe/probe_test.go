package lintprobe

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpjig/jig/frames/surface"
	"github.com/mcpjig/jig/session"
)

func demo(t *testing.T, release int) (*session.Session, *surface.Surface) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	s, err := session.Open(ctx, session.Options{Target: session.Target{Transport: session.TransportDemo, Release: release}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	sf, err := s.Surface(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return s, sf
}

// The seed's first defect, shown by a call: since='last month' accepted,
// 0 results, no error; the cap and the case-sensitive match too. Nothing
// on the clean tool, and the tool that writes is never called.
func TestProbeDemo(t *testing.T) {
	s, sf := demo(t, 1)
	res := Run(context.Background(), s, sf, Options{})
	var got []string
	for _, f := range res.Findings {
		got = append(got, f.Item+" "+f.Rule+" "+f.Evidence)
	}
	want := []string{
		"tool search_orders probe-unparseable-date-accepted since='last month' accepted, 0 results, no error",
		"tool search_orders probe-limit-silently-capped limit=1000 accepted, 20 results, truncated",
		`tool search_orders probe-case-sensitive-undocumented customer="Acme Corp" found 10, customer="acme corp" found 0`,
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if slices.Contains(res.Called, "cancel_order") || !slices.Contains(res.Called, "revenue_by_day") {
		t.Errorf("called %v", res.Called)
	}
	for i := range s.Log.Len() {
		f := s.Log.Frame(i)
		if strings.Contains(string(f.Raw), `"name":"cancel_order"`) && strings.Contains(string(f.Raw), "tools/call") {
			t.Errorf("a write tool was called: %s", f.Raw)
		}
	}

	// Release 2 reads since as a date and rejects "last month".
	s2, sf2 := demo(t, 2)
	for _, f := range Run(context.Background(), s2, sf2, Options{}).Findings {
		if f.Rule == "probe-unparseable-date-accepted" {
			t.Errorf("release 2: %+v", f)
		}
	}
}

// A budget of calls is a budget: the probe stops and says so.
func TestProbeBudget(t *testing.T) {
	s, sf := demo(t, 1)
	res := Run(context.Background(), s, sf, Options{MaxCalls: 2})
	if res.Calls != 2 || len(res.Skipped) == 0 {
		t.Errorf("calls %d, skipped %v", res.Calls, res.Skipped)
	}
}

func TestMeasure(t *testing.T) {
	for _, tc := range []struct {
		body      string
		n         int
		truncated bool
	}{
		{`{"orders": [1, 2, 3], "truncated": true}`, 3, true},
		{`{"items": [], "next_cursor": "abc"}`, 0, true},
		{`{"items": [1], "next_cursor": ""}`, 1, false},
		{`[1, 2]`, 2, false},
		{`{"id": "x"}`, 1, false},
	} {
		n, tr := measure(json.RawMessage(tc.body), 1)
		if n != tc.n || tr != tc.truncated {
			t.Errorf("%s: %d %v, want %d %v", tc.body, n, tr, tc.n, tc.truncated)
		}
	}
}
