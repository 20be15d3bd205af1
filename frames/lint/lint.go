// Package lint finds the faults in a server's interface that a model trips
// over before any transcript shows them: a date typed as a bare string, a
// cap the description never mentions, a matching rule nobody explained, two
// tools a model confuses, annotations that contradict a tool's name, and
// schemas that common clients mishandle. The schema and description are the
// model's input: these faults live there, not in the handler.
//
// Lint reads a surface (frames/surface) and, when jig probed the server
// (session/lintprobe, which ProbePlan tells what to try), the evidence its
// calls gave. Each Finding names its rule,
// a severity, the item and JSON Pointer it is about, what is wrong there,
// and how to fix it; Rules is the catalogue, with the one-line why of each.
package lint

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/mcpjig/jig/frames/surface"
)

// Severity is how much a finding matters. The order is the order of
// severity.
type Severity int

const (
	Info Severity = iota + 1
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return "none"
}

// ParseSeverity reads "info", "warning" or "error".
func ParseSeverity(s string) (Severity, error) {
	for _, v := range []Severity{Info, Warning, Error} {
		if v.String() == s {
			return v, nil
		}
	}
	return 0, fmt.Errorf("unknown severity %q (use info, warning or error)", s)
}

// MarshalText makes severities read as words in JSON.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText is the inverse of MarshalText.
func (s *Severity) UnmarshalText(b []byte) error {
	v, err := ParseSeverity(string(b))
	*s = v
	return err
}

// A Finding is one fault in the interface.
type Finding struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	// Item is what the finding is about, as a surface diff names it: "tool
	// search_orders", "prompt triage_report", or "server".
	Item string `json:"item"`
	// Path is a JSON Pointer into the item: "/inputSchema/properties/since".
	Path    string `json:"path"`
	Message string `json:"message"`
	Fix     string `json:"fix"`
	// Evidence is what a probe call showed, when the finding comes from one:
	// "since='last month' accepted, 0 results, no error".
	Evidence string `json:"evidence,omitempty"`
}

// Tool is the tool a finding is about, or "".
func (f Finding) Tool() string {
	name, _ := strings.CutPrefix(f.Item, "tool ")
	if name == f.Item {
		return ""
	}
	return name
}

// Config is what a project says about the rules: a small JSON file
// (.jig-lint.json) and --disable.
type Config struct {
	// Disable turns rules off by id.
	Disable []string `json:"disable,omitempty"`
	// Severity overrides rules' severities: {"annotations-missing": "error"}.
	Severity map[string]Severity `json:"severity,omitempty"`
	// Ignore drops findings of a rule on one item (and, if given, below one
	// path): a false positive someone read and decided about.
	Ignore []Ignore `json:"ignore,omitempty"`
	// MaxDescriptionTokens is the size above which a description costs too
	// much of every prompt the tools are listed in (default 500).
	MaxDescriptionTokens int `json:"max_description_tokens,omitempty"`
}

// An Ignore drops the findings of Rule on Item under Path; a reason says
// why, for whoever reads the file next.
type Ignore struct {
	Rule   string `json:"rule"`
	Item   string `json:"item"`
	Path   string `json:"path,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// ParseConfig reads a config file's contents, checking every rule id.
func ParseConfig(data []byte) (Config, error) {
	var c Config
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return c, fmt.Errorf("not a lint config: %v (keys: disable, severity, ignore, max_description_tokens)", err)
	}
	for _, id := range c.Disable {
		if err := KnownRule(id); err != nil {
			return c, fmt.Errorf("disable: %v", err)
		}
	}
	for id := range c.Severity {
		if err := KnownRule(id); err != nil {
			return c, fmt.Errorf("severity: %v", err)
		}
	}
	for i, ig := range c.Ignore {
		if err := KnownRule(ig.Rule); err != nil {
			return c, fmt.Errorf("ignore[%d]: %v", i, err)
		}
		if ig.Item == "" {
			return c, fmt.Errorf("ignore[%d]: give the item it is about (\"tool search_orders\")", i)
		}
	}
	return c, nil
}

// KnownRule returns an error naming the closest rules when id is not one.
func KnownRule(id string) error {
	if _, ok := ruleByID()[id]; ok {
		return nil
	}
	var near []string
	for _, r := range Rules {
		if strings.Contains(r.ID, id) || strings.Contains(id, r.ID) || distance(id, r.ID, 3) <= 3 {
			near = append(near, r.ID)
		}
	}
	if len(near) > 0 {
		return fmt.Errorf("unknown rule %q (did you mean %s?)", id, strings.Join(near, ", "))
	}
	return fmt.Errorf("unknown rule %q (jig lint --list-rules lists them)", id)
}

// Lint checks a surface and, when given, the evidence of probe calls.
func Lint(s *surface.Surface, cfg Config, evidence ...Finding) []Finding {
	if cfg.MaxDescriptionTokens <= 0 {
		cfg.MaxDescriptionTokens = defaultMaxDescriptionTokens
	}
	tools := parseTools(s.Tools)
	var out []Finding
	add := func(f Finding) { out = append(out, f) }
	for _, t := range tools {
		checkTool(t, cfg, add)
	}
	checkNames(tools, add)
	checkDescriptions(tools, add)
	checkPrompts(s.Prompts, add)
	out = append(out, evidence...)
	return cfg.apply(out)
}

// apply drops disabled and ignored findings, applies severity overrides
// and sorts: by item as listed, then rule, then path.
func (c Config) apply(fs []Finding) []Finding {
	out := fs[:0]
	for _, f := range fs {
		if slices.Contains(c.Disable, f.Rule) || c.ignored(f) {
			continue
		}
		if f.Severity == 0 {
			f.Severity = ruleByID()[f.Rule].Severity
		}
		if s, ok := c.Severity[f.Rule]; ok {
			f.Severity = s
		}
		out = append(out, f)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Item != b.Item {
			return itemLess(a.Item, b.Item)
		}
		if a.Severity != b.Severity {
			return a.Severity > b.Severity
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		return a.Path < b.Path
	})
	return out
}

// itemLess orders items: the server first, then tools, prompts, resources,
// each by name.
func itemLess(a, b string) bool {
	rank := func(s string) int {
		for i, p := range []string{"server", "tool ", "prompt ", "resource"} {
			if strings.HasPrefix(s, p) {
				return i
			}
		}
		return 9
	}
	if ra, rb := rank(a), rank(b); ra != rb {
		return ra < rb
	}
	return a < b
}

func (c Config) ignored(f Finding) bool {
	for _, ig := range c.Ignore {
		if ig.Rule == f.Rule && ig.Item == f.Item && (ig.Path == "" || f.Path == ig.Path || strings.HasPrefix(f.Path, ig.Path+"/")) {
			return true
		}
	}
	return false
}

// Items names every tool and prompt of a surface as findings name them
// ("tool search_orders"), in the order they are listed.
func Items(s *surface.Surface) []string {
	var out []string
	for _, l := range []struct {
		raws       []json.RawMessage
		noun, name string
	}{{s.Tools, "tool ", "name"}, {s.Prompts, "prompt ", "name"}} {
		for _, raw := range l.raws {
			out = append(out, l.noun+surface.Identity(raw, l.name))
		}
	}
	return out
}

// Worst is the highest severity among findings.
func Worst(fs []Finding) Severity {
	var w Severity
	for _, f := range fs {
		w = max(w, f.Severity)
	}
	return w
}
