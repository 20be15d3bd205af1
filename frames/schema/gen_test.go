package schema_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
)

// A generator makes instances for a schema: most built from what the schema
// asks for (its types, properties, enums, bounds, formats), each with a
// chance of getting one thing wrong, so that both verdicts and the paths of
// violations get exercised.
type generator struct {
	root  any
	r     *rand.Rand
	wrong float64 // chance of getting a choice wrong on purpose
}

// formatSamples are valid and invalid strings for the formats tool schemas
// use, with the edge cases RFC 3339, 5321 and 3986 have.
var formatSamples = map[string][]string{
	"date-time": {"2025-06-01T10:00:00Z", "2025-06-01T10:00:00.123+01:00", "2025-06-01t10:00:00z", "2016-12-31T23:59:60Z",
		"2016-12-31T22:59:60-01:00", "2025-06-01T23:59:60Z", "2025-13-01T10:00:00Z", "2025-02-30T10:00:00Z", "2025-06-01T10:00:00",
		"2025-06-01 10:00:00Z", "yesterday", "2025-06-01T24:00:00Z", "2025-06-01T10:00:00+25:00", "2025-06-01T10:00:00.Z", ""},
	"date":          {"2024-02-29", "2023-02-29", "2025-06-01", "2025-6-1", "20250601", "2025-06-31", ""},
	"time":          {"10:00:00Z", "23:59:60Z", "10:00:00", "10:00:00.5+05:30", "1:00:00Z", "10:60:00Z"},
	"email":         {"a@b.co", "first.last@example.com", `"quoted"@example.com`, "nope", "a@b", "a..b@c.com", ".a@c.com", "a@[127.0.0.1]", "a@[IPv6:::1]", "a@-b.com", "@b.com", "a b@c.com"},
	"uri":           {"https://example.com/a?b=c#d", "mailto:a@b.co", "urn:isbn:0451450523", "x/y", "/abs", "http://[::1]:80/", "http://::1/", "http://a b.com/", "http://example.com/a b", "://x", ""},
	"uri-reference": {"x/y", "#frag", "", "http://e.com", `a\b`, "%zz"},
	"uuid":          {"123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000", "123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400g", "nope"},
	"ipv4":          {"127.0.0.1", "255.255.255.255", "256.0.0.1", "01.2.3.4", "1.2.3", "1.2.3.4.5", "a.b.c.d", "0.0.0.0"},
	"ipv6":          {"::1", "2001:db8::1", "fe80::1%eth0", "1:2:3:4:5:6:7:8:9", "127.0.0.1", "::ffff:127.0.0.1", ":::"},
	"hostname":      {"example.com", "a-b.c", "-a.com", "a-.com", "a_b.com", strings.Repeat("a", 64) + ".com", "example.com.", "", "a..b"},
	"duration":      {"P1D", "PT1H", "P1Y2M3DT4H5M6S", "P2W", "P", "PT", "P1H", "1D", "P1DT", "P1M1Y"},
	"regex":         {"^a+$", "(", "[a-", `\d{3}`, "(?=x)"},
	"json-pointer":  {"", "/a/b", "/a~0b", "/a~2", "a/b", "/~"},
}

func (g *generator) coin(p float64) bool { return g.r.Float64() < p }

// resolve follows a local $ref; other references stay unresolved.
func (g *generator) resolve(ref string) any {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return true
	}
	v := g.root
	if frag == "" {
		return v
	}
	for _, tok := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		m, ok := v.(map[string]any)
		if !ok {
			return true
		}
		if v, ok = m[tok]; !ok {
			return true
		}
	}
	return v
}

func (g *generator) random(depth int) any {
	switch k := g.r.IntN(7); {
	case k == 0:
		return nil
	case k == 1:
		return g.coin(0.5)
	case k == 2:
		return json.Number(strconv.Itoa(g.r.IntN(200) - 100))
	case k == 3:
		return json.Number(fmt.Sprintf("%.2f", g.r.Float64()*100))
	case k == 4 || depth > 2:
		return []string{"", "a", "hello", "ünïcode", "2025-06-01T10:00:00Z"}[g.r.IntN(5)]
	case k == 5:
		a := make([]any, g.r.IntN(3))
		for i := range a {
			a[i] = g.random(depth + 1)
		}
		return a
	default:
		m := map[string]any{}
		for i := range g.r.IntN(3) {
			m[fmt.Sprintf("k%d", i)] = g.random(depth + 1)
		}
		return m
	}
}

