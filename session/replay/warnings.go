package replay

import (
	"encoding/json"
	"fmt"
	"os"
	"os/user"

	"github.com/mcpjig/jig/frames/fixture"
)

// ThisMachine is what identifies the machine jig runs on.
func ThisMachine() fixture.Machine {
	var m fixture.Machine
	m.Home, _ = os.UserHomeDir()
	m.Cwd, _ = os.Getwd()
	m.Host, _ = os.Hostname()
	if u, err := user.Current(); err == nil {
		m.User = u.Username
	}
	return m
}

// Warnings are the lines that tell a reviewer which values tie a fixture to
// this machine, each with a rule or a variable that would not.
func Warnings(f *fixture.Fixture) []string {
	var out []string
	for _, t := range f.Ties(ThisMachine()) {
		out = append(out, fmt.Sprintf("warning: %s names %s: the fixture will go red on another machine", t.Path, t.What))
		if t.Rule != nil {
			r, _ := json.Marshal(t.Rule)
			where := "rules"
			if len(f.Steps) > 0 {
				where = fmt.Sprintf("steps[%d].rules", t.Step)
			}
			out = append(out, fmt.Sprintf("  a rule for %s: %s", where, r))
			continue
		}
		out = append(out, "  a variable instead: a reference the replaying machine expands ('$DATA_DIR', '${HOME}'), or a scratch directory of the session's own (--cwd '$JIG_SCRATCH', --env 'X=$JIG_SCRATCH/x', with relative paths)")
	}
	return out
}
