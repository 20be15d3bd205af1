package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/stats"
)

var updateStatsGolden = flag.Bool("update-stats-golden", false, "rewrite testdata/stats-golden-*.json from this build")

// goldenCorpus writes a seeded recording of calls that exercise what jig
// stats reads: results whose text copies structuredContent (escapes,
// quotes, backslashes, non-ASCII, \u2028), text-only results with JSON or
// prose in them, timestamps and UUIDs, isError results, JSON-RPC errors,
// results that are no JSON, null structuredContent, and two tools.
func goldenCorpus(t *testing.T, seed uint64, calls int, drifted bool) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), fmt.Sprintf("golden-%d.jsonl", seed))
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	bw := bufio.NewWriter(f)
	tw := frames.NewTranscriptWriter(bw, nil)
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	tw.WriteHeader(frames.Header{Jig: "golden", Started: t0, Mode: "proxy"})
	r := rand.New(rand.NewPCG(seed, 7))
	seq := int64(0)
	write := func(dir frames.Direction, at time.Time, raw string) {
		seq++
		fr := frames.Frame{Seq: seq, Time: at, Dir: dir, Raw: []byte(raw)}
		fr.Classify()
		if err := tw.WriteFrame(&fr); err != nil {
			t.Fatal(err)
		}
	}
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	names := []string{"Acme \"Corp\"", `Back\slash Ltd`, "Zürich AG", "Line\u2028Sep", "Initech", "Globex"}
	statuses := []string{"delivered", "delivered", "pending", "cancelled", "shipped"}
	for c := 0; c < calls; c++ {
		at := t0.Add(time.Duration(c) * 100 * time.Millisecond)
		done := at.Add(time.Duration(100+r.IntN(900)) * time.Microsecond)
		if c%4 == 3 {
			write(frames.ClientToServer, at, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"get_report","arguments":{"kind":%q,"verbose":%t}}}`, c, []string{"daily", "weekly"}[r.IntN(2)], r.IntN(2) == 0))
			var body string
			switch r.IntN(6) {
			case 0:
				body = `{"content":[{"type":"text","text":"not json: a report of several words about the day"}]}`
			case 1:
				body = `{"content":[{"type":"text","text":` + q(fmt.Sprintf(`{"rows":%d,"note":"a \"quoted\" word"}`, r.IntN(50))) + `}],"structuredContent":null}`
			default:
				body = fmt.Sprintf(`{"content":[{"type":"text","text":"report %d ready; id 1b4e28ba-2fa1-11d2-883f-%012d"}],"_meta":{"x":1}}`, r.IntN(9), r.IntN(1000))
			}
			write(frames.ServerToClient, done, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":%s}`, c, body))
			continue
		}
		cust := names[r.IntN(len(names))]
		limit := []int{5, 10, 40}[r.IntN(3)]
		write(frames.ClientToServer, at, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"search_orders","arguments":{"customer":%s,"limit":%d}}}`, c, q(cust), limit))
		switch n := r.IntN(100); {
		case n < 2:
			write(frames.ServerToClient, done, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"error":{"code":-32603,"message":"db \"timeout\""}}`, c))
			continue
		case n < 5:
			write(frames.ServerToClient, done, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"no customer named %s"}],"isError":true}}`, c, strings.Trim(q(cust), `"`)))
			continue
		case n < 6:
			write(frames.ServerToClient, done, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"cut`, c))
			continue
		}
		k := r.IntN(limit + 1)
		if drifted && k > 3 {
			k = k / 3
		}
		var orders []string
		for o := 0; o < k; o++ {
			placed := fmt.Sprintf(`"2026-%02d-%02dT10:%02d:00.%03dZ"`, 1+r.IntN(10), 1+r.IntN(28), r.IntN(60), r.IntN(1000))
			if drifted && o%5 == 0 {
				placed = fmt.Sprint(1760000000 + r.IntN(1e6))
			}
			orders = append(orders, fmt.Sprintf(`{"id":"ord-%d","customer_name":%s,"status":%q,"total":%.2f,"placed_at":%s,"tags":["a","b\\c"],"note":%s}`,
				1000+r.IntN(9000), q(cust), statuses[r.IntN(len(statuses))], 5+r.ExpFloat64()*120, placed,
				q([]string{"", "leave at the door", "call first, then ring twice", "ça va — très bien"}[r.IntN(4)])))
		}
		sc := fmt.Sprintf(`{"orders":[%s],"count":%d,"truncated":%t,"generated_at":"2026-11-01T00:00:00Z"}`, strings.Join(orders, ","), k, k == limit)
		write(frames.ServerToClient, done, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":%s}],"structuredContent":%s}}`, c, q(sc), sc))
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestStatsGolden: jig stats and jig drift over a seeded corpus give the
// statistics and verdicts recorded in testdata, to the byte: reading them
// faster must not change them. The files were written by the build before
// the reading was made faster (go test ./cmd/jig -run TestStatsGolden
// -update-stats-golden rewrites them, for a change meant to alter them).
func TestStatsGolden(t *testing.T) {
	base, cur := goldenCorpus(t, 1, 3000, false), goldenCorpus(t, 2, 3000, true)
	collect := func(path string) *stats.Collector {
		c := stats.New(stats.Options{Workers: 2})
		if _, err := loadStats(context.Background(), "recordings", []string{path}, c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	b, c := collect(base), collect(cur)
	for name, v := range map[string]any{
		"stats": b.Report(""),
		"drift": stats.Compare(b, c, stats.DriftOptions{}),
	} {
		got, err := json.MarshalIndent(v, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join("testdata", "stats-golden-"+name+".json")
		if *updateStatsGolden {
			if err := os.WriteFile(file, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
			for i := 0; i < len(gl) && i < len(wl); i++ {
				if gl[i] != wl[i] {
					t.Errorf("%s differs from %s at line %d:\n got %s\nwant %s", name, file, i+1, gl[i], wl[i])
					break
				}
			}
			if len(gl) != len(wl) {
				t.Errorf("%s: %d lines, %s has %d", name, len(gl), file, len(wl))
			}
		}
	}
	if !strings.Contains(fmt.Sprint(stats.Compare(b, c, stats.DriftOptions{})), "drift") {
		t.Error("the drifted corpus shows no drift")
	}
}
