package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependenciesGoOneWay enforces cmd → ui → session → frames: frames is
// plain evidence (no MCP client, no Bubble Tea), session never draws, ui
// never builds transports or reaches back into cmd.
func TestDependenciesGoOneWay(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "github.com/mcpjig/jig/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	const mod = "github.com/mcpjig/jig/"
	forbidden := map[string][]string{
		mod + "frames":  {mod + "session", mod + "ui", mod + "cmd", "charm.land/", "github.com/modelcontextprotocol/go-sdk/mcp"},
		mod + "session": {mod + "ui", mod + "cmd", "charm.land/"},
		mod + "ui":      {mod + "cmd"},
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg, imports := fields[0], fields[1:]
		for layer, bans := range forbidden {
			if pkg != layer && !strings.HasPrefix(pkg, layer+"/") {
				continue
			}
			for _, imp := range imports {
				for _, ban := range bans {
					if imp == ban || strings.HasPrefix(imp, ban) {
						t.Errorf("%s imports %s: dependencies must go cmd → ui → session → frames (move the code to the lower layer, or pass it in)", pkg, imp)
					}
				}
			}
		}
	}
}
