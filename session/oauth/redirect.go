package oauth

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/mcpjig/jig/frames"
)

// DefaultWait is how long jig waits for the browser to come back.
const DefaultWait = 5 * time.Minute

// A listener is jig's end of the authorization redirect: an HTTP server on
// a loopback address (RFC 8252) that takes the one redirect carrying the
// code, answers the browser with a page saying what happened, and hands the
// result to the waiting flow.
type listener struct {
	ln   net.Listener
	srv  *http.Server
	path string
	url  string // the redirect URL, with the port actually bound

	mu      sync.Mutex
	waiting chan redirect // nil when no flow waits
}

type redirect struct {
	query url.Values
	raw   string // the request URI as received
}

// listen binds the redirect URL: its host must be a loopback address; port
// 0 picks a free one.
func listen(redirectURL string) (*listener, error) {
	u, err := url.Parse(redirectURL)
	if err != nil || u.Scheme != "http" || u.Host == "" {
		return nil, fmt.Errorf("--redirect-url %q: want http://127.0.0.1:PORT/PATH (a loopback address jig listens on)", redirectURL)
	}
	host := u.Hostname()
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("--redirect-url %q: the host must be a loopback address (127.0.0.1, [::1] or localhost): jig listens for the redirect on this machine only", redirectURL)
	}
	bind := u.Host
	if u.Port() == "" {
		bind = net.JoinHostPort(host, "0")
	}
	if host == "localhost" {
		bind = net.JoinHostPort("127.0.0.1", portOr0(u.Port()))
	}
	ln, err := net.Listen("tcp", bind)
	if err != nil {
		return nil, fmt.Errorf("--redirect-url %s: cannot listen on %s: %w (choose another port)", redirectURL, bind, err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	u.Host = net.JoinHostPort(host, port)
	if u.Path == "" {
		u.Path = "/callback"
	}
	l := &listener{ln: ln, path: u.Path, url: u.String()}
	l.srv = &http.Server{Handler: http.HandlerFunc(l.serve), ReadHeaderTimeout: 10 * time.Second}
	go l.srv.Serve(ln)
	return l, nil
}

func portOr0(p string) string {
	if p == "" {
		return "0"
	}
	return p
}

func (l *listener) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != l.path {
		http.NotFound(w, r)
		return
	}
	l.mu.Lock()
	ch := l.waiting
	l.waiting = nil
	l.mu.Unlock()
	q := r.URL.Query()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	switch {
	case ch == nil:
		w.WriteHeader(http.StatusGone)
		page(w, "jig is not waiting for a login", "This redirect came when no login was in progress. Start the login again from jig.")
		return
	case q.Get("error") != "":
		page(w, "Login failed", "The authorization server said: "+q.Get("error")+" "+q.Get("error_description")+". You can close this tab; jig says what to do next.")
	default:
		page(w, "jig is logged in", "You can close this tab and go back to the terminal.")
	}
	ch <- redirect{query: q, raw: r.URL.RequestURI()}
}

func page(w http.ResponseWriter, title, text string) {
	fmt.Fprintf(w, "<!doctype html><meta charset=utf-8><title>%s</title><body style=\"font-family:sans-serif;margin:3em\"><h1>%s</h1><p>%s</p>",
		html.EscapeString(title), html.EscapeString(title), html.EscapeString(text))
}

// expect arms the listener for one redirect.
func (l *listener) expect() chan redirect {
	ch := make(chan redirect, 1)
	l.mu.Lock()
	l.waiting = ch
	l.mu.Unlock()
	return ch
}

func (l *listener) disarm() {
	l.mu.Lock()
	l.waiting = nil
	l.mu.Unlock()
}

func (l *listener) close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	l.srv.Shutdown(ctx)
}

