package session

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/mcpjig/jig/frames"
)

// A raw message is what the SDK's typed calls cannot say: an unknown method,
// a notification, params of the wrong shape, a batch, bytes that are not
// JSON at all. SendRaw writes it on the live session exactly as typed,
// beside the SDK's own traffic, and the taps record it and whatever the
// server does about it like any other frame.
//
// Its id is the user's. The SDK numbers its own requests 1, 2, 3…; a string
// id ("raw-1", as RawID makes) can never be one of them. A number is sent
// as typed too, unless the SDK is waiting on that very id right now: then
// the answer could not be told apart, and SendRaw refuses it. A response to
// an id the SDK is not waiting on is dropped by the SDK, so it never takes
// a raw answer for one of its own.

// RawResult is what became of a raw message.
type RawResult struct {
	Sent *frames.Frame // the message as recorded; nil when nothing was written
	// Answer is the server's response to the message's id, when one came
	// before the wait ended. To a batch it is the first of Answers.
	Answer *frames.Frame
	// Answers, to a batch, are the frames that answered its requests (a
	// batch of responses, or responses one by one), matched by their ids.
	Answers []*frames.Frame
	// Ended says why jig stopped waiting when no answer came: the server
	// exited, the connection failed, or the wait ran out.
	Ended string
	// From and To are the Log's frames while jig waited: [From, To).
	From, To int
}

// RawOptions say how long to wait after sending.
type RawOptions struct {
	// Wait is how long to wait for an answer to a request (for anything at
	// all after a notification or bytes without an id). The caller's
	// context ends it sooner.
	Wait time.Duration
}

// rawKey marks a request the HTTP tap must pass as it is: no era _meta
// added, no probe header.
type rawKey struct{}

// RawID is the id jig suggests for the n-th raw request of a session: a
// string, which never collides with the SDK's numbers.
func RawID(n int) string { return fmt.Sprintf("raw-%d", n) }

// SendRaw writes raw on the session's connection, as typed, and waits for
// the answer. Over stdio and to the demo server the message is one line
// (a JSON text typed over several lines is compacted: a newline ends a
// message there); over HTTP it is the body of a POST carrying the headers
// of the SDK's own last request (its session, its protocol version, its
// authorization).
func (s *Session) SendRaw(ctx context.Context, raw []byte, opts RawOptions) (*RawResult, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil, &UsageError{errors.New("the raw message is empty: type a JSON-RPC message, or any bytes to send")}
	}
	probe := frames.Frame{Dir: frames.ClientToServer, Raw: raw}
	probe.Classify()
	if probe.ID != "" && probe.Kind == frames.KindRequest && s.Log.Pending(frames.ClientToServer, probe.ID) {
		return nil, &UsageError{fmt.Errorf("id %s is waiting for the answer to a request already sent (%s): give your message another id; a string id such as %q is never one of jig's own", probe.ID, s.pendingMethod(probe.ID), RawID(1))}
	}
	if opts.Wait <= 0 {
		opts.Wait = 10 * time.Second
	}
	from := s.Log.Len()
	var err error
	switch {
	case s.line != nil:
		err = s.line.writeRaw(asLine(raw))
	case s.http != nil:
		err = s.postRaw(ctx, raw, probe)
	default:
		return nil, errors.New("the session has no connection to write on")
	}
	res := &RawResult{From: from, Sent: s.sentSince(from, raw)}
	if err != nil {
		res.Ended = "the message could not be written: " + err.Error()
		res.To = s.Log.Len()
		return res, nil
	}
	s.awaitRaw(ctx, res, probe, opts.Wait)
	return res, nil
}

// asLine is a message as one stdio line: a JSON text compacted, anything
// else as typed (its own newlines then split it into several lines, which
// is what typing them means on a line-delimited stream).
func asLine(raw []byte) []byte {
	if bytes.IndexByte(raw, '\n') >= 0 && json.Valid(raw) {
		if c, ok := frames.Compact(raw); ok {
			return c
		}
	}
	return raw
}

