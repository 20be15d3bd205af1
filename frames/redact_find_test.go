package frames

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// tokenRuleSeeds are texts where each rule's start finder has an edge to
// get wrong: boundaries, case, overlapping candidates, runs that begin
// before a previous match ends, escaped quotes, multi-byte neighbours.
var tokenRuleSeeds = []string{
	`{"text":"{\n  \"API_TOKEN\": \"Zq9plainNOTshaped7731\",\n  \"progressToken\": \"p1\", \"x_secret\":\"a\\\"b\"}"}`,
	`{"api_key":"sk-live-0123456789abcdefghij","token_type":"Bearer","x":"y"}`,
	`{"a":"b","ACCESS_KEY" : "v\"q\\w","password":"","secret":"x\` + "\n" + `y"}`,
	`"x"token":"v" "tokentoken":"a""token":"b"`,
	`"auth.token-1" :	"abc" "progressToken":"p1" "token_endpoint":"https://a/b"`,
	`Authorization: Bearer abcdefgh12345678, basic   dXNlcjpwYXNz Bearer resource_metadata="x"`,
	`xBearer abcdefghijk _bearer abcdefghijk é bearer abcdefghijk BEARER ABCDEFGHIJK`,
	`eyJhbGciOi.eyJzdWIiOi.c2lnbmF0dXJl xeyJhbGciOi.eyJzdWIiOi.c2lnbmF0dXJl`,
	`ghp_0123456789abcdefghijklmnopqrstuvwxyz github_pat_0123456789abcdefghijklmnopqrst_x xghp_0123456789abcdefghijklmnopqrstuvwxyz`,
	`gh ghx ghp_short -ghs_0123456789abcdefghijklmnopqrstuvwxyzAB`,
	`sk-0123456789abcdefghijkl pk-0123456789abcdefghijkl_ rk-abc xsk-0123456789abcdefghijkl`,
	`xoxb-0123456789-abc xoxz-0123456789 AKIA0123456789ABCDEF AKIA0123456789ABCDEFG`,
	`?pwd=abc&pass=x ;pw=y compass=z &passphrase=w -pwd=v ?PWD=Q&Pass= ?pass&pw==2`,
	`sk_live_0123456789 xsk_live_0123456789 rk_test_abc sk_prod_0123456789abc whsec_0123456789abcdefghij sk_test_`,
	`https://u?x=1&api_key=abc&sig=def;auth-token=ghi --token=jkl -password=mno a--secret=pqr x-token=stu`,
	`?a=1&=2&&token==3 ;;key=;secret=v&signature=%41%42 ---sig=x`,
	`https://user:pass@host http://:p@h HTTPS://U:P@H x+y.z-w://a:b@c _http://a:b@c 9ftp://a:b@c ://a:b@c`,
	`postgres://admin:hunter2@db:5432/x?sslmode=disable&password=hunter3 redis://:pw@r mysql://a:b:c@d`,
	`a-http://u:p@h é-https://u:p@h "url":"s3://k:s@b" ht-tp://x:y@z`,
	"{\"api_key\":\"é\xffx\",\"token\":\"\\u0073ecret\"} \xff\"token\":\"v\"",
}

// TestTokenRuleFindIsTheRegexp: on every seed and every recorded transcript
// in testdata, each rule's findAll is exactly its regexp's
// FindAllSubmatchIndex, and matches is exactly Match.
func TestTokenRuleFindIsTheRegexp(t *testing.T) {
	texts := append([]string(nil), tokenRuleSeeds...)
	if files, err := os.ReadDir("testdata"); err == nil {
		for _, f := range files {
			if b, err := os.ReadFile("testdata/" + f.Name()); err == nil && !f.IsDir() {
				texts = append(texts, string(b))
			}
		}
	}
	found := map[string]int{}
	for _, s := range texts {
		for i := range tokenRules() {
			tr := &tokenRules()[i]
			got := checkTokenRule(t, tr, []byte(s))
			found[tr.name] += got
		}
	}
	for i := range tokenRules() {
		if name := tokenRules()[i].name; found[name] == 0 {
			t.Errorf("no seed matches rule %s: its finder is not exercised", name)
		}
	}
}

func checkTokenRule(t *testing.T, tr *tokenRule, b []byte) int {
	t.Helper()
	want := tr.re().FindAllSubmatchIndex(b, -1)
	// Both ways of trying a start: slices and readers.
	for _, max := range []int{sliceMax, 0, len(b)} {
		var lower []byte
		got := tr.findAllWith(b, &lower, max)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("rule %s on %q (slices up to %d):\nfindAll %v\nregexp  %v", tr.name, b, max, got, want)
		}
		lower = nil
		if m := tr.matchesWith(b, &lower, max); m != tr.re().Match(b) {
			t.Errorf("rule %s on %q (slices up to %d): matches %v, regexp %v", tr.name, b, max, m, !m)
		}
	}
	return len(want)
}

func FuzzTokenRuleFind(f *testing.F) {
	for _, s := range tokenRuleSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for i := range tokenRules() {
			checkTokenRule(t, &tokenRules()[i], []byte(s))
		}
	})
}

// BenchmarkRedactToolsList is the redaction of a large tools/list with an
// icon in it, as the go-sdk everything server lists its tools: base64 and
// URLs put most rules' hints in the frame, and the rules' regexps used to
// search all of it.
func BenchmarkRedactToolsList(b *testing.B) {
	icon := strings.Repeat("iVBORw0KGgoAAAANSUhEUgAAAEAAAABACAIAAAAlC+aJAAAAAXNSR0IArs4c6QAAAERlWElmTU0AKgAAAAgAAYdpAAQAAAABAAAAGgAAkeYghZ", 40)
	var sb strings.Builder
	sb.WriteString(`{"jsonrpc":"2.0","id":3,"result":{"_meta":{"serverInfo":{"websiteUrl":"https://example.com","icons":[{"src":"data:image/png;base64,` + icon + `"}]}},"tools":[`)
	for i := range 10 {
		if i > 0 {
			sb.WriteString(",")
		}
		sb.WriteString(`{"name":"greet","description":"say hi; see https://example.com/docs?lang=en","inputSchema":{"type":"object","properties":{"name":{"type":"string","description":"the key to use"}},"required":["name"]}}`)
	}
	sb.WriteString(`]}}`)
	raw := []byte(sb.String())
	r := NewRedactor()
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		r.Bytes(raw)
	}
}

// Learning what jig sends under secret-named keys spares the keys Bytes
// spares: a call sent with a progress token must not make that token a
// secret that every later frame, and the pinned fixture, shows redacted.
func TestLearnSparesPublicKeys(t *testing.T) {
	r := NewRedactor()
	r.Learn([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":"jig-progress-1"},"name":"x","arguments":{"token_endpoint":"https://auth.example/tok","api_key":"abcdefgh12345"}}}`))
	if got := r.String(`progress of jig-progress-1 at https://auth.example/tok`); got != `progress of jig-progress-1 at https://auth.example/tok` {
		t.Errorf("a learned progressToken or OAuth metadata value is redacted: %s", got)
	}
	if got := r.String(`echo abcdefgh12345`); strings.Contains(got, "abcdefgh12345") {
		t.Errorf("the api_key sent was not learned: %s", got)
	}
}
