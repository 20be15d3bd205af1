package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/replay"
)

// reviewFixtures pins, against the demo server's release 1, two searches
// (release 2 changes search_orders' definition and renames customer_name)
// and get_report without its request_id rules (the noise to turn into a
// rule) into dir.
func reviewFixtures(t *testing.T, dir string) {
	t.Helper()
	ctx := context.Background()
	target := session.Target{Transport: session.TransportDemo, Release: 1}
	s, err := session.Open(ctx, session.Options{Target: target})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, p := range []struct{ tool, args, file string }{
		{"search_orders", `{"customer":"Acme Corp","since":"2026-01-01","limit":500}`, "search-acme.json"},
		{"search_orders", `{"customer":"Globex","since":"2026-01-01"}`, "search-globex.json"},
		{"get_report", `{}`, "report.json"},
	} {
		ex, err := s.CallTool(ctx, p.tool, json.RawMessage(p.args))
		if err != nil {
			t.Fatal(err)
		}
		f, err := replay.Pin(ctx, s, ex, replay.PinOptions{Scenario: strings.TrimSuffix(p.file, ".json"), Target: target})
		if err != nil {
			t.Fatal(err)
		}
		if p.tool == "get_report" {
			// Its request_id rules go (generated_at's stay: it differs
			// only when the second turns between pin and replay).
			var keep []fixture.Rule
			for _, r := range f.Rules {
				if !strings.Contains(r.Path, "request_id") {
					keep = append(keep, r)
				}
			}
			f.Rules = keep
		}
		if err := f.Save(filepath.Join(dir, p.file)); err != nil {
			t.Fatal(err)
		}
	}
}

