package schema

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestValidate(t *testing.T) {
	const since = `{"type":"object","properties":{"since":{"type":"string","format":"date-time"}},"required":["since"]}`
	tests := []struct {
		name     string
		schema   string
		instance string
		want     []string
	}{
		{"valid", since, `{"since":"2025-06-01T10:00:00Z"}`, nil},
		{"retyped to epoch", since, `{"since":1748772000}`, []string{"/since: got number, want string"}},
		{"missing required", since, `{}`, []string{"(root): missing property 'since'"}},
		{"format asserted", since, `{"since":"yesterday"}`, []string{"/since: 'yesterday' is not valid date-time: want RFC 3339, e.g. 2025-06-01T10:00:00Z"}},
		{"not JSON", since, `{"since":`, []string{"(root): not valid JSON: unexpected EOF"}},
		{"nested array index", `{"type":"object","properties":{"orders":{"type":"array","items":{"type":"object","properties":{"total":{"type":"number"}}}}}}`,
			`{"orders":[{"total":1},{"total":"2"}]}`, []string{"/orders/1/total: got string, want number"}},
		{"pointer escaping", `{"type":"object","properties":{"a/b":{"type":"integer"}}}`, `{"a/b":1.5}`,
			[]string{"/a~1b: got number, want integer"}},
		{"several leaves sorted", `{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"string"}}}`, `{"b":1,"a":2}`,
			[]string{"/a: got number, want string", "/b: got number, want string"}},
		{"draft-07 honoured: items array is a tuple", `{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"string"}],"additionalItems":false}`,
			`["a",1]`, []string{"(root): last 1 additionalItem(s) not allowed"}},
		{"draft 2020 by default: prefixItems", `{"prefixItems":[{"type":"string"}],"items":false}`, `["a",1]`,
			[]string{"/1: false schema"}},
		{"enum", `{"enum":["open","closed"]}`, `"pending"`, []string{"(root): value must be one of 'open', 'closed'"}},
		{"1.0 is an integer", `{"type":"integer"}`, `1.0`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vs, err := Validate(json.RawMessage(tt.schema), json.RawMessage(tt.instance))
			if err != nil {
				t.Fatalf("Validate: unexpected error %v (the schema should compile)", err)
			}
			var got []string
			for _, v := range vs {
				got = append(got, v.String())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("violations (-want +got):\n%s", diff)
			}
		})
	}
}

func TestValidateSchemaErrors(t *testing.T) {
	for _, s := range []string{`{"type":`, `{"type":"strnig"}`, `{"$ref":"#/$defs/missing"}`, `{"pattern":"("}`} {
		if _, err := Validate(json.RawMessage(s), json.RawMessage(`{}`)); err == nil {
			t.Errorf("Validate(%s): want a compile error, got none", s)
		}
	}
}

// TestValidateConcurrent runs under -race: the TUI and a replay may validate
// at the same time.
func TestValidateConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := fmt.Sprintf(`{"type":"object","properties":{"n":{"maximum":%d}}}`, i%4)
			vs, err := Validate(json.RawMessage(s), json.RawMessage(`{"n":10}`))
			if err != nil || len(vs) != 1 || !strings.HasPrefix(vs[0].Path, "/n") {
				t.Errorf("Validate(%s) = %v, %v; want one violation at /n", s, vs, err)
			}
		}()
	}
	wg.Wait()
}

func TestValidateCachesCompiledSchemas(t *testing.T) {
	s := json.RawMessage(`{"type":"string","title":"cache probe"}`)
	a, _ := compile(s)
	b, _ := compile(s)
	if a != b {
		t.Errorf("compile twice returned different *Schema; the TUI recompiles on every keystroke without the cache")
	}
}

func BenchmarkValidateCached(b *testing.B) {
	s := json.RawMessage(`{"type":"object","properties":{"since":{"type":"string","format":"date-time"}}}`)
	inst := json.RawMessage(`{"since":"2025-06-01T10:00:00Z"}`)
	for b.Loop() {
		Validate(s, inst)
	}
}
