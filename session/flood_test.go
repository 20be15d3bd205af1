package session

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/mcpjig/jig/frames"
)

// serveFlood is a minimal legacy-era MCP server, written by hand so that it
// costs next to nothing itself: its one tool, flood, sends
// arguments.n notifications/message before its result, as fast as the pipe
// takes them. It measures how fast jig's capture takes frames in.
//
//	JIG_TEST_SERVER=flood session.test
func serveFlood(r io.Reader, w io.Writer) error {
	br := bufio.NewReaderSize(r, 1<<16)
	bw := bufio.NewWriterSize(w, 1<<16)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			var req struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
				Params struct {
					Arguments struct {
						N int `json:"n"`
					} `json:"arguments"`
				} `json:"params"`
			}
			if json.Unmarshal(line, &req) == nil && len(req.ID) > 0 {
				switch req.Method {
				case "initialize":
					fmt.Fprintf(bw, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"logging":{}},"serverInfo":{"name":"flood","version":"0"}}}`+"\n", req.ID)
				case "tools/list":
					fmt.Fprintf(bw, `{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"flood","inputSchema":{"type":"object","properties":{"n":{"type":"integer"}}}}]}}`+"\n", req.ID)
				case "tools/call":
					for i := range req.Params.Arguments.N {
						fmt.Fprintf(bw, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":"event %d"}}`+"\n", i)
					}
					fmt.Fprintf(bw, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"sent %d"}]}}`+"\n", req.ID, req.Params.Arguments.N)
				default:
					fmt.Fprintf(bw, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`+"\n", req.ID)
				}
			}
			if br.Buffered() == 0 {
				if err := bw.Flush(); err != nil {
					return err
				}
			}
		}
		if err != nil {
			bw.Flush()
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// flood opens a recorded session on the flood server and calls flood with
// n; it returns the Log and how long the call took.
func flood(t testing.TB, n int) (*frames.Log, time.Duration) {
	log := frames.NewLog(nil)
	tw, err := frames.CreateTranscript(filepath.Join(t.TempDir(), "flood.jsonl"), frames.Header{Jig: "test", Mode: "session"}, frames.NewRedactor())
	if err != nil {
		t.Fatal(err)
	}
	defer tw.Close()
	log.AddSink(tw)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s, err := Open(ctx, Options{Target: Target{Transport: TransportStdio, Command: []string{exe}, Env: map[string]string{"JIG_TEST_SERVER": "flood"}},
		ProtocolVersion: "2025-11-25", Log: log})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	start := time.Now()
	res, err := s.CallTool(ctx, "flood", json.RawMessage(`{"n":`+strconv.Itoa(n)+`}`))
	took := time.Since(start)
	if err != nil {
		t.Fatalf("calling flood with %d notifications: %v", n, err)
	}
	if want := fmt.Sprintf(`"sent %d"`, n); !containsBytes(res.Result, want) {
		t.Fatalf("flood answered %s, want its result", res.Result)
	}
	if err := log.SinkErr(); err != nil {
		t.Fatal(err)
	}
	return log, took
}

// TestNotificationFlood: every notification a server sends before its
// result is captured, in order, and the call still gets its result.
func TestNotificationFlood(t *testing.T) {
	const n = 20_000
	log, _ := flood(t, n)
	seen := 0
	for i := range log.Len() {
		f := log.Frame(i)
		if f.Method != "notifications/message" {
			continue
		}
		if want := fmt.Sprintf(`"data":"event %d"`, seen); !json.Valid(f.Raw) || !containsBytes(f.Raw, want) {
			t.Fatalf("notification %d is %s, want one with %s", seen, f.Raw, want)
		}
		seen++
	}
	if seen != n {
		t.Errorf("captured %d of the %d notifications", seen, n)
	}
}

func containsBytes(b []byte, s string) bool { return bytes.Contains(b, []byte(s)) }

// BenchmarkNotificationFlood reports how many frames a second jig's capture
// takes in, with recording on, from a server that floods notifications,
// and what the Log holds per frame beyond the frame's bytes.
func BenchmarkNotificationFlood(b *testing.B) {
	n := 200_000
	if s := os.Getenv("JIG_FLOOD"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	for b.Loop() {
		log, took := flood(b, n)
		b.ReportMetric(float64(log.Len())/took.Seconds(), "frames/s")
	}
}
