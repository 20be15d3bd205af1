package proxy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session"
)

// DefaultGrace is how long the server gets between SIGTERM and SIGKILL when
// the proxy's context ends, and how long its pipes may stay open after it
// exited (a grandchild holding them) before the proxy stops reading.
const DefaultGrace = 2 * time.Second

// Stdio is a transparent stdio shim: a client launches it in place of the
// server, and it runs the server, copying the client's stdin to the server's
// and the server's stdout and stderr back, byte for byte, as they arrive.
// Each line is recorded as a frame: client→server lines as c2s, server
// stdout lines as s2c, stderr lines as KindStderr.
type Stdio struct {
	Command []string
	Env     []string // the server's environment; os.Environ() when nil
	Dir     string
	Stdin   io.Reader
	Stdout  io.Writer
	Stderr  io.Writer
	Log     *frames.Log
	// Signals are passed on to the server (its process group).
	Signals <-chan os.Signal
	// Grace is DefaultGrace when 0.
	Grace time.Duration
	// MaxFrame is the frame limit (frames.DefaultMaxFrame when 0): a longer
	// line is still forwarded, and recorded truncated.
	MaxFrame int
	// QueueBytes bounds the frames waiting to be recorded (DefaultQueueBytes
	// when 0). When the recording falls that far behind, the proxy stops
	// reading until it catches up: both sides wait, nothing is dropped.
	QueueBytes int

	rec *recorder // the last Run's, for tests
}

// Run starts the server and proxies until it exits. It returns the exit code
// the proxy should exit with: the server's own, or 128+N when a signal N
// killed it. Cancelling ctx sends SIGTERM, then SIGKILL after Grace.
func (p *Stdio) Run(ctx context.Context) (int, error) {
	if len(p.Command) == 0 {
		return 0, errors.New("no server command: give it after --, e.g. jig proxy -- node server.js")
	}
	grace := p.Grace
	if grace == 0 {
		grace = DefaultGrace
	}
	path, err := session.LookCommand(p.Command[0])
	if err != nil {
		return 0, err
	}
	cmd := exec.Command(path, p.Command[1:]...)
	cmd.Dir, cmd.Env = p.Dir, p.Env
	inR, inW, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	// Its own process group: a terminal's Ctrl-C reaches the server once,
	// through us, and a server started by a wrapper (npx, uv) is signalled whole.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		for _, f := range []*os.File{inR, inW, outR, outW, errR, errW} {
			f.Close()
		}
		return 0, session.StartError(p.Command[0], err)
	}
	inR.Close()
	outW.Close()
	errW.Close()

	rec := newRecorder(p.Log, p.QueueBytes)
	p.rec = rec
	defer rec.close()
	pid := cmd.Process.Pid

	var (
		mu sync.Mutex
		by proxyEnding
	)
	set := func(f func(*proxyEnding)) { mu.Lock(); f(&by); mu.Unlock() }
	go func() {
		pump(inW, p.Stdin, rec, frames.ClientToServer, "", p.MaxFrame)
		set(func(b *proxyEnding) { b.stdin = true })
		inW.Close() // the client closed our stdin: the server sees EOF
	}()
	outDone, errDone := make(chan struct{}), make(chan struct{})
	go func() { defer close(outDone); pump(p.Stdout, outR, rec, frames.ServerToClient, "", p.MaxFrame) }()
	go func() {
		defer close(errDone)
		pump(p.Stderr, errR, rec, frames.ServerToClient, frames.KindStderr, p.MaxFrame)
	}()

	exited := make(chan struct{})
	go func() {
		for {
			select {
			case sig := <-p.Signals:
				if s, ok := sig.(syscall.Signal); ok {
					set(func(b *proxyEnding) { b.passed = append(b.passed, frames.SignalName(s)) })
					rec.add(frames.Frame{Dir: frames.ClientToServer, Kind: frames.KindTransport,
						Note: fmt.Sprintf("jig proxy received %s and passed it on to the server", frames.SignalName(s))})
					_ = syscall.Kill(-pid, s)
				}
			case <-ctx.Done():
				set(func(b *proxyEnding) { b.term = true })
				_ = syscall.Kill(-pid, syscall.SIGTERM)
				select {
				case <-exited:
				case <-time.After(grace):
					set(func(b *proxyEnding) { b.kill = true })
					rec.add(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport,
						Note: fmt.Sprintf("the server was still running %s after SIGTERM; jig proxy sent SIGKILL", grace)})
					_ = syscall.Kill(-pid, syscall.SIGKILL)
				}
				return
			case <-exited:
				return
			}
		}
	}()

	werr := cmd.Wait()
	// Who ended it is what had been done when it exited: a client that
	// closes its stdin while the last output drains did not end it.
	mu.Lock()
	ended := by
	mu.Unlock()
	close(exited)
	// Let the server's last output through, unless something it started
	// keeps the pipes open: one deadline for both pipes, after which jig
	// closes its ends, which ends the pumps.
	deadline := time.NewTimer(grace)
	defer deadline.Stop()
	held := false
	for _, done := range []chan struct{}{outDone, errDone} {
		if held {
			break
		}
		select {
		case <-done:
		case <-deadline.C:
			held = true
		}
	}
	outR.Close()
	errR.Close()
	if held {
		rec.add(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport,
			Note: "the server exited but something it started still holds its stdout or stderr; the proxy stopped reading them"})
	}
	<-outDone
	<-errDone

	code, note := exitStatus(cmd.ProcessState, werr, ended, grace)
	rec.add(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport, Note: note})
	return code, nil
}

