package lint

import (
	"encoding/xml"
	"fmt"
	"io"
)

// The JUnit XML shapes CI systems read: one test suite for the server, one
// test case for each tool and prompt, a failure for each finding on it.
type (
	junitSuites struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Name     string       `xml:"name,attr"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Suites   []junitSuite `xml:"testsuite"`
	}
	junitSuite struct {
		Name     string      `xml:"name,attr"`
		Tests    int         `xml:"tests,attr"`
		Failures int         `xml:"failures,attr"`
		Cases    []junitCase `xml:"testcase"`
	}
	junitCase struct {
		Name      string         `xml:"name,attr"`
		ClassName string         `xml:"classname,attr"`
		Failures  []junitFailure `xml:"failure"`
	}
	junitFailure struct {
		Type    string `xml:"type,attr"`
		Message string `xml:"message,attr"`
		Text    string `xml:",chardata"`
	}
)

// WriteJUnit writes the report as JUnit XML. items are every tool and
// prompt linted ("tool NAME"), so a clean one shows as a passing case.
func WriteJUnit(w io.Writer, r Report, items []string) error {
	suite := junitSuite{Name: "jig lint " + r.Server}
	index := map[string]int{}
	add := func(item string) int {
		if i, ok := index[item]; ok {
			return i
		}
		index[item] = len(suite.Cases)
		suite.Cases = append(suite.Cases, junitCase{Name: item, ClassName: "jig-lint." + r.Server})
		return index[item]
	}
	for _, it := range items {
		add(it)
	}
	for _, f := range r.Findings {
		i := add(f.Item)
		text := fmt.Sprintf("%s %s at %s\n%s\nfix: %s", f.Severity, f.Rule, f.Path, f.Message, f.Fix)
		if f.Evidence != "" {
			text += "\nseen: " + f.Evidence
		}
		suite.Cases[i].Failures = append(suite.Cases[i].Failures, junitFailure{Type: f.Rule, Message: f.Severity.String() + ": " + f.Message, Text: text})
	}
	for _, c := range suite.Cases {
		if len(c.Failures) > 0 {
			suite.Failures++
		}
	}
	suite.Tests = len(suite.Cases)
	doc := junitSuites{Name: "jig lint", Tests: suite.Tests, Failures: suite.Failures, Suites: []junitSuite{suite}}
	b, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s%s\n", xml.Header, b)
	return err
}
