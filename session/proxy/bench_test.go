package proxy

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session/record"
)

// echoPipe is a stdio echo server, reached directly or through the proxy.
type echoPipe struct {
	w    io.WriteCloser
	r    *bufio.Reader
	stop func()
}

func directEcho(b *testing.B) *echoPipe {
	cmd := exec.Command(self(b))
	cmd.Env = append(os.Environ(), roleEnv+"=echo")
	w, _ := cmd.StdinPipe()
	r, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	return &echoPipe{w: w, r: bufio.NewReaderSize(r, 1<<16), stop: func() { w.Close(); cmd.Wait() }}
}

// proxiedEcho runs the proxy in this process, recording to a real file, as
// `jig proxy --record FILE -- echo-server` would.
func proxiedEcho(b *testing.B) *echoPipe {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	log := frames.NewLog(nil)
	_, closer, err := record.ForLog(log, record.Options{Path: b.TempDir() + "/bench.jsonl", Mode: "proxy", Inline: true})
	if err != nil {
		b.Fatal(err)
	}
	p := &Stdio{Command: []string{self(b)}, Env: append(os.Environ(), roleEnv+"=echo"), Stdin: inR, Stdout: outW, Stderr: io.Discard, Log: log}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := p.Run(context.Background()); err != nil {
			b.Error(err)
		}
		outW.Close()
	}()
	return &echoPipe{w: inW, r: bufio.NewReaderSize(outR, 1<<16), stop: func() { inW.Close(); <-done; closer() }}
}

var kilobyteFrame = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"pad":"` + strings.Repeat("x", 1024-80) + `"}}}` + "\n"

// BenchmarkStdioRoundTrip sends one 1 KB frame and waits for its echo, so
// each op is one frame each way; it reports the median round trip. Compare
// direct and proxy in the same run: the difference is what the proxy adds.
func BenchmarkStdioRoundTrip(b *testing.B) {
	for _, tc := range []struct {
		name string
		open func(*testing.B) *echoPipe
	}{{"direct", directEcho}, {"proxy", proxiedEcho}} {
		b.Run(tc.name, func(b *testing.B) {
			p := tc.open(b)
			defer p.stop()
			var lat []time.Duration
			for b.Loop() {
				start := time.Now()
				if _, err := io.WriteString(p.w, kilobyteFrame); err != nil {
					b.Fatal(err)
				}
				if _, err := p.r.ReadString('\n'); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(start))
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
		})
	}
}

// BenchmarkStdioThroughput streams 1 KB frames through as fast as they go
// (a writer and a reader at once) and reports frames per second.
func BenchmarkStdioThroughput(b *testing.B) {
	for _, tc := range []struct {
		name string
		open func(*testing.B) *echoPipe
	}{{"direct", directEcho}, {"proxy", proxiedEcho}} {
		b.Run(tc.name, func(b *testing.B) {
			p := tc.open(b)
			defer p.stop()
			b.SetBytes(int64(len(kilobyteFrame)))
			start := time.Now()
			n := b.N
			go func() {
				bw := bufio.NewWriterSize(p.w, 1<<16)
				for range n {
					bw.WriteString(kilobyteFrame)
				}
				bw.Flush()
			}()
			for range n {
				if _, err := p.r.ReadString('\n'); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)/time.Since(start).Seconds(), "frames/s")
		})
	}
}
