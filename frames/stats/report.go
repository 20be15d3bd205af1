package stats

import (
	"math"
	"sort"
	"strings"

	"github.com/mcpjig/jig/frames/fixture"
)

// Report is a Collector's statistics as jig stats prints them.
type Report struct {
	Sessions int          `json:"sessions"`
	Tools    []ToolReport `json:"tools"`
}

// ToolReport is one tool: every call, then each argument shape.
type ToolReport struct {
	Outcomes
	Tool   string        `json:"tool"`
	Shapes []ShapeReport `json:"shapes"`
	// Schemas counts calls per tool definition seen; more than one means
	// the tool changed its schema within the recordings.
	Schemas map[string]int64 `json:"schemas,omitempty"`
	// Servers counts calls per server when more than one server (by its
	// serverInfo.name) answered calls of a tool of this name: their calls
	// are mixed in these figures.
	Servers map[string]int64 `json:"servers,omitempty"`
}

// Outcomes are a group's calls and how they ended, with latency (ms) and
// response size (bytes).
type Outcomes struct {
	Calls         int64   `json:"calls"`
	Results       int64   `json:"results"`
	ToolErrors    int64   `json:"tool_errors"`
	RPCErrors     int64   `json:"rpc_errors"`
	Unusable      int64   `json:"unusable"`
	ErrorRate     float64 `json:"error_rate"`
	ToolErrorRate float64 `json:"is_error_rate"`
	LatencyMS     Summary `json:"latency_ms"`
	SizeBytes     Summary `json:"size_bytes"`
}

// ShapeReport is one argument shape of a tool.
type ShapeReport struct {
	Outcomes
	Shape string `json:"shape"`
	// SameAnswerRate is the share of results that repeated an earlier
	// answer to other arguments (timestamps and UUIDs aside);
	// IdenticalRate the share byte-identical to an earlier result; both
	// out of the results with something in them (not an empty list).
	SameAnswerRate float64       `json:"same_answer_other_args_rate"`
	IdenticalRate  float64       `json:"identical_bytes_rate"`
	Fields         []FieldReport `json:"fields"`
	Overflow       int64         `json:"fields_overflow,omitempty"`
}

// FieldReport is one path of a shape's results.
type FieldReport struct {
	Path string `json:"path"`
	// PresentRate is the share of results holding the path.
	PresentRate float64          `json:"present_rate"`
	Types       map[string]int64 `json:"types"`
	// Items summarises the lengths of its arrays (cardinality).
	Items *Summary `json:"items,omitempty"`
	// Numbers summarises its numeric values.
	Numbers *Summary `json:"numbers,omitempty"`
	// Values are its categorical values' shares, most frequent first, and
	// their Shannon entropy in bits.
	Values  []Share  `json:"values,omitempty"`
	Entropy *float64 `json:"entropy_bits,omitempty"`
	// TrueRate is the share of its booleans that are true (a truncation
	// flag's rate).
	TrueRate *float64 `json:"true_rate,omitempty"`
	// Distinct says the field has too many distinct strings to be
	// categorical (identifiers, times, free text).
	Distinct bool `json:"high_cardinality,omitempty"`
	// AgeSeconds summarises how old its timestamps were at the response.
	AgeSeconds *Summary `json:"age_seconds,omitempty"`
	Texts      int64    `json:"texts,omitempty"`
}

// Share is one value and its share of the field's strings.
type Share struct {
	Value string  `json:"value"`
	Share float64 `json:"share"`
	Count int64   `json:"count"`
}

func outcomes(g *Group) Outcomes {
	o := Outcomes{Calls: g.Calls, Results: g.Results, ToolErrors: g.ToolErrors, RPCErrors: g.RPCErrors, Unusable: g.Unusable,
		LatencyMS: g.Latency.Summary(), SizeBytes: g.Size.Summary()}
	if g.Calls > 0 {
		o.ErrorRate = float64(g.RPCErrors) / float64(g.Calls)
		o.ToolErrorRate = float64(g.ToolErrors) / float64(g.Calls)
	}
	return o
}

