package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// transcripts are the hand-written agent transcripts the importer tests use.
const transcripts = "../../frames/importer/testdata/"

// jig open FILE --text on an agent transcript lists its calls, each with
// what the transcript did not pin, then the frames, headed by what it is.
func TestOpenAgentTranscriptText(t *testing.T) {
	for _, file := range []string{"anthropic-request.json", "claude-code-session.jsonl", "openai-responses.jsonl", "vscode-mcp-orders.log"} {
		code, out, errOut := jig(t, "", "open", transcripts+file, "--text")
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", file, code, errOut)
		}
		for _, want := range []string{
			"a record, not a reproduction (r reproduces a call)",
			"call 1 · #",
			`search_orders {"customer":"Acme Corp","since":"last month"}`,
			"not pinned by the transcript:\n    arguments: the model's draw",
			"call 6 · #",
			"frames:\n#1 ",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: open --text lacks %q:\n%s", file, want, out)
			}
		}
	}
	_, _, errOut := jig(t, "", "open", transcripts+"claude-code-session.jsonl", "--text")
	if !strings.Contains(errOut, "claude-code-session.jsonl: 1 call of Bash ×1 not listed: they are the client's own tools, not MCP tools") {
		t.Errorf("stderr = %q, want the warning with the file named", errOut)
	}
}

func TestOpenBadTranscripts(t *testing.T) {
	dir := t.TempDir()
	for name, tt := range map[string]struct{ content, want string }{
		"chat.json":  {`{"messages":[{"role":"user","content":"hi"}]}`, "chat.json: an openai-chat transcript of 1 message with no tool calls: there is nothing to reproduce"},
		"notes.txt":  {"the search is broken\n", "notes.txt: not a format jig can import"},
		"empty.json": {"", "empty.json: the file is empty"},
	} {
		path := filepath.Join(dir, name)
		writeFile(t, path, tt.content)
		code, _, errOut := jig(t, "", "open", path, "--text")
		if code != exitUsage || !strings.Contains(errOut, tt.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and %q", name, code, errOut, exitUsage, tt.want)
		}
	}
	// A file that is not there is said once, with where to find one.
	missing := filepath.Join(dir, "nofile.jsonl")
	code, _, errOut := jig(t, "", "open", missing, "--text")
	if want := "open " + missing + ": no such file (jig sessions lists the recordings"; code != exitUsage || !strings.Contains(errOut, want) || strings.Count(errOut, missing) != 1 {
		t.Errorf("missing file: exit %d, stderr %q; want exit %d and %q, the path once", code, errOut, exitUsage, want)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}
