package main

import (
	"strings"
	"testing"
)

// TestNonFiniteLimitsAreRefused: a contract's max-age of "NaNd", "Infd" or
// more days than a duration holds, a range bound past float64, and a gate's
// threshold of NaN or Inf, and YAML's .nan and .inf, are exit 2 naming the file, the tool and the
// rule or metric. strconv parses NaN and Inf: the max-ages became a
// negative maximum age that every fresh response broke, <NaN failed
// whatever was measured and <Inf passed whatever was.
func TestNonFiniteLimitsAreRefused(t *testing.T) {
	rec := recordTraffic(t, 1, 1, 40)
	for _, c := range []struct{ value, want string }{
		{`"NaNd"`, `"NaNd" is not a number of days`},
		{`"Infd"`, `"Infd" is not a number of days`},
		{`"1e9d"`, `"1e9d" is not a number of days`},
	} {
		f := tempFile(t, "c.yaml", "tools:\n  search_orders:\n    rules:\n      - {rule: max-age, path: /structuredContent/generated_at, value: "+c.value+"}\n")
		code, _, errOut := jig(t, "", "check", f, rec)
		if code != exitUsage || !strings.Contains(errOut, "c.yaml: tools.search_orders.rules[0] (rule max-age)") || !strings.Contains(errOut, c.want) {
			t.Errorf("max-age %s: exit %d, want 2 naming the file, tool and rule:\n%s", c.value, code, errOut)
		}
	}
	f := tempFile(t, "c.json", `{"tools":{"search_orders":{"rules":[{"rule":"range","path":"/structuredContent/count","value":{"min":1e400}}]}}}`)
	if code, _, errOut := jig(t, "", "check", f, rec); code != exitUsage || !strings.Contains(errOut, "min 1e400 is beyond a float64's range") {
		t.Errorf("range min 1e400: exit %d:\n%s", code, errOut)
	}
	for _, v := range []string{".nan", ".inf", "-.inf"} {
		// encoding/json refused them without saying where ("json: unsupported value: NaN").
		f := tempFile(t, "c.yaml", "tools:\n  search_orders:\n    rules:\n      - {rule: range, path: /structuredContent/count, value: {min: "+v+"}}\n")
		if code, _, errOut := jig(t, "", "check", f, rec); code != exitUsage || !strings.Contains(errOut, "c.yaml: tools.search_orders.rules[0].value.min: ") || !strings.Contains(errOut, "is not a number a contract can hold") {
			t.Errorf("YAML range min %s: exit %d:\n%s", v, code, errOut)
		}
	}
	for _, th := range []string{"<NaN", "<Inf", "drop<NaN%", ">=-Inf"} {
		g := tempFile(t, "gates.json", `{"search_orders":{"p95_latency_ms":"`+th+`"}}`)
		code, _, errOut := jig(t, "", "drift", "--baseline", rec, "--current", rec, "--gate", g)
		if code != exitUsage || !strings.Contains(errOut, "gates.json: search_orders.p95_latency_ms: threshold") || !strings.Contains(errOut, "is not a finite number") {
			t.Errorf("gate %s: exit %d, want 2 naming the file, tool and metric:\n%s", th, code, errOut)
		}
	}
}
