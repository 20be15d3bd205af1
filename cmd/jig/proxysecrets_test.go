package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/session/peers"
)

// jig proxy in front of a stdio server redacts what jig call would: the
// values of the secret-named variables the server inherits, in bodies (an
// argument the client sends, the server's echo of it, get-env's dump of
// the environment as JSON in a text block) and in the server's stderr,
// although none of them has a token's shape.
func TestStdioProxyRedactsInheritedSecrets(t *testing.T) {
	const token, password = "Zq9plainNOTshaped7731", "dbPw0rdXYZ77"
	t.Setenv("API_TOKEN", token)
	t.Setenv("DB_PASSWORD", password)
	rec := filepath.Join(t.TempDir(), "proxied.jsonl")
	server := append([]string{"sh", "-c", `echo "booting with $DB_PASSWORD" >&2; exec "$@"`, "sh"}, peers.Node(t, peers.Everything, "stdio")...)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr strings.Builder
	done := make(chan int)
	go func() {
		done <- run(context.Background(), append([]string{"proxy", "--record", rec, "--"}, server...), inR, outW, &stderr)
		outW.Close()
	}()
	out := bufio.NewReader(outR)
	ask := func(id int, method, params string) string {
		fmt.Fprintf(inW, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", id, method, params)
		for {
			line, err := out.ReadString('\n')
			if err != nil {
				t.Fatalf("reading the answer to %s: %v\n%s", method, err, stderr.String())
			}
			// server-everything writes the id last: "id":1}
			if strings.Contains(line, fmt.Sprintf(`"id":%d,`, id)) || strings.Contains(line, fmt.Sprintf(`"id":%d}`, id)) {
				return line
			}
		}
	}
	ask(1, "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}`)
	fmt.Fprintln(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	echo := ask(2, "tools/call", `{"name":"echo","arguments":{"message":"first `+token+`"}}`)
	env := ask(3, "tools/call", `{"name":"get-env","arguments":{}}`)
	inW.Close()
	go io.Copy(io.Discard, outR)
	<-done
	if !strings.Contains(echo, token) || !strings.Contains(env, password) {
		t.Fatalf("the client did not get the server's answers as sent (the test proves nothing):\n%s\n%s", echo, env)
	}
	files := readAll(t, rec)
	// The server's stderr reaches the client's log through jig's stderr:
	// a terminal line like any other.
	files["jig's stderr"] = stderr.String()
	mustNotContain(t, token, files)
	mustNotContain(t, password, files)
	if !strings.Contains(stderr.String(), "booting with [REDACTED:value]") {
		t.Errorf("jig's stderr lacks the server's stderr line, redacted:\n%s", stderr.String())
	}
	for _, want := range []string{`first [REDACTED:value]`, `booting with [REDACTED:value]`} {
		if !strings.Contains(files[rec], want) {
			t.Errorf("the recording lacks %q", want)
		}
	}
}

// jig proxy in front of an HTTP server learns the values of the client's
// secret headers and redacts them wherever they appear: the bearer token
// the client sends is in the echo tool's argument and in its answer too.
func TestHTTPProxyRedactsTheClientsHeaderValues(t *testing.T) {
	const token = "Zq9plainNOTshaped7731"
	port := peers.FreePort(t)
	peers.Serve(t, peers.NodeHTTP(t, peers.Everything, "streamableHttp"), port)
	listen := fmt.Sprintf("127.0.0.1:%d", peers.FreePort(t))
	rec := filepath.Join(t.TempDir(), "proxied.jsonl")
	ctx, stop := context.WithCancel(context.Background())
	var stderr strings.Builder
	done := make(chan int)
	go func() {
		done <- run(ctx, []string{"proxy", "--listen", listen, "--target", fmt.Sprintf("http://127.0.0.1:%d/mcp", port), "--record", rec},
			strings.NewReader(""), io.Discard, &stderr)
	}()
	for deadline := time.Now().Add(time.Minute); ; {
		if c, err := net.Dial("tcp", listen); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("jig proxy never listened on %s", listen)
		}
		time.Sleep(20 * time.Millisecond)
	}
	hc := &http.Client{Transport: headerTransport{"Authorization", "Bearer " + token}}
	c := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: "http://" + listen + "/mcp", HTTPClient: hc, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"message": "first " + token}})
	if err != nil {
		t.Fatal(err)
	}
	cs.Close()
	stop()
	<-done
	if tc, ok := res.Content[0].(*mcp.TextContent); !ok || !strings.Contains(tc.Text, token) {
		t.Fatalf("the echo did not carry the token (the test proves nothing): %+v", res.Content)
	}
	files := readAll(t, rec)
	files["stderr"] = stderr.String()
	mustNotContain(t, token, files)
	if !strings.Contains(files[rec], `first [REDACTED:value]`) {
		t.Errorf("the recording lacks the redacted echo:\n%s", files[rec])
	}
}

// headerTransport adds one header to every request, as a client configured
// with a bearer token does.
type headerTransport struct{ name, value string }

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(h.name, h.value)
	return http.DefaultTransport.RoundTrip(r)
}
