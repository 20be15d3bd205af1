package importer

import (
	"errors"
	"io/fs"

	"github.com/mcpjig/jig/frames"
)

// A NotRecordingError is a file whose content is in no format jig imports
// (an empty file, a README beside the recordings). Commands that read a
// directory of recordings skip such files and say so.
type NotRecordingError struct{ Err error }

func (e *NotRecordingError) Error() string { return e.Err.Error() }
func (e *NotRecordingError) Unwrap() error { return e.Err }

// Streamed is what Stream learned of a file besides its frames.
type Streamed struct {
	Header   frames.Header
	Format   Format
	Warnings []string
	// Agent says the file is an agent's record (see File.Agent): its
	// results are the client's rendering, not the server's bytes.
	Agent bool
	Metas []frames.Meta
}

// Stream hands each frame of path, with its bytes, to fn in order, in any
// accepted format. A jig transcript is read one record at a time, so its
// size does not matter; other formats are converted in memory first, as
// Open does. fn's error stops the stream and is returned.
func Stream(path string, fn func(f *frames.Frame) error) (Streamed, error) {
	return stream(path, false, func(f *frames.Frame, _ []frames.Span) error { return fn(f) })
}

// StreamSpans is Stream that also hands fn where the long strings of each
// frame's bytes lie (frames.Scanner.Spans: a reader passing over a result's
// text need not read it twice); nil in formats other than jig's.
func StreamSpans(path string, fn func(f *frames.Frame, spans []frames.Span) error) (Streamed, error) {
	return stream(path, true, fn)
}

func stream(path string, spans bool, fn func(f *frames.Frame, spans []frames.Span) error) (Streamed, error) {
	format, err := Sniff(path)
	if err != nil {
		var pe *fs.PathError
		if !errors.As(err, &pe) {
			err = &NotRecordingError{err}
		}
		return Streamed{}, err
	}
	if format == FormatJig {
		return streamJig(path, spans, fn)
	}
	file, err := read(path, format)
	if err != nil {
		var pe *fs.PathError
		if !errors.As(err, &pe) {
			// Its first bytes looked like a format jig imports, and the
			// rest is not one (a config.json beside the recordings).
			err = &NotRecordingError{err}
		}
		return Streamed{}, err
	}
	defer file.Close()
	out := Streamed{Header: file.Header, Format: format, Warnings: file.Warnings, Agent: file.Agent}
	for i := 0; i < file.Len(); i++ {
		f := *file.Frame(i)
		if f.Raw == nil {
			if f.Raw, err = file.Body(i); err != nil {
				return out, err
			}
		}
		if err := fn(&f, nil); err != nil {
			return out, err
		}
	}
	return out, nil
}

func streamJig(path string, spans bool, fn func(f *frames.Frame, spans []frames.Span) error) (Streamed, error) {
	r, err := frames.OpenRegular(path)
	if err != nil {
		return Streamed{}, err
	}
	defer r.Close()
	// One goroutine reads and decodes records while the caller handles
	// the frames before them: on two cores a million calls take half the
	// time. Batches keep the hand-over cheap; the bounded channel keeps
	// memory bounded.
	type batch struct {
		frames []*frames.Frame
		spans  [][]frames.Span // each frame's, with spans
		metas  []frames.Meta
	}
	const batchSize = 256
	s := frames.NewScanner(r, path)
	if spans {
		s.WithSpans()
	}
	ch := make(chan batch, 4)
	stop := make(chan struct{})
	go func() {
		defer close(ch)
		var b batch
		for s.Next() {
			if m := s.Meta(); m != nil {
				b.metas = append(b.metas, *m)
			} else {
				b.frames = append(b.frames, s.Frame())
				if spans {
					b.spans = append(b.spans, s.Spans())
				}
			}
			if len(b.frames)+len(b.metas) >= batchSize {
				select {
				case ch <- b:
				case <-stop:
					return
				}
				b = batch{}
			}
		}
		if len(b.frames)+len(b.metas) > 0 {
			select {
			case ch <- b:
			case <-stop:
			}
		}
	}()
	out := Streamed{Format: FormatJig}
	var ferr error
	for b := range ch {
		out.Metas = append(out.Metas, b.metas...)
		for i, f := range b.frames {
			var sp []frames.Span
			if spans {
				sp = b.spans[i]
			}
			if ferr = fn(f, sp); ferr != nil {
				break
			}
		}
		if ferr != nil {
			close(stop)
			for range ch {
			}
			break
		}
	}
	// The reader is done: ch is closed, so its fields are ours to read.
	out.Header, out.Warnings = s.Header, s.Warnings
	if ferr != nil {
		return out, ferr
	}
	return out, s.Err()
}
