package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// wrapped draws text in a textView w cells wide and returns its rows.
func wrapped(text string, w int) []string {
	v := &textView{}
	v.setDoc(newDoc([]byte(text)))
	v.setSize(w, 1000)
	return strings.Split(v.view(newStyles(true)), "\n")
}

// TestTextViewWrapsAtWords: a row breaks after the last space that fits,
// so "edit its arguments" is never drawn as "edit its a|rguments".
func TestTextViewWrapsAtWords(t *testing.T) {
	for _, tt := range []struct {
		text string
		w    int
		want []string
	}{
		{"pick a tool, then edit its arguments", 20, []string{"pick a tool, then", "edit its arguments"}},
		{"latency 12 ms", 10, []string{"latency 12", "ms"}},
		{"abcdefghijklmnop xy", 6, []string{"abcdef", "ghijkl", "mnop", "xy"}},
		{"    indented-word-longer-than-the-row", 12, []string{"    indented", "-word-longer", "-than-the-ro", "w"}},
		{"word  two", 5, []string{"word", "two"}},
		{"ab cd", 2, []string{"ab", "cd"}},
		{"日本語 テキスト", 4, []string{"日本", "語", "テキ", "スト"}},
		{"日本", 1, []string{"日", "本"}},
		{"fits", 0, []string{"f", "i", "t", "s"}},
	} {
		got := wrapped(tt.text, tt.w)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("%q at %d cells wraps as %q, want %q", tt.text, tt.w, got, tt.want)
		}
	}
}

// TestTextViewWrapNeverOverflows: whatever the text and the width, every
// row fits the view, nothing but a space at a break is lost, and a word
// that fits a row is never cut.
func TestTextViewWrapNeverOverflows(t *testing.T) {
	texts := []string{
		"the server answered isError: true (its content says what failed) and the call took 3 ms",
		strings.Repeat("x", 50) + " y " + strings.Repeat("zz ", 30),
		"a  b   c    d     e      f       g",
		"日本語のテキスト と English words mixed ─── together",
		"   ", " leading and trailing ", "",
	}
	for _, text := range texts {
		for w := 1; w <= 30; w++ {
			rows := wrapped(text, w)
			for _, r := range rows {
				if ansi.StringWidth(r) > w && len([]rune(r)) > 1 { // a rune wider than the view has a row of its own
					t.Errorf("%q at %d cells: row %q is wider than the view", text, w, r)
				}
			}
			if got, want := strings.ReplaceAll(strings.Join(rows, ""), " ", ""), strings.ReplaceAll(text, " ", ""); got != want {
				t.Errorf("%q at %d cells loses text: %q", text, w, got)
			}
			for i := 0; i+1 < len(rows); i++ {
				a, b := rows[i], rows[i+1]
				if a == "" || b == "" || a[len(a)-1] == ' ' || b[0] == ' ' {
					continue
				}
				// The break cut a word: it must be one wider than the row.
				word := a[strings.LastIndexByte(a, ' ')+1:] + b[:strings.IndexByte(b+" ", ' ')]
				if ansi.StringWidth(word) <= w && strings.Contains(text, word) {
					t.Errorf("%q at %d cells cuts %q, which fits a row: %q", text, w, word, rows)
				}
			}
		}
	}
}

// TestTextViewPositionIsHowMuchWasRead: the share down to the last row
// shown, as less -M says it; 15 of 16 rows on screen read "(0%)".
func TestTextViewPositionIsHowMuchWasRead(t *testing.T) {
	v := &textView{}
	v.setDoc(newDoc([]byte(strings.Repeat("row\n", 15) + "row")))
	v.setSize(20, 15)
	if got := v.position(); got != "rows 1–15 of 16 (93%)" {
		t.Errorf("at the top: %q", got)
	}
	v.end()
	if got := v.position(); got != "rows 2–16 of 16 (100%)" {
		t.Errorf("at the end: %q", got)
	}
}
