package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcpjig/jig/frames"
)

func clock(t time.Time) func() time.Time { return func() time.Time { return t } }

func TestForLogWritesEachFrameRedacted(t *testing.T) {
	dir := t.TempDir()
	at := time.Date(2026, 11, 30, 23, 59, 1, 0, time.Local)
	log := frames.NewLog(nil)
	path, closer, err := ForLog(log, Options{Dir: dir, Target: json.RawMessage(`{"transport":"demo","release":1}`), Label: "search",
		Mode: "session", Secrets: []string{"hunter2-secret"}, Now: clock(at)})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "2026-11-30T23-59-01_demo_search.jsonl"); path != want {
		t.Errorf("path = %s, want %s", path, want)
	}
	log.Append(frames.Frame{Dir: frames.ClientToServer, Raw: []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{"pw":"hunter2-secret"}}}`)})
	// The frame reaches the disk while the session goes on, without a
	// Close: the queue's writer writes as soon as it is given something.
	var b []byte
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
		b, _ = os.ReadFile(path)
		if n := bytes.Count(b, []byte("\n")); n == 2 || time.Now().After(deadline) {
			break
		}
	}
	if n := bytes.Count(b, []byte("\n")); n != 2 {
		t.Fatalf("a minute after one frame the file has %d lines, want 2 (header, frame):\n%s", n, b)
	}
	if bytes.Contains(b, []byte("hunter2-secret")) || !bytes.Contains(b, []byte("[REDACTED:value]")) {
		t.Errorf("the secret reached the file, or was not replaced by its placeholder:\n%s", b)
	}
	if err := closer(); err != nil {
		t.Fatal(err)
	}
	// A second session in the same second gets its own file.
	_, path2, err := Start(Options{Dir: dir, Target: json.RawMessage(`{"transport":"demo"}`), Label: "search", Now: clock(at)})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(path2, "_demo_search-2.jsonl") {
		t.Errorf("second path = %s, want a -2 suffix", path2)
	}
}

func TestForLogDisabled(t *testing.T) {
	path, closer, err := ForLog(frames.NewLog(nil), Options{Disabled: true})
	if path != "" || err != nil || closer() != nil {
		t.Errorf("disabled: path %q err %v; want nothing recorded", path, err)
	}
}

func TestStateDir(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/xdg")
	if d, _ := StateDir(); d != "/xdg/jig/sessions" {
		t.Errorf("StateDir with XDG_STATE_HOME = %s", d)
	}
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("HOME", "/home/u")
	if d, _ := StateDir(); d != "/home/u/.local/state/jig/sessions" {
		t.Errorf("StateDir without XDG_STATE_HOME = %s", d)
	}
}

func TestFileSlug(t *testing.T) {
	tests := []struct{ target, label, want string }{
		{`{"transport":"demo"}`, "search", "demo_search"},
		{`{"transport":"stdio","command":["node","/x/node_modules/@modelcontextprotocol/server-everything/dist/index.js","stdio"]}`, "", "server-everything"},
		{`{"transport":"stdio","command":["npx","-y","@modelcontextprotocol/server-filesystem","/tmp"]}`, "", "server-filesystem"},
		{`{"transport":"stdio","command":["uvx","mcp-server-git"]}`, "", "mcp-server-git"},
		{`{"transport":"http","url":"http://127.0.0.1:3901/mcp"}`, "", "127.0.0.1-3901_mcp"},
		{`{}`, "", "session"},
		{`{"transport":"stdio","command":["./weird name;rm -rf"]}`, "", "weird-name-rm--rf"},
	}
	for _, tt := range tests {
		if got := fileSlug(json.RawMessage(tt.target), tt.label); got != tt.want {
			t.Errorf("fileSlug(%s, %q) = %q, want %q", tt.target, tt.label, got, tt.want)
		}
	}
}

func TestListAndPrune(t *testing.T) {
	dir := t.TempDir()
	base := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	var paths []string
	for i := range 4 {
		log := frames.NewLog(nil)
		path, closer, err := ForLog(log, Options{Dir: dir, Target: json.RawMessage(`{"transport":"stdio","command":["srv"]}`), Mode: "proxy", Now: clock(base.Add(time.Duration(i) * 24 * time.Hour))})
		if err != nil {
			t.Fatal(err)
		}
		for range i + 1 {
			log.Append(frames.Frame{Dir: frames.ClientToServer, Raw: []byte(`{"jsonrpc":"2.0","method":"x","params":{"s":"{\"type\":\"frame\""}}`)})
		}
		closer()
		paths = append(paths, path)
	}
	os.WriteFile(filepath.Join(dir, "notes.jsonl"), []byte("{\"a\":1}\n"), 0o600) // not a transcript: never listed or pruned
	list, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 4 {
		t.Fatalf("List found %d sessions, want 4: %+v", len(list), list)
	}
	for i, s := range list {
		if s.Path != paths[3-i] || s.Frames != 4-i || s.Target != "srv" || s.Mode != "proxy" || s.Size == 0 {
			t.Errorf("list[%d] = %+v; want %s with %d frames, newest first", i, s, paths[3-i], 4-i)
		}
	}
	removed, err := Prune(dir, 0, 3, base)
	if err != nil || len(removed) != 1 || removed[0] != paths[0] {
		t.Errorf("Prune --keep 3 removed %v (%v), want only the oldest %s", removed, err, paths[0])
	}
	now := base.Add(3*24*time.Hour + time.Hour)
	removed, err = Prune(dir, 36*time.Hour, 0, now)
	if err != nil || len(removed) != 1 || removed[0] != paths[1] {
		t.Errorf("Prune --older-than 36h removed %v (%v), want %s", removed, err, paths[1])
	}
	if _, err := os.Stat(filepath.Join(dir, "notes.jsonl")); err != nil {
		t.Errorf("Prune touched a file that is not a transcript: %v", err)
	}
}

// A proxy recording has no meta record: Stat reads the server, the client
// and the protocol from its handshake frames (the legacy initialize, and
// the 2026-07-28 era's server/discover), so jig sessions and the picker of
// jig open can say who spoke.
func TestStatReadsTheHandshake(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		frames                   []string
		server, client, protocol string
	}{
		{[]string{
			`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"claude-ai","version":"0.1.0"}}}`,
			`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"mcp-servers/everything","version":"2.0.0"}}}`,
		}, "mcp-servers/everything 2.0.0", "claude-ai 0.1.0", "2025-06-18"},
		{[]string{
			`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/clientInfo":{"name":"jig","version":"0.1.0"},"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`,
			`{"jsonrpc":"2.0","id":1,"result":{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"jig-demo","version":"1.0.0"}},"supportedVersions":["2025-11-25","2026-07-28"]}}`,
		}, "jig-demo 1.0.0", "jig 0.1.0", "2026-07-28"},
		{[]string{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`}, "", "", ""},
	}
	for i, c := range cases {
		log := frames.NewLog(nil)
		path, closer, err := ForLog(log, Options{Path: filepath.Join(dir, fmt.Sprintf("s%d.jsonl", i)), Mode: "proxy"})
		if err != nil {
			t.Fatal(err)
		}
		for j, raw := range c.frames {
			dir := frames.ClientToServer
			if j%2 == 1 {
				dir = frames.ServerToClient
			}
			log.Append(frames.Frame{Dir: dir, Raw: []byte(raw)})
		}
		closer()
		s, err := Stat(path)
		if err != nil || s.Server != c.server || s.Client != c.client || s.Protocol != c.protocol || s.Frames != len(c.frames) {
			t.Errorf("case %d: Stat = %+v, %v; want server %q, client %q, protocol %q", i, s, err, c.server, c.client, c.protocol)
		}
	}
}

