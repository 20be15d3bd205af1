package replay

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/peers"
)

// update is the one -update flag of this test binary.
var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// corpusServer is one server of the real-upgrade corpus at its two
// releases, as the commands that run them.
type corpusServer struct {
	dir      string
	old, new func(testing.TB) []string
}

func nodeCmd(rel string, args ...string) func(testing.TB) []string {
	return func(tb testing.TB) []string {
		return append([]string{"node", peers.Path(tb, rel)}, args...)
	}
}

func binCmd(rel string) func(testing.TB) []string {
	return func(tb testing.TB) []string { return []string{peers.Path(tb, rel)} }
}

var corpus = []corpusServer{
	{"everything", nodeCmd(peers.EverythingOld, "stdio"), nodeCmd(peers.Everything, "stdio")},
	{"memory", nodeCmd(peers.MemoryOld), nodeCmd(peers.MemoryNew)},
	{"thinking", nodeCmd(peers.ThinkingOld), nodeCmd(peers.ThinkingNew)},
	{"filesystem", nodeCmd(peers.FilesystemOld, "."), nodeCmd(peers.FilesystemNew, ".")},
	{"mcpgo", binCmd(peers.MCPGoEverythingOld), binCmd(peers.MCPGoEverythingNew)},
}

// TestUpgradeCorpus replays the real-upgrade corpus — fixtures pinned by
// testdata/corpus/pin.sh against each server's older release, as a team
// would pin its own — with the installed peer on the command line, as CI
// replays against a new release: against the older release three times in
// a row (green every time: isolation, scratch directories, volatile
// values), and against the current one, whose drift must be exactly the
// changes read and checked by hand, kept in testdata/corpus/*.drift.
//
// It spends its time starting some 180 server processes and comparing
// their answers, which the race detector only slows down (the runner's
// concurrency is raced by the other tests of this package): built with
// -race it is skipped, and .ci/run runs it on its own without.
func TestUpgradeCorpus(t *testing.T) {
	if raceEnabled {
		t.Skip("the upgrade corpus runs without -race: .ci/run runs it on its own (go test -run TestUpgradeCorpus ./session/replay)")
	}
	for _, srv := range corpus {
		t.Run(srv.dir, func(t *testing.T) {
			cases := load(t, filepath.Join("testdata", "corpus", srv.dir))
			old := &Override{Target: session.Target{Transport: session.TransportStdio, Command: srv.old(t)}}
			for run := 1; run <= 3; run++ {
				outs := Run(testCtx(t), cases, Options{Override: old, Parallel: 4})
				for _, o := range outs {
					if o.Err != nil || o.Drifted() {
						t.Errorf("run %d against the older release: %s drifted (err %v):\n%s", run, o.Path, o.Err, corpusText(outs))
					}
				}
				if t.Failed() {
					return
				}
				cases = load(t, filepath.Join("testdata", "corpus", srv.dir))
			}
			cur := &Override{Target: session.Target{Transport: session.TransportStdio, Command: srv.new(t)}}
			outs := Run(testCtx(t), cases, Options{Override: cur, Parallel: 4})
			var reps []fixture.Report
			for _, o := range outs {
				if o.Err != nil {
					reps = append(reps, fixture.Report{Scenario: o.Fixture.Scenario, NotRun: o.Err.Error()})
					continue
				}
				reps = append(reps, o.Report)
			}
			golden(t, filepath.Join("testdata", "corpus", srv.dir+".drift"), driftSignature(reps))
			if *update {
				os.WriteFile(filepath.Join(os.TempDir(), "jig-corpus-"+srv.dir+".txt"), []byte(corpusText(outs)), 0o600)
			}
		})
	}
}

// driftSignature is the drift of a run in the terms a reviewer checked:
// per scenario its outcome and each change (step, path, kind, severity), and
// each cause once with its scenarios. Values are left out: a volatile value
// must not make the golden flaky, and the paths and kinds say what changed.
func driftSignature(reps []fixture.Report) []byte {
	run := fixture.NewRun(reps)
	var b strings.Builder
	for _, c := range run.Causes {
		renamed := ""
		if c.RenamedTo != "" {
			renamed = " renamed to " + c.RenamedTo + "?"
		}
		fmt.Fprintf(&b, "cause: tool %s %s%s (%d scenarios)\n", c.Tool, c.Severity, renamed, len(c.Scenarios))
		for _, d := range c.Differences {
			if d.Severity > fixture.Cosmetic {
				fmt.Fprintf(&b, "  %s %s %s\n", d.Severity, d.Kind, d.Path)
			}
		}
	}
	sorted := append([]fixture.Report(nil), reps...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Scenario < sorted[j].Scenario })
	for _, r := range sorted {
		fmt.Fprintf(&b, "%s: %s\n", r.Scenario, r.Outcome())
		if r.NotRun != "" {
			fmt.Fprintf(&b, "  not run: %s\n", firstLineOf(r.NotRun))
		}
		seen := map[string]bool{}
		for _, d := range r.Differences {
			if d.Severity == fixture.Cosmetic || strings.HasPrefix(d.Path, "/tool") {
				continue
			}
			line := fmt.Sprintf("  step %d %s %s %s", d.Step, d.Severity, d.Kind, anyIndexPath(d.Path))
			if !seen[line] {
				seen[line] = true
				b.WriteString(line + "\n")
			}
		}
	}
	return []byte(b.String())
}

func firstLineOf(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// anyIndexPath writes array indices as "*", as the text report groups them.
func anyIndexPath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		if s != "" && strings.Trim(s, "0123456789") == "" {
			segs[i] = "*"
		}
	}
	return strings.Join(segs, "/")
}

func corpusText(outs []Outcome) string {
	var reps []fixture.Report
	for _, o := range outs {
		if o.Err != nil {
			reps = append(reps, fixture.Report{Scenario: o.Fixture.Scenario, NotRun: o.Err.Error()})
			continue
		}
		reps = append(reps, o.Report)
	}
	var b strings.Builder
	fixture.NewRun(reps).WriteText(&b, true, nil)
	return b.String()
}

// golden compares got with the file at path, or rewrites it under -update.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run 'go test ./session/replay -run TestUpgradeCorpus -update', read the drift, then review the diff)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-want +got): the current release drifts differently than was checked; read the report, and if every change is real, run 'go test ./session/replay -run TestUpgradeCorpus -update':\n%s", path, diff)
	}
}
