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
	out := relaxedWarnings(f)
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

// relaxedWarnings are the loud lines for a step whose rules stop replay
// from checking a whole subtree of its result (an "any" over an object or
// an array), or all of it: a fixture that checks nothing is not a fixture.
func relaxedWarnings(f *fixture.Fixture) []string {
	var out []string
	calls := f.Calls()
	for i, step := range calls {
		if len(step.Response.Result) == 0 {
			continue
		}
		rel, whole := fixture.Relaxed(step.Response.Result, step.Rules)
		if len(rel) == 0 && !whole {
			continue
		}
		where := ""
		if len(calls) > 1 {
			where = f.Label(i) + ": "
		}
		if whole {
			out = append(out, fmt.Sprintf("WARNING: %severy value of the result is relaxed to \"any\": replay of this fixture checks nothing of it", where))
		}
		for _, r := range rel {
			out = append(out, fmt.Sprintf("WARNING: %s%s → any: the %d value(s) under it are not checked at all", where, r.Path, r.Values))
		}
		out = append(out, "  if two identical calls differed there, they did not see the same state (a setup step missing, a server shared with another client):",
			"  pin the setup as earlier steps (--append), or narrow the rule to the values that really vary before committing the fixture")
	}
	return out
}
