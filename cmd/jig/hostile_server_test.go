package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/session/demo"
)

// hostileEnv makes the re-executed test binary a misbehaving stdio server
// (see hostileServers): real processes and real pipes, so every defect the
// hostile suite proves is one a server nobody here wrote could cause.
const hostileEnv = "JIG_HOSTILE"

// hostile returns the target arguments that run this test binary as the
// hostile server mode: pass them last, after jig's own flags.
func hostile(t *testing.T, mode string) []string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return []string{"--env", hostileEnv + "=" + mode, "--", exe}
}

// serveHostile runs the hostile server named by mode and exits.
func serveHostile(mode string) {
	name, arg, _ := strings.Cut(mode, ":")
	serve, ok := hostileServers[name]
	if !ok {
		fmt.Fprintf(os.Stderr, "unknown %s mode %q\n", hostileEnv, mode)
		os.Exit(2)
	}
	serve(arg)
	os.Exit(0)
}

// hostileServers are the misbehaving servers, by mode. A mode may take an
// argument after a colon ("crash-after:3").
var hostileServers = map[string]func(arg string){
	// crash-after:N is the demo server, which exits (status 3) instead of
	// answering the tools/call after the Nth.
	"crash-after": func(arg string) {
		n, _ := strconv.Atoi(arg)
		srv, _ := demo.New(1)
		calls := 0
		srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
			return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
				if method == "tools/call" {
					if calls++; calls > n {
						fmt.Fprintf(os.Stderr, "crash-after: exiting on call %d\n", calls)
						os.Exit(3)
					}
				}
				return next(ctx, method, req)
			}
		})
		_ = srv.Run(context.Background(), &mcp.StdioTransport{})
	},
}

// rawServer is a stdio server written byte by byte, for misbehaviour the SDK
// would never produce: it answers the handshake and tools/list properly and
// hands every tools/call to call, which writes whatever lines it likes.
type rawServer struct {
	out  *bufio.Writer
	call func(s *rawServer, id json.RawMessage, params json.RawMessage)
	// list answers tools/list when set.
	list func(s *rawServer, id json.RawMessage, params json.RawMessage)
	// response is given every response jig sends the server, when set.
	response func(s *rawServer, line []byte)
}

// cyclingPages pages tools/list A → B → A → ... for ever.
func cyclingPages(s *rawServer, id, params json.RawMessage) {
	var p struct {
		Cursor string `json:"cursor"`
	}
	_ = json.Unmarshal(params, &p)
	name, next := "a", "B"
	if p.Cursor == "B" {
		name, next = "b", "A"
	}
	s.line(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"tools":[{"name":"` + name + `","inputSchema":{"type":"object"}}],"nextCursor":"` + next + `"}}`)
}

// line writes one line and flushes it, as a line-buffered server would.
func (s *rawServer) line(text string) {
	s.out.WriteString(text)
	s.out.WriteByte('\n')
	s.out.Flush()
}

// result answers id with a text result.
func (s *rawServer) result(id json.RawMessage, text string) {
	b, _ := json.Marshal(text)
	s.line(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"content":[{"type":"text","text":` + string(b) + `}]}}`)
}

