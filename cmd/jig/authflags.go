package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"github.com/mcpjig/jig/session/oauth"
)

// authFlags say what jig may do when an HTTP server asks for OAuth. They
// are part of targetFlags: any command that connects may meet a 401.
type authFlags struct {
	storedOnly        bool
	clientCredentials bool
	clientID          string
	clientSecretEnv   string
	clientMetadataURL string
	scope             string
	noBrowser         bool
	redirectURL       string
	authTimeout       time.Duration
	// fresh ignores stored credentials: jig auth login sets it, no flag does.
	fresh bool
}

func (a *authFlags) bind(fl *pflag.FlagSet) {
	fl.BoolVar(&a.storedOnly, "auth-stored-only", false, "never start an OAuth login: use stored credentials (refreshed when expired) or exit 3 with the login command (for CI)")
	fl.BoolVar(&a.clientCredentials, "client-credentials", false, "OAuth client_credentials grant with --client-id and --client-secret-env (a service account; no browser)")
	fl.StringVar(&a.clientID, "client-id", "", "a pre-registered OAuth client id (default: jig registers itself dynamically)")
	fl.StringVar(&a.clientSecretEnv, "client-secret-env", "", "the environment variable holding the OAuth client's secret (never the secret itself)")
	fl.StringVar(&a.clientMetadataURL, "client-metadata-url", "", "an https client ID metadata document jig is known by, used when the authorization server supports them")
	fl.StringVar(&a.scope, "scope", "", "OAuth scopes to request, space-separated (default: what the server asks for)")
	fl.BoolVar(&a.noBrowser, "no-browser", false, "print the OAuth login URL instead of opening a browser")
	fl.StringVar(&a.redirectURL, "redirect-url", "", "where the browser comes back after an OAuth login: a loopback URL jig listens on (default http://127.0.0.1:<free port>/callback)")
	fl.DurationVar(&a.authTimeout, "auth-timeout", oauth.DefaultWait, "how long an OAuth login waits for the browser to come back")
}

// given reports whether any OAuth flag was set.
func (a *authFlags) given() bool {
	return a.storedOnly || a.clientCredentials || a.clientID != "" || a.clientSecretEnv != "" || a.clientMetadataURL != "" ||
		a.scope != "" || a.noBrowser || a.redirectURL != ""
}

// options are the session's OAuth options, with the store. lookup reads
// the environment (--client-secret-env).
func (a *authFlags) options(lookup func(string) (string, bool)) (*oauth.Options, error) {
	o := &oauth.Options{
		ClientID: a.clientID, ClientMetadataURL: a.clientMetadataURL, Scopes: strings.Fields(a.scope),
		NoBrowser: a.noBrowser, RedirectURL: a.redirectURL, Wait: a.authTimeout, Fresh: a.fresh,
	}
	switch {
	case a.clientCredentials:
		o.Mode = oauth.ClientCredentials
		if a.clientID == "" || a.clientSecretEnv == "" {
			return nil, usageErr("--client-credentials needs --client-id ID and --client-secret-env VAR (a pre-registered confidential client)")
		}
	case a.storedOnly:
		o.Mode = oauth.StoredOnly
	}
	if a.clientSecretEnv != "" {
		if strings.HasPrefix(a.clientSecretEnv, "$") {
			return nil, usageErr("--client-secret-env %s: give the variable's name without $ (jig reads it; the secret never appears on the command line)", a.clientSecretEnv)
		}
		v, ok := lookup(a.clientSecretEnv)
		if !ok || v == "" {
			return nil, usageErr("--client-secret-env %s: the environment variable is not set (export it first)", a.clientSecretEnv)
		}
		if a.clientID == "" {
			return nil, usageErr("--client-secret-env needs --client-id: a secret belongs to a pre-registered client")
		}
		o.ClientSecret = v
	}
	if a.authTimeout < 0 {
		return nil, usageErr("--auth-timeout %s: give a positive duration, such as 5m", a.authTimeout)
	}
	store, err := oauth.DefaultStore()
	if err != nil {
		return nil, usageErr("%v", err)
	}
	o.Store = store
	return o, nil
}

// printEvents tells the user, on stderr, where an OAuth flow is and what to
// do: the URL to open above all.
func printEvents(w io.Writer) func(oauth.Event) {
	var mu sync.Mutex
	return func(e oauth.Event) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case e.Err != nil && e.Step == "store":
			fmt.Fprintf(w, "jig: warning: %v\n", e.Err)
		case e.Err != nil:
			// The command's error says it, once.
		case e.Step == oauth.StepChallenge:
			fmt.Fprintf(w, "jig: %s\n", e.Text)
		case e.Step == oauth.StepAuthorization:
			how := "open this URL in a browser to log in"
			if e.Text != "" {
				how += " (" + e.Text + ")"
			}
			fmt.Fprintf(w, "jig: %s:\n\n  %s\n\n", how, e.URL)
		case e.Step == oauth.StepRedirect:
			fmt.Fprintf(w, "jig: %s (ctrl+c to give up)\n", e.Text)
		case e.Step == oauth.StepRefresh:
			fmt.Fprintf(w, "jig: %s by %s; it expires %s\n", e.Text, e.Issuer, when(e.Expiry, time.Now()))
		case e.Step == "done":
			fmt.Fprintf(w, "jig: authorized by %s · scopes %s · expires %s%s\n", e.Issuer, scopesText(e.Scopes), when(e.Expiry, time.Now()), storedText(e.Stored))
		}
	}
}

func scopesText(s []string) string {
	if len(s) == 0 {
		return "(none named)"
	}
	return strings.Join(s, " ")
}

func storedText(where string) string {
	if where == "" {
		return " · not stored"
	}
	return " · stored in " + where
}

// when says when t is, relative to now: "in 59m", "2h ago", "never".
func when(t, now time.Time) string {
	if t.IsZero() {
		return "never (no expiry given)"
	}
	d := t.Sub(now).Round(time.Minute)
	switch {
	case d >= 0 && d < time.Minute:
		return "within a minute"
	case d >= 0:
		return "in " + shortDuration(d)
	case d > -time.Minute:
		return "a moment ago"
	}
	return shortDuration(-d) + " ago"
}

func shortDuration(d time.Duration) string {
	switch {
	case d >= 48*time.Hour:
		return fmt.Sprintf("%dd", int(d.Hours()/24))
	case d >= time.Hour:
		return strings.TrimSuffix(d.Truncate(time.Minute).String(), "0s")
	}
	return strings.TrimSuffix(d.String(), "0s")
}
