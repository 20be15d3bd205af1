package main

import (
	"os"
	"path/filepath"
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
	return nil
}

// spaced is the fix for a flag given as "--flag FILE".
func spaced(flag string) func(string) string {
	return func(p string) string { return flag + " " + p }
}
