package oauth

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/zalando/go-keyring"
	"golang.org/x/oauth2"
)

// StoreFormat is the version of the credentials file.
const StoreFormat = 1

// keyringService is the service name jig's secrets have in the OS keyring.
const keyringService = "jig"

// A Store keeps OAuth credentials per server and issuer: what was granted
// (issuer, scopes, expiry, the client) in a file readable only by the user,
// and the secrets themselves (access and refresh tokens, a registered
// client's secret) in the operating system's keyring when there is one, else
// in that same file. Listing the store never reads a secret.
type Store struct {
	path string
	// keyring is nil when secrets stay in the file; noKeyring says why.
	keyring   secretKeeper
	noKeyring string
}

// secretKeeper is the part of an OS keyring jig uses.
type secretKeeper interface {
	Get(key string) (string, error)
	Set(key, value string) error
	Delete(key string) error
}

type osKeyring struct{}

func (osKeyring) Get(key string) (string, error) {
	return withTimeout(func() (string, error) { return keyring.Get(keyringService, key) })
}
func (osKeyring) Set(key, value string) error {
	_, err := withTimeout(func() (string, error) { return "", keyring.Set(keyringService, key, value) })
	return err
}
func (osKeyring) Delete(key string) error {
	_, err := withTimeout(func() (string, error) { return "", keyring.Delete(keyringService, key) })
	if errors.Is(err, keyring.ErrNotFound) {
		return nil
	}
	return err
}

// withTimeout bounds a keyring call: a Secret Service that waits on an
// unlock prompt nobody sees must not hang jig.
func withTimeout(fn func() (string, error)) (string, error) {
	type result struct {
		s   string
		err error
	}
	ch := make(chan result, 1)
	go func() { s, err := fn(); ch <- result{s, err} }()
	select {
	case r := <-ch:
		return r.s, r.err
	case <-time.After(10 * time.Second):
		return "", errors.New("the keyring did not answer within 10s (locked, waiting on a prompt?)")
	}
}

// An Entry is what one login established for one server and issuer. Its
// secrets are stored apart (see Store).
type Entry struct {
	// Server is the MCP endpoint, canonical (see CanonicalServer).
	Server   string `json:"server"`
	Resource string `json:"resource,omitempty"` // the resource the token is for (RFC 8707)
	Issuer   string `json:"issuer"`
	// Grant is "authorization_code" (a login) or "client_credentials".
	Grant        string    `json:"grant"`
	ClientID     string    `json:"client_id"`
	Registration string    `json:"registration,omitempty"` // "dynamic", "pre-registered", "metadata-document"
	AuthURL      string    `json:"authorization_endpoint,omitempty"`
	TokenURL     string    `json:"token_endpoint"`
	AuthStyle    int       `json:"auth_style,omitempty"` // oauth2.AuthStyle for refreshing
	Scopes       []string  `json:"scopes,omitempty"`
	Expiry       time.Time `json:"expiry,omitzero"`
	Refreshable  bool      `json:"refreshable"` // a refresh token is stored
	Obtained     time.Time `json:"obtained"`
	Refreshed    time.Time `json:"refreshed,omitzero"`
	// Storage is "keyring" or "file": where the secrets are.
	Storage string   `json:"storage"`
	Secrets *Secrets `json:"secrets,omitempty"` // only when Storage is "file"
}

// Secrets are the parts of a grant that are credentials.
type Secrets struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type,omitempty"`
	RefreshToken string `json:"refresh_token,omitempty"`
	ClientSecret string `json:"client_secret,omitempty"`
}

// Values returns the secret values, for a redactor.
func (s *Secrets) Values() []string {
	if s == nil {
		return nil
	}
	return []string{s.AccessToken, s.RefreshToken, s.ClientSecret}
}

// Token returns the stored token as the oauth2 package holds it.
func (s *Secrets) token(e *Entry) *oauth2.Token {
	return &oauth2.Token{AccessToken: s.AccessToken, TokenType: s.TokenType, RefreshToken: s.RefreshToken, Expiry: e.Expiry}
}

func (e *Entry) key() string { return e.Issuer + " " + e.Server }

type storeFile struct {
	Format  int     `json:"format"`
	Note    string  `json:"note,omitempty"`
	Entries []Entry `json:"entries"`
}

const storeNote = "jig's OAuth credentials: written by jig auth login, listed by jig auth status, removed by jig auth logout"

