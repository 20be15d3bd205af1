package demo

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxDays caps revenue_by_day: the schema says so (maximum) and the
// description says what truncated means, so a model that asks for more
// learns it from the text it reads.
const maxDays = 31

// datePattern is what the date arguments of revenue_by_day must look like,
// besides "format": "date", which not every client or SDK asserts.
const datePattern = `^\d{4}-\d{2}-\d{2}$`

type revenueInput struct {
	From    string `json:"from"`
	To      string `json:"to,omitempty"`
	MaxDays int    `json:"max_days,omitempty"`
}

type dayTotal struct {
	Date    string  `json:"date"`
	Orders  int     `json:"orders"`
	Revenue float64 `json:"revenue"`
}

type revenueOutput struct {
	Days      []dayTotal `json:"days"`
	Truncated bool       `json:"truncated"`
}

// revenueByDayTool is the demo's clean tool: every fault jig lint looks for
// in search_orders is absent here on purpose, so it raises nothing. Dates
// have a format and a pattern, the cap is a maximum, the description says
// what truncated means and which orders count, and the annotations say it
// only reads.
func revenueByDayTool() *mcp.Tool {
	date := func(what string) *jsonschema.Schema {
		return &jsonschema.Schema{Type: "string", Format: "date", Pattern: datePattern,
			Description: what + ", as YYYY-MM-DD (UTC, inclusive)."}
	}
	return &mcp.Tool{
		Name:  "revenue_by_day",
		Title: "Revenue by day",
		Description: "Count the orders placed on each day of a date range, with that day's revenue from orders not cancelled, oldest day first. " +
			"Every customer's orders count. Days without orders are left out. " +
			fmt.Sprintf("At most max_days days come back (%d at most); truncated: true means the range has more days with orders: ask again from the day after the last one.", maxDays),
		InputSchema: object([]string{"from"},
			field{"from", date("First day of the range")},
			field{"to", date("Last day of the range; the newest order's day when left out")},
			field{"max_days", &jsonschema.Schema{
				Type: "integer", Minimum: new(1.0), Maximum: new(float64(maxDays)),
				Description: fmt.Sprintf("How many days with orders to return at most (1 to %d).", maxDays),
				Default:     []byte(fmt.Sprint(maxDays)),
			}},
		),
		OutputSchema: object([]string{"days", "truncated"},
			field{"days", &jsonschema.Schema{Type: "array", Items: object([]string{"date", "orders", "revenue"},
				field{"date", &jsonschema.Schema{Type: "string", Format: "date", Description: "The day, YYYY-MM-DD (UTC)."}},
				field{"orders", &jsonschema.Schema{Type: "integer", Description: "Orders placed that day."}},
				field{"revenue", &jsonschema.Schema{Type: "number", Description: "Their total, cancelled orders left out."}},
			)}},
			field{"truncated", &jsonschema.Schema{Type: "boolean", Description: "Whether more days with orders were in the range than were returned."}},
		),
		Annotations: readOnly(),
	}
}

// revenueByDay fails loudly on a date it cannot read, which is the
// difference from search_orders the demo exists to show.
func revenueByDay(_ context.Context, _ *mcp.CallToolRequest, in revenueInput) (*mcp.CallToolResult, any, error) {
	from, err := time.Parse(time.DateOnly, in.From)
	if err != nil {
		return nil, nil, fmt.Errorf("from %q is not a date: write it as YYYY-MM-DD, e.g. \"2026-01-01\"", in.From)
	}
	to := time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)
	if in.To != "" {
		if to, err = time.Parse(time.DateOnly, in.To); err != nil {
			return nil, nil, fmt.Errorf("to %q is not a date: write it as YYYY-MM-DD, e.g. \"2026-01-31\"", in.To)
		}
	}
	limit := in.MaxDays
	if limit == 0 {
		limit = maxDays
	}
	if limit < 1 || limit > maxDays {
		return nil, nil, fmt.Errorf("max_days %d is out of range: use 1 to %d", limit, maxDays)
	}
	out := revenueOutput{Days: []dayTotal{}}
	cents := map[string]int64{}
	for _, o := range orderBook { // in id order; days are sorted below
		day := o.placed().Format(time.DateOnly)
		if d, _ := time.Parse(time.DateOnly, day); d.Before(from) || d.After(to) {
			continue
		}
		i := dayIndex(out.Days, day)
		if i < 0 {
			out.Days = append(out.Days, dayTotal{Date: day})
			i = len(out.Days) - 1
		}
		out.Days[i].Orders++
		if o.status != "cancelled" {
			cents[day] += o.cents
		}
	}
	slices.SortFunc(out.Days, func(a, b dayTotal) int { return strings.Compare(a.Date, b.Date) })
	if len(out.Days) > limit {
		out.Days, out.Truncated = out.Days[:limit], true
	}
	for i := range out.Days {
		out.Days[i].Revenue = float64(cents[out.Days[i].Date]) / 100
	}
	return nil, out, nil
}

func dayIndex(days []dayTotal, day string) int {
	return slices.IndexFunc(days, func(d dayTotal) bool { return d.Date == day })
}
