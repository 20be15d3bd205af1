package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// recordingFiles expands what a user names as recordings: files, quoted
// globs ('sessions/2026-11-*', which jig expands itself so that a pattern
// too long for the shell still works) and directories (every regular file
// under them, in name order). Each name that matches nothing is a usage
// error naming it.
func recordingFiles(args []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, a := range args {
		matches := []string{a}
		if strings.ContainsAny(a, "*?[") {
			m, err := filepath.Glob(a)
			if err != nil {
				return nil, usageErr("%s: not a valid pattern: %v", a, err)
			}
			if len(m) == 0 {
				return nil, usageErr("%s: no recording matches this pattern (list them with jig sessions)", a)
			}
			matches = m
		}
		for _, m := range matches {
			st, err := os.Stat(m)
			if err != nil {
				return nil, usageErr("%s: %v (list recordings with jig sessions)", m, err)
			}
			if !st.IsDir() {
				add(m)
				continue
			}
			var under []string
			_ = filepath.WalkDir(m, func(p string, d fs.DirEntry, err error) error {
				if err == nil && d.Type().IsRegular() && !strings.HasPrefix(d.Name(), ".") {
					under = append(under, p)
				}
				return nil
			})
			if len(under) == 0 {
				return nil, usageErr("%s: the directory holds no recordings", m)
			}
			sort.Strings(under)
			for _, p := range under {
				add(p)
			}
		}
	}
	return out, nil
}

// nothingRead is the error of a command none of whose files (what: the
// argument that named them) is a recording: each skipped is a file's reason.
func nothingRead(what string, skipped []string) error {
	return usageErr("%s: no recording could be used: %s; name recordings jig wrote (jig sessions lists them) or files jig open imports (see 'jig open --help')",
		what, strings.Join(skipped, "; "))
}
