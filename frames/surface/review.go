package surface

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/fixture"
)

// A Pending surface is a surface file's changes under review (jig review):
// the file as the report compared it and what the server listed then, so
// that each change is shown, accepted with a reason or rejected with the
// fixtures' drift, and the file written in the same set. It implements
// fixture.Attached; accepting goes through Accept, as jig surface diff
// --update does.
type Pending struct {
	path, sha   string
	pinned, now *Surface
	diff        Diff
}

// NewPending reads the surface file a report's surface check names and
// compares it with what the server listed. A file changed since the report
// (edited, another branch) or gone is an error that says so: nothing is
// reviewed or written for it.
func NewPending(rec *fixture.SurfaceRecord) (*Pending, error) {
	data, err := frames.ReadRegular(rec.File, MaxFileSize)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("%s: deleted since the report was written: its surface changes are not reviewed", rec.File)
	case err != nil:
		return nil, fmt.Errorf("%s: cannot be read: %v", rec.File, err)
	case fixture.FileSHA256(data) != rec.SHA256:
		return nil, fmt.Errorf("%s: changed since the report was written (edited, or another branch): replay again to review its surface changes; nothing written for it", rec.File)
	}
	pinned, err := Parse(data)
	if err != nil {
		return nil, &FileError{rec.File, err}
	}
	now, err := Parse(rec.Now)
	if err != nil {
		return nil, fmt.Errorf("%s: the report's surface listed: %v", rec.File, err)
	}
	return &Pending{path: rec.File, sha: rec.SHA256, pinned: pinned, now: now, diff: Compare(pinned, now)}, nil
}

// Record is what a report carries of a surface check: the file, the
// revision of it compared (its bytes' SHA-256) and the surface listed.
func Record(path string, pinnedBytes []byte, now *Surface) (*fixture.SurfaceRecord, error) {
	b, err := now.Marshal()
	if err != nil {
		return nil, err
	}
	return &fixture.SurfaceRecord{File: path, SHA256: fixture.FileSHA256(pinnedBytes), Now: b}, nil
}

func (p *Pending) File() string   { return p.path }
func (p *Pending) SHA256() string { return p.sha }

// Diff is the comparison under review.
func (p *Pending) Diff() Diff { return p.diff }

// Changes are the diff's changes as review items. An item added or removed
// whole is one difference, the item before and after.
func (p *Pending) Changes() []fixture.AttachedChange {
	out := make([]fixture.AttachedChange, 0, len(p.diff.Changes))
	for _, c := range p.diff.Changes {
		ac := fixture.AttachedChange{Key: c.Item, Title: "surface: " + c.title(), Severity: c.Severity, Differences: c.Differences,
			Why: "what a server lists is what a model reads and a client relies on; jig replay --surface " + p.path + " fails until the change is accepted into the file"}
		if len(ac.Differences) == 0 {
			noun, _ := splitItem(c.Item)
			ac.Differences = []fixture.Difference{{Path: "/" + noun, Severity: c.Severity, Kind: c.Kind, Expected: c.Before, Actual: c.After,
				Detail: c.title()}}
		}
		out = append(out, ac)
	}
	return out
}

// Accept returns the surface file with the decided changes accepted, one
// history entry per reason, each naming by.
func (p *Pending) Accept(accepted []fixture.AttachedDecision, by string, at time.Time) ([]byte, error) {
	var reasons []string
	items := map[string][]string{}
	for _, d := range accepted {
		if _, ok := items[d.Reason]; !ok {
			reasons = append(reasons, d.Reason)
		}
		items[d.Reason] = append(items[d.Reason], d.Key)
	}
	s := p.pinned
	for _, r := range reasons {
		next, err := Accept(s, p.now, items[r], r, at)
		if err != nil {
			return nil, err
		}
		next.History[len(next.History)-1].By = by
		s = next
	}
	return s.Marshal()
}
