package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpjig/jig/frames/fixture"
)

// reviewCorpus writes n fixtures of one tool into dir, and the JSON report
// of a replay in which every fifth one's response drifted and the tool's
// description changed for all: what jig review opens.
func reviewCorpus(b *testing.B, dir string, n int) []byte {
	b.Helper()
	tool := json.RawMessage(`{"name":"search_orders","description":"Find orders.","inputSchema":{"type":"object","properties":{"customer":{"type":"string"}}}}`)
	newTool := json.RawMessage(`{"name":"search_orders","description":"Find a customer's orders.","inputSchema":{"type":"object","properties":{"customer":{"type":"string"}}}}`)
	var reps []fixture.Report
	for i := range n {
		sc := fmt.Sprintf(`{"orders":[{"id":"ord-%d","customer_name":"c%d","total":%d,"status":"shipped"}],"truncated":false}`, i, i, i)
		res := json.RawMessage(`{"content":[{"type":"text","text":` + jsonQuote(sc) + `}],"structuredContent":` + sc + `}`)
		f := &fixture.Fixture{Format: fixture.Format, Scenario: fmt.Sprintf("scenario-%05d", i), Target: fixture.Target{Transport: "demo", Release: 1},
			Tool:     tool,
			Request:  fixture.Request{Method: "tools/call", Params: json.RawMessage(fmt.Sprintf(`{"name":"search_orders","arguments":{"customer":"c%d"}}`, i))},
			Response: fixture.Response{Result: res}}
		path := filepath.Join(dir, f.Scenario+".json")
		if err := f.Save(path); err != nil {
			b.Fatal(err)
		}
		if f, _ = fixture.Load(path); f == nil {
			b.Fatal("load")
		}
		act := res
		if i%5 == 0 {
			act = bytes.ReplaceAll(res, []byte("shipped"), []byte("dispatched"))
		}
		r := fixture.Compare(f, newTool, act, nil)
		r.File, r.FixtureSHA256 = path, f.SHA256()
		r.Steps = []fixture.StepResult{{Method: "tools/call", Tool: "search_orders", Request: f.Request.Params, Pinned: f.Response,
			Actual: fixture.Response{Result: act}, PinnedTool: tool, ActualTool: newTool}}
		reps = append(reps, r)
	}
	var out bytes.Buffer
	if err := fixture.NewRun(reps).WriteJSON(&out, nil); err != nil {
		b.Fatal(err)
	}
	return out.Bytes()
}

func jsonQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

// BenchmarkReviewOpen5000 is jig review's first screen on a 5,000-scenario
// report, as the TUI opens it: read the report file, decode it (each
// scenario on its own, steps left as text), group the items and draw at
// 120×35. The fixture files are checked after it (BenchmarkReviewFiles5000).
func BenchmarkReviewOpen5000(b *testing.B) {
	dir := b.TempDir()
	data := reviewCorpus(b, dir, 5000)
	path := filepath.Join(b.TempDir(), "drift.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(len(data))/(1<<20), "MiB-report")
	runtime.GC() // the corpus's garbage is not the review's to collect
	b.ResetTimer()
	cpu0 := processCPU()
	defer func() { b.ReportMetric(float64((processCPU()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op") }()
	for b.Loop() {
		doc, err := fixture.ReadReport(path)
		if err != nil {
			b.Fatal(err)
		}
		rv := fixture.NewReview([]*fixture.ReportDoc{doc}, fixture.ReviewOptions{Defer: true})
		m := NewReview(ReviewConfig{Review: rv, Source: "drift.json"})
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 35})
		if v := m.View(); v.Content == "" {
			b.Fatal("nothing drawn")
		}
	}
}

// BenchmarkReviewFiles5000 is what follows the first screen, off the UI
// goroutine: read and hash the 5,000 fixture files, then (on the UI
// goroutine) apply the checks and build the items again.
func BenchmarkReviewFiles5000(b *testing.B) {
	dir := b.TempDir()
	data := reviewCorpus(b, dir, 5000)
	doc, err := fixture.DecodeReport("drift.json", data)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	cpu0 := processCPU()
	defer func() { b.ReportMetric(float64((processCPU()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op") }()
	for b.Loop() {
		b.StopTimer()
		rv := fixture.NewReview([]*fixture.ReportDoc{doc}, fixture.ReviewOptions{Defer: true})
		b.StartTimer()
		rv.ApplyFiles(rv.ReadFiles())
		if len(rv.Problems) > 0 {
			b.Fatal(rv.Problems[0])
		}
	}
}

// BenchmarkReviewKey5000 is one keypress on that report: move to the next
// item and draw the screen again; every 10th key is a decision (reject),
// which compares the touched fixture again.
func BenchmarkReviewKey5000(b *testing.B) {
	dir := b.TempDir()
	data := reviewCorpus(b, dir, 5000)
	doc, err := fixture.DecodeReport("drift.json", data)
	if err != nil {
		b.Fatal(err)
	}
	rv := fixture.NewReview([]*fixture.ReportDoc{doc}, fixture.ReviewOptions{})
	m := NewReview(ReviewConfig{Review: rv, Source: "drift.json"})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 35})
	m.View()
	if len(rv.Items) < 1000 {
		b.Fatalf("%d items", len(rv.Items))
	}
	down, reject := tea.KeyPressMsg{Code: 'j', Text: "j"}, tea.KeyPressMsg{Code: 'x', Text: "x"}
	i := 0
	b.ResetTimer()
	for b.Loop() {
		if m.items.cursor >= len(rv.Items)-1 {
			m.items.moveTo(0)
		}
		k := down
		if i%10 == 9 {
			k = reject
		}
		i++
		m.Update(k)
		if k == reject {
			m.Update(tea.KeyPressMsg{Code: tea.KeyEnter}) // the reason is optional
		}
		m.View()
	}
}

// processCPU is the CPU time the process has used, on every goroutine: a
// figure the other jobs on a shared machine do not inflate as they do the
// wall time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
