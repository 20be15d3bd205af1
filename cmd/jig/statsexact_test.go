package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpjig/jig/frames/stats"
)

// TestStatsToolAndItsOnlyShapeAgree: for the same calls a tool's line and
// its only shape's give the same quantiles, and exact ones (said so in
// --json) below stats.ExactLimit values: with a reservoir of 1,024 per
// group and a seed per group, a tool's p50 over 1,200 calls differed from
// its only shape's and neither was the median (fresh8 F7). The demo's
// search_order has one argument shape.
func TestStatsToolAndItsOnlyShapeAgree(t *testing.T) {
	rec := recordTraffic(t, 1, 5, 8000)
	code, out, errOut := jig(t, "", "stats", "--json", rec)
	var rep struct {
		Tools []stats.ToolReport `json:"tools"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 {
		t.Fatalf("stats --json: exit %d, %v\n%s", code, err, errOut)
	}
	checked := 0
	for _, tr := range rep.Tools {
		if len(tr.Shapes) != 1 {
			continue
		}
		sh := tr.Shapes[0]
		if tr.LatencyMS != sh.LatencyMS || tr.SizeBytes != sh.SizeBytes {
			t.Errorf("%s: the tool's figures and its only shape's differ:\n%+v\n%+v", tr.Tool, tr.LatencyMS, sh.LatencyMS)
		}
		if !tr.LatencyMS.Exact || tr.LatencyMS.RelativeError != 0 {
			t.Errorf("%s: %d calls, quantiles not said to be exact: %+v", tr.Tool, tr.Calls, tr.LatencyMS)
		}
		if tr.Calls > stats.ReservoirSize {
			checked++
		}
	}
	if checked == 0 {
		t.Fatalf("no tool of one shape with more than %d calls in the traffic", stats.ReservoirSize)
	}
	// Past ExactLimit values (the orders' totals) a figure says it is
	// approximate, and by how much.
	if _, out, _ := jig(t, "", "stats", rec); !strings.Contains(out, "median ≈") || strings.Contains(out, "search_order: ") && strings.Contains(strings.SplitAfter(out, "search_order: ")[1][:80], "≈") {
		t.Errorf("approximate figures not marked, or exact ones marked:\n%s", out)
	}
}