// pendingMethod names the request still waiting under id.
func (s *Session) pendingMethod(id string) string {
	for i := s.Log.Len() - 1; i >= 0; i-- {
		f := s.Log.Frame(i)
		if f.Dir == frames.ClientToServer && f.Kind == frames.KindRequest && f.ID == id {
			return f.Method
		}
	}
	return "a request"
}

// sentSince is the frame that recorded raw, looked for from index from on.
func (s *Session) sentSince(from int, raw []byte) *frames.Frame {
	line := asLine(raw)
	for i := from; i < s.Log.Len(); i++ {
		f := s.Log.Frame(i)
		if f.Dir == frames.ClientToServer && f.Kind != frames.KindTransport && (bytes.Equal(f.Raw, raw) || bytes.Equal(f.Raw, line) || bytes.HasPrefix(line, f.Raw)) {
			return f
		}
	}
	return nil
}

// awaitRaw waits for the answer to the message (a response with its id),
// or for the server to end, or for the wait to run out. A message without
// an id waits the whole time: whatever the server does then is the answer.
func (s *Session) awaitRaw(ctx context.Context, res *RawResult, sent frames.Frame, wait time.Duration) {
	wctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	seen := res.From
	// A batch's requests, by id: it is answered when each of them is.
	var owed map[string]bool
	if sent.Kind == frames.KindBatch {
		owed = map[string]bool{}
		for _, r := range frames.WithheldRequests(&sent) {
			owed[r.ID] = true
		}
	}
	for {
		for ; seen < s.Log.Len(); seen++ {
			f := s.Log.Frame(seen)
			if len(owed) > 0 && f.Dir == frames.ServerToClient {
				if answersBatch(res, owed, f) {
					res.To = seen + 1
					return
				}
				continue
			}
			switch {
			case sent.ID != "" && f.Dir == frames.ServerToClient && f.IsResponse() && f.ID == sent.ID,
				sent.ID == "" && f.Dir == frames.ServerToClient && f.Kind == frames.KindError && f.ID == "":
				// Its answer; or, to bytes without an id, an error tied to no
				// request (a parse error, id null).
				res.Answer, res.To = f, seen+1
				return
			case f.Dir == frames.ServerToClient && f.Kind == frames.KindTransport && strings.HasPrefix(f.Note, frames.ServerExitedNote):
				res.Ended, res.To = "the server exited: "+strings.TrimPrefix(strings.TrimPrefix(f.Note, "server exited"), ": "), seen+1
				if res.Ended == "the server exited: " {
					res.Ended = "the server exited (exit status 0)"
				}
				return
			}
		}
		if _, err := s.Log.Wait(wctx, seen); err != nil {
			res.To = s.Log.Len()
			switch {
			case ctx.Err() != nil:
				res.Ended = "cancelled while waiting"
			case sent.ID != "" && sent.Kind == frames.KindRequest:
				res.Ended = fmt.Sprintf("no answer within %s", wait)
			case len(owed) > 0:
				res.Ended = fmt.Sprintf("the batch's requests %s got no answer within %s", strings.Join(slices.Sorted(maps.Keys(owed)), ", "), wait)
			case sent.Kind == frames.KindBatch:
				res.Ended = fmt.Sprintf("waited %s (a batch of notifications only gets no answer)", wait)
			case sent.Kind == frames.KindInvalid:
				why := sent.Err
				if why == "" {
					why = "not a JSON-RPC message"
				}
				res.Ended = fmt.Sprintf("%s: the server sent no error for it within %s (it ignored it; what it sent meanwhile is listed above)", why, wait)
			default:
				res.Ended = fmt.Sprintf("waited %s (a message without an id gets no answer)", wait)
			}
			return
		}
	}
}

