package ui

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpjig/jig/frames"
)

// The timeline names each call's arguments, the ones that tell calls of
// one tool apart first: two search_orders rows read alike before.
func TestTimelineShowsDistinguishingArguments(t *testing.T) {
	x := recordDemo(t, 1, storyCalls...)
	p := newFramesPane(testEnv(x))
	p.setSize(100, 30)
	p.setFocus(true)
	keys(p, "T")
	got := screen(p.view())
	for _, want := range []string{
		`search_orders customer="Acme Corp" since=2026-01-01 `,
		`search_orders limit=500 customer="Acme Corp" since=2026-01-01 `,
		"get_report ",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the timeline has no row with %q:\n%s", want, got)
		}
	}
	// The frames list shows them too, after the id.
	keys(p, "T")
	if got := screen(p.view()); !strings.Contains(got, `tools/call search_orders id=6 limit=500 customer="Acme Corp"`) {
		t.Errorf("the frames list has no arguments for the second search_orders:\n%s", got)
	}
}

// At 120 columns the frames list is 46 cells: after the offset, method,
// tool and id a call's arguments had no room, and two search_orders rows
// read alike. A list that narrow names a call by its tool, its arguments
// next (the id after them), and leaves the offset to the frame's header.
func TestNarrowFramesListShowsArguments(t *testing.T) {
	x := recordDemo(t, 1, storyCalls...)
	p := newFramesPane(testEnv(x))
	p.setSize(46, 30)
	p.setFocus(true)
	got := screen(p.view())
	for _, want := range []string{`→ request search_orders customer=…`, `→ request search_orders limit=500…`} {
		if !strings.Contains(got, want) {
			t.Errorf("the 46-cell frames list has no row with %q:\n%s", want, got)
		}
	}
	for _, row := range strings.Split(got, "\n") {
		if w := ansi.StringWidth(row); w > 46 {
			t.Errorf("row %q is %d cells wide", row, w)
		}
	}
	keys(p, "G")
	if got := screen(p.view()); !regexp.MustCompile(`─ #\d+ \+\d+\.\d{3}s [→←] `).MatchString(got) {
		t.Errorf("the selected frame's header does not give the offset the rows leave out:\n%s", got)
	}
}

// argsGists puts first the arguments whose values differ among the calls
// of one tool (or that some of them lack); one call alone keeps the order
// sent; calls of other tools do not count; a URI shows bare.
func TestArgsGists(t *testing.T) {
	args := map[int][]argKV{
		1: {{"customer", "acme"}, {"since", "2026"}},
		2: {{"customer", "acme"}, {"since", "2025"}},
		3: {{"customer", "acme"}, {"since", "2026"}, {"limit", "5"}},
		4: {{"customer", "zed"}},
		5: {{"", "demo://readme"}},
	}
	group := map[int]string{1: "search", 2: "search", 3: "search", 4: "other", 5: "read"}
	got := argsGists([]int{1, 2, 3, 4, 5}, func(i int) []argKV { return args[i] }, func(i int) string { return group[i] })
	want := map[int]string{
		1: "since=2026 customer=acme",
		2: "since=2025 customer=acme",
		3: "since=2026 limit=5 customer=acme",
		4: "customer=zed",
		5: "demo://readme",
	}
	for i, w := range want {
		if got[i] != w {
			t.Errorf("row %d: %q, want %q", i, got[i], w)
		}
	}
}

