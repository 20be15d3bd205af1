package frames

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode"
)

// A Redactor removes secrets from bytes before they reach a transcript, a
// fixture or a log. It knows the exact values the user marked secret (header
// values, environment values) and the shapes tokens usually have, so a server
// that echoes its environment (server-everything's get-env) cannot leak one.
// Secrets learned mid-session (an OAuth token, a refreshed one) are added
// while writers use it, so it is safe for concurrent use.
type Redactor struct {
	mu     sync.RWMutex
	values []string // exact secret values, longest first (Strong)
	weak   []string // values replaced only where they stand as a word (Weak)
}

// NewRedactor returns a Redactor for the given secret values. How each is
// redacted depends on its ValueStrength: "1", "false" or "8080" redacted
// everywhere would destroy the evidence, and JSON with it.
func NewRedactor(secrets ...string) *Redactor {
	r := &Redactor{}
	r.Add(secrets...)
	return r
}

// Add marks more values as secret.
func (r *Redactor) Add(secrets ...string) {
	if r == nil || len(secrets) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range secrets {
		switch ValueStrength(s) {
		case Strong:
			if !contains(r.values, s) {
				r.values = append(r.values, s)
			}
		case Weak:
			if !contains(r.weak, s) {
				r.weak = append(r.weak, s)
			}
		}
	}
	sort.Slice(r.values, func(i, j int) bool { return len(r.values[i]) > len(r.values[j]) })
	sort.Slice(r.weak, func(i, j int) bool { return len(r.weak[i]) > len(r.weak[j]) })
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// A tokenRule is a shape of secret recognised without being told its value.
type tokenRule struct {
	name    string
	pattern string
	// group is the submatch that holds the secret; 0 means the whole match.
	group int
	// hints are literals, at least one of which every match contains
	// (ASCII case-insensitively); a rule without hints always runs.
	hints []string
	// start finds the places a match can start, where anchored is tried
	// (redact_find.go); fold says start reads the lower-cased text.
	start startFinder
	fold  bool
	// re is the rule's regexp and anchored the same anchored at the start
	// of its input, each compiled on its first use: the hints rule most
	// rules out of most frames, and compiling them all cost ~0.4 ms of
	// every recorded run.
	re, anchored func() *regexp.Regexp
}

// tokenRules are compiled on the first redaction, not at start-up: most runs
// of jig never record anything.
var tokenRules = sync.OnceValue(func() []tokenRule {
	secretKeyHints := []string{"token", "secret", "passw", "api", "key", "credential", "auth"}
	rules := []tokenRule{
		newTokenRule("secret-key", `(?i)"([A-Za-z0-9_.-]*(?:token|secret|password|passwd|api_?key|private_?key|credential|authorization|auth_?token|session_?key|access_?key)[A-Za-z0-9_.-]*)"\s*:\s*"((?:[^"\\]|\\.)+)"`, 2,
			secretKeyHints, secretKeyStarts(secretKeyHints), true),
		// the same inside JSON carried in a text block: {\"API_TOKEN\": \"...\"}
		newTokenRule("secret-key", `(?i)\\"([A-Za-z0-9_.-]*(?:token|secret|password|passwd|api_?key|private_?key|credential|authorization|auth_?token|session_?key|access_?key)[A-Za-z0-9_.-]*)\\"\s*:\s*\\"((?:[^"\\]|\\[^"])+)\\"`, 2,
			secretKeyHints, escapedSecretKeyStarts(secretKeyHints), true),
		newTokenRule("bearer", `(?i)\b(?:bearer|basic)\s+([A-Za-z0-9._~+/=-]{8,})`, 1, []string{"bearer", "basic"},
			literalStarts(true, "bearer", "basic"), true),
		newTokenRule("jwt", `\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}`, 0, []string{"eyj"},
			literalStarts(false, "eyJ"), false),
		newTokenRule("github-token", `\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})`, 0, []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"},
			literalStarts(false, "gh", "github_pat_"), false),
		newTokenRule("api-key", `\b(?:sk|pk|rk)-[A-Za-z0-9_-]{20,}`, 0, []string{"sk-", "pk-", "rk-"},
			literalStarts(false, "sk-", "pk-", "rk-"), false),
		// Stripe's secret, restricted and webhook signing keys.
		newTokenRule("stripe-key", `\b(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}|whsec_[A-Za-z0-9]{20,})`, 0, []string{"sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"},
			literalStarts(false, "sk_", "rk_", "whsec_"), false),
		newTokenRule("slack-token", `\bxox[abprs]-[A-Za-z0-9-]{10,}`, 0, []string{"xox"},
			literalStarts(false, "xox"), false),
		newTokenRule("aws-key", `\bAKIA[0-9A-Z]{16}\b`, 0, []string{"akia"},
			literalStarts(false, "AKIA"), false),
		// key=value pairs in URLs, forms and command lines: ?api_key=..., &sig=..., --token=...
		newTokenRule("secret-param", `(?i)(?:[?&;]|\B--?)[a-z0-9_.-]*(?:token|secret|passw(?:or)?d|api_?key|apikey|private_?key|credential|signature|sig|auth)[a-z0-9_.-]*=([^&#\s"'<>\\]+)`, 1,
			[]string{"token", "secret", "passw", "api", "key", "credential", "sig", "auth"}, paramStarts, false),
		// a password under a short name, as the whole key: ?pwd=..., &pass=...
		newTokenRule("secret-param", `(?i)[?&;](?:pwd|pw|pass|passphrase)=([^&#\s"'<>\\]+)`, 1,
			[]string{"pwd=", "pw=", "pass"}, paramStarts, false),
		// the password of a URL's user information: https://user:pass@host
		newTokenRule("url-password", `(?i)\b[a-z][a-z0-9+.-]*://[^/?#\s:@"'<>\\]*:([^/?#\s@"'<>\\]+)@`, 1, []string{"://"},
			urlStarts, false),
	}
	return rules
})

func newTokenRule(name, pattern string, group int, hints []string, start startFinder, fold bool) tokenRule {
	return tokenRule{name: name, pattern: pattern, group: group, hints: hints, start: start, fold: fold,
		re: lazyRegexp(pattern), anchored: lazyRegexp(`^(?:` + pattern + `)`)}
}

// lazyRegexp compiles pattern on first use.
func lazyRegexp(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}

// publicKeySuffixes end the names of keys that hold no secret although
// they contain "token" or "auth": OAuth metadata is full of them
// ("token_endpoint", "token_endpoint_auth_methods_supported",
// "token_type"), and redacting them would destroy the evidence of a flow.
var publicKeySuffixes = []string{"_endpoint", "_uri", "_url", "_method", "_methods", "_supported", "_type", "_types", "_alg", "_algs", "_expires_in", "expires_at"}

// challengeParams are the auth-params of a Bearer challenge (RFC 6750,
// RFC 9728) that the bearer rule would otherwise take for a token: in
// WWW-Authenticate: Bearer resource_metadata="…" the evidence is the point.
var challengeParams = map[string]bool{"realm=": true, "scope=": true, "error=": true, "error_description=": true, "error_uri=": true, "resource_metadata=": true}

// spares reports whether a match of the secret-key rule is a public key's
// value (see publicKeySuffixes), or a match of the bearer rule a
// challenge's first parameter.
func (tr tokenRule) spares(b []byte, loc []int) bool {
	if tr.name == "bearer" && loc[2] >= 0 {
		// "Bearer resource_metadata=..." is a challenge, not a token.
		return challengeParams[strings.ToLower(string(b[loc[2]:loc[3]]))]
	}
	if tr.name != "secret-key" || loc[2] < 0 {
		return false
	}
	return PublicKey(string(b[loc[2]:loc[3]]))
}

// PublicKey reports whether a JSON key whose name sounds secret ("token",
// "auth") holds no secret: MCP's progressToken, a correlation id between a
// call and its notifications/progress (hiding it hides which call a
// progress belongs to, and it opens nothing), the OAuth metadata names of
// publicKeySuffixes, and names where "token" is a unit or a cursor, not a
// credential: maxTokens, max_tokens, prompt_tokens, tokenizer, token_count,
// pageToken, next_page_token. A model's token budget sent as the wrong
// type is often the very bug a user reproduces; hiding it hides the bug.
// A value whose shape is a secret (sk-…, ghp_…, a JWT) is redacted by its
// shape whatever its key is called.
func PublicKey(name string) bool {
	key := strings.ToLower(name)
	for _, s := range publicKeySuffixes {
		if strings.HasSuffix(key, s) {
			return true
		}
	}
	return tokenNotCredential(key, NameWords(name))
}

// otherSecretWords are the parts of a secret-sounding key's name besides
// "token": a name that holds one of them is secret whatever else it says.
var otherSecretWords = []string{"secret", "passw", "credential", "key", "auth", "cookie", "session"}

// tokenUnits qualify a "token" that is a count, a limit or a cursor: the
// word before it (max_token, page_token, progressToken) or after it
// (token_count, tokenLimit).
var (
	tokenBefore = map[string]bool{"max": true, "min": true, "num": true, "total": true, "page": true, "next": true,
		"prev": true, "previous": true, "progress": true, "continuation": true, "cursor": true, "sync": true,
		"resume": true, "stop": true, "eos": true, "bos": true, "pad": true, "unk": true, "sep": true, "special": true}
	tokenAfter = map[string]bool{"count": true, "counts": true, "limit": true, "limits": true, "budget": true,
		"usage": true, "len": true, "length": true, "index": true, "idx": true}
)

// tokenNotCredential reports whether key (lower-cased; words its words)
// sounds secret only by "token", and every "token" in it is a unit, a
// cursor or part of a longer word (tokens, tokenizer): see PublicKey.
func tokenNotCredential(key string, words []string) bool {
	if !strings.Contains(key, "token") {
		return false
	}
	for _, w := range otherSecretWords {
		if strings.Contains(key, w) {
			return false
		}
	}
	for i, w := range words {
		if w != "token" && !strings.HasSuffix(w, "token") {
			continue // tokens, tokenizer, tokenized: a unit or a process, never a credential
		}
		if w != "token" {
			// one word ending in token: pagetoken, accesstoken, csrftoken
			if !tokenBefore[strings.TrimSuffix(w, "token")] {
				return false
			}
			continue
		}
		if (i > 0 && tokenBefore[words[i-1]]) || (i+1 < len(words) && tokenAfter[words[i+1]]) {
			continue
		}
		return false // token, id_token, refresh_token, apiToken: a credential
	}
	return true
}

// NameWords splits a name into its lower-cased words at every byte that
// is neither a letter nor a digit and where a lower-case letter or digit
// meets an upper-case one: "nextPageToken" is next, page, token;
// "max_tokens" is max, tokens.
func NameWords(s string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	prevLower := false
	for _, r := range s {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
			prevLower = false
			continue
		case unicode.IsUpper(r) && prevLower:
			flush()
		}
		cur = append(cur, r)
		prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
	}
	flush()
	return words
}

