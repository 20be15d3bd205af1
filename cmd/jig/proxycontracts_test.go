package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/contract"
	"github.com/mcpjig/jig/frames/importer"
)

// proxyClient drives jig proxy over its stdin and stdout the way an MCP
// client would: a request, then its answer, line by line.
type proxyClient struct {
	t   *testing.T
	in  *io.PipeWriter
	out *bufio.Reader
	id  int
}

func (c *proxyClient) call(method, params string) string {
	c.t.Helper()
	c.id++
	fmt.Fprintf(c.in, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", c.id, method, params)
	for {
		line, err := c.out.ReadString('\n')
		if err != nil {
			c.t.Fatalf("reading the answer to %s: %v", method, err)
		}
		if strings.Contains(line, fmt.Sprintf(`"id":%d,`, c.id)) {
			return line
		}
	}
}

// TestProxyContracts: jig proxy --contracts in front of release 3 (wrong
// from its first call) passes every byte through unchanged, prints each
// violation on stderr, and keeps it in the recording on the frame it is
// about.
func TestProxyContracts(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(release3Env, "0")
	contracts := tempFile(t, "contracts.json", seedContracts)
	rec := filepath.Join(t.TempDir(), "proxied.jsonl")
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr strings.Builder
	done := make(chan int)
	go func() {
		done <- run(context.Background(), []string{"proxy", "--contracts", contracts, "--record", rec, "--", exe}, inR, outW, &stderr)
		outW.Close()
	}()
	c := &proxyClient{t: t, in: inW, out: bufio.NewReader(outR)}
	c.call("initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}`)
	fmt.Fprintln(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.call("tools/list", `{}`)
	answer := c.call("tools/call", `{"name":"search_orders","arguments":{"customer":"Acme Corp","since":"2026-01-01","limit":20}}`)
	c.call("tools/call", `{"name":"search_orders","arguments":{"customer":"Globex"}}`)
	c.call("tools/call", `{"name":"search_orders","arguments":{"customer":"Globex","since":"2026-03-01"}}`)
	inW.Close()
	go io.Copy(io.Discard, outR)
	if code := <-done; code != 0 {
		t.Fatalf("jig proxy: exit %d\n%s", code, stderr.String())
	}
	if !strings.Contains(answer, `"placed_at":177`) {
		t.Errorf("the client did not get release 3's answer as the server sent it: %s", answer)
	}
	errOut := stderr.String()
	for _, want := range []string{
		"jig proxy: contract: search_orders call id=3 (frame ", "/structuredContent/orders/0/placed_at: iso8601: got the number",
		"/structuredContent/generated_at: max-age: ", "jig proxy: contracts " + contracts + ": 3 tool calls, 3 held to a contract",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr does not say %q:\n%s", want, errOut)
		}
	}
	tr := readRecording(t, rec)
	marked := 0
	for _, m := range tr.Metas {
		if m.Key != contract.MetaKey {
			continue
		}
		var v contract.Violation
		if err := json.Unmarshal(m.Data, &v); err != nil {
			t.Fatal(err)
		}
		if v.Response < 1 || int(v.Response) > tr.Len() || tr.Frames[v.Response-1].Kind != frames.KindResult {
			t.Errorf("violation %v points at no response frame", v)
		}
		marked++
	}
	if marked == 0 {
		t.Errorf("the recording holds no violation; metas: %v", tr.Metas)
	}
	// jig open marks the same frames: the TUI's marks and the text listing.
	of, err := importer.Open(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer of.Close()
	if m := recordedViolations(of.Reader); m.Len() == 0 {
		t.Errorf("jig open reads no violation from the recording")
	} else {
		for _, m2 := range tr.Metas {
			var v contract.Violation
			if m2.Key == contract.MetaKey && json.Unmarshal(m2.Data, &v) == nil && len(m.Of(v.Response)) == 0 {
				t.Errorf("jig open does not mark frame #%d with %v", v.Response, v)
			}
		}
	}
	if code, out, _ := jig(t, "", "open", rec, "--text"); code != 0 || !strings.Contains(out, "contract violations recorded") || !strings.Contains(out, "placed_at: iso8601: got the number") {
		t.Errorf("jig open --text: exit %d, does not list the recorded violations:\n%s", code, out)
	}
	// jig check finds the same violations in the recording.
	code, out, _ := jig(t, "", "check", contracts, rec)
	if code != exitServerError || strings.Count(out, "\n") != marked {
		t.Errorf("jig check on the proxied recording: exit %d, %d violations, the proxy found %d\n%s", code, strings.Count(out, "\n"), marked, out)
	}
}
