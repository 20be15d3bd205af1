package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/session/peers"
)

// A call whose server asks for input (a 2026-07-28 input_required result)
// is answered by --elicit, pinned with those answers, and replays the same
// way: deterministically, with no human.
func TestElicitPinReplay(t *testing.T) {
	server := peers.Path(t, peers.GoSDKConformance)
	dir := t.TempDir()
	answers := filepath.Join(dir, "answers.json")
	os.WriteFile(answers, []byte(`[{"when": {"message": "*name*"}, "content": {"name": "Ada"}}]`), 0o644)
	pinned := filepath.Join(dir, "hello.json")
	code, out, errOut := jig(t, "", "call", "test_input_required_result_elicitation", "--no-record",
		"--elicit", "@"+answers, "--pin", pinned, "--", server)
	if code != 0 || !strings.Contains(out, "Hello, Ada!") {
		t.Fatalf("call: exit %d\n%s\n%s", code, out, errOut)
	}
	f, err := fixture.Load(pinned)
	if err != nil || f.Answers == nil || !strings.Contains(string(f.Answers.Elicit), `"Ada"`) {
		t.Fatalf("the fixture does not keep the answers: %+v, %v", f, err)
	}
	if code, out, errOut = jig(t, "", "replay", pinned); code != 0 {
		t.Errorf("replay with the pinned answers: exit %d\n%s\n%s", code, out, errOut)
	}
	// Without them the CLI declines, and the same call comes out different.
	f.Answers = nil
	if err := f.Save(pinned); err != nil {
		t.Fatal(err)
	}
	if code, _, _ = jig(t, "", "replay", pinned); code == 0 {
		t.Errorf("replay without the answers passed: the answers made no difference")
	}
}

func TestElicitSampleFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--elicit", "yes"}, "use accept-defaults, decline, cancel or @answers.json"},
		{[]string{"--elicit", "decline", "--capabilities", "roots"}, "--elicit needs the elicitation capability"},
		{[]string{"--sample", "Paris"}, "give @replies.json"},
		{[]string{"--sample", "@/nonexistent/replies.json"}, "/nonexistent/replies.json"},
	} {
		code, _, errOut := jig(t, "", append([]string{"tools", "--demo", "--no-record"}, tc.args...)...)
		if code != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}