func num(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

func (g *generator) gen(s any, depth int) any {
	if depth > 6 {
		return g.random(3)
	}
	m, ok := s.(map[string]any)
	if !ok {
		return g.random(depth)
	}
	if g.coin(g.wrong / 3) {
		return g.random(depth)
	}
	if ref, ok := m["$ref"].(string); ok && g.coin(0.7) {
		return g.gen(g.resolve(ref), depth+1)
	}
	if c, ok := m["const"]; ok && !g.coin(g.wrong) {
		return c
	}
	if e, ok := m["enum"].([]any); ok && len(e) > 0 && !g.coin(g.wrong) {
		return e[g.r.IntN(len(e))]
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		if a, ok := m[k].([]any); ok && len(a) > 0 && g.coin(0.5) {
			return g.gen(a[g.r.IntN(len(a))], depth+1)
		}
	}
	var types []string
	switch t := m["type"].(type) {
	case string:
		types = []string{t}
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok {
				types = append(types, s)
			}
		}
	}
	if len(types) == 0 {
		switch {
		case m["properties"] != nil || m["required"] != nil || m["additionalProperties"] != nil:
			types = []string{"object"}
		case m["items"] != nil || m["prefixItems"] != nil:
			types = []string{"array"}
		case m["format"] != nil || m["pattern"] != nil || m["minLength"] != nil:
			types = []string{"string"}
		case m["minimum"] != nil || m["maximum"] != nil:
			types = []string{"number"}
		default:
			return g.random(depth)
		}
	}
	t := types[g.r.IntN(len(types))]
	if g.coin(g.wrong / 2) {
		t = []string{"null", "boolean", "integer", "number", "string", "array", "object"}[g.r.IntN(7)]
	}
	switch t {
	case "null":
		return nil
	case "boolean":
		return g.coin(0.5)
	case "integer", "number":
		return g.number(m, t == "integer")
	case "string":
		return g.string(m)
	case "array":
		return g.array(m, depth)
	default:
		return g.object(m, depth)
	}
}

func (g *generator) number(m map[string]any, integer bool) any {
	var cands []float64
	for _, k := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"} {
		if f, ok := num(m[k]); ok {
			cands = append(cands, f, f-1, f+1)
		}
	}
	if f, ok := num(m["multipleOf"]); ok {
		cands = append(cands, f*3, f*2.5)
	}
	cands = append(cands, 0, 1, -1, 42, 1e6)
	f := cands[g.r.IntN(len(cands))]
	if !integer && g.coin(0.3) || integer && g.coin(g.wrong) {
		f += 0.5
	}
	return json.Number(strconv.FormatFloat(f, 'f', -1, 64))
}

func (g *generator) string(m map[string]any) any {
	if f, ok := m["format"].(string); ok {
		if samples := formatSamples[f]; len(samples) > 0 && g.coin(0.8) {
			return samples[g.r.IntN(len(samples))]
		}
	}
	n := g.r.IntN(8)
	for _, k := range []string{"minLength", "maxLength"} {
		if f, ok := num(m[k]); ok && g.coin(0.5) {
			n = max(0, int(f)+g.r.IntN(3)-1)
		}
	}
	return strings.Repeat("ab", n)[:n]
}

func (g *generator) array(m map[string]any, depth int) any {
	n := g.r.IntN(4)
	for _, k := range []string{"minItems", "maxItems"} {
		if f, ok := num(m[k]); ok && g.coin(0.5) {
			n = max(0, int(f)+g.r.IntN(3)-1)
		}
	}
	n = min(n, 6)
	prefix, _ := m["prefixItems"].([]any)
	if p, ok := m["items"].([]any); ok {
		prefix = p
	}
	a := make([]any, n)
	for i := range a {
		switch {
		case i < len(prefix):
			a[i] = g.gen(prefix[i], depth+1)
		case m["items"] != nil && len(prefix) == 0:
			a[i] = g.gen(m["items"], depth+1)
		default:
			a[i] = g.random(depth + 1)
		}
	}
	if n > 1 && g.coin(0.2) {
		a[n-1] = a[0]
	}
	return a
}

func (g *generator) object(m map[string]any, depth int) any {
	out := map[string]any{}
	props, _ := m["properties"].(map[string]any)
	required := map[string]bool{}
	if r, ok := m["required"].([]any); ok {
		for _, x := range r {
			if s, ok := x.(string); ok {
				required[s] = true
			}
		}
	}
	names := make([]string, 0, len(props))
	for k := range props {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if required[k] && !g.coin(g.wrong/2) || g.coin(0.5) {
			out[k] = g.gen(props[k], depth+1)
		}
	}
	for k := range required {
		if _, ok := out[k]; !ok && props[k] == nil && !g.coin(g.wrong) {
			out[k] = g.random(depth + 1)
		}
	}
	if g.coin(g.wrong / 2) {
		out["unexpected"] = g.random(depth + 1)
	}
	return out
}

// instances returns n instances for a schema, encoded.
func instances(sch []byte, seed uint64, n int) [][]byte {
	var root any
	if json.Unmarshal(sch, &root) != nil {
		return nil
	}
	g := &generator{root: useNumbers(root), r: rand.New(rand.NewPCG(seed, 7)), wrong: 0.25}
	out := make([][]byte, 0, n)
	for range n {
		b, err := json.Marshal(g.gen(g.root, 0))
		if err == nil {
			out = append(out, b)
		}
	}
	return out
}

// useNumbers turns float64s into json.Numbers, so a generator's numbers
// are written back as they were read.
func useNumbers(v any) any {
	switch x := v.(type) {
	case float64:
		return json.Number(strconv.FormatFloat(x, 'f', -1, 64))
	case []any:
		for i := range x {
			x[i] = useNumbers(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = useNumbers(x[k])
		}
	}
	return v
}