// fetcher returns the AuthorizationCodeFetcher of a flow: it records the
// authorization URL as a frame, sends the user there (browser or printed
// URL), waits for the redirect, records it, and checks it.
func (h *Handler) fetcher(l *listener) auth.AuthorizationCodeFetcher {
	return func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		au, _ := url.Parse(args.URL)
		q := au.Query()
		shown := h.redact.URL(args.URL)
		// A client that needed no registration request says which it is.
		switch id := q.Get("client_id"); {
		case id != "" && id == h.opts.ClientMetadataURL:
			h.log.Append(frames.Frame{Dir: frames.ClientToServer, Kind: frames.KindTransport,
				Note: "OAuth " + StepRegistration + ": none needed — jig is known by its client ID metadata document " + id})
		case id != "" && id == h.opts.ClientID:
			h.log.Append(frames.Frame{Dir: frames.ClientToServer, Kind: frames.KindTransport,
				Note: "OAuth " + StepRegistration + ": none needed — the pre-registered client_id " + id})
		}
		h.log.Append(frames.Frame{Dir: frames.ClientToServer, Kind: frames.KindTransport, HTTP: &frames.HTTP{Method: http.MethodGet, URL: shown},
			Note: fmt.Sprintf("OAuth %s: the browser goes to %s (client_id %s, scope %s, PKCE %s, resource %s)",
				StepAuthorization, au.Scheme+"://"+au.Host+au.Path, q.Get("client_id"), orNone(q.Get("scope")), orNone(q.Get("code_challenge_method")), orNone(q.Get("resource")))})
		ch := l.expect()
		defer l.disarm()
		opened := ""
		if !h.opts.NoBrowser {
			opened = OpenBrowser(h.opts.Browser, args.URL)
		}
		h.emit(Event{Step: StepAuthorization, URL: args.URL, Text: opened, Scopes: strings.Fields(q.Get("scope"))})
		h.waiting(true)
		defer h.waiting(false)
		wait := h.opts.Wait
		if wait <= 0 {
			wait = DefaultWait
		}
		timer := time.NewTimer(wait)
		defer timer.Stop()
		h.emit(Event{Step: StepRedirect, Text: "waiting for the browser to come back to " + l.url})
		var r redirect
		select {
		case r = <-ch:
		case <-timer.C:
			return nil, &Error{Step: StepRedirect, URL: l.url, Err: fmt.Errorf("no redirect came back within %s", wait),
				Hint: "jig stopped listening; run the command again and open the URL it prints in a browser on this machine (raise --auth-timeout to wait longer). The URL was: " + args.URL}
		case <-ctx.Done():
			return nil, &Error{Step: StepRedirect, URL: l.url, Err: fmt.Errorf("stopped waiting for the redirect: %w", context.Cause(ctx))}
		}
		h.log.Append(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport,
			HTTP: &frames.HTTP{Method: http.MethodGet, URL: h.redact.URL(strings.TrimSuffix(l.url, l.path) + r.raw)},
			Note: "OAuth " + StepRedirect + ": " + redirectSummary(r.query)})
		if e := r.query.Get("error"); e != "" {
			desc := r.query.Get("error_description")
			if desc != "" {
				desc = " (" + desc + ")"
			}
			hint := "the login was not completed; run the command again to retry"
			if e == "access_denied" {
				hint = "the login was refused or cancelled at the authorization server; run the command again to retry"
			}
			return nil, &Error{Step: StepRedirect, URL: l.url, Err: fmt.Errorf("the authorization server redirected with error=%s%s", e, desc), Hint: hint}
		}
		if r.query.Get("code") == "" {
			return nil, &Error{Step: StepRedirect, URL: l.url, Err: errors.New("the redirect carries neither a code nor an error"), Hint: "run the command again to retry"}
		}
		h.redact.Add(r.query.Get("code"))
		if got, want := r.query.Get("state"), q.Get("state"); got != want {
			return nil, &Error{Step: StepRedirect, URL: l.url, Err: errors.New("state mismatch: the redirect's state is not the one jig sent, so it is not the answer to this login (another login's, or forged)"),
				Hint: "nothing was exchanged; run the command again to retry"}
		}
		return &auth.AuthorizationResult{Code: r.query.Get("code"), State: r.query.Get("state"), Iss: r.query.Get("iss")}, nil
	}
}

func redirectSummary(q url.Values) string {
	if e := q.Get("error"); e != "" {
		return "error=" + e + " " + q.Get("error_description")
	}
	s := "a code (redacted)"
	if iss := q.Get("iss"); iss != "" {
		s += ", iss " + iss
	}
	return s
}

// OpenBrowser starts the browser on u without waiting for it, and says
// what it did. browser is the command to use ($BROWSER, --browser); empty
// means the platform's opener. A failure is not an error: the URL is
// printed anyway.
func OpenBrowser(browser []string, u string) string {
	cmd := browser
	if len(cmd) == 0 {
		if b := os.Getenv("BROWSER"); b != "" {
			cmd = strings.Fields(b)
		}
	}
	if len(cmd) == 0 {
		switch runtime.GOOS {
		case "darwin":
			cmd = []string{"open"}
		case "windows":
			cmd = []string{"rundll32", "url.dll,FileProtocolHandler"}
		default:
			cmd = []string{"xdg-open"}
		}
	}
	args := append([]string(nil), cmd[1:]...)
	substituted := false
	for i, a := range args {
		if strings.Contains(a, "%s") {
			args[i] = strings.ReplaceAll(a, "%s", u)
			substituted = true
		}
	}
	if !substituted {
		args = append(args, u)
	}
	c := exec.Command(cmd[0], args...)
	if err := c.Start(); err != nil {
		return fmt.Sprintf("could not start a browser (%s: %v)", cmd[0], err)
	}
	go c.Wait()
	return "opened with " + cmd[0]
}
