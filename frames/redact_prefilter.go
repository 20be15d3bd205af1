package frames

import "bytes"

// ruleHints are literals at least one of which every match of a token rule
// contains, compared case-insensitively (ASCII). Checking them first keeps
// redaction linear and cheap: the secret-key rule backtracks quadratically
// over long runs of word characters after a quote, which made redacting a
// 1 KB frame of padding cost ~200 µs — too slow for a proxy that records
// tens of thousands of frames a second. A rule missing here always runs.
var ruleHints = map[string][]string{
	"secret-key":   {"token", "secret", "passw", "api", "key", "credential", "auth"},
	"bearer":       {"bearer", "basic"},
	"jwt":          {"eyj"},
	"github-token": {"gh", "github_pat_"},
	"api-key":      {"sk-", "pk-", "rk-"},
	"slack-token":  {"xox"},
	"aws-key":      {"akia"},
	"secret-param": {"token", "secret", "passw", "api", "key", "credential", "sig", "auth"},
	"url-password": {"://"},
}

// mayMatch reports whether b could hold a match of tr: false only when none
// of its hints occurs. lower is b lower-cased, computed once per redaction.
func (tr tokenRule) mayMatch(lower []byte) bool {
	hints, ok := ruleHints[tr.name]
	if !ok {
		return true
	}
	for _, h := range hints {
		if bytes.Contains(lower, []byte(h)) {
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
