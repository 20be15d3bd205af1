package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session"
)

// withSession opens a session for a command, runs fn, prints frames if asked
// (also when fn failed) and closes the session without waiting on a
// lingering server longer than its grace.
func withSession(ctx context.Context, st *streams, tf *targetFlags, command []string, ff *framesFlag, label string, fn func(ctx context.Context, s *session.Session) error) error {
	if err := ff.check(); err != nil {
		return err
	}
	opts, err := tf.options(command)
	if err != nil {
		return err
	}
	st.knowSecrets(opts.Target)
	opts.Redact = st.redact
	vars, removeScratch, err := session.Scratch(opts.Target)
	if err != nil {
		return fmt.Errorf("creating the scratch directory for $%s: %w", session.ScratchVar, err)
	}
	defer removeScratch()
	opts.Vars = vars
	stopRecording, err := tf.startRecording(st, opts, label)
	if err != nil {
		return err
	}
	defer stopRecording()
	cctx, cancel := session.WithTimeout(ctx, tf.timeout)
	defer cancel()
	if opts.Auth != nil {
		opts.Auth.OnEvent = printEvents(st.err)
	}
	s, err := session.Open(cctx, opts)
	if err != nil {
		if ferr := ff.write(st, opts.Log, nil); ferr != nil {
			fmt.Fprintln(st.err, "jig:", ferr)
		}
		return err
	}
	info := s.Info()
	err = fn(cctx, s)
	s.Close()
	warnWithheld(st.err, opts.Log, err)
	if ferr := ff.write(st, opts.Log, &info); ferr != nil && err == nil {
		err = ferr
	}
	return err
}

// warnWithheld says which of the server's lines jig kept as evidence but
// did not hand to the session, so "it worked" never hides a server that
// printed garbage or complained. The frame an error already named is skipped.
func warnWithheld(w io.Writer, log *frames.Log, err error) {
	var named *frames.Frame
	var ua *session.UnusableAnswerError
	var fl *session.FrameLimitError
	switch {
	case errors.As(err, &ua):
		named = ua.Frame
	case errors.As(err, &fl):
		named = fl.Frame
	}
	const most = 5
	var lines []string
	withheld := frames.Withheld(log, 0)
	for _, f := range withheld {
		if f == named || session.AnswersEraProbe(log, int(f.Seq)-1) {
			continue
		}
		if len(lines) == most {
			lines = append(lines, fmt.Sprintf("jig: … and %d more (see --frames)", len(withheld)-most-1))
			break
		}
		if f.Kind == frames.KindError && f.Answers != "" {
			lines = append(lines, fmt.Sprintf("jig: warning: frame #%d: the server answered request id=%s with an error whose id is null: %s", f.Seq, f.Answers, f.ErrorMessage()))
			continue
		}
		if f.Kind == frames.KindError {
			lines = append(lines, fmt.Sprintf("jig: warning: frame #%d: the server reported an error tied to no request: %s", f.Seq, f.ErrorMessage()))
			continue
		}
		answered := ""
		if rs := frames.WithheldRequests(f); len(rs) > 0 {
			answered = "; jig answered its " + rs[0].Method + " request with an error"
			if len(rs) > 1 {
				answered = fmt.Sprintf("; jig answered its %d requests with errors", len(rs))
			}
		}
		lines = append(lines, fmt.Sprintf("jig: warning: frame #%d from the server was withheld from the session (it went on): %s%s", f.Seq, withheldWhy(f), answered))
	}
	strays := 0
	for i := 0; i < log.Len(); i++ {
		f := log.Frame(i)
		switch {
		case f.Kind == frames.KindTransport && f.Err != "":
			lines = append(lines, "jig: warning: "+f.Err)
		case f.Dir == frames.ServerToClient && f.IsResponse() && f.Err != "":
			// An answer to no request jig sent, or a second answer: the SDK
			// ignores it, and so would a user who did not look.
			if strays++; strays <= most {
				lines = append(lines, fmt.Sprintf("jig: warning: frame #%d from the server is a %s; it was ignored", f.Seq, f.Err))
			} else if strays == most+1 {
				lines = append(lines, "jig: … and more answers to no request (see --frames)")
			}
		}
	}
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
}

// withheldWhy says why a frame was withheld: a line of text is quoted, as
// the user will look for it in the server's code.
func withheldWhy(f *frames.Frame) string {
	if f.HTTP == nil && strings.HasPrefix(f.Err, "not JSON: a line of text") {
		line := strings.TrimSpace(string(f.Raw))
		if r := []rune(line); len(r) > 100 {
			line = string(r[:99]) + "…"
		}
		return fmt.Sprintf("%q is not JSON-RPC (a line of text on stdout, which carries JSON-RPC only: the server should log to stderr)", line)
	}
	return f.Err
}

// framesFlag is --frames with an optional file: bare --frames prints the
// frames to stderr, --frames=FILE writes them to FILE.
type framesFlag struct{ dest string }

func (f *framesFlag) bind(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.dest, "frames", "", "print every frame of the session (to stderr, or --frames=FILE)")
	cmd.Flags().Lookup("frames").NoOptDefVal = "-"
}

// check runs before connecting: --frames=FILE must be a file jig can write.
func (f *framesFlag) check() error {
	return checkOutput("--frames", f.dest, func(p string) string { return "--frames=" + p }, "frames.txt", false, false)
}

// write prints the session's frames where the user asked, even when the
// command failed: frames already captured are the evidence.
func (f *framesFlag) write(st *streams, log *frames.Log, info *session.Info) error {
	if f.dest == "" || log == nil {
		return nil
	}
	w := st.err
	if f.dest != "-" {
		file, err := frames.CreatePrivate(f.dest)
		if err != nil {
			return usageErr("--frames %s: %v", f.dest, err)
		}
		defer file.Close()
		lr := frames.NewLineRedactor(file, st.redact)
		defer lr.Flush()
		w = lr
	}
	if info != nil && info.ProtocolVersion != "" {
		fmt.Fprintf(w, "session: %s · protocol %s (%s era) · %s · jig declared: %s\n",
			frames.ServerLabel(info.ServerName, info.ServerVersion), info.ProtocolVersion, info.Era, info.Transport, declaredText(*info))
		if len(info.ServerCapabilities) > 0 {
			fmt.Fprintf(w, "server capabilities: %s\n", info.ServerCapabilities)
		}
	}
	return frames.WriteText(w, log)
}

func orNone(s []string) []string {
	if len(s) == 0 {
		return []string{"(none)"}
	}
	return s
}

// declaredText names the capabilities jig declared, with the roots it
// answers roots/list with: "roots (none), sampling" unless --root gave some.
func declaredText(info session.Info) string {
	var out []string
	for _, c := range orNone(info.ClientCapabilities) {
		if c == "roots" {
			roots := "none"
			if len(info.Roots) > 0 {
				roots = strings.Join(info.Roots, ", ")
			}
			c = "roots (" + roots + ")"
		}
		out = append(out, c)
	}
	return strings.Join(out, ", ")
}
