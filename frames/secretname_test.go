package frames

import (
	"math/rand/v2"
	"os"
	"regexp"
	"strings"
	"testing"
)

// secretVarPattern is what SecretVarName decides, as a regexp.
var secretVarPattern = regexp.MustCompile(`(?i)token|secret|passw|api_?key|apikey|private_?key|credential|access_?key|session_?key|cookie|(^|_)(key|auth|pass|pwd|passphrase)($|_)`)

// TestSecretVarNameIsTheRegexp: on real names, edge cases and random names
// over the letters that matter, SecretVarName is the regexp; and the names
// a database client reads its password from are secret (DB_PASS, MYSQL_PWD
// were pinned in plain text), while PASSENGER or COMPASS are not.
func TestSecretVarNameIsTheRegexp(t *testing.T) {
	names := []string{"GITHUB_TOKEN", "OPENAI_API_KEY", "DATABASE_PASSWORD", "STRIPE_KEY", "KEY", "key_", "_KEY_X", "MONKEY", "KEYBOARD",
		"AUTH", "OAUTH", "AUTH_URL", "X_AUTH", "AUTHOR", "SSH_AUTH_SOCK", "APIKEY", "API-KEY", "PRIVATEKEY", "ACCESS_KEY_ID", "CREDENTIALS",
		"PATH", "HOME", "SHELL", "\u212aEY", "\u017fECRET", "TO\u212aEN", "passwd", "a_b_c", "", "_", "__", "K_E_Y", "ke\xffy", "\xff_key",
		"DB_PASS", "MYSQL_PWD", "REDIS_PASS", "SSH_PASSPHRASE", "SESSION_COOKIE", "FLASK_SESSION_KEY", "PASSENGER", "COMPASS", "BYPASS_CACHE", "PWD_DIR"}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		names = append(names, k)
	}
	r := rand.New(rand.NewPCG(1, 2))
	const alphabet = "keyautokensecrpwdivclaphs_KEYAUTHPASS\u212a\u017f-1"
	runes := []rune(alphabet)
	for range 20000 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteRune(runes[r.IntN(len(runes))])
		}
		names = append(names, b.String())
	}
	for _, n := range names {
		if got, want := SecretVarName(n), secretVarPattern.MatchString(n) && foldName(n) != "pwd"; got != want {
			t.Errorf("SecretVarName(%q) = %v, the regexp says %v", n, got, want)
		}
	}
	for n, want := range map[string]bool{"DB_PASS": true, "MYSQL_PWD": true, "SSH_PASSPHRASE": true, "SESSION_COOKIE": true,
		"PASSENGER": false, "COMPASS": false, "BYPASS_CACHE": false, "PWD_DIR": true, "OLDPWD": false, "PWD": false} {
		if got := SecretVarName(n); got != want {
			t.Errorf("SecretVarName(%q) = %v, want %v", n, got, want)
		}
	}
}
