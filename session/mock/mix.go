package mock

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/mcpjig/jig/frames"
)

// An Origin is a server the book's sources were recorded from: its name and
// version, and the files that say so.
type Origin struct {
	Name, Version string
	Sources       []string
}

// origin notes the server a source was recorded from.
func (b *Book) origin(name, version, source string) {
	if name == "" {
		return
	}
	for i := range b.origins {
		o := &b.origins[i]
		if o.Name == name && o.Version == version {
			if o.Sources[len(o.Sources)-1] != source {
				o.Sources = append(o.Sources, source)
			}
			return
		}
	}
	b.origins = append(b.origins, Origin{Name: name, Version: version, Sources: []string{source}})
}

// Origins are the servers the book's sources were recorded from, in the
// order first read.
func (b *Book) Origins() []Origin { return b.origins }

// Mixed says whether the sources were recorded from servers of different
// names: the mock answers as one of them (the first source's handshake)
// and lists one tool list, so a client would see tools answered that are
// not listed, under a name that is not theirs.
func (b *Book) Mixed() bool {
	for _, o := range b.origins {
		if o.Name != b.origins[0].Name {
			return true
		}
	}
	return false
}

// String is "jig-demo 1.0.0 (fm/echo.json and 6 more)".
func (o Origin) String() string {
	who := strings.TrimSpace(o.Name + " " + o.Version)
	where := o.Sources[0]
	if n := len(o.Sources) - 1; n > 0 {
		where += fmt.Sprintf(" and %d more", n)
	}
	return who + " (" + where + ")"
}

// ServedSurface says which identity and which tool list a mix of servers
// is served with, and every tool the mock answers: lines for the user.
func (b *Book) ServedSurface() []string {
	var who []string
	for _, o := range b.origins {
		who = append(who, o.String())
	}
	lines := []string{"the sources were recorded from different servers: " + strings.Join(who, ", ")}
	lines = append(lines, fmt.Sprintf("the handshake (name, version, capabilities) is %s %s's, the first source's", b.face.name, b.face.version))
	listed, from := b.listedTools()
	answered := b.answeredTools()
	var unlisted []string
	for _, name := range answered {
		if !listed[name] {
			unlisted = append(unlisted, name)
		}
	}
	line := fmt.Sprintf("tools/list serves %s (%s)", from, frames.Count(len(listed), "tool"))
	if len(unlisted) > 0 {
		line += ", which does not list " + strings.Join(unlisted, ", ") + ": answered all the same"
	}
	lines = append(lines, line)
	if len(answered) > 0 {
		lines = append(lines, "tools answered: "+strings.Join(answered, ", "))
	}
	return lines
}

// listedTools are the names tools/list serves, and what it serves.
func (b *Book) listedTools() (map[string]bool, string) {
	names := map[string]bool{}
	if exs := answered(b.byMethod["tools/list"]); len(exs) > 0 {
		for _, ex := range exs {
			if ex.Reply == nil {
				continue
			}
			var r struct {
				Result struct {
					Tools []struct {
						Name string `json:"name"`
					} `json:"tools"`
				} `json:"result"`
			}
			_ = json.Unmarshal(ex.Reply.raw, &r)
			for _, t := range r.Result.Tools {
				names[t.Name] = true
			}
			return names, "the recorded list of " + ex.Source
		}
	}
	for name := range b.toolNames {
		names[name] = true
	}
	return names, "the fixtures' pinned tool definitions"
}

// answeredTools are the tools some recorded call answers, sorted.
func (b *Book) answeredTools() []string {
	var out []string
	for _, ex := range answered(b.byMethod["tools/call"]) {
		out = append(out, ex.Name)
	}
	sort.Strings(out)
	return dedupe(out)
}

func dedupe(sorted []string) []string {
	var out []string
	for _, s := range sorted {
		if s != "" && (len(out) == 0 || s != out[len(out)-1]) {
			out = append(out, s)
		}
	}
	return out
}
