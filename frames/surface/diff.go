package surface

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpjig/jig/frames/fixture"
)

// A Change is one item that differs between two surfaces: a tool, resource,
// resource template or prompt added, removed or changed, or the server's
// capabilities, instructions or lists.
type Change struct {
	// Item names what changed as History and Accept name it: "tool
	// search_orders", "resource demo://readme", "capabilities",
	// "instructions", "unlisted".
	Item     string           `json:"item"`
	Kind     string           `json:"kind"` // "added", "removed" or "changed"
	Severity fixture.Severity `json:"severity"`
	// RenamedTo is a removed tool's likely new name; RenamedFrom is set on
	// that new tool.
	RenamedTo   string `json:"renamed_to,omitempty"`
	RenamedFrom string `json:"renamed_from,omitempty"`
	// Differences are a changed item's differences, classified for tools
	// (fixture.CompareTool), with paths under "/tool", "/resource", ...
	Differences []fixture.Difference `json:"differences,omitempty"`
	// Before and After are the item as it was and is (nil: absent).
	Before json.RawMessage `json:"before,omitempty"`
	After  json.RawMessage `json:"after,omitempty"`
}

// A Diff is what changed between a pinned surface and the current one.
type Diff struct {
	Changes []Change `json:"changes"`
	// Notes are differences that are context, not changes: another server
	// version, protocol version or client capabilities.
	Notes []string `json:"notes,omitempty"`
	// Unchanged counts the items that mean the same on both sides;
	// Cosmetic are those of them spelled differently (key order, a schema
	// respelled).
	Unchanged int      `json:"unchanged"`
	Cosmetic  []Change `json:"cosmetic,omitempty"`
}

// Worst is the highest severity among the changes.
func (d Diff) Worst() fixture.Severity {
	var w fixture.Severity
	for _, c := range d.Changes {
		w = max(w, c.Severity)
	}
	return w
}

// prefixes are the difference path prefixes of each list's items.
var prefixes = map[string]string{"tools": "/tool", "resources": "/resource", "resourceTemplates": "/resourceTemplate", "prompts": "/prompt"}

// Compare compares the pinned surface with the current one.
func Compare(pinned, now *Surface) Diff {
	var d Diff
	d.Notes = notes(pinned, now)
	for _, l := range Lists {
		d.list(l.Name, l.Key, l.Noun, *pinned.list(l.Name), *now.list(l.Name))
	}
	d.document("capabilities", "/capabilities", pinned.Capabilities, now.Capabilities)
	d.text("instructions", pinned.Instructions, now.Instructions)
	d.unlisted(pinned.Unlisted, now.Unlisted)
	return d
}

func notes(pinned, now *Surface) []string {
	var out []string
	if pinned.Server.Name != now.Server.Name {
		out = append(out, fmt.Sprintf("server name %q → %q", pinned.Server.Name, now.Server.Name))
	}
	if pinned.Server.Version != now.Server.Version {
		out = append(out, fmt.Sprintf("server version %q → %q", pinned.Server.Version, now.Server.Version))
	}
	if pinned.ProtocolVersion != now.ProtocolVersion && pinned.ProtocolVersion != "" && now.ProtocolVersion != "" {
		out = append(out, fmt.Sprintf("protocol %s → %s", pinned.ProtocolVersion, now.ProtocolVersion))
	}
	if !slices.Equal(sortedCopy(pinned.ClientCapabilities), sortedCopy(now.ClientCapabilities)) {
		out = append(out, fmt.Sprintf("listed declaring client capabilities [%s], now [%s]: some servers list tools by them",
			strings.Join(pinned.ClientCapabilities, ", "), strings.Join(now.ClientCapabilities, ", ")))
	}
	return out
}

func sortedCopy(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}

// list compares one list by identity.
func (d *Diff) list(name, key, noun string, pinned, now []json.RawMessage) {
	before, order := index(pinned, key)
	after, newOrder := index(now, key)
	var removed, added []string
	for _, id := range order {
		a, ok := after[id]
		if !ok {
			removed = append(removed, id)
			continue
		}
		d.item(name, noun+" "+id, before[id], a)
	}
	for _, id := range newOrder {
		if _, ok := before[id]; !ok {
			added = append(added, id)
		}
	}
	renames := map[string]string{}
	if name == "tools" && len(removed) > 0 && len(added) > 0 {
		var listed []json.RawMessage
		for _, id := range added {
			listed = append(listed, after[id])
		}
		for _, id := range removed {
			if to := fixture.RenameCandidate(before[id], listed); to != "" {
				renames[id] = to
			}
		}
	}
	for _, id := range removed {
		d.Changes = append(d.Changes, Change{Item: noun + " " + id, Kind: "removed", Severity: fixture.Breaking,
			RenamedTo: renames[id], Before: before[id]})
	}
	for _, id := range added {
		c := Change{Item: noun + " " + id, Kind: "added", Severity: fixture.Warn, After: after[id]}
		for _, from := range removed {
			if renames[from] == id && c.RenamedFrom == "" {
				c.RenamedFrom = from
			}
		}
		d.Changes = append(d.Changes, c)
	}
}

