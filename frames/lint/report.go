package lint

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/mcpjig/jig/frames"
)

// A Report is one lint run: what was linted and what was found.
type Report struct {
	Format   int       `json:"jig_lint"`
	Server   string    `json:"server"`
	Version  string    `json:"serverVersion,omitempty"`
	Tools    int       `json:"tools"`
	Prompts  int       `json:"prompts"`
	Probed   bool      `json:"probed,omitempty"`
	Findings []Finding `json:"findings"`
	Counts   Counts    `json:"counts"`
}

// Counts are the findings by severity.
type Counts struct {
	Error   int `json:"error"`
	Warning int `json:"warning"`
	Info    int `json:"info"`
}

// Count tallies findings by severity.
func Count(fs []Finding) Counts {
	var c Counts
	for _, f := range fs {
		switch f.Severity {
		case Error:
			c.Error++
		case Warning:
			c.Warning++
		case Info:
			c.Info++
		}
	}
	return c
}

// WriteText writes findings grouped by item, the worst first in each.
func WriteText(w io.Writer, r Report) error {
	var b strings.Builder
	item := ""
	for _, f := range r.Findings {
		if f.Item != item {
			if item != "" {
				b.WriteByte('\n')
			}
			item = f.Item
			b.WriteString(item + "\n")
		}
		fmt.Fprintf(&b, "  %-8s%s  %s\n", f.Severity, f.Rule, f.Path)
		fmt.Fprintf(&b, "          %s\n", f.Message)
		if f.Evidence != "" {
			fmt.Fprintf(&b, "          seen: %s\n", f.Evidence)
		}
		fmt.Fprintf(&b, "          fix: %s\n", f.Fix)
	}
	if len(r.Findings) > 0 {
		b.WriteByte('\n')
	}
	c := r.Counts
	what := fmt.Sprintf("%d tool%s, %d prompt%s", r.Tools, frames.Plural(r.Tools), r.Prompts, frames.Plural(r.Prompts))
	if r.Probed {
		what += ", probed"
	}
	if len(r.Findings) == 0 {
		fmt.Fprintf(&b, "%s: no findings (%s)\n", r.Server, what)
	} else {
		fmt.Fprintf(&b, "%s: %d finding%s: %d error%s, %d warning%s, %d info (%s)\n", r.Server, len(r.Findings), frames.Plural(len(r.Findings)),
			c.Error, frames.Plural(c.Error), c.Warning, frames.Plural(c.Warning), c.Info, what)
		b.WriteString("jig lint --list-rules says why each rule matters; --disable RULE or .jig-lint.json turns one off\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJSON writes the report as one JSON document.
func WriteJSON(w io.Writer, r Report) error {
	if r.Findings == nil {
		r.Findings = []Finding{}
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// SARIFOptions say where findings are located for code scanning: SARIF
// results need a file, and a server's interface is in the code that
// declares it, which jig does not see. URI is the file results are pinned
// to (the server's entry point, or the MCP config that names it).
type SARIFOptions struct {
	URI         string
	ToolVersion string
}

// The SARIF 2.1.0 shapes jig writes: the few a lint needs.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool             sarifTool     `json:"tool"`
		Language         string        `json:"language"`
		NewlineSequences []string      `json:"newlineSequences"`
		Results          []sarifResult `json:"results"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		InformationURI string      `json:"informationUri"`
		Version        string      `json:"version,omitempty"`
		Language       string      `json:"language"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string            `json:"id"`
		ShortDescription     sarifText         `json:"shortDescription"`
		FullDescription      sarifText         `json:"fullDescription"`
		Help                 sarifText         `json:"help"`
		DefaultConfiguration sarifRuleConfig   `json:"defaultConfiguration"`
		Properties           map[string]string `json:"properties,omitempty"`
	}
	sarifRuleConfig struct {
		Level string `json:"level"`
	}
	sarifText struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID              string            `json:"ruleId"`
		RuleIndex           int               `json:"ruleIndex"`
		Level               string            `json:"level"`
		Message             sarifText         `json:"message"`
		Locations           []sarifLocation   `json:"locations"`
		PartialFingerprints map[string]string `json:"partialFingerprints"`
	}
	sarifLocation struct {
		PhysicalLocation *sarifPhysical `json:"physicalLocation,omitempty"`
		LogicalLocations []sarifLogical `json:"logicalLocations,omitempty"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           sarifRegion   `json:"region"`
	}
	sarifArtifact struct {
		URI string `json:"uri"`
	}
	sarifRegion struct {
		StartLine int `json:"startLine"`
	}
	sarifLogical struct {
		Name               string `json:"name"`
		FullyQualifiedName string `json:"fullyQualifiedName"`
		Kind               string `json:"kind"`
	}
)

// SARIFSchema is the schema the SARIF output names.
const SARIFSchema = "https://json.schemastore.org/sarif-2.1.0.json"

// WriteSARIF writes the report as a SARIF 2.1.0 log, for GitHub code
// scanning and other SARIF viewers.
func WriteSARIF(w io.Writer, r Report, o SARIFOptions) error {
	driver := sarifDriver{Name: "jig lint", InformationURI: "https://github.com/mcpjig/jig#jig-lint", Version: o.ToolVersion, Language: "en-US"}
	index := map[string]int{}
	for _, f := range r.Findings {
		if _, ok := index[f.Rule]; ok {
			continue
		}
		rule, _ := RuleOf(f.Rule)
		index[f.Rule] = len(driver.Rules)
		driver.Rules = append(driver.Rules, sarifRule{
			ID:                   rule.ID,
			ShortDescription:     sarifText{strings.ReplaceAll(rule.ID, "-", " ")},
			FullDescription:      sarifText{rule.Why},
			Help:                 sarifText{"Fix: " + rule.Fix},
			DefaultConfiguration: sarifRuleConfig{sarifLevel(rule.Severity)},
		})
	}
	if driver.Rules == nil {
		driver.Rules = []sarifRule{}
	}
	uri := o.URI
	if uri == "" {
		uri = "mcp-server"
	}
	results := make([]sarifResult, 0, len(r.Findings))
	for _, f := range r.Findings {
		msg := f.Item + ": " + f.Message + ". Fix: " + f.Fix
		if f.Evidence != "" {
			msg += ". Seen: " + f.Evidence
		}
		sum := sha256.Sum256([]byte(r.Server + "\x00" + f.Rule + "\x00" + f.Item + "\x00" + f.Path))
		results = append(results, sarifResult{
			RuleID:    f.Rule,
			RuleIndex: index[f.Rule],
			Level:     sarifLevel(f.Severity),
			Message:   sarifText{msg},
			Locations: []sarifLocation{{
				PhysicalLocation: &sarifPhysical{ArtifactLocation: sarifArtifact{URI: uri}, Region: sarifRegion{StartLine: 1}},
				LogicalLocations: []sarifLogical{{Name: f.Item, FullyQualifiedName: f.Item + "#" + f.Path, Kind: "member"}},
			}},
			PartialFingerprints: map[string]string{"jigLint/v1": hex.EncodeToString(sum[:16])},
		})
	}
	log := sarifLog{Schema: SARIFSchema, Version: "2.1.0", Runs: []sarifRun{{Tool: sarifTool{driver}, Language: "en-US", NewlineSequences: []string{"\r\n", "\n"}, Results: results}}}
	b, err := json.MarshalIndent(log, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

func sarifLevel(s Severity) string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "note"
}
