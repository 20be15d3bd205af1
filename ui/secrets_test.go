package ui

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/session"
)

// recorded is a flow's model that keeps every screen it drew (ANSI
// stripped, as the terminal shows it) and every window title, so a test
// can say what never reached the terminal.
type recorded struct {
	probe
	screens *[]string
}

func (r recorded) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := r.probe.Model.Update(msg)
	return r, cmd
}

func (r recorded) View() tea.View {
	v := r.probe.View()
	s := ansi.Strip(v.Content) + "\ntitle: " + v.WindowTitle
	r.mu.Lock()
	if n := len(*r.screens); n == 0 || (*r.screens)[n-1] != s {
		*r.screens = append(*r.screens, s)
	}
	r.mu.Unlock()
	return v
}

// startRecorded is start, keeping every screen.
func startRecorded(t *testing.T, cfg Config, w, h int) (*flow, func() []string) {
	t.Helper()
	m := New(cfg)
	p := newProbe(m)
	screens := &[]string{}
	tm := teatest.NewTestModel(t, recorded{p, screens}, teatest.WithInitialTermSize(w, h))
	f := &flow{t: t, tm: tm, p: p}
	t.Cleanup(func() {
		tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
		tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
		m.Close()
	})
	return f, func() []string {
		p.mu.Lock()
		defer p.mu.Unlock()
		return append([]string(nil), *screens...)
	}
}

// neverShown fails for every planted secret a screen showed, whole or by
// its first 12 bytes (a value cut where a row ends).
func neverShown(t *testing.T, screens []string, planted map[string]string) {
	t.Helper()
	for name, v := range planted {
		for i, s := range screens {
			if strings.Contains(s, v) || strings.Contains(s, v[:12]) {
				t.Errorf("screen %d of %d shows %s (%q):\n%s", i+1, len(screens), name, v, s)
				break
			}
		}
	}
}

// A server that echoes its environment (server-everything's get-env)
// shows neither a secret jig gave it (--env), nor the value of a variable
// named secret with --secret-env, nor one whose name looks secret: not in
// the result, its raw view, the frames and their bodies, the server's
// info, nor the file w writes.
func TestFlowNoSecretReachesTheScreen(t *testing.T) {
	planted := map[string]string{
		"--env value":        "planted-env-value-7f6e5d4c3b2a",
		"--secret-env value": "plainly-named-value-1a2b3c4d5e",
		"inherited *_TOKEN":  "inherited-token-9z8y7x6w5v4u",
	}
	t.Setenv("JIG_UI_PLAIN_SETTING", planted["--secret-env value"])
	t.Setenv("JIG_UI_PLANTED_TOKEN", planted["inherited *_TOKEN"])
	save := t.TempDir()
	cfg := everything(t)
	t.Setenv("JIG_UI_ENV_SOURCE", planted["--env value"])
	cfg.Options.Target.Env = map[string]string{"PLANTED_SETTING": "$JIG_UI_ENV_SOURCE"} // --env PLANTED_SETTING=$JIG_UI_ENV_SOURCE
	cfg.SaveDir = save
	// As jig connect --secret-env JIG_UI_PLAIN_SETTING builds it.
	cfg.Redact = fixture.Over(nil, append(fixture.EnvSecrets(os.Environ()),
		fixture.Secret{Value: planted["--secret-env value"], Env: "JIG_UI_PLAIN_SETTING"})...)
	f, screens := startRecorded(t, cfg, 160, 40)
	f.pick("get-env")
	f.keys("ctrl+s")
	f.waitFor("✓ ok", "content: 1 block") // not a variable's name: which ones a machine has varies
	// The server did echo every value (the test proves something).
	var got strings.Builder
	for _, fr := range cfg.Options.Log.Frames() {
		got.Write(fr.Raw)
	}
	for name, v := range planted {
		if !strings.Contains(got.String(), v) {
			t.Fatalf("get-env did not echo the %s: the test proves nothing", name)
		}
	}
	f.keys("esc", "3", "v") // the raw response
	f.waitFor("response frame #")
	f.keys("w")
	f.waitFor("Write to a file")
	f.keys("enter")
	f.waitFor("wrote ")
	f.keys("f") // its frames, and the response's body
	f.waitFor("tools/call id=")
	f.keys("p", "enter")
	f.waitFor("secrets redacted")
	f.keys("esc", "i")
	f.waitFor("Instructions")
	f.keys("esc")
	neverShown(t, screens(), planted)
	written, _ := filepath.Glob(filepath.Join(save, "*"))
	if len(written) == 0 {
		t.Fatal("w wrote no file")
	}
	for _, p := range written {
		b, _ := os.ReadFile(p)
		if !strings.Contains(string(b), "PLANTED_SETTING") {
			t.Errorf("%s does not hold the response:\n%s", p, b)
		}
		neverShown(t, []string{string(b)}, planted)
	}
}

