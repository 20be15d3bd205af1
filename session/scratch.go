package session

import (
	"os"
	"strings"
)

// ScratchVar names a fresh, empty directory of one session's own, for
// servers that keep state on disk: a target that refers to it
// (--env 'MEMORY_FILE_PATH=$JIG_SCRATCH/memory.json', --cwd '$JIG_SCRATCH')
// gets a new directory every time jig opens a session — each call, each
// pin, each replayed fixture — removed when the session is done. Responses
// that name the directory are compared and pinned with "${JIG_SCRATCH}" in
// its place.
const ScratchVar = "JIG_SCRATCH"

// UsesScratch reports whether a target refers to the scratch directory.
func (t Target) UsesScratch() bool {
	refers := func(s string) bool { return strings.Contains(s, ScratchVar) }
	if refers(t.Dir) || refers(t.URL) {
		return true
	}
	for _, a := range t.Command {
		if refers(a) {
			return true
		}
	}
	for _, v := range t.Env {
		if refers(v) {
			return true
		}
	}
	return false
}

// Scratch makes the session variables of a target: a new scratch directory
// when the target refers to one, with the function that removes it. A
// target that does not refer to it gets no variables and no directory.
func Scratch(t Target) (vars map[string]string, remove func(), err error) {
	if !t.UsesScratch() {
		return nil, func() {}, nil
	}
	dir, err := os.MkdirTemp("", "jig-scratch-")
	if err != nil {
		return nil, nil, err
	}
	return map[string]string{ScratchVar: dir}, func() { os.RemoveAll(dir) }, nil
}
