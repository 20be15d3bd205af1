package frames

import "bytes"

// The token rules' regular expressions are unanchored, and Go's regexp
// runs an unanchored search over the whole frame: over a 9 KB tools/list
// (the go-sdk server's, a base64 icon in it) the four rules whose hints
// occur cost ~1.5 ms, every recorded copy of it. Every match of a rule
// starts at a place a short scan can find: a quote, a "://", an '=' with a
// name before it, a literal after a word boundary. findAll tries the rule
// anchored at each such place, in order, and returns exactly what
// re.FindAllSubmatchIndex(b, -1) does (FuzzTokenRuleFind holds them equal):
// the leftmost start that matches, then the next one from its end.

// maxMisses bounds the anchored tries that fail before findAll gives the
// frame to the unanchored regexp instead: a hostile frame can hold a
// candidate start every few bytes, each failing only at the end of a long
// run ("-eyJaaaa-eyJaaaa…" for the jwt rule), and Go's regexp, linear in
// the frame, is then the cheaper way.
const maxMisses = 32

// A startFinder returns the first place at or after from where a match of
// its rule could start, or -1. lower is b with ASCII letters lower-cased.
type startFinder func(b, lower []byte, from int) int

// sliceMax is the most input an anchored try is given as a slice. Go's
// regexp runs a slice that short with its backtracker, fast over a match but
// clearing a bitmap the size of the input first; longer input goes through
// a RuneReader, which its NFA reads only as far as the match.
const sliceMax = 4 << 10

// findAll is tr.re().FindAllSubmatchIndex(b, -1), computed from the rule's
// candidate starts. lower is made when the rule needs it.
func (tr *tokenRule) findAll(b []byte, lower *[]byte) [][]int {
	return tr.findAllWith(b, lower, sliceMax)
}

// anchoredAt is the anchored regexp's submatches at b[s:] (a slice when at
// most sliceMax bytes remain, else a reader), relative to s.
func (tr *tokenRule) anchoredAt(b []byte, s, sliceMax int, rd *bytes.Reader) []int {
	if len(b)-s <= sliceMax {
		return tr.anchored().FindSubmatchIndex(b[s:])
	}
	rd.Reset(b[s:])
	return tr.anchored().FindReaderSubmatchIndex(rd)
}

func (tr *tokenRule) findAllWith(b []byte, lower *[]byte, sliceMax int) [][]int {
	if tr.start == nil {
		return tr.re().FindAllSubmatchIndex(b, -1)
	}
	if tr.fold && *lower == nil {
		*lower = asciiLower(b)
	}
	var out [][]int
	var rd bytes.Reader
	misses := 0
	for pos := 0; pos < len(b); {
		s := tr.start(b, *lower, pos)
		if s < 0 {
			break
		}
		loc := tr.anchoredAt(b, s, sliceMax, &rd)
		if loc == nil {
			if misses++; misses > maxMisses {
				return tr.re().FindAllSubmatchIndex(b, -1)
			}
			pos = s + 1
			continue
		}
		for i := range loc {
			if loc[i] >= 0 {
				loc[i] += s
			}
		}
		out = append(out, loc)
		pos = loc[1] // no rule matches the empty string
	}
	return out
}

// matches reports whether tr matches b anywhere.
func (tr *tokenRule) matches(b []byte, lower *[]byte) bool {
	return tr.matchesWith(b, lower, sliceMax)
}

func (tr *tokenRule) matchesWith(b []byte, lower *[]byte, sliceMax int) bool {
	if tr.start == nil {
		return tr.re().Match(b)
	}
	if tr.fold && *lower == nil {
		*lower = asciiLower(b)
	}
	var rd bytes.Reader
	for pos, misses := 0, 0; pos < len(b); misses++ {
		s := tr.start(b, *lower, pos)
		if s < 0 {
			return false
		}
		if len(b)-s <= sliceMax {
			if tr.anchored().Match(b[s:]) {
				return true
			}
		} else if rd.Reset(b[s:]); tr.anchored().MatchReader(&rd) {
			return true
		}
		if misses >= maxMisses {
			return tr.re().Match(b)
		}
		pos = s + 1
	}
	return false
}

// The anchored regexp is the rule's pattern behind ^: a leading \b or \B
// then holds at offset 0 whatever preceded it, so the start finders check
// the real boundary.

// isWordByte is regexp's \w: an ASCII letter, digit or underscore. A byte
// of a multi-byte character is none, as the character is none.
func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// wordStart reports whether \b holds before b[i], a word byte.
func wordStart(b []byte, i int) bool { return i == 0 || !isWordByte(b[i-1]) }