// Placeholder is what a redacted secret is replaced with; the rule name stays
// so a reader knows why.
func Placeholder(rule string) string { return "[REDACTED:" + rule + "]" }

// Bytes returns b with every secret replaced by its placeholder: the known
// values, also where they appear JSON-escaped ("\u0073ecret", "a\/b"), and
// the token shapes. It returns b itself when nothing matched, so the common
// case costs no copy.
//
// A value found by its key's name ("password": "...") is learned: from then
// on it is redacted wherever it appears, so a server that echoes an argument
// inside a text block, or escaped, cannot leak it.
func (r *Redactor) Bytes(b []byte) []byte {
	out := b
	if r != nil {
		r.mu.RLock()
		for _, v := range r.values {
			if bytes.Contains(out, []byte(v)) {
				out = bytes.ReplaceAll(out, []byte(v), []byte(Placeholder("value")))
			}
		}
		if len(r.values) > 0 && bytes.IndexByte(out, '\\') >= 0 {
			out = replaceEscaped(out, r.values)
		}
		if len(r.weak) > 0 {
			out = replaceWeak(out, r.weak)
		}
		r.mu.RUnlock()
	}
	hints := hintsOfRules()
	present := hints.present(out)
	var lower []byte
	var learned []string
	rules := tokenRules()
	for i := range rules {
		tr := &rules[i]
		if !hints.mayMatch(i, present) || !tr.matches(out, &lower) {
			continue
		}
		out = replaceGroup(out, tr, &lower, &learned)
		present, lower = hints.present(out), nil
	}
	if r != nil && len(learned) > 0 {
		r.Add(learned...)
	}
	return out
}