// Sessions made in turn under one name in one second (jig in a script's
// loop) get base.jsonl, base-2.jsonl, base-3.jsonl... each a new file; after
// one is removed from the middle the next still goes after the newest.
func TestReserveNamesInTurn(t *testing.T) {
	dir := t.TempDir()
	for n := 1; n <= 300; n++ {
		f, path, err := reserve(dir, "x")
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
		want := filepath.Join(dir, "x.jsonl")
		if n > 1 {
			want = filepath.Join(dir, fmt.Sprintf("x-%d.jsonl", n))
		}
		if path != want {
			t.Fatalf("session %d went to %s, want %s", n, path, want)
		}
	}
	if err := os.Remove(filepath.Join(dir, "x-100.jsonl")); err != nil {
		t.Fatal(err)
	}
	f, path, err := reserve(dir, "x")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if filepath.Base(path) != "x-301.jsonl" {
		t.Errorf("after a removal: %s", path)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 300 {
		t.Errorf("%d files, want 300", len(entries))
	}
}

// safeSlug replaces what the regexp it replaced replaced, on names, edge
// cases and random bytes (invalid UTF-8 included).
func TestSafeSlugIsTheRegexp(t *testing.T) {
	re := regexp.MustCompile(`[^A-Za-z0-9._-]+`)
	texts := []string{"", "-", "a b", "weird name;rm -rf", "ünï côdé", "a\xffb", "\xff\xfe", "x.y_z-1", "日本語/サーバー", "a  \t\nb"}
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("aZ09._- /;\xc3\xa9\xff\x00")
	for i := 0; i < 20000; i++ {
		b := make([]byte, rng.IntN(24))
		for j := range b {
			b[j] = alphabet[rng.IntN(len(alphabet))]
		}
		texts = append(texts, string(b))
	}
	for _, s := range texts {
		if got, want := safeSlug(s), re.ReplaceAllString(s, "-"); got != want {
			t.Fatalf("safeSlug(%q) = %q, the regexp makes %q", s, got, want)
		}
	}
}
