package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/demo"
)

// trafficOptions are jig traffic's.
type trafficOptions struct {
	target  targetFlags
	calls   int
	seed    uint64
	command []string
}

const trafficLong = `jig traffic drives the demo server with seeded, realistic traffic and
records it: mostly search_orders with a skewed mix of customers, dates
(some mistyped) and limits, then lookups by id, reports, echoes and a few
cancellations. The same seed gives the same calls; two seeds are two
independent samples of the same traffic. It is how to try jig stats,
jig drift and jig check without a production server:

  jig traffic --seed 1 --calls 1500 --record base.jsonl -- jig serve-demo --release 3 --regress-after 100000
  jig traffic --release 3 --seed 2 --calls 1500 --record current.jsonl
  jig drift --baseline base.jsonl --current current.jsonl

(release 3's search_orders has a generated_at release 1's lacks: the
baseline is release 3 before it regresses, so only the regression drifts)

Release 3 goes silently wrong after 30 calls (see jig serve-demo --help).
Any server that has the demo's tools can be driven the same way (--url,
--config or a command after --).`

func newTrafficCmd(st *streams, runF runFunc[trafficOptions]) *cobra.Command {
	o := &trafficOptions{}
	cmd := &cobra.Command{
		Use:   "traffic [--release N] [--seed S] [--calls N] [--record FILE]",
		Short: "Drive the demo server with seeded, realistic traffic and record it",
		Long:  trafficLong,
		Example: `  jig traffic --release 3 --seed 7 --calls 500 --record current.jsonl
  jig traffic --seed 7 -- jig serve-demo --release 3 --regress-after 100`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.command = args
			o.target.demo = o.target.demo || o.target.url == "" && o.target.config == "" && len(args) == 0
			return runF(cmd.Context(), o, st)
		},
	}
	o.target.bind(cmd)
	cmd.Flags().IntVar(&o.calls, "calls", 500, "how many tool calls to make")
	cmd.Flags().Uint64Var(&o.seed, "seed", 1, "the seed of the traffic: the same seed makes the same calls")
	return cmd
}

func runTraffic(ctx context.Context, o *trafficOptions, st *streams) error {
	if o.calls < 1 {
		return usageErr("--calls %d: give a number of calls, 1 or more", o.calls)
	}
	base := ctx
	return withSession(ctx, st, &o.target, o.command, &framesFlag{}, "traffic", func(_ context.Context, s *session.Session) error {
		// --timeout bounds the connection, then each request on its own
		// clock (as jig call's): a thousand calls are not given 30 s in all.
		lctx, lcancel := session.WithTimeout(base, o.target.timeout)
		_, tools, err := s.ListTools(lctx)
		lcancel()
		if err != nil {
			return err
		}
		if err := checkTrafficTools(st, s, tools); err != nil {
			return err
		}
		tr := demo.NewTraffic(o.seed)
		failed, isError := 0, 0
		for i := 0; i < o.calls; i++ {
			c := tr.Next()
			args, _ := json.Marshal(c.Args)
			cctx, cancel := session.WithTimeout(base, o.target.timeout)
			x, err := s.CallTool(cctx, c.Tool, args)
			cancel()
			switch {
			case err != nil && (cctx.Err() != nil || base.Err() != nil):
				return err
			case err != nil:
				failed++ // a JSON-RPC error is traffic too: it is recorded
			case x != nil && resultIsError(x.Result):
				isError++
			}
		}
		where := "not recorded"
		if o.target.recorded != "" {
			where = "recorded to " + o.target.recorded
		}
		fmt.Fprintf(st.err, "jig traffic: %d calls (seed %d, %d answered with a JSON-RPC error, %d with isError) to %s, %s\n",
			o.calls, o.seed, failed, isError, s.Info().ServerName+" "+s.Info().ServerVersion, where)
		if failed+isError == o.calls {
			fmt.Fprintln(st.err, "jig traffic: every call was answered with an error: the recording holds no answer to use as a baseline (is this the demo server, or one with its tools?)")
			return exitWith(exitServerError)
		}
		return nil
	})
}

// trafficTools are the demo's tools that jig traffic calls.
var trafficTools = []string{"search_orders", "search_order", "get_report", "echo", "cancel_order"}

// checkTrafficTools refuses a server that lists none of the tools the
// traffic calls (every call would be "tool not found", recorded as if it
// were a baseline), and says which are missing when some are.
func checkTrafficTools(st *streams, s *session.Session, tools []*mcp.Tool) error {
	listed := make([]string, 0, len(tools))
	for _, t := range tools {
		listed = append(listed, t.Name)
	}
	var missing []string
	for _, t := range trafficTools {
		if !slices.Contains(listed, t) {
			missing = append(missing, t)
		}
	}
	server := strings.TrimSpace(s.Info().ServerName + " " + s.Info().ServerVersion)
	switch {
	case len(missing) == len(trafficTools):
		shown := listed
		if len(shown) > 8 {
			shown = append(shown[:8:8], "…")
		}
		return usageErr("%s lists none of the tools jig traffic calls (%s); it lists %s: jig traffic drives the demo server (jig traffic --demo) or a server with its tools; nothing was called",
			server, strings.Join(trafficTools, ", "), cmp.Or(strings.Join(shown, ", "), "no tools"))
	case len(missing) > 0:
		fmt.Fprintf(st.err, "jig traffic: %s does not list %s: those calls are answered as it answers a tool it does not have\n", server, strings.Join(missing, ", "))
	}
	return nil
}

// resultIsError reports whether a tools/call result says isError: true.
func resultIsError(result json.RawMessage) bool {
	var r struct {
		IsError bool `json:"isError"`
	}
	return json.Unmarshal(result, &r) == nil && r.IsError
}
