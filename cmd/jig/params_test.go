package main

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"
)

// plainParams reads the map the SDK decoded where encoding it and decoding
// it again (decodedParams) gives the same: on a corpus of schemas servers
// send and on 50,000 random ones with the keys that fold to the names read
// ("Properties", "propertieſ", "TYPE"), invalid UTF-8, nulls and wrong
// types, whenever plainParams answers, both read the same properties and
// required names and render the same line.
func TestPlainParamsIsTheRoundTrip(t *testing.T) {
	var schemas []any
	for _, s := range []string{
		`{"type":"object","properties":{"customer":{"type":"string"},"limit":{"type":"integer"}},"required":["customer"]}`,
		`{"type":"object","properties":{"a":{"type":["string","null"]},"b":{}},"required":null}`,
		`{"type":"object","properties":{"a":null,"b":{"type":null}}}`,
		`{"type":"object","properties":null}`, `{"type":"object"}`, `{}`, `null`, `[]`, `"x"`,
		`{"properties":{"a":true}}`, `{"properties":{"a":{"type":5}}}`, `{"properties":[]}`,
		`{"properties":{"a":{"type":"string"}},"Properties":{"b":{"type":"string"}}}`,
		`{"properties":{"a":{"Type":"string"}}}`, `{"properties":{"a":{"type":"string"}},"required":["a",1]}`,
		`{"properties":{"a":{"type":["string",1,true,null]}}}`,
	} {
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			t.Fatal(s, err)
		}
		schemas = append(schemas, v)
	}
	keys := []string{"properties", "Properties", "PROPERTIES", "propertieſ", "required", "REQUIRED", "type", "Type", "tYpe",
		"name", "a", "b", "\xff", "caf\xc3"}
	strs := []string{"string", "integer", "null", "", "\xff", "ſ", "a"}
	r := rand.New(rand.NewPCG(7, 7))
	var value func(depth int) any
	value = func(depth int) any {
		switch n := r.IntN(8); {
		case n == 0:
			return nil
		case n == 1:
			return r.IntN(2) == 0
		case n == 2:
			return float64(r.IntN(3))
		case n == 3 || depth > 3:
			return strs[r.IntN(len(strs))]
		case n == 4:
			a := make([]any, r.IntN(4))
			for i := range a {
				a[i] = value(depth + 1)
			}
			return a
		default:
			m := map[string]any{}
			for range r.IntN(4) {
				m[keys[r.IntN(len(keys))]] = value(depth + 1)
			}
			return m
		}
	}
	for range 50000 {
		schemas = append(schemas, value(0))
	}
	answered := 0
	for _, s := range schemas {
		pp, pr, ok := plainParams(s)
		if !ok {
			continue
		}
		answered++
		dp, dr, dok := decodedParams(s)
		if !dok {
			t.Fatalf("%#v: plainParams answers %v %q, encoding/json fails", s, pp, pr)
		}
		if len(pp) != len(dp) || len(pp) > 0 && !reflect.DeepEqual(pp, dp) || len(pr) != len(dr) || len(pr) > 0 && !reflect.DeepEqual(pr, dr) {
			t.Fatalf("%#v: plainParams reads %#v %q, encoding/json %#v %q", s, pp, pr, dp, dr)
		}
		if a, b := renderParams(pp, pr), renderParams(dp, dr); a != b {
			t.Fatalf("%#v: %q, by encoding/json %q", s, a, b)
		}
	}
	if answered < 1000 {
		t.Fatalf("plainParams answered only %d of %d schemas", answered, len(schemas))
	}
}