// writeRaw writes one raw message as a line, recorded before it is written.
// answersBatch keeps f among res.Answers when it answers requests of the
// batch still owed (a batch of responses, or one), striking them off; it
// reports whether none is owed any more.
func answersBatch(res *RawResult, owed map[string]bool, f *frames.Frame) bool {
	ids := frames.AnswerIDs(f)
	if f.IsResponse() {
		ids = []string{f.ID}
	}
	matched := false
	for _, id := range ids {
		if owed[id] {
			delete(owed, id)
			matched = true
		}
	}
	if matched {
		res.Answers = append(res.Answers, f)
		res.Answer = res.Answers[0]
	}
	return len(owed) == 0
}

func (t *lineTap) writeRaw(line []byte) error {
	t.wmu.Lock()
	defer t.wmu.Unlock()
	if len(t.pending) > 0 {
		return errors.New("the SDK is in the middle of writing a message; try again")
	}
	for _, l := range bytes.Split(line, []byte("\n")) {
		t.log.Append(frames.Frame{Dir: frames.ClientToServer, Raw: trimCR(bytes.Clone(l))})
	}
	_, err := t.toServer.Write(append(bytes.Clone(line), '\n'))
	return err
}

// postRaw POSTs raw as typed with the headers of the SDK's last request,
// and reads the answer through the tap (which records it).
func (s *Session) postRaw(ctx context.Context, raw []byte, probe frames.Frame) error {
	url, header := s.http.lastPost()
	if url == "" {
		return errors.New("jig has not seen the SDK post a message yet, so it does not know the session's endpoint and headers")
	}
	req, err := http.NewRequestWithContext(context.WithValue(ctx, rawKey{}, true), http.MethodPost, url, bytes.NewReader(raw))
	if err != nil {
		return err
	}
	req.Header = header
	req.Header.Del("Mcp-Method")
	req.Header.Del("Mcp-Name")
	if _, ok := s.era.stateless(); ok && probe.Method != "" {
		// The headers the era mirrors from the message, as a client that
		// sent this message would set them.
		req.Header.Set("Mcp-Method", probe.Method)
		if name, ok := mcpName(probe.Method, raw); ok {
			req.Header.Set("Mcp-Name", name)
		}
	}
	resp, err := (&http.Client{Transport: s.http}).Do(req)
	if err != nil {
		return err
	}
	go func() {
		// The tap records each event as it is read; the body ends when the
		// server closes it, or when the session closes.
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, resp.Body)
	}()
	return nil
}

// mcpName is the Mcp-Name header of a 2026-07-28 request (SEP-2243): the
// params.name of a tools/call or prompts/get, the params.uri of a
// resources/read, Base64-encoded in its =?base64?…?= form when it is not
// plain visible ASCII (or looks encoded itself). Other methods have none.
func mcpName(method string, raw []byte) (string, bool) {
	switch method {
	case "tools/call", "prompts/get", "resources/read":
	default:
		return "", false
	}
	name := rawName(raw)
	if name == "" {
		return "", false
	}
	plain := name[0] != ' ' && name[0] != '\t' && name[len(name)-1] != ' ' && name[len(name)-1] != '\t' &&
		!(strings.HasPrefix(name, "=?base64?") && strings.HasSuffix(name, "?="))
	for i := 0; plain && i < len(name); i++ {
		plain = name[i] >= 0x20 && name[i] <= 0x7e
	}
	if plain {
		return name, true
	}
	return "=?base64?" + base64.StdEncoding.EncodeToString([]byte(name)) + "?=", true
}

// rawName is the params.name (tools/call, prompts/get) or params.uri
// (resources/read) of a message, which the 2026-07-28 era mirrors into
// Mcp-Name.
func rawName(raw []byte) string {
	var m struct {
		Params struct {
			Name string `json:"name"`
			URI  string `json:"uri"`
		} `json:"params"`
	}
	if json.Unmarshal(raw, &m) != nil {
		return ""
	}
	if m.Params.Name != "" {
		return m.Params.Name
	}
	return m.Params.URI
}