// A bearer token given as a header, which the server echoes in a result,
// its instructions and a tool's description, is never drawn; nor is a
// token in the URL's query, which the header line and the info show.
func TestFlowNoBearerTokenReachesTheScreen(t *testing.T) {
	planted := map[string]string{
		"bearer token": "bearer-value-5q4w3e2r1t0y9u8i",
		"query token":  "query-value-0p9o8i7u6y5t4r3e",
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "echo-auth", Version: "1"}, &mcp.ServerOptions{
		Instructions: "call whoami; you sent " + planted["bearer token"],
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "whoami", Description: "says who you are: " + planted["bearer token"]},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			auth := req.Extra.Header.Get("Authorization")
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "you are " + auth}}}, nil, nil
		})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(ts.Close)
	cfg := Config{Options: &session.Options{Target: session.Target{
		Transport: session.TransportStreamable, URL: ts.URL + "/mcp?api_key=" + planted["query token"],
		Headers: map[string]string{"Authorization": "Bearer " + planted["bearer token"]},
	}, Log: frames.NewLog(nil)}}
	f, screens := startRecorded(t, cfg, 120, 35)
	f.waitFor("echo-auth", "says who you are") // connected, and the tool listed
	f.keys("1", "enter")
	f.waitFor("EDITING")
	f.keys("ctrl+s")
	f.waitFor("✓ ok", "you are [REDACTED")
	f.keys("4", "p") // the frames: the response's body, then the request's
	f.waitFor("tools/call id=")
	f.keys("esc", "i")
	f.waitFor("Instructions", "you sent [REDACTED")
	neverShown(t, screens(), planted)
}

// The frames pane redacts what it draws before it cuts it: a stderr line
// whose secret starts where the row ends, an invalid frame whose error
// quotes one, a transport note, a log line, and the body of each.
func TestFramesPaneDrawsNoSecret(t *testing.T) {
	secret := "pane-secret-value-4d4d4d4d4d4d"
	log := frames.NewLog(nil)
	long := strings.Repeat("x", 4*80-6) + " " + secret + strings.Repeat(" y", 10000)
	log.Append(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindStderr, Raw: []byte(long)})
	log.Append(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindStderr, Raw: []byte("Authorization: Bearer " + secret)})
	log.Append(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindInvalid, Raw: []byte(`{"jsonrpc":"2.0","x":"` + secret + `"`), Err: "cut off after " + secret})
	log.Append(frames.Frame{Dir: frames.ClientToServer, Kind: frames.KindTransport, Note: "POST https://h/mcp?token=" + secret})
	log.Append(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindNotification, Method: "notifications/message",
		Raw: []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"key ` + secret + `"}}`)})
	env := testEnv(log)
	env.redact = frames.NewRedactor(secret)
	p := newFramesPane(env)
	p.setSize(80, 30)
	var views []string
	for i := 0; i < log.Len(); i++ {
		p.selectSeq(log.Frame(i).Seq)
		for range 3 { // pretty, raw, rendered
			views = append(views, ansi.Strip(p.view()))
			p.body.cycle()
			p.syncBody()
		}
	}
	neverShown(t, views, map[string]string{"secret": secret})
	if !strings.Contains(strings.Join(views, "\n"), "[REDACTED:") {
		t.Error("no placeholder was drawn: the frames pane showed nothing that held the secret")
	}
}
