// Package demo is jig's embedded demo MCP server: a small, deterministic
// order book served with the official Go SDK, so that every jig feature can be
// tried (and tested) without installing a third-party server.
//
// The server reproduces the order-search bug from jig's seed story. An agent
// called search_orders with {"customer": "Acme Corp", "since": "last month"}
// and got zero orders and no error, then widened every argument at once
// ({"customer": "acme", "since": "2026-01-01", "limit": 500}) and got twenty
// orders of another account with truncated: true. Both calls come out that
// way here, and release 1 has all three faults behind that transcript:
//
//   - since is a bare string in the input schema, and the handler treats a
//     value it cannot parse as a lower bound that matches nothing, so
//     "last month" returns zero orders without an error;
//   - customer matching is exact and case-sensitive, and the description
//     does not say so: "Acme Corp" finds 28 orders, and "acme" finds 26 of
//     a different account (a reseller of that name), "Acme" none;
//   - limit is capped at 20, and only the truncated flag says so.
//
// search_order (singular, by id) is a deliberately confusable neighbour,
// cancel_order is the destructive tool, get_report returns volatile fields
// (a fresh request_id and generated_at on every call) and echo is for scripts.
// revenue_by_day is the clean tool: dates with a format and a pattern, a cap
// that is a maximum, a description that says what truncated means, so jig
// lint finds nothing in it.
//
// Release 2 is a "new release" of the same server that drifts from release 1
// in the ways a golden-fixture diff must tell apart; [Release2Changes] lists
// them. Nothing in either release is random except get_report's volatile
// fields, and no call changes what a later call or session sees.
//
// Release 3 is release 1 in production, going silently wrong: every result
// of search_orders carries a generated_at stamp, and after a deterministic
// number of tool calls ([Regressions]) it starts returning HTTP-200-and-
// parseable answers that are wrong in the seed article's three ways —
// truncated lists with truncated false, placed_at as epoch numbers for
// some orders, and one customer's results from a stale cache. Release 3 is
// the one release whose answers depend on the calls before them.
package demo

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Name is the server name both releases report in their server info.
const Name = "jig-demo"

// instructions is the same in both releases, so that it never shows up as drift.
const instructions = "jig-demo is jig's built-in demo server: a fixed book of 86 orders " +
	"to search, look up and (pretend to) cancel, with the order-search bug from jig's walkthrough left in on purpose."

// A ChangeKind says how a golden-fixture diff should treat a [Change].
type ChangeKind string

const (
	// Semantic changes alter data a client reads: a diff must report them.
	Semantic ChangeKind = "semantic"
	// Cosmetic changes alter only the serialization (key order, whitespace)
	// of JSON carried in a text block: a diff that parses that JSON must
	// ignore them.
	Cosmetic ChangeKind = "cosmetic"
	// Definition changes alter what tools/list returns for a tool.
	Definition ChangeKind = "definition"
	// Flow changes alter what a call asks of its client while it is open
	// (elicitation, sampling, input_required rounds), not its answer.
	Flow ChangeKind = "flow"
)

// A Change is one difference between release 1 and release 2 of the demo server.
type Change struct {
	Kind  ChangeKind
	Where string // the method and tool affected, e.g. "tools/call search_orders"
	What  string
}

func (c Change) String() string { return fmt.Sprintf("%s: %s: %s", c.Kind, c.Where, c.What) }

// Release2Changes lists every way release 2 differs from release 1, apart from
// the server version ("1.0.0" becomes "2.0.0"). Under the 2026-07-28 protocol
// the SDK copies the server info into the _meta of every result, so that
// version change shows up in every response, not only in server/discover.
//
// Only search_orders was rewritten for release 2: search_order, cancel_order
// and get_report still report the status "shipped" and the field customer_name.
// cancel_order answers as before, and asks its client for a reason first.
var Release2Changes = []Change{
	{Semantic, "tools/call search_orders", `each order's "customer_name" field is renamed "customer"`},
	{Semantic, "tools/call search_orders", `the order status "shipped" is reported as "dispatched"`},
	{Cosmetic, "tools/call search_order", "the JSON in the text block is indented and its keys are sorted; the values and structuredContent are unchanged"},
	{Definition, "tools/list search_orders", "the description now states the exact-match, date-format and 20-order rules"},
	{Definition, "tools/list search_orders", `inputSchema: since gains "format": "date" and a description (the SDK does not assert formats, so "last month" is still accepted)`},
	{Definition, "tools/list search_orders", `outputSchema: orders[].customer_name becomes orders[].customer, and the status enum has "dispatched" in place of "shipped"`},
	{Flow, "tools/call cancel_order", "without a reason, it asks the client for one (an elicitation with an optional reason field; an input_required round in the 2026-07-28 era) when the client declares elicitation; the answer to a client that declines is unchanged"},
}

// New returns the demo server for the given release (1, 2 or 3; release 3
// with DefaultRegressions).
//
// The server speaks every protocol version the SDK does: a client may open
// with server/discover (2026-07-28) or with the initialize handshake
// (2025-11-25 and older), and the SDK answers whichever it receives.
func New(release int) (*mcp.Server, error) {
	return NewWith(release, DefaultRegressions)
}

// NewWith returns the demo server for the given release; reg sets when and
// how release 3 goes wrong and is ignored by the others.
func NewWith(release int, reg Regressions) (*mcp.Server, error) {
	var version string
	switch release {
	case 1:
		version = "1.0.0"
	case 2:
		version = "2.0.0"
	case 3:
		version = "3.0.0"
	default:
		return nil, fmt.Errorf("demo: no release %d of the demo server (valid releases: 1, 2, 3)", release)
	}
	s := mcp.NewServer(&mcp.Implementation{Name: Name, Version: version}, &mcp.ServerOptions{
		Instructions: instructions,
		// The demo never sends log messages, so it does not claim the
		// logging capability the SDK would otherwise advertise by default.
		Capabilities: &mcp.ServerCapabilities{},
	})
	addTools(s, release, newRegressor(release, reg))
	addResources(s)
	addPrompts(s)
	return s, nil
}

// ServeStdio runs the demo server for the given release over stdin/stdout
// until the client goes away (stdin closes) or ctx is cancelled.
//
// Like any go-sdk server, it stops at end of input without finishing requests
// still in flight: a client that writes a request and closes stdin at once
// (printf ... | jig-demo) usually gets no answer. Close stdin only after the
// last response has arrived.
func ServeStdio(ctx context.Context, release int) error {
	s, err := New(release)
	if err != nil {
		return err
	}
	return s.Run(ctx, &mcp.StdioTransport{})
}

// ServeStdioWith is ServeStdio with release 3's regressions set by reg.
func ServeStdioWith(ctx context.Context, release int, reg Regressions) error {
	s, err := NewWith(release, reg)
	if err != nil {
		return err
	}
	return s.Run(ctx, &mcp.StdioTransport{})
}
