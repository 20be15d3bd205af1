package oauth

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// keeper is a keyring for the store's own logic (the OS keyring needs a
// D-Bus Secret Service this machine does not have): what jig puts in it,
// what it leaves out of the file, and what happens when it refuses.
type keeper struct {
	items  map[string]string
	refuse error
}

func (k *keeper) Get(key string) (string, error) {
	v, ok := k.items[key]
	if !ok {
		return "", errors.New("not found")
	}
	return v, nil
}

func (k *keeper) Set(key, value string) error {
	if k.refuse != nil {
		return k.refuse
	}
	k.items[key] = value
	return nil
}

func (k *keeper) Delete(key string) error { delete(k.items, key); return nil }

// With a keyring the secrets go there and only there; the file keeps what
// jig auth status lists. A keyring that refuses leaves them in the 0600
// file, and Save says why.
func TestStoreWithKeyring(t *testing.T) {
	k := &keeper{items: map[string]string{}}
	s := &Store{path: filepath.Join(t.TempDir(), "credentials.json"), keyring: k}
	e := Entry{Server: "https://mcp.example/mcp", Issuer: "https://as.example", ClientID: "c", TokenURL: "https://as.example/token", Expiry: time.Now().Add(time.Hour), Obtained: time.Now()}
	where, err := s.Save(e, Secrets{AccessToken: "access-in-keyring", RefreshToken: "refresh-in-keyring"})
	if err != nil || where != "the OS keyring" {
		t.Fatalf("Save = %q, %v", where, err)
	}
	data, _ := os.ReadFile(s.Path())
	if strings.Contains(string(data), "in-keyring") || !strings.Contains(string(data), `"storage": "keyring"`) {
		t.Errorf("the file holds the secrets or does not say where they are:\n%s", data)
	}
	got, sec, err := s.Lookup("https://mcp.example/mcp")
	if err != nil || got == nil || sec.AccessToken != "access-in-keyring" || !got.Refreshable {
		t.Fatalf("Lookup = %+v, %+v, %v", got, sec, err)
	}
	if _, err := s.Delete("https://mcp.example/mcp"); err != nil || len(k.items) != 0 {
		t.Errorf("logout left %d keyring items (%v)", len(k.items), err)
	}

	k.refuse = errors.New("the collection is locked")
	where, err = s.Save(e, Secrets{AccessToken: "access-in-file"})
	if err != nil || !strings.Contains(where, s.Path()) || !strings.Contains(where, "the collection is locked") {
		t.Fatalf("Save with a refusing keyring = %q, %v; want the file, and why", where, err)
	}
	if _, sec, _ := s.Lookup("https://mcp.example/mcp"); sec == nil || sec.AccessToken != "access-in-file" {
		t.Errorf("the file's secrets are not read back: %+v", sec)
	}
	info, _ := os.Stat(s.Path())
	if info.Mode().Perm() != 0o600 {
		t.Errorf("the file holding secrets is %v", info.Mode().Perm())
	}
}

// An entry whose secrets are in a keyring jig cannot reach now is an error
// that says so, not a silent "nothing stored".
func TestStoreKeyringUnreachable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "credentials.json")
	k := &keeper{items: map[string]string{}}
	e := Entry{Server: "https://mcp.example/mcp", Issuer: "https://as.example", TokenURL: "https://as.example/token", Obtained: time.Now()}
	if _, err := (&Store{path: path, keyring: k}).Save(e, Secrets{AccessToken: "a-token"}); err != nil {
		t.Fatal(err)
	}
	_, _, err := (&Store{path: path, noKeyring: "no D-Bus session bus for the Secret Service"}).Lookup("https://mcp.example/mcp")
	if err == nil || !strings.Contains(err.Error(), "OS keyring") || !strings.Contains(err.Error(), "D-Bus") {
		t.Errorf("Lookup without the keyring = %v", err)
	}
}
