package session

import (
	"bufio"
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
)

// DefaultGrace is how long a server gets to exit after its stdin closes
// before jig sends SIGTERM, and again before SIGKILL. server-everything
// lingers for seconds after stdin closes; nobody should wait for that.
const DefaultGrace = 200 * time.Millisecond

// stderrKeep is how many of the server's last stderr lines are kept for
// error messages.
const stderrKeep = 20

// process is a stdio server jig started. Its pipes are os.Pipes owned here
// (not cmd.StdoutPipe, which Wait closes early and loses the tail).
type process struct {
	cmd   *exec.Cmd
	tap   *lineTap
	grace time.Duration
	log   *frames.Log
	max   int // the frame limit

	mu         sync.Mutex
	stderr     []string
	stderrSeen int    // stderr lines read
	cause      string // the last line that began a crash report (isCrashCause)
	causeAt    int    // its number among stderrSeen
	exited     chan struct{}
	exitErr    error
	stderrDone chan struct{}
	stopOnce   sync.Once // Close and EndAll may both stop it
	// ending is what jig had done to end the server when it exited (under
	// mu): its exit frame says who ended it.
	ending ending
}

// ending is how far jig had got in ending a server: stdin closed, SIGTERM
// after the grace, SIGKILL after another; and why it ended it, when not
// because its session closed ("jig was interrupted (SIGTERM)").
type ending struct {
	stdin, term, kill bool
	why               string
}

// startProcess starts the target's command with its stdio tapped. The
// target is already expanded (Target.Expanded).
func startProcess(t Target, log *frames.Log, grace time.Duration, maxFrame int) (*process, error) {
	if len(t.Command) == 0 {
		return nil, errors.New("no command to run (give it after --, e.g. jig tools -- node server.js)")
	}
	if err := workingDir(t); err != nil {
		return nil, err
	}
	path, err := LookCommand(t.Command[0])
	if err != nil {
		return nil, &ConnectError{Target: t, Err: err}
	}
	cmd := exec.Command(path, t.Command[1:]...)
	cmd.Dir = t.Dir
	cmd.Env = os.Environ()
	for k, v := range t.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	running.mu.Lock()
	defer running.mu.Unlock()
	if running.ending {
		err = errors.New("jig is exiting")
	} else {
		err = cmd.Start()
	}
	if err != nil {
		for _, f := range []*os.File{inR, inW, outR, outW, errR, errW} {
			f.Close()
		}
		return nil, &ConnectError{Target: t, Err: StartError(t.Command[0], err)}
	}
	// The child has its copies; close ours so EOF arrives when it exits.
	inR.Close()
	outW.Close()
	errW.Close()

	if maxFrame <= 0 {
		maxFrame = frames.DefaultMaxFrame
	}
	p := &process{cmd: cmd, grace: grace, log: log, max: maxFrame, exited: make(chan struct{}), stderrDone: make(chan struct{})}
	running.procs[p] = true
	go p.readStderr(errR)
	p.tap = newLineTapLimit(log, inW, outR, maxFrame)
	go func() {
		err := cmd.Wait()
		p.drain(outR, errR)
		p.mu.Lock()
		p.exitErr = err
		by := p.ending
		p.mu.Unlock()
		log.Append(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport, Note: exitNote(err, by, p.grace)})
		close(p.exited)
		running.mu.Lock()
		delete(running.procs, p)
		running.mu.Unlock()
	}()
	return p, nil
}

// exitNote is the Note of the frame that says the server exited: how
// (its exit status, or the signal that ended it) and who ended it, jig or
// not. It begins with frames.ServerExitedNote, which the pairing and the
// session match: "server exited: signal: terminated (jig sent SIGTERM after
// the 200ms grace)".
func exitNote(err error, by ending, grace time.Duration) string {
	how := "exit status 0"
	if err != nil {
		how = err.Error()
	}
	var who string
	switch {
	case by.kill && strings.HasPrefix(how, "signal: killed"):
		who = fmt.Sprintf("jig sent SIGKILL: it was still running %s after SIGTERM", grace)
	case by.kill:
		who = fmt.Sprintf("jig sent SIGTERM after the %s grace, then SIGKILL %s later", grace, grace)
	case by.term:
		who = fmt.Sprintf("jig sent SIGTERM after the %s grace", grace)
	case by.stdin:
		who = "jig closed its stdin"
	case strings.HasPrefix(how, "signal: "):
		who = "jig sent no signal: the server was ended by another process, or ended itself"
	default:
		who = "on its own: jig had not closed its stdin"
	}
	if by.why != "" && by.stdin {
		who = by.why + " and ended the server: " + who
	}
	return frames.ServerExitedNote + ": " + how + " (" + who + ")"
}

