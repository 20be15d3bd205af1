package frames

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func fixedClock() func() time.Time {
	t := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	return func() time.Time { t = t.Add(10 * time.Millisecond); return t }
}

func TestClassify(t *testing.T) {
	tests := []struct {
		raw    string
		kind   Kind
		method string
		id     string
		code   int
		err    string
	}{
		{`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}`, KindRequest, "initialize", "0", 0, ""},
		{`{"jsonrpc":"2.0","id":"jig-1","method":"tools/call"}`, KindRequest, "tools/call", `"jig-1"`, 0, ""},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, KindNotification, "notifications/initialized", "", 0, ""},
		{`{"jsonrpc":"2.0","id":3,"result":{}}`, KindResult, "", "3", 0, ""},
		{`{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"nope"}}`, KindError, "", "4", -32601, ""},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, KindBatch, "", "", 0, "batch"},
		{`hello from print()`, KindInvalid, "", "", 0, "not JSON: a line of text"},
		{`[INFO] ready`, KindInvalid, "", "", 0, "invalid JSON at byte 2"},
		{`not json at all`, KindInvalid, "", "", 0, "not JSON: a line of text"},
		{`nul`, KindInvalid, "", "", 0, "invalid JSON"},
		{`{"jsonrpc":"2.0","id":5,"res`, KindInvalid, "", "5", 0, "invalid JSON"}, // cut off: its id still says what it answered
		{"{\"a\":\"\xff\"}", KindInvalid, "", "", 0, "UTF-8"},
		{`{"id":1,"method":"x"}`, KindInvalid, "x", "1", 0, "not JSON-RPC 2.0"},
	}
	for _, tt := range tests {
		f := Frame{Raw: []byte(tt.raw)}
		f.Classify()
		if f.Kind != tt.kind || f.Method != tt.method || f.ID != tt.id || f.Code != tt.code {
			t.Errorf("Classify(%q) = kind %s method %q id %q code %d; want %s %q %q %d", tt.raw, f.Kind, f.Method, f.ID, f.Code, tt.kind, tt.method, tt.id, tt.code)
		}
		if !strings.Contains(f.Err, tt.err) || (tt.err == "" && f.Err != "") {
			t.Errorf("Classify(%q).Err = %q, want it to contain %q", tt.raw, f.Err, tt.err)
		}
	}
}

