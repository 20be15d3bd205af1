package ui

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// probePane is a pane added the way doc.go says a pane is added: one type,
// its keys as actions, one line in the pane table.
type probePane struct {
	env       *paneEnv
	pokes     int
	connected bool
	reply     string
	focused   bool
	w, h      int
}

func newProbePane(env *paneEnv) *probePane { return &probePane{env: env} }

func (p *probePane) title() string         { return fmt.Sprintf("Probe (%d)", p.pokes) }
func (p *probePane) setSize(w, h int)      { p.w, p.h = w, h }
func (p *probePane) setFocus(focused bool) { p.focused = focused }
func (p *probePane) typing() bool          { return false }

func (p *probePane) actions() []action {
	return []action{
		on(bind([]string{"z"}, "z", "poke the probe"), does(func() { p.pokes++ })),
		on(bind([]string{"Z"}, "Z", "unpoke it"), does(func() { p.pokes-- })).only(p.pokes > 1, "it takes two pokes to unpoke"),
		on(bind([]string{"x"}, "x", "ask in the background"), func() tea.Cmd {
			return p.env.toSelf(func() tea.Msg { return "pong" })
		}),
	}
}

func (p *probePane) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case connectedEvent:
		p.connected = !msg.closed
	case string:
		p.reply = msg
	}
	return nil
}

func (p *probePane) view() string {
	return fmt.Sprintf("probe pane %dx%d\npoked %d\nconnected %v\nreply %q", p.w, p.h, p.pokes, p.connected, p.reply)
}

// TestAPaneIsOneLineInTheTable adds a pane with one line in the pane table
// and finds it everywhere a pane belongs: its number key, the title of the
// slot it shares, the tab bar, the footer, the help with what cannot be
// done now and why, its size, the session's events, and its own replies.
func TestAPaneIsOneLineInTheTable(t *testing.T) {
	saved := paneTable
	paneTable = append(paneTable[:len(paneTable):len(paneTable)], paneSpec{"Probe", slotLeft, build(newProbePane)})
	t.Cleanup(func() { paneTable = saved })

	f := start(t, demoConfig(1), 120, 35)
	f.waitFor("● connected", "Tools (6) ─", "5 Res · 6 Pro · 7 Pro ─")
	f.keys("7")
	f.waitFor("▸ 7 Probe (0)", "probe pane 28x30", "connected true", "z poke the probe")
	f.keys("z", "z", "x")
	f.waitFor("7 Probe (2)", `reply "pong"`)
	f.keys("Z", "Z")
	f.waitFor("Z: it takes two pokes to unpoke")
	f.keys("?")
	f.waitFor("Probe keys", "poke the probe", "Not now, and why", "unpoke it: it takes two pokes to unpoke")
	f.keys("esc", "1")
	f.waitFor("▸ 1 Tools (6) ─", "╰─ 5 Res · 6 Pro · 7 Pro ─")
	f.tm.Send(tea.WindowSizeMsg{Width: 80, Height: 24})
	f.keys("7")
	f.waitFor("7 Probe (1)", "probe pane 80x20")
}

// Keys that do nothing now say why, in the status line, instead of
// nothing happening.
func TestFlowKeysSayWhyNotNow(t *testing.T) {
	f := start(t, demoConfig(1), 120, 35)
	f.waitFor("● connected", "search_orders")
	f.keys("ctrl+x")
	f.waitFor("ctrl+x: no call is waiting for its response: there is nothing to cancel")
	f.keys("3", "P")
	f.waitFor("P: no call yet")
	f.keys("4", "c")
	f.waitFor("c: select a tools/call request or response")
}

// TestMessagesRouteThemselves: every message declared in messages.go names
// its handler (a route method), but for those addressed to one pane, which
// travel in a paneMsg. Commands return routed messages by construction (run
// takes a func() routed), so this is what remains to check.
func TestMessagesRouteThemselves(t *testing.T) {
	toPane := map[string]bool{"toolsIndexedMsg": true}
	f, err := parser.ParseFile(token.NewFileSet(), "messages.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	declared, routed := map[string]bool{}, map[string]bool{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			for _, s := range d.Specs {
				if ts, ok := s.(*ast.TypeSpec); ok && strings.HasSuffix(ts.Name.Name, "Msg") {
					declared[ts.Name.Name] = true
				}
			}
		case *ast.FuncDecl:
			if d.Recv != nil && d.Name.Name == "route" {
				if id, ok := d.Recv.List[0].Type.(*ast.Ident); ok {
					routed[id.Name] = true
				}
			}
		}
	}
	if len(declared) < 30 {
		t.Fatalf("found %d messages in messages.go; the parse is wrong", len(declared))
	}
	for name := range declared {
		if !routed[name] && !toPane[name] {
			t.Errorf("%s has no route method: Update would drop it (give it one in messages.go)", name)
		}
	}
}

// TestFunctionsAreAScreenLong keeps ui in the shape doc.go describes: each
// function about a screen (calling was 126 lines, key 79, the root's Update
// 68 before); split one by what it decides.
func TestFunctionsAreAScreenLong(t *testing.T) {
	const maxLines = 60
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				if n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; n > maxLines {
					t.Errorf("%s: %s is %d lines (at most %d): split it by what it decides", name, fd.Name.Name, n, maxLines)
				}
			}
		}
	}
}

// TestTheRootIsSmall keeps the root Model to the panes, the overlay and a
// few state structs (it had 50 fields): new state belongs in a pane or a
// state struct, not beside them.
func TestTheRootIsSmall(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "app.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	ast.Inspect(f, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok || ts.Name.Name != "Model" {
			return true
		}
		fields := 0
		for _, fl := range ts.Type.(*ast.StructType).Fields.List {
			fields += max(len(fl.Names), 1)
		}
		if fields > 18 {
			t.Errorf("the root Model has %d fields (at most 18): put new state in a pane or a state struct (doc.go)", fields)
		}
		return false
	})
}