// workingDir checks the server's working directory before starting it:
// exec reports a missing one as the command's own "no such file or
// directory" (fork/exec /usr/bin/node), which points at the wrong file.
func workingDir(t Target) error {
	if t.Dir == "" {
		return nil
	}
	where := "--cwd"
	if t.Config != "" {
		where = fmt.Sprintf("the cwd of %q in %s", t.Server, t.Config)
	}
	fi, err := os.Stat(t.Dir)
	switch {
	case err != nil && errors.Is(err, os.ErrNotExist):
		return &ConnectError{Target: t, Err: fmt.Errorf("the working directory %s does not exist", t.Dir),
			Hint: &Hint{Cause: where + " names a directory that does not exist", Next: "create it, or give " + where + " a directory that exists"}}
	case err != nil:
		return &ConnectError{Target: t, Err: fmt.Errorf("the working directory %s: %w", t.Dir, err),
			Hint: &Hint{Cause: where + " names a directory jig cannot use", Next: "check its permissions, or give " + where + " another directory"}}
	case !fi.IsDir():
		return &ConnectError{Target: t, Err: fmt.Errorf("the working directory %s is not a directory", t.Dir),
			Hint: &Hint{Cause: where + " names a file", Next: "give " + where + " a directory"}}
	}
	return nil
}

// drain lets the server's last output through after it exited, for at most
// its grace: a process it started (a daemon in its own session, which the
// process-group signals never reach) may hold its stdout and stderr open for
// ever. Then jig closes its ends of the pipes, which ends the readers.
func (p *process) drain(outR, errR *os.File) {
	timer := time.NewTimer(max(p.grace, 50*time.Millisecond))
	defer timer.Stop()
	held := false
	for _, done := range []<-chan struct{}{p.tap.done, p.stderrDone} {
		select {
		case <-done:
			continue
		case <-timer.C:
		}
		held = true
		break
	}
	if !held {
		return
	}
	p.log.Append(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport,
		Note: "the server exited but something it started still holds its stdout or stderr; jig stopped reading them"})
	outR.Close()
	errR.Close()
	<-p.tap.done
	<-p.stderrDone
}

// outputEnded reports whether the server's stdout has ended.
func (p *process) outputEnded() bool {
	select {
	case <-p.tap.done:
		return true
	default:
		return false
	}
}

// Interrupted tells the sessions that jig itself was interrupted (why is
// "jig was interrupted (SIGTERM)"): every server ended from now on, by its
// session closing or by EndAll, records that this is why, so that a
// recording does not read as a server that crashed or was closed as usual.
func Interrupted(why string) {
	running.mu.Lock()
	defer running.mu.Unlock()
	if running.interrupted == "" {
		running.interrupted = why
	}
}

func interruption() string {
	running.mu.Lock()
	defer running.mu.Unlock()
	return running.interrupted
}

// running is every stdio server this process started and has not seen
// exit. It is process-wide on purpose, like signal handling: whoever opened
// a session, nothing jig started may outlive jig.
var running = struct {
	mu          sync.Mutex
	procs       map[*process]bool
	ending      bool
	interrupted string // see Interrupted
}{procs: map[*process]bool{}}

// EndAll stops every stdio server this process started that is still
// running, as Session.Close would (stdin closed, the grace, SIGTERM, SIGKILL,
// then what it left in its group), and starts none after it. jig's main
// calls it last: a session still opening in another goroutine when the
// program ended (a TUI that quit mid-handshake) has nobody else to close it.
func EndAll() {
	running.mu.Lock()
	running.ending = true
	procs := make([]*process, 0, len(running.procs))
	for p := range running.procs {
		procs = append(procs, p)
	}
	running.mu.Unlock()
	var wg sync.WaitGroup
	for _, p := range procs {
		wg.Go(p.stop)
	}
	wg.Wait()
}