// DefaultStore is the store in the user's config directory
// ($XDG_CONFIG_HOME/jig/credentials.json or ~/.config/jig/credentials.json,
// the platform's equivalent elsewhere), with secrets in the OS keyring when
// one is reachable. JIG_KEYRING=off keeps them in the file.
func DefaultStore() (*Store, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return nil, fmt.Errorf("no directory for stored credentials: %w (set XDG_CONFIG_HOME)", err)
	}
	s := &Store{path: filepath.Join(dir, "jig", "credentials.json")}
	if why := keyringUnavailable(); why != "" {
		s.noKeyring = why
	} else {
		s.keyring = osKeyring{}
	}
	return s, nil
}

// FileStore is a store whose secrets stay in the file at path.
func FileStore(path string) *Store {
	return &Store{path: path, noKeyring: "a file store was asked for"}
}

// keyringUnavailable says why the OS keyring cannot be used, or "".
func keyringUnavailable() string {
	if v := os.Getenv("JIG_KEYRING"); v == "off" || v == "0" || v == "false" {
		return "JIG_KEYRING=" + v
	}
	switch runtime.GOOS {
	case "darwin", "windows":
		return ""
	}
	// The Secret Service is reached over the D-Bus session bus. Without one,
	// the D-Bus library would try to launch a bus: a side effect jig must
	// not have. Look for the bus first.
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") != "" {
		return ""
	}
	if _, err := os.Stat(fmt.Sprintf("/run/user/%d/bus", os.Getuid())); err == nil {
		return ""
	}
	return "no D-Bus session bus for the Secret Service"
}

// Path is the credentials file.
func (s *Store) Path() string { return s.path }

// Where says where secrets go: "the OS keyring" or the file and why.
func (s *Store) Where() string {
	if s.keyring != nil {
		return "the OS keyring (metadata in " + s.path + ")"
	}
	return s.path + " (readable only by you; " + s.noKeyring + ")"
}

// CanonicalServer is the form of an MCP endpoint credentials are stored
// under: scheme and host lower-cased, a default port dropped, no fragment.
func CanonicalServer(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return raw
	}
	u.Scheme = strings.ToLower(u.Scheme)
	host := strings.ToLower(u.Hostname())
	port := u.Port()
	if (u.Scheme == "https" && port == "443") || (u.Scheme == "http" && port == "80") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	u.Host = host
	u.Fragment, u.RawFragment = "", ""
	if u.Path == "" {
		u.Path = "/"
	}
	return u.String()
}

// load reads the file. A missing file is an empty store. A file others can
// read is tightened to 0600 and a warning returned.
func (s *Store) load() (*storeFile, []string, error) {
	var warnings []string
	info, err := os.Stat(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return &storeFile{Format: StoreFormat}, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("credentials %s: %w", s.path, err)
	}
	if runtime.GOOS != "windows" && info.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(s.path, 0o600); err != nil {
			return nil, nil, fmt.Errorf("credentials %s is readable by others (%v) and cannot be fixed: %w", s.path, info.Mode().Perm(), err)
		}
		warnings = append(warnings, fmt.Sprintf("%s was readable by others (%v); jig made it 0600 — if others could read it, log out and in again", s.path, info.Mode().Perm()))
	}
	data, err := os.ReadFile(s.path)
	if err != nil {
		return nil, warnings, fmt.Errorf("credentials %s: %w", s.path, err)
	}
	var f storeFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, warnings, fmt.Errorf("credentials %s is not valid JSON (%v): move it aside, or remove it with jig auth logout --all", s.path, err)
	}
	if f.Format > StoreFormat {
		return nil, warnings, fmt.Errorf("credentials %s has format %d, newer than this jig reads (%d): upgrade jig", s.path, f.Format, StoreFormat)
	}
	return &f, warnings, nil
}

// save writes the file atomically, 0600 in a 0700 directory.
func (s *Store) save(f *storeFile) error {
	dir := filepath.Dir(s.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("credentials: cannot create %s: %w", dir, err)
	}
	f.Format, f.Note = StoreFormat, storeNote
	sort.Slice(f.Entries, func(i, j int) bool { return f.Entries[i].key() < f.Entries[j].key() })
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".credentials-*.json")
	if err != nil {
		return fmt.Errorf("credentials: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil && runtime.GOOS != "windows" {
		tmp.Close()
		return fmt.Errorf("credentials: %w", err)
	}
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("credentials: writing %s: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("credentials: %w", err)
	}
	return os.Rename(tmp.Name(), s.path)
}

