package main

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dustin/go-humanize"
)

// TestParseSizeIsHumanize: --max-frame reads sizes exactly as go-humanize's
// ParseBytes, which it used until its unit tables were found built at every
// start of jig: the same value or the same refusal, on a table of the forms
// people write and on random strings over the characters that matter.
func TestParseSizeIsHumanize(t *testing.T) {
	cases := []string{"", "0", "1", "1024", "1,048,576", "1.5", ".5k", "1.", "..", ",", "1,,0",
		"4k", "4K", "4kb", "4KB", "4kib", "4KiB", "4 KiB", " 4KiB", "4KiB ", "4\tMiB", "64MB", "256MiB",
		"1GiB", "1.1GB", "1.1GiB", "3TB", "2PiB", "1EiB", "15EiB", "16EiB", "18EB", "19EB", "1e3", "0x10", "1_000",
		"b", "B", "4b", "4ib", "4i", "4bb", "4kibb", "4 k i b", "4Ki", "4mi", "lots", "-1", "+1", "4\u212aiB", "4KİB",
		"٣MiB", "1٣", "99999999999999999999999999999999999999999", strings.Repeat("9", 400) + "k"}
	r := rand.New(rand.NewPCG(12, 12))
	const alphabet = "0123456789.,kKmMgGtTpPeEiIbB xX-+\u212a\u0130"
	runes := []rune(alphabet)
	for range 20000 {
		var b strings.Builder
		for range r.IntN(8) {
			b.WriteRune(runes[r.IntN(len(runes))])
		}
		cases = append(cases, b.String())
	}
	for _, c := range cases {
		want, err := humanize.ParseBytes(c)
		got, ok := parseSize(c)
		if ok != (err == nil) || got != want {
			t.Errorf("parseSize(%q) = %d, %v; humanize.ParseBytes = %d, %v", c, got, ok, want, err)
		}
	}
}