// String is Bytes for strings.
func (r *Redactor) String(s string) string {
	if s == "" {
		return s
	}
	return string(r.Bytes([]byte(s)))
}

// Learn marks as secret the values b holds under keys named like secrets
// ("password", "api_key"), without redacting b: a capture calls it on what
// jig sends, so an argument the server echoes is redacted wherever it lands.
func (r *Redactor) Learn(b []byte) {
	if r == nil {
		return
	}
	tr := &tokenRules()[0] // secret-key
	var lower []byte
	if !tr.mayMatch(b, bigramsOf(b), &lower) {
		return
	}
	var learned []string
	for _, loc := range tr.findAll(b, &lower) {
		if tr.spares(b, loc) {
			continue // a progressToken, an OAuth metadata name: not a secret
		}
		learned = appendLearned(learned, tr, b[loc[2*tr.group]:loc[2*tr.group+1]])
	}
	r.Add(learned...)
}

// Weak returns the weak secret values known so far (see Strength).
func (r *Redactor) Weak() []string {
	if r == nil {
		return nil
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	return append([]string(nil), r.weak...)
}

// Values returns the strong secret values known so far, for redactors that
// work on parsed documents (fixtures) instead of bytes.
func (r *Redactor) Values() []string {
	if r == nil {
		return nil
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	return append([]string(nil), r.values...)
}

// learnMin is the shortest value learned from its key's name: "password":
// "test" should not make every "test" in a session unreadable.
const learnMin = 8

// appendLearned adds the value a secret-key match found (a JSON string's
// contents, still escaped) when it is long enough and not already a
// placeholder or an environment reference.
func appendLearned(learned []string, tr *tokenRule, raw []byte) []string {
	if tr.name != "secret-key" {
		return learned
	}
	var v string
	if json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &v) != nil || len(v) < learnMin ||
		strings.HasPrefix(v, "[REDACTED") || strings.HasPrefix(v, "$") {
		return learned
	}
	return append(learned, v)
}

func replaceGroup(b []byte, tr *tokenRule, lower *[]byte, learned *[]string) []byte {
	locs := tr.findAll(b, lower)
	var buf bytes.Buffer
	last := 0
	for _, loc := range locs {
		s, e := loc[2*tr.group], loc[2*tr.group+1]
		if s < 0 || bytes.HasPrefix(b[s:e], []byte("[REDACTED:")) || tr.spares(b, loc) {
			continue
		}
		*learned = appendLearned(*learned, tr, b[s:e])
		buf.Write(b[last:s])
		buf.WriteString(Placeholder(tr.name))
		last = e
	}
	if last == 0 {
		return b
	}
	buf.Write(b[last:])
	return buf.Bytes()
}

// Secret reports which rule, if any, finds a secret in b. Writers of fixtures
// use it as a last check before anything reaches disk.
func (r *Redactor) Secret(b []byte) string {
	if r != nil {
		r.mu.RLock()
		found := false
		for _, v := range r.values {
			if bytes.Contains(b, []byte(v)) {
				found = true
				break
			}
		}
		if !found && len(r.values) > 0 && bytes.IndexByte(b, '\\') >= 0 {
			found = len(escapedMatches(b, r.values)) > 0
		}
		for _, v := range r.weak {
			found = found || len(WeakMatches(b, v)) > 0
		}
		r.mu.RUnlock()
		if found {
			return "value"
		}
	}
	set := bigramsOf(b)
	var lower []byte
	rules := tokenRules()
	for i := range rules {
		tr := &rules[i]
		if !tr.mayMatch(b, set, &lower) {
			continue
		}
		for _, loc := range tr.findAll(b, &lower) {
			s, e := loc[2*tr.group], loc[2*tr.group+1]
			if s >= 0 && !bytes.HasPrefix(b[s:e], []byte("[REDACTED:")) && !tr.spares(b, loc) {
				return tr.name
			}
		}
	}
	return ""
}

// sensitiveHeaders are redacted whatever their value looks like.
var sensitiveHeaders = map[string]bool{
	"Authorization": true, "Proxy-Authorization": true, "Cookie": true, "Set-Cookie": true,
	"X-Api-Key": true, "Api-Key": true, "X-Auth-Token": true,
}

// SensitiveHeader reports whether a header's value is always a secret.
func SensitiveHeader(name string) bool {
	name = http.CanonicalHeaderKey(name)
	if sensitiveHeaders[name] {
		return true
	}
	l := strings.ToLower(name)
	return strings.Contains(l, "token") || strings.Contains(l, "secret") || strings.Contains(l, "api-key") || strings.Contains(l, "apikey")
}

// Headers returns a copy of h safe to store. The values of its sensitive
// headers are learned: a server that echoes the caller's token in a body
// (a whoami tool, an error quoting the request) cannot leak it either.
func (r *Redactor) Headers(h http.Header) map[string][]string {
	if len(h) == 0 {
		return nil
	}
	out := make(map[string][]string, len(h))
	for k, vs := range h {
		cp := make([]string, len(vs))
		for i, v := range vs {
			if SensitiveHeader(k) {
				r.Add(HeaderSecrets(k, v)...)
				cp[i] = Placeholder("header")
			} else {
				cp[i] = r.String(v)
			}
		}
		out[k] = cp
	}
	return out
}

// HeaderSecrets returns the secret values a sensitive header's value holds:
// the value, the credential after its scheme ("Bearer abc": abc), and each
// cookie's value (Cookie: a=1; b=2, Set-Cookie: sid=...; Path=/).
func HeaderSecrets(name, v string) []string {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil
	}
	out := []string{v}
	switch http.CanonicalHeaderKey(name) {
	case "Cookie", "Set-Cookie":
		for i, part := range strings.Split(v, ";") {
			if name == "Set-Cookie" && i > 0 {
				break // attributes: Path, Expires, HttpOnly
			}
			if _, cv, ok := strings.Cut(strings.TrimSpace(part), "="); ok && cv != "" {
				out = append(out, strings.Trim(cv, `"`))
			}
		}
	default:
		if i := strings.LastIndexByte(v, ' '); i >= 0 {
			out = append(out, v[i+1:])
		}
	}
	return out
}

