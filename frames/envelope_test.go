package frames

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// classifySeeds are lines servers really send, and lines that killed
// sessions because the SDK refused them after jig had passed them on.
var classifySeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"a":"}]\"{["}}`,
	`{"jsonrpc":"2.0","id":"x\"y","result":{"content":[{"type":"text","text":"{\"n\":1}"}]}}`,
	`{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"no"}}`,
	`{ "jsonrpc" : "2.0" , "method" : "notifications/x" }`,
	`{"jsonrpc":"2.0","id":null,"result":[1,2,{"a":[]}],"extra":true}`,
	`{"jsonrpc":"2.0","method":"notifications/message","params":{"data":NaN}}`,
	`{"jsonrpc":"2.0","id":2,"result":{"v":Infinity}}`,
	`{"jsonrpc":"2.0","id":2,"result":{"a":tru}}`,
	`{"jsonrpc":"2.0","id":{"a":1},"result":{}}`,
	`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`,
	`{"jsonrpc":"2.0","id":1.5,"result":{}}`,
	`{"jsonrpc":"2.0","id":1.0,"result":{}}`,
	`{"jsonrpc":"2.0","id":2,"error":{"code":1.5,"message":"x"}}`,
	`{"jsonrpc":"2.0","id":2,"error":"boom"}`,
	`{"jsonrpc":"2.0","m\u0065thod":"ping","id":7}`,
	`{"jsonrpc":"2.0","id":7,"method":null}`,
	`{"jsonrpc":2.0,"id":7,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":7,"result":{}}   `,
	"{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":\"\xff\"}",
	`{"jsonrpc":"2.0","id":5,"result":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}`,
	`{}`, `{"a":1}x`, `{"a":}`, `{"a":"\\"}`, `[]`, `[{"jsonrpc":"2.0","id":1,"result":{}}]`,
}

// FuzzClassify holds Classify to the promise the stdio tap relies on: a
// frame it calls Dispatchable is one the SDK's decoder (encoding/json on the
// stream, then jsonrpc.DecodeMessage) accepts, with the same kind, method
// and id. Anything else would be handed to the SDK and drop the connection.
func FuzzClassify(f *testing.F) {
	for _, s := range classifySeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		fr := Frame{Raw: raw}
		fr.Classify()
		if !fr.Dispatchable() {
			return
		}
		line := bytes.TrimSpace(raw)
		if !json.Valid(line) {
			t.Fatalf("Classify calls %q a %s, but it is not valid JSON", raw, fr.Kind)
		}
		msg, err := jsonrpc.DecodeMessage(line)
		if err != nil {
			t.Fatalf("Classify calls %q a %s, but the SDK refuses it: %v", raw, fr.Kind, err)
		}
		switch m := msg.(type) {
		case *jsonrpc.Request:
			if (fr.Kind != KindRequest && fr.Kind != KindNotification) || m.Method != fr.Method || !sameID(m.ID, fr.ID) {
				t.Fatalf("Classify(%q) = %s %q id %q; the SDK reads a request %q id %v", raw, fr.Kind, fr.Method, fr.ID, m.Method, m.ID.Raw())
			}
		case *jsonrpc.Response:
			if !fr.IsResponse() || !sameID(m.ID, fr.ID) {
				t.Fatalf("Classify(%q) = %s id %q; the SDK reads a response id %v", raw, fr.Kind, fr.ID, m.ID.Raw())
			}
		}
	})
}

// sameID reports whether the SDK's id is the one a frame names.
func sameID(id jsonrpc.ID, text string) bool {
	switch v := id.Raw().(type) {
	case nil:
		return text == ""
	case int64:
		return text == strconv.FormatInt(v, 10)
	case string:
		var s string
		return json.Unmarshal([]byte(text), &s) == nil && s == v
	}
	return false
}

