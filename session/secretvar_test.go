package session

import (
	"math/rand/v2"
	"os"
	"regexp"
	"strings"
	"testing"
)

// secretVarPattern is what secretVarName decides, as the regexp it was.
var secretVarPattern = regexp.MustCompile(`(?i)token|secret|passw|api_?key|apikey|private_?key|credential|access_?key|(^|_)key($|_)|(^|_)auth($|_)`)

// TestSecretVarNameIsTheRegexp: on real names, edge cases and random names
// over the letters that matter, secretVarName is the regexp.
func TestSecretVarNameIsTheRegexp(t *testing.T) {
	names := []string{"GITHUB_TOKEN", "OPENAI_API_KEY", "DATABASE_PASSWORD", "STRIPE_KEY", "KEY", "key_", "_KEY_X", "MONKEY", "KEYBOARD",
		"AUTH", "OAUTH", "AUTH_URL", "X_AUTH", "AUTHOR", "SSH_AUTH_SOCK", "APIKEY", "API-KEY", "PRIVATEKEY", "ACCESS_KEY_ID", "CREDENTIALS",
		"PATH", "HOME", "SHELL", "\u212aEY", "\u017fECRET", "TO\u212aEN", "passwd", "a_b_c", "", "_", "__", "K_E_Y", "ke\xffy", "\xff_key"}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		names = append(names, k)
	}
	r := rand.New(rand.NewPCG(1, 2))
	const alphabet = "keyautokensecrpwdivcl_KEYAUTH\u212a\u017f-1"
	runes := []rune(alphabet)
	for range 20000 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteRune(runes[r.IntN(len(runes))])
		}
		names = append(names, b.String())
	}
	for _, n := range names {
		if got, want := secretVarName(n), secretVarPattern.MatchString(n); got != want {
			t.Errorf("secretVarName(%q) = %v, the regexp says %v", n, got, want)
		}
	}
}
