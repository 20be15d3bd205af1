package demo

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	defaultLimit = 10
	maxLimit     = 20
)

// addTools registers the six tools. The SDK lists tools sorted by name, so
// the order of these calls does not matter to clients.
func addTools(s *mcp.Server, release int, r *regressor) {
	if r != nil {
		s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
			return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
				if method == "tools/call" {
					r.call()
				}
				return next(ctx, method, req)
			}
		})
	}
	mcp.AddTool(s, searchOrdersTool(release), searchOrders(release, r))
	mcp.AddTool(s, searchOrderTool(), searchOrder(release))
	mcp.AddTool(s, cancelOrderTool(), cancelOrder(release))
	mcp.AddTool(s, reportTool(), report)
	mcp.AddTool(s, echoTool(), echo)
	mcp.AddTool(s, revenueByDayTool(), revenueByDay)
}

func readOnly() *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: new(false)}
}

type searchOrdersInput struct {
	Customer string `json:"customer"`
	Since    string `json:"since,omitempty"`
	Limit    int    `json:"limit,omitempty"`
}

// A searchOrdersOutput is the structured result of search_orders. Orders
// holds orderV1 or orderV2 values, depending on the release.
type searchOrdersOutput struct {
	Orders    []any `json:"orders"`
	Count     int   `json:"count"`
	Truncated bool  `json:"truncated"`
	// GeneratedAt is release 3's: when the answer was made.
	GeneratedAt string `json:"generated_at,omitempty"`
}

// orderV1 is how release 1 shows an order, and how every tool but
// release 2's search_orders still does.
type orderV1 struct {
	ID           string  `json:"id"`
	CustomerName string  `json:"customer_name"`
	Status       string  `json:"status"`
	Total        float64 `json:"total"`
	PlacedAt     string  `json:"placed_at"`
}

// orderV2 is how release 2's search_orders shows an order.
type orderV2 struct {
	ID       string  `json:"id"`
	Customer string  `json:"customer"`
	Status   string  `json:"status"`
	Total    float64 `json:"total"`
	PlacedAt string  `json:"placed_at"`
}

func viewV1(o order) orderV1 {
	return orderV1{ID: o.id, CustomerName: o.customer, Status: o.status, Total: o.total(), PlacedAt: o.placedAt}
}

func viewV2(o order) orderV2 {
	status := o.status
	if status == "shipped" {
		status = "dispatched"
	}
	return orderV2{ID: o.id, Customer: o.customer, Status: status, Total: o.total(), PlacedAt: o.placedAt}
}

func searchOrdersTool(release int) *mcp.Tool {
	since := &jsonschema.Schema{Type: "string"}
	description := "Find a customer's recent orders. Say which customer, and how far back to look with since."
	customerKey, statusEnum := "customer_name", []any{"pending", "shipped", "delivered", "cancelled"}
	if release == 2 {
		since = &jsonschema.Schema{
			Type:        "string",
			Format:      "date",
			Description: "Earliest order date to include, as YYYY-MM-DD (inclusive).",
		}
		description = "Find the orders one customer placed on or after a date, newest first. " +
			`customer must match the customer name exactly, case included (e.g. "Acme Corp"). ` +
			"since is a date in YYYY-MM-DD form. At most 20 orders are returned; truncated: true means more matched."
		customerKey, statusEnum = "customer", []any{"pending", "dispatched", "delivered", "cancelled"}
	}
	required := []string{"orders", "count", "truncated"}
	fields := []field{
		{"orders", &jsonschema.Schema{Type: "array", Items: orderSchema(customerKey, statusEnum)}},
		{"count", &jsonschema.Schema{Type: "integer", Description: "How many orders are in orders."}},
		{"truncated", &jsonschema.Schema{Type: "boolean", Description: "Whether more orders matched than were returned."}},
	}
	if release == 3 {
		required = append(required, "generated_at")
		fields = append(fields, field{"generated_at", &jsonschema.Schema{Type: "string", Format: "date-time", Description: "When this answer was made."}})
	}
	return &mcp.Tool{
		Name:        "search_orders",
		Title:       "Search orders",
		Description: description,
		InputSchema: object([]string{"customer"},
			field{"customer", &jsonschema.Schema{Type: "string", Description: "The customer's name."}},
			field{"since", since},
			field{"limit", &jsonschema.Schema{
				Type:        "integer",
				Description: "How many orders to return.",
				Default:     json.RawMessage(fmt.Sprint(defaultLimit)),
			}},
		),
		OutputSchema: object(required, fields...),
		Annotations:  readOnly(),
	}
}