// oauthParams are the OAuth 2.0 parameters whose values are credentials
// wherever they appear: in a query (the redirect carrying the code) or a
// form body (the token request). state and code_challenge are not: the one
// is what a state mismatch is diagnosed by, the other is a hash.
var oauthParams = map[string]bool{
	"code": true, "code_verifier": true, "client_secret": true, "refresh_token": true,
	"access_token": true, "id_token": true, "assertion": true, "client_assertion": true,
	"subject_token": true, "actor_token": true, "password": true, "token": true, "device_code": true,
}

// URL returns u with the values of OAuth credential parameters in its query
// replaced, and every known secret value too. The query keeps its order.
func (r *Redactor) URL(u string) string {
	base, query, ok := strings.Cut(u, "?")
	if !ok {
		return r.String(u)
	}
	frag := ""
	if i := strings.IndexByte(query, '#'); i >= 0 {
		query, frag = query[:i], query[i:]
	}
	return r.String(base + "?" + string(redactParams([]byte(query))) + frag)
}

// Form returns an application/x-www-form-urlencoded body with the values of
// OAuth credential parameters replaced, and every known secret value too.
func (r *Redactor) Form(b []byte) []byte {
	return r.Bytes(redactParams(b))
}

func redactParams(q []byte) []byte {
	parts := bytes.Split(q, []byte("&"))
	changed := false
	for i, p := range parts {
		k, v, ok := bytes.Cut(p, []byte("="))
		if !ok || len(v) == 0 {
			continue
		}
		name, err := url.QueryUnescape(string(k))
		if err != nil || !oauthParams[strings.ToLower(name)] {
			continue
		}
		parts[i] = append(append(append([]byte(nil), k...), '='), Placeholder("oauth")...)
		changed = true
	}
	if !changed {
		return q
	}
	return bytes.Join(parts, []byte("&"))
}

// Frame returns a copy of f's metadata safe to store or print: its note,
// error, URL and header values redacted. Raw is left as it is (callers
// redact the bytes themselves, often lazily).
func (r *Redactor) Frame(f *Frame) Frame {
	c := *f
	c.Note = r.String(f.Note)
	c.Err = r.String(f.Err)
	if f.HTTP != nil {
		h := *f.HTTP
		h.URL = r.URL(h.URL)
		if len(h.Headers) > 0 {
			hs := make(map[string][]string, len(h.Headers))
			for k, vs := range h.Headers {
				cp := make([]string, len(vs))
				for i, v := range vs {
					cp[i] = r.String(v)
				}
				hs[k] = cp
			}
			h.Headers = hs
		}
		c.HTTP = &h
	}
	return c
}
