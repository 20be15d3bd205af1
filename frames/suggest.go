package frames

import (
	"fmt"
	"sort"
	"strings"
)

// Did you mean: a typed name that is not one jig or the server knows is
// answered with the nearest names that are (commands, flags, the server's
// tools, prompts and resources), by the CLI and the TUI alike.

// Similar returns the candidates nearest to word, at most three of equal
// nearness: those that differ from it only in case, '-' and '_', then
// those within a small edit distance (a typo: one edit in a short word,
// two in a longer one), then those word begins.
func Similar(word string, candidates []string) []string {
	type scored struct {
		name string
		d    int
	}
	limit := 1
	if n := len([]rune(word)); n > 4 {
		limit = max(2, n/5)
	}
	var near []scored
	for _, c := range candidates {
		d := distance(strings.ToLower(word), strings.ToLower(c))
		switch {
		case c == word:
			continue
		case fold(c) == fold(word):
			d = 0
		case d <= limit:
		case len(word) >= 3 && strings.HasPrefix(strings.ToLower(c), strings.ToLower(word)):
			d = limit
		default:
			continue
		}
		near = append(near, scored{c, d})
	}
	sort.SliceStable(near, func(i, j int) bool { return near[i].d < near[j].d })
	var out []string
	for i := 0; i < len(near) && i < 3 && near[i].d == near[0].d; i++ {
		out = append(out, near[i].name)
	}
	return out
}

func fold(s string) string {
	return strings.NewReplacer("-", "", "_", "", " ", "").Replace(strings.ToLower(s))
}

// distance is the edit distance between a and b in runes, a swap of two
// neighbours counting as one edit ("dmeo" is one from "demo").
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

// DidYouMean is "; did you mean "x"?" (or "x" or "y"), or "": the end of
// a message.
func DidYouMean(word string, candidates []string) string {
	near := Similar(word, candidates)
	if len(near) == 0 {
		return ""
	}
	q := make([]string, len(near))
	for i, n := range near {
		q[i] = fmt.Sprintf("%q", n)
	}
	return "; did you mean " + strings.Join(q, " or ") + "?"
}
