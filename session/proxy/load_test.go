package proxy

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpjig/jig/frames"
)

// The load roles are the echo-server load generator of .ci/bench and of the
// load tests: the test binary, re-executed, writes the pipelined input
// (mcp-load) or answers it as a minimal MCP server would (mcp-echo), so the
// proxy can be measured against the same server reached directly.
//
//	JIG_PROXY_TEST_ROLE=mcp-load JIG_LOAD_CALLS=100000 proxy.test > in.jsonl
//	JIG_PROXY_TEST_ROLE=mcp-echo proxy.test < in.jsonl > out.jsonl
//	JIG_PROXY_TEST_ROLE=mcp-echo jig proxy --record rec.jsonl -- proxy.test < in.jsonl > out.jsonl
const (
	loadCallsEnv = "JIG_LOAD_CALLS" // how many tools/call requests mcp-load writes
	loadSizeEnv  = "JIG_LOAD_SIZE"  // the size of each result frame, in bytes
)

func loadRole(role string) (bool, int) {
	switch role {
	case "mcp-load":
		n, _ := strconv.Atoi(os.Getenv(loadCallsEnv))
		bw := bufio.NewWriterSize(os.Stdout, 1<<16)
		writeLoad(bw, n)
		if err := bw.Flush(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return true, 1
		}
		return true, 0
	case "mcp-echo":
		size, _ := strconv.Atoi(os.Getenv(loadSizeEnv))
		if err := serveEcho(os.Stdin, os.Stdout, size); err != nil {
			fmt.Fprintln(os.Stderr, "mcp-echo:", err)
			return true, 1
		}
		return true, 0
	}
	return false, 0
}

// writeLoad writes an initialize request and n tools/call requests, one per
// line, as a client that pipelines its calls would.
func writeLoad(w io.Writer, n int) {
	io.WriteString(w, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"load","version":"0"}}}`+"\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"n":%d}}}`+"\n", i, i)
	}
}

// serveEcho answers initialize and every tools/call with a result frame of
// about size bytes (1 KB when 0), writing through a buffer that is flushed
// whenever no more input is waiting: the least a real server does.
func serveEcho(r io.Reader, w io.Writer, size int) error {
	if size <= 0 {
		size = 1024
	}
	br := bufio.NewReaderSize(r, 1<<16)
	bw := bufio.NewWriterSize(w, 1<<16)
	pad := strings.Repeat("x", max(size-90, 1))
	for {
		line, err := br.ReadSlice('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var req struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if json.Unmarshal(line, &req) == nil && len(req.ID) > 0 {
				switch req.Method {
				case "initialize":
					fmt.Fprintf(bw, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"mcp-echo","version":"0"}}}`+"\n", req.ID)
				default:
					fmt.Fprintf(bw, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"%s"}],"isError":false}}`+"\n", req.ID, pad)
				}
			}
		}
		if err == bufio.ErrBufferFull {
			return fmt.Errorf("a request longer than %d bytes", br.Size())
		}
		if err != nil {
			bw.Flush()
			if err == io.EOF {
				return nil
			}
			return err
		}
		if br.Buffered() == 0 {
			if err := bw.Flush(); err != nil {
				return err
			}
		}
	}
}

// loadRun is one run of the proxy, in this process, between a client that
// writes the load and a mcp-echo server it starts, recording to a file
// through w (the file itself when nil).
type loadRun struct {
	in, out   string // the client's input and what it received
	recording string
	peak      int // the most bytes the recorder queued
	waits     int // how often a forwarder waited for the recorder
}

func runLoad(t *testing.T, calls, queue int, throttle func(io.Writer) io.Writer) loadRun {
	t.Helper()
	dir := t.TempDir()
	lr := loadRun{in: filepath.Join(dir, "in.jsonl"), out: filepath.Join(dir, "out.jsonl"), recording: filepath.Join(dir, "rec.jsonl")}
	var in bytes.Buffer
	writeLoad(&in, calls)
	if err := os.WriteFile(lr.in, in.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	log := frames.NewWriteThroughLog(nil)
	f, err := os.Create(lr.recording)
	if err != nil {
		t.Fatal(err)
	}
	var w io.Writer = f
	if throttle != nil {
		w = throttle(f)
	}
	tw := frames.NewTranscriptWriter(w, nil)
	if err := tw.WriteHeader(frames.Header{Jig: "test", Mode: "proxy"}); err != nil {
		t.Fatal(err)
	}
	log.AddSink(tw)
	stdin, err := os.Open(lr.in)
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stdout, err := os.Create(lr.out)
	if err != nil {
		t.Fatal(err)
	}
	p := &Stdio{Command: []string{self(t)}, Env: append(os.Environ(), roleEnv+"=mcp-echo"), Stdin: stdin, Stdout: stdout, Stderr: io.Discard, Log: log, QueueBytes: queue}
	if code, err := p.Run(context.Background()); err != nil || code != 0 {
		t.Fatalf("proxy: exit %d, %v", code, err)
	}
	stdout.Close()
	f.Close()
	if err := log.SinkErr(); err != nil {
		t.Fatalf("recording: %v", err)
	}
	lr.peak, lr.waits = p.rec.stats()
	return lr
}

// directEchoOutput is what the mcp-echo server writes for input, reached
// without the proxy.
func directEchoOutput(t *testing.T, in string) []byte {
	t.Helper()
	cmd := exec.Command(self(t))
	cmd.Env = append(os.Environ(), roleEnv+"=mcp-echo")
	f, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmd.Stdin = f
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("mcp-echo: %v", err)
	}
	return out
}

