package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"
)

// plantedEnv is the variable the hostile-kinds suite plants a secret in: a
// stdio server inherits it (its name looks secret, so jig redacts it) and
// every kind below leaks it into what it sends, so the sweep can tell.
const plantedEnv = "JIG_PLANTED_KIND_TOKEN"

// leaked is the planted secret as the server sends it, or "" unplanted.
func leaked() string { return os.Getenv(plantedEnv) }

// The servers of the "already handled" hostile kinds (issue 11), each a
// real process misbehaving one way around an otherwise good tools/call.
func init() {
	kind := func(name string, call func(s *rawServer, id json.RawMessage)) {
		hostileServers[name] = func(string) {
			(&rawServer{call: func(s *rawServer, id, _ json.RawMessage) { call(s, id) }}).serve()
		}
	}
	// unknown-id answers a request jig never sent, then the call.
	kind("unknown-id", func(s *rawServer, id json.RawMessage) {
		s.line(`{"jsonrpc":"2.0","id":987654,"result":{"content":[{"type":"text","text":"` + leaked() + `"}]}}`)
		s.result(id, "the real answer")
	})
	// duplicate-id answers the call twice, the second time differently.
	kind("duplicate-id", func(s *rawServer, id json.RawMessage) {
		s.result(id, "the real answer")
		s.result(id, "a second answer "+leaked())
	})
	// early-id answers the request jig will send next before it is sent.
	kind("early-id", func(s *rawServer, id json.RawMessage) {
		n, _ := strconv.Atoi(string(id))
		s.line(`{"jsonrpc":"2.0","id":` + strconv.Itoa(n+1) + `,"result":{"leak":"` + leaked() + `"}}`)
		s.result(id, "the real answer")
	})
	// flood sends 20,000 log notifications and progress notifications
	// before the answer, as fast as the pipe takes them.
	kind("flood", func(s *rawServer, id json.RawMessage) {
		for i := range 20_000 {
			if i%1000 == 0 {
				fmt.Fprintf(s.out, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"x","progress":%d}}`+"\n", i)
				continue
			}
			fmt.Fprintf(s.out, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"line %d %s"}}`+"\n", i, leaked())
		}
		s.out.Flush()
		s.result(id, "the real answer")
	})
	// closed-stdout closes its stdout on the call and goes on running,
	// reading stdin, as a server whose writer died does.
	hostileServers["closed-stdout"] = func(string) {
		(&rawServer{call: func(s *rawServer, id, _ json.RawMessage) {
			fmt.Fprintln(os.Stderr, "closed-stdout: closing stdout "+leaked())
			os.Stdout.Close()
		}}).serve()
		time.Sleep(time.Minute) // stdin closed: linger, as a stuck server would
	}
	// ignore-sigterm answers, then ignores SIGTERM and lingers after its
	// stdin closes: only SIGKILL ends it.
	hostileServers["ignore-sigterm"] = func(string) {
		signal.Ignore(syscall.SIGTERM)
		(&rawServer{call: func(s *rawServer, id, _ json.RawMessage) { s.result(id, "the real answer") }}).serve()
		fmt.Fprintln(os.Stderr, "ignore-sigterm: stdin closed; staying "+leaked())
		time.Sleep(time.Minute)
	}
	// hang never answers the call.
	kind("hang", func(s *rawServer, id json.RawMessage) {})
}
