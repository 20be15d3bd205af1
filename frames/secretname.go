package frames

import "strings"

// SecretVarName reports whether an environment variable's name says its
// value is a credential: GITHUB_TOKEN, OPENAI_API_KEY, DATABASE_PASSWORD,
// STRIPE_KEY, DB_PASS, MYSQL_PWD, SESSION_COOKIE. It is the one judge of
// the environment a server inherits, for the session's redactor and for
// the fixtures pinned from it, and the case-insensitive match of
//
//	token|secret|passw|api_?key|apikey|private_?key|credential|access_?key|session_?key|cookie|(^|_)(key|auth|pass|pwd|passphrase)($|_)
//
// written out, but for PWD, the shell's working directory
// (TestSecretVarNameIsTheRegexp holds them equal): a regexp run
// over every variable of the environment cost ~0.8 ms of each run.
func SecretVarName(name string) bool {
	l := foldName(name)
	if l == "pwd" {
		return false // the shell's working directory, not a password
	}
	for _, s := range [...]string{"token", "secret", "passw", "apikey", "api_key", "privatekey", "private_key", "credential",
		"accesskey", "access_key", "sessionkey", "session_key", "cookie"} {
		if strings.Contains(l, s) {
			return true
		}
	}
	for w := range strings.SplitSeq(l, "_") {
		switch w {
		case "key", "auth", "pass", "pwd", "passphrase":
			return true
		}
	}
	return false
}

// foldName lower-cases ASCII letters and maps the two other runes that
// case-fold to ASCII letters (U+212A KELVIN SIGN to k, U+017F LONG S to s),
// as regexp's (?i) does.
func foldName(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 || 'A' <= s[i] && s[i] <= 'Z' {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch {
		case 'A' <= r && r <= 'Z':
			return r + 'a' - 'A'
		case r == '\u212a':
			return 'k'
		case r == '\u017f':
			return 's'
		}
		return r
	}, s)
}

// An EnvSecret is a variable of the environment whose name says it holds a
// credential, with its value.
type EnvSecret struct {
	Name, Value string
}

// EnvSecrets returns the variables of environ ("K=V" lines, as os.Environ
// gives them) whose names look secret (SecretVarName): the one list of the
// environment's secrets that every redactor of jig is given — the CLI's,
// the proxy's, the TUI's, fixtures', reports'. An empty value and a path
// (SSH_AUTH_SOCK=/tmp/...) are no secret. How each value is redacted is
// its ValueStrength's business.
func EnvSecrets(environ []string) []EnvSecret {
	var out []EnvSecret
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || v == "" || !SecretVarName(k) || pathLike(v) {
			continue
		}
		out = append(out, EnvSecret{Name: k, Value: v})
	}
	return out
}

// pathLike reports whether an environment value is a path (SSH_AUTH_SOCK),
// which is no secret and which redacting would make every path unreadable.
func pathLike(v string) bool { return strings.HasPrefix(v, "/") && !strings.ContainsAny(v, " ") }

// WeakEnvNote is the line to say, once, about the secret-named variables of
// environ whose values cannot be redacted everywhere (see Strength); "" when
// there are none. It names the variables, never their values.
func WeakEnvNote(environ []string) string {
	var weak, never []string
	for _, s := range EnvSecrets(environ) {
		switch ValueStrength(s.Value) {
		case Weak:
			weak = append(weak, "$"+s.Name)
		case Unredactable:
			never = append(never, "$"+s.Name)
		}
	}
	var parts []string
	if len(weak) > 0 {
		parts = append(parts, strings.Join(weak, ", ")+" "+either(len(weak), "holds a value", "hold values")+
			" too short or too common to redact everywhere (a word, or under 8 characters): redacted only where "+
			either(len(weak), "it stands", "they stand")+" as a word within longer text, not as a whole value, a key or part of a word")
	}
	if len(never) > 0 {
		parts = append(parts, strings.Join(never, ", ")+" "+either(len(never), "holds", "hold")+
			" a boolean, a number or under 4 characters: never redacted (it would rewrite every such value of every frame)")
	}
	if len(parts) == 0 {
		return ""
	}
	return "jig: " + strings.Join(parts, "; ") + "; a real secret there would be redacted everywhere"
}

func either(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
