package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/session"
)

func newResourcesCmd(st *streams) *cobra.Command {
	resources := listing{noun: "resources", key: "uri", list: func(ctx context.Context, s *session.Session) ([]json.RawMessage, error) {
		return s.ListResources(ctx)
	}}
	templates := &listing{noun: "resource templates", key: "uriTemplate", list: func(ctx context.Context, s *session.Session) ([]json.RawMessage, error) {
		return s.ListResourceTemplates(ctx)
	}}
	return newListCmd(st, "resources", "List every resource of a server (all pages)", resources, templates)
}

func newPromptsCmd(st *streams) *cobra.Command {
	prompts := listing{noun: "prompts", key: "name", list: func(ctx context.Context, s *session.Session) ([]json.RawMessage, error) {
		return s.ListPrompts(ctx)
	}}
	return newListCmd(st, "prompts", "List every prompt of a server (all pages)", prompts, nil)
}

// A listing is one kind of item a list command prints: what it is called,
// how it is listed, and which field names each item.
type listing struct {
	noun string
	key  string
	list func(context.Context, *session.Session) ([]json.RawMessage, error)
}

// newListCmd builds a command that lists items of one kind, printing the key
// field and description of each, or with --json the raw array across pages.
// With templates, --templates lists those instead (resources/templates/list).
func newListCmd(st *streams, use, short string, kind listing, templates *listing) *cobra.Command {
	tf := &targetFlags{}
	ff := &framesFlag{}
	var asJSON, listTemplates bool
	cmd := &cobra.Command{
		Use:   use + " [flags] [-- command args...]",
		Short: short,
		RunE: func(cmd *cobra.Command, args []string) error {
			l := kind
			if listTemplates {
				l = *templates
			}
			return withSession(cmd.Context(), st, tf, args, ff, use, func(ctx context.Context, s *session.Session) error {
				items, err := l.list(ctx, s)
				if err != nil {
					return err
				}
				if asJSON {
					if items == nil {
						items = []json.RawMessage{}
					}
					return writeJSON(st.out, items)
				}
				printInfo(st.out, s.Info())
				fmt.Fprintf(st.out, "%d %s\n", len(items), l.noun)
				for _, it := range items {
					var m map[string]any
					_ = json.Unmarshal(it, &m)
					fmt.Fprintf(st.out, "  %v  %v\n", m[l.key], m["description"])
				}
				return nil
			})
		},
	}
	tf.bind(cmd)
	bindFrames(cmd, ff)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the array exactly as the server sent it (all pages)")
	if templates != nil {
		cmd.Flags().BoolVar(&listTemplates, "templates", false, "list the "+templates.noun+" instead (uriTemplate, all pages)")
	}
	return cmd
}

func newReadCmd(st *streams) *cobra.Command {
	tf := &targetFlags{}
	ff := &framesFlag{}
	cmd := &cobra.Command{
		Use:   "read URI [flags] [-- command args...]",
		Short: "Read a resource; prints the result exactly as the server sent it",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withSession(cmd.Context(), st, tf, args[1:], ff, args[0], func(ctx context.Context, s *session.Session) error {
				ex, err := s.ReadResource(ctx, args[0])
				return printExchange(st, ex, err)
			})
		},
	}
	tf.bind(cmd)
	bindFrames(cmd, ff)
	return cmd
}

func newPromptCmd(st *streams) *cobra.Command {
	tf := &targetFlags{}
	ff := &framesFlag{}
	var argsFlag string
	cmd := &cobra.Command{
		Use:   "prompt NAME [flags] [-- command args...]",
		Short: "Get a prompt with string arguments; prints the result exactly as the server sent it",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			raw, err := readArgs(argsFlag, st.in)
			if err != nil {
				return err
			}
			var pargs map[string]string
			if err := json.Unmarshal(raw, &pargs); err != nil {
				return usageErr("--args: prompt arguments are strings: %v", err)
			}
			return withSession(cmd.Context(), st, tf, args[1:], ff, args[0], func(ctx context.Context, s *session.Session) error {
				ex, err := s.GetPrompt(ctx, args[0], pargs)
				return printExchange(st, ex, err)
			})
		},
	}
	tf.bind(cmd)
	bindFrames(cmd, ff)
	cmd.Flags().StringVar(&argsFlag, "args", "{}", "prompt arguments as a JSON object of strings, @FILE, or -")
	return cmd
}

// printExchange prints a result as received, or a JSON-RPC error's object
// with exit code 1.
func printExchange(st *streams, ex *session.Exchange, err error) error {
	if rpc, ok := err.(*session.RPCError); ok {
		if rpc.Raw != nil {
			writeRaw(st.out, rpc.Raw)
		} else {
			fmt.Fprintln(st.out, rpc.Error())
		}
		return &exitError{code: exitServerError}
	}
	if err != nil {
		return err
	}
	writeRaw(st.out, prettyRaw(ex.Result))
	return nil
}

func prettyRaw(raw json.RawMessage) json.RawMessage {
	return json.RawMessage(prettyIfJSON(string(raw)))
}
