package frames

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
)

// quotedBodies is n different result frames as a recording holds them (the
// inside of the JSON string of raw): a text copy of the structuredContent,
// quoted twice over, and the structuredContent itself. Different bodies,
// not one repeated: a repeated body lets the branch predictor learn where
// its escapes are.
func quotedBodies(n int) [][]byte {
	r := rand.New(rand.NewPCG(3, 4))
	statuses := []string{"delivered", "pending", "cancelled", "shipped"}
	out := make([][]byte, n)
	for i := range out {
		orders := ""
		for o := range r.IntN(21) {
			if o > 0 {
				orders += ","
			}
			orders += fmt.Sprintf(`{"id":"ord-%d","customer_name":"Acme Corp","status":%q,"total":%.2f,"placed_at":"2026-0%d-%02dT10:00:00Z"}`,
				1000+r.IntN(9000), statuses[r.IntN(4)], 10+r.ExpFloat64()*150, 1+r.IntN(9), 1+r.IntN(28))
		}
		sc := fmt.Sprintf(`{"orders":[%s],"count":3,"truncated":false}`, orders)
		text, _ := json.Marshal(sc)
		q, _ := json.Marshal(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":%s}],"structuredContent":%s}}`, i, text, sc))
		out[i] = q[1 : len(q)-1]
	}
	return out
}

func BenchmarkUnescapeBodies(b *testing.B) {
	bodies := quotedBodies(4000)
	size := 0
	for _, q := range bodies {
		size += len(q)
	}
	for _, bc := range []struct {
		name string
		fn   func([]byte) ([]byte, bool)
	}{{"new", unescapeJSONString}, {"before", unescapeJSONStringRef}, {"spans", func(q []byte) ([]byte, bool) {
		raw, _, ok := unquoteSpans(q, nil)
		return raw, ok
	}}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(size))
			for range b.N {
				for _, q := range bodies {
					if _, ok := bc.fn(q); !ok {
						b.Fatal(string(q))
					}
				}
			}
		})
	}
}