// replayDir replays dir against release 2 and returns its report as review
// reads it.
func replayDir(t *testing.T, dir string) *fixture.ReportDoc {
	t.Helper()
	cases, errs := replay.Load(dir)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	outs := replay.Run(context.Background(), cases, replay.Options{Override: &replay.Override{Target: session.Target{Transport: session.TransportDemo, Release: 2}}})
	var reps []fixture.Report
	for _, o := range outs {
		if o.Err != nil {
			t.Fatal(o.Err)
		}
		reps = append(reps, o.Report)
	}
	var b bytes.Buffer
	if err := fixture.NewRun(reps).WriteJSON(&b, nil); err != nil {
		t.Fatal(err)
	}
	doc, err := fixture.DecodeReport("drift.json", b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func outcomes(doc *fixture.ReportDoc) map[string]string {
	out := map[string]string{}
	for _, s := range doc.Scenarios {
		out[s.Scenario] = s.Outcome
	}
	return out
}

var reviewAt = func() time.Time { return time.Date(2026, 12, 1, 13, 0, 0, 0, time.UTC) }

// The panes, drawn directly at a fixed size: the items grouped by what they
// are (one tool-definition item for both searches), and the selected
// item's hunks side by side with the changed span marked.
func TestReviewPanes(t *testing.T) {
	dir := t.TempDir()
	reviewFixtures(t, dir)
	rv := fixture.NewReview([]*fixture.ReportDoc{replayDir(t, dir)}, fixture.ReviewOptions{By: "Ana", Now: reviewAt})
	m := NewReview(ReviewConfig{Review: rv, Source: "drift.json"})
	m.resize(120, 35)
	t.Run("items", func(t *testing.T) { golden.RequireEqual(t, screen(m.items.view())) })
	// search-globex: its own drift, the rename, side by side.
	m.items.moveTo(3)
	m.toggleFocus()
	t.Run("detail", func(t *testing.T) {
		out := m.detail.view()
		// generated_at and request_id differ from run to run: the golden
		// is of search-globex, which has neither.
		golden.RequireEqual(t, screen(strings.ReplaceAll(out, dir+string(filepath.Separator), "")))
	})
	if why := keys(m.detail, "k"); !strings.Contains(why, "at the first hunk") {
		t.Errorf("k at the first hunk: %q", why)
	}
}

// A teatest flow against the demo server's release 2 drift: accept the tool
// definition and one search with a reason, reject the other, turn the
// report's request_id into rules, confirm; then the same replay is green
// for the accepted and the ruled scenarios, red for the rejected.
func TestReviewFlow(t *testing.T) {
	dir := t.TempDir()
	reviewFixtures(t, dir)
	doc := replayDir(t, dir)
	if o := outcomes(doc); o["search-acme"] != "breaking" || o["search-globex"] != "breaking" || o["report"] != "breaking" {
		t.Fatalf("before review: %v", o)
	}
	rv := fixture.NewReview([]*fixture.ReportDoc{doc}, fixture.ReviewOptions{By: "Ana <ana@example.com>", Now: reviewAt})
	m := NewReview(ReviewConfig{Review: rv, Source: "drift.json"})
	p := newReviewProbe(m)
	tm := teatest.NewTestModel(t, p, teatest.WithInitialTermSize(120, 35))
	f := &flow{t: t, tm: tm, p: p.probe}
	f.waitFor("Items (4)", "search_orders ×2", "pending")

	// Accept the tool definition: enter does nothing until a reason is typed.
	f.keys("a")
	f.waitFor("Accept tool:search_orders", "reason:")
	f.keys("enter")
	f.waitFor("type a reason first")
	f.keys("v2 renames customer_name to customer", "enter")
	f.waitFor("tool:search_orders: accepted", "1 decided")

	// The cursor moved on to the next undecided item: report. Its hunks are
	// the request_id noise.
	f.waitFor("report: the response drifted")
	for range 2 {
		if m.items.selected().Key != "report" || len(rv.Hunks(m.items.selected())) == 0 {
			break
		}
		h := m.detail.hunk()
		if !strings.Contains(h.Path, "request_id") {
			t.Fatalf("unexpected hunk in report: %+v", h)
		}
		f.keys("u")
		f.waitFor("Make it a rule", "with it:")
		f.keys("enter")
		f.waitFor("added;")
	}
	if n := len(m.items.selected().Rules); n != 2 {
		t.Errorf("%d rules, want 2 (request_id in the text and in structuredContent)", n)
	}
	if left := rv.Hunks(m.items.selected()); m.items.selected().Key == "report" && len(left) > 0 {
		t.Fatalf("report still drifts after its rules: %+v", left)
	}
	f.keys("j")
	f.waitFor("search-acme: the response drifted")
	f.keys("a")
	f.waitFor("Accept search-acme", "enter reuses the last reason: v2 renames customer_name to customer") // offered again
	// The drift was replayed against release 2, not the fixtures' own
	// target: the dialog says so, and ctrl+r points search-acme at it.
	f.waitFor("replayed against demo server (release 2), not the fixtures' own target:", "they keep their own target (demo server)")
	f.keys("ctrl+r")
	f.waitFor("they are retargeted to demo server (release 2)")
	// Typing replaces the offered reason (it was appended to it).
	f.keys("v2 desc", "enter")
	f.waitFor("search-acme: accepted")
	if it, err := rv.Find("search-acme"); err != nil {
		t.Error(err)
	} else if it.Reason != "v2 desc" {
		t.Errorf("search-acme's reason is %q, want what was typed: \"v2 desc\"", it.Reason)
	}
	f.keys("j", "x")
	f.waitFor("Reject search-globex", "marked a known regression", "reason (optional")
	f.keys("billing reads shipped (#412)", "enter")
	f.waitFor("search-globex: rejected")

	// The summary says what will be written; nothing is until enter.
	before, _ := os.ReadFile(filepath.Join(dir, "search-acme.json"))
	f.keys("c")
	f.waitFor("Summary", "accepted (2):", "rejected (marked a known regression; stays red) (1):", "turned into rules (1):", "enter writes 3 files",
		"retargeted to demo server (release 2), where its drift was replayed", "target unchanged: the accepted drift is demo server (release 2)'s")
	if now, _ := os.ReadFile(filepath.Join(dir, "search-acme.json")); !bytes.Equal(before, now) {
		t.Fatal("a fixture was written before the user confirmed")
	}
	f.keys("enter")
	tm.WaitFinished(t, teatest.WithFinalTimeout(screenWait))
	if !m.Confirmed() {
		t.Fatal("enter in the summary must confirm")
	}
	changes, err := rv.Changes()
	if err != nil {
		t.Fatal(err)
	}
	if _, errs := rv.Write(changes); len(errs) > 0 {
		t.Fatal(errs)
	}
	acme, err := fixture.Load(filepath.Join(dir, "search-acme.json"))
	if err != nil {
		t.Fatal(err)
	}
	if h := acme.History[len(acme.History)-1]; acme.Target.Release != 2 || h.RetargetedFrom != "demo server" {
		t.Errorf("search-acme must be retargeted to release 2: target %+v, history %+v", acme.Target, acme.History)
	}
	if globex, _ := fixture.Load(filepath.Join(dir, "search-globex.json")); globex == nil || globex.Target.Release == 2 {
		t.Error("search-globex's tool definition was accepted without ctrl+r: it keeps its own target")
	}
	again := replayDir(t, dir)
	after := outcomes(again)
	if after["search-acme"] != "ok" || after["report"] != "ok" || after["search-globex"] != "breaking" {
		t.Errorf("after review: %v (want acme and report ok, globex breaking)", after)
	}
	for _, s := range again.Scenarios {
		if s.Scenario == "search-globex" {
			if k := s.KnownPart(fixture.PartResponse); s.KnownDrift != fixture.KnownSame || k == nil || k.Reason != "billing reads shipped (#412)" || k.By != "Ana <ana@example.com>" {
				t.Errorf("the rejected drift replayed again must be the known regression: %q %+v", s.KnownDrift, k)
			}
		}
	}
}

// ctrl+c (or q, then y) ends the review with nothing confirmed, so nothing
// is written.
func TestReviewQuitConfirmsNothing(t *testing.T) {
	dir := t.TempDir()
	reviewFixtures(t, dir)
	rv := fixture.NewReview([]*fixture.ReportDoc{replayDir(t, dir)}, fixture.ReviewOptions{By: "Ana", Now: reviewAt})
	m := NewReview(ReviewConfig{Review: rv, Source: "drift.json"})
	p := newReviewProbe(m)
	tm := teatest.NewTestModel(t, p, teatest.WithInitialTermSize(80, 24))
	f := &flow{t: t, tm: tm, p: p.probe}
	f.waitFor("Items (4)")
	f.keys("j", "x", "enter")
	f.waitFor("rejected")
	f.keys("q")
	f.waitFor("Quit without writing?")
	f.keys("y")
	tm.WaitFinished(t, teatest.WithFinalTimeout(screenWait))
	if m.Confirmed() {
		t.Error("quitting must not confirm")
	}
}

// reviewProbe keeps the last screen drawn, ANSI stripped, for waitFor.
type reviewProbe struct {
	m *ReviewModel
	probe
}

func newReviewProbe(m *ReviewModel) reviewProbe {
	return reviewProbe{m: m, probe: newScreenProbe()}
}

func (p reviewProbe) Init() tea.Cmd { return p.m.Init() }
func (p reviewProbe) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := p.m.Update(msg)
	return p, cmd
}
func (p reviewProbe) View() tea.View {
	v := p.m.View()
	p.probe.keep(v.Content)
	return v
}

func newScreenProbe() probe { return probe{mu: &sync.Mutex{}, last: new(string)} }

func (p probe) keep(content string) {
	p.mu.Lock()
	*p.last = ansi.Strip(content)
	p.mu.Unlock()
}

// Opened without reading its fixture files (as jig review's TUI opens), the
// review draws its first screen from the report alone and checks the files
// from Init, off the UI goroutine: a fixture edited since the report is
// then refused, and a decision made meanwhile is kept.
func TestReviewChecksFilesAfterFirstScreen(t *testing.T) {
	dir := t.TempDir()
	reviewFixtures(t, dir)
	doc := replayDir(t, dir)
	globex := filepath.Join(dir, "search-globex.json")
	f, err := fixture.Load(globex)
	if err != nil {
		t.Fatal(err)
	}
	f.Note = "edited after the report"
	if err := f.Save(globex); err != nil {
		t.Fatal(err)
	}
	rv := fixture.NewReview([]*fixture.ReportDoc{doc}, fixture.ReviewOptions{By: "Ana", Now: reviewAt, Defer: true})
	m := NewReview(ReviewConfig{Review: rv, Source: "drift.json"})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 35})
	first := ansi.Strip(m.View().Content)
	if !strings.Contains(first, "checking the fixture files…") || strings.Contains(first, "refused") {
		t.Fatalf("first screen:\n%s", first)
	}
	acme, err := rv.Find("search-acme")
	if err != nil {
		t.Fatal(err)
	}
	if err := rv.Decide(acme, fixture.ActionReject, ""); err != nil {
		t.Fatal(err)
	}
	var checked tea.Msg
	batch, ok := m.Init()().(tea.BatchMsg)
	if !ok {
		t.Fatal("Init does not read the files")
	}
	for _, c := range batch {
		if msg, ok := c().(reviewFilesMsg); ok {
			checked = msg
		}
	}
	if checked == nil {
		t.Fatal("no reviewFilesMsg from Init")
	}
	m.Update(checked)
	after := ansi.Strip(m.View().Content)
	if strings.Contains(after, "checking the fixture files") || !strings.Contains(after, "1 fixture refused") ||
		!strings.Contains(after, "1 fixture changed since the report") {
		t.Fatalf("after the check:\n%s", after)
	}
	g, err := rv.Find("search-globex")
	if err != nil || g.Kind != fixture.ItemRefused {
		t.Fatalf("search-globex: %+v %v", g, err)
	}
	if a, _ := rv.Find("search-acme"); a.Status() != "rejected" {
		t.Errorf("the decision made before the check: %s", a.Status())
	}
	if !rv.Checked() || len(rv.Problems) != 1 || !strings.Contains(rv.Problems[0], "search-globex.json") {
		t.Errorf("problems: %v", rv.Problems)
	}
}

