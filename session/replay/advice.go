package replay

import (
	"fmt"
	"strings"

	"github.com/mcpjig/jig/frames/fixture"
)

// Advice says how to replay a fixture just saved at path, as whatever wrote
// it (jig call --pin, the TUI's P, jig attribute --pin) tells its user.
type Advice struct {
	// Command is the replay command line, with every value the fixture
	// could not keep given on it ("jig replay e.json --env 'FOO_TOKEN=…'"),
	// or "" when no command line can replay it as saved.
	Command string
	// Why says what the command line must give, and how to pin it so that
	// it does not have to; or, when Command is "", why it cannot be
	// replayed and what to do instead. "" when the fixture replays as it is.
	Why string
}

// Line is the advice as one line: "replay it with: …", or what to do.
func (a Advice) Line() string {
	switch {
	case a.Command == "":
		return "it cannot be replayed as saved: " + a.Why
	case a.Why == "":
		return "replay it with: " + a.Command
	}
	return "replay it with: " + a.Command + " (" + a.Why + ")"
}

// Replayable reports whether the fixture replays from a command line.
func (a Advice) Replayable() bool { return a.Command != "" }

// AdviseReplay is the Advice for fixture f saved at path: never a command
// that would refuse to run it (see fixture.Gaps).
func AdviseReplay(path string, f *fixture.Fixture) Advice {
	cmd := "jig replay " + quoteArg(path)
	var give, why, stuck []string
	for _, g := range f.Gaps() {
		switch g.Flag {
		case "--env":
			give = append(give, "--env "+quoteArg(g.Name+"=…"))
			why = append(why, fmt.Sprintf("%s was given as a literal value, so the fixture holds it redacted; pin with --env '%s=$%s' to keep a reference that replay reads from the environment",
				g.Name, g.Name, envName(g.Name)))
		case "--header":
			give = append(give, "--header "+quoteArg(g.Name+": …"))
			why = append(why, fmt.Sprintf("header %s was given as a literal value, so the fixture holds it redacted; pin with --header '%s: $%s' to keep a reference that replay reads from the environment",
				g.Name, g.Name, envName(g.Name)))
		case "--url":
			give = append(give, "--url URL")
			why = append(why, "the URL held a secret, which the fixture holds redacted; pin with a reference like ?api_key=${API_KEY} in the URL to keep one that replay reads from the environment")
		case "--":
			give = append(give, "-- COMMAND")
			why = append(why, "the server's command held a secret, which the fixture holds redacted")
		default:
			stuck = append(stuck, fmt.Sprintf("%s holds %s", g.Field, g.Placeholder))
		}
	}
	if len(stuck) > 0 {
		return Advice{Why: strings.Join(stuck, "; ") + ": a secret jig redacted and cannot re-fill (it never sends the placeholder). " +
			"Put the value in an environment variable NAME and pin again with --secret-env NAME (the fixture then holds [REDACTED:$NAME], re-filled from $NAME at replay), " +
			"or edit the file to say [REDACTED:$NAME] there"}
	}
	if len(give) == 0 {
		return Advice{Command: cmd}
	}
	return Advice{Command: cmd + " " + strings.Join(give, " "), Why: strings.Join(why, "; ")}
}

// quoteArg quotes one argument for a POSIX shell, when it needs it.
func quoteArg(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:@,+", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
