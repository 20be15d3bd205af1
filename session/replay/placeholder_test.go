package replay

import (
	"strings"
	"testing"

	"github.com/mcpjig/jig/session"
)

// Every place a target's URL or command can hold a placeholder is named,
// with how to give the value; a target without one passes.
func TestUnsentPlaceholderNamesThePart(t *testing.T) {
	for _, tc := range []struct {
		target      session.Target
		field, part string
	}{
		{session.Target{URL: "http://h/mcp?v=1&api_key=[REDACTED:secret-param]"}, "target.url", `its query parameter "api_key"`},
		{session.Target{URL: "http://u:[REDACTED]@h/mcp"}, "target.url", "its password"},
		{session.Target{URL: "https://h/mcp/[REDACTED:github-token]/x"}, "target.url", "its path"},
		{session.Target{URL: "https://[REDACTED:value]/mcp"}, "target.url", "its host"},
		{session.Target{Command: []string{"node", "s.js", "--token", "[REDACTED]"}}, "target.command", "its argument 3"},
		{session.Target{Command: []string{"[REDACTED:value]"}}, "target.command", "the command itself"},
		{session.Target{URL: "http://h/mcp?api_key=${API_KEY}", Command: []string{"node", "--token=${TOK}"}}, "", ""},
	} {
		field, msg := UnsentPlaceholder(tc.target)
		if field != tc.field || !strings.Contains(msg, tc.part) || (field != "" && !strings.Contains(msg, "never sends the placeholder")) {
			t.Errorf("%+v: %q %q, want %q naming %q", tc.target, field, msg, tc.field, tc.part)
		}
	}
}
