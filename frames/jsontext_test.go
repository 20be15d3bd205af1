package frames

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var jsonSeeds = []string{
	`{"a":[1,2,{"b":"c\"}]{["}],"d":{},"e":[],"f":[ ],"g":{ }}`,
	`[{"x":1.0e3,"y":-0,"z":true,"w":null}]`,
	`{"s":"\\\\","t":"\u00e9\n","u":"\ud83d\ude00"}`,
	" { \"spaced\" : [ 1 , 2 ] } \n",
	`"just a string"`, `[]`, `{}`, `[[[]]]`, `42`, `-1.5E+10`, `true`,
	// Texts that only look like JSON: a glance at the brackets is not enough.
	`[INFO] server started on port 8080`,
	`{not json}`, `[1,]`, `{"a":1,}`, `[1 2]`, `{"a" 1}`, `01`, `1.`, `-`, `"\x"`, "\"tab\there\"",
	`[1]]`, `{"a":1}}`, `tru`, `nul`, `[`, `"unterminated`, "\v{}", `{"a":"\u12"}`,
}

// trimJSONSpace drops leading and trailing JSON whitespace (json.Indent
// keeps the trailing; Indent returns the value alone).
func trimJSONSpace(b []byte) []byte { return bytes.Trim(b, " \t\r\n") }

// FuzzIndent holds Indent to json.Valid (it accepts exactly what json.Valid
// accepts) and to json.Indent's output on everything it accepts.
func FuzzIndent(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, ok := Indent(raw)
		if valid := json.Valid(raw); ok != valid {
			t.Fatalf("Indent(%q) ok = %v, json.Valid = %v", raw, ok, valid)
		}
		if !ok {
			if !bytes.Equal(got, raw) {
				t.Fatalf("Indent(%q) changed text that is not JSON: %q", raw, got)
			}
			return
		}
		var want bytes.Buffer
		json.Indent(&want, trimJSONSpace(raw), "", "  ")
		if !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("Indent(%q) = %q\njson.Indent gives %q", raw, got, want.Bytes())
		}
	})
}

// FuzzCompact holds Compact to json.Valid and json.Compact.
func FuzzCompact(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, ok := Compact(raw)
		if valid := json.Valid(raw); ok != valid {
			t.Fatalf("Compact(%q) ok = %v, json.Valid = %v", raw, ok, valid)
		}
		if !ok {
			if !bytes.Equal(got, raw) {
				t.Fatalf("Compact(%q) changed text that is not JSON: %q", raw, got)
			}
			return
		}
		var want bytes.Buffer
		json.Compact(&want, raw)
		if !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("Compact(%q) = %q\njson.Compact gives %q", raw, got, want.Bytes())
		}
	})
}

func TestIndentLeavesLogLinesAlone(t *testing.T) {
	for _, s := range []string{"[INFO] server started on port 8080", "[1/3] done", "{placeholder}", "[]x"} {
		if got, ok := Indent([]byte(s)); ok || string(got) != s {
			t.Errorf("Indent(%q) = %q, %v; want it unchanged and not JSON", s, got, ok)
		}
	}
}

// The nesting limit is encoding/json's, empty innermost containers
// included. Indent shares the check; it is not run on the deepest valid
// text, which it would indent into 100 MB.
func TestNestingLimitIsEncodingJSONs(t *testing.T) {
	for _, depth := range []int{maxDepth, maxDepth + 1} {
		for _, inner := range []string{"", "1"} {
			raw := []byte(strings.Repeat("[", depth) + inner + strings.Repeat("]", depth))
			_, cok := Compact(raw)
			iok := cok
			if depth > maxDepth {
				_, iok = Indent(raw)
			}
			if valid := json.Valid(raw); cok != valid || iok != valid {
				t.Errorf("depth %d around %q: Compact ok %v, Indent ok %v, json.Valid %v", depth, inner, cok, iok, valid)
			}
		}
	}
}

// TestOneIndenterAndOneCompactor keeps Indent and Compact the module's
// only ones: another copy is how "[INFO] started" came to be drawn as
// mangled JSON (a glance at brackets is not validation).
func TestOneIndenterAndOneCompactor(t *testing.T) {
	root := filepath.Join("..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != root || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || filepath.Base(path) == "jsontext.go" {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, call := range []string{"json.Indent(", "json.Compact("} {
			if bytes.Contains(src, []byte(call)) {
				t.Errorf("%s calls %s: use frames.Indent or frames.Compact, the module's one indenter and compactor", path, strings.TrimSuffix(call, "("))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