// server-everything sends roots/list with id 0 right after the client's
// initialize, which also had id 0: pairing must keep the directions apart.
func TestPairingPerDirection(t *testing.T) {
	l := NewLog(fixedClock())
	l.Append(Frame{Dir: ClientToServer, Raw: []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize"}`)})
	l.Append(Frame{Dir: ServerToClient, Raw: []byte(`{"jsonrpc":"2.0","id":0,"method":"roots/list"}`)})
	l.Append(Frame{Dir: ServerToClient, Raw: []byte(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25"}}`)})
	l.Append(Frame{Dir: ClientToServer, Raw: []byte(`{"jsonrpc":"2.0","id":0,"result":{"roots":[]}}`)})
	l.Append(Frame{Dir: ServerToClient, Raw: []byte(`{"jsonrpc":"2.0","id":0,"result":{}}`)})
	l.Append(Frame{Dir: ServerToClient, Raw: []byte(`{"jsonrpc":"2.0","id":9,"result":{}}`)})

	if got := l.Partner(0); got != 2 {
		t.Errorf("initialize paired with %d, want 2 (the server's result)", got)
	}
	if got := l.Partner(1); got != 3 {
		t.Errorf("roots/list paired with %d, want 3 (the client's result)", got)
	}
	if m := l.Frame(2).Method; m != "initialize" {
		t.Errorf("response method = %q, want initialize (filled from its request)", m)
	}
	if e := l.Frame(4).Err; !strings.Contains(e, "duplicate response") {
		t.Errorf("second response to id 0: Err = %q, want duplicate", e)
	}
	if e := l.Frame(5).Err; !strings.Contains(e, "unknown id 9") {
		t.Errorf("response to id 9: Err = %q, want unknown id", e)
	}
	if d, ok := Latency(l, 2); !ok || d != 20*time.Millisecond {
		t.Errorf("Latency = %v %v, want 20ms", d, ok)
	}
}

func TestTranscriptRoundTripKeepsExactBytes(t *testing.T) {
	var buf bytes.Buffer
	tw := NewTranscriptWriter(&buf, nil)
	if err := tw.WriteHeader(Header{Jig: "test", Started: time.Unix(0, 0).UTC()}); err != nil {
		t.Fatal(err)
	}
	l := NewLog(fixedClock())
	l.AddSink(tw)
	raws := []string{
		`{"jsonrpc":"2.0", "id":1,  "method":"ping"}`, // odd whitespace must survive
		`not json at all <&>`,
		"bad utf8 \xff\xfe",
		`{"jsonrpc":"2.0","id":1,"result":{"x":1.0}}`,
	}
	for i, r := range raws {
		d := ClientToServer
		if i%2 == 1 {
			d = ServerToClient
		}
		l.Append(Frame{Dir: d, Raw: []byte(r)})
	}
	tr, err := ReadTranscript(&buf)
	if err != nil {
		t.Fatalf("ReadTranscript: %v", err)
	}
	if tr.Len() != len(raws) {
		t.Fatalf("read %d frames, want %d", tr.Len(), len(raws))
	}
	for i, r := range raws {
		if got := string(tr.Frame(i).Raw); got != r {
			t.Errorf("frame %d raw = %q, want %q exactly", i, got, r)
		}
	}
	if tr.Frame(1).Kind != KindInvalid || tr.Frame(1).Err == "" {
		t.Errorf("invalid frame lost its kind or error: %+v", tr.Frame(1))
	}
	if tr.Partner(0) != 3 {
		t.Errorf("pairing after read: partner(0) = %d, want 3", tr.Partner(0))
	}
}

func TestTranscriptCutOffLastLine(t *testing.T) {
	var buf bytes.Buffer
	tw := NewTranscriptWriter(&buf, nil)
	tw.WriteHeader(Header{Jig: "test"})
	l := NewLog(fixedClock())
	l.AddSink(tw)
	l.Append(Frame{Dir: ClientToServer, Raw: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)})
	l.Append(Frame{Dir: ServerToClient, Raw: []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`)})
	cut := buf.Bytes()[:buf.Len()-15]
	tr, err := ReadTranscript(bytes.NewReader(cut))
	if err != nil {
		t.Fatalf("ReadTranscript of a cut file: %v", err)
	}
	if tr.Len() != 1 || len(tr.Warnings) != 1 || !strings.Contains(tr.Warnings[0], "cut off") {
		t.Errorf("got %d frames, warnings %q; want 1 frame and one cut-off warning", tr.Len(), tr.Warnings)
	}
}

func TestRedactor(t *testing.T) {
	r := NewRedactor("hunter2-secret-value")
	in := `{"env":{"GITHUB_TOKEN":"abc123def","HOME":"/root"},"h":"Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl","p":"hunter2-secret-value","k":"sk-abcdefghijklmnopqrstuvwx"}`
	out := r.String(in)
	for _, secret := range []string{"abc123def", "eyJhbGciOiJIUzI1NiJ9", "hunter2-secret-value", "sk-abcdefghijklmnopqrstuvwx"} {
		if strings.Contains(out, secret) {
			t.Errorf("redacted output still holds %q: %s", secret, out)
		}
	}
	if !strings.Contains(out, `"HOME":"/root"`) {
		t.Errorf("redaction removed a non-secret: %s", out)
	}
	if r.Secret([]byte(out)) != "" {
		t.Errorf("Secret finds %q in redacted output %s", r.Secret([]byte(out)), out)
	}
	if r.Secret([]byte(in)) == "" {
		t.Errorf("Secret finds nothing in %s", in)
	}
}

func BenchmarkAppend1KB(b *testing.B) {
	raw := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + strings.Repeat("x", 1000) + `"}]}}`)
	l := NewLog(nil)
	b.SetBytes(int64(len(raw)))
	for i := 0; i < b.N; i++ {
		l.Append(Frame{Dir: ServerToClient, Raw: raw})
	}
}

func BenchmarkAppend4MB(b *testing.B) {
	raw := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + strings.Repeat("x", 4<<20) + `"}]}}`)
	b.SetBytes(int64(len(raw)))
	for i := 0; i < b.N; i++ {
		l := NewLog(nil)
		l.Append(Frame{Dir: ServerToClient, Raw: raw})
	}
}

// F29: Stripe's key shapes were kept in clear when no variable named them.
func TestRedactorStripeKeys(t *testing.T) {
	r := NewRedactor()
	for _, key := range []string{"sk_live_51HxYzAbCdEfGhIjKlMnOpQr", "sk_test_4eC39HqLyjWDarjtT1zdp7dc", "rk_live_51HxYzAbCdEfGhIjKl", "whsec_0123456789abcdefABCDEFxyz"} {
		in := `{"text":"key ` + key + ` end"}`
		if out := r.String(in); strings.Contains(out, key) || !strings.Contains(out, "[REDACTED:stripe-key]") {
			t.Errorf("%s: %s", key, out)
		}
	}
	for _, kept := range []string{"sk_live_short", "task_live_0123456789abcdef", "pk_live_0123456789abcdef"} {
		if out := r.String(kept); out != kept {
			t.Errorf("%q is not a Stripe secret key, but became %q", kept, out)
		}
	}
}

// fresh9: ?pwd= and ?pass= were kept in clear (only names holding
// "passw" were taken for passwords); a key that merely holds "pass" is not.
func TestRedactorShortPasswordParams(t *testing.T) {
	r := NewRedactor()
	for _, in := range []string{"http://h/mcp?pwd=Zq8vN2kLmP4rT7wX", "http://h/mcp?a=1&pass=Zq8vN2kLmP4rT7wX", "http://h/mcp?pw=Zq8vN2kLmP4rT7wX&b=2"} {
		if out := r.String(in); strings.Contains(out, "Zq8vN2kLmP4rT7wX") {
			t.Errorf("%s: %s", in, out)
		}
	}
	if in := "http://h/?compass=north&bypass=1"; r.String(in) != in {
		t.Errorf("%s became %s", in, r.String(in))
	}
}

// A request named by a notifications/cancelled from the same side is
// cancelled, not pending — in a live Log, a transcript read back, and an
// indexed lazy reader.
func TestCancelledRequests(t *testing.T) {
	readers := threeReaders(t,
		Frame{Dir: ClientToServer, Raw: []byte(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{}}`)},
		Frame{Dir: ClientToServer, Raw: []byte(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{}}`)},
		Frame{Dir: ServerToClient, Raw: []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}`)}, // the server cancelling its own id 5, not ours
		Frame{Dir: ClientToServer, Raw: []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":4,"reason":"user"}}`)})
	for name, r := range readers {
		if got := Unanswered(r, 0); got != "cancelled by #4" {
			t.Errorf("%s: request id 4 is %q, want cancelled by #4 (the notifications/cancelled)", name, got)
		}
		if got := Unanswered(r, 1); got != "pending" {
			t.Errorf("%s: request id 5 is %q, want pending", name, got)
		}
	}
}

// OAuth credentials in a redirect URL and a token request body are
// redacted by parameter name; state, which diagnoses a mismatch, and the
// code challenge, a hash, are kept; so is the order of the parameters.
func TestRedactorOAuthParameters(t *testing.T) {
	r := NewRedactor("learned-access-token-value")
	u := r.URL("http://127.0.0.1:5555/callback?code=SplxlOBeZQQYbYS6WxSbIA&state=xyz-state&iss=https%3A%2F%2Fas.example")
	if want := "http://127.0.0.1:5555/callback?code=[REDACTED:oauth]&state=xyz-state&iss=https%3A%2F%2Fas.example"; u != want {
		t.Errorf("URL:\n got %s\nwant %s", u, want)
	}
	form := r.Form([]byte("grant_type=authorization_code&code=abc123code&code_verifier=verif-ier-0123&client_id=jig&client_secret=s3cr3t-value&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb&refresh_token=rt-1234"))
	want := "grant_type=authorization_code&code=[REDACTED:oauth]&code_verifier=[REDACTED:oauth]&client_id=jig&client_secret=[REDACTED:oauth]&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb&refresh_token=[REDACTED:oauth]"
	if string(form) != want {
		t.Errorf("Form:\n got %s\nwant %s", form, want)
	}
	if got := r.URL("https://as.example/authorize?client_id=jig&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256&state=s1"); strings.Contains(got, "REDACTED") {
		t.Errorf("URL redacted a non-secret: %s", got)
	}
	// A token learned later is redacted wherever it appears.
	if got := r.URL("https://x.example/p?note=learned-access-token-value"); strings.Contains(got, "learned-access-token-value") {
		t.Errorf("URL kept a known secret: %s", got)
	}
}

// Secrets added while another goroutine redacts are safe (run with -race).
func TestRedactorAddWhileRedacting(t *testing.T) {
	r := NewRedactor()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 200; i++ {
			r.Add(fmt.Sprintf("token-%04d", i))
		}
	}()
	for i := 0; i < 200; i++ {
		r.String("token-0001 and more")
	}
	<-done
	if got := r.String("token-0199"); strings.Contains(got, "token-0199") {
		t.Errorf("a value added earlier is not redacted: %s", got)
	}
}

// OAuth metadata names endpoints and methods with "token" and "auth" in
// their keys: they are evidence, not secrets. The secrets beside them go.
func TestRedactorKeepsOAuthMetadata(t *testing.T) {
	r := NewRedactor()
	in := `{"issuer":"https://as.example","token_endpoint":"https://as.example/token","token_endpoint_auth_methods_supported":["none"],"token_endpoint_auth_method":"client_secret_basic","token_type":"Bearer","access_token":"at-123456789","refresh_token":"rt-987654321","client_secret":"cs-abcdefgh"}`
	out := r.String(in)
	for _, kept := range []string{`"token_endpoint":"https://as.example/token"`, `"token_endpoint_auth_method":"client_secret_basic"`, `"token_type":"Bearer"`} {
		if !strings.Contains(out, kept) {
			t.Errorf("redaction removed %s: %s", kept, out)
		}
	}
	for _, gone := range []string{"at-123456789", "rt-987654321", "cs-abcdefgh"} {
		if strings.Contains(out, gone) {
			t.Errorf("redaction kept the secret %s: %s", gone, out)
		}
	}
	if rule := r.Secret([]byte(out)); rule != "" {
		t.Errorf("Secret finds %q in the redacted metadata: %s", rule, out)
	}
}

// A known secret is found however the server escaped it, and only there:
// the bytes around it stay exact.
func TestRedactorEscapedSecrets(t *testing.T) {
	const secret = "hunter2/secret-value"
	r := NewRedactor(secret)
	var every strings.Builder
	for _, c := range secret {
		fmt.Fprintf(&every, `\u%04x`, c)
	}
	for _, in := range []string{
		`{"text":"` + every.String() + `"}`,
		`{"text":"hunter2\/secret-value"}`,
		`{"text":"\u0068unter2/secret-valu\u0065 and \"quoted\""}`,
		`{"text":"x` + every.String() + `y","other":"\n"}`,
	} {
		out := r.String(in)
		if !strings.Contains(out, Placeholder("value")) {
			t.Errorf("%s: not redacted: %s", in, out)
		}
		var v struct{ Text string }
		json.Unmarshal([]byte(out), &v)
		if strings.Contains(v.Text, secret) {
			t.Errorf("%s: the decoded text still holds the secret: %q", in, v.Text)
		}
		if r.Secret([]byte(in)) != "value" {
			t.Errorf("Secret does not find the escaped value in %s", in)
		}
	}
	if out := r.String(`{"text":"x` + every.String() + `y"}`); out != `{"text":"x[REDACTED:value]y"}` {
		t.Errorf("the bytes around the secret changed: %s", out)
	}
	if in := `{"a":"\u0068unter2","b":"\\u0073"}`; r.String(in) != in {
		t.Errorf("a text without the secret changed: %s", r.String(in))
	}
}

// A secret holding a quote or a backslash, written by a server only with
// the escapes \" and \\ (no \u, no \/), is found in the decoded view too.
func TestRedactorSecretsEscapedWithQuotesAndBackslashes(t *testing.T) {
	for _, secret := range []string{`pl4nted"quote-secret`, `pl4nted\back-secret`, "pl4nted\ttab-secret"} {
		r := NewRedactor(secret)
		enc, _ := json.Marshal(map[string]string{"text": "the key is " + secret + "."})
		if bytes.Contains(enc, []byte(secret)) {
			t.Fatalf("%q: JSON did not escape it; the test proves nothing", secret)
		}
		out := r.Bytes(enc)
		var v struct{ Text string }
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatalf("%q: the redacted text is no longer JSON: %s", secret, out)
		}
		if strings.Contains(v.Text, secret) || !strings.Contains(v.Text, Placeholder("value")) {
			t.Errorf("%q escaped as %s: redacted to %s", secret, enc, out)
		}
		if r.Secret(enc) != "value" {
			t.Errorf("%q: Secret does not find it in %s", secret, enc)
		}
	}
	// A frame full of \" holding no such secret is left as it is.
	r := NewRedactor("pl4nted-plain-secret")
	if in := `{"text":"{\"a\":\"b\\c\"}"}`; r.String(in) != in {
		t.Errorf("changed: %s", r.String(in))
	}
}

