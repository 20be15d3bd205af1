package main

import (
	"os"
	"path/filepath"
	"strings"
)

// checkOutput runs before a command connects: a file it cannot write should
// not cost a call. A directory in a file's place is refused by name with the
// next step. With refuseExisting, an existing file is refused unless --force
// (a committed artifact: a fixture, a surface); otherwise it is replaced (a
// report regenerated on every run).
// fix renders the corrected argument from a file path inside the directory.
func checkOutput(flag, path string, fix func(string) string, example string, refuseExisting, force bool) error {
	if path == "" || path == "-" {
		return nil
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil
	}
	if fi.IsDir() {
		return usageErr("%s %s is a directory, not a file: name a file in it (%s) or another path", flag, path, fix(filepath.Join(path, example)))
	}
	if refuseExisting && !force {
		return usageErr("%s %s: the file exists; pass --force to overwrite it, or pick another file", flag, path)
	}
	if refuseExisting {
		return nil
	}
	// A file regenerated on every run replaces what jig wrote there
	// before: never evidence (a fixture in the directory being replayed
	// was replaced by the report, and dropped from the run).
	// --pin and --record decide themselves what to do with a file of
	// their own kind (refuse it without --force; record beside it).
	own := map[string]string{"--pin": "a fixture", "--record": "a recording"}[flag]
	if !fi.Mode().IsRegular() {
		return nil // a pipe or a device: nothing to read, and reading would wait
	}
	if what := evidenceAt(path); what != "" && (own == "" || !strings.HasPrefix(what, own)) {
		return usageErr("%s %s holds %s: jig does not write over it; pick another file (or move it away first)", flag, path, what)
	}
	return nil
}

// spaced is the fix for a flag given as "--flag FILE".
func spaced(flag string) func(string) string {
	return func(p string) string { return flag + " " + p }
}
