package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/oauth"
)

// authLoginOptions are jig auth login's: an HTTP target and its OAuth flags.
type authLoginOptions struct {
	target  targetFlags
	frames  framesFlag
	command []string
}

// authStatusOptions are jig auth status's.
type authStatusOptions struct{ json bool }

// authLogoutOptions are jig auth logout's.
type authLogoutOptions struct {
	url string
	all bool
}

const authLong = `jig logs in to servers behind MCP's OAuth 2.1 authorization the way the
spec says a client should: the server's 401 points to its protected-resource
metadata, that to the authorization server's metadata; jig registers itself
(client ID metadata document, a pre-registered --client-id, or dynamic
registration), sends the browser to the authorization URL with PKCE (S256),
waits for the redirect on a loopback address, and exchanges the code for a
token. Every step is a transport frame (--frames, the TUI, recordings), with
tokens, codes and secrets redacted.

Any command that connects does this when the server asks; jig auth login
does it on purpose, replacing what is stored. Tokens are stored per server
and issuer, with their refresh tokens, in the OS keyring when there is one,
else in a file only you can read ($XDG_CONFIG_HOME/jig/credentials.json);
expired tokens are refreshed silently. In CI, --auth-stored-only never
starts a login: it uses what is stored or exits 3 with the login command;
--client-credentials uses a service account instead.`

const authLoginExample = `  jig auth login --url https://mcp.example.com/mcp
  jig auth login --url https://mcp.example.com/mcp --scope "read write" --no-browser
  jig auth login --url https://mcp.example.com/mcp --client-id jig-dev --client-secret-env JIG_CLIENT_SECRET`

func newAuthCmd(st *streams, runLogin runFunc[authLoginOptions], runStatus runFunc[authStatusOptions], runLogout runFunc[authLogoutOptions]) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "auth",
		Short: "Log in to OAuth-protected servers; list and remove stored credentials",
		Long:  authLong,
		Args:  noArgsOrCommand,
		RunE:  func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	lo := &authLoginOptions{}
	login := &cobra.Command{
		Use:     "login --url URL [flags]",
		Short:   "Log in to a server with OAuth and store the token",
		Example: authLoginExample,
		RunE: func(cmd *cobra.Command, args []string) error {
			lo.command = args
			return runLogin(cmd.Context(), lo, st)
		},
	}
	lo.target.bind(login)
	lo.frames.bind(login)
	so := &authStatusOptions{}
	status := &cobra.Command{
		Use:   "status",
		Short: "List stored credentials: server, issuer, scopes, expiry (never the token)",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, args []string) error { return runStatus(cmd.Context(), so, st) },
	}
	status.Flags().BoolVar(&so.json, "json", false, "print the entries as JSON (no secrets)")
	oo := &authLogoutOptions{}
	logout := &cobra.Command{
		Use:     "logout --url URL | --all",
		Short:   "Remove stored credentials for a server, or all of them",
		Example: "  jig auth logout --url https://mcp.example.com/mcp\n  jig auth logout --all",
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, args []string) error { return runLogout(cmd.Context(), oo, st) },
	}
	logout.Flags().StringVar(&oo.url, "url", "", "the server whose credentials to remove")
	logout.Flags().BoolVar(&oo.all, "all", false, "remove every stored credential")
	cmd.AddCommand(login, status, logout)
	return cmd
}

func runAuthLogin(ctx context.Context, o *authLoginOptions, st *streams) error {
	switch {
	case o.target.auth.storedOnly:
		return usageErr("jig auth login starts a login; --auth-stored-only forbids one")
	case o.target.auth.clientCredentials:
		return usageErr("--client-credentials needs no login: pass it (with --client-id and --client-secret-env) to the command that connects")
	}
	o.target.auth.fresh = true
	return withSession(ctx, st, &o.target, o.command, &o.frames, "auth-login", func(ctx context.Context, s *session.Session) error {
		g := s.Auth()
		if g == nil {
			return usageErr("jig auth login needs an HTTP server: --url URL, or a --config entry with a url")
		}
		if g.Source != "login" {
			fmt.Fprintf(st.out, "%s accepted jig without asking for authorization: nothing to log in to\n", s.Info().Target)
			return nil
		}
		fmt.Fprintf(st.out, "logged in to %s\n", g.Server)
		fmt.Fprintf(st.out, "  issuer   %s\n  scopes   %s\n  expires  %s\n", g.Issuer, scopesText(g.Scopes), when(g.Expiry, time.Now()))
		if g.Stored == "" {
			fmt.Fprintln(st.out, "  stored   no: the credentials could not be stored (see the warning above)")
		} else {
			fmt.Fprintf(st.out, "  stored   %s\n", g.Stored)
		}
		return nil
	})
}

func runAuthStatus(ctx context.Context, o *authStatusOptions, st *streams) error {
	store, err := oauth.DefaultStore()
	if err != nil {
		return usageErr("%v", err)
	}
	entries, warnings, err := store.List()
	for _, w := range warnings {
		fmt.Fprintf(st.err, "jig: warning: %s\n", w)
	}
	if err != nil {
		return usageErr("%v", err)
	}
	if o.json {
		if entries == nil {
			entries = []oauth.Entry{}
		}
		return writeJSON(st.out, entries)
	}
	if len(entries) == 0 {
		fmt.Fprintf(st.out, "no stored credentials (they would be in %s)\n", store.Where())
		return nil
	}
	now := time.Now()
	tw := tabwriter.NewWriter(st.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SERVER\tISSUER\tSCOPES\tEXPIRES\tREFRESH\tCLIENT\tSTORED")
	for _, e := range entries {
		refresh := "no"
		if e.Refreshable {
			refresh = "yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", e.Server, e.Issuer, scopesText(e.Scopes), when(e.Expiry, now), refresh, clientText(e), e.Storage)
	}
	tw.Flush()
	fmt.Fprintf(st.out, "\nstore: %s\n", store.Where())
	return nil
}

func clientText(e oauth.Entry) string {
	if e.Registration == "" {
		return e.ClientID
	}
	return e.ClientID + " (" + e.Registration + ")"
}

func runAuthLogout(ctx context.Context, o *authLogoutOptions, st *streams) error {
	if (o.url == "") == !o.all {
		return usageErr("jig auth logout: give --url URL or --all")
	}
	store, err := oauth.DefaultStore()
	if err != nil {
		return usageErr("%v", err)
	}
	removed, err := store.Delete(o.url)
	if err != nil {
		return usageErr("%v", err)
	}
	if len(removed) == 0 {
		what := "any server"
		if o.url != "" {
			what = oauth.CanonicalServer(o.url)
		}
		fmt.Fprintf(st.out, "nothing stored for %s (jig auth status lists what is)\n", what)
		return nil
	}
	var issuers []string
	for _, e := range removed {
		fmt.Fprintf(st.out, "logged out of %s (issuer %s; the %s copy is gone)\n", e.Server, e.Issuer, e.Storage)
		if !slices.Contains(issuers, e.Issuer) {
			issuers = append(issuers, e.Issuer)
		}
	}
	fmt.Fprintf(st.out, "The authorization server may honour the tokens until they expire; revoke them at %s if they leaked.\n", strings.Join(issuers, ", "))
	return nil
}
