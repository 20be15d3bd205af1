package surface

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/mcpjig/jig/frames/fixture"
)

// title is a change's headline: `tool "search_orders" changed (breaking)`.
func (c Change) title() string {
	noun, name := splitItem(c.Item)
	what := noun
	if name != "" {
		what = fmt.Sprintf("%s %q", noun, name)
	}
	switch c.Kind {
	case "removed":
		what += " is no longer listed"
		if c.RenamedTo != "" {
			what += fmt.Sprintf(" (renamed to %q?)", c.RenamedTo)
		}
	case "added":
		what += " is new"
		if c.RenamedFrom != "" {
			what += fmt.Sprintf(" (renamed from %q?)", c.RenamedFrom)
		}
	default:
		what += " changed"
	}
	return what + " (" + c.Severity.String() + ")"
}

// Summary is the diff's one-line verdict: "3 changes (2 breaking, 1 warn),
// 12 items unchanged" or "no changes, 12 items unchanged".
func (d Diff) Summary() string {
	n := map[fixture.Severity]int{}
	for _, c := range d.Changes {
		n[c.Severity]++
	}
	if len(d.Changes) == 0 {
		return fmt.Sprintf("no changes, %d items unchanged", d.Unchanged)
	}
	var parts []string
	for _, s := range []fixture.Severity{fixture.Breaking, fixture.Warn} {
		if n[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[s], s))
		}
	}
	noun := "changes"
	if len(d.Changes) == 1 {
		noun = "change"
	}
	return fmt.Sprintf("%d %s (%s), %d items unchanged", len(d.Changes), noun, strings.Join(parts, ", "), d.Unchanged)
}

// WriteText writes the diff for people: each change once with its
// classified differences, the notes, then the summary.
func (d Diff) WriteText(w io.Writer, showCosmetic bool) error {
	var b strings.Builder
	for _, c := range d.Changes {
		b.WriteString(c.title() + "\n")
		if c.Kind == "changed" {
			fixture.WriteDifferences(&b, c.Differences, showCosmetic)
		}
		b.WriteByte('\n')
	}
	if showCosmetic {
		for _, c := range d.Cosmetic {
			b.WriteString(c.title() + "\n")
			fixture.WriteDifferences(&b, c.Differences, true)
			b.WriteByte('\n')
		}
	} else if len(d.Cosmetic) > 0 {
		fmt.Fprintf(&b, "%d items differ only cosmetically (--show-cosmetic lists them)\n", len(d.Cosmetic))
	}
	for _, n := range d.Notes {
		b.WriteString("note: " + n + "\n")
	}
	b.WriteString(d.Summary() + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJSON writes the diff as one JSON document.
func (d Diff) WriteJSON(w io.Writer) error {
	doc := struct {
		Kind    int    `json:"jig_surface_diff"`
		Summary string `json:"summary"`
		Worst   string `json:"worst"`
		Diff
	}{1, d.Summary(), d.Worst().String(), d}
	if doc.Changes == nil {
		doc.Changes = []Change{}
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// Items are the names of a diff's changes, as Accept takes them.
func (d Diff) Items() []string {
	out := make([]string, 0, len(d.Changes))
	for _, c := range d.Changes {
		out = append(out, c.Item)
	}
	return out
}

// Accept returns pinned with the named items of now accepted into it (a
// changed tool's new definition, a new resource, a removed prompt gone,
// the new instructions...) and an entry in its history saying when, why
// and what. Items not named stay as pinned, so changes can be accepted one
// at a time; an item that is not a change of now is an error.
func Accept(pinned, now *Surface, items []string, reason string, at time.Time) (*Surface, error) {
	if strings.TrimSpace(reason) == "" {
		return nil, fmt.Errorf("accepting surface changes needs a reason: reviewers read it in the file's history")
	}
	out := *pinned
	for _, l := range Lists {
		*out.list(l.Name) = slices.Clone(*pinned.list(l.Name))
	}
	out.History = slices.Clone(pinned.History)
	changed := Compare(pinned, now)
	for _, item := range items {
		if !slices.Contains(changed.Items(), item) {
			return nil, fmt.Errorf("%q is not a change between the two surfaces (changes: %s)", item, strings.Join(changed.Items(), ", "))
		}
		out.accept(now, item)
	}
	out.Server, out.ProtocolVersion, out.ClientCapabilities = now.Server, now.ProtocolVersion, now.ClientCapabilities
	out.History = append(out.History, Entry{At: at.UTC().Format(time.RFC3339), Reason: reason, Accepted: slices.Clone(items)})
	return &out, nil
}

// accept copies one item of now into s.
func (s *Surface) accept(now *Surface, item string) {
	switch {
	case item == "capabilities":
		s.Capabilities = now.Capabilities
		return
	case item == "instructions":
		s.Instructions = now.Instructions
		return
	case strings.HasPrefix(item, "unlisted "):
		method := strings.TrimPrefix(item, "unlisted ")
		if s.Unlisted == nil {
			s.Unlisted = map[string]string{}
		}
		if now.Unlisted[method] == "" {
			delete(s.Unlisted, method)
		} else {
			s.Unlisted[method] = now.Unlisted[method]
		}
		return
	}
	for _, l := range Lists {
		id, ok := strings.CutPrefix(item, l.Noun+" ")
		if !ok || (l.Noun == "resource" && strings.HasPrefix(item, "resource template ")) {
			continue
		}
		list := s.list(l.Name)
		*list = slices.DeleteFunc(*list, func(it json.RawMessage) bool { return Identity(it, l.Key) == id })
		for _, it := range *now.list(l.Name) {
			if Identity(it, l.Key) == id {
				*list = append(*list, it)
			}
		}
		return
	}
}

// splitItem splits an item's name into its noun and its identity:
// "resource template file:///{path}" is ("resource template", "file:///{path}").
func splitItem(item string) (noun, name string) {
	for i := len(Lists) - 1; i >= 0; i-- {
		if id, ok := strings.CutPrefix(item, Lists[i].Noun+" "); ok {
			return Lists[i].Noun, id
		}
	}
	return item, ""
}
