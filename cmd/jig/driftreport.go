package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/stats"
)

// parseReports reads --report values: json=FILE, junit=FILE.
func parseReports(specs []string) (map[string]string, error) {
	out := map[string]string{}
	for _, s := range specs {
		kind, path, ok := strings.Cut(s, "=")
		if !ok || path == "" || kind != "json" && kind != "junit" {
			return nil, usageErr("--report %q: want json=FILE or junit=FILE", s)
		}
		if err := checkOutput("--report", path, func(p string) string { return "--report " + kind + "=" + p }, "drift."+strings.Replace(kind, "junit", "xml", 1), false, false); err != nil {
			return nil, err
		}
		out[kind] = path
	}
	return out, nil
}

func writeReports(reports map[string]string, out driftOutput) error {
	for kind, path := range reports {
		f, err := frames.CreatePrivate(path)
		if err != nil {
			return usageErr("--report %s=%s: %v", kind, path, err)
		}
		if kind == "json" {
			enc := json.NewEncoder(f)
			enc.SetIndent("", "  ")
			err = enc.Encode(out)
		} else {
			err = writeDriftJUnit(f, out)
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("--report %s=%s: %w", kind, path, err)
		}
	}
	return nil
}

type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
	Output    string        `xml:"system-out,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// writeDriftJUnit writes one test case per group compared (a failure when
// it drifted, skipped when it had not enough data) and one per gate (a
// failure when it failed, or had not enough data and does not allow it).
func writeDriftJUnit(w io.Writer, out driftOutput) error {
	drift := junitSuite{Name: "jig drift"}
	for _, g := range out.Drift.Groups {
		c := junitCase{Name: g.Tool + " " + g.Shape, ClassName: "drift." + g.Tool}
		var lines []string
		for _, f := range g.Findings {
			if f.Verdict == stats.Drift {
				lines = append(lines, fmt.Sprintf("%s %s: %s", f.Signal, f.Path, f.Detail))
			}
		}
		switch g.Verdict {
		case stats.Drift:
			c.Failure = &junitMessage{Message: fmt.Sprintf("%d signals drifted", len(lines)), Text: strings.Join(lines, "\n")}
			drift.Failures++
		case stats.NotEnough:
			c.Skipped = &junitMessage{Message: "not enough data: " + g.Note}
			drift.Skipped++
		}
		drift.Cases = append(drift.Cases, c)
	}
	drift.Tests = len(drift.Cases)
	doc := junitSuites{Suites: []junitSuite{drift}}
	if out.Gates != nil {
		gs := junitSuite{Name: "jig drift gates"}
		for _, r := range out.Gates.Results {
			c := junitCase{Name: r.Tool + " " + r.Metric + " " + r.Threshold, ClassName: "gate." + r.Tool, Output: r.Detail}
			switch {
			case r.Outcome == stats.GateFail:
				c.Failure = &junitMessage{Message: "gate failed: " + r.Detail}
				gs.Failures++
			case r.Outcome == stats.GateNotEnough && !r.Allowed:
				c.Failure = &junitMessage{Message: "not enough data (the gate does not pass without it): " + r.Detail}
				gs.Failures++
			case r.Outcome == stats.GateNotEnough:
				c.Skipped = &junitMessage{Message: "not enough data, which this gate allows: " + r.Detail}
				gs.Skipped++
			}
			gs.Cases = append(gs.Cases, c)
		}
		gs.Tests = len(gs.Cases)
		doc.Suites = append(doc.Suites, gs)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func printGates(w io.Writer, r stats.GateReport) {
	for _, g := range r.Results {
		out := strings.ToUpper(g.Outcome)
		if g.Outcome == stats.GateNotEnough && g.Allowed {
			out += " (allowed)"
		}
		shape := ""
		if g.Shape != "" {
			shape = " [" + g.Shape + "]"
		}
		fmt.Fprintf(w, "gate %s %s %s%s: %s: %s\n", g.Tool, g.Metric, g.Threshold, shape, out, g.Detail)
	}
	fmt.Fprintf(w, "%d gates passed, %d failed, %d had not enough data", r.Pass, r.Fail, r.NotEnough)
	if r.NoTool > 0 {
		fmt.Fprintf(w, ", %d named no tool called on either side", r.NoTool)
	}
	if r.NoPath > 0 {
		fmt.Fprintf(w, ", %d named a path no call has", r.NoPath)
	}
	fmt.Fprintln(w)
}