// A value found by its key's name is learned and redacted wherever it
// appears afterwards, escaped or inside prose.
func TestRedactorLearnsNamedSecrets(t *testing.T) {
	r := NewRedactor()
	r.Learn([]byte(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"arguments":{"password":"pl4nted-pass-word","note":"x"}}}`))
	out := r.String(`{"result":{"content":[{"type":"text","text":"args={\"password\":\"pl4nted-pass-word\"} and pl4nted-pass-word"}]}}`)
	if strings.Contains(out, "pl4nted-pass-word") {
		t.Errorf("a learned value leaked: %s", out)
	}
	r2 := NewRedactor()
	r2.String(`{"api_key":"short"}`)
	if r2.String("short") != "short" {
		t.Errorf("a value shorter than %d bytes was learned", learnMin)
	}
}

func TestRedactorURLsAndParams(t *testing.T) {
	r := NewRedactor()
	for in, want := range map[string]string{
		"http://user:p4ss-w0rd@127.0.0.1:3901/mcp":        "http://user:[REDACTED:url-password]@127.0.0.1:3901/mcp",
		"http://127.0.0.1:3901/mcp?api_key=abc123def&x=1": "http://127.0.0.1:3901/mcp?api_key=[REDACTED:secret-param]&x=1",
		"GET /mcp?access_token=tok-123456 HTTP/1.1":       "GET /mcp?access_token=[REDACTED:secret-param] HTTP/1.1",
		"node server.js --token=abcdef0123":               "node server.js --token=[REDACTED:secret-param]",
		"http://127.0.0.1:3901/mcp?page=2&sort=name":      "http://127.0.0.1:3901/mcp?page=2&sort=name",
		"mailto:someone@example.com and http://host/a@b":  "mailto:someone@example.com and http://host/a@b",
	} {
		if got := r.String(in); got != want {
			t.Errorf("String(%q)\n got %s\nwant %s", in, got, want)
		}
	}
}

// A Bearer challenge is evidence: its parameters are not a token.
func TestRedactorKeepsBearerChallenges(t *testing.T) {
	r := NewRedactor()
	for _, in := range []string{
		`Bearer resource_metadata="https://mcp.example/.well-known/oauth-protected-resource/mcp"`,
		`Bearer error="insufficient_scope", scope="read write"`,
		`Bearer realm="mcp", error="invalid_token"`,
	} {
		if out := r.String(in); out != in {
			t.Errorf("a challenge was redacted:\n got %s\nwant %s", out, in)
		}
	}
	if out := r.String(`Authorization: Bearer abcdefgh12345678`); strings.Contains(out, "abcdefgh12345678") {
		t.Errorf("a bearer token was kept: %s", out)
	}
}

// A long session behind OAuth teaches the redactor a token per refresh:
// the cost of redacting a 1 KB frame with none, 10 and 100 learned values.
func BenchmarkRedactLearnedTokens(b *testing.B) {
	raw := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + strings.Repeat("x", 1000) + `"}]}}`)
	for _, n := range []int{0, 10, 100} {
		b.Run(fmt.Sprintf("tokens=%d", n), func(b *testing.B) {
			r := NewRedactor()
			for i := range n {
				r.Add(fmt.Sprintf("access-token-%04d-%s", i, strings.Repeat("k", 40)))
			}
			b.SetBytes(int64(len(raw)))
			for b.Loop() {
				r.Bytes(raw)
			}
		})
	}
}

