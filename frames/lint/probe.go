package lint

import (
	"encoding/json"
	"regexp"
	"strings"
	"sync"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/surface"
)

// A ProbeTool is one tool jig lint --probe may call, and what to try on
// it: the static rules decide which arguments are dates, limits and
// search keys, so a probe asks only what a finding could come from.
type ProbeTool struct {
	Name     string
	ReadOnly bool
	// Required are the arguments a call must carry, each with a value
	// from the schema or its description when there is one.
	Required []ProbeArg
	// Dates are bare-string date arguments; Limits numeric caps without a
	// maximum; Matches search keys whose matching nobody documented.
	Dates, Limits, Matches []string
	OutputSchema           json.RawMessage // nil when the tool declares none
}

// A ProbeArg is a required argument and, if Known, a value for it.
type ProbeArg struct {
	Name  string
	Type  string
	Value any
	Known bool
}

// ProbePlan lists what jig lint --probe may call on a surface.
func ProbePlan(s *surface.Surface) []ProbeTool {
	var out []ProbeTool
	for _, t := range parseTools(s.Tools) {
		if t.input == nil || t.name == "" {
			continue
		}
		ro, _ := t.annotations["readOnlyHint"].(bool)
		pt := ProbeTool{Name: t.name, ReadOnly: ro}
		if t.output != nil {
			pt.OutputSchema, _ = json.Marshal(t.output)
		}
		documented := mentionsAny(t.text(), matchWords)
		for _, p := range t.params {
			if p.schema == nil {
				continue
			}
			words := frames.NameWords(p.name)
			desc := strings.ToLower(str(p.schema, "description"))
			free := isFreeString(p.schema)
			switch {
			case free && isDateLike(p.name, words, desc):
				pt.Dates = append(pt.Dates, p.name)
			case (hasType(p.schema, "integer") || hasType(p.schema, "number")) && isLimitLike(p.name, words) && p.schema["maximum"] == nil:
				pt.Limits = append(pt.Limits, p.name)
			case free && !documented && isMatchLike(t, p, words, desc):
				pt.Matches = append(pt.Matches, p.name)
			}
			if p.required {
				v, ok := exampleValue(p.schema)
				pt.Required = append(pt.Required, ProbeArg{Name: p.name, Type: firstType(p.schema), Value: v, Known: ok})
			}
		}
		out = append(out, pt)
	}
	return out
}

func firstType(s map[string]any) string {
	if t := types(s); len(t) > 0 {
		return t[0]
	}
	return ""
}

var exampleRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:e\.g\.,?|for example,?|such as|like)\s*["'` + "`" + `]([^"'` + "`" + `]{1,80})["'` + "`" + `]`)
})

// exampleValue is a value the schema itself offers for an argument: its
// default, const, first enum value or example, an example its description
// quotes, or one its type and format make certain.
func exampleValue(s map[string]any) (any, bool) {
	if v, ok := s["default"]; ok {
		return v, true
	}
	if v, ok := s["const"]; ok {
		return v, true
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		return e[0], true
	}
	if e, ok := s["examples"].([]any); ok && len(e) > 0 {
		return e[0], true
	}
	if m := exampleRe().FindStringSubmatch(str(s, "description")); m != nil && hasType(s, "string") {
		return m[1], true
	}
	switch {
	case hasType(s, "integer"), hasType(s, "number"):
		if v, ok := s["minimum"].(float64); ok {
			return v, true
		}
		return 1, true
	case hasType(s, "boolean"):
		return false, true
	case str(s, "format") == "date":
		return "2026-01-01", true
	case str(s, "format") == "date-time":
		return "2026-01-01T00:00:00Z", true
	}
	return nil, false
}
