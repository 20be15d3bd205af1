package ui

import (
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session"
)

// End-to-end flows run the whole Model in a Bubble Tea program against the
// demo server (or a server that fails), and wait for text on the screen.
// The v2 renderer writes only changed cells, so the screen is read from
// the model's last View (through probe), not from the output bytes.

// probe records the last screen the program drew.
type probe struct {
	*Model
	mu   *sync.Mutex
	last *string
}

func newProbe(m *Model) probe { return probe{Model: m, mu: &sync.Mutex{}, last: new(string)} }

func (p probe) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := p.Model.Update(msg)
	return p, cmd
}

func (p probe) View() tea.View {
	v := p.Model.View()
	p.mu.Lock()
	*p.last = ansi.Strip(v.Content)
	p.mu.Unlock()
	return v
}

func (p probe) screen() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return *p.last
}

type flow struct {
	t  *testing.T
	tm *teatest.TestModel
	p  probe
}

func start(t *testing.T, cfg Config, w, h int) *flow {
	t.Helper()
	m := New(cfg)
	p := newProbe(m)
	tm := teatest.NewTestModel(t, p, teatest.WithInitialTermSize(w, h))
	f := &flow{t: t, tm: tm, p: p}
	t.Cleanup(func() {
		tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
		tm.WaitFinished(t, teatest.WithFinalTimeout(screenWait))
		if err := m.Close(); err != nil {
			t.Logf("close: %v", err)
		}
	})
	return f
}

// screenWait bounds every wait for the screen or the session to show
// something. The waits end as soon as it shows, so the bound only says how
// long a broken flow takes to fail: it is generous, because under -race on a
// loaded 2-core machine a real server's answer, drawn, has taken over 10 s.
const screenWait = 2 * time.Minute

