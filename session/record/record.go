// Package record decides where captured sessions go and keeps them there: a
// per-user state directory of JSONL transcripts, one file per session, named
// by when it started and what it talked to. Each frame is handed to a writer
// of its own as it crosses and written moments later, whole records only, so
// a killed jig or a killed client still leaves the evidence: a valid file
// that lacks at most the frames still queued.
package record

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session"
)

// Options say whether and where a session is recorded.
type Options struct {
	// Path is the file to write; "" means a new file in Dir.
	Path string
	// Dir is where new files go; "" means StateDir().
	Dir string
	// Disabled turns recording off (--no-record).
	Disabled bool
	// Target describes what was connected to; it goes into the header,
	// redacted, and names the file.
	Target json.RawMessage
	// Label names the file when set ("search_orders"), after the target.
	Label string
	// Mode is "session" for jig's own sessions, "proxy" for captured clients.
	Mode string
	// Secrets are values to redact besides the shapes frames.Redactor knows.
	Secrets []string
	// Redactor, when set, is the redactor to write with (the session's, so
	// what it learns mid-session reaches the file too); Secrets are added.
	Redactor *frames.Redactor
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// Inline writes each batch on the goroutine that appends it (the proxy's
	// recorder, already off the wire's path); otherwise ForLog writes through
	// a bounded queue of QueueBytes (frames.DefaultQueueBytes when 0).
	Inline     bool
	QueueBytes int
}

// StateDir is where sessions are recorded by default:
// $XDG_STATE_HOME/jig/sessions, or ~/.local/state/jig/sessions.
func StateDir() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "jig", "sessions"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no directory to record sessions in: %w (set XDG_STATE_HOME, or pass --record FILE)", err)
	}
	return filepath.Join(home, ".local", "state", "jig", "sessions"), nil
}

// fileTime is the time format of file names: sortable, and without colons,
// which some file systems and tools refuse.
const fileTime = "2006-01-02T15-04-05"

// Start creates the transcript for a new session and writes its header. It
// returns the writer (a frames.Sink) and the file's path.
func Start(opts Options) (*frames.TranscriptWriter, string, error) {
	tw, h, path, err := create(opts)
	if err != nil {
		return nil, "", err
	}
	if err := tw.WriteHeader(h); err != nil {
		tw.Close()
		return nil, "", fmt.Errorf("recording: %w", err)
	}
	return tw, path, nil
}

// create creates the transcript's file and returns its writer and the
// header still to be written.
func create(opts Options) (*frames.TranscriptWriter, frames.Header, string, error) {
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	started := now()
	path := opts.Path
	if st, err := os.Stat(path); path != "" && err == nil && st.Mode().IsRegular() && st.Size() > 0 {
		// A recording is evidence: never replaced by accident.
		return nil, frames.Header{}, "", fmt.Errorf("%s already exists and jig does not overwrite a recording: choose another file, or remove it first", path)
	}
	var f *os.File // the file reserve created, written from its start
	if path == "" {
		dir := opts.Dir
		if dir == "" {
			var err error
			if dir, err = StateDir(); err != nil {
				return nil, frames.Header{}, "", err
			}
		}
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, frames.Header{}, "", fmt.Errorf("recording: cannot create %s: %w (pass --record FILE or --no-record)", dir, err)
		}
		var err error
		if f, path, err = reserve(dir, started.Format(fileTime)+"_"+fileSlug(opts.Target, opts.Label)); err != nil {
			return nil, frames.Header{}, "", err
		}
	}
	h := frames.Header{Jig: session.Version, Started: started, Target: opts.Target, Mode: opts.Mode}
	red := opts.Redactor
	if red == nil {
		red = frames.NewRedactor()
	}
	red.Add(opts.Secrets...)
	if f == nil {
		var err error
		if f, err = openPath(path); err != nil {
			return nil, frames.Header{}, "", fmt.Errorf("recording: transcript %s: %w", path, err)
		}
	}
	return frames.FileTranscriptWriter(f, red), h, path, nil
}

