package main

import (
	"context"
	"debug/buildinfo"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpjig/jig/frames"
)

// initBudget is what a package may allocate while initialising. jig runs in
// front of every server some users have and in loops in scripts: anything a
// package builds at start-up (a compiled regexp, a schema, a style sheet)
// every run pays for, whether or not it is used. Build it on first use
// instead (sync.OnceValue), or where it is needed.
type initBudget struct {
	bytes, allocs int
	why           string
}

var (
	jigInit   = initBudget{4 << 10, 40, ""}
	otherInit = initBudget{32 << 10, 400, ""}
	// Third-party packages known to cost more, and why they are still here.
	knownInits = map[string]initBudget{
		// The MCP SDK's schema package reflects over its Schema type.
		"github.com/google/jsonschema-go/jsonschema": {128 << 10, 600, "schema field table"},
	}
)

var initLine = regexp.MustCompile(`^init (\S+) @\S+ ms, (\S+) ms clock, (\d+) bytes, (\d+) allocs$`)

// TestStartup fails when a package initialiser does real work: it reads
// GODEBUG=inittrace from jig --version and holds each package to a budget
// of memory allocated, which compiling, parsing or building tables cannot
// stay under. Allocation counts do not depend on the machine's load, so this
// does not flake; the time itself is measured by .ci/bench.
func TestStartup(t *testing.T) {
	cmd := exec.Command(binary(t), "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("re-running the test binary: %v\n%s", err, out)
	}
	seen := 0
	for _, line := range strings.Split(string(out), "\n") {
		m := initLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		seen++
		pkg := m[1]
		bytes, _ := strconv.Atoi(m[3])
		allocs, _ := strconv.Atoi(m[4])
		budget, ok := knownInits[pkg]
		switch {
		case ok:
		case strings.HasPrefix(pkg, "github.com/mcpjig/jig"), pkg == "main": // main is cmd/jig
			budget = jigInit
		case strings.Contains(strings.SplitN(pkg, "/", 2)[0], "."):
			budget = otherInit
		default:
			continue // the standard library
		}
		if ok {
			t.Logf("%s: %s ms, %d bytes, %d allocs at init (%s)", pkg, m[2], bytes, allocs, budget.why)
		}
		if bytes > budget.bytes || allocs > budget.allocs {
			t.Errorf("%s allocates %d bytes in %d allocations at start-up (%s ms), over its budget of %d bytes and %d allocations: "+
				"something is built at package init that every run of jig pays for. Build it on first use (sync.OnceValue) or where it is needed; "+
				"a new dependency with a costly init needs a reason in knownInits", pkg, bytes, allocs, m[2], budget.bytes, budget.allocs)
		}
	}
	if seen < 20 {
		t.Fatalf("read only %d init lines from GODEBUG=inittrace=1:\n%s", seen, out)
	}
}

// unlinked are modules jig must not link: jig proxy --otlp posts OTLP/HTTP
// with an encoding of its own (session/otlp), because the official OTLP
// exporters bring the protobuf runtime and, through their collector protos,
// gRPC: 11 MB of binary and ~1 ms of package initialisation that every run
// of every command paid for.
var unlinked = []string{"google.golang.org/grpc", "google.golang.org/protobuf", "github.com/grpc-ecosystem/grpc-gateway/v2",
	"google.golang.org/genproto/googleapis/rpc", "google.golang.org/genproto/googleapis/api"}