// literalStarts finds the occurrences of lits (in lower when fold; each
// starts with a word byte) that follow a word boundary: the \b(?:lit|…)
// rules. It looks at each byte that can begin a literal once.
func literalStarts(fold bool, lits ...string) startFinder {
	var first []byte
	for _, l := range lits {
		if bytes.IndexByte(first, l[0]) < 0 {
			first = append(first, l[0])
		}
	}
	firsts := string(first)
	return func(b, lower []byte, from int) int {
		hay := b
		if fold {
			hay = lower
		}
		for from < len(b) {
			var i int
			if len(firsts) == 1 {
				i = bytes.IndexByte(hay[from:], firsts[0])
			} else {
				i = bytes.IndexAny(hay[from:], firsts)
			}
			if i < 0 {
				return -1
			}
			i += from
			if wordStart(b, i) {
				for _, l := range lits {
					if bytes.HasPrefix(hay[i:], []byte(l)) {
						return i
					}
				}
			}
			from = i + 1
		}
		return -1
	}
}

// isKeyNameByte is the secret-key rule's [A-Za-z0-9_.-].
func isKeyNameByte(c byte) bool { return isWordByte(c) || c == '.' || c == '-' }

// secretKeyStarts finds the quotes that open a JSON string made only of
// key-name bytes, closed by a quote and followed by a colon, whose name
// holds one of hints: the only places the secret-key rule's "NAME"\s*:\s*"VALUE" can start.
func secretKeyStarts(hints []string) startFinder {
	return func(b, lower []byte, from int) int {
		for from < len(b) {
			q := bytes.IndexByte(b[from:], '"')
			if q < 0 {
				return -1
			}
			q += from
			j := q + 1
			for j < len(b) && isKeyNameByte(b[j]) {
				j++
			}
			if j < len(b) && b[j] == '"' && j > q+1 && colonFollows(b, j+1) {
				for _, h := range hints {
					if bytes.Contains(lower[q+1:j], []byte(h)) {
						return q
					}
				}
			}
			from = q + 1
		}
		return -1
	}
}

// escapedSecretKeyStarts is secretKeyStarts for JSON carried in a JSON
// string, where every quote is written \": the backslashes that open such a
// key.
func escapedSecretKeyStarts(hints []string) startFinder {
	return func(b, lower []byte, from int) int {
		for from < len(b) {
			q := bytes.Index(b[from:], []byte(`\"`))
			if q < 0 {
				return -1
			}
			q += from
			j := q + 2
			for j < len(b) && isKeyNameByte(b[j]) {
				j++
			}
			if j+1 < len(b) && b[j] == '\\' && b[j+1] == '"' && j > q+2 && colonFollows(b, j+2) {
				for _, h := range hints {
					if bytes.Contains(lower[q+2:j], []byte(h)) {
						return q
					}
				}
			}
			from = q + 1
		}
		return -1
	}
}

// colonFollows reports whether \s*: starts at b[i:] (\s is [\t\n\f\r ]).
func colonFollows(b []byte, i int) bool {
	for ; i < len(b); i++ {
		switch b[i] {
		case ':':
			return true
		case ' ', '\t', '\n', '\f', '\r':
		default:
			return false
		}
	}
	return false
}

// isSchemeByte is the url-password rule's [a-z0-9+.-], case-folded.
func isSchemeByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '+' || c == '.' || c == '-'
}

// urlStarts finds where a \b[a-z][a-z0-9+.-]*:// can start: in the run of
// scheme bytes before a "://", each letter after a word boundary.
func urlStarts(b, _ []byte, from int) int {
	for from < len(b) {
		p := bytes.Index(b[from:], []byte("://"))
		if p < 0 {
			return -1
		}
		p += from
		r := p
		for r > from && isSchemeByte(b[r-1]) {
			r--
		}
		for s := r; s < p; s++ {
			if isLetter(b[s]) && wordStart(b, s) {
				return s
			}
		}
		from = p + 1
	}
	return -1
}

// paramStarts finds where the secret-param rule's (?:[?&;]|\B--?)NAME=
// can start: before each '=', the [?&;] that precedes the run of name bytes
// ([a-z0-9_.-], case-folded) in front of it, or a '-' in that run after a
// byte that is no word byte.
func paramStarts(b, _ []byte, from int) int {
	for from < len(b) {
		e := bytes.IndexByte(b[from:], '=')
		if e < 0 {
			return -1
		}
		e += from
		r := e
		for r > from && isKeyNameByte(b[r-1]) {
			r--
		}
		if r > from && (b[r-1] == '?' || b[r-1] == '&' || b[r-1] == ';') {
			return r - 1
		}
		for s := r; s < e; s++ {
			if b[s] == '-' && (s == 0 || !isWordByte(b[s-1])) {
				return s
			}
		}
		from = e + 1
	}
	return -1
}
