package main

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/stats"
)

// benchCalls is how many calls BenchmarkStatsMillionCalls reads: the
// issue's million, in ten recordings of 100,000.
const (
	benchFiles        = 10
	benchCallsPerFile = 100_000
)

// millionCalls writes (once, into the temporary directory, reused by
// later runs) ten jig recordings of 100,000 tools/call exchanges each,
// shaped like the demo's search_orders traffic: 0–20 orders per result,
// several argument shapes, a few tool errors and JSON-RPC errors.
func millionCalls(b *testing.B) string {
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("jig-stats-bench-%d", benchFiles*benchCallsPerFile))
	if _, err := os.Stat(filepath.Join(dir, "done")); err == nil {
		return dir
	}
	b.Logf("writing %d recorded calls into %s (once)", benchFiles*benchCallsPerFile, dir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	customers := []string{"Acme Corp", "Globex", "Initech", "Hooli", "Umbrella Ltd"}
	statuses := []string{"delivered", "delivered", "delivered", "pending", "cancelled", "shipped"}
	for i := 0; i < benchFiles; i++ {
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("s%02d.jsonl", i)))
		if err != nil {
			b.Fatal(err)
		}
		bw := bufio.NewWriterSize(f, 1<<20)
		tw := frames.NewTranscriptWriter(bw, nil)
		t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
		tw.WriteHeader(frames.Header{Jig: "bench", Started: t0, Mode: "proxy"})
		seq := int64(0)
		write := func(dir frames.Direction, at time.Time, raw string) {
			seq++
			fr := frames.Frame{Seq: seq, Time: at, Dir: dir, Raw: []byte(raw)}
			fr.Classify()
			if err := tw.WriteFrame(&fr); err != nil {
				b.Fatal(err)
			}
		}
		for c := 0; c < benchCallsPerFile; c++ {
			at := t0.Add(time.Duration(c) * 50 * time.Millisecond)
			cust := customers[r.IntN(len(customers))]
			limit := []int{5, 10, 20, 50}[r.IntN(4)]
			write(frames.ClientToServer, at, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"search_orders","arguments":{"customer":%q,"since":"2026-0%d-01","limit":%d}}}`, c, cust, 1+r.IntN(3), limit))
			done := at.Add(time.Duration(200+r.IntN(800)) * time.Microsecond)
			switch n := r.IntN(100); {
			case n == 0:
				write(frames.ServerToClient, done, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"error":{"code":-32603,"message":"database timeout"}}`, c))
				continue
			case n < 3:
				write(frames.ServerToClient, done, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"no customer named %s"}],"isError":true}}`, c, cust))
				continue
			}
			orders := ""
			k := r.IntN(min(limit, 20) + 1)
			for o := 0; o < k; o++ {
				if o > 0 {
					orders += ","
				}
				orders += fmt.Sprintf(`{"id":"ord-%d","customer_name":%q,"status":%q,"total":%.2f,"placed_at":"2026-0%d-%02dT10:00:00Z"}`,
					1000+r.IntN(9000), cust, statuses[r.IntN(len(statuses))], 10+r.ExpFloat64()*150, 1+r.IntN(9), 1+r.IntN(28))
			}
			sc := fmt.Sprintf(`{"orders":[%s],"count":%d,"truncated":%t}`, orders, k, k == limit)
			write(frames.ServerToClient, done, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":%q}],"structuredContent":%s}}`, c, sc, sc))
		}
		if err := bw.Flush(); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
	os.WriteFile(filepath.Join(dir, "done"), nil, 0o600)
	return dir
}

// BenchmarkStatsMillionCalls is jig stats over a million recorded calls:
// the time of one pass, its CPU time (user and system: on the shared
// machine the wall time is mostly the others'), and the most heap it held
// (sampled every 5 ms), which must stay bounded however many calls stream
// by.
//
//	go test ./cmd/jig -run '^$' -bench StatsMillionCalls -benchtime 1x
func BenchmarkStatsMillionCalls(b *testing.B) {
	dir := millionCalls(b)
	var files []string
	for i := 0; i < benchFiles; i++ {
		files = append(files, filepath.Join(dir, fmt.Sprintf("s%02d.jsonl", i)))
	}
	runtime.GC()
	var peak atomic.Uint64
	stop := make(chan struct{})
	go func() {
		// runtime/metrics, not ReadMemStats: that stops the world, 200
		// times a second, and the workers with it.
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
		}
	}()
	b.ResetTimer()
	cpu0 := cpuTime()
	for range b.N {
		c := stats.New(stats.Options{Workers: runtime.GOMAXPROCS(0)})
		l, err := loadStats(context.Background(), "recordings", files, c)
		if err != nil {
			b.Fatal(err)
		}
		rep := c.Report("")
		if len(rep.Tools) != 1 || rep.Tools[0].Calls != benchFiles*benchCallsPerFile || l.Frames != 2*benchFiles*benchCallsPerFile {
			b.Fatalf("read %d frames, %+v", l.Frames, rep.Tools)
		}
	}
	b.StopTimer()
	close(stop)
	b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(benchFiles*benchCallsPerFile)*float64(b.N)/b.Elapsed().Seconds(), "calls/s")
}

// cpuTime is the processor time the process has used, user and system: on
// a machine shared with others the wall time says more about them.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkStatsOneFile(b *testing.B) {
	dir := millionCalls(b)
	b.ResetTimer()
	cpu0 := cpuTime()
	defer func() { b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op") }()
	for range b.N {
		c := stats.New(stats.Options{Workers: runtime.GOMAXPROCS(0)})
		if _, err := loadStats(context.Background(), "recordings", []string{filepath.Join(dir, "s00.jsonl")}, c); err != nil {
			b.Fatal(err)
		}
	}
}