func (p *process) readStderr(r io.ReadCloser) {
	defer close(p.stderrDone)
	defer r.Close()
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, seen, err := readLine(br, p.max)
		if errors.Is(err, errLineTooLong) {
			// Recorded truncated; the rest of the line is read and dropped,
			// and the session goes on: stderr is the server's diary.
			f := frames.Truncated(frames.Frame{Dir: frames.ServerToClient, Raw: line}, seen+skipLine(br),
				fmt.Sprintf("a stderr line longer than the frame limit (%s; --max-frame)", frames.HumanSize(p.max)))
			f.Kind = frames.KindStderr
			p.log.Append(f)
			line, err = nil, nil
		}
		if len(line) > 0 {
			// line is jig's own copy (readLine): the frame keeps it.
			raw := trimCR(bytes.TrimSuffix(line, []byte("\n")))
			p.log.Append(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindStderr, Raw: raw})
			if len(raw) > stderrLineKeep {
				raw = append(raw[:stderrLineKeep:stderrLineKeep], "…"...)
			}
			p.mu.Lock()
			p.stderr = append(p.stderr, string(raw))
			p.stderrSeen++
			if isCrashCause(raw) {
				p.cause, p.causeAt = string(raw), p.stderrSeen
			}
			if len(p.stderr) > stderrKeep {
				p.stderr = p.stderr[len(p.stderr)-stderrKeep:]
			}
			p.mu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// stderrLineKeep bounds each stderr line kept for error messages.
const stderrLineKeep = 2000

// skipLine reads and drops the rest of a line, and says how long it was.
func skipLine(br *bufio.Reader) int64 {
	var n int64
	for {
		chunk, err := br.ReadSlice('\n')
		n += int64(len(chunk))
		if err != bufio.ErrBufferFull {
			return n
		}
	}
}

// Stderr returns the server's last stderr lines. When the line that says
// why the server crashed (a Go "panic: …" or "fatal error: …") came before
// them, it comes first, then "…" and the lines after it that still fit: a
// Go panic's goroutine dump is longer than the lines kept, and its tail
// says nothing of the cause.
func (p *process) Stderr() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	tail := append([]string(nil), p.stderr...)
	if p.cause == "" || p.stderrSeen-p.causeAt < len(tail) {
		return tail // the cause is among them, or there is none
	}
	return append([]string{p.cause, fmt.Sprintf("… (%d lines left out)", p.stderrSeen-p.causeAt-(stderrKeep-2))}, tail[2:]...)
}

// isCrashCause says whether a stderr line starts a Go runtime crash report.
func isCrashCause(line []byte) bool {
	return bytes.HasPrefix(line, []byte("panic: ")) || bytes.HasPrefix(line, []byte("fatal error: "))
}

// Exited reports whether the process has exited, and how.
func (p *process) Exited() (bool, error) {
	select {
	case <-p.exited:
		p.mu.Lock()
		defer p.mu.Unlock()
		return true, p.exitErr
	default:
		return false, nil
	}
}

// stop closes stdin, waits a grace period, then SIGTERMs and finally SIGKILLs
// the process group. It returns once the process has exited and nothing it
// left in its group is running.
func (p *process) stop() { p.stopOnce.Do(p.terminate) }

func (p *process) terminate() {
	why := interruption()
	p.mu.Lock()
	p.ending.stdin, p.ending.why = true, why
	p.mu.Unlock()
	if why != "" {
		if done, _ := p.Exited(); !done {
			p.log.Append(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport,
				Note: why + ": jig is ending the server (closing its stdin; SIGTERM after the grace, then SIGKILL)"})
		}
	}
	p.tap.Close()
	defer p.endGroup()
	for _, sig := range []syscall.Signal{0, syscall.SIGTERM, syscall.SIGKILL} {
		if sig != 0 {
			if done, _ := p.Exited(); done {
				return // it exited as the grace ended: jig sent nothing more
			}
			p.mu.Lock()
			p.ending.term = p.ending.term || sig == syscall.SIGTERM
			p.ending.kill = sig == syscall.SIGKILL
			p.mu.Unlock()
		}
		if sig == syscall.SIGKILL {
			p.log.Append(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport,
				Note: fmt.Sprintf("the server was still running %s after SIGTERM; jig sent SIGKILL", p.grace)})
		}
		if sig != 0 {
			_ = syscall.Kill(-p.cmd.Process.Pid, sig)
		}
		select {
		case <-p.exited:
			return
		case <-time.After(p.grace):
		}
	}
	<-p.exited
}

// endGroup ends the processes the server left in its process group after it
// exited (a helper, a worker that does not watch its parent): jig started the
// group, so nothing of it may outlive the session. Each is told in the Log.
func (p *process) endGroup() {
	pgid := p.cmd.Process.Pid
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		n := liveInGroup(pgid)
		if n == 0 {
			return
		}
		_ = syscall.Kill(-pgid, sig)
		p.log.Append(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport,
			Note: fmt.Sprintf("jig sent %s to %d process(es) the server left running in its process group", frames.SignalName(sig), n)})
		deadline := time.Now().Add(p.grace)
		for liveInGroup(pgid) > 0 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond) // no notification tells when a group empties
		}
	}
}

// killProbe is 1 when process group pgid has any process (zombies too), else 0.
func killProbe(pgid int) int {
	if syscall.Kill(-pgid, 0) == nil {
		return 1
	}
	return 0
}

// exitWatch returns a context that is cancelled when the process exits, so a
// call in flight fails fast instead of waiting for its timeout.
func (p *process) exitWatch(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	go func() {
		select {
		case <-p.exited:
			cancel(errServerExited)
		case <-ctx.Done():
		}
	}()
	return ctx, func() { cancel(nil) }
}

var errServerExited = errors.New("the server exited")