func (s *rawServer) serve() {
	s.out = bufio.NewWriter(os.Stdout)
	in := bufio.NewReader(os.Stdin)
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal(line, &req) != nil || len(req.ID) == 0 || req.Method == "" {
			if s.response != nil && len(req.ID) > 0 {
				s.response(s, line)
			}
			continue // notifications and responses need no answer
		}
		switch req.Method {
		case "initialize":
			var p struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			_ = json.Unmarshal(req.Params, &p)
			s.line(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"protocolVersion":"` + p.ProtocolVersion +
				`","capabilities":{"tools":{}},"serverInfo":{"name":"hostile","version":"0.0.1"}}}`)
		case "tools/list":
			if s.list != nil {
				s.list(s, req.ID, req.Params)
				continue
			}
			s.line(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}}`)
		case "tools/call":
			s.call(s, req.ID, req.Params)
		case "ping":
			s.line(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{}}`)
		default:
			s.line(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"error":{"code":-32601,"message":"method not found"}}`)
		}
	}
}

func init() {
	hostileServers["leak"] = func(string) { (&rawServer{call: leak}).serve() }
	// grandchild starts a daemon (its own session, setsid) that keeps the
	// server's stdout and stderr open after the server exits, as a server
	// that spawns a background helper does; then it serves normally.
	hostileServers["grandchild"] = func(string) {
		exe, _ := os.Executable()
		d := exec.Command(exe)
		d.Env = append(os.Environ(), hostileEnv+"=daemon")
		d.Stdout, d.Stderr = os.Stdout, os.Stderr
		d.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := d.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "grandchild:", err)
			os.Exit(1)
		}
		if f := os.Getenv("JIG_HOSTILE_PIDFILE"); f != "" {
			os.WriteFile(f, []byte(strconv.Itoa(d.Process.Pid)), 0o600)
		}
		fmt.Fprintln(os.Stderr, "grandchild: started a daemon that holds stdout and stderr")
		(&rawServer{call: func(s *rawServer, id, _ json.RawMessage) { s.result(id, "the real answer") }}).serve()
	}
	hostileServers["daemon"] = func(string) { time.Sleep(time.Minute) }
	hostileServers["cursor-cycle"] = func(string) { (&rawServer{list: cyclingPages}).serve() }
	// endless answers tools/call with a line that never ends.
	hostileServers["endless"] = func(string) {
		(&rawServer{call: func(s *rawServer, id, _ json.RawMessage) {
			s.out.WriteString(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"content":[{"type":"text","text":"`)
			chunk := strings.Repeat("x", 64<<10)
			for {
				if _, err := s.out.WriteString(chunk); err != nil {
					os.Exit(0)
				}
			}
		}}).serve()
	}
	// endless-stderr writes an endless stderr line, then answers.
	hostileServers["endless-stderr"] = func(string) {
		(&rawServer{call: func(s *rawServer, id, _ json.RawMessage) {
			os.Stderr.WriteString(strings.Repeat("e", 8<<20) + "\n")
			s.result(id, "the real answer")
		}}).serve()
	}
	// Lines the SDK's decoder refuses, each sent before a good answer: the
	// session must go on (item 1 of issue 11).
	for name, line := range badLines {
		raw(name, line)
	}
	// Answers jig cannot hand to the SDK: the call must say the answer came.
	answer := func(name string, write func(s *rawServer, id json.RawMessage)) {
		hostileServers[name] = func(string) {
			(&rawServer{call: func(s *rawServer, id, _ json.RawMessage) { write(s, id) }}).serve()
		}
	}
	answer("answer-nan", func(s *rawServer, id json.RawMessage) {
		s.line(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"content":[],"score":NaN}}`)
	})
	answer("answer-utf8", func(s *rawServer, id json.RawMessage) {
		s.line(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"content":[{"type":"text","text":"caf` + "\xe9" + `"}]}}`)
	})
	answer("answer-batch", func(s *rawServer, id json.RawMessage) {
		s.line(`[{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"content":[]}}]`)
	})
	// ask:KIND sends, on tools/call, a request to the client that jig
	// cannot use, then waits for the answer to it before it answers the
	// call with what it got: a server that waits on the client, as for
	// sampling or elicitation, must get an error, not silence.
	hostileServers["ask"] = func(kind string) {
		var call json.RawMessage
		(&rawServer{
			call: func(s *rawServer, id, _ json.RawMessage) {
				call = id
				s.line(withheldAsks[kind])
			},
			response: func(s *rawServer, line []byte) {
				var r struct {
					Error struct {
						Code    int    `json:"code"`
						Message string `json:"message"`
					} `json:"error"`
				}
				json.Unmarshal(line, &r)
				s.result(call, fmt.Sprintf("the client answered: %d %s", r.Error.Code, r.Error.Message))
			},
		}).serve()
	}
	answer("answer-object-id", func(s *rawServer, id json.RawMessage) {
		s.line(`{"jsonrpc":"2.0","id":{"n":` + string(id) + `},"result":{"content":[]}}`)
	})
}

// leak is a server that leaks every secret it can: each environment value
// whose name looks secret, in its result (plainly and JSON-escaped, \u00XX
// for every character), the call's arguments echoed, and the same values on
// stderr; with {"crash":true} it prints them to stderr and dies unanswered.
func leak(s *rawServer, id, params json.RawMessage) {
	var p struct {
		Arguments map[string]any `json:"arguments"`
	}
	_ = json.Unmarshal(params, &p)
	var plain, escaped []string
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		if !secretName.MatchString(k) || v == "" {
			continue
		}
		plain = append(plain, k+"="+v)
		var e strings.Builder
		for _, r := range v {
			fmt.Fprintf(&e, "\\u%04x", r)
		}
		escaped = append(escaped, k+"="+e.String())
		fmt.Fprintf(os.Stderr, "leak: %s=%s\n", k, v)
	}
	if p.Arguments["crash"] == true {
		os.Exit(1)
	}
	args, _ := json.Marshal(p.Arguments)
	text, _ := json.Marshal(strings.Join(plain, " ") + " args=" + string(args))
	s.line(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"content":[{"type":"text","text":` + string(text) +
		`},{"type":"text","text":"` + strings.Join(escaped, " ") + `"}]}}`)
}

var secretName = regexp.MustCompile(`(?i)token|secret|password|api_?key`)

// badLines are lines a real server may print that the SDK cannot decode.
var badLines = map[string]string{
	"nan":           `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":NaN}}`,
	"infinity":      `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":-Infinity}}`,
	"broken":        `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":{"ok":tru}}}`,
	"deep":          `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}}`,
	"object-id":     `{"jsonrpc":"2.0","id":{"a":1},"result":{}}`,
	"id-null-error": `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`,
	"string-code":   `{"jsonrpc":"2.0","id":99,"error":{"code":"E_FAIL","message":"x"}}`,
	// Valid, with trailing blanks the SDK's decoder takes for trailing data.
	"trailing-space": `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}` + " 	 ",
}

// withheldAsks are requests from a server that jig cannot hand to the SDK,
// each with an id jig can read, by the kind of defect.
var withheldAsks = map[string]string{
	"utf8":  `{"jsonrpc":"2.0","id":"ask-1","method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"caf` + "\xe9" + `"}}],"maxTokens":10}}`,
	"nan":   `{"jsonrpc":"2.0","id":"ask-1","method":"elicitation/create","params":{"message":"how many?","requestedSchema":{"type":"object"},"score":NaN}}`,
	"batch": `[{"jsonrpc":"2.0","id":"ask-1","method":"sampling/createMessage","params":{"messages":[],"maxTokens":10}}]`,
}

// raw adds a rawServer mode whose tools/call writes before, then the result.
func raw(name string, before ...string) {
	hostileServers[name] = func(string) {
		(&rawServer{call: func(s *rawServer, id, _ json.RawMessage) {
			for _, l := range before {
				s.line(l)
			}
			s.result(id, "the real answer")
		}}).serve()
	}
}
