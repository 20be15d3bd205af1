package oauth_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpjig/jig/session/oauth"
)

func entry(server, issuer string) oauth.Entry {
	return oauth.Entry{Server: server, Issuer: issuer, Grant: "authorization_code", ClientID: "jig-client", TokenURL: issuer + "/token",
		Scopes: []string{"read"}, Expiry: time.Now().Add(time.Hour).UTC(), Obtained: time.Now().UTC()}
}

// The file store: 0600 in a 0700 directory, listing never returns
// secrets, one server's logout leaves the others, --all empties it.
func TestFileStore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "config", "jig")
	s := oauth.FileStore(filepath.Join(dir, "credentials.json"))
	if _, err := s.Save(entry("https://A.example:443/mcp", "https://as.example"), oauth.Secrets{AccessToken: "access-aaaa", RefreshToken: "refresh-aaaa"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Save(entry("https://b.example/mcp", "https://as.example"), oauth.Secrets{AccessToken: "access-bbbb"}); err != nil {
		t.Fatal(err)
	}
	assertMode(t, s.Path(), 0o600)
	assertMode(t, dir, 0o700)

	e, sec, err := s.Lookup("https://a.example/mcp") // canonical: case and default port
	if err != nil || e == nil || sec.AccessToken != "access-aaaa" || !e.Refreshable || e.Storage != "file" {
		t.Fatalf("Lookup = %+v, %+v, %v", e, sec, err)
	}
	list, _, err := s.List()
	if err != nil || len(list) != 2 {
		t.Fatalf("List = %v, %v", list, err)
	}
	for _, e := range list {
		if e.Secrets != nil {
			t.Errorf("List returned the secrets of %s", e.Server)
		}
	}

	removed, err := s.Delete("https://a.example/mcp")
	if err != nil || len(removed) != 1 {
		t.Fatalf("Delete = %v, %v", removed, err)
	}
	if e, _, _ := s.Lookup("https://a.example/mcp"); e != nil {
		t.Errorf("a logged-out server still has credentials")
	}
	if data, _ := os.ReadFile(s.Path()); strings.Contains(string(data), "access-aaaa") || strings.Contains(string(data), "refresh-aaaa") {
		t.Errorf("the logged-out server's tokens are still in the file:\n%s", data)
	}
	if e, _, _ := s.Lookup("https://b.example/mcp"); e == nil {
		t.Errorf("logging out of one server logged out of another")
	}
	if removed, err := s.Delete(""); err != nil || len(removed) != 1 {
		t.Errorf("Delete all = %v, %v", removed, err)
	}
	if list, _, _ := s.List(); len(list) != 0 {
		t.Errorf("after logout --all: %v", list)
	}
}

// A credentials file others can read is tightened, with a warning.
func TestFileStoreTightensPermissions(t *testing.T) {
	s := oauth.FileStore(filepath.Join(t.TempDir(), "credentials.json"))
	if _, err := s.Save(entry("https://a.example/mcp", "https://as.example"), oauth.Secrets{AccessToken: "access-aaaa"}); err != nil {
		t.Fatal(err)
	}
	os.Chmod(s.Path(), 0o644)
	_, warnings, err := s.List()
	if err != nil || len(warnings) != 1 || !strings.Contains(warnings[0], "readable by others") {
		t.Fatalf("List of a 0644 file: warnings %q, err %v", warnings, err)
	}
	assertMode(t, s.Path(), 0o600)
}

// A file that is not jig's is an error naming the file and the way out.
func TestFileStoreCorrupt(t *testing.T) {
	s := oauth.FileStore(filepath.Join(t.TempDir(), "credentials.json"))
	os.WriteFile(s.Path(), []byte("{not json"), 0o600)
	_, _, err := s.Lookup("https://a.example/mcp")
	if err == nil || !strings.Contains(err.Error(), s.Path()) || !strings.Contains(err.Error(), "logout --all") {
		t.Fatalf("Lookup in a corrupt file: %v", err)
	}
	if _, err := s.Delete(""); err != nil {
		t.Fatalf("logout --all of a corrupt file: %v", err)
	}
	if _, err := os.Stat(s.Path()); !os.IsNotExist(err) {
		t.Errorf("logout --all left the corrupt file")
	}
}

// Two jigs logging in at once keep both entries.
func TestFileStoreConcurrentSaves(t *testing.T) {
	s := oauth.FileStore(filepath.Join(t.TempDir(), "credentials.json"))
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := s.Save(entry(fmt.Sprintf("https://s%d.example/mcp", i), "https://as.example"), oauth.Secrets{AccessToken: fmt.Sprintf("tok-%d", i)}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if list, _, err := s.List(); err != nil || len(list) != 8 {
		t.Fatalf("after 8 concurrent saves: %d entries, %v", len(list), err)
	}
}
