package frames

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// A value's strength decides where it is replaced: a boolean, a number or a
// short value never, a word only where it stands as a word within longer
// text, a long mixed value everywhere. JSON stays JSON either way.
func TestWeakValuesKeepTheEvidence(t *testing.T) {
	frame := []byte(`{"result":{"tools":[{"name":"echo","annotations":{"readOnlyHint":true,"destructiveHint":false},` +
		`"outputSchema":{"properties":{"humidity":{"type":"number"}},"required":["temperature","humidity"]}}],` +
		`"content":[{"type":"text","text":"this is a test of testing, humidity 82, port 8080, \ntest"}],"n":8080}}`)
	for _, tc := range []struct {
		value string
		want  Strength
		in    string // what the frame must read where the value was
	}{
		{"true", Unredactable, `"readOnlyHint":true`},
		{"false", Unredactable, `"destructiveHint":false`},
		{"8080", Unredactable, `"n":8080`},
		{"test", Weak, `this is a [REDACTED:value] of testing`},
		{"humidity", Weak, `"required":["temperature","humidity"]`},
		{"Zq9plainNOTshaped7731", Strong, ``},
	} {
		if got := ValueStrength(tc.value); got != tc.want {
			t.Errorf("ValueStrength(%q) = %d, want %d", tc.value, got, tc.want)
		}
		out := NewRedactor(tc.value).Bytes(frame)
		if !json.Valid(out) {
			t.Errorf("secret %q: the frame is no longer JSON:\n%s", tc.value, out)
		}
		if !strings.Contains(string(out), tc.in) {
			t.Errorf("secret %q: the frame lacks %q:\n%s", tc.value, tc.in, out)
		}
	}
	out := string(NewRedactor("test").Bytes(frame))
	if !strings.Contains(out, `\n[REDACTED:value]`) || !strings.Contains(out, `"humidity":{`) {
		t.Errorf("a weak value after an escape must go, a key must stay:\n%s", out)
	}
	out = string(NewRedactor("humidity").Bytes(frame))
	if !strings.Contains(out, `[REDACTED:value] 82`) || !strings.Contains(out, `"humidity":{`) {
		t.Errorf("humidity: the word in text goes, the key and the schema's name stay:\n%s", out)
	}
}

// A recording's meta record stays a JSON document whatever a secret's value
// holds: a value that spans JSON's own syntax made the session record fail
// to encode, and the recording lost it.
func TestMetaRecordSurvivesAValueThatSpansJSON(t *testing.T) {
	const secret = `1,"user":"x1y2`
	var buf bytes.Buffer
	w := NewTranscriptWriter(&buf, NewRedactor(secret))
	if err := w.WriteMeta("session", json.RawMessage(`{"n":1,"user":"x1y2z3w4"}`), time.Unix(0, 0)); err != nil {
		t.Fatalf("the meta record was not written: %v", err)
	}
	if !json.Valid(bytes.TrimSpace(buf.Bytes())) || !strings.Contains(buf.String(), `"key":"session"`) {
		t.Errorf("the session record is not JSON: %s", buf.Bytes())
	}
}

// The note about weak values names the variables, never their values.
func TestWeakEnvNoteNamesNoValue(t *testing.T) {
	n := WeakEnvNote([]string{"API_TOKEN=true", "MY_API_KEY=test", "GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789", "HOME=/root", "SSH_AUTH_SOCK=/tmp/x"})
	for _, want := range []string{"$API_TOKEN", "$MY_API_KEY"} {
		if !strings.Contains(n, want) {
			t.Errorf("note lacks %s: %s", want, n)
		}
	}
	for _, not := range []string{"true", "test", "GITHUB", "SSH"} {
		if strings.Contains(n, not) {
			t.Errorf("note holds %q: %s", not, n)
		}
	}
}

// A key named like a secret inside JSON carried in a text block (get-env's
// dump of the environment) is redacted by its name, as in a frame's own JSON:
// a recording of a value jig was not told of kept it in clear.
func TestSecretKeyInsideATextBlock(t *testing.T) {
	frame := []byte(`{"content":[{"type":"text","text":"{\n  \"API_TOKEN\": \"Zq9plainNOTshaped7731\",\n  \"progressToken\": \"p1\"}"}]}`)
	out := string(NewRedactor().Bytes(frame))
	if strings.Contains(out, "Zq9plainNOTshaped7731") || !strings.Contains(out, `\"p1\"`) || !json.Valid([]byte(out)) {
		t.Errorf("want the token redacted by its key's name, the progress token kept, JSON valid:\n%s", out)
	}
}

// Two weak values whose matches share bytes are replaced as one range: the
// second was skipped whole, leaving its end (" baz") in the text.
func TestWeakMatchesThatOverlapLeaveNoPart(t *testing.T) {
	got := string(replaceWeak([]byte("say foo bar baz now"), []string{"foo bar", "bar baz"}))
	if got != "say "+Placeholder("value")+" now" {
		t.Errorf("overlapping weak values: %q", got)
	}
}
