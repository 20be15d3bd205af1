package session

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"
)

// membersCorpus is response and result texts with the members jig reads,
// spelled as encoding/json would and would not take them.
var membersCorpus = []string{
	`{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`,
	`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}`,
	`{"result":1,"result":2}`, `{"RESULT":1}`, `{"Result":1,"result":2}`, `{"result":2,"Result":1}`,
	`{"reſult":1}`, `{"re\u017fult":1}`, `{"\u0072esult":[1]}`, `{"résult":1}`, `{"resul":1}`, `{"results":1}`,
	`{"error":null}`, `{"ERROR":{}}`, `{"erroR":"x","error":"y"}`, `{"result":null}`, ` {"result" : [ 1 , 2 ] } `,
	`{"result":1`, `{"result":}`, `[{"result":1}]`, `"result"`, `null`, `1`, ``, `{}`, `{"a":{"result":1}}`,
	`{"tools":[{"name":"a"},{"name":"b"}]}`, `{"tools":[]}`, `{"tools":null}`, `{"tools":"x"}`, `{"tools":{}}`,
	`{"tools":[1],"tools":[2,3]}`, `{"tools":[1],"tools":null}`, `{"tools":[1],"TOOLS":[4]}`, `{"TOOLS":[4],"tools":[1]}`,
	`{"toolſ":[1]}`, `{"tools":[1,]}`, `{"tools":[1] , "x":true}`, "{\"tools\":[1]}\n", `{"tools":[1]}x`,
	`{"ttlMs":0}`, `{"ttlMs":5}`, `{"ttlMs":-5}`, `{"ttlMs":0.5}`, `{"ttlMs":"5"}`, `{"ttlMs":null}`, `{"ttlMs":5,"ttlMs":0}`,
	`{"ttlMs":0,"ttlMs":5}`, `{"TTLMS":5}`, `{"ttlMs":1e400}`, `{"ttlMs":1e-400}`, `{"ttlMs":0e5}`, `{"ttlMs":00}`, `{"ttlMs":5,}`,
	`{"tools":[],"ttlMs":60000,"cacheScope":"private"}`, `{"cacheScope":"public","ttlMs":0}`, `{"cacheScope":null}`,
	`{"cacheScope":"a","cacheScope":null}`, `{"CACHESCOPE":"x"}`, `{"cacheScope":5}`, `{"cacheScope":"\u00e9\ud800"}`, "{\"cacheScope\":\"\xff\"}",
	`{"cacheſcope":"x"}`, `{"ttlMs":5,"ttlMs":null}`, `{"ttlMs":1.5e3,"cacheScope":"private"}`, `{"ttlMs":-1e-9}`, `{"ttlMs":[1]}`, `{"cacheScope":{}}`, `{"a":{"ttlMs":5}}`, `{"ttlMs":-0}`, `{"ttlMs":true}`,
	"\vnull", "\fnull", " null\n", "nul", "\u00a0null", "{\"result\":1}\v",
	"{\"result\":\"\xff\"}", "{\"\xffresult\":1}", "{\"result\x00\":1}",
}

// mutants are random edits of the corpus: a byte changed, dropped or doubled.
func mutants(n int) []string {
	r := rand.New(rand.NewPCG(7, 7))
	const alphabet = `{}[]",:0123456789-. ntrueflsRESULTtoolsTTLMSerr\u017f`
	out := make([]string, 0, n)
	for range n {
		b := []byte(membersCorpus[r.IntN(len(membersCorpus))])
		for range 1 + r.IntN(3) {
			if len(b) == 0 {
				break
			}
			i := r.IntN(len(b))
			switch r.IntN(3) {
			case 0:
				b[i] = alphabet[r.IntN(len(alphabet))]
			case 1:
				b = append(b[:i:i], b[i+1:]...)
			default:
				b = append(b[:i+1:i+1], b[i:]...)
			}
		}
		out = append(out, string(b))
	}
	return out
}

