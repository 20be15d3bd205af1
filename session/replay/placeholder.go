package replay

import (
	"fmt"
	"strings"

	"github.com/mcpjig/jig/session"
)

// UnsentPlaceholder says where a target's URL or command holds a placeholder
// jig wrote when it redacted a secret there, and how a replay gives the
// value instead: jig never sends a placeholder as the value (a server that
// ignores the key would answer, and the run would be green against a server
// that was never authenticated). field is "target.url" or "target.command";
// "" when neither holds one. Headers and env are checked by name in
// caseTarget.
func UnsentPlaceholder(t session.Target) (field, msg string) {
	if strings.Contains(t.URL, "[REDACTED") {
		part := urlPart(t.URL)
		how := "give the URL with --url URL, or write a reference like ${NAME} in its place (jig expands ${NAME} in a URL from the environment)"
		if strings.HasPrefix(part, "its password") || strings.HasPrefix(part, "its user") {
			how = "give the URL with --url URL (a URL's user information cannot hold a reference: pin with --header 'Authorization: Basic $CREDENTIALS' instead to keep one)"
		}
		return "target.url", fmt.Sprintf("was redacted when pinned (%s): jig never sends the placeholder as the value; %s", part, how)
	}
	for i, a := range t.Command {
		if strings.Contains(a, "[REDACTED") {
			where := fmt.Sprintf("its argument %d (%s)", i, a)
			if i == 0 {
				where = "the command itself"
			}
			return "target.command", fmt.Sprintf("was redacted when pinned (%s): jig never sends the placeholder as the value; "+
				"give the command after --, or write a reference like ${NAME} in its place (jig expands ${NAME} in a command's arguments from the environment)", where)
		}
	}
	return "", ""
}

// urlPart names the parts of a URL that hold a placeholder: its password
// (or user), each query parameter, its path, else the URL. It reads the URL
// by hand: net/url refuses a placeholder in the user information.
func urlPart(raw string) string {
	rest := raw
	if _, after, ok := strings.Cut(rest, "://"); ok {
		rest = after
	}
	rest, _, _ = strings.Cut(rest, "#")
	rest, query, _ := strings.Cut(rest, "?")
	authority, path := rest, ""
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		authority, path = rest[:i], rest[i:]
	}
	var parts []string
	if i := strings.LastIndexByte(authority, '@'); i >= 0 {
		user, pass, hasPass := strings.Cut(authority[:i], ":")
		switch {
		case hasPass && strings.Contains(pass, "[REDACTED"):
			parts = append(parts, "its password")
		case strings.Contains(user, "[REDACTED"):
			parts = append(parts, "its user")
		}
		authority = authority[i+1:]
	}
	if strings.Contains(authority, "[REDACTED") {
		parts = append(parts, "its host")
	}
	if strings.Contains(path, "[REDACTED") {
		parts = append(parts, "its path")
	}
	for _, kv := range strings.Split(query, "&") {
		if k, v, _ := strings.Cut(kv, "="); strings.Contains(v, "[REDACTED") {
			parts = append(parts, fmt.Sprintf("its query parameter %q", k))
		}
	}
	if len(parts) == 0 {
		return "a secret in it"
	}
	return strings.Join(parts, ", ")
}
