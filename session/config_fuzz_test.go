package session

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzReadConfig: any config file (JSON, JSONC, garbage) is read or refused
// with an error naming it, never a panic; every server of a config that
// reads becomes a target or an error.
func FuzzReadConfig(f *testing.F) {
	for _, s := range []string{
		`{"mcpServers":{"a":{"command":"node","args":["s.js"],"env":{"K":"$V"}},"b":{"url":"http://127.0.0.1:1/mcp","type":"sse"}}}`,
		"// VS Code\n{\"servers\":{\"x\":{\"type\":\"stdio\",\"command\":\"${workspaceFolder}/run\",\"args\":[\"${input:token}\"]}},\"inputs\":[{\"id\":\"token\",\"type\":\"promptString\",\"password\":true}]}",
		`{"mcpServers":{"a":{}}}`, `{"mcpServers":[]}`, `[`, ``,
	} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "mcp.json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		cf, err := ReadConfig(path)
		if err != nil {
			return
		}
		for _, name := range cf.Names() {
			cf.Target(name)
		}
	})
}