// proxyEnding is what had been done to end the server when it exited: the
// client closed its stdin, the proxy passed on signals it received, or (its
// context ended) sent SIGTERM and then SIGKILL itself.
type proxyEnding struct {
	stdin      bool
	passed     []string
	term, kill bool
}

// exitStatus is the code the proxy exits with and the Note of the frame that
// says the server exited: how, and who ended it, worded as jig's own
// sessions word it (it begins with frames.ServerExitedNote).
func exitStatus(ps *os.ProcessState, werr error, by proxyEnding, grace time.Duration) (int, string) {
	if ps == nil {
		return 1, frames.ServerExitedNote + ": " + werr.Error()
	}
	code, how, signalled := ps.ExitCode(), fmt.Sprintf("exit status %d", ps.ExitCode()), false
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		code, how, signalled = 128+int(ws.Signal()), "signal: "+ws.Signal().String(), true
	}
	var who string
	switch {
	case by.kill && how == "signal: killed":
		who = fmt.Sprintf("jig proxy sent SIGKILL: it was still running %s after SIGTERM", grace)
	case by.kill:
		who = fmt.Sprintf("jig proxy sent SIGTERM, then SIGKILL %s later", grace)
	case by.term:
		who = "jig proxy sent SIGTERM"
	case len(by.passed) > 0:
		who = "jig proxy passed on the " + strings.Join(by.passed, ", ") + " it received"
	case by.stdin:
		who = "the client closed its stdin"
	case signalled:
		who = "nobody through jig signalled it: another process ended it, or it ended itself"
	default:
		who = "on its own: the client had not closed its stdin"
	}
	return code, frames.ServerExitedNote + ": " + how + " (" + who + ")"
}

// pump copies src to dst chunk by chunk as the bytes arrive, queuing each
// complete line for the recorder just before the chunk that completes it is
// written on. When dst fails (the client or server went away) pump keeps
// reading and recording, so the other side is never blocked on a full pipe.
//
// A line longer than max is recorded truncated (frames.Truncated) once it
// passes the limit, and the rest of it is forwarded but not kept, so an
// endless line costs the proxy no memory.
func pump(dst io.Writer, src io.Reader, rec *recorder, dir frames.Direction, kind frames.Kind, max int) {
	if max <= 0 {
		max = frames.DefaultMaxFrame
	}
	buf := make([]byte, 64<<10)
	var pending []byte
	// A line past the limit: its beginning, and its size so far; it is
	// recorded, truncated, with its true size when it ends.
	var head []byte
	var size int64
	skipping := false
	cut := func() {
		f := frames.Truncated(frames.Frame{Dir: dir, Raw: head}, size,
			fmt.Sprintf("a line longer than the frame limit (%s; --max-frame); passed on whole", frames.HumanSize(max)))
		if kind != "" {
			f.Kind = kind
		}
		rec.add(f)
		head, size, skipping = nil, 0, false
	}
	for {
		n, err := src.Read(buf)
		if n > 0 {
			chunk := buf[:n]
			for {
				i := bytes.IndexByte(chunk, '\n')
				if i < 0 {
					if skipping {
						size += int64(len(chunk))
					} else if pending = append(pending, chunk...); len(pending) > max {
						head, size, skipping = bytes.Clone(pending[:min(len(pending), frames.TruncatedKeep)]), int64(len(pending)), true
						pending = nil
					}
					break
				}
				if skipping {
					size += int64(i)
					cut()
					chunk = chunk[i+1:]
					continue
				}
				var line []byte
				if len(pending) > 0 {
					line = append(pending, chunk[:i]...)
					pending = nil
				} else {
					line = bytes.Clone(chunk[:i])
				}
				if len(line) > max {
					head, size = line, int64(len(line))
					cut()
				} else {
					rec.add(frames.Frame{Dir: dir, Kind: kind, Raw: bytes.TrimSuffix(line, []byte("\r"))})
				}
				chunk = chunk[i+1:]
			}
			if dst != nil {
				if _, werr := dst.Write(buf[:n]); werr != nil {
					dst = nil
					rec.add(frames.Frame{Dir: dir, Kind: frames.KindTransport, Note: fmt.Sprintf("proxy: cannot forward %s: %v; still recording", dir, werr)})
				}
			}
		}
		if err != nil {
			if skipping {
				cut()
			}
			if len(pending) > 0 {
				f := frames.Frame{Dir: dir, Kind: kind, Raw: pending}
				if kind == "" {
					f.Classify()
					f.Kind, f.Err = frames.KindInvalid, "partial line: the stream ended without a newline"
				}
				rec.add(f)
			}
			return
		}
	}
}
