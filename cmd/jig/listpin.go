package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/replay"
)

// listPin is a list command's --pin: the listing as a scenario fixture whose
// steps are its pages, each request as sent (with its cursor) and each page
// as received, so jig mock serves them cursor by cursor, as the server
// paginated, and jig replay asks for each page again.
type listPin struct {
	file  string
	note  string
	force bool
	// example is the file name a --pin that names a directory is told to use.
	example string
}

func (p *listPin) bind(cmd *cobra.Command, example string) {
	p.example = example
	fl := cmd.Flags()
	fl.StringVar(&p.file, "pin", "", "save the listing, page by page as the server sent it, as a golden fixture in FILE (jig mock serves its pages cursor by cursor; replay it with 'jig replay')")
	fl.StringVar(&p.note, "note", "", "with --pin: what the fixture protects, for reviewers")
	fl.BoolVar(&p.force, "force", false, "with --pin: overwrite an existing fixture")
}

// check runs before connecting: a pin that cannot be saved should not cost a
// session.
func (p *listPin) check() error {
	switch {
	case p.file == "" && p.note != "":
		return usageErr("--note only applies with --pin FILE")
	case p.file == "" && p.force:
		return usageErr("--force only applies with --pin FILE")
	case p.file == "":
		return nil
	}
	if err := checkOutput("--pin", p.file, spaced("--pin"), p.example, false, false); err != nil {
		return err
	}
	if _, err := os.Stat(p.file); err == nil && !p.force {
		return usageErr("--pin %s: the fixture exists; pass --force to overwrite it, or pick another file", p.file)
	}
	return nil
}

// pin saves the pages of the last listing of method on s, the requests
// from frame index from on (a listing made again on list_changed keeps its
// last).
func (p *listPin) pin(ctx context.Context, st *streams, s *session.Session, target session.Target, from int, method string) error {
	exs := listPages(s.Log, from, method)
	if len(exs) == 0 {
		return fmt.Errorf("--pin: no %s request reached the server, so there is no page to pin", method)
	}
	red, err := runRedactor(st, nil)
	if err != nil {
		return err
	}
	f, err := replay.PinScenario(ctx, s, exs, replay.PinOptions{
		Scenario: strings.TrimSuffix(filepath.Base(p.file), filepath.Ext(p.file)),
		Note:     p.note,
		Target:   target,
		Probe:    0, // a listing is pinned as listed; rules are the reviewer's
		Redactor: red,
		Vars:     s.Vars(),
	})
	if err != nil {
		return err
	}
	replay.Describe(st.err, f)
	if len(exs) > 1 {
		fmt.Fprintf(st.err, "pages: %s of %s, each a step; jig mock serves them cursor by cursor\n", frames.Count(len(exs), "page"), method)
	} else {
		fmt.Fprintf(st.err, "pages: %s came in one page (the server did not paginate it)\n", method)
	}
	if _, err := os.Stat(p.file); err == nil && !p.force {
		return usageErr("--pin %s: the fixture appeared while listing; pass --force to overwrite it", p.file)
	}
	return (&pinFlags{file: p.file}).save(st, f, "pinned")
}

// listPages are the exchanges of the last listing of method in log from
// frame index from: its first page (a request without a cursor) and those
// after it.
func listPages(log *frames.Log, from int, method string) []*session.Exchange {
	var exs []*session.Exchange
	for i := from; i < log.Len(); i++ {
		f := log.Frame(i)
		if f.Dir != frames.ClientToServer || f.Kind != frames.KindRequest || f.Method != method {
			continue
		}
		if s, e, ok := frames.MemberSpan(f.Raw, "params", "cursor"); !ok || string(f.Raw[s:e]) == `""` {
			exs = exs[:0] // a listing starts (again)
		}
		ex := &session.Exchange{Request: f}
		if j := log.Partner(i); j >= 0 {
			r := log.Frame(j)
			ex.Response, ex.Latency = r, r.Time.Sub(f.Time)
			if s, e, ok := frames.MemberSpan(r.Raw, "result"); ok {
				ex.Result = r.Raw[s:e]
			}
			if s, e, ok := frames.MemberSpan(r.Raw, "error"); ok {
				ex.Error = r.Raw[s:e]
			}
		}
		exs = append(exs, ex)
	}
	return exs
}
