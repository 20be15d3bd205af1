package frames

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Summary is the one-line description of frame i used by listings: sequence,
// time offset from the first frame, direction, kind, method, id and size, and
// for responses the latency to their request.
func Summary(r Reader, i int, start time.Time) string {
	f := r.Frame(i)
	s := fmt.Sprintf("#%-4d %9s %s %-12s", f.Seq, Offset(f.Time, start), f.Dir.Arrow(), f.Kind)
	if f.Method != "" {
		s += " " + f.Method
	}
	if f.ID != "" {
		s += " id=" + f.ID
	}
	if f.Code != 0 {
		s += fmt.Sprintf(" code=%d", f.Code)
	}
	if f.HTTP != nil && f.HTTP.Status != 0 {
		s += fmt.Sprintf(" HTTP %d", f.HTTP.Status)
	}
	if f.Size() > 0 {
		s += " " + HumanSize(f.Size())
	}
	if d, ok := Latency(r, i); ok {
		s += fmt.Sprintf(" (%s after #%d)", HumanDuration(d), r.Frame(r.Partner(i)).Seq)
	} else if f.Kind == KindRequest && r.Partner(i) < 0 {
		s += " (" + Unanswered(r, i) + ")"
	}
	if f.Note != "" {
		s += " — " + f.Note
	}
	if f.Err != "" {
		s += " ! " + f.Err
	}
	return s
}

// Unanswered says why the request at i has no response: "cancelled by #7"
// when a notifications/cancelled named it (none will come; #7 is that
// frame), "not delivered: #8" when the HTTP request that carried it failed
// (#8 says how), "no answer: its event stream ended (#8)" when the server
// closed the stream it was to be answered on without the answer, "no
// answer: the server exited (#9)" when the server's
// process ended first, "no answer: the server went away (#9)" when an HTTP
// server stopped answering while it was open, else "pending".
func Unanswered(r Reader, i int) string {
	if j := CancelledBy(r, i); j >= 0 {
		return fmt.Sprintf("cancelled by #%d", r.Frame(j).Seq)
	}
	if j := undelivered(r, i); j >= 0 {
		if f := r.Frame(j); strings.HasPrefix(f.Note, StreamEndedNote) {
			return fmt.Sprintf("no answer: its event stream ended (#%d)", f.Seq)
		} else if strings.HasPrefix(f.Note, SentNote) {
			return fmt.Sprintf("no answer: the connection closed after it was sent (#%d)", f.Seq)
		}
		return fmt.Sprintf("not delivered: #%d", r.Frame(j).Seq)
	}
	if e, ok := r.(interface{ Ended(int) int }); ok {
		if j := e.Ended(i); j >= 0 {
			if end := r.Frame(j); strings.HasPrefix(end.Note, ServerGoneNote) {
				return fmt.Sprintf("no answer: the server went away (#%d)", end.Seq)
			}
			return fmt.Sprintf("no answer: the server exited (#%d)", r.Frame(j).Seq)
		}
	}
	return "pending"
}

// undeliveredWithin is how far after a request its failed HTTP request's
// frame is looked for: the tap writes it as the round trip fails, so only
// frames of other requests in flight come between.
const undeliveredWithin = 64

// undelivered returns the index of the transport frame that says the HTTP
// request carrying the request at i failed (its Answers names the id), or -1.
func undelivered(r Reader, i int) int {
	req := r.Frame(i)
	if req.ID == "" || req.Dir != ClientToServer {
		return -1
	}
	for j := i + 1; j < r.Len() && j <= i+undeliveredWithin; j++ {
		if f := r.Frame(j); f.Kind == KindTransport && f.Dir == ServerToClient && f.Answers == req.ID {
			return j
		}
	}
	return -1
}

// CancelledBy returns the index of the notifications/cancelled that named
// the request at i, or -1 (also when r does not pair cancellations).
func CancelledBy(r Reader, i int) int {
	if c, ok := r.(interface{ Cancelled(int) int }); ok {
		return c.Cancelled(i)
	}
	return -1
}

// Offset is a frame's time from the first frame's ("+1.250s"), or "–" when
// the source gave no time (an agent transcript without timestamps).
func Offset(t, start time.Time) string {
	if t.IsZero() || start.IsZero() {
		return "–"
	}
	return fmt.Sprintf("%+.3fs", t.Sub(start).Seconds())
}

// HumanSize prints a byte count the way listings show it.
func HumanSize(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// WriteText prints every frame: its summary line, then its exact bytes.
func WriteText(w io.Writer, r Reader) error {
	if r.Len() == 0 {
		return nil
	}
	start := r.Frame(0).Time
	for i := 0; i < r.Len(); i++ {
		if _, err := fmt.Fprintln(w, Summary(r, i, start)); err != nil {
			return err
		}
		body, err := r.Body(i)
		if err != nil {
			// One unreadable body must not hide the frames after it.
			fmt.Fprintf(w, "      (body unreadable: %v)\n", err)
			continue
		}
		if len(body) > 0 {
			fmt.Fprintf(w, "      %s\n", body)
		}
	}
	return nil
}

// ShortenMiddle cuts s to at most n cells by taking out its middle, where
// a long path or URL says least: "node /home/…/dist/index.js stdio" keeps the
// command and the file it runs, which its end and its start tell apart.
func ShortenMiddle(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	if n < 2 {
		return string(r[:max(n, 0)])
	}
	head := (n - 1) / 2
	tail := n - 1 - head
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}

// HumanDuration is a latency as a person reads one: three significant
// digits (1.73s, 173ms, 17.3ms, 1.73ms, 173µs), whole seconds from 100s
// on. A clock's last digits say nothing of a network round trip: it read
// 1.7315s.
func HumanDuration(d time.Duration) string {
	neg := d < 0
	if neg {
		d = -d
	}
	unit := time.Duration(1)
	for lim := time.Duration(100); d >= 10*lim && unit < time.Second; lim *= 10 {
		unit *= 10
	}
	out := d.Round(unit).String()
	if neg {
		out = "-" + out
	}
	return out
}