// reserve creates a new file named base.jsonl (or base-2.jsonl, ...) in dir
// and returns it open for writing, so that concurrent sessions never share
// a file. Scripts run jig in loops, many sessions a second under one name:
// trying base-2, base-3, ... in turn made the k-th session of a second try
// k names (and the thousandth fail), so after base.jsonl it doubles n until
// a name is free and then halves the gap down to the first free one after
// the taken ones (the next name when they were made in turn). The file is
// created with O_EXCL: a name taken meanwhile is looked for again.
func reserve(dir, base string) (*os.File, string, error) {
	name := func(n int) string {
		if n == 1 {
			return filepath.Join(dir, base+".jsonl")
		}
		return filepath.Join(dir, fmt.Sprintf("%s-%d.jsonl", base, n))
	}
	taken := func(n int) bool { _, err := os.Lstat(name(n)); return err == nil }
	const most = 1 << 24
	for n, tries := 1, 0; n < most && tries < 64; tries++ {
		f, err := os.OpenFile(name(n), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err == nil {
			return f, name(n), nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, "", fmt.Errorf("recording: %w", err)
		}
		lo, hi := n, 2*n // n is taken
		for hi < most && taken(hi) {
			lo, hi = hi, 2*hi
		}
		for lo+1 < hi {
			if mid := lo + (hi-lo)/2; taken(mid) {
				lo = mid
			} else {
				hi = mid
			}
		}
		n = hi
	}
	return nil, "", fmt.Errorf("recording: too many sessions named %s in %s", base, dir)
}

// ForLog records every frame appended to log from now on (call it before the
// session starts). The frames go through a bounded queue to a writer of
// their own (frames.QueuedSink) unless opts.Inline: appending never waits
// for the disk unless the queue is full, and then it waits (nothing is
// dropped). It returns the file's path and a closer that writes what is
// queued, closes the file and reports the first write error, so a full disk
// is not silent; call it on every way out, after the session closed. With
// opts.Disabled it records nothing and returns "" and a no-op closer.
func ForLog(log *frames.Log, opts Options) (path string, closer func() error, err error) {
	if opts.Disabled {
		return "", func() error { return nil }, nil
	}
	if opts.Inline {
		tw, path, err := Start(opts)
		if err != nil {
			return "", nil, err
		}
		log.AddSink(tw)
		return path, func() error {
			cerr := tw.Close()
			if serr := log.SinkErr(); serr != nil {
				return fmt.Errorf("recording %s: %w", path, serr)
			}
			return cerr
		}, nil
	}
	// The header is encoded and written by the queue's writer, first, off
	// the path to the server's start.
	tw, h, path, err := create(opts)
	if err != nil {
		return "", nil, err
	}
	q := frames.NewQueuedSink(tw, opts.QueueBytes)
	q.WriteHeader(h)
	log.AddSink(q)
	return path, func() error {
		qerr := q.Close()
		cerr := tw.Close()
		if serr := cmp.Or(log.SinkErr(), qerr); serr != nil {
			return fmt.Errorf("recording %s: %w", path, serr)
		}
		return cerr
	}, nil
}

// Target is the header description of a target: the fields the slug and
// listings read. Callers may marshal richer values.
type Target struct {
	Transport string   `json:"transport,omitempty"`
	Command   []string `json:"command,omitempty"`
	URL       string   `json:"url,omitempty"`
	Listen    string   `json:"listen,omitempty"`
	Release   int      `json:"release,omitempty"`
}

// Describe returns a one-line description of a header's target.
func Describe(raw json.RawMessage) string {
	var t Target
	if len(raw) == 0 || json.Unmarshal(raw, &t) != nil {
		return string(raw)
	}
	switch {
	case t.Transport == "demo":
		if t.Release > 1 {
			return fmt.Sprintf("demo server (release %d)", t.Release)
		}
		return "demo server"
	case len(t.Command) > 0:
		return strings.Join(t.Command, " ")
	case t.URL != "":
		return t.URL
	}
	return string(raw)
}

var (
	interpreters = map[string]bool{"node": true, "nodejs": true, "npx": true, "bunx": true, "bun": true, "deno": true, "python": true, "python3": true,
		"uv": true, "uvx": true, "run": true, "go": true, "java": true, "sh": true, "bash": true, "docker": true, "pipx": true, "env": true}
	vagueNames = map[string]bool{"index": true, "main": true, "server": true, "dist": true, "build": true, "src": true, "lib": true, "bin": true, "cmd": true}
)

// fileSlug is a short, file-name-safe name for a target: "demo",
// "server-everything", "127.0.0.1-3901_mcp", plus the label.
func fileSlug(raw json.RawMessage, label string) string {
	var t Target
	_ = json.Unmarshal(raw, &t)
	var s string
	switch {
	case t.Transport == "demo":
		s = "demo"
	case len(t.Command) > 0:
		s = commandSlug(t.Command)
	case t.URL != "":
		// Host and last path segment only: never the user information or
		// the query, where credentials live.
		host, path := t.URL, ""
		if u, err := url.Parse(t.URL); err == nil {
			host, path = u.Host, u.Path
		}
		s = strings.ReplaceAll(host, ":", "-")
		if p := strings.Trim(path, "/"); p != "" {
			s += "_" + p[strings.LastIndex(p, "/")+1:]
		}
	}
	if label != "" {
		if s != "" {
			s += "_"
		}
		s += label
	}
	s = strings.Trim(safeSlug(s), "-.")
	if len(s) > 48 {
		s = s[:48]
	}
	if s == "" {
		s = "session"
	}
	return s
}

// safeSlug replaces each run of bytes other than A-Z a-z 0-9 . _ - with one
// "-" (what the regexp [^A-Za-z0-9._-]+ replaces: a rune outside them is
// bytes outside them, and so is a byte that is not UTF-8).
func safeSlug(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	run := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-' {
			b.WriteByte(c)
			run = false
		} else if !run {
			b.WriteByte('-')
			run = true
		}
	}
	return b.String()
}

