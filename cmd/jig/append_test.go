package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpjig/jig/session/peers"
)

// memoryScenario pins create_entities on server-memory (its file in the
// session's scratch directory) and appends open_nodes of what it created:
// the appended step is only evidence when its probe replays the setup.
func memoryScenario(t *testing.T, extra ...string) (file, stderr string) {
	t.Helper()
	mem := peers.Node(t, peers.MemoryNew, "stdio")
	file = filepath.Join(t.TempDir(), "memory.json")
	args := append([]string{"call", "create_entities", "--args", `{"entities":[{"name":"Alice","entityType":"person","observations":["likes tea"]}]}`,
		"--env", "MEMORY_FILE_PATH=$JIG_SCRATCH/memory.json", "--pin", file, "--step", "create", "--no-record", "--"}, mem...)
	if code, _, errOut := jig(t, "", args...); code != 0 {
		t.Fatalf("pinning create: exit %d\n%s", code, errOut)
	}
	args = append([]string{"call", "open_nodes", "--args", `{"names":["Alice"]}`, "--pin", file, "--append", "--step", "read", "--no-record"}, extra...)
	code, _, errOut := jig(t, "", args...)
	if code != 0 {
		t.Fatalf("appending read: exit %d\n%s", code, errOut)
	}
	return file, errOut
}

func TestAppendProbeReplaysTheSetup(t *testing.T) {
	file, errOut := memoryScenario(t)
	if strings.Contains(errOut, "→ any") || strings.Contains(errOut, "WARNING") {
		t.Errorf("the appended step's probe relaxed its result (it was probed without the create step):\n%s", errOut)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "likes tea"); n < 4 {
		t.Fatalf("the fixture should pin \"likes tea\" in both steps' text and structuredContent, found %d:\n%s", n, data)
	}
	// The read step's pinned answer, hand-edited, must go red on replay.
	i := strings.LastIndex(string(data), "likes tea")
	edited := string(data[:i]) + "likes coffee" + string(data[i+len("likes tea"):])
	if err := os.WriteFile(file, []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, rerr := jig(t, "", "replay", file)
	if code == 0 {
		t.Errorf("replay of a scenario whose read step was edited to \"likes coffee\" passed:\n%s%s", out, rerr)
	}
}

func TestAppendWritesFrames(t *testing.T) {
	t.Run("stderr", func(t *testing.T) {
		_, errOut := memoryScenario(t, "--frames")
		for _, want := range []string{"→ request      initialize id=", `"name":"create_entities"`, `"name":"open_nodes"`} {
			if !strings.Contains(errOut, want) {
				t.Errorf("--append --frames: stderr lacks %q:\n%s", want, errOut)
			}
		}
	})
	t.Run("file", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "frames.txt")
		memoryScenario(t, "--frames="+path)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("--append --frames=%s wrote no file: %v", path, err)
		}
		for _, want := range []string{"→ request      initialize id=", `"name":"create_entities"`, `"name":"open_nodes"`} {
			if !strings.Contains(string(data), want) {
				t.Errorf("--frames file lacks %q:\n%s", want, data)
			}
		}
	})
}
