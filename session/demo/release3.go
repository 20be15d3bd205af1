package demo

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Regressions are how release 3 goes wrong, all of it deterministic: after
// After tool calls (of any tool, counted from the server's start), every
// search_orders result
//
//   - keeps only the first (1 − Truncate) of its orders (rounded up), with
//     count matching and truncated false: a silent truncation;
//   - gives placed_at as Unix seconds (a JSON number) for every order whose
//     id number is a multiple of EpochEvery: an ISO-8601 → epoch switch;
//   - for the customer StaleCustomer, is the first such result served again
//     byte for byte whatever the arguments, generated_at StaleBy old: a
//     stale cache.
//
// A zero field turns its regression off.
type Regressions struct {
	After         int
	Truncate      float64
	EpochEvery    int
	StaleCustomer string
	StaleBy       time.Duration
}

// DefaultRegressions are release 3's: wrong from the 31st tool call on.
var DefaultRegressions = Regressions{After: 30, Truncate: 0.5, EpochEvery: 3, StaleCustomer: "Globex", StaleBy: 48 * time.Hour}

// Release3Changes lists how release 3 differs from release 1.
var Release3Changes = []Change{
	{Definition, "tools/list search_orders", `outputSchema gains generated_at (date-time), which every result carries`},
	{Semantic, "tools/call search_orders", "after DefaultRegressions.After tool calls: half of each list's orders dropped, count matching, truncated false"},
	{Semantic, "tools/call search_orders", "after DefaultRegressions.After tool calls: placed_at is an epoch number (Unix seconds) for orders whose id number is a multiple of 3"},
	{Semantic, "tools/call search_orders", `after DefaultRegressions.After tool calls: "Globex" gets the same cached bytes whatever its arguments, generated_at 48h old`},
}

// A regressor counts a release 3 server's tool calls and holds its stale
// cache. For releases 1 and 2 it is nil and does nothing.
type regressor struct {
	reg   Regressions
	mu    sync.Mutex
	calls int
	stale *searchOrdersOutput // the cached answer for StaleCustomer
}

func newRegressor(release int, reg Regressions) *regressor {
	if release != 3 {
		return nil
	}
	return &regressor{reg: reg}
}

// call counts one tool call and reports whether release 3 has gone wrong.
func (r *regressor) call() bool {
	if r == nil {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	return r.calls > r.reg.After
}

// orderV3 is an order as release 3 gives it: placed_at may be a number.
type orderV3 struct {
	ID           string  `json:"id"`
	CustomerName string  `json:"customer_name"`
	Status       string  `json:"status"`
	Total        float64 `json:"total"`
	PlacedAt     any     `json:"placed_at"`
}

// release3 is release 3's search_orders answer for orders matched and
// kept within the limit, gone wrong when wrong says so.
func (r *regressor) release3(customer string, kept []order, truncated, wrong bool, now time.Time) searchOrdersOutput {
	if wrong && r.reg.StaleCustomer != "" && customer == r.reg.StaleCustomer {
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.stale == nil {
			out := r.fresh(kept, truncated, true, now.Add(-r.reg.StaleBy))
			r.stale = &out
		}
		return *r.stale
	}
	return r.fresh(kept, truncated, wrong, now)
}

func (r *regressor) fresh(kept []order, truncated, wrong bool, at time.Time) searchOrdersOutput {
	if wrong && r.reg.Truncate > 0 && len(kept) > 0 {
		n := int(math.Ceil(float64(len(kept)) * (1 - r.reg.Truncate)))
		kept, truncated = kept[:max(0, min(n, len(kept)))], false
	}
	out := searchOrdersOutput{Orders: []any{}, Truncated: truncated, GeneratedAt: at.UTC().Format("2006-01-02T15:04:05.000Z07:00")}
	for _, o := range kept {
		v := orderV3{ID: o.id, CustomerName: o.customer, Status: o.status, Total: o.total(), PlacedAt: o.placedAt}
		if wrong && r.reg.EpochEvery > 0 && idNumber(o.id)%r.reg.EpochEvery == 0 {
			v.PlacedAt = json.Number(strconv.FormatInt(o.placed().Unix(), 10))
		}
		out.Orders = append(out.Orders, v)
	}
	out.Count = len(out.Orders)
	return out
}

func idNumber(id string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(id, "ord-"))
	return n
}
