package frames

import (
	"bytes"
	"encoding/binary"
	"slices"
	"sync"
)

// Redaction runs on every frame that is recorded, so it must cost little
// when there is nothing to redact, which is almost always. Each token rule
// names literals at least one of which every match contains (its hints,
// compared without ASCII case). One pass over the frame notes which pairs of
// adjacent letters occur; a hint with a pair that does not occur cannot be
// there, and most frames rule out every hint that way without a search. The
// regular expressions run only where a hint was found: the secret-key rule
// backtracks quadratically over long runs of word characters after a quote,
// which made redacting a 1 KB frame of padding cost ~200 µs.

// A bigramSet holds the pairs of adjacent bytes in a text, by byteClass:
// 29 classes (other, a–z case-folded, '-', '_') make 29×32 bits.
type bigramSet [15]uint64

// byteClass is static data, not a table built at start-up.
var byteClass = [256]uint8{
	'a': 1, 'A': 1, 'b': 2, 'B': 2, 'c': 3, 'C': 3, 'd': 4, 'D': 4,
	'e': 5, 'E': 5, 'f': 6, 'F': 6, 'g': 7, 'G': 7, 'h': 8, 'H': 8,
	'i': 9, 'I': 9, 'j': 10, 'J': 10, 'k': 11, 'K': 11, 'l': 12, 'L': 12,
	'm': 13, 'M': 13, 'n': 14, 'N': 14, 'o': 15, 'O': 15, 'p': 16, 'P': 16,
	'q': 17, 'Q': 17, 'r': 18, 'R': 18, 's': 19, 'S': 19, 't': 20, 'T': 20,
	'u': 21, 'U': 21, 'v': 22, 'V': 22, 'w': 23, 'W': 23, 'x': 24, 'X': 24,
	'y': 25, 'Y': 25, 'z': 26, 'Z': 26,
	'-': 27, '_': 28,
}

func bigramsOf(b []byte) *bigramSet {
	var s bigramSet
	prev := uint(0)
	for _, c := range b {
		cur := uint(byteClass[c])
		i := prev<<5 | cur
		s[i>>6] |= 1 << (i & 63)
		prev = cur
	}
	return &s
}

// mayContain reports whether hint (lower-case; bytes other than letters, '-'
// and '_' all count as one class) could occur in the text s was made from.
func (s *bigramSet) mayContain(hint string) bool {
	for i := 0; i+1 < len(hint); i++ {
		j := uint(byteClass[hint[i]])<<5 | uint(byteClass[hint[i+1]])
		if s[j>>6]&(1<<(j&63)) == 0 {
			return false
		}
	}
	return true
}

// mayMatch reports whether b could hold a match of tr: false only when none
// of its hints occurs. set is b's bigrams; lower is b lower-cased, made by
// the first hint that needs a search.
func (tr *tokenRule) mayMatch(b []byte, set *bigramSet, lower *[]byte) bool {
	if len(tr.hints) == 0 {
		return true
	}
	for _, h := range tr.hints {
		if !set.mayContain(h) {
			continue
		}
		if *lower == nil {
			*lower = asciiLower(b)
		}
		if bytes.Contains(*lower, []byte(h)) {
			return true
		}
	}
	return false
}

// asciiLower returns b with ASCII letters lower-cased; other bytes are kept,
// so offsets stay comparable and hints stay exact.
//
// Eight bytes at a time: in each byte x of v with its top bit cleared,
// x+0x3f sets the top bit exactly when x >= 'A' and x+0x25 when x > 'Z',
// and neither carries into the next byte; a byte is an upper-case letter
// when the first is set, the second not, and v's own top bit not (not a
// byte of a multi-byte rune). Its 0x80 shifted right by two is the 0x20
// that lower-cases it.
func asciiLower(b []byte) []byte {
	out := make([]byte, len(b))
	const ones, top = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(b); i += 8 {
		v := binary.LittleEndian.Uint64(b[i:])
		x := v &^ top
		upper := (x + 0x3f*ones) &^ (x + 0x25*ones) &^ v & top
		binary.LittleEndian.PutUint64(out[i:], v|upper>>2)
	}
	for ; i < len(b); i++ {
		out[i] = lowerASCII(b[i])
	}
	return out
}

// A hintIndex finds which of every rule's hints occur in a text in one pass
// over it: for a frame where letter pairs rule nothing out (a base64 icon
// has them all), asking bytes.Contains hint by hint read the go-sdk
// server's 9 KB tools/list ~25 times, ~0.2 ms a frame. The answer is exact:
// hint i is in present(b) if and only if it occurs in b without ASCII case.
type hintIndex struct {
	hints []string // lower-case, each at least two bytes
	// pairs holds the first two bytes that begin a hint, in every ASCII
	// case (so the text is read as it is, not lower-cased byte by byte);
	// byFirst the hints beginning with each byte, in either case.
	pairs   [1 << 16 / 64]uint64
	byFirst [256][]uint8
	rules   []uint64 // each token rule's hints, as bits of present
}

// cases are c and, for a lower-case ASCII letter, its upper case.
func cases(c byte) []byte {
	if 'a' <= c && c <= 'z' {
		return []byte{c, c - 'a' + 'A'}
	}
	return []byte{c}
}

var hintsOfRules = sync.OnceValue(func() *hintIndex {
	x := &hintIndex{}
	for _, tr := range tokenRules() {
		var mask uint64
		for _, h := range tr.hints {
			i := slices.Index(x.hints, h)
			if i < 0 {
				i = len(x.hints)
				x.hints = append(x.hints, h)
				for _, c0 := range cases(h[0]) {
					for _, c1 := range cases(h[1]) {
						p := uint(c0)<<8 | uint(c1)
						x.pairs[p>>6] |= 1 << (p & 63)
					}
					x.byFirst[c0] = append(x.byFirst[c0], uint8(i))
				}
			}
			mask |= 1 << i
		}
		x.rules = append(x.rules, mask)
	}
	if len(x.hints) > 64 {
		panic("frames: more than 64 token-rule hints")
	}
	return x
})

// present reports which hints occur in b, as bits.
func (x *hintIndex) present(b []byte) uint64 {
	var found uint64
	for i := 0; i+1 < len(b); i++ {
		p := uint(b[i])<<8 | uint(b[i+1])
		if x.pairs[p>>6]&(1<<(p&63)) == 0 {
			continue
		}
		for _, h := range x.byFirst[b[i]] {
			if found&(1<<h) == 0 && hasPrefixFold(b[i:], x.hints[h]) {
				found |= 1 << h
			}
		}
	}
	return found
}

// mayMatch is tokenRule.mayMatch for rule i of tokenRules, given present.
func (x *hintIndex) mayMatch(i int, present uint64) bool {
	return len(tokenRules()[i].hints) == 0 || x.rules[i]&present != 0
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// hasPrefixFold reports whether b begins with hint (lower-case) without
// ASCII case.
func hasPrefixFold(b []byte, hint string) bool {
	if len(b) < len(hint) {
		return false
	}
	for j := 0; j < len(hint); j++ {
		if lowerASCII(b[j]) != hint[j] {
			return false
		}
	}
	return true
}
