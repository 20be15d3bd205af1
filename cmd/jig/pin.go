package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/replay"
)

// pinFlags are call's flags for pinning the call as a golden fixture.
type pinFlags struct {
	file      string
	note      string
	scenario  string
	probe     int
	force     bool
	secretEnv []string
}

func (p *pinFlags) bind(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&p.file, "pin", "", "save the call and its response as a golden fixture in FILE (replay it with 'jig replay')")
	fl.StringVar(&p.note, "note", "", "with --pin: what the fixture protects, for reviewers")
	fl.StringVar(&p.scenario, "scenario", "", "with --pin: the scenario name (default: the file name)")
	fl.IntVar(&p.probe, "probe", -1, "with --pin: re-issue the identical call N times and mark the values that differ as volatile (default: 1 for read-only tools, else 0)")
	fl.BoolVar(&p.force, "force", false, "with --pin: overwrite an existing fixture")
	fl.StringArrayVar(&p.secretEnv, "secret-env", nil, "with --pin: redact the value of environment variable NAME wherever it appears (repeatable)")
}

// check runs before connecting: a pin that cannot be saved should not cost a call.
func (p *pinFlags) check() error {
	if p.file == "" {
		given := []struct {
			name string
			set  bool
		}{{"note", p.note != ""}, {"scenario", p.scenario != ""}, {"probe", p.probe != -1}, {"force", p.force}, {"secret-env", len(p.secretEnv) > 0}}
		for _, g := range given {
			if g.set {
				return usageErr("--%s only applies with --pin FILE", g.name)
			}
		}
		return nil
	}
	if !p.force {
		if _, err := os.Stat(p.file); err == nil {
			return usageErr("--pin %s: the fixture exists; pass --force to overwrite it, or pick another file", p.file)
		}
	}
	if _, err := secretEnvValues(p.secretEnv); err != nil {
		return err
	}
	return nil
}

// secretEnvValues returns the values of the named environment variables.
func secretEnvValues(names []string) ([]string, error) {
	var out []string
	for _, n := range names {
		v, ok := os.LookupEnv(n)
		if !ok {
			return nil, usageErr("--secret-env %s: the environment variable is not set", n)
		}
		if len(v) < 4 {
			return nil, usageErr("--secret-env %s: the value is shorter than 4 bytes, too short to redact safely", n)
		}
		out = append(out, v)
	}
	return out, nil
}

// pin builds the fixture for the exchange, shows the reviewer its rules and
// assertions, and saves it.
func (p *pinFlags) pin(ctx context.Context, st *streams, s *session.Session, opts session.Options, tool json.RawMessage, ex *session.Exchange) error {
	secrets, err := secretEnvValues(p.secretEnv)
	if err != nil {
		return err
	}
	st.redact.Add(secrets...)
	scenario := p.scenario
	if scenario == "" {
		scenario = strings.TrimSuffix(filepath.Base(p.file), filepath.Ext(p.file))
	}
	f, err := replay.Pin(ctx, s, ex, replay.PinOptions{
		Scenario: scenario,
		Note:     p.note,
		Target:   opts.Target,
		Tool:     tool,
		Elicit:   opts.ElicitScript,
		Sample:   opts.SampleScript,
		Probe:    p.probe,
		// Every secret the run knows, learned ones too (a password argument).
		Secrets: append(secrets, st.redact.Values()...),
	})
	if err != nil {
		return err
	}
	replay.Describe(st.err, f)
	if !p.force {
		if _, err := os.Stat(p.file); err == nil {
			return usageErr("--pin %s: the fixture appeared while calling; pass --force to overwrite it", p.file)
		}
	}
	if dir := filepath.Dir(p.file); dir != "." {
		if err := frames.MkdirPrivate(dir); err != nil {
			return usageErr("--pin %s: %v", p.file, err)
		}
	}
	if err := f.Save(p.file); err != nil {
		var fe *fixture.FileError
		if errors.As(err, &fe) {
			return &session.UsageError{Err: err}
		}
		return usageErr("--pin %s: %v", p.file, err)
	}
	fmt.Fprintf(st.err, "pinned %s (scenario %q); replay it with: jig replay %s\n", p.file, f.Scenario, p.file)
	return nil
}
