package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// maxFuncLines is how long a function in cmd/jig may be: about a screen.
const maxFuncLines = 60

// TestFunctionsAreAScreenLong keeps cmd/jig in the shape doc.go describes:
// flags in an options struct, the work in runXxx, each function about a
// screen long (newCallCmd was 121 lines and runReplay 136 before).
func TestFunctionsAreAScreenLong(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			if n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; n > maxFuncLines {
				t.Errorf("%s: %s is %d lines (at most %d): split it by what it decides, and keep help text in constants (see doc.go)", name, fd.Name.Name, n, maxFuncLines)
			}
		}
	}
}
