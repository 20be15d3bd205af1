package frames

import (
	"strings"
	"testing"
)

// A key whose name says "token" as a unit or a cursor (a model's budget,
// a page's cursor, the tokenizer) holds no credential: its value is the
// evidence, often the very bug (maxTokens sent as a string). One that
// names a credential (token, id_token, apiToken, csrftoken) stays secret,
// and a credential's shape is redacted under any name.
func TestSecretKeyRuleSparesTokenUnitsAndCursors(t *testing.T) {
	kept := map[string]string{
		"maxTokens": "ten", "max_tokens": "512", "MAX-TOKENS": "1k", "tokenizer": "cl100k_base",
		"tokens": "many-many-many", "prompt_tokens": "twelve12", "page_token": "abcdefgh12",
		"nextPageToken": "CgwIARIIdGVzdA", "progressToken": "jig-progress-1", "token_count": "1234567890",
		"tokenLimit": "4096-tokens", "pagetoken": "pagecursor-9", "token_endpoint": "https://a.example/token",
	}
	secret := map[string]string{
		"token": "tok-1234567890", "access_token": "acc-1234567890", "id_token": "idt-1234567890",
		"refreshToken": "ref-1234567890", "apiToken": "api-1234567890", "csrftoken": "csrf-1234567890",
		"auth_token": "aut-1234567890", "session_token": "ses-1234567890", "max_token_secret": "mts-1234567890",
		"tokenSecret": "tsc-1234567890", "accessToken": "act-1234567890",
	}
	var b strings.Builder
	b.WriteString(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{`)
	sep := ""
	for _, m := range []map[string]string{kept, secret} {
		for k, v := range m {
			b.WriteString(sep + `"` + k + `":"` + v + `"`)
			sep = ","
		}
	}
	// a credential's shape under a name that spares it: still redacted
	b.WriteString(`,"page_token":"sk-abcdefghijklmnopqrstuvwxyz012345"}}}`)
	r := NewRedactor()
	got := string(r.Bytes([]byte(b.String())))
	for k, v := range kept {
		if !strings.Contains(got, `"`+k+`":"`+v+`"`) {
			t.Errorf("%s's value %q was redacted: %s", k, v, got)
		}
	}
	for k, v := range secret {
		if strings.Contains(got, v) {
			t.Errorf("%s's value %q was kept: %s", k, v, got)
		}
	}
	if strings.Contains(got, "sk-abcdefghijklmnopqrstuvwxyz012345") {
		t.Errorf("an sk- key under page_token was kept: %s", got)
	}
	// Learning what jig sends spares the same names.
	l := NewRedactor()
	l.Learn([]byte(b.String()))
	out := string(l.Bytes([]byte(`{"text":"echo: cl100k_base abcdefgh12 acc-1234567890"}`)))
	if !strings.Contains(out, "cl100k_base abcdefgh12") || strings.Contains(out, "acc-1234567890") {
		t.Errorf("learned values: %s", out)
	}
}
