package ui

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/record"
)

// recordSessions writes recordings into dir as jig does, one a minute
// apart, each a demo server's handshake, and lists them.
func recordSessions(t *testing.T, dir string, targets ...string) []record.Session {
	t.Helper()
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	for i, target := range targets {
		at := t0.Add(time.Duration(i) * time.Minute)
		raw, _ := json.Marshal(session.Target{Transport: session.TransportStdio, Command: strings.Fields(target)})
		w, _, err := record.Start(record.Options{Dir: dir, Target: raw, Mode: "session", Label: "tools", Now: func() time.Time { return at }})
		if err != nil {
			t.Fatal(err)
		}
		log := frames.NewLog(func() time.Time { return at })
		log.AddSink(w)
		log.Append(frames.Frame{Dir: frames.ClientToServer, Raw: []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"jig","version":"0.1.0"}}}`)})
		log.Append(frames.Frame{Dir: frames.ServerToClient, Raw: []byte(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"server-` + string(rune('a'+i)) + `","version":"1.0"}}}`)})
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	list, err := record.List(dir)
	if err != nil || len(list) != len(targets) {
		t.Fatalf("record.List: %d sessions, %v", len(list), err)
	}
	return list
}

// pickerProbe records the picker's last screen.
type pickerProbe struct {
	*SessionPicker
	mu   *sync.Mutex
	last *string
}

func (p pickerProbe) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := p.SessionPicker.Update(msg)
	return p, cmd
}

func (p pickerProbe) View() tea.View {
	v := p.SessionPicker.View()
	p.mu.Lock()
	*p.last = ansi.Strip(v.Content)
	p.mu.Unlock()
	return v
}

// TestFlowSessionPicker: jig open without a file lists the recorded
// sessions newest first, with the server each handshake named, and enter
// opens the one selected.
func TestFlowSessionPicker(t *testing.T) {
	dir := t.TempDir()
	long := "node /home/dev/projects/a-rather-long-directory-name/servers/orders/dist/index.js --stdio"
	list := recordSessions(t, dir, "node first.js", "node second.js", long)
	p := pickerProbe{NewSessionPicker(dir, list, frames.NewRedactor()), &sync.Mutex{}, new(string)}
	tm := teatest.NewTestModel(t, p, teatest.WithInitialTermSize(120, 35))
	screen := func() string { p.mu.Lock(); defer p.mu.Unlock(); return *p.last }
	teatest.WaitFor(t, tm.Output(), func([]byte) bool {
		return strings.Contains(screen(), "3 recorded sessions, newest first") && strings.Contains(screen(), "server-a 1.0")
	}, teatest.WithDuration(screenWait), teatest.WithCheckInterval(10*time.Millisecond))
	s := screen()
	c, b, a := strings.Index(s, "server-c 1.0"), strings.Index(s, "server-b 1.0"), strings.Index(s, "server-a 1.0")
	if c < 0 || !(c < b && b < a) {
		t.Errorf("the sessions are not newest first:\n%s", s)
	}
	if !strings.Contains(s, "node /home/dev/") || !strings.Contains(s, "index.js --stdio") {
		t.Errorf("a long target is not shortened in the middle:\n%s", s)
	}
	for _, l := range strings.Split(s, "\n") {
		if ansi.StringWidth(l) > 120 {
			t.Errorf("a line is wider than the terminal: %q", l)
		}
	}
	tm.Send(tea.KeyPressMsg{Code: tea.KeyDown})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tm.WaitFinished(t, teatest.WithFinalTimeout(screenWait))
	if got := p.Chosen(); got != list[1].Path || !strings.Contains(got, dir) {
		t.Errorf("enter on the second row chose %q, want %q", got, list[1].Path)
	}
}

// TestSessionPickerEscChoosesNothing: esc leaves without a session.
func TestSessionPickerEscChoosesNothing(t *testing.T) {
	dir := t.TempDir()
	p := NewSessionPicker(dir, recordSessions(t, dir, "node a.js"), frames.NewRedactor())
	p.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if _, cmd := p.Update(tea.KeyPressMsg{Code: tea.KeyEscape}); cmd == nil || p.Chosen() != "" {
		t.Errorf("esc: chosen %q, quit %v", p.Chosen(), cmd != nil)
	}
}