// TestMembersAreEncodingJSON: responseMembers, arrayMembers and the ttlMs
// fast path read exactly what json.Unmarshal reads, on the corpus and on
// 50,000 mutants of it.
func TestMembersAreEncodingJSON(t *testing.T) {
	for _, c := range append(append([]string(nil), membersCorpus...), mutants(50000)...) {
		raw := []byte(c)
		var env struct {
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		_ = json.Unmarshal(raw, &env)
		if r, e := responseMembers(raw); !bytes.Equal(r, env.Result) || !bytes.Equal(e, env.Error) || (r == nil) != (env.Result == nil) || (e == nil) != (env.Error == nil) {
			t.Errorf("responseMembers(%q) = %q, %q; encoding/json: %q, %q", c, r, e, env.Result, env.Error)
		}
		var body struct {
			Tools []json.RawMessage `json:"tools"`
		}
		err := json.Unmarshal(raw, &body)
		tools, ok := arrayMembers(raw, "tools")
		if ok != (err == nil) || ok && len(tools) != len(body.Tools) {
			t.Errorf("arrayMembers(%q) = %q, %v; encoding/json: %q, %v", c, tools, ok, body.Tools, err)
		} else {
			for i := range tools {
				if !bytes.Equal(tools[i], body.Tools[i]) {
					t.Errorf("arrayMembers(%q)[%d] = %q; encoding/json: %q", c, i, tools[i], body.Tools[i])
				}
			}
		}
		var cache cacheFields
		cerr := json.Unmarshal(raw, &cache)
		if got, ok := cacheMembers(raw); ok != (cerr == nil) || ok && (got.CacheScope != cache.CacheScope || (got.TTLMs == nil) != (cache.TTLMs == nil) ||
			got.TTLMs != nil && math.Float64bits(*got.TTLMs) != math.Float64bits(*cache.TTLMs)) {
			t.Errorf("cacheMembers(%q) = %+v, %v; encoding/json: %+v, %v", c, got, ok, cache, cerr)
		}
		if got, want := positiveTTL(raw), slowUncached(raw); !got && want {
			t.Errorf("positiveTTL(%q) is false, but the result's ttlMs is rewritten", c)
		}
	}
}

// slowUncached is whether uncachedResult's decoding changes result.
func slowUncached(result []byte) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(result, &m) != nil {
		return false
	}
	var ttl float64
	v, ok := m["ttlMs"]
	return ok && json.Unmarshal(v, &ttl) == nil && ttl > 0
}

// toolsListResponse is a tools/list answer shaped as the go-sdk everything
// server's: a base64 icon in _meta, ten tools, a ttlMs.
func toolsListResponse() []byte {
	icon := bytes.Repeat([]byte("iVBORw0KGgoAAAANSUhEUgAAAEAAAABACAIAAAAlC+aJAAAAAXNSR0IArs4c6QAAAERlWElmTU0AKgAAAAgAAYdpAAQAAAABAAAAGgAAkeYghZ"), 40)
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","_meta":{"serverInfo":{"name":"everything","icons":[{"src":"data:image/png;base64,` + string(icon) + `"}]}},"tools":[`)
	for i := range 10 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"name":"greet","description":"say hi","inputSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}`)
	}
	b.WriteString(`],"ttlMs":0,"cacheScope":"public"}}`)
	return b.Bytes()
}

// BenchmarkListingMembers is what jig reads of one tools/list answer (its
// result, the tools, the ttlMs, the cache hint), by members and by
// encoding/json as before.
func BenchmarkListingMembers(b *testing.B) {
	raw := toolsListResponse()
	b.Run("members", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		b.ReportAllocs()
		for b.Loop() {
			result, _ := responseMembers(raw)
			arrayMembers(result, "tools")
			uncachedResult(result)
			cacheMembers(result)
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		b.ReportAllocs()
		for b.Loop() {
			var env struct {
				Result json.RawMessage `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			json.Unmarshal(raw, &env)
			var body struct {
				Tools []json.RawMessage `json:"tools"`
			}
			json.Unmarshal(env.Result, &body)
			slowUncached(env.Result)
			var cache cacheFields
			json.Unmarshal(env.Result, &cache)
		}
	})
}
