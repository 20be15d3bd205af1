package demo

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// readmeURI names the demo's one resource.
const readmeURI = "demo://readme"

const readme = `jig-demo: a fixed book of 86 orders placed between 2025-02-26 and 2026-03-28
by Acme Corp, Globex, Initech, Umbrella Ltd, Hooli and acme (a reseller, another account).

Tools:
  search_orders  orders of one customer (exact, case-sensitive name) since a date; at most 20
  search_order   one order by id, e.g. ord-1042
  cancel_order   reports what cancelling would do; nothing is changed
  get_report     orders per status and revenue, with a fresh request_id and generated_at
  echo           returns its text
  revenue_by_day orders and revenue per day of a date range (YYYY-MM-DD); at most 31 days

The two calls of jig's walkthrough transcript:
  search_orders {"customer": "Acme Corp", "since": "last month"}
  search_orders {"customer": "acme", "since": "2026-01-01", "limit": 500}
Then one argument at a time from the first (jig attribute makes every such step):
  search_orders {"customer": "Acme Corp", "since": "2026-01-01"}
  search_orders {"customer": "Acme Corp", "since": "2026-01-01", "limit": 500}
`

func addResources(s *mcp.Server) {
	s.AddResource(&mcp.Resource{
		URI:         readmeURI,
		Name:        "readme",
		Title:       "About the demo server",
		Description: "What the demo's data and tools are, and calls to try.",
		MIMEType:    "text/plain",
	}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
			{URI: readmeURI, MIMEType: "text/plain", Text: readme},
		}}, nil
	})
}

func addPrompts(s *mcp.Server) {
	s.AddPrompt(&mcp.Prompt{
		Name:        "triage_report",
		Title:       "Triage an order-search report",
		Description: "Turn a user's report about missing orders into direct calls to make, one argument at a time.",
		Arguments: []*mcp.PromptArgument{
			{Name: "customer", Description: `The customer as the user named them, e.g. "Acme Corp".`, Required: true},
			{Name: "symptom", Description: `What the user saw, e.g. "no orders from last month".`},
		},
	}, triageReport)
}

func triageReport(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	customer := req.Params.Arguments["customer"]
	if customer == "" {
		// The SDK does not check required prompt arguments itself.
		return nil, &jsonrpc.Error{
			Code:    jsonrpc.CodeInvalidParams,
			Message: `prompt "triage_report": argument "customer" is required`,
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "A user reports that order search is unreliable for the customer %q.", customer)
	if symptom := req.Params.Arguments["symptom"]; symptom != "" {
		fmt.Fprintf(&b, " They saw: %s.", symptom)
	}
	b.WriteString(" Reproduce it with direct calls to search_orders, changing one argument at a time: " +
		"check that customer matches a name exactly, that since is a YYYY-MM-DD date, " +
		"and whether the result says truncated: true.")
	return &mcp.GetPromptResult{
		Description: "Triage an order-search report for " + customer,
		Messages: []*mcp.PromptMessage{
			{Role: "user", Content: &mcp.TextContent{Text: b.String()}},
		},
	}, nil
}
