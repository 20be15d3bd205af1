package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpjig/jig/frames"
)

// readyEnv names the file the flood-hang server creates once it has sent
// its flood: the test signals jig after that, never after a sleep.
const readyEnv = "JIG_TEST_READY"

// floodLine is the i-th notification the flood-hang server sends.
func floodLine(i int) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"flood %d %s"}}`, i, strings.Repeat("x", i%300))
}

func init() {
	// flood-hang:N answers a tools/call with N notifications, creates the
	// file readyEnv names, and never answers.
	hostileServers["flood-hang"] = func(arg string) {
		n, _ := strconv.Atoi(arg)
		(&rawServer{call: func(s *rawServer, _, _ json.RawMessage) {
			for i := 0; i < n; i++ {
				s.out.WriteString(floodLine(i) + "\n")
			}
			s.out.Flush()
			os.WriteFile(os.Getenv(readyEnv), []byte("sent"), 0o600)
			time.Sleep(time.Hour)
		}}).serve()
	}
}

// readRecording reads the recording at path, failing the test when it does
// not read back.
func readRecording(t *testing.T, path string) *frames.Transcript {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := frames.ReadTranscript(f)
	if err != nil {
		t.Fatalf("the recording %s does not read back: %v", path, err)
	}
	return tr
}

// slowDisk makes path a named pipe that is read only after start is closed,
// and returns what was read.
func slowDisk(t *testing.T, path string, start <-chan struct{}) <-chan []byte {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	out := make(chan []byte, 1)
	go func() {
		f, err := os.Open(path) // waits for jig to open it
		if err != nil {
			out <- nil
			return
		}
		defer f.Close()
		<-start
		// Long enough for jig to reach its end with the frames still
		// queued (without it the test proves less, never fails wrongly:
		// jig waits for this reader however long it takes).
		time.Sleep(500 * time.Millisecond)
		b, _ := io.ReadAll(f)
		out <- b
	}()
	return out
}

// printedFrame is a frame header line of --frames: "#12  +0.004s ← ...".
var printedFrame = regexp.MustCompile(`(?m)^#(\d+) `)

// The recording is written by a writer of its own, off the session's path;
// whatever way jig ends — done, the server crashing, --cancel-after, a
// signal — it holds every frame the session saw (those --frames prints, from
// the Log), in order, and the server's lines byte for byte. Killed outright,
// jig leaves a file that reads back: whole records, numbered from 1.
func TestRecordingHoldsEveryFrameHoweverJigEnds(t *testing.T) {
	needProc(t)
	const flood = 800 // fits in the queue: the stopped disk holds none of it back
	cases := []struct {
		name   string
		args   func(ready string) []string
		signal syscall.Signal // sent once ready exists
		exit   int
	}{
		{"done", func(string) []string { return []string{"tools", "--demo"} }, 0, 0},
		{"server crash", func(string) []string {
			return append([]string{"call", "search_orders", "--args", `{"customer":"Acme"}`}, hostile(t, "crash-after:0")...)
		}, 0, -2},
		{"cancel-after", func(ready string) []string {
			return append([]string{"call", "t", "--args", "{}", "--cancel-after", "1s", "--env", readyEnv + "=" + ready}, hostile(t, fmt.Sprintf("flood-hang:%d", flood))...)
		}, 0, -2},
		{"SIGTERM", func(ready string) []string {
			return append([]string{"call", "t", "--args", "{}", "--env", readyEnv + "=" + ready}, hostile(t, fmt.Sprintf("flood-hang:%d", flood))...)
		}, syscall.SIGTERM, 128 + int(syscall.SIGTERM)},
		{"SIGINT", func(ready string) []string {
			return append([]string{"call", "t", "--args", "{}", "--env", readyEnv + "=" + ready}, hostile(t, fmt.Sprintf("flood-hang:%d", flood))...)
		}, syscall.SIGINT, 128 + int(syscall.SIGINT)},
		{"SIGKILL", func(ready string) []string {
			return append([]string{"call", "t", "--args", "{}", "--env", readyEnv + "=" + ready}, hostile(t, fmt.Sprintf("flood-hang:%d", flood))...)
		}, syscall.SIGKILL, -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			rec, ready := filepath.Join(dir, "rec.jsonl"), filepath.Join(dir, "ready")
			args := c.args(ready)
			// jig's own flags go before the target's "--".
			at := len(args)
			for i, a := range args {
				if a == "--" {
					at = i
					break
				}
			}
			args = append(args[:at:at], append([]string{"--frames", "--record", rec}, args[at:]...)...)
			// Signalled, jig records to a pipe nobody reads until the
			// signal was sent: a disk that stopped, so the frames are still
			// queued when jig is told to end, and must all come out.
			var piped <-chan []byte
			signalled := make(chan struct{})
			if c.signal != 0 && c.signal != syscall.SIGKILL {
				piped = slowDisk(t, rec, signalled)
			}
			cmd, stderr, stdin := startJig(t, args...)
			defer stdin.Close()
			if c.signal != 0 {
				waitForFile(t, ready)
				cmd.Process.Signal(c.signal)
				close(signalled)
			}
			code := exitOf(t, cmd, stderr)
			if piped != nil {
				os.Remove(rec)
				os.WriteFile(rec, <-piped, 0o600)
			}
			switch {
			case c.exit >= 0 && code != c.exit:
				t.Errorf("exit %d, want %d; stderr:\n%.2000s", code, c.exit, stderr)
			case c.exit == -2 && code == 0:
				t.Errorf("exit 0, want a failure; stderr:\n%.2000s", stderr)
			}
			tr := readRecording(t, rec)
			if tr.Cut != nil || len(tr.Warnings) > 0 {
				t.Errorf("the recording is not whole records: %v", tr.Warnings)
			}
			for i, fr := range tr.Frames {
				if fr.Seq != int64(i+1) {
					t.Fatalf("recorded frame %d is #%d: a frame is missing or out of order", i+1, fr.Seq)
				}
			}
			// The server's notifications, in the order it sent them.
			next := 0
			for _, fr := range tr.Frames {
				if fr.Dir == frames.ServerToClient && strings.Contains(string(fr.Raw), `"data":"flood `) {
					if string(fr.Raw) != floodLine(next) {
						t.Fatalf("frame #%d is %.80s, want notification %d", fr.Seq, fr.Raw, next)
					}
					next++
				}
			}
			if c.signal == syscall.SIGKILL {
				if len(tr.Frames) == 0 || tr.Header.Type != "header" || tr.Header.Mode != "session" {
					t.Errorf("killed: %d frames, header %+v", len(tr.Frames), tr.Header)
				}
				return // nothing printed --frames
			}
			if c.signal != 0 && next != flood {
				// ready exists once the server wrote them all, but jig may
				// not have read them all when the signal came: fewer is
				// fine, as long as --frames and the file agree (below).
				t.Logf("%d of %d notifications were read before the signal", next, flood)
			}
			t.Logf("recorded %d frames, %d notifications", len(tr.Frames), next)
			printed := printedFrame.FindAllStringSubmatch(stderr.String(), -1)
			if len(printed) == 0 {
				t.Fatalf("--frames printed no frame:\n%.2000s", stderr)
			}
			if last, _ := strconv.Atoi(printed[len(printed)-1][1]); len(printed) != last || len(tr.Frames) != last {
				t.Errorf("--frames printed %d frames (last #%d), the recording holds %d", len(printed), last, len(tr.Frames))
			}
		})
	}
}
