package lint

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpjig/jig/frames"
)

// checkNames finds tools listed twice and pairs of tools a model confuses
// by name: the same name in another case or separator, a singular beside
// its plural, names a letter or two apart.
func checkNames(tools []*tool, add func(Finding)) {
	seen := map[string]bool{}
	for _, t := range tools {
		if seen[t.name] {
			add(Finding{Rule: "tool-name-invalid", Item: t.item, Path: "/name", Message: fmt.Sprintf("%q is listed twice: a client keeps one of them", t.name), Fix: "give each tool its own name"})
		}
		seen[t.name] = true
	}
	keys := make([]string, len(tools))
	sing := make([]string, len(tools))
	for i, t := range tools {
		keys[i] = strings.Join(t.words, "")
		sing[i] = singular(t.words)
	}
	var scratch distanceScratch
	for i, a := range tools {
		for j := i + 1; j < len(tools); j++ {
			b := tools[j]
			if a.name == b.name {
				continue
			}
			why := confusable(a, b, keys[i], keys[j], sing[i] == sing[j], &scratch)
			if why == "" {
				continue
			}
			add(Finding{Rule: "tool-names-confusable", Item: a.item, Path: "/name",
				Message: fmt.Sprintf("%q and %q %s: a model picks the wrong one", a.name, b.name, why),
				Fix:     fmt.Sprintf("rename one so the difference is a word, and say in each description when to use the other (%s)", b.name)})
		}
	}
}

// confusable says why two tool names are easy to mistake, or "".
func confusable(a, b *tool, ka, kb string, sameSingular bool, scratch *distanceScratch) string {
	switch {
	case ka == kb:
		return "differ only in case or separators"
	case sameSingular:
		return "differ only by a plural"
	}
	// Names of one or two short words differ by design (get_file, put_file);
	// a letter or two in a long word is a typo a model makes too.
	la, lb := len(ka), len(kb)
	if la < 8 || lb < 8 || len(a.words) != len(b.words) {
		return ""
	}
	// Names that differ in a whole word of their own (read_file / head_file
	// differ in a verb) say it; a letter inside one long word does not.
	if d := scratch.distance(ka, kb, 2); d <= 1 || (d == 2 && min(la, lb) >= 12) {
		for k := range a.words {
			wa, wb := a.words[k], b.words[k]
			if wa != wb && (len(wa) <= 4 || len(wb) <= 4) {
				return "" // a short word swapped: a different verb or noun, read as one
			}
		}
		return fmt.Sprintf("are %d letter%s apart", d, frames.Plural(d))
	}
	return ""
}

// singular joins a name's words with each word's plural ending dropped.
func singular(words []string) string {
	var b strings.Builder
	for _, w := range words {
		switch {
		case strings.HasSuffix(w, "ies") && len(w) > 4:
			w = w[:len(w)-3] + "y"
		case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "xes"):
			w = w[:len(w)-2]
		case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && len(w) > 3:
			w = w[:len(w)-1]
		}
		b.WriteString(w)
		b.WriteByte(' ')
	}
	return b.String()
}

// distance is the Levenshtein distance of a and b, or max+1 when it is
// more than max.
func distance(a, b string, max int) int {
	var s distanceScratch
	return s.distance(a, b, max)
}

// distanceScratch keeps the buffers of distance across the pairs of one
// lint: comparing every pair of 500 tools allocates nothing per pair.
type distanceScratch struct {
	ra, rb    []rune
	prev, cur []int
}

func (s *distanceScratch) distance(a, b string, max int) int {
	if d := len(a) - len(b); (d > 4*max || -d > 4*max) && max >= 0 {
		return max + 1 // even a rune of four bytes each way cannot close it
	}
	s.ra, s.rb = append(s.ra[:0], []rune(a)...), append(s.rb[:0], []rune(b)...)
	ra, rb := s.ra, s.rb
	if d := len(ra) - len(rb); d > max || -d > max {
		return max + 1
	}
	s.prev, s.cur = slices.Grow(s.prev[:0], len(rb)+1)[:len(rb)+1], slices.Grow(s.cur[:0], len(rb)+1)[:len(rb)+1]
	prev, cur := s.prev, s.cur
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			best = min(best, cur[j])
		}
		if best > max {
			return max + 1
		}
		prev, cur = cur, prev
	}
	return min(prev[len(rb)], max+1)
}

// checkDescriptions finds pairs of tools described in nearly the same
// words.
func checkDescriptions(tools []*tool, add func(Finding)) {
	type bag struct {
		t     *tool
		words []string // sorted, unique
	}
	var bags []bag
	for _, t := range tools {
		ws := descriptionWords(t.description)
		if len(ws) >= 6 {
			bags = append(bags, bag{t, ws})
		}
	}
	for i, a := range bags {
		for _, b := range bags[i+1:] {
			// Jaccard similarity of the two word sets; the sizes bound it, so
			// most pairs are skipped without counting.
			small, large := len(a.words), len(b.words)
			if small > large {
				small, large = large, small
			}
			if float64(small)/float64(large) < nearDuplicate {
				continue
			}
			common := intersect(a.words, b.words)
			sim := float64(common) / float64(len(a.words)+len(b.words)-common)
			if sim < nearDuplicate {
				continue
			}
			add(Finding{Rule: "descriptions-near-duplicate", Item: a.t.item, Path: "/description",
				Message: fmt.Sprintf("%q and %q are described in nearly the same words (%.0f%% shared): a model cannot tell when to use which", a.t.name, b.t.name, 100*sim),
				Fix:     fmt.Sprintf("say in each description what sets it apart from %s, and when to use the other", b.t.name)})
		}
	}
}

// nearDuplicate is the share of words two descriptions must have in common.
const nearDuplicate = 0.8

func descriptionWords(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127)
	}) {
		if len(w) >= 3 {
			out = append(out, w)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func intersect(a, b []string) int {
	n, i, j := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			n++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return n
}

// checkPrompts flags prompts and prompt arguments without a description.
func checkPrompts(raws []json.RawMessage, add func(Finding)) {
	for _, raw := range raws {
		var p struct {
			Name        string `json:"name"`
			Description string `json:"description"`
			Arguments   []struct {
				Name        string `json:"name"`
				Description string `json:"description"`
			} `json:"arguments"`
		}
		if json.Unmarshal(raw, &p) != nil {
			continue
		}
		item := "prompt " + p.Name
		if strings.TrimSpace(p.Description) == "" {
			add(Finding{Rule: "description-missing", Item: item, Path: "/description", Message: "the prompt has no description: a user picking it from a menu sees only its name", Fix: "say what the prompt does and when to use it"})
		}
		for i, a := range p.Arguments {
			if strings.TrimSpace(a.Description) == "" {
				add(Finding{Rule: "description-missing", Item: item, Path: fmt.Sprintf("/arguments/%d", i), Message: fmt.Sprintf("the prompt argument %q has no description", a.Name), Fix: fmt.Sprintf("describe %q: what to give and an example", a.Name)})
			}
		}
	}
}