// TestStartupLinksNoRPC reads the modules linked into jig from its build
// information and fails on any of unlinked.
func TestStartupLinksNoRPC(t *testing.T) {
	info, err := buildinfo.ReadFile(binary(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(info.Deps) < 10 {
		t.Fatalf("the build information lists %d modules", len(info.Deps))
	}
	for _, d := range info.Deps {
		for _, u := range unlinked {
			if d.Path == u {
				t.Errorf("jig links %s %s: find what imports it (go list -deps ./cmd/jig) and keep it out of the binary", d.Path, d.Version)
			}
		}
	}
}

// TestVersionFastPath: jig --version and -v are answered before the command
// tree is built (by main before anything else, and by run), exactly as
// cobra answers them.
func TestVersionFastPath(t *testing.T) {
	for _, arg := range []string{"--version", "-v"} {
		if !versionOnly([]string{arg}) {
			t.Fatalf("%s is not taken for the version", arg)
		}
		var fast strings.Builder
		if code := run(context.Background(), []string{arg}, strings.NewReader(""), &fast, io.Discard); code != exitOK {
			t.Fatalf("jig %s: exit %d", arg, code)
		}
		var slow strings.Builder
		root := newRoot(&streams{in: strings.NewReader(""), out: io.Discard, err: io.Discard, rawOut: io.Discard, rawErr: io.Discard, redact: frames.NewRedactor()})
		root.SetArgs([]string{arg})
		root.SetOut(&slow)
		if err := root.Execute(); err != nil {
			t.Fatal(err)
		}
		if fast.String() != slow.String() || fast.String() == "" {
			t.Errorf("jig %s answers %q; cobra answers %q", arg, fast.String(), slow.String())
		}
		if out, err := exec.Command(binary(t), arg).Output(); err != nil || string(out) != slow.String() {
			t.Errorf("the jig binary answers %s with %q (%v); cobra answers %q", arg, out, err, slow.String())
		}
	}
	if versionOnly([]string{"--version", "tools"}) || versionOnly([]string{"tools", "--version"}) {
		t.Error("--version with more arguments is cobra's to answer")
	}
}

// packageLevelWork are the calls no package-level variable or init function
// of jig may make: they compile, read files, start processes or reach the
// network when the binary starts, for every command, used or not. A small
// regexp allocates too little for TestStartup's budget to see it (one is
// ~1.5 KB in ~20 allocations), so the source is read for them instead.
var packageLevelWork = map[string]string{
	"regexp": "compiles", "text/template": "parses", "html/template": "parses",
	"os": "does I/O", "io/ioutil": "does I/O", "os/exec": "starts processes", "net": "reaches the network",
	"net/http": "reaches the network", "os/user": "reads the user database",
}

// TestStartupNoWorkAtPackageLevel reads every non-test Go file of jig and
// fails on a call of packageLevelWork in a package-level variable's value or
// an init function, outside function literals (sync.OnceValue's function
// runs on first use: that is the way to keep such a value).
func TestStartupNoWorkAtPackageLevel(t *testing.T) {
	files := 0
	err := filepath.WalkDir(filepath.Join("..", ".."), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != filepath.Join("..", "..") && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		files++
		for _, w := range packageLevelCalls(t, path) {
			t.Error(w)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("read only %d Go files of jig", files)
	}
}

// packageLevelCalls lists the calls of packageLevelWork that run when the
// package in path initialises.
func packageLevelCalls(t *testing.T, path string) []string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	imports := map[string]string{} // local name → import path
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		name := p[strings.LastIndexByte(p, '/')+1:]
		if im.Name != nil {
			name = im.Name.Name
		}
		imports[name] = p
	}
	var found []string
	look := func(n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false // runs when called, not at init
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if x, ok := sel.X.(*ast.Ident); ok {
					if what, bad := packageLevelWork[imports[x.Name]]; bad {
						found = append(found, fmt.Sprintf("%s: %s.%s at package level %s at every start of jig, whatever the command: "+
							"do it on first use (sync.OnceValue) or where it is needed", fset.Position(n.Pos()), x.Name, sel.Sel.Name, what))
					}
				}
			}
			return true
		})
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok == token.VAR {
				for _, s := range d.Specs {
					for _, v := range s.(*ast.ValueSpec).Values {
						look(v)
					}
				}
			}
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name == "init" {
				look(d.Body)
			}
		}
	}
	return found
}
