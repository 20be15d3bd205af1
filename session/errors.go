package session

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/mcpjig/jig/frames"
)

// UsageError is a mistake in what the user asked for: a bad flag value, a
// missing environment variable, arguments that are not JSON. The CLI maps it
// to exit code 2.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// ConnectError means the server could not be reached, crashed or timed out.
// The CLI maps it to exit code 3. It carries the server's last stderr lines,
// which usually say why.
type ConnectError struct {
	Target Target
	Err    error
	Stderr []string
	// Hint is the likely cause and the next step, when the frames of the
	// attempt show them (see diagnose).
	Hint   *Hint
	redact *frames.Redactor // the session's; nil redacts by shape only
}

// Error is the message, redacted: a server's stderr and an HTTP library's
// error both quote secrets (a URL with its password, an echoed token).
func (e *ConnectError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %v", e.Target, e.Err)
	if len(e.Stderr) > 0 {
		b.WriteString("\nthe server's last stderr lines:")
		for _, l := range e.Stderr {
			b.WriteString("\n  | " + l)
		}
	}
	if e.Hint != nil {
		b.WriteString("\n" + e.Hint.String())
	}
	return e.redact.String(b.String())
}

func (e *ConnectError) Unwrap() error { return e.Err }

// withheldCode marks the error jig hands the SDK in place of a server answer
// it withheld; it never reaches the wire or the Log. The frame's sequence
// number travels in the error's data, so the call can say which frame it was.
const withheldCode = -32099

type withheldData struct {
	Frame int64 `json:"jigWithheldFrame"`
}

// withheldFrame is the sequence number of the frame a withheldError stands
// for, or 0 when we is a real error from the server.
func withheldFrame(we *jsonrpc.Error) int64 {
	var d withheldData
	if we.Code != withheldCode || json.Unmarshal(we.Data, &d) != nil {
		return 0
	}
	return d.Frame
}

// withheldAnswer is what a call's SDK error becomes when it was a
// withheldError; Session.call turns it into an UnusableAnswerError.
type withheldAnswer struct{ seq int64 }

func (w *withheldAnswer) Error() string {
	return fmt.Sprintf("jig withheld the server's answer (frame #%d)", w.seq)
}

// withheldError is the line the SDK reads in place of the withheld answer to
// request id (its JSON text), recorded as frame seq.
func withheldError(id string, seq int64) []byte {
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":"jig withheld the server's answer","data":{"jigWithheldFrame":%d}}}`+"\n", id, withheldCode, seq)
}

// UnusableAnswerError means the server answered a call, but with bytes jig
// could not hand to the SDK (the SDK would have dropped the connection on
// them): invalid UTF-8 or JSON, an id that is no id, a response inside a
// batch. The answer is in the frames; the call fails at once instead of
// timing out. It comes wrapped in a ConnectError (exit code 3).
type UnusableAnswerError struct {
	Method string
	Frame  *frames.Frame
}

func (e *UnusableAnswerError) Error() string {
	why := e.Frame.Err
	if e.Frame.Kind == frames.KindBatch {
		why = "it came inside a JSON-RPC batch, which MCP does not use"
	}
	return fmt.Sprintf("%s: the server's answer arrived (frame #%d) but jig could not use it: %s. It was withheld from the session and is kept in the frames (--frames, jig open)",
		e.Method, e.Frame.Seq, why)
}
