package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session"
)

// Did you mean: a typed name that is not one jig or the server knows is
// answered with the nearest names that are (commands, flags, the server's
// tools, prompts and resources).

// similar returns the candidates nearest to word (frames.Similar).
func similar(word string, candidates []string) []string { return frames.Similar(word, candidates) }

// didYouMean is "; did you mean "x"?" (or "x" or "y"), or "": the end of
// a message.
func didYouMean(word string, candidates []string) string { return frames.DidYouMean(word, candidates) }

// aside is a didYouMean set in a sentence that goes on: " (did you mean "x"?)".
func aside(hint string) string {
	if hint == "" {
		return ""
	}
	return " (" + strings.TrimPrefix(hint, "; ") + ")"
}

// noArgsOrCommand is cobra.NoArgs for a command with subcommands, with the
// subcommand nearest to what was typed (cobra suggests only when Args is
// unset, which would let bare words through).
func noArgsOrCommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 || cmd.ArgsLenAtDash() == 0 || urlAfter(cmd, args, 0) {
		return nil // `jig -- node server.js`, `jig URL`: as jig connect
	}
	var names []string
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() {
			names = append(names, c.Name())
			names = append(names, c.Aliases...)
		}
	}
	if len(names) == 0 {
		return fmt.Errorf("unknown argument %q for %q (it takes none)", args[0], cmd.CommandPath())
	}
	hint := didYouMean(args[0], names)
	if _, err := exec.LookPath(args[0]); hint == "" && err == nil && !cmd.HasParent() {
		// `jig node server.js`: a server command, missing its --.
		hint = fmt.Sprintf("; to open the TUI on it as the server: jig -- %s", strings.Join(args, " "))
	}
	if hint == "" {
		hint = fmt.Sprintf("; run '%s --help' for the commands", cmd.CommandPath())
	}
	return fmt.Errorf("unknown command %q for %q%s", args[0], cmd.CommandPath(), hint)
}

var unknownFlag = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^unknown flag: --([^\s=]+)|^unknown shorthand flag: '(.)'`)
})

// flagError adds the nearest flags of the command to pflag's "unknown
// flag" error; other flag errors go as they are. Exit 2 either way.
func flagError(cmd *cobra.Command, err error) error {
	m := unknownFlag().FindStringSubmatch(err.Error())
	if m == nil {
		return &session.UsageError{Err: err}
	}
	var names []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	})
	typed := m[1]
	if typed == "" {
		typed = m[2]
	}
	hint := didYouMean(typed, names)
	if hint != "" {
		near := similar(typed, names)
		for i := range near {
			near[i] = "--" + near[i]
		}
		hint = "; did you mean " + strings.Join(near, " or ") + "?"
	} else {
		hint = fmt.Sprintf("; see '%s --help'", cmd.CommandPath())
	}
	return &session.UsageError{Err: fmt.Errorf("%w%s", err, hint)}
}

// suggestNames lists what the server has of a kind (its tools, prompts,
// resources and resource templates) and returns the nearest to name as a
// did-you-mean, or "". It is asked only after the server refused name, so
// a good call costs no extra request.
func suggestNames(ctx context.Context, s *session.Session, name string, list func(context.Context) ([]json.RawMessage, error), key string) string {
	items, err := list(ctx)
	if err != nil {
		return ""
	}
	var names []string
	for _, it := range items {
		var m map[string]any
		if json.Unmarshal(it, &m) == nil {
			if v, ok := m[key].(string); ok {
				names = append(names, v)
			}
		}
	}
	return didYouMean(name, names)
}

// explainArgs wraps the argument validator of cmd and of every command
// under it, so a missing or extra argument is named from the command's own
// usage line — "jig replay needs FIXTURES" — and the usage line is shown,
// instead of cobra's "requires at least 1 arg(s), only received 0".
func explainArgs(cmd *cobra.Command) {
	if check := cmd.Args; check != nil {
		c := cmd
		cmd.Args = func(cc *cobra.Command, args []string) error {
			err := check(cc, args)
			if err == nil {
				return nil
			}
			return &session.UsageError{Err: argsProblem(c, args, err)}
		}
	}
	for _, sub := range cmd.Commands() {
		explainArgs(sub)
	}
}

// argsProblem says what is wrong with args against the positional
// arguments c's usage line names.
func argsProblem(c *cobra.Command, args []string, err error) error {
	usage := fmt.Sprintf("usage: %s; see '%s --help'", c.UseLine(), c.CommandPath())
	spec := positionals(c.Use)
	given := len(args)
	if at := c.ArgsLenAtDash(); at >= 0 {
		given = at
	}
	name := strings.TrimPrefix(c.CommandPath(), c.Root().Name()+" ")
	switch {
	case len(spec) > 0 && given < countNames(spec):
		missing := spec
		if !hasAlternatives(spec) {
			missing = namesFrom(spec, given)
		}
		return fmt.Errorf("%s needs %s (%s)", name, strings.ReplaceAll(strings.Join(missing, " "), " | ", " or "), usage)
	case len(spec) > 0 && !hasAlternatives(spec) && !strings.HasSuffix(spec[len(spec)-1], "...") && given > len(spec):
		return fmt.Errorf("%s takes %d argument(s), %s; got %d: %q (%s)", name, len(spec), strings.Join(spec, " "), given, args[:given], usage)
	}
	return fmt.Errorf("%w (%s)", err, usage)
}

// positionals are the tokens of a usage line naming positional arguments:
// after the command's name, before its first flag or bracket. "|" is kept:
// it separates alternatives.
func positionals(use string) []string {
	fields := strings.Fields(use)
	var spec []string
	for _, f := range fields[min(1, len(fields)):] {
		if strings.HasPrefix(f, "[") || strings.HasPrefix(f, "(") || strings.HasPrefix(f, "-") {
			break
		}
		spec = append(spec, f)
	}
	return spec
}

func hasAlternatives(spec []string) bool { return slices.Contains(spec, "|") }

// countNames is how many arguments spec asks for at least: its names, or
// one when it offers alternatives.
func countNames(spec []string) int {
	if hasAlternatives(spec) {
		return 1
	}
	return len(spec)
}

// namesFrom is spec without its first n names.
func namesFrom(spec []string, n int) []string {
	if n >= len(spec) {
		return nil
	}
	return spec[n:]
}
