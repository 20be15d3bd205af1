package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpjig/jig/session"
)

// --transport names the transport of a config url entry too (it was always
// Streamable HTTP), and --input gives ${input:ID} its value.
func TestConfigFlags(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcp.json")
	os.WriteFile(path, []byte(`{"mcpServers": {"remote": {"url": "http://127.0.0.1:1/sse", "headers": {"X-Key": "${input:key}"}}, "local": {"command": "srv"}}}`), 0o644)
	opts, err := (&targetFlags{config: path, server: "remote", transport: "sse", inputs: []string{"key=v4lue"}}).options(nil)
	if err != nil {
		t.Fatal(err)
	}
	if opts.Target.Transport != session.TransportSSE || opts.Target.DetectSSE || opts.Target.Inputs["key"] != "v4lue" {
		t.Errorf("target %+v, want sse (stated, so no fallback) with the input", opts.Target)
	}
	opts, err = (&targetFlags{config: path, server: "remote"}).options(nil)
	if err != nil || opts.Target.Transport != session.TransportStreamable || !opts.Target.DetectSSE {
		t.Errorf("no --transport: %+v, %v; want http that may fall back to sse", opts.Target, err)
	}
	for _, tc := range []struct {
		flags targetFlags
		want  string
	}{
		{targetFlags{config: path, server: "local", transport: "sse"}, "runs a command, not a URL"},
		{targetFlags{config: path, server: "remote", inputs: []string{"novalue"}}, "expected ID=VALUE"},
		{targetFlags{demo: true, release: 1, inputs: []string{"a=b"}}, "--input only applies to --config"},
	} {
		if _, err := tc.flags.options(nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.flags, err, tc.want)
		}
	}
}

// jig connect --config with several servers and no --server lists them.
func TestConnectConfigListsServers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcp.json")
	os.WriteFile(path, []byte(`{"mcpServers": {"a": {"command": "srv-a"}, "b": {"url": "http://127.0.0.1:1/mcp"}, "c": {"args": 1}}}`), 0o644)
	code, _, errOut := jig(t, "", "connect", "--config", path)
	for _, want := range []string{"pick one with --server", "a ", "srv-a", "b ", "http://127.0.0.1:1/mcp", "c ", "unusable"} {
		if code != exitUsage || !strings.Contains(errOut, want) {
			t.Errorf("exit %d, stderr %q; want 2 and %q", code, errOut, want)
		}
	}
}