// index keys a list's items by identity, keeping the order.
func index(items []json.RawMessage, key string) (map[string]json.RawMessage, []string) {
	m := make(map[string]json.RawMessage, len(items))
	order := make([]string, 0, len(items))
	for _, it := range items {
		id := Identity(it, key)
		if _, dup := m[id]; dup {
			continue
		}
		m[id] = it
		order = append(order, id)
	}
	return m, order
}

// item compares one item present on both sides.
func (d *Diff) item(list, item string, before, after json.RawMessage) {
	if bytes.Equal(before, after) {
		d.Unchanged++
		return
	}
	var diffs []fixture.Difference
	if list == "tools" {
		diffs = fixture.CompareTool(before, after)
	} else {
		diffs = fixture.CompareItem(prefixes[list], before, after)
	}
	if list == "prompts" {
		promptRequired(diffs, after)
	}
	d.add(item, diffs, before, after)
}

// promptRequired makes a prompt argument that became required breaking: a
// prompts/get without it now fails.
func promptRequired(diffs []fixture.Difference, after json.RawMessage) {
	var p struct {
		Arguments []struct {
			Name string `json:"name"`
		} `json:"arguments"`
	}
	json.Unmarshal(after, &p)
	for i, x := range diffs {
		var n int
		if _, err := fmt.Sscanf(x.Path, "/prompt/arguments/%d/required", &n); err != nil || string(x.Actual) != "true" || n >= len(p.Arguments) {
			continue
		}
		diffs[i].Severity = fixture.Breaking
		diffs[i].Detail = fmt.Sprintf("argument %q is now required: prompts/get without it fails", p.Arguments[n].Name)
	}
}

// add records a changed item, or counts it unchanged when nothing but
// cosmetics differ.
func (d *Diff) add(item string, diffs []fixture.Difference, before, after json.RawMessage) {
	var worst fixture.Severity
	for _, x := range diffs {
		worst = max(worst, x.Severity)
	}
	if worst <= fixture.Cosmetic {
		d.Unchanged++
		if worst == fixture.Cosmetic {
			d.Cosmetic = append(d.Cosmetic, Change{Item: item, Kind: "changed", Severity: worst, Differences: diffs})
		}
		return
	}
	d.Changes = append(d.Changes, Change{Item: item, Kind: "changed", Severity: worst, Differences: diffs, Before: before, After: after})
}

// document compares a JSON member of the surface itself (capabilities).
func (d *Diff) document(item, prefix string, before, after json.RawMessage) {
	switch {
	case len(before) == 0 && len(after) == 0:
		return
	case len(before) == 0:
		before = json.RawMessage("{}")
	case len(after) == 0:
		after = json.RawMessage("{}")
	}
	if bytes.Equal(before, after) {
		d.Unchanged++
		return
	}
	diffs := fixture.CompareItem(prefix, before, after)
	d.add(item, diffs, before, after)
}

// text compares the instructions, which a client may put before the model
// as they are: any change is breaking.
func (d *Diff) text(item, before, after string) {
	if before == after {
		if before != "" {
			d.Unchanged++
		}
		return
	}
	b, _ := json.Marshal(before)
	a, _ := json.Marshal(after)
	c := Change{Item: item, Kind: "changed", Severity: fixture.Breaking, Before: b, After: a,
		Differences: []fixture.Difference{{Path: "/" + item, Severity: fixture.Breaking, Kind: fixture.KindChanged,
			Expected: b, Actual: a, Detail: "the server's instructions changed: clients put them before the model"}}}
	switch {
	case before == "":
		c.Kind, c.Before = "added", nil
		c.Differences[0].Expected = nil
	case after == "":
		c.Kind, c.After = "removed", nil
		c.Differences[0].Actual = nil
	}
	d.Changes = append(d.Changes, c)
}

// unlisted reports a list the server stopped (or started) giving.
func (d *Diff) unlisted(before, after map[string]string) {
	for _, l := range Lists {
		method := l.Name + "/list"
		if l.Name == "resourceTemplates" {
			method = "resources/templates/list"
		}
		b, a := before[method], after[method]
		if b == a {
			continue
		}
		c := Change{Item: "unlisted " + method, Kind: "changed", Severity: fixture.Breaking}
		switch {
		case a == "":
			c.Kind, c.Severity = "removed", fixture.Warn
			c.Differences = []fixture.Difference{{Path: "/unlisted/" + method, Severity: fixture.Warn, Kind: fixture.KindRemoved,
				Detail: method + " answers again (it failed when pinned: " + b + ")"}}
		default:
			c.Differences = []fixture.Difference{{Path: "/unlisted/" + method, Severity: fixture.Breaking, Kind: fixture.KindChanged,
				Detail: method + " fails now: " + a}}
		}
		d.Changes = append(d.Changes, c)
	}
}
