package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpjig/jig/frames/stats"
)

// benchTraffic records calls seeded calls with jig traffic: against the
// demo release in-process, or (when release3 is set) against the test
// binary serving release 3 with JIG_TEST_RELEASE3_AFTER=release3.
func benchTraffic(b testing.TB, dir string, release, seed, calls int, release3 string) string {
	b.Helper()
	p := filepath.Join(dir, fmt.Sprintf("r%d-%s-%d.jsonl", release, strings.ReplaceAll(release3, ":", "_"), seed))
	args := []string{"traffic", "--seed", strconv.Itoa(seed), "--calls", strconv.Itoa(calls), "--record", p}
	if release3 != "" {
		exe, err := os.Executable()
		if err != nil {
			b.Fatal(err)
		}
		args = append(args, "--env", release3Env+"="+release3, "--", exe)
	} else {
		args = append(args, "--release", strconv.Itoa(release))
	}
	var out, errb bytes.Buffer
	if code := run(context.Background(), args, strings.NewReader(""), &out, &errb); code != 0 {
		b.Fatalf("jig %q: exit %d\n%s", args, code, errb.String())
	}
	return p
}

func benchDrift(b testing.TB, base, cur string) driftOutput {
	b.Helper()
	var out, errb bytes.Buffer
	run(context.Background(), []string{"drift", "--json", "--baseline", base, "--current", cur}, strings.NewReader(""), &out, &errb)
	var d driftOutput
	if err := json.Unmarshal(out.Bytes(), &d); err != nil {
		b.Fatalf("jig drift: %v\n%s", err, errb.String())
	}
	return d
}

// benchRuns is how many seeded runs each figure is measured over.
const benchRuns = 20

// BenchmarkDriftFalseAlarms measures how often jig drift (defaults) says
// drift between two independent seeded samples of release 1's traffic
// (1,200 calls each): per run (any group drifted), and per comparison
// (findings with a verdict that were drift).
//
//	go test ./cmd/jig -run '^$' -bench DriftFalseAlarms -benchtime 1x
func BenchmarkDriftFalseAlarms(b *testing.B) {
	dir := b.TempDir()
	for range b.N {
		runs, findings, alarms, alarmed := 0, 0, 0, 0
		for r := range benchRuns {
			base := benchTraffic(b, dir, 1, 1000+2*r, 1200, "")
			cur := benchTraffic(b, dir, 1, 1001+2*r, 1200, "")
			d := benchDrift(b, base, cur)
			runs++
			if d.Drift.Drifted > 0 {
				alarmed++
			}
			for _, g := range d.Drift.Groups {
				for _, f := range g.Findings {
					if f.Verdict == stats.NotEnough {
						continue
					}
					findings++
					if f.Verdict == stats.Drift {
						alarms++
						b.Logf("run %d: false alarm: %s %s %s %s: %s", r, g.Tool, g.Shape, f.Signal, f.Path, f.Detail)
					}
				}
			}
		}
		b.ReportMetric(float64(alarmed)/float64(runs)*100, "%runs-alarmed")
		b.ReportMetric(float64(alarms)/float64(findings)*100, "%comparisons-alarmed")
		b.ReportMetric(float64(findings)/float64(runs), "comparisons/run")
	}
}

// BenchmarkDriftSmallestTruncation measures, for each truncation of
// search_orders' lists (10% to 50% of the orders dropped, truncated false,
// nothing else wrong), in how many of the seeded runs jig drift (defaults)
// finds the cardinality of /structuredContent/orders drifted, against a
// baseline of the same release before it goes wrong.
//
//	go test ./cmd/jig -run '^$' -bench DriftSmallestTruncation -benchtime 1x
func BenchmarkDriftSmallestTruncation(b *testing.B) {
	dir := b.TempDir()
	const runs = benchRuns / 4
	for range b.N {
		base := benchTraffic(b, dir, 3, 1, 1200, "1000000")
		for _, cut := range []string{"0.1", "0.2", "0.3", "0.4", "0.5"} {
			caught := 0
			for r := range runs {
				cur := benchTraffic(b, dir, 3, 100+r, 1200, "0:"+cut)
				d := benchDrift(b, base, cur)
				if findings(d, "search_orders")["cardinality /structuredContent/orders"] > 0 {
					caught++
				}
			}
			b.ReportMetric(float64(caught)/runs*100, "%caught-at-"+cut)
		}
	}
}
