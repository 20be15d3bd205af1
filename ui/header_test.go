package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session"
)

const everythingCommand = "node /root/.cache/jig/peers/node_modules/@modelcontextprotocol/server-everything/dist/index.js stdio"

func liveHeader(name, version string, w int) []string {
	h := header{st: newStyles(true), red: frames.NewRedactor(), state: stateConnected, target: everythingCommand, width: w,
		info: session.Info{Transport: session.TransportStdio, ProtocolVersion: "2025-06-18", Era: "legacy", ServerName: name, ServerVersion: version}}
	return strings.Split(ansi.Strip(h.view()), "\n")
}

// TestHeaderStateAndProtocolComeFirst: with a long stdio command the
// connection state and the protocol are still on the first line, first, at
// every width; the command is shortened in the middle, keeping its start
// and the file it runs, instead of cutting what comes after it.
func TestHeaderStateAndProtocolComeFirst(t *testing.T) {
	for _, w := range []int{80, 120, 200} {
		l := liveHeader("mcp-servers/everything", "2.0.0", w)[0]
		if ansi.StringWidth(l) > w {
			t.Errorf("at %d columns the header is %d cells wide: %q", w, ansi.StringWidth(l), l)
		}
		want := []string{"jig · ● connected · protocol 2025-06-18 (legacy era) · ", "node /", "stdio", "everything"}
		if w < 120 {
			want = []string{"jig · ● connected · 2025-06-18 (legacy) · mcp-servers/everything 2.0.0"}
		}
		for _, want := range want {
			if !strings.Contains(l, want) {
				t.Errorf("at %d columns the header has no %q: %q", w, want, l)
			}
		}
		if strings.HasSuffix(l, "…") {
			t.Errorf("at %d columns the header is cut at its end: %q", w, l)
		}
	}
	if l := liveHeader("mcp-servers/everything", "2.0.0", 200)[0]; !strings.Contains(l, everythingCommand) {
		t.Errorf("at 200 columns the command is shortened although it fits: %q", l)
	}
}

// TestHeaderSaysNoVersionAsTheCLIDoes: a server that sends an empty
// version is shown with "(no version)", as jig tools and --frames print it.
func TestHeaderSaysNoVersionAsTheCLIDoes(t *testing.T) {
	if l := liveHeader("bare-server", "", 120)[0]; !strings.Contains(l, "bare-server (no version)") {
		t.Errorf("the header for an empty version is %q", l)
	}
	if l := liveHeader("", "", 120)[0]; !strings.Contains(l, "(no name) (no version)") {
		t.Errorf("the header for an empty name and version is %q", l)
	}
	info := session.Info{ServerName: "bare-server", Transport: session.TransportStdio, ProtocolVersion: "2025-06-18", Era: "legacy"}
	if d := string(infoDoc(info, 80).data); !strings.Contains(d, "bare-server (no version)") {
		t.Errorf("the server-info overlay for an empty version says:\n%s", d)
	}
}

// TestReadOnlyHeaderNamesWhoSpoke: jig open's header names the server and
// the protocol the recording's handshake settled on.
func TestReadOnlyHeaderNamesWhoSpoke(t *testing.T) {
	m := New(Config{Reader: storyLog(), Title: "story.jsonl"})
	for _, w := range []int{80, 120} {
		m.hdr.setSize(w)
		l := strings.Split(ansi.Strip(m.hdr.view()), "\n")[0]
		for _, want := range []string{"read-only", "story.jsonl", "11 frames", "2025-11-25", "server orders 2.1.0"} {
			if !strings.Contains(l, want) {
				t.Errorf("at %d columns the read-only header has no %q: %q", w, want, l)
			}
		}
	}
}

// TestCatalogRowsKeepTheirEnds: resource URIs that share a long prefix
// are shortened in the middle, so each row still says which one it is.
func TestCatalogRowsKeepTheirEnds(t *testing.T) {
	var rows []catalogRow
	for _, n := range []string{"architecture.md", "extension.md", "features.md", "how-it-works.md"} {
		rows = append(rows, catalogRow{name: "demo://resource/static/document/" + n})
	}
	out := ansi.Strip(drawCatalog(newStyles(true), rows, listWindow{height: len(rows)}, 28, false))
	seen := map[string]bool{}
	for _, l := range strings.Split(strings.Trim(out, "\n"), "\n")[:len(rows)] {
		if seen[l] || ansi.StringWidth(l) > 28 {
			t.Errorf("row %q is a repeat or wider than 28 cells:\n%s", l, out)
		}
		seen[l] = true
	}
	if !strings.Contains(out, "chitecture.md") || !strings.Contains(out, "w-it-works.md") {
		t.Errorf("the rows lost the ends of their URIs:\n%s", out)
	}
}

