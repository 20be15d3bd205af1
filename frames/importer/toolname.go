package importer

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// A ToolMatch says which of a server's tools a transcript's tool name
// means, and how jig got there.
type ToolMatch struct {
	// Written is the name as the transcript has it.
	Written string
	// Name is the server's tool, or "" when none matches.
	Name string
	// How says what was stripped ("prefix mcp__orders__ stripped"), why
	// nothing matched, or "" for an exact match.
	How string
}

// OK reports whether a server tool matched.
func (m ToolMatch) OK() bool { return m.Name != "" }

// serverPrefix matches what clients put before a tool's name when they
// offer many servers' tools to one model: Claude Code writes
// mcp__server__tool, VS Code and Cursor mcp_server_tool, others
// server__tool, server.tool, server/tool or server:tool (and OpenAI's
// functions.tool). The server is one segment, so that in
// mcp__orders__serch_orders no tool "orders" is found behind a typo.
var serverPrefix = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(mcp__[^_].*__|mcp_[^_]+_|[A-Za-z0-9-]+(__|\.|/|:))$`)
})

// MatchTool maps a tool name from a transcript to one of the server's tools:
// the exact name first, else the longest server tool the written name ends
// with behind a server prefix (so mcp__orders__search_orders is
// search_orders and not orders). A name that matches nothing is reported
// with the closest server tool, never dropped: a model that called a tool
// the server does not list is evidence too.
func MatchTool(written string, tools []string) ToolMatch {
	m := ToolMatch{Written: written}
	for _, t := range tools {
		if t == written {
			m.Name = t
			return m
		}
	}
	best := ""
	for _, t := range tools {
		if len(t) > len(best) && strings.HasSuffix(written, t) && serverPrefix().MatchString(strings.TrimSuffix(written, t)) {
			best = t
		}
	}
	if best != "" {
		m.Name = best
		m.How = fmt.Sprintf("prefix %q stripped", strings.TrimSuffix(written, best))
		return m
	}
	m.How = "the server lists no such tool"
	if c := closest(written, tools); c != "" {
		m.How += fmt.Sprintf(" (closest: %s)", c)
	}
	return m
}

// closest is the server tool nearest to name by edit distance, compared
// after any server prefix, when it is near enough to be a likely typo or
// rename; "" otherwise.
func closest(name string, tools []string) string {
	_, bare := splitMCPName(name)
	best, bestD := "", 1<<30
	sorted := append([]string(nil), tools...)
	sort.Strings(sorted)
	for _, t := range sorted {
		d := distance(strings.ToLower(bare), strings.ToLower(t))
		if d < bestD {
			best, bestD = t, d
		}
	}
	if best == "" || bestD > max(2, len(best)/3) {
		return ""
	}
	return best
}

// distance is the Levenshtein distance between a and b.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
