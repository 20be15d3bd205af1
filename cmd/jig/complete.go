package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session"
)

// completeOptions are jig complete's.
type completeOptions struct {
	target   targetFlags
	frames   framesFlag
	prompt   string
	template string
	arg      string   // NAME=PARTIAL: the argument to complete and what is typed so far
	context  []string // NAME=VALUE: arguments already filled in
	command  []string
}

const completeLong = `Ask the server to complete a prompt's argument or a resource template's
variable (completion/complete): the values it offers for what is typed so far,
one per line on stdout, with the total it reports on stderr. --context gives
the arguments already filled in, which narrow the answer on some servers
(server-everything's completable-prompt: department narrows name).`

const completeExample = `  jig complete --prompt completable-prompt --arg department=E -- node server-everything/dist/index.js stdio
  jig complete --prompt completable-prompt --arg name= --context department=Engineering -- node server.js
  jig complete --template 'demo://resource/dynamic/text/{resourceId}' --arg resourceId=1 -- node server.js`

func newCompleteCmd(st *streams, runF runFunc[completeOptions]) *cobra.Command {
	o := &completeOptions{}
	cmd := &cobra.Command{
		Use:     "complete (--prompt NAME | --template URI) --arg NAME=PARTIAL [flags] [-- command args...]",
		Short:   "Ask the server to complete a prompt argument or a resource template variable",
		Long:    completeLong,
		Example: completeExample,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.command = args
			return runF(cmd.Context(), o, st)
		},
	}
	o.target.bind(cmd)
	o.target.oneShot = true // it asks once and ends: no list_changed subscription
	o.frames.bind(cmd)
	fl := cmd.Flags()
	fl.StringVar(&o.prompt, "prompt", "", "the prompt whose argument to complete")
	fl.StringVar(&o.template, "template", "", "the resource template (its uriTemplate) whose variable to complete")
	fl.StringVar(&o.arg, "arg", "", "NAME=PARTIAL: the argument and what is typed of it so far (may be empty)")
	fl.StringArrayVar(&o.context, "context", nil, "NAME=VALUE of an argument already filled in (repeatable)")
	return cmd
}

func runComplete(ctx context.Context, o *completeOptions, st *streams) error {
	ref := session.CompletionRef{Prompt: o.prompt, Template: o.template}
	if (o.prompt == "") == (o.template == "") {
		return usageErr("give one of --prompt NAME or --template URI")
	}
	name, partial, ok := strings.Cut(o.arg, "=")
	if !ok || name == "" {
		return usageErr("--arg %q: expected NAME=PARTIAL (the part may be empty: --arg name=)", o.arg)
	}
	given := map[string]string{}
	for _, c := range o.context {
		k, v, ok := strings.Cut(c, "=")
		if !ok || k == "" {
			return usageErr("--context %q: expected NAME=VALUE", c)
		}
		given[k] = v
	}
	return withSession(ctx, st, &o.target, o.command, &o.frames, "complete", func(ctx context.Context, s *session.Session) error {
		if !s.ServerDeclares("completions") {
			fmt.Fprintln(st.err, "jig: warning: the server did not declare the completions capability; asking anyway")
		}
		_, c, err := s.Complete(ctx, ref, name, partial, given)
		if err != nil {
			return err
		}
		for _, v := range c.Values {
			fmt.Fprintln(st.out, v)
		}
		fmt.Fprintf(st.err, "jig: %s\n", completionCount(c))
		return nil
	})
}

// completionCount says how many values came and how many there are.
func completionCount(c *session.Completion) string {
	s := frames.Count(len(c.Values), "value")
	switch {
	case c.Total > len(c.Values):
		s += fmt.Sprintf(" of %d", c.Total)
	case c.HasMore:
		s += " (the server has more)"
	}
	return s
}

// pingOptions are jig ping's.
type pingOptions struct {
	target  targetFlags
	frames  framesFlag
	command []string
}

func newPingCmd(st *streams, runF runFunc[pingOptions]) *cobra.Command {
	o := &pingOptions{}
	cmd := &cobra.Command{
		Use:   "ping [flags] [-- command args...]",
		Short: "Send ping and print how long the answer took (ping is gone from the 2026-07-28 era)",
		Example: `  jig ping -- node server.js
  jig ping --url http://127.0.0.1:3000/mcp`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.command = args
			return runF(cmd.Context(), o, st)
		},
	}
	o.target.bind(cmd)
	o.target.oneShot = true // it asks once and ends: no list_changed subscription
	o.frames.bind(cmd)
	return cmd
}

func runPing(ctx context.Context, o *pingOptions, st *streams) error {
	return withSession(ctx, st, &o.target, o.command, &o.frames, "ping", func(ctx context.Context, s *session.Session) error {
		ex, err := s.Ping(ctx)
		if err != nil {
			if s.Info().Era == "stateless" {
				fmt.Fprintln(st.err, "jig: the 2026-07-28 era removed ping; a server of that era may refuse it (--protocol-version 2025-11-25 speaks the legacy era)")
			}
			return err
		}
		fmt.Fprintf(st.out, "ping answered in %s (frame #%d)\n", frames.HumanDuration(ex.Latency), ex.Response.Seq)
		return nil
	})
}