// Two resource templates that differ in their middle read alike once the
// middle is cut (demo://resou…/{resourceId} twice): the cut keeps the part
// no other row shares. Every cut name is distinct and fits.
func TestCatalogRowsKeepWhatTellsThemApart(t *testing.T) {
	templates := []catalogRow{{name: "demo://resource/dynamic/text/{resourceId}"}, {name: "demo://resource/dynamic/blob/{resourceId}"}}
	out := ansi.Strip(drawCatalog(newStyles(true), templates, listWindow{height: 2}, 28, false))
	for _, want := range []string{"text/{resourceId}", "blob/{resourceId}", "demo:"} {
		if !strings.Contains(out, want) {
			t.Errorf("the template rows lost %q:\n%s", want, out)
		}
	}
	if !strings.Contains(ansi.Strip(drawCatalog(newStyles(true), []catalogRow{{name: "demo://resource/static/document/architecture.md"}, {name: "demo://resource/static/document/extension.md"}},
		listWindow{height: 2}, 28, false)), "architecture.md") {
		t.Errorf("a document's name is cut")
	}
	lists := [][]string{
		{"file:///srv/projects/alpha/reports/2026/q1/summary.txt", "file:///srv/projects/beta/reports/2026/q1/summary.txt", "file:///srv/projects/alpha/reports/2026/q2/summary.txt"},
		{"x://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1", "x://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa2", "y"},
		{"ab", "abcdefghijklmnopqrstuvwxyz0123456789abcdefghij", "abcdefghijklmnopqrstuvwxyz0123456789abcdefghik"},
		{"demo://resource/dynamic/text/{resourceId}", "demo://resource/dynamic/text/{resourceId}/extra/long/tail/part"},
	}
	for _, names := range lists {
		var rows []catalogRow
		for _, n := range names {
			rows = append(rows, catalogRow{name: n})
		}
		for w := 6; w <= 50; w++ {
			seen := map[string]string{}
			for i := range rows {
				got := distinctCut(len(rows), i, func(j int) string { return rows[j].name }, w)
				if ansi.StringWidth(got) > w {
					t.Errorf("distinctCut(%q, %d) = %q, wider than %d", names[i], w, got, w)
				}
				if other, ok := seen[got]; ok && w >= 20 {
					t.Errorf("at %d cells %q and %q both read %q", w, other, names[i], got)
				}
				seen[got] = names[i]
			}
		}
	}
}

// The second line cut jig's side and the i hint at 120 columns
// ("jig: roots (none), samp…"): the server's sub-features go first, then
// the i hint stays.
func TestHeaderSecondLineKeepsJigsSide(t *testing.T) {
	caps := `{"completions":{},"logging":{},"prompts":{"listChanged":true},"resources":{"listChanged":true,"subscribe":true},"tools":{"listChanged":true}}`
	h := header{st: newStyles(true), red: frames.NewRedactor(), state: stateConnected, target: everythingCommand,
		info: session.Info{Transport: session.TransportStdio, ProtocolVersion: "2025-06-18", Era: "legacy", ServerName: "mcp-servers/everything", ServerVersion: "2.0.0",
			ServerCapabilities: json.RawMessage(caps), Instructions: "read me"}}
	for _, c := range []struct {
		w    int
		want string
	}{
		{200, "server: completions, logging, prompts(listChanged), resources(listChanged, subscribe), tools(listChanged)  jig: "},
		{120, "server: completions, logging, prompts, resources(subscribe), tools  jig: "},
		{90, "server: completions, logging, prompts, resources, tools  jig: "},
	} {
		h.width = c.w
		l := strings.Split(ansi.Strip(h.view()), "\n")[1]
		if !strings.Contains(l, c.want) || !strings.HasSuffix(strings.TrimRight(l, " "), "· i: instructions") || ansi.StringWidth(l) > c.w {
			t.Errorf("at %d columns the second line is %q, want %q in it, the i hint at its end", c.w, l, c.want)
		}
	}
}
