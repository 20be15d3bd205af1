package frames

import "bytes"

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
func asciiLower(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}
