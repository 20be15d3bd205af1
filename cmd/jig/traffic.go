package main

import (
	"context"
	"encoding/json"
	"fmt"

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

  jig traffic --release 1 --seed 1 --calls 1500 --record base.jsonl
  jig traffic --release 3 --seed 2 --calls 1500 --record current.jsonl
  jig drift --baseline base.jsonl --current current.jsonl

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
	return withSession(ctx, st, &o.target, o.command, &framesFlag{}, "traffic", func(ctx context.Context, s *session.Session) error {
		if _, _, err := s.ListTools(ctx); err != nil {
			return err
		}
		tr := demo.NewTraffic(o.seed)
		failed := 0
		for i := 0; i < o.calls; i++ {
			c := tr.Next()
			args, _ := json.Marshal(c.Args)
			if _, err := s.CallTool(ctx, c.Tool, args); err != nil {
				if ctx.Err() != nil {
					return err
				}
				failed++ // a JSON-RPC error is traffic too: it is recorded
			}
		}
		where := "not recorded"
		if o.target.recorded != "" {
			where = "recorded to " + o.target.recorded
		}
		fmt.Fprintf(st.err, "jig traffic: %d calls (seed %d, %d answered with a JSON-RPC error) to %s, %s\n",
			o.calls, o.seed, failed, s.Info().ServerName+" "+s.Info().ServerVersion, where)
		return nil
	})
}
