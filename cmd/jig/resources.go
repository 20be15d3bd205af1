package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

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
	pin       listPin

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
	o.target.oneShot = true // it asks once and ends: no list_changed subscription
	o.frames.bind(cmd)
	cmd.Flags().BoolVar(&o.json, "json", false, "print the array exactly as the server sent it (all pages)")
	o.pin.bind(cmd, use+".json")
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
	if err := o.pin.check(); err != nil {
		return err
	}
	return withSession(ctx, st, &o.target, o.command, &o.frames, o.label, func(ctx context.Context, s *session.Session) error {
		mark := s.Log.Len()
		items, err := l.list(ctx, s)
		if err != nil {
			return err
		}
		if err := printList(st, s, l, items, o.json); err != nil || o.pin.file == "" {
			return err
		}
		opts, err := o.target.options(o.command)
		if err != nil {
			return err
		}
		return o.pin.pin(ctx, st, s, opts.Target, mark, l.method)
	})
}

// printList prints what a list command listed: each item's key and
// description, or with asJSON the array as the server sent it.
func printList(st *streams, s *session.Session, l *listing, items []json.RawMessage, asJSON bool) error {
	if asJSON {
		if items == nil {
			items = []json.RawMessage{}
		}
		return writeJSON(st.out, items)
	}
	printInfo(st.out, s.Info())
	fmt.Fprintln(st.out, frames.Count(len(items), strings.TrimSuffix(l.noun, "s")))
	for _, it := range items {
		fmt.Fprintln(st.out, "  "+listLine(it, l.key))
	}
	printCacheHint(st.out, s, l.method)
	return nil
}

// readOptions are jig read's.
type readOptions struct {
	target  targetFlags
	frames  framesFlag
	uri     string
	command []string // the server's command after --
	// subscribe keeps the session open after the read and reads again on
	// each notifications/resources/updated, for watchFor (0: until
	// interrupted) or until updates have come.
	subscribe bool
	watchFor  time.Duration
	updates   int
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
	return strings.Join(parts, "  ") + promptArguments(item)
}

// promptArguments are a prompt's arguments, one line each under it (required
// ones starred, as tools' are), so a user sees what jig prompt --args needs;
// "" for anything without any.
func promptArguments(item json.RawMessage) string {
	var p struct {
		Arguments []struct {
			Name        string `json:"name"`
			Description string `json:"description"`
			Required    bool   `json:"required"`
		} `json:"arguments"`
	}
	if json.Unmarshal(item, &p) != nil {
		return ""
	}
	var b strings.Builder
	for _, a := range p.Arguments {
		name := a.Name
		if a.Required {
			name += "*"
		}
		b.WriteString("\n    " + name)
		if d := strings.SplitN(strings.TrimSpace(a.Description), "\n", 2)[0]; d != "" {
			b.WriteString("  — " + d)
		}
	}
	return b.String()
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
	fl := cmd.Flags()
	fl.BoolVar(&o.subscribe, "subscribe", false, "subscribe after reading, and read again on each notifications/resources/updated")
	fl.DurationVar(&o.watchFor, "for", 0, "with --subscribe: stop after this long (default: until ctrl+c)")
	fl.IntVar(&o.updates, "updates", 0, "with --subscribe: stop after this many updates")
	return cmd
}

func runRead(ctx context.Context, o *readOptions, st *streams) error {
	if (o.watchFor != 0 || o.updates != 0) && !o.subscribe {
		return usageErr("--for and --updates go with --subscribe")
	}
	if o.watchFor < 0 || o.updates < 0 {
		return usageErr("--for and --updates must be positive")
	}
	o.target.oneShot = !o.subscribe // a read asks once; a watch stays
	return withSession(ctx, st, &o.target, o.command, &o.frames, o.uri, func(ctx context.Context, s *session.Session) error {
		ex, err := s.ReadResource(ctx, o.uri)
		if _, refused := err.(*session.RPCError); refused {
			if hint := suggestNames(ctx, s, o.uri, s.ListResources, "uri"); hint != "" {
				fmt.Fprintf(st.err, "jig: the server did not list a resource %q%s\n", o.uri, hint)
			}
		}
		if err := printExchange(st, ex, err); err != nil || !o.subscribe {
			return err
		}
		return o.watch(ctx, st, s)
	})
}

// watch subscribes to the resource and reads it again on each update,
// until --for, --updates or an interrupt; then it unsubscribes.
func (o *readOptions) watch(ctx context.Context, st *streams, s *session.Session) error {
	if ok, why := s.CanSubscribe(); !ok {
		fmt.Fprintf(st.err, "jig: warning: %s; subscribing anyway\n", why)
	}
	updated := make(chan string, 64)
	s.WatchResources(func(uri string) {
		select {
		case updated <- uri:
		default: // a reader this far behind reads the newest state anyway
		}
	})
	if p, ok := ctx.(interface{ Wait(bool) }); ok {
		p.Wait(true) // the watch outlives --timeout, which bounds each request
	}
	if _, err := s.Subscribe(o.requestCtx(ctx), o.uri); err != nil {
		return err
	}
	start := time.Now()
	fmt.Fprintf(st.err, "jig: subscribed to %s; reading it again on each update (ctrl+c stops)\n", o.uri)
	var stop <-chan time.Time
	if o.watchFor > 0 {
		stop = time.After(o.watchFor)
	}
	for n := 0; o.updates == 0 || n < o.updates; {
		select {
		case uri := <-updated:
			fmt.Fprintf(st.err, "jig: notifications/resources/updated %s (after %s)\n", uri, time.Since(start).Round(time.Millisecond))
			if uri != o.uri {
				continue
			}
			n++
			ex, err := s.ReadResource(o.requestCtx(ctx), o.uri)
			if err := printExchange(st, ex, err); err != nil {
				return err
			}
		case <-stop:
			return o.unsubscribe(s)
		case <-ctx.Done():
			o.unsubscribe(s)
			return ctx.Err()
		}
	}
	return o.unsubscribe(s)
}

// requestCtx bounds one request of the watch by --timeout.
func (o *readOptions) requestCtx(ctx context.Context) context.Context {
	c, cancel := context.WithTimeout(ctx, o.target.timeout)
	context.AfterFunc(c, cancel)
	return c
}

func (o *readOptions) unsubscribe(s *session.Session) error {
	ctx, cancel := context.WithTimeout(context.Background(), o.target.timeout)
	defer cancel()
	_, err := s.Unsubscribe(ctx, o.uri)
	return err
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
	o.target.oneShot = true // it asks once and ends: no list_changed subscription
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
// with exit code 1, said on stderr to be the server's error (stdout alone
// reads like a result).
func printExchange(st *streams, ex *session.Exchange, err error) error {
	if rpc, ok := err.(*session.RPCError); ok {
		if rpc.Raw != nil {
			writeRaw(st.out, rpc.Raw)
		} else {
			fmt.Fprintln(st.out, rpc.Error())
		}
		fmt.Fprintf(st.err, "jig: the server answered with an error, not a result: %v\n", rpc)
		return &exitError{code: exitServerError}
	}
	if err != nil {
		return err
	}
	pretty, _ := frames.Indent(ex.Result)
	writeRaw(st.out, pretty)
	return nil
}