// waitFor waits until every text is on the screen.
func (f *flow) waitFor(texts ...string) {
	f.t.Helper()
	teatest.WaitFor(screenOnFailure{f.t, f.p, texts}, f.tm.Output(), func([]byte) bool {
		s := f.p.screen()
		for _, t := range texts {
			if !strings.Contains(s, t) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(screenWait), teatest.WithCheckInterval(10*time.Millisecond))
}

// screenOnFailure reports the last screen, ANSI stripped, instead of the
// renderer's byte stream when a wait fails.
type screenOnFailure struct {
	*testing.T
	p     probe
	texts []string
}

func (s screenOnFailure) Fatal(args ...any) {
	s.T.Helper()
	s.T.Fatalf("waited %s for %q; the screen is:\n%s", screenWait, s.texts, s.p.screen())
}

func (f *flow) keys(keys ...string) {
	for _, m := range press(keys...) {
		f.tm.Send(m)
	}
}

func demoConfig(release int) Config {
	return Config{Options: &session.Options{Target: session.Target{Transport: session.TransportDemo, Release: release}}}
}

func TestFlowSeedStory(t *testing.T) {
	f := start(t, demoConfig(1), 120, 35)
	f.waitFor("● connected", "jig-demo", "search_orders", "server/discover")
	// The last tool is search_orders; enter prefills its required
	// arguments only, and lists the optional ones beside them.
	f.keys("G", "enter")
	f.waitFor(`"customer": ""`, "optional: since, limit=10", "EDITING")
	f.keys("down", "end", "left", "Acme Corp", "end", ",", "enter", `  "since": 5`)
	f.waitFor("/since: got number, want string")
	f.keys("ctrl+s")
	f.waitFor("ctrl+s again")
	f.keys("ctrl+s")
	f.waitFor("sent despite 1 input-schema violation", "call 1/1", "tools/call id=")
	// The call's request and response are paired in the frames pane (at
	// 120 columns its rows name the call by its tool).
	f.waitFor("→ request search_orders", "← result  search_orders")

	// Now the widened call of the seed story: a date, and limit 500.
	f.keys("esc", "ctrl+r", "enter", "down", "end", "left", "Acme Corp", "end", ",", "enter", `  "since": "2026-01-01"`, "alt+o", "backspace", "backspace", "500", "ctrl+s")
	f.waitFor("call 2/2", "PARTIAL RESULT", "✓ ok")

	m := f.p.Model
	f.tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	f.tm.WaitFinished(t, teatest.WithFinalTimeout(screenWait))
	if len(m.calls().list) != 2 {
		t.Fatalf("the session has %d calls, want 2", len(m.calls().list))
	}
	first := m.calls().list[0]
	if first.ex == nil || first.ex.Request == nil || first.ex.Response == nil {
		t.Fatalf("call 1 has no paired frames: %+v", first.ex)
	}
	if !strings.Contains(string(first.ex.Request.Raw), `"since":5`) {
		t.Errorf("call 1 was not sent as typed (since: 5); the request frame is %s", first.ex.Request.Raw)
	}
	if log := m.cfg.Reader; log.Partner(int(first.ex.Request.Seq-1)) != int(first.ex.Response.Seq-1) {
		t.Errorf("the frames of call 1 are not paired in the log")
	}
	if !m.calls().list[1].isPartial() {
		t.Errorf("call 2 (limit 500) is not flagged partial")
	}
}

func TestFlowServerFailsToStart(t *testing.T) {
	cfg := Config{Options: &session.Options{
		Target: session.Target{Transport: session.TransportStdio, Command: []string{"sh", "-c", "echo 'boom: API_KEY is not set' >&2; exit 1"}},
		Log:    frames.NewLog(nil),
	}}
	f := start(t, cfg, 120, 35)
	f.waitFor("NOT CONNECTED", "boom: API_KEY is not set", "$ sh -c", "exit status 1", "r retr")
	n := cfg.Options.Log.Len()
	f.keys("r")
	teatest.WaitFor(t, f.tm.Output(), func([]byte) bool { return cfg.Options.Log.Len() > n && strings.Contains(f.p.screen(), "NOT CONNECTED") },
		teatest.WithDuration(screenWait), teatest.WithCheckInterval(10*time.Millisecond))
}

func TestFlowCommandNotFound(t *testing.T) {
	cfg := Config{Options: &session.Options{Target: session.Target{Transport: session.TransportStdio, Command: []string{"jig-no-such-server-anywhere"}}}}
	f := start(t, cfg, 80, 24)
	f.waitFor("NOT CONNECTED", "cannot find", "$ jig-no-such-server-anywhere")
}

func TestFlowResizeTo80x24(t *testing.T) {
	f := start(t, demoConfig(2), 200, 60)
	f.waitFor("╭─▸ 1 Tools (6)", "4 Frames")
	f.tm.Send(tea.WindowSizeMsg{Width: 80, Height: 24})
	f.waitFor(" 1 Tools (6)  2 Arguments  3 Result  4 Frames")
	s := f.p.screen()
	if lines := strings.Split(s, "\n"); len(lines) != 24 {
		t.Errorf("at 80×24 the screen has %d lines", len(lines))
	}
	f.keys("4")
	f.waitFor("frames", "server/discover")
}

// Every pane is named where the user looks for it: at 120 columns the
// panes that share the left slot are named in its bottom edge, by key and
// name (it read "1 Tools (6) · 5 · 6", and nobody could tell what 5 and 6
// were); at 80 the tab bar names them all.
func TestSlotNamesThePanesItShares(t *testing.T) {
	f := start(t, demoConfig(1), 120, 35)
	f.waitFor("╭─▸ 1 Tools (6) ─", "╰─ 5 Resources · 6 Prompts ─")
	f.keys("5")
	f.waitFor("╭─▸ 5 Resources (1) ─", "╰─ 1 Tools (6) · 6 Prompts ─")
	f.tm.Send(tea.WindowSizeMsg{Width: 80, Height: 24})
	f.waitFor("1 Tools (6)", "2 Arguments", "3 Result", "4 Frames (", "5 Resources (1)", "6 Prompts")
}

func TestFlowHelp(t *testing.T) {
	f := start(t, demoConfig(1), 120, 35)
	f.waitFor("search_orders")
	f.keys("?")
	f.waitFor("Tools keys", "edit arguments for this tool", "Everywhere", "server info & instructions")
	f.keys("esc", "4", "?")
	f.waitFor("Frames keys", "jump request ↔ response", "filter kind")
	f.keys("esc", "i")
	f.waitFor("Instructions", "jig-demo is jig's built-in demo server")
}
