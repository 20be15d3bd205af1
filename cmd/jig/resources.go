package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session"
)

func newResourcesCmd(st *streams, runF runFunc[listOptions]) *cobra.Command {
	resources := listing{noun: "resources", key: "uri", method: "resources/list", list: func(ctx context.Context, s *session.Session) ([]json.RawMessage, error) {
		return s.ListResources(ctx)
	}}
	templates := &listing{noun: "resource templates", key: "uriTemplate", method: "resources/templates/list", list: func(ctx context.Context, s *session.Session) ([]json.RawMessage, error) {
		return s.ListResourceTemplates(ctx)
	}}
	return newListCmd(st, runF, "resources", "List every resource of a server (all pages)", resources, templates)
}

func newPromptsCmd(st *streams, runF runFunc[listOptions]) *cobra.Command {
	prompts := listing{noun: "prompts", key: "name", method: "prompts/list", list: func(ctx context.Context, s *session.Session) ([]json.RawMessage, error) {
		return s.ListPrompts(ctx)
	}}
	return newListCmd(st, runF, "prompts", "List every prompt of a server (all pages)", prompts, nil)
}

// A listing is one kind of item a list command prints: what it is called,
// how it is listed, and which field names each item.
type listing struct {
	noun   string
	key    string
	method string // the list method, for its cache hint
	list   func(context.Context, *session.Session) ([]json.RawMessage, error)
}

// listOptions are jig resources's and jig prompts's.
type listOptions struct {
	target    targetFlags
	frames    framesFlag
	json      bool
	templates bool     // resources only: list the templates instead
	command   []string // the server's command after --

	label              string // names the recording
	kind, templateKind *listing
}

// newListCmd builds a command that lists items of one kind, printing the key
// field and description of each, or with --json the raw array across pages.
// With templates, --templates lists those instead (resources/templates/list).
func newListCmd(st *streams, runF runFunc[listOptions], use, short string, kind listing, templates *listing) *cobra.Command {
	o := &listOptions{label: use, kind: &kind, templateKind: templates}
	cmd := &cobra.Command{
		Use:   use + " [flags] [-- command args...]",
		Short: short,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.command = args
			return runF(cmd.Context(), o, st)
		},
	}
	o.target.bind(cmd)
	o.frames.bind(cmd)
	cmd.Flags().BoolVar(&o.json, "json", false, "print the array exactly as the server sent it (all pages)")
	if templates != nil {
		cmd.Flags().BoolVar(&o.templates, "templates", false, "list the "+templates.noun+" instead (uriTemplate, all pages)")
	}
	return cmd
}

func runList(ctx context.Context, o *listOptions, st *streams) error {
	l := o.kind
	if o.templates {
		l = o.templateKind
	}
	return withSession(ctx, st, &o.target, o.command, &o.frames, o.label, func(ctx context.Context, s *session.Session) error {
		items, err := l.list(ctx, s)
		if err != nil {
			return err
		}
		if o.json {
			if items == nil {
				items = []json.RawMessage{}
			}
			return writeJSON(st.out, items)
		}
		printInfo(st.out, s.Info())
		fmt.Fprintf(st.out, "%d %s\n", len(items), l.noun)
		for _, it := range items {
			fmt.Fprintln(st.out, "  "+listLine(it, l.key))
		}
		printCacheHint(st.out, s, l.method)
		return nil
	})
}

// readOptions are jig read's.
type readOptions struct {
	target  targetFlags
	frames  framesFlag
	uri     string
	command []string // the server's command after --
}

// listLine renders one listed item: its key field, its title or name when
// that says more than the key, and the first line of its description. A
// field the server left out is left out, never printed as <nil>.
func listLine(item json.RawMessage, key string) string {
	var m map[string]any
	_ = json.Unmarshal(item, &m)
	str := func(k string) string {
		s, _ := m[k].(string)
		return strings.TrimSpace(s)
	}
	parts := []string{str(key)}
	if parts[0] == "" {
		parts[0] = fmt.Sprintf("(no %s)", key)
	}
	label := str("title")
	if label == "" && key != "name" {
		label = str("name")
	}
	if label != "" && label != parts[0] {
		parts = append(parts, label)
	}
	if d := strings.SplitN(str("description"), "\n", 2)[0]; d != "" {
		parts = append(parts, "— "+d)
	}
	return strings.Join(parts, "  ")
}

func newReadCmd(st *streams, runF runFunc[readOptions]) *cobra.Command {
	o := &readOptions{}
	cmd := &cobra.Command{
		Use:   "read URI [flags] [-- command args...]",
		Short: "Read a resource; prints the result exactly as the server sent it",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.uri, o.command = args[0], args[1:]
			return runF(cmd.Context(), o, st)
		},
	}
	o.target.bind(cmd)
	o.frames.bind(cmd)
	return cmd
}

func runRead(ctx context.Context, o *readOptions, st *streams) error {
	return withSession(ctx, st, &o.target, o.command, &o.frames, o.uri, func(ctx context.Context, s *session.Session) error {
		ex, err := s.ReadResource(ctx, o.uri)
		if _, refused := err.(*session.RPCError); refused {
			if hint := suggestNames(ctx, s, o.uri, s.ListResources, "uri"); hint != "" {
				fmt.Fprintf(st.err, "jig: the server did not list a resource %q%s\n", o.uri, hint)
			}
		}
		return printExchange(st, ex, err)
	})
}

// promptOptions are jig prompt's.
type promptOptions struct {
	target  targetFlags
	frames  framesFlag
	name    string
	args    string   // --args: JSON, @FILE or -
	command []string // the server's command after --
}

func newPromptCmd(st *streams, runF runFunc[promptOptions]) *cobra.Command {
	o := &promptOptions{}
	cmd := &cobra.Command{
		Use:   "prompt NAME [flags] [-- command args...]",
		Short: "Get a prompt with string arguments; prints the result exactly as the server sent it",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.name, o.command = args[0], args[1:]
			return runF(cmd.Context(), o, st)
		},
	}
	o.target.bind(cmd)
	o.frames.bind(cmd)
	cmd.Flags().StringVar(&o.args, "args", "{}", "prompt arguments as a JSON object of strings, @FILE, or -")
	return cmd
}

func runPrompt(ctx context.Context, o *promptOptions, st *streams) error {
	raw, err := readArgs(o.args, st.in)
	if err != nil {
		return err
	}
	var pargs map[string]string
	if err := json.Unmarshal(raw, &pargs); err != nil {
		return usageErr("--args: prompt arguments are strings: %v", err)
	}
	return withSession(ctx, st, &o.target, o.command, &o.frames, o.name, func(ctx context.Context, s *session.Session) error {
		ex, err := s.GetPrompt(ctx, o.name, pargs)
		if _, refused := err.(*session.RPCError); refused {
			if hint := suggestNames(ctx, s, o.name, s.ListPrompts, "name"); hint != "" {
				fmt.Fprintf(st.err, "jig: the server did not list a prompt %q%s\n", o.name, hint)
			}
		}
		return printExchange(st, ex, err)
	})
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
	pretty, _ := frames.Indent(ex.Result)
	writeRaw(st.out, pretty)
	return nil
}