// checkLoad holds the proxy to what crossed: the client received exactly
// what the server sends when reached directly, and the recording holds every
// line of both directions, in order, byte for byte, paired.
func checkLoad(t *testing.T, lr loadRun, calls int) {
	t.Helper()
	got, err := os.ReadFile(lr.out)
	if err != nil {
		t.Fatal(err)
	}
	if want := directEchoOutput(t, lr.in); !bytes.Equal(got, want) {
		t.Fatalf("the client received %d bytes through the proxy, %d directly: the proxy changed or lost output", len(got), len(want))
	}
	in, err := os.ReadFile(lr.in)
	if err != nil {
		t.Fatal(err)
	}
	wire := map[frames.Direction][][]byte{
		frames.ClientToServer: bytes.SplitAfter(in, []byte("\n")),
		frames.ServerToClient: bytes.SplitAfter(got, []byte("\n")),
	}
	next := map[frames.Direction]int{}
	f, err := os.Open(lr.recording)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	if _, err := br.ReadBytes('\n'); err != nil { // the header
		t.Fatal(err)
	}
	var seq int64
	var answered int
	for {
		line, err := br.ReadBytes('\n')
		if err == io.EOF && len(line) == 0 {
			break
		}
		if err != nil {
			t.Fatalf("record %d: %v (cut off?)", seq+1, err)
		}
		fr, derr := frames.DecodeRecordFrame(line)
		if derr != nil {
			t.Fatalf("record %d: %v", seq+1, derr)
		}
		seq++
		if fr.Seq != seq {
			t.Fatalf("record %d has seq %d: a frame is missing or out of order", seq, fr.Seq)
		}
		if fr.Kind == frames.KindTransport {
			continue
		}
		i := next[fr.Dir]
		lines := wire[fr.Dir]
		if i >= len(lines) || !bytes.Equal(append(fr.Raw, '\n'), lines[i]) {
			t.Fatalf("%s frame %d (seq %d) differs from line %d that crossed:\n got %.200q", fr.Dir, i, seq, i+1, fr.Raw)
		}
		next[fr.Dir]++
		if fr.Dir == frames.ServerToClient && fr.Kind == frames.KindResult && fr.Method != "" && fr.Err == "" {
			answered++
		}
	}
	for dir, lines := range wire {
		if n := len(lines) - 1; next[dir] != n { // SplitAfter leaves "" after the last newline
			t.Errorf("%s: %d frames recorded, %d lines crossed: %d lost", dir, next[dir], n, n-next[dir])
		}
	}
	if answered != calls+1 {
		t.Errorf("%d responses paired with their request, want %d", answered, calls+1)
	}
}

// TestStdioProxyAtLoad pipes 100,000 pipelined tools/call requests with
// 1 KB results through the proxy: nothing is lost or changed, on the wire or
// in the recording, and the queue stays within its bound.
func TestStdioProxyAtLoad(t *testing.T) {
	const calls = 100_000
	lr := runLoad(t, calls, 0, nil)
	checkLoad(t, lr, calls)
	if lr.peak > 2*DefaultQueueBytes {
		t.Errorf("the recorder queued %d bytes at most, over twice its bound of %d", lr.peak, DefaultQueueBytes)
	}
	t.Logf("queue peak %d KB, %d waits for the recorder", lr.peak>>10, lr.waits)
}

// slowWriter is a disk that takes d per KB written.
type slowWriter struct {
	w io.Writer
	d time.Duration
}

func (s *slowWriter) Write(p []byte) (int, error) {
	time.Sleep(time.Duration(len(p)>>10) * s.d)
	return s.w.Write(p)
}

// TestStdioProxySlowDisk records through a disk far slower than the wire:
// the proxy holds the session back (backpressure) instead of queuing without
// bound or dropping frames, and everything still arrives, in order.
func TestStdioProxySlowDisk(t *testing.T) {
	const calls, queue = 5_000, 64 << 10
	lr := runLoad(t, calls, queue, func(w io.Writer) io.Writer { return &slowWriter{w: w, d: 50 * time.Microsecond} }) // ~20 MB/s
	checkLoad(t, lr, calls)
	if lr.waits == 0 {
		t.Errorf("no forwarder ever waited for the slow disk: the queue is not bounded (peak %d bytes)", lr.peak)
	}
	// The bound, plus the one frame that may enter a full queue's last slot.
	if limit := queue + 2*(1024+frameOverhead); lr.peak > limit {
		t.Errorf("the recorder queued %d bytes at most, over its bound of %d", lr.peak, limit)
	}
	t.Logf("queue peak %d KB of %d, %d waits for the recorder", lr.peak>>10, queue>>10, lr.waits)
}
