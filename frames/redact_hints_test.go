package frames

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestHintIndexIsContains: the one-pass hint index finds exactly the hints
// bytes.Contains finds in the lower-cased text, and so rules exactly the
// same rules in and out as tokenRule.mayMatch, on texts holding every hint
// in mixed case, at the ends, overlapping, and on 30,000 random texts over
// the hints' letters.
func TestHintIndexIsContains(t *testing.T) {
	x := hintsOfRules()
	texts := []string{"", "g", "gh", "GH", "xgh", "ghx", "://", ":/", "tokentoken", "TOKEN", "ToKeN", "tokn", "passw", "PASSW0RD",
		"github_pat_", "github_pa", "sk-", "SK-", "s-k", "eyJ", "EYJ", "xox", "XoX", "akia", "AKIA", "bearer basic", "api_key", "credential",
		"authorization", `{"name":"greet","description":"say hi; see https://example.com/docs?lang=en"}`,
		strings.Repeat("iVBORw0KGgoAAAANSUhEUgAAAEAAAABACAIAAAAlC+aJAAAAAXNSR0IArs4c6QAAAERlWElmTU0AKgAAAAgAAYdpAAQAAAABAAAAGgAAkeYghZ", 20)}
	var letters []byte
	for _, h := range x.hints {
		letters = append(letters, h...)
		letters = append(letters, bytes.ToUpper([]byte(h))...)
	}
	letters = append(letters, " _-:/\"\xff"...)
	r := rand.New(rand.NewPCG(3, 3))
	for range 30000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = letters[r.IntN(len(letters))]
		}
		if r.IntN(4) == 0 { // a whole hint, in random case, somewhere
			h := []byte(x.hints[r.IntN(len(x.hints))])
			for i := range h {
				if r.IntN(2) == 0 {
					h[i] = bytes.ToUpper(h[i : i+1])[0]
				}
			}
			at := r.IntN(len(b) + 1)
			b = append(b[:at:at], append(h, b[at:]...)...)
		}
		texts = append(texts, string(b))
	}
	alnum := strings.Repeat("a1B2c3D4e5", 4)
	for _, secret := range []string{"ghp_" + alnum, "gho_" + alnum, "ghu_" + alnum, "ghs_" + alnum, "ghr_" + alnum, "github_pat_" + alnum,
		"sk-" + alnum, "sk_live_" + alnum, "rk_test_" + alnum, "whsec_" + alnum, "pk-" + alnum, "rk-" + alnum, "xoxb-" + alnum, "AKIA" + strings.ToUpper(alnum[:16]), "eyJ" + alnum + ".eyJ" + alnum + "." + alnum,
		"Bearer " + alnum, "basic " + alnum, `"api_key": "` + alnum + `"`, `"Authorization":"x"`, "?token=" + alnum, "--password=" + alnum,
		"https://user:" + alnum + "@host/", `{"x":"` + strings.Repeat("iVBORw0KGgo", 30) + `ghp_` + alnum + `"}`} {
		texts = append(texts, secret, " "+secret+" ", `"`+secret+`"`)
	}
	rules := tokenRules()
	matched := 0
	for _, text := range texts {
		b := []byte(text)
		present := x.present(b)
		lower := asciiLower(b)
		for i, h := range x.hints {
			if got, want := present&(1<<i) != 0, bytes.Contains(lower, []byte(h)); got != want {
				t.Errorf("%q: hint %q found %v, bytes.Contains %v", text, h, got, want)
			}
		}
		for i := range rules {
			var l []byte
			if got, want := x.mayMatch(i, present), rules[i].mayMatch(b, bigramsOf(b), &l); got != want {
				t.Errorf("%q: rule %s may match %v by the index, %v by its hints", text, rules[i].name, got, want)
			}
			if rules[i].re().Match(b) {
				matched++
				if !x.mayMatch(i, present) {
					t.Errorf("%q: rule %s's regexp matches, but its hints rule it out", text, rules[i].name)
				}
			}
		}
	}
	if matched < 50 {
		t.Errorf("only %d texts matched a rule: the hints' soundness was hardly tried", matched)
	}
}

// TestASCIILower: the eight-bytes-at-a-time lower-casing is the byte-by-byte
// one on every byte value at every offset and on random texts.
func TestASCIILower(t *testing.T) {
	slow := func(b []byte) []byte {
		out := make([]byte, len(b))
		for i, c := range b {
			out[i] = lowerASCII(c)
		}
		return out
	}
	var all []byte
	for c := range 256 {
		all = append(all, byte(c))
	}
	texts := [][]byte{nil, []byte("A"), []byte("@AZ[`az{"), all}
	for off := range 9 {
		texts = append(texts, append(make([]byte, off), all...))
	}
	r := rand.New(rand.NewPCG(5, 5))
	for range 5000 {
		b := make([]byte, r.IntN(70))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		texts = append(texts, b)
	}
	for _, b := range texts {
		if got, want := asciiLower(b), slow(b); !bytes.Equal(got, want) {
			t.Fatalf("asciiLower(%q) = %q, want %q", b, got, want)
		}
	}
}

// BenchmarkHintIndex: which hints a 9 KB tools/list answer with a base64
// icon holds (every letter pair occurs in it).
func BenchmarkHintIndex(b *testing.B) {
	x := hintsOfRules()
	text := []byte(`{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"greet","description":"say hi","icons":[{"src":"data:image/png;base64,` +
		strings.Repeat("iVBORw0KGgoAAAANSUhEUgAAAEAAAABACAIAAAAlC+aJAAAAAXNSR0IArs4c6QAAAERlWElmTU0AKgAAAAgAAYdpAAQAAAABAAAAGgAAkeYghZ", 80) + `"}]}]}}`)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		x.present(text)
	}
}
