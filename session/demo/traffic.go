package demo

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// A TrafficCall is one tool call of generated traffic.
type TrafficCall struct {
	Tool string
	Args map[string]any
}

// Traffic generates the calls an agent fleet makes to the demo server: a
// seeded, skewed mix of realistic arguments, mostly search_orders (a few
// busy customers, since as a date or left out or mistyped, limits from 5 to
// 500), then lookups by id, reports, echoes of free text and a few
// cancellations. The same seed gives the same calls, so two seeds are two
// independent samples of the same traffic.
type Traffic struct {
	r *rand.Rand
}

// NewTraffic returns the generator for seed.
func NewTraffic(seed uint64) *Traffic {
	return &Traffic{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// weighted picks one of choices by weight.
func weighted[T any](r *rand.Rand, choices []T, weights []int) T {
	total := 0
	for _, w := range weights {
		total += w
	}
	n := r.IntN(total)
	for i, w := range weights {
		if n < w {
			return choices[i]
		}
		n -= w
	}
	return choices[len(choices)-1]
}

var (
	trafficCustomers = []string{"Acme Corp", "Globex", "Initech", "Hooli", "Umbrella Ltd", "acme", "Acme", "ACME Corp"}
	customerWeights  = []int{30, 20, 15, 12, 10, 8, 3, 2}
	trafficLimits    = []int{0, 5, 10, 20, 50, 100, 500}
	limitWeights     = []int{35, 10, 20, 15, 10, 6, 4}
	junkSince        = []string{"last month", "yesterday", "Q1", "recently"}
	echoWords        = strings.Fields("the order was delayed at the warehouse and the customer asked for a refund " +
		"shipping label printed twice please check the invoice total before friday the account manager " +
		"will call back tomorrow about the missing items in the last delivery")
)

// Next returns the next call.
func (t *Traffic) Next() TrafficCall {
	r := t.r
	switch n := r.IntN(100); {
	case n < 70:
		args := map[string]any{"customer": weighted(r, trafficCustomers, customerWeights)}
		switch s := r.IntN(100); {
		case s < 65:
			day := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, r.IntN(455))
			args["since"] = day.Format(time.DateOnly)
		case s < 75:
			args["since"] = junkSince[r.IntN(len(junkSince))]
		}
		if l := weighted(r, trafficLimits, limitWeights); l > 0 {
			args["limit"] = l
		}
		return TrafficCall{"search_orders", args}
	case n < 85:
		id := fmt.Sprintf("ord-%d", 1001+r.IntN(86))
		if r.IntN(20) == 0 {
			id = fmt.Sprintf("ord-%d", 2001+r.IntN(50))
		}
		return TrafficCall{"search_order", map[string]any{"order_id": id}}
	case n < 93:
		return TrafficCall{"get_report", map[string]any{}}
	case n < 98:
		words := make([]string, 4+r.IntN(12))
		for i := range words {
			words[i] = echoWords[r.IntN(len(echoWords))]
		}
		return TrafficCall{"echo", map[string]any{"text": strings.Join(words, " ")}}
	default:
		pending := []string{"ord-1054", "ord-1055", "ord-1057", "ord-1044", "ord-1046", "ord-1001"}
		return TrafficCall{"cancel_order", map[string]any{"order_id": pending[r.IntN(len(pending))], "reason": "customer request"}}
	}
}