// BenchmarkLogMemory measures what a Log holds per frame beyond the frame's
// own bytes (allocated before it is measured): the Frame in its block and
// the pairing index. Compare it with the bytes small notifications carry.
func BenchmarkLogMemory(b *testing.B) {
	const n = 100_000
	raws := make([][]byte, n)
	body := 0
	for i := range raws {
		raws[i] = []byte(fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":"event %d"}}`, i))
		body += len(raws[i])
	}
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		l := NewLog(nil)
		for _, r := range raws {
			l.Append(Frame{Dir: ServerToClient, Raw: r})
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		held := float64(after.HeapAlloc-before.HeapAlloc) / n
		b.ReportMetric(held, "overhead-B/frame")
		b.ReportMetric(float64(body)/n, "body-B/frame")
		runtime.KeepAlive(l)
	}
}

// A progress token is MCP's correlation id between a call and its
// notifications/progress, not a secret: redacting it ("[REDACTED:value]")
// hid which call a progress belonged to, in the TUI, --frames and
// recordings. A secret beside it still goes.
func TestRedactorKeepsProgressTokens(t *testing.T) {
	r := NewRedactor()
	call := `{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"trigger-long-running-operation","arguments":{"duration":3,"api_key":"k-1234567890"},"_meta":{"progressToken":"jig-progress-7f3a"}}}`
	progress := `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"jig-progress-7f3a","progress":1,"total":5}}`
	out := r.String(call)
	if !strings.Contains(out, `"progressToken":"jig-progress-7f3a"`) || strings.Contains(out, "k-1234567890") {
		t.Errorf("redacted call: %s", out)
	}
	if out := r.String(progress); out != progress {
		t.Errorf("the progress notification was changed: %s", out)
	}
	if rule := r.Secret([]byte(progress)); rule != "" {
		t.Errorf("Secret finds %q in a progress notification", rule)
	}
}

// A recorded frame keeps the size that crossed the wire, not the size of its
// redacted bytes: the same frame read 179 B live and 186 B in jig open.
func TestRecordedSizeIsTheWireSize(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	tw, err := CreateTranscript(path, Header{Jig: "test"}, NewRedactor("hunter2-secret-value"))
	if err != nil {
		t.Fatal(err)
	}
	l := NewLog(fixedClock())
	l.AddSink(tw)
	raws := []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"login","arguments":{"pw":"hunter2-secret-value"}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"ok"}]}}`,
	}
	for _, r := range raws {
		l.Append(Frame{Dir: ClientToServer, Raw: []byte(r)})
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	tr, ix := readBack(t, path)
	for i, r := range raws {
		if got := tr.Frame(i).Size(); got != len(r) {
			t.Errorf("frame %d read back as %d B, crossed as %d B", i, got, len(r))
		}
		if got := ix.Frame(i).Size(); got != len(r) {
			t.Errorf("frame %d indexed as %d B, crossed as %d B", i, got, len(r))
		}
	}
	if strings.Contains(string(tr.Frame(0).Raw), "hunter2") {
		t.Errorf("the secret was recorded: %s", tr.Frame(0).Raw)
	}
}

// An error with id null that came as the HTTP response to a POST of one
// request answers that request: it pairs with it, live and read back from a
// recording (both readers), and no longer says it answers no call.
func TestAnswersPostPairsAnIDNullError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	tw, err := CreateTranscript(path, Header{Jig: "test"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	l := NewLog(fixedClock())
	l.AddSink(tw)
	req := l.Append(Frame{Dir: ClientToServer, Raw: []byte(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}`)})
	ans := Frame{Dir: ServerToClient, Raw: []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: No valid session ID provided"}}`)}
	ans.Classify()
	if ans.Err == "" {
		t.Fatal("an id-null error no longer says it answers no call: the test needs another frame")
	}
	ans.AnswersPost(req.ID)
	l.Append(ans)
	stray := Frame{Dir: ServerToClient, Raw: []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`)}
	stray.Classify()
	stray.AnswersPost("") // no request was posted: it stays an error tied to nothing
	l.Append(stray)
	tw.Close()
	tr, ix := readBack(t, path)
	for name, r := range map[string]interface {
		Len() int
		Frame(int) *Frame
		Partner(int) int
	}{"live": l, "read": tr, "indexed": ix} {
		if r.Partner(0) != 1 || r.Frame(1).Err != "" || r.Frame(1).Method != "server/discover" || r.Frame(1).Answers != "1" {
			t.Errorf("%s: partner(0) = %d, answer %+v", name, r.Partner(0), r.Frame(1))
		}
		if r.Partner(2) >= 0 || r.Frame(2).Err == "" {
			t.Errorf("%s: the stray id-null error was tied to a request: %+v", name, r.Frame(2))
		}
	}
}

// readBack reads the recording at path with both readers: whole, and
// indexed (as jig open does).
func readBack(t *testing.T, path string) (*Transcript, *Indexed) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := ReadTranscript(f)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := OpenIndexed(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return tr, ix
}

// A request still open when the server's process exited is not pending: no
// answer can come. After a reconnection on the same Log the ids start again,
// and the new session's id 1 pairs with its own request, not the dead one.
// An HTTP request that failed is "not delivered". The same in a live Log, a
// transcript read back, and an indexed lazy reader.
func TestRequestsTheServerNeverGotOrNeverAnswered(t *testing.T) {
	readers := threeReaders(t,
		Frame{Dir: ClientToServer, Raw: []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}`)},
		Frame{Dir: ServerToClient, Kind: KindTransport, Note: "server exited: signal: killed"},
		Frame{Dir: ClientToServer, Raw: []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"again"}}`)},
		Frame{Dir: ServerToClient, Raw: []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`)},
		Frame{Dir: ClientToServer, Raw: []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo"}}`), HTTP: &HTTP{Method: "POST", URL: "http://127.0.0.1:1/mcp"}},
		Frame{Dir: ServerToClient, Kind: KindTransport, Answers: "2", HTTP: &HTTP{Method: "POST", URL: "http://127.0.0.1:1/mcp"},
			Note: "HTTP request failed: connect: connection refused"})
	for name, r := range readers {
		if got := Unanswered(r, 0); got != "no answer: the server exited (#2)" {
			t.Errorf("%s: the request open when the server exited is %q", name, got)
		}
		if p := r.Partner(3); p != 2 {
			t.Errorf("%s: the new session's response pairs with frame %d, want 2 (its own request)", name, p)
		}
		if got := Unanswered(r, 4); got != "not delivered: #6" {
			t.Errorf("%s: the request whose HTTP request failed is %q", name, got)
		}
	}
}

// threeReaders appends fs to a live Log recorded as it goes, and returns it
// with that recording read back whole and indexed lazily (jig open's
// reader): what a frame says must not depend on which one shows it.
func threeReaders(t *testing.T, fs ...Frame) map[string]Reader {
	t.Helper()
	var buf bytes.Buffer
	tw := NewTranscriptWriter(&buf, nil)
	tw.WriteHeader(Header{Jig: "test"})
	l := NewLog(fixedClock())
	l.AddSink(tw)
	for _, f := range fs {
		l.Append(f)
	}
	path := filepath.Join(t.TempDir(), "t.jsonl")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	tr, err := ReadTranscript(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	ix, err := OpenIndexed(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return map[string]Reader{"log": l, "transcript": tr, "indexed": ix}
}
