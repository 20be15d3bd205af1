package main

import (
	"encoding/json"
	"io"
	"os"
	"strings"
)

// evidenceAt says what evidence the file at path holds — "a fixture
// (scenario \"x\")", "a recording", "a surface file" — or "" when it holds
// none of them (or cannot be read): a report, --frames or lint's output
// replaces what jig wrote there before, never evidence it reads. It reads
// the file's first members only.
func evidenceAt(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	dec := json.NewDecoder(io.LimitReader(f, 64<<10))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return ""
	}
	for range 2 {
		k, err := dec.Token()
		key, ok := k.(string)
		if err != nil || !ok {
			return ""
		}
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return ""
		}
		switch key {
		case "jig_surface":
			return "a surface file (jig surface save)"
		case "type":
			if string(v) == `"header"` {
				return "a recording"
			}
			return ""
		case "scenario":
			return "a fixture (scenario " + strings.TrimSpace(string(v)) + ")"
		case "format":
			continue // a fixture's first member; its scenario follows
		}
		return ""
	}
	return ""
}
