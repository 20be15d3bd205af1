package importer

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzOpen feeds every importer mangled transcripts: whatever the bytes,
// Open returns a File or an error that names the file, never panics, and
// every frame it makes of a tools/call is valid JSON with the call's
// arguments in it byte for byte.
func FuzzOpen(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*.*")
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		if len(b) > 4096 {
			b = b[:4096]
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "t")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		file, err := Open(path)
		if err != nil {
			if !bytes.Contains([]byte(err.Error()), []byte(path)) {
				t.Fatalf("the error does not name the file: %v", err)
			}
			return
		}
		defer file.Close()
		for _, c := range file.Calls {
			body, err := file.Body(c.Request)
			if err != nil {
				t.Fatal(err)
			}
			if !c.Wire && !json.Valid(body) {
				t.Fatalf("call %d's request is not JSON: %s", c.N, body)
			}
			if !bytes.Contains(body, c.Arguments) {
				t.Fatalf("call %d's request %s lacks its arguments %s", c.N, body, c.Arguments)
			}
			if c.Response >= 0 && !c.Wire {
				if b, _ := file.Body(c.Response); !json.Valid(b) {
					t.Fatalf("call %d's response is not JSON: %s", c.N, b)
				}
			}
		}
	})
}