// Report summarises what the collector holds; tool, when set, keeps only
// that tool.
func (c *Collector) Report(tool string) Report {
	r := Report{Sessions: c.Sessions, Tools: []ToolReport{}}
	byTool := map[string]*ToolReport{}
	for _, g := range c.Groups() {
		if tool != "" && g.Tool != tool {
			continue
		}
		tr := byTool[g.Tool]
		if tr == nil {
			all := c.tools[g.Tool]
			r.Tools = append(r.Tools, ToolReport{Tool: g.Tool, Outcomes: outcomes(all), Schemas: listedSchemas(all), Servers: namedServers(all)})
			tr = &r.Tools[len(r.Tools)-1]
			byTool[g.Tool] = tr
		}
		tr.Shapes = append(tr.Shapes, shapeReport(g))
	}
	return r
}

// namedServers is the group's calls per server when more than one named
// server answered them.
func namedServers(g *Group) map[string]int64 {
	if len(nonEmpty(g.Servers)) < 2 {
		return nil
	}
	return g.Servers
}

func listedSchemas(g *Group) map[string]int64 {
	if len(g.Schemas) < 2 {
		return nil
	}
	return g.Schemas
}

func shapeReport(g *Group) ShapeReport {
	s := ShapeReport{Outcomes: outcomes(g), Shape: g.Shape, Overflow: g.Overflow, Fields: []FieldReport{}}
	if g.Answered > 0 {
		s.SameAnswerRate = float64(g.SameAnswer) / float64(g.Answered)
		s.IdenticalRate = float64(g.IdenticalBytes) / float64(g.Answered)
	}
	for _, p := range g.order {
		s.Fields = append(s.Fields, fieldReport(g, g.Fields[p]))
	}
	return s
}

func fieldReport(g *Group, f *Field) FieldReport {
	r := FieldReport{Path: f.Path, Types: map[string]int64{}, Distinct: f.HighCardinality}
	if g.Results > 0 {
		r.PresentRate = float64(f.Present) / float64(g.Results)
	}
	for i, n := range f.Types {
		if n > 0 {
			r.Types[fixture.KindNames[i]] = n
		}
	}
	if f.Items != nil {
		s := f.Items.Summary()
		r.Items = &s
	}
	if f.Numbers != nil {
		s := f.Numbers.Summary()
		r.Numbers = &s
	}
	if f.True+f.False > 0 {
		tr := float64(f.True) / float64(f.True+f.False)
		r.TrueRate = &tr
	}
	if !f.HighCardinality && len(f.Values) > 0 {
		r.Values = shares(f.Values)
		e := entropy(r.Values)
		r.Entropy = &e
	}
	if f.Text != nil {
		r.Texts = f.Text.N
	}
	if f.Ages != nil {
		a := f.Ages.Summary()
		r.AgeSeconds = &a
	}
	return r
}

func shares(values map[string]int64) []Share {
	var total int64
	out := make([]Share, 0, len(values))
	for v, n := range values {
		out = append(out, Share{Value: v, Count: n})
		total += n
	}
	for i := range out {
		out[i].Share = float64(out[i].Count) / float64(total)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Value < out[j].Value
	})
	return out
}

func entropy(s []Share) float64 {
	e := 0.0
	for _, x := range s {
		if x.Share > 0 {
			e -= x.Share * math.Log2(x.Share)
		}
	}
	return e + 0 // never -0
}

// Interesting reports whether a field is worth a line of its own in a
// summary: an array, numbers, categorical values or a flag.
func (f FieldReport) Interesting() bool {
	return f.Items != nil || f.Numbers != nil || len(f.Values) > 0 || f.TrueRate != nil || f.Texts > 0 ||
		len(f.Types) > 1 && !strings.HasSuffix(f.Path, "#")
}