func TestClassifyIsAsStrictAsTheSDK(t *testing.T) {
	tests := []struct {
		raw, err string
		kind     Kind
		id       string
	}{
		{`{"jsonrpc":"2.0","method":"notifications/message","params":{"data":NaN}}`, "invalid character 'N'", KindInvalid, ""},
		{`{"jsonrpc":"2.0","id":2,"result":{"v":Infinity}}`, "invalid character 'I'", KindInvalid, "2"},
		{`{"jsonrpc":"2.0","id":2,"result":{"a":tru}}`, "invalid JSON at byte", KindInvalid, "2"},
		{`{"jsonrpc":"2.0","id":{"a":1},"result":{}}`, "id is an object", KindInvalid, ""},
		{`{"jsonrpc":"2.0","id":true,"result":{}}`, "id is a boolean", KindInvalid, ""},
		{`{"jsonrpc":"2.0","id":1.5,"result":{}}`, "has a fraction", KindInvalid, ""},
		{`{"jsonrpc":"2.0","id":1e400,"result":{}}`, "out of range", KindInvalid, ""},
		{`{"jsonrpc":"2.0","id":10000000000000001,"result":{}}`, "past what the SDK reads exactly", KindInvalid, ""},
		{`{"jsonrpc":"2.0","id":9007199254740992,"result":{}}`, "", KindResult, "9007199254740992"},
		{`{"jsonrpc":"2.0","id":2,"error":{"code":1.5,"message":"x"}}`, "error.code is 1.5", KindInvalid, "2"},
		{`{"jsonrpc":"2.0","id":2,"error":{"code":-1,"message":7}}`, "error.message is a number", KindInvalid, "2"},
		{`{"jsonrpc":"2.0","id":2,"error":"boom"}`, "error is a string", KindInvalid, "2"},
		{`{"jsonrpc":"2.0","id":7,"method":null}`, "method is null", KindInvalid, "7"},
		{`{"jsonrpc":"2.0","id":7,"method":5}`, "method is a number", KindInvalid, "7"},
		{`{"jsonrpc":2.0,"id":7,"method":"ping"}`, "not JSON-RPC 2.0", KindInvalid, "7"},
		{`{"jsonrpc":"2.0","id":null,"result":{}}`, "a result with no id", KindInvalid, ""},
		{"{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":\"\xff\"}", "invalid UTF-8 at byte 35", KindInvalid, "7"},
		{`{"jsonrpc":"2.0","id":5,"result":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}`, "1001 levels deep", KindInvalid, "5"},
		// The id-null error is the server's complaint: a message, kept as an
		// error, but it answers nothing and is not dispatched.
		{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`, "id null", KindError, ""},
		// Accepted, as the SDK accepts them.
		{`{"jsonrpc":"2.0","m\u0065thod":"ping","id":7}`, "", KindRequest, "7"},
		{`{"jsonrpc":"2.0","id":1.0,"result":{}}`, "", KindResult, "1"},
		{`{"jsonrpc":"2.0","id":-3,"result":{}}`, "", KindResult, "-3"},
		{`{"jsonrpc":"2.0","id":7,"result":{}}   `, "", KindResult, "7"},
		{`{"jsonrpc":"2.0","id":5,"result":` + strings.Repeat("[", 999) + strings.Repeat("]", 999) + `}`, "", KindResult, "5"},
		{`{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"no","data":{"x":[1]}}}`, "", KindError, "2"},
	}
	for _, tt := range tests {
		f := Frame{Raw: []byte(tt.raw)}
		f.Classify()
		short := tt.raw
		if len(short) > 80 {
			short = short[:80] + "…"
		}
		if f.Kind != tt.kind || f.ID != tt.id || !strings.Contains(f.Err, tt.err) || (tt.err == "" && f.Err != "") {
			t.Errorf("Classify(%q) = %s id %q err %q; want %s id %q err containing %q", short, f.Kind, f.ID, f.Err, tt.kind, tt.id, tt.err)
		}
		_, sdkErr := jsonrpc.DecodeMessage(bytes.TrimSpace(f.Raw))
		if f.Dispatchable() && sdkErr != nil {
			t.Errorf("Classify(%q) dispatches what the SDK refuses: %v", short, sdkErr)
		}
	}
}