// searchOrders carries the seed story's bugs on purpose; see the package doc.
func searchOrders(release int, r *regressor) mcp.ToolHandlerFor[searchOrdersInput, any] {
	return func(_ context.Context, _ *mcp.CallToolRequest, in searchOrdersInput) (*mcp.CallToolResult, any, error) {
		limit := in.Limit
		if limit < 1 {
			limit = defaultLimit
		}
		limit = min(limit, maxLimit)

		// An unparsable since becomes a lower bound that nothing is after,
		// like `placed_at >= NULL` in SQL: no rows and no error. This is the
		// bug the demo exists to show.
		after := func(time.Time) bool { return true }
		if in.Since != "" {
			bound, ok := parseSince(in.Since)
			after = func(t time.Time) bool { return ok && !t.Before(bound) }
		}
		matched := newestFirst(func(o order) bool {
			return o.customer == in.Customer && after(o.placed())
		})

		kept := matched[:min(limit, len(matched))]
		if r != nil {
			r.mu.Lock()
			wrong := r.calls > r.reg.After
			r.mu.Unlock()
			// Written out by hand, not through the SDK, which would refuse
			// to send the epoch numbers its outputSchema rules out: release
			// 3's server does not check what it sends.
			b, err := json.Marshal(r.release3(in.Customer, kept, len(matched) > limit, wrong, time.Now()))
			if err != nil {
				return nil, nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}, StructuredContent: json.RawMessage(b)}, nil, nil
		}
		out := searchOrdersOutput{Orders: []any{}, Truncated: len(matched) > limit}
		for _, o := range kept {
			if release == 2 {
				out.Orders = append(out.Orders, viewV2(o))
			} else {
				out.Orders = append(out.Orders, viewV1(o))
			}
		}
		out.Count = len(out.Orders)
		return nil, out, nil
	}
}

// parseSince accepts a date (YYYY-MM-DD, taken as midnight UTC) or an RFC 3339 time.
func parseSince(s string) (time.Time, bool) {
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, true
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, true
	}
	return time.Time{}, false
}

type orderIDInput struct {
	OrderID string `json:"order_id"`
}

func searchOrderTool() *mcp.Tool {
	return &mcp.Tool{
		Name:        "search_order",
		Title:       "Look up an order",
		Description: `Look up one order by its id, e.g. "ord-1042".`,
		InputSchema: object([]string{"order_id"},
			field{"order_id", &jsonschema.Schema{Type: "string", Description: `The order id, e.g. "ord-1042".`}},
		),
		OutputSchema: orderSchema("customer_name", []any{"pending", "shipped", "delivered", "cancelled"}),
		Annotations:  readOnly(),
	}
}

func searchOrder(release int) mcp.ToolHandlerFor[orderIDInput, any] {
	return func(_ context.Context, _ *mcp.CallToolRequest, in orderIDInput) (*mcp.CallToolResult, any, error) {
		o, ok := findOrder(in.OrderID)
		if !ok {
			return nil, nil, fmt.Errorf("no order with id %q (ids look like \"ord-1042\"; to search by customer, use search_orders)", in.OrderID)
		}
		out := viewV1(o)
		if release == 1 {
			// The SDK fills the text block with structuredContent's JSON.
			return nil, out, nil
		}
		// Release 2 pretty-prints the text block with sorted keys (a map
		// marshals that way): the cosmetic-only drift.
		text, err := sortedIndented(out)
		if err != nil {
			return nil, nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, out, nil
	}
}

func sortedIndented(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return "", err
	}
	b, err = json.MarshalIndent(m, "", "  ")
	return string(b), err
}