func commandSlug(cmd []string) string {
	for _, arg := range cmd {
		if strings.HasPrefix(arg, "-") || strings.Contains(arg, "=") {
			continue
		}
		base := filepath.Base(arg)
		if interpreters[base] {
			continue
		}
		// .../server-everything/dist/index.js names the package, not "index".
		for p := arg; ; {
			name := strings.TrimSuffix(filepath.Base(p), filepath.Ext(p))
			if name == "" || name == "." || name == "/" {
				return base
			}
			if !vagueNames[name] {
				if strings.HasPrefix(name, "@") || strings.Contains(arg, "@") {
					name = strings.TrimPrefix(name, "@")
				}
				return name
			}
			p = filepath.Dir(p)
		}
	}
	return filepath.Base(cmd[0])
}

// A Session is one recorded transcript, as listed by jig sessions.
type Session struct {
	Path    string    `json:"path"`
	Started time.Time `json:"started"`
	Target  string    `json:"target"`
	Mode    string    `json:"mode,omitempty"`
	Frames  int       `json:"frames"`
	Size    int64     `json:"size"`
	// Server, Client and Protocol are what the session's handshake frames
	// say ("" when it has none): "name version" each.
	Server   string `json:"server,omitempty"`
	Client   string `json:"client,omitempty"`
	Protocol string `json:"protocol,omitempty"`
}

// List returns the transcripts in dir, newest first. Files that are not jig
// transcripts are skipped; a missing dir is an empty list.
func List(dir string) ([]Session, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Session
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		s, err := Stat(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		out = append(out, s)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Started.Equal(out[j].Started) {
			return out[i].Started.After(out[j].Started)
		}
		return out[i].Path > out[j].Path
	})
	return out, nil
}

// Stat reads a transcript's header and counts its frames without decoding
// them.
func Stat(path string) (Session, error) {
	f, err := os.Open(path)
	if err != nil {
		return Session{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Session{}, err
	}
	br := bufio.NewReaderSize(f, 1<<20)
	first, err := br.ReadBytes('\n')
	if err != nil && err != io.EOF {
		return Session{}, err
	}
	var h frames.Header
	if json.Unmarshal(first, &h) != nil || h.Type != "header" {
		return Session{}, fmt.Errorf("%s: not a jig transcript", path)
	}
	s := Session{Path: path, Started: h.Started, Target: Describe(h.Target), Mode: h.Mode, Size: fi.Size()}
	if s.Started.IsZero() {
		s.Started = fi.ModTime()
	}
	var hs frames.Handshake
	s.Frames, err = scanFrames(br, &hs)
	s.Server, s.Client, s.Protocol = hs.ServerText(), hs.ClientText(), hs.Protocol
	return s, err
}

// handshakeLine marks the records of a session's opening requests and
// their results, the only frames Stat decodes.
var handshakeLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\{"type":"frame".{0,200}"method":"(initialize|server/discover)"`)
})

// scanFrames counts the frame records of a transcript read from r and
// reads its handshake from them on the way, decoding no other frame.
func scanFrames(r *bufio.Reader, hs *frames.Handshake) (int, error) {
	n := 0
	for {
		line, err := r.ReadSlice('\n')
		whole := err != bufio.ErrBufferFull
		if bytes.HasPrefix(line, frameStart) {
			n++
			if whole && n <= 64 && handshakeLine().Match(line) {
				if f, ferr := frames.DecodeRecordFrame(line); ferr == nil {
					hs.Add(f.Dir, f.Kind, f.Raw)
				}
			}
		}
		for err == bufio.ErrBufferFull { // the rest of a long line
			_, err = r.ReadSlice('\n')
		}
		switch {
		case err == io.EOF:
			return n, nil
		case err != nil:
			return n, err
		}
	}
}

// frameStart begins every frame record.
var frameStart = []byte(`{"type":"frame"`)

// Prune removes transcripts in dir started more than olderThan ago (when
// olderThan > 0) and all but the newest keep (when keep > 0). It returns the
// paths it removed. Only jig transcripts are touched.
func Prune(dir string, olderThan time.Duration, keep int, now time.Time) ([]string, error) {
	sessions, err := List(dir)
	if err != nil {
		return nil, err
	}
	var removed []string
	for i, s := range sessions {
		old := olderThan > 0 && now.Sub(s.Started) > olderThan
		extra := keep > 0 && i >= keep
		if !old && !extra {
			continue
		}
		if err := os.Remove(s.Path); err != nil {
			return removed, err
		}
		removed = append(removed, s.Path)
	}
	return removed, nil
}