// requestArgs reads a call's arguments in the order sent, strings bare
// when plain and quoted when not, objects compact, a long value's middle
// left out.
func TestRequestArgs(t *testing.T) {
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"z":"a b","a":1,"o":{"k": [1, 2]},"s":"","n":null,"long":"` + strings.Repeat("x", 50) + `"}}}`
	got := requestArgs("tools/call", []byte(body))
	want := []argKV{{"z", `"a b"`}, {"a", "1"}, {"o", `{"k":[1,2]}`}, {"s", `""`}, {"n", "null"}, {"long", strings.Repeat("x", 15) + "…" + strings.Repeat("x", 16)}}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("arg %d: %v, want %v", i, got[i], want[i])
		}
	}
	if got := requestArgs("resources/read", []byte(`{"params":{"uri":"file:///a b"}}`)); len(got) != 1 || got[0].value != `"file:///a b"` {
		t.Errorf("resources/read: %v", got)
	}
	if got := requestArgs("tools/call", []byte(`{"params":{"name":"t","arguments":[1]}}`)); len(got) != 1 || got[0].value != "[1]" {
		t.Errorf("arguments that are not an object: %v", got)
	}
}

// A recording opened from a file reads bodies lazily: its stderr lines
// showed "← stderr |" with the text missing, and a filter missed them.
func TestRecordedStderrShowsItsText(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	tw, err := frames.CreateTranscript(path, frames.Header{Jig: "test", Started: time.Now(), Mode: "proxy"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	log := frames.NewLog(nil)
	log.AddSink(tw)
	log.Append(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindStderr, Raw: []byte("Starting default (STDIO) server...")})
	log.Append(frames.Frame{Dir: frames.ClientToServer, Raw: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)})
	tw.Close()
	x, err := frames.OpenIndexed(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	p := newFramesPane(testEnv(x))
	p.setSize(100, 20)
	p.setFocus(true)
	if got := screen(p.view()); !strings.Contains(got, "← stderr  | Starting default (STDIO) server...") {
		t.Errorf("the stderr row has no text:\n%s", got)
	}
	keys(p, "/", "stdio", "enter")
	if got := screen(p.view()); !strings.Contains(got, `1 of 2 frames · filter "stdio"`) {
		t.Errorf("a filter on the stderr text finds nothing:\n%s", got)
	}
}

// A word no row holds (a template's URI in its details) is cut where each
// row is full, the continuation under the hanging indent: the view's own
// wrap sent it to the left edge ("/text/{resourceId}").
func TestWrapHangingCutsAWordNoRowHolds(t *testing.T) {
	got := wrapHanging("uri  demo://resource/dynamic/text/{resourceId} (a template)", "     ", 28)
	lines := strings.Split(got, "\n")
	if strings.ReplaceAll(strings.Join(lines, ""), " ", "") != "uridemo://resource/dynamic/text/{resourceId}(atemplate)" {
		t.Errorf("text was lost: %q", got)
	}
	for i, l := range lines {
		if n := len([]rune(l)); n > 28 {
			t.Errorf("row %d is %d wide: %q", i, n, l)
		}
		if i > 0 && !strings.HasPrefix(l, "     ") {
			t.Errorf("row %d is not under the hanging indent: %q", i, l)
		}
	}
	if !strings.HasPrefix(lines[0], "uri demo://") {
		t.Errorf("the URI does not start beside its label: %q", lines[0])
	}
}

// changedLines marks the lines a diff would: not in a longest common
// subsequence, the common start and end left unmarked.
func TestChangedLines(t *testing.T) {
	for _, c := range []struct {
		a, b []string
		want []int
	}{
		{[]string{"x", "a", "b", "y"}, []string{"x", "a", "c", "y"}, []int{2}},
		{[]string{"x", "y"}, []string{"x", "new", "y"}, nil},
		{[]string{"x", "old", "y"}, []string{"x", "y"}, []int{1}},
		{[]string{"a", "b", "c", "d"}, []string{"b", "a", "d", "c"}, []int{1, 3}}, // one of the two longest
		{nil, []string{"a"}, nil},
		{[]string{"a"}, nil, []int{0}},
	} {
		got := changedLines(c.a, c.b)
		var idx []int
		for i := range c.a {
			if got[i] {
				idx = append(idx, i)
			}
		}
		if fmt.Sprint(idx) != fmt.Sprint(c.want) {
			t.Errorf("changedLines(%q, %q) marks %v, want %v", c.a, c.b, idx, c.want)
		}
	}
	var a, b docBuilder
	a.line(roleHeading, "head")
	a.line(rolePlain, "same\nold")
	b.line(roleHeading, "head")
	b.line(rolePlain, "same\nnew")
	d, _ := markChanges(a.doc(), b.doc())
	if d.gutter != 2 || len(d.marks) != 1 || d.marks[2].text != "- " {
		t.Errorf("marks: %v (gutter %d), want line 2 alone marked -", d.marks, d.gutter)
	}
	if d.roles[0] != roleHeading {
		t.Errorf("roles: %v", d.roles)
	}
	if sp := d.spans[2]; len(sp) != 1 || sp[0].from != 0 || sp[0].to != 3 {
		t.Errorf("spans of old against new: %v, want the whole word", sp)
	}
}

// Within a changed line, the words that changed are the spans: a value in
// a long line, not the whole line.
func TestChangedSpans(t *testing.T) {
	for _, c := range []struct{ a, b, wantA, wantB string }{
		{`    "count": 20,`, `    "count": 10,`, "20", "10"},
		{`→ search_orders {"customer":"Acme Corp","since":"2026-01-01","limit":500}`,
			`→ search_orders {"customer":"Acme Corp","since":"2026-01-01","limit":10}`, "500", "10"},
		{`"status": "shipped", "total": 12.5`, `"status": "dispatched", "total": 12.75`, "shipped|12.5", "dispatched|12.75"},
		{`{"a":1}`, `{"a":1,"b":2}`, "", `,"b":2`},
	} {
		as, bs := changedSpans(c.a, c.b)
		if got := cut(c.a, as); got != c.wantA {
			t.Errorf("changedSpans(%q, %q): A's spans %q, want %q", c.a, c.b, got, c.wantA)
		}
		if got := cut(c.b, bs); got != c.wantB {
			t.Errorf("changedSpans(%q, %q): B's spans %q, want %q", c.a, c.b, got, c.wantB)
		}
	}
}

func cut(s string, spans [][2]int) string {
	var parts []string
	for _, sp := range spans {
		parts = append(parts, s[sp[0]:sp[1]])
	}
	return strings.Join(parts, "|")
}

// A changed line keeps its mark on every row it wraps into, and its changed
// words are drawn reversed (which NO_COLOR keeps) on the row they fall on.
func TestComparedLineWrapsWithItsMark(t *testing.T) {
	var a, b docBuilder
	a.line(rolePlain, "same")
	a.line(rolePlain, `→ search_orders {"customer":"Acme Corp","since":"2026-01-01","limit":500}`)
	b.line(rolePlain, "same")
	b.line(rolePlain, `→ search_orders {"customer":"Acme Corp","since":"2026-01-01","limit":10}`)
	ad, bd := markChanges(a.doc(), b.doc())
	st := newStyles(true)
	for _, c := range []struct {
		d       *doc
		mark    string
		changed string
	}{{ad, "- ", "500"}, {bd, "+ ", "10"}} {
		v := textView{}
		v.setDoc(c.d)
		v.setSize(30, 10)
		out := v.view(st)
		rows := strings.Split(ansi.Strip(out), "\n")
		if len(rows) < 3 {
			t.Fatalf("the long line did not wrap at 30 cells:\n%s", ansi.Strip(out))
		}
		if !strings.HasPrefix(rows[0], "  same") {
			t.Errorf("an unchanged line is marked: %q", rows[0])
		}
		for _, r := range rows[1:] {
			if !strings.HasPrefix(r, c.mark) {
				t.Errorf("row %q of the changed line lacks its mark %q:\n%s", r, c.mark, strings.Join(rows, "\n"))
			}
			if w := ansi.StringWidth(r); w > 30 {
				t.Errorf("row %q is %d cells wide, wider than the view", r, w)
			}
		}
		if !strings.Contains(out, "\x1b[7") && !strings.Contains(out, ";7m") && !strings.Contains(out, ";7;") {
			t.Errorf("the changed word %q is not drawn reversed: %q", c.changed, out)
		}
		// The reversed part is the changed word alone.
		rev := st.removedSpan
		if c.mark == "+ " {
			rev = st.addedSpan
		}
		if !strings.Contains(out, rev.Render(c.changed)) {
			t.Errorf("the changed word %q is not drawn alone in its span style: %q", c.changed, out)
		}
		if strings.Contains(out, rev.Render("Acme")) || strings.Contains(ansi.Strip(out), "Acme Corp\"") && strings.Contains(out, rev.Render(`"customer"`)) {
			t.Errorf("unchanged words are drawn as changed: %q", out)
		}
	}
}