type cancelOrderInput struct {
	OrderID string `json:"order_id"`
	Reason  string `json:"reason,omitempty"`
}

type cancelOrderOutput struct {
	OrderID        string `json:"order_id"`
	PreviousStatus string `json:"previous_status"`
	Status         string `json:"status"`
	Reason         string `json:"reason,omitempty"`
	Note           string `json:"note"`
}

func cancelOrderTool() *mcp.Tool {
	return &mcp.Tool{
		Name:        "cancel_order",
		Title:       "Cancel an order",
		Description: "Cancel an order that has not been delivered. Cancelling an already cancelled order is not an error.",
		InputSchema: object([]string{"order_id"},
			field{"order_id", &jsonschema.Schema{Type: "string", Description: `The order id, e.g. "ord-1042".`}},
			field{"reason", &jsonschema.Schema{Type: "string", Description: "Why the order is cancelled."}},
		),
		OutputSchema: object([]string{"order_id", "previous_status", "status", "note"},
			field{"order_id", &jsonschema.Schema{Type: "string"}},
			field{"previous_status", &jsonschema.Schema{Type: "string", Enum: []any{"pending", "shipped", "cancelled"}}},
			field{"status", &jsonschema.Schema{Type: "string", Enum: []any{"cancelled"}}},
			field{"reason", &jsonschema.Schema{Type: "string"}},
			field{"note", &jsonschema.Schema{Type: "string"}},
		),
		Annotations: &mcp.ToolAnnotations{
			DestructiveHint: new(true),
			IdempotentHint:  true,
			ReadOnlyHint:    false,
			OpenWorldHint:   new(false),
		},
	}
}

// cancelOrder reports what cancelling would do without changing the order
// book, so that every session and every replay sees the same data.
//
// Release 2 asks the client why, when the call gives no reason and the
// client can be asked (it declares elicitation): an elicitation with one
// optional field, reason — an input_required round in the 2026-07-28 era,
// an elicitation/create request in the legacy one (the SDK turns the round
// into one). Whatever the answer, the order is cancelled; a reason given
// there is reported like one given in the call. That is release 2's flow
// drift: the same call, the same answer to a client that declines, and a
// request for input it never made before.
func cancelOrder(release int) mcp.ToolHandlerFor[cancelOrderInput, any] {
	return func(_ context.Context, req *mcp.CallToolRequest, in cancelOrderInput) (*mcp.CallToolResult, any, error) {
		o, ok := findOrder(in.OrderID)
		if !ok {
			return nil, nil, fmt.Errorf("no order with id %q to cancel", in.OrderID)
		}
		if o.status == "delivered" {
			return nil, nil, fmt.Errorf("order %s was delivered and cannot be cancelled", o.id)
		}
		if release == 2 && in.Reason == "" {
			answer, answered := req.Params.InputResponses[reasonRequest].(*mcp.ElicitResult)
			switch caps := req.ClientCapabilities(); {
			case answered:
				if r, ok := answer.Content["reason"].(string); ok && answer.Action == "accept" {
					in.Reason = r
				}
			case caps != nil && caps.Elicitation != nil:
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{reasonRequest: reasonElicitation(o.id)}, RequestState: "cancel " + o.id}, nil, nil
			}
		}
		return nil, cancelOrderOutput{
			OrderID:        o.id,
			PreviousStatus: o.status,
			Status:         "cancelled",
			Reason:         in.Reason,
			Note:           "demo server: nothing was changed; every session sees the original orders",
		}, nil
	}
}

// reasonRequest is the id of release 2's request for a cancellation reason.
const reasonRequest = "reason"

func reasonElicitation(id string) *mcp.ElicitParams {
	return &mcp.ElicitParams{
		Message: fmt.Sprintf("Why is order %s being cancelled? (optional)", id),
		RequestedSchema: &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{
			"reason": {Type: "string", Description: "Why the order is cancelled."},
		}},
	}
}

