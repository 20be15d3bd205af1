package session

import "testing"

// Mcp-Name is the name a request is about, Base64-wrapped when it is not
// plain visible ASCII (SEP-2243); methods that name nothing have none.
func TestMcpName(t *testing.T) {
	for _, c := range []struct {
		method, raw, want string
		ok                bool
	}{
		{"tools/call", `{"params":{"name":"greet (with Icons)"}}`, "greet (with Icons)", true},
		{"prompts/get", `{"params":{"name":"greet"}}`, "greet", true},
		{"resources/read", `{"params":{"uri":"embedded:info"}}`, "embedded:info", true},
		{"tools/call", `{"params":{"name":"café"}}`, "=?base64?Y2Fmw6k=?=", true},
		{"tools/call", `{"params":{"name":" lead"}}`, "=?base64?IGxlYWQ=?=", true},
		{"tools/call", `{"params":{"name":"=?base64?x?="}}`, "=?base64?PT9iYXNlNjQ/eD89?=", true},
		{"tools/list", `{"params":{"name":"x"}}`, "", false},
		{"tools/call", `{"params":{}}`, "", false},
	} {
		got, ok := mcpName(c.method, []byte(c.raw))
		if got != c.want || ok != c.ok {
			t.Errorf("mcpName(%s, %s) = %q, %v; want %q, %v", c.method, c.raw, got, ok, c.want, c.ok)
		}
	}
}