// A hunk that groups the same drift in some items of a list (status
// "shipped" → "dispatched" in a few orders of many) is never offered a
// one-of over every item ("*"): it would fail on the items that did not
// drift. No proposal of a hunk leaves more hunks than there were.
func TestReviewProposalsNeverAddHunks(t *testing.T) {
	dir := t.TempDir()
	reviewFixtures(t, dir)
	rv := fixture.NewReview([]*fixture.ReportDoc{replayDir(t, dir)}, fixture.ReviewOptions{By: "Ana", Now: reviewAt})
	grouped := 0
	for _, it := range rv.Items {
		hunks := rv.Hunks(it)
		for _, h := range hunks {
			if h.More == 0 {
				continue
			}
			grouped++
			for _, p := range fixture.Propose(h, "") {
				if p.Assertion != nil && p.Assertion.Op == fixture.OpOneOf && strings.Contains(p.Assertion.Path, "*") {
					t.Errorf("%s: hunk %s (%d more) is offered %s", it.Key, h.Pointer, h.More, p.Assertion.Path)
				}
				if err := rv.AddRule(it, p); err != nil {
					continue
				}
				if after := len(rv.Hunks(it)); after > len(hunks) {
					t.Errorf("%s: %+v leaves %d hunks, there were %d", it.Key, p, after, len(hunks))
				}
				rv.UndoRule(it)
			}
		}
	}
	if grouped == 0 {
		t.Fatal("no hunk groups drift in several items: the test proves nothing")
	}
}