type reportOutput struct {
	RequestID   string         `json:"request_id"`
	GeneratedAt string         `json:"generated_at"`
	OrderCount  int            `json:"order_count"`
	ByStatus    map[string]int `json:"orders_by_status"`
	Revenue     float64        `json:"revenue"`
}

func reportTool() *mcp.Tool {
	var counts []field
	for _, st := range statuses {
		counts = append(counts, field{st, &jsonschema.Schema{Type: "integer"}})
	}
	byStatus := object(statuses, counts...)
	return &mcp.Tool{
		Name:        "get_report",
		Title:       "Order report",
		Description: "Summarize the order book: orders per status and revenue from orders not cancelled.",
		InputSchema: object(nil),
		OutputSchema: object([]string{"request_id", "generated_at", "order_count", "orders_by_status", "revenue"},
			field{"request_id", &jsonschema.Schema{Type: "string", Format: "uuid", Description: "Fresh on every call."}},
			field{"generated_at", &jsonschema.Schema{Type: "string", Format: "date-time", Description: "When the report was made."}},
			field{"order_count", &jsonschema.Schema{Type: "integer"}},
			field{"orders_by_status", byStatus},
			field{"revenue", &jsonschema.Schema{Type: "number"}},
		),
		Annotations: readOnly(),
	}
}

// report is the one handler whose output is not a function of its input:
// request_id and generated_at exist so that jig's normalization of volatile
// fields has something to normalize.
func report(_ context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
	out := reportOutput{
		RequestID:   uuid4(),
		GeneratedAt: time.Now().UTC().Format(time.RFC3339),
		OrderCount:  len(orderBook),
		ByStatus:    make(map[string]int),
	}
	for _, st := range statuses {
		out.ByStatus[st] = 0
	}
	var cents int64
	for _, o := range orderBook {
		out.ByStatus[o.status]++
		if o.status != "cancelled" {
			cents += o.cents
		}
	}
	out.Revenue = float64(cents) / 100
	return nil, out, nil
}

// uuid4 returns a random (version 4) UUID.
func uuid4() string {
	var b [16]byte
	rand.Read(b[:]) // never returns an error
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

type echoInput struct {
	Text string `json:"text"`
}

func echoTool() *mcp.Tool {
	return &mcp.Tool{
		Name:        "echo",
		Title:       "Echo",
		Description: "Return the given text unchanged.",
		InputSchema: object([]string{"text"},
			field{"text", &jsonschema.Schema{Type: "string", Description: "The text to return."}},
		),
		Annotations: readOnly(),
	}
}

func echo(_ context.Context, _ *mcp.CallToolRequest, in echoInput) (*mcp.CallToolResult, any, error) {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
}

// A field is one property of an object schema; fields keep the order in
// which a schema is written, so tools/list shows properties in that order.
type field struct {
	name   string
	schema *jsonschema.Schema
}

// object returns a closed object schema with the given properties.
func object(required []string, fields ...field) *jsonschema.Schema {
	s := &jsonschema.Schema{
		Type:                 "object",
		Properties:           make(map[string]*jsonschema.Schema),
		Required:             required,
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
	}
	for _, f := range fields {
		s.Properties[f.name] = f.schema
		s.PropertyOrder = append(s.PropertyOrder, f.name)
	}
	return s
}

func orderSchema(customerKey string, statusEnum []any) *jsonschema.Schema {
	return object([]string{"id", customerKey, "status", "total", "placed_at"},
		field{"id", &jsonschema.Schema{Type: "string"}},
		field{customerKey, &jsonschema.Schema{Type: "string"}},
		field{"status", &jsonschema.Schema{Type: "string", Enum: statusEnum}},
		field{"total", &jsonschema.Schema{Type: "number"}},
		field{"placed_at", &jsonschema.Schema{Type: "string", Format: "date-time"}},
	)
}
