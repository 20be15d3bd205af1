package frames

// NewTranscript builds a Transcript from frames that did not come from a jig
// JSONL file (an importer's output, a test's fixture). The frames are paired
// in order, exactly as ReadTranscript pairs a file's frames, so responses get
// their method and strays get their error. Seq is filled where it is zero.
func NewTranscript(h Header, metas []Meta, frames []*Frame) *Transcript {
	if h.Type == "" {
		h.Type = "header"
	}
	if h.Format == 0 {
		h.Format = TranscriptFormat
	}
	t := &Transcript{Header: h, Metas: metas, pairs: NewPairer()}
	for i, f := range frames {
		if f.Seq == 0 {
			f.Seq = int64(i + 1)
		}
		t.pairs.Add(i, f)
		t.Frames = append(t.Frames, f)
	}
	return t
}
