package ui

import (
	"unicode"
	"unicode/utf8"
)

// Changes between the two results of a comparison. Lines are matched as a
// diff matches them: the common start and end, then a longest common
// subsequence of the middle. A line of one side that the other lacks is
// marked in a gutter ("-" on A, "+" on B, on every row it wraps into, so
// it reads without colour). Where a gap between matched lines holds lines
// on both sides, they are paired in order and compared word by word: the
// words that changed (a changed value in a long line) are drawn reversed,
// and the rest of the line as it was. A line with no partner is drawn in
// the removed or added style whole.

// maxDiffLines bounds the lines matched one by one after the common start
// and end are taken off: beyond it the whole middle is marked, unpaired.
const maxDiffLines = 1000

// maxDiffCells bounds a word-by-word comparison of two lines (words of
// one times words of the other): beyond it the changed span is what lies
// between their common start and end.
const maxDiffCells = 1 << 20

// markChanges returns a and b with their changes marked.
func markChanges(a, b *doc) (*doc, *doc) {
	al, bl := docLines(a), docLines(b)
	ac, bc, pairs := alignLines(al, bl)
	am := markedDoc(a, al, ac, mark{"- ", roleRemoved}, roleRemoved)
	bm := markedDoc(b, bl, bc, mark{"+ ", roleAdded}, roleAdded)
	for i, j := range pairs {
		as, bs := changedSpans(al[i], bl[j])
		am.spans[i] = spansOf(as, roleRemovedSpan)
		bm.spans[j] = spansOf(bs, roleAddedSpan)
		// A paired line is read beside its partner: only its changed
		// words stand out.
		restoreRole(am, a, i)
		restoreRole(bm, b, j)
	}
	return am, bm
}

// markedDoc is d with a gutter, the changed lines marked in it and drawn
// in role r (unless d styles them already).
func markedDoc(d *doc, lines []string, changed map[int]bool, m mark, r role) *doc {
	out := &doc{data: d.data, lines: d.lines, gutter: 2, marks: map[int]mark{}, spans: map[int][]span{}}
	if out.lines == nil {
		out.lines = []int{0}
	}
	out.roles = map[int]role{}
	for i, rl := range d.roles {
		out.roles[i] = rl
	}
	for i := range lines {
		if !changed[i] {
			continue
		}
		out.marks[i] = m
		if _, styled := d.roles[i]; !styled {
			out.roles[i] = r
		}
	}
	return out
}

func restoreRole(m, d *doc, i int) {
	if rl, ok := d.roles[i]; ok {
		m.roles[i] = rl
	} else {
		delete(m.roles, i)
	}
}

func docLines(d *doc) []string {
	if d == nil || len(d.data) == 0 {
		return nil
	}
	out := make([]string, len(d.lines))
	for i, start := range d.lines {
		out[i] = string(d.data[start:d.lineEnd(i)])
	}
	return out
}

// changedLines reports the lines of a that are not in a longest common
// subsequence of a and b.
func changedLines(a, b []string) map[int]bool {
	ac, _, _ := alignLines(a, b)
	return ac
}

// alignLines matches a's lines with b's: the lines of each that the other
// lacks, and the changed lines paired across (a's index → b's).
func alignLines(a, b []string) (ac, bc map[int]bool, pairs map[int]int) {
	ac, bc, pairs = map[int]bool{}, map[int]bool{}, map[int]int{}
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	am, bm := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if len(am) > maxDiffLines || len(bm) > maxDiffLines {
		for i := range am {
			ac[pre+i] = true
		}
		for j := range bm {
			bc[pre+j] = true
		}
		return ac, bc, pairs
	}
	ops := lcsWalk(len(am), len(bm), func(i, j int) bool { return am[i] == bm[j] })
	var gapA, gapB []int
	flush := func() {
		for k := 0; k < len(gapA) && k < len(gapB); k++ {
			pairs[gapA[k]] = gapB[k]
		}
		gapA, gapB = gapA[:0], gapB[:0]
	}
	for _, op := range ops {
		switch {
		case op.i >= 0 && op.j >= 0:
			flush()
		case op.i >= 0:
			ac[pre+op.i] = true
			gapA = append(gapA, pre+op.i)
		default:
			bc[pre+op.j] = true
			gapB = append(gapB, pre+op.j)
		}
	}
	flush()
	return ac, bc, pairs
}

// An lcsOp is one step of an alignment: a match (both indices), a line of
// a only (j < 0) or of b only (i < 0).
type lcsOp struct{ i, j int }

// lcsWalk aligns n items with m by a longest common subsequence of eq.
func lcsWalk(n, m int, eq func(i, j int) bool) []lcsOp {
	// lcs[i][j] is the common length of a[i:] and b[j:].
	lcs := make([]int32, (n+1)*(m+1))
	at := func(i, j int) int32 { return lcs[i*(m+1)+j] }
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if eq(i, j) {
				lcs[i*(m+1)+j] = at(i+1, j+1) + 1
			} else {
				lcs[i*(m+1)+j] = max(at(i+1, j), at(i, j+1))
			}
		}
	}
	ops := make([]lcsOp, 0, max(n, m))
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && eq(i, j):
			ops = append(ops, lcsOp{i, j})
			i, j = i+1, j+1
		case j < m && (i == n || at(i, j+1) >= at(i+1, j)):
			ops = append(ops, lcsOp{-1, j})
			j++
		default:
			ops = append(ops, lcsOp{i, -1})
			i++
		}
	}
	return ops
}

// changedSpans returns the byte ranges of a and of b that differ, word by
// word: a word is a run of letters and digits (with . _ -), a run of
// spaces, or any other single rune.
func changedSpans(a, b string) (as, bs [][2]int) {
	ta, tb := words(a), words(b)
	if len(ta)*len(tb) > maxDiffCells {
		pre, suf := commonEnds(a, b)
		return spanIf(pre, len(a)-suf), spanIf(pre, len(b)-suf)
	}
	text := func(s string, t [][2]int, k int) string { return s[t[k][0]:t[k][1]] }
	ops := lcsWalk(len(ta), len(tb), func(i, j int) bool { return text(a, ta, i) == text(b, tb, j) })
	for _, op := range ops {
		switch {
		case op.i >= 0 && op.j >= 0:
		case op.i >= 0:
			as = addSpan(as, ta[op.i])
		default:
			bs = addSpan(bs, tb[op.j])
		}
	}
	return as, bs
}

// addSpan appends w to spans, joined to the last one when they touch.
func addSpan(spans [][2]int, w [2]int) [][2]int {
	if n := len(spans); n > 0 && spans[n-1][1] == w[0] {
		spans[n-1][1] = w[1]
		return spans
	}
	return append(spans, w)
}

func spanIf(from, to int) [][2]int {
	if to <= from {
		return nil
	}
	return [][2]int{{from, to}}
}

// words splits s into the byte ranges of its words.
func words(s string) [][2]int {
	var out [][2]int
	kind := func(r rune) int {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '_' || r == '-':
			return 1
		case r == ' ':
			return 2
		}
		return 0
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		k, j := kind(r), i+size
		for k != 0 && j < len(s) {
			r2, s2 := utf8.DecodeRuneInString(s[j:])
			if kind(r2) != k {
				break
			}
			j += s2
		}
		out = append(out, [2]int{i, j})
		i = j
	}
	return out
}

func spansOf(ranges [][2]int, r role) []span {
	out := make([]span, len(ranges))
	for i, rg := range ranges {
		out[i] = span{rg[0], rg[1], r}
	}
	return out
}
