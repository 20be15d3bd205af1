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
