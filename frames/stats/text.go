package stats

import (
	"hash/fnv"
	"math"
)

// TextDims is the size of a TextProfile's hashed vocabulary.
const TextDims = 256

// A TextProfile is the lexical profile of a field's free text: the
// frequencies of its lowercased words, hashed into TextDims buckets (the
// hashing trick), over all of it and over its alternate halves. Two
// profiles' cosine similarity says how alike the texts' vocabularies are;
// the halves' similarity to each other is how alike the texts are to
// themselves, the yardstick a current sample is measured against. It is
// lexical, not semantic: "refund issued" and "money returned" are unalike.
// An embedding model would plug in where add hashes words: any function
// from a text to a fixed-length vector whose cosine means similarity.
type TextProfile struct {
	N          int64
	all, halfA [TextDims]float64
	halfB      [TextDims]float64
}

func (t *TextProfile) add(s []byte) {
	var v [TextDims]float64
	words := 0
	start := -1
	for i := 0; i <= len(s); i++ {
		letter := i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || s[i] >= '0' && s[i] <= '9' || s[i] >= 0x80)
		switch {
		case letter && start < 0:
			start = i
		case !letter && start >= 0:
			h := fnv.New32a()
			for _, c := range s[start:i] {
				if c >= 'A' && c <= 'Z' {
					c += 'a' - 'A'
				}
				h.Write([]byte{c})
			}
			v[h.Sum32()%TextDims]++
			words++
			start = -1
		}
	}
	if words == 0 {
		return
	}
	half := &t.halfA
	if t.N%2 == 1 {
		half = &t.halfB
	}
	t.N++
	for i, x := range v {
		x /= float64(words)
		t.all[i] += x
		half[i] += x
	}
}

func cosine(a, b *[TextDims]float64) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += a[i] * b[i]
		na += a[i] * a[i]
		nb += b[i] * b[i]
	}
	if na == 0 || nb == 0 {
		return math.NaN()
	}
	return dot / math.Sqrt(na*nb)
}

// Similarity is the cosine similarity of two profiles' vocabularies.
func (t *TextProfile) Similarity(o *TextProfile) float64 { return cosine(&t.all, &o.all) }

// SelfSimilarity is the similarity of the profile's two halves.
func (t *TextProfile) SelfSimilarity() float64 { return cosine(&t.halfA, &t.halfB) }