// A call whose flow drifted (release 2's cancel_order asks its client for a
// reason): the detail pane shows the input hunk with both sides and why;
// u says no rule holds it instead of opening an empty dialog; an accept
// leaves no drift.
func TestReviewFlowDriftPane(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	target := session.Target{Transport: session.TransportDemo, Release: 1}
	s, err := session.Open(ctx, session.Options{Target: target, Capabilities: []string{"elicitation"}})
	if err != nil {
		t.Fatal(err)
	}
	ex, err := s.CallTool(ctx, "cancel_order", json.RawMessage(`{"order_id":"ord-1054"}`))
	if err != nil {
		t.Fatal(err)
	}
	f, err := replay.Pin(ctx, s, ex, replay.PinOptions{Scenario: "cancel", Target: target})
	s.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Save(filepath.Join(dir, "cancel.json")); err != nil {
		t.Fatal(err)
	}
	rv := fixture.NewReview([]*fixture.ReportDoc{replayDir(t, dir)}, fixture.ReviewOptions{By: "Ana", Now: reviewAt})
	m := NewReview(ReviewConfig{Review: rv, Source: "drift.json"})
	m.resize(80, 24)
	out := screen(m.render())
	for _, want := range []string{"cancel: what the call asks of its cli", "input · rounds", "an input_required", "elicitation/create {reason}", "\"round 1 reason:"} {
		if !strings.Contains(out, want) {
			t.Errorf("the screen lacks %q:\n%s", want, out)
		}
	}
	if _, why := pressKey(m.appActions(), false, func(tea.Msg) tea.Cmd { return nil }, press("u")[0].(tea.KeyPressMsg)); m.dialog != nil || !strings.Contains(why, "no rule holds what a call asks of its client") {
		t.Errorf("u on an input hunk: dialog %v, why %q", m.dialog, why)
	}
	m.resize(120, 35)
	if out := screen(m.render()); !strings.Contains(out, "asks now: round 1 reason: elicitation/create: Why is order ord-1054 being") {
		t.Errorf("the hunk does not say what the call asks now, in words:\n%s", out)
	}
	m.resize(80, 24)
	m.openRule() // called anyway: it says so too, rather than open an empty dialog
	if m.dialog != nil || !strings.Contains(m.status, "no rule holds what a call asks of its client") {
		t.Errorf("openRule on an input hunk: dialog %v, status %q", m.dialog, m.status)
	}
	m.openAccept()
	if out := screen(m.render()); !strings.Contains(out, "what the call asks of its client now") {
		t.Errorf("the accept dialog does not say what is pinned:\n%s", out)
	}
	m.dialog = nil
	m.decide(fixture.ActionAccept, "release 2 asks why")
	m.items.moveTo(0)
	if out := screen(m.render()); !strings.Contains(out, "no drift left with your decisions") {
		t.Errorf("after the accept:\n%s", out)
	}
}