// locked runs fn holding the store's lock file, so two jigs logging in at
// once do not lose each other's entries. A lock older than 30s is stale
// (a jig that was killed) and is taken over.
func (s *Store) locked(fn func() error) error {
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return fmt.Errorf("credentials: %w", err)
	}
	lock := s.path + ".lock"
	deadline := time.Now().Add(5 * time.Second)
	for {
		f, err := os.OpenFile(lock, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err == nil {
			f.Close()
			break
		}
		if !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("credentials: %w", err)
		}
		if info, serr := os.Stat(lock); serr == nil && time.Since(info.ModTime()) > 30*time.Second {
			os.Remove(lock)
			continue
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("credentials: %s is held by another jig; remove it if none is running", lock)
		}
		time.Sleep(20 * time.Millisecond)
	}
	defer os.Remove(lock)
	return fn()
}

// List returns every entry, without secrets, and warnings about the file.
func (s *Store) List() ([]Entry, []string, error) {
	f, warnings, err := s.load()
	if err != nil {
		return nil, warnings, err
	}
	out := make([]Entry, len(f.Entries))
	for i, e := range f.Entries {
		e.Secrets = nil
		out[i] = e
	}
	return out, warnings, nil
}

// Lookup returns the most recently obtained entry for server and its
// secrets, or nil when none is stored. An entry whose secrets cannot be read
// is returned with an error that says why.
func (s *Store) Lookup(server string) (*Entry, *Secrets, error) {
	f, _, err := s.load()
	if err != nil {
		return nil, nil, err
	}
	server = CanonicalServer(server)
	var best *Entry
	for i := range f.Entries {
		e := &f.Entries[i]
		if e.Server == server && (best == nil || e.Obtained.After(best.Obtained)) {
			best = e
		}
	}
	if best == nil {
		return nil, nil, nil
	}
	sec, err := s.secretsOf(best)
	e := *best
	e.Secrets = nil
	return &e, sec, err
}

func (s *Store) secretsOf(e *Entry) (*Secrets, error) {
	if e.Storage != "keyring" {
		if e.Secrets == nil {
			return nil, fmt.Errorf("credentials %s: the entry for %s (issuer %s) has no secrets", s.path, e.Server, e.Issuer)
		}
		return e.Secrets, nil
	}
	if s.keyring == nil {
		return nil, fmt.Errorf("the credentials for %s are in the OS keyring, which jig cannot reach here (%s)", e.Server, s.noKeyring)
	}
	v, err := s.keyring.Get(e.key())
	if err != nil {
		return nil, fmt.Errorf("reading the credentials for %s from the OS keyring: %w", e.Server, err)
	}
	var sec Secrets
	if err := json.Unmarshal([]byte(v), &sec); err != nil {
		return nil, fmt.Errorf("the OS keyring's credentials for %s are not jig's JSON: %w", e.Server, err)
	}
	return &sec, nil
}

// Save stores an entry and its secrets, replacing any entry for the same
// server and issuer. It returns where the secrets went. When the keyring
// refuses, the secrets go to the file and the returned note says why.
func (s *Store) Save(e Entry, sec Secrets) (string, error) {
	e.Server = CanonicalServer(e.Server)
	e.Refreshable = sec.RefreshToken != ""
	where := ""
	err := s.locked(func() error {
		f, _, err := s.load()
		if err != nil {
			return err
		}
		e.Storage, e.Secrets = "file", &sec
		where = s.path
		if s.keyring != nil {
			data, _ := json.Marshal(sec)
			if kerr := s.keyring.Set(e.key(), string(data)); kerr == nil {
				e.Storage, e.Secrets = "keyring", nil
				where = "the OS keyring"
			} else {
				where = fmt.Sprintf("%s (the OS keyring refused: %v)", s.path, kerr)
			}
		}
		kept := f.Entries[:0]
		for _, old := range f.Entries {
			if old.key() != e.key() {
				kept = append(kept, old)
			}
		}
		f.Entries = append(kept, e)
		return s.save(f)
	})
	return where, err
}

// Delete removes the entries of server (every entry when server is ""),
// from the file and the keyring, and returns them.
func (s *Store) Delete(server string) ([]Entry, error) {
	var removed []Entry
	err := s.locked(func() error {
		f, _, err := s.load()
		if err != nil {
			if server != "" {
				return err
			}
			// logout --all resets a file jig cannot read.
			removed = nil
			return os.Remove(s.path)
		}
		canon := CanonicalServer(server)
		kept := f.Entries[:0]
		for _, e := range f.Entries {
			if server != "" && e.Server != canon {
				kept = append(kept, e)
				continue
			}
			if e.Storage == "keyring" && s.keyring != nil {
				if err := s.keyring.Delete(e.key()); err != nil {
					return fmt.Errorf("removing the credentials for %s from the OS keyring: %w", e.Server, err)
				}
			}
			e.Secrets = nil
			removed = append(removed, e)
		}
		f.Entries = kept
		return s.save(f)
	})
	return removed, err
}
