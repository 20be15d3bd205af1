package main

import (
	"cmp"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpjig/jig/frames/fixture"
)

// --fail-on-unused (jig replay, jig review): a fixture that nothing
// exercised in the run fails the command, as an unreferenced snapshot fails
// insta. Unused is, for each fixture:
//
//   - obsolete: its tool is no longer listed, so no call of it can ever be
//     compared again;
//   - not run: it never reached a server (it did not load, its target was
//     unreachable, the run was interrupted);
//   - cut short: a step's captured value failed, so the steps after it
//     were never sent;
//   - never loaded: a fixture file under the fixtures directory that the run
//     did not replay — in a subdirectory (jig replay reads only the files
//     directly in the directory it is given), or, for jig review, one that
//     none of the reports reviewed compared (added since, or in a shard whose
//     report was not given). Another shard's fixtures are not unused in a
//     replay of one shard.
//
// Each is named on a line of its own with the next step.

type unusedFixture struct{ file, why, next string }

func (u unusedFixture) String() string { return u.file + ": " + u.why + " — " + u.next }

// unusedOptions say where a run's fixtures live and how to name the next
// steps.
type unusedOptions struct {
	// roots are the fixtures directories (or files) the run covered.
	roots []string
	// otherShard reports whether a file directly in a root belongs to
	// another shard of the run (not unused).
	otherShard func(path string) bool
	// review names the reports when the run is a review's ("drift.json").
	review string
	// report is the JSON report a replay wrote, for the next steps.
	report string
}

// maxUnusedWalk bounds the files looked at under a fixtures directory.
const maxUnusedWalk = 100_000

func findUnused(reports []fixture.Report, o unusedOptions) []unusedFixture {
	covered := map[string]bool{}
	var out []unusedFixture
	for _, r := range reports {
		if r.File != "" {
			covered[absPath(r.File)] = true
		}
		if u, ok := unusedReport(r, o); ok {
			out = append(out, u)
		}
	}
	for _, root := range o.roots {
		out = append(out, unusedFiles(root, covered, o)...)
	}
	slices.SortStableFunc(out, func(a, b unusedFixture) int { return strings.Compare(a.file, b.file) })
	return out
}

func absPath(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	return a
}

// unusedReport says why a replayed scenario exercised nothing: obsolete,
// not run, or cut short.
func unusedReport(r fixture.Report, o unusedOptions) (unusedFixture, bool) {
	name := cmp.Or(r.File, r.Scenario)
	switch {
	case r.Obsolete:
		why := fmt.Sprintf("its tool %q is no longer listed", r.Tool)
		if r.RenamedTo != "" {
			why += fmt.Sprintf(" (renamed to %q?)", r.RenamedTo)
		}
		report := cmp.Or(o.review, o.report, "REPORT.json")
		return unusedFixture{name, why, "delete it (jig review " + report + " --delete " + r.Scenario + ") or pin the tool that replaced it"}, true
	case r.NotRun != "":
		return unusedFixture{name, "not run: " + firstLineOf(r.NotRun), "fix what kept it from running, and replay it again"}, true
	}
	for _, d := range r.Differences {
		if d.Kind == fixture.KindCapture {
			return unusedFixture{name, fmt.Sprintf("cut short at step %d: %s, so the steps after it were never sent", d.Step+1, firstLineOf(d.Detail)),
				"re-pin the scenario, or fix the capture it relies on"}, true
		}
	}
	return unusedFixture{}, false
}

// unusedFiles are the fixture files under root that no report covered: in
// a subdirectory, or (for a review) beside the reviewed ones.
func unusedFiles(root string, covered map[string]bool, o unusedOptions) []unusedFixture {
	info, err := os.Stat(root)
	if err != nil || !info.IsDir() {
		return nil
	}
	var out []unusedFixture
	rootAbs, seen := absPath(root), 0
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case d.IsDir() && path != root && strings.HasPrefix(d.Name(), "."):
			return filepath.SkipDir
		case d.IsDir():
			return nil
		}
		if seen++; seen > maxUnusedWalk {
			return filepath.SkipAll
		}
		if !strings.HasSuffix(d.Name(), ".json") || strings.HasPrefix(d.Name(), ".") || covered[absPath(path)] {
			return nil
		}
		direct := filepath.Dir(absPath(path)) == rootAbs
		if direct && (o.review == "" || (o.otherShard != nil && o.otherShard(path))) {
			return nil // a replay loaded it, or said why not; or another shard's
		}
		if _, err := fixture.Load(path); err != nil {
			return nil // not a fixture (a schema, a config): not ours to name
		}
		if !direct {
			out = append(out, unusedFixture{path, "in a subdirectory of " + root + ", which jig replay " + root + " does not read",
				"replay " + filepath.Dir(path) + " too (another CI job), or move it into " + root})
		} else {
			out = append(out, unusedFixture{path, "none of the reports reviewed compared it (added since, or another shard's report not given)",
				"replay it and review that report too"})
		}
		return nil
	})
	return out
}

// writeUnused lists the unused fixtures, one a line.
func writeUnused(w io.Writer, unused []unusedFixture) {
	if len(unused) == 0 {
		fmt.Fprintln(w, "Unused: none (every fixture was exercised)")
		return
	}
	fmt.Fprintf(w, "Unused (%d): nothing exercised these in this run\n", len(unused))
	for _, u := range unused {
		fmt.Fprintf(w, "  %s\n", u)
	}
}

func firstLineOf(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
