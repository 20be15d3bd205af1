package replay

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/session"
)

// An Override is what the command line says about the target of every
// fixture. It replaces only what it names: a command after -- replaces the
// command and keeps each fixture's environment and working directory; --env
// adds or replaces single variables; --cwd the directory; --url, --demo or
// --config replace the whole target when the transport differs.
type Override struct {
	// Target holds what was given; its Transport is "" when the command
	// line named no server (only --env, --cwd or --header).
	Target session.Target
	// DirSet says --cwd was given (an empty Target.Dir then means "replay's
	// own working directory").
	DirSet bool
}

// Apply returns the target a fixture replays against, with what was
// replaced and what was kept from the fixture, for the user to read on
// stderr. Values are never listed, only names and commands (a command
// passes the run's redactor before it is shown).
func (ov *Override) Apply(ft fixture.Target) (t session.Target, replaced, kept []string) {
	t = sessionTarget(ft)
	if ov == nil {
		return t, nil, nil
	}
	o := ov.Target
	switch {
	case o.Transport == "":
	case o.Transport != t.Transport || o.Config != "":
		replaced = append(replaced, fmt.Sprintf("target %s → %s", describe(t), describe(o)))
		t = session.Target{Transport: o.Transport, Command: o.Command, URL: o.URL, Release: o.Release,
			Config: o.Config, Server: o.Server, Workspace: o.Workspace, Inputs: o.Inputs, DetectSSE: o.DetectSSE,
			Env: copyMap(o.Env), Dir: o.Dir, Headers: copyMap(o.Headers)}
		return t, replaced, nil
	case o.Transport == session.TransportStdio:
		if strings.Join(o.Command, "\x00") != strings.Join(t.Command, "\x00") {
			replaced = append(replaced, fmt.Sprintf("command %s → %s", describe(t), describe(o)))
		}
		t.Command = append([]string(nil), o.Command...)
	case o.Transport == session.TransportDemo:
		if o.Release != t.Release && max(o.Release, 1) != max(t.Release, 1) {
			replaced = append(replaced, fmt.Sprintf("demo release %d → %d", max(t.Release, 1), max(o.Release, 1)))
		}
		t.Release = o.Release
	default:
		if o.URL != t.URL {
			replaced = append(replaced, fmt.Sprintf("url %s → %s", t.URL, o.URL))
		}
		t.URL = o.URL
	}
	t.Env, replaced = merge("env", t.Env, o.Env, replaced)
	t.Headers, replaced = merge("header", t.Headers, o.Headers, replaced)
	if ov.DirSet && o.Dir != t.Dir {
		replaced = append(replaced, fmt.Sprintf("working directory %s → %s", orDefault(t.Dir), orDefault(o.Dir)))
		t.Dir = o.Dir
	}
	if o.Transport == session.TransportStdio {
		var names []string
		for k := range ft.Env {
			if _, over := o.Env[k]; !over {
				names = append(names, k)
			}
		}
		sort.Strings(names)
		if len(names) > 0 {
			kept = append(kept, "env "+strings.Join(names, ", "))
		}
		if ft.Dir != "" && !ov.DirSet {
			kept = append(kept, "working directory "+ft.Dir)
		}
	}
	return t, replaced, kept
}

// merge puts the command line's entries over the fixture's, noting each
// replaced or added name.
func merge(what string, fixtureVals, given map[string]string, notes []string) (map[string]string, []string) {
	if len(given) == 0 {
		return fixtureVals, notes
	}
	out := copyMap(fixtureVals)
	if out == nil {
		out = map[string]string{}
	}
	keys := make([]string, 0, len(given))
	for k := range given {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		old, had := out[k]
		switch {
		case !had:
			notes = append(notes, fmt.Sprintf("%s %s added", what, k))
		case old != given[k]:
			notes = append(notes, fmt.Sprintf("%s %s replaced", what, k))
		}
		out[k] = given[k]
	}
	return out, notes
}

func orDefault(dir string) string {
	if dir == "" {
		return "(jig's own)"
	}
	return dir
}

// describe names a target for an override note.
func describe(t session.Target) string {
	switch t.Transport {
	case session.TransportStdio:
		return "`" + strings.Join(t.Command, " ") + "`"
	case session.TransportDemo:
		return t.String()
	}
	return fmt.Sprintf("%s %s", t.Transport, t.URL)
}

// OverrideNotes says, for every case, what the command line replaced and
// what it kept, each distinct note once with the number of fixtures it
// applies to: what jig prints on stderr before replaying.
func OverrideNotes(cases []Case, ov *Override) []string {
	if ov == nil {
		return nil
	}
	count := map[string]int{}
	var order []string
	for _, c := range cases {
		_, replaced, kept := ov.Apply(c.Fixture.Target)
		line := "the command line replaces "
		if len(replaced) == 0 {
			line = "the command line replaces nothing"
		} else {
			line += strings.Join(replaced, "; ")
		}
		if len(kept) > 0 {
			line += "; kept from the fixture: " + strings.Join(kept, "; ")
		}
		if count[line] == 0 {
			order = append(order, line)
		}
		count[line]++
	}
	var out []string
	for _, l := range order {
		n := count[l]
		noun := "fixtures"
		if n == 1 {
			noun = "fixture"
		}
		out = append(out, fmt.Sprintf("%s (%d %s)", l, n, noun))
	}
	return out
}

// OneTarget is the one target every case replays against, with what the
// command line names in its place (see Override.Apply): what jig replay
// --surface lists. Cases of different targets are an error that names two
// of them.
func OneTarget(cases []Case, ov *Override) (session.Target, error) {
	var one session.Target
	for i, c := range cases {
		t, err := caseTarget(c, ov)
		if err != nil {
			return session.Target{}, err
		}
		if i == 0 {
			one = t
			continue
		}
		if t.String() != one.String() {
			return session.Target{}, fmt.Errorf("%s replays against %s and %s against %s: give the target whose surface to check on the command line",
				cases[0].Path, one, c.Path, t)
		}
	}
	if len(cases) == 0 {
		return session.Target{}, fmt.Errorf("no fixture names a target: give the target whose surface to check on the command line")
	}
	return one, nil
}
