package frames

import (
	"encoding/json"
	"testing"
)

// FuzzScanEnvelope checks the bracket-matching scanner against
// encoding/json: on every valid JSON object they must agree on the members
// the classifier reads.
func FuzzScanEnvelope(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"a":"}]\"{["}}`,
		`{"jsonrpc":"2.0","id":"x\"y","result":{"content":[{"type":"text","text":"{\"n\":1}"}]}}`,
		`{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"no"}}`,
		`{ "jsonrpc" : "2.0" , "method" : "notifications/x" }`,
		`{"jsonrpc":"2.0","id":null,"result":[1,2,{"a":[]}],"extra":true}`,
		`{}`, `{"a":1}x`, `{"a":}`, `{"a":"\\"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var want envelope
		wantErr := json.Unmarshal(raw, &want)
		var obj map[string]json.RawMessage
		isObject := json.Unmarshal(raw, &obj) == nil
		got, err := scanEnvelope(raw)
		if !isObject || wantErr != nil {
			return // invalid input: the scanner may accept or refuse; Classify reports json's error
		}
		if err != nil {
			t.Fatalf("scanEnvelope(%q) = %v, but it is a valid object", raw, err)
		}
		if string(got.ID) != string(want.ID) || (got.Method == nil) != (want.Method == nil) ||
			(got.Method != nil && *got.Method != *want.Method) || (got.Result == nil) != (want.Result == nil) {
			t.Fatalf("scanEnvelope(%q) = %+v, encoding/json says %+v", raw, got, want)
		}
	})
}
