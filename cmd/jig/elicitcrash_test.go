package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpjig/jig/session/peers"
)

// --elicit accept-defaults on a form none of whose fields has a default
// accepts with "content":{} (the spec: content is present on a form's
// accept), not with no content at all; go-sdk's everything server still
// crashes on it (it reads its optional field as a string), and the error
// quotes the panic line, which its 20-line goroutine dump pushed out of the
// stderr tail jig quoted.
func TestAcceptDefaultsSendsEmptyContentAndACrashShowsItsPanic(t *testing.T) {
	server := peers.Path(t, peers.GoSDKEverything)
	rec := filepath.Join(t.TempDir(), "e.jsonl")
	code, _, errOut := jig(t, "", "call", "elicit (form)", "--protocol-version", "2025-11-25", "--elicit", "accept-defaults", "--record", rec, "--", server)
	b, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `{\"action\":\"accept\",\"content\":{}}`) {
		t.Errorf("the accept jig sent has no empty content:\n%s", b)
	}
	if code != exitUnreachable || !strings.Contains(errOut, "| panic: interface conversion") {
		t.Errorf("exit %d, and the error does not quote the panic line:\n%s", code, errOut)
	}
}
