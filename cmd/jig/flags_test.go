package main

import (
	"context"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
)

// parseFlags builds a command with a runFunc that only keeps the options,
// and runs it on args: flags → options, through the same seam root uses,
// without connecting to anything.
func parseFlags[O any](build func(*streams, runFunc[O]) *cobra.Command, args ...string) (*O, error) {
	var got *O
	st := &streams{in: strings.NewReader(""), out: io.Discard, err: io.Discard}
	cmd := build(st, func(ctx context.Context, o *O, st *streams) error {
		got = o
		return nil
	})
	cmd.SetArgs(args)
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	if err := cmd.ExecuteContext(context.Background()); err != nil {
		return nil, err
	}
	if got == nil {
		return nil, fmt.Errorf("the command did not reach its run function")
	}
	return got, nil
}

// A flagCase is a command line and the options it must produce: the options
// of the base command line, changed by want. err instead names a usage error
// the command line must give before anything runs.
type flagCase[O any] struct {
	name string
	args []string
	want func(*O)
	err  string
}

// checkFlags runs each case against the options of base. clean, when set,
// clears what the comparison cannot see into (functions).
func checkFlags[O any](t *testing.T, build func(*streams, runFunc[O]) *cobra.Command, base []string, clean func(*O), cases []flagCase[O]) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseFlags(build, tt.args...)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("%q: error %v, want one that says %q", tt.args, err, tt.err)
				}
				if code := exitCode(err); code != exitUsage {
					t.Errorf("%q: exit code %d, want %d (usage)", tt.args, code, exitUsage)
				}
				return
			}
			if err != nil {
				t.Fatalf("%q: %v", tt.args, err)
			}
			want, err := parseFlags(build, base...)
			if err != nil {
				t.Fatalf("base %q: %v", base, err)
			}
			if tt.want != nil {
				tt.want(want)
			}
			if clean != nil {
				clean(got)
				clean(want)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%q gave options\n  %+v\nwant\n  %+v", tt.args, *got, *want)
			}
		})
	}
}

// The target flags' defaults: every command that connects starts from these.
func TestTargetFlagDefaults(t *testing.T) {
	o, err := parseFlags(newToolsCmd)
	if err != nil {
		t.Fatal(err)
	}
	want := targetFlags{release: 1, protocol: "auto", timeout: 30 * time.Second, grace: 200 * time.Millisecond,
		capabilities: []string{"roots", "sampling", "elicitation"}, maxFrame: "256MiB", auth: authFlags{authTimeout: 5 * time.Minute},
		oneShot: true} // not a flag: jig tools lists once and ends
	if !reflect.DeepEqual(o.target, want) {
		t.Errorf("target flag defaults\n  %+v\nwant\n  %+v", o.target, want)
	}
}

// The defaults of the commands' own flags, as the help text states them.
func TestCommandDefaults(t *testing.T) {
	call, err := parseFlags(newCallCmd, "echo")
	if err != nil {
		t.Fatal(err)
	}
	call.target = targetFlags{}
	if want := (callOptions{tool: "echo", args: "{}", pin: pinFlags{probe: -1}, command: []string{}}); !reflect.DeepEqual(*call, want) {
		t.Errorf("jig call echo: options\n  %+v\nwant\n  %+v", *call, want)
	}
	rep, err := parseFlags(newReplayCmd, "fixtures/")
	if err != nil {
		t.Fatal(err)
	}
	rep.target = targetFlags{}
	if want := (replayOptions{path: "fixtures/", command: []string{}, failOn: "breaking", parallel: 4, inFlight: 8}); !reflect.DeepEqual(*rep, want) {
		t.Errorf("jig replay fixtures/: options\n  %+v\nwant\n  %+v", *rep, want)
	}
	list, err := parseFlags(newResourcesCmd)
	if err != nil {
		t.Fatal(err)
	}
	if list.label != "resources" || list.kind == nil || list.kind.noun != "resources" || list.templateKind == nil {
		t.Errorf("jig resources: options %+v; want the resources listing, with templates", *list)
	}
}

func TestCallFlags(t *testing.T) {
	checkFlags(t, newCallCmd, []string{"echo"}, nil, []flagCase[callOptions]{
		{name: "tool only", args: []string{"echo"}, want: func(o *callOptions) {}},
		{name: "args, demo, json", args: []string{"echo", "--args", `{"text":"hi"}`, "--demo", "--json"}, want: func(o *callOptions) {
			o.args, o.target.demo, o.json = `{"text":"hi"}`, true, true
		}},
		{name: "server after --", args: []string{"echo", "--", "node", "server.js", "--flag"}, want: func(o *callOptions) {
			o.command = []string{"node", "server.js", "--flag"}
		}},
		{name: "bare --frames is stderr", args: []string{"echo", "--frames"}, want: func(o *callOptions) { o.frames.dest = "-" }},
		{name: "--frames=FILE", args: []string{"echo", "--frames=f.txt"}, want: func(o *callOptions) { o.frames.dest = "f.txt" }},
		{name: "progress and cancel", args: []string{"echo", "--progress", "--cancel-after", "2s"}, want: func(o *callOptions) {
			o.progress, o.cancelAfter = true, 2*time.Second
		}},
		{name: "pin", args: []string{"echo", "--pin", "f.json", "--note", "n", "--scenario", "s", "--probe", "3", "--force", "--secret-env", "A", "--secret-env", "B"},
			want: func(o *callOptions) {
				o.pin = pinFlags{file: "f.json", note: "n", scenario: "s", probe: 3, force: true, secretEnv: []string{"A", "B"}}
			}},
		{name: "target flags", args: []string{"echo", "--url", "http://127.0.0.1:1/mcp", "--transport", "sse", "--header", "A: b", "--timeout", "5s",
			"--grace", "1s", "--protocol-version", "2025-06-18", "--capabilities", "roots", "--record", "r.jsonl"},
			want: func(o *callOptions) {
				o.target.url, o.target.transport, o.target.headers = "http://127.0.0.1:1/mcp", "sse", []string{"A: b"}
				o.target.timeout, o.target.grace, o.target.protocol = 5*time.Second, time.Second, "2025-06-18"
				o.target.capabilities, o.target.record = []string{"roots"}, "r.jsonl"
			}},
		{name: "roots", args: []string{"echo", "--root", "/a", "--root", "file:///b"}, want: func(o *callOptions) { o.target.roots = []string{"/a", "file:///b"} }},
		{name: "no capabilities", args: []string{"echo", "--capabilities", ""}, want: func(o *callOptions) { o.target.capabilities = []string{} }},
		{name: "two tools", args: []string{"echo", "add"}, err: "call takes one tool name; put a server command after --"},
		{name: "two tools before --", args: []string{"echo", "add", "--", "node"}, err: "one tool name before --"},
		{name: "no tool", args: []string{}, err: "requires at least 1 arg"},
		{name: "unknown flag", args: []string{"echo", "--nope"}, err: "unknown flag: --nope"},
	})
}

func TestListFlags(t *testing.T) {
	clean := func(o *listOptions) { o.kind, o.templateKind = nil, nil }
	checkFlags(t, newResourcesCmd, nil, clean, []flagCase[listOptions]{
		{name: "templates, json", args: []string{"--templates", "--json", "--demo"}, want: func(o *listOptions) {
			o.templates, o.json, o.target.demo = true, true, true
		}},
		{name: "server command without --", args: []string{"node", "s.js"}, want: func(o *listOptions) { o.command = []string{"node", "s.js"} }},
	})
	checkFlags(t, newPromptsCmd, nil, clean, []flagCase[listOptions]{
		{name: "prompts", args: []string{"--json"}, want: func(o *listOptions) { o.json = true }},
		{name: "no templates for prompts", args: []string{"--templates"}, err: "unknown flag: --templates"},
	})
}

func TestReadAndPromptFlags(t *testing.T) {
	checkFlags(t, newReadCmd, []string{"demo://readme"}, nil, []flagCase[readOptions]{
		{name: "uri and server", args: []string{"demo://x", "--", "node", "s.js"}, want: func(o *readOptions) {
			o.uri, o.command = "demo://x", []string{"node", "s.js"}
		}},
		{name: "no uri", args: nil, err: "requires at least 1 arg"},
	})
	checkFlags(t, newPromptCmd, []string{"p"}, nil, []flagCase[promptOptions]{
		{name: "name and args", args: []string{"triage", "--args", `{"customer":"Acme"}`, "--frames"}, want: func(o *promptOptions) {
			o.name, o.args, o.frames.dest = "triage", `{"customer":"Acme"}`, "-"
		}},
	})
}

func TestReplayFlags(t *testing.T) {
	checkFlags(t, newReplayCmd, []string{"fixtures/"}, nil, []flagCase[replayOptions]{
		{name: "reports and fail-on", args: []string{"fixtures/", "--report", "junit=a.xml", "--report", "json=b.json", "--fail-on", "warn", "--show-cosmetic"},
			want: func(o *replayOptions) {
				o.reports, o.failOn, o.showCosmetic = []string{"junit=a.xml", "json=b.json"}, "warn", true
			}},
		{name: "update", args: []string{"f.json", "--update", "--reason", "why", "--secret-env", "TOKEN", "--parallel", "2", "--in-flight", "1"},
			want: func(o *replayOptions) {
				o.path, o.update, o.reason, o.secretEnv, o.parallel, o.inFlight = "f.json", true, "why", []string{"TOKEN"}, 2, 1
				o.targetArgs = []string{"--secret-env", "TOKEN"}
			}},
		{name: "a target given overrides the fixtures'", args: []string{"fixtures/", "--demo", "--release", "2"}, want: func(o *replayOptions) {
			o.target.demo, o.target.release, o.overridden = true, 2, true
			o.targetArgs = []string{"--demo", "--release", "2"}
		}},
		{name: "a command given overrides", args: []string{"fixtures/", "--", "node", "new.js"}, want: func(o *replayOptions) {
			o.command, o.overridden = []string{"node", "new.js"}, true
		}},
		{name: "protocol version alone is not a target", args: []string{"fixtures/", "--protocol-version", "2025-06-18"}, want: func(o *replayOptions) {
			o.target.protocol, o.protocolChanged = "2025-06-18", true
			o.targetArgs = []string{"--protocol-version", "2025-06-18"}
		}},
		{name: "quoted header in the accept command", args: []string{"fixtures/", "--url", "http://h/mcp", "--header", "Authorization: Bearer $T"},
			want: func(o *replayOptions) {
				o.target.url, o.target.headers, o.overridden = "http://h/mcp", []string{"Authorization: Bearer $T"}, true
				o.targetArgs = []string{"--header", "'Authorization: Bearer $T'", "--url", "http://h/mcp"}
			}},
		{name: "two paths", args: []string{"a/", "b/"}, err: "replay takes one fixture file or directory"},
		{name: "surface pin", args: []string{"fixtures/", "--surface", "surface.json"}, want: func(o *replayOptions) { o.surface = "surface.json" }},
	})
}

func TestSurfaceDiffFlags(t *testing.T) {
	checkFlags(t, newSurfaceDiffCmd, []string{"s.json"}, nil, []flagCase[surfaceDiffOptions]{
		{name: "a second file", args: []string{"s.json", "now.json", "--json"}, want: func(o *surfaceDiffOptions) { o.now, o.json = "now.json", true }},
		{name: "a command", args: []string{"s.json", "--", "node", "server.js"}, want: func(o *surfaceDiffOptions) { o.command = []string{"node", "server.js"} }},
		{name: "update", args: []string{"s.json", "--demo", "--update", "--reason", "why", "--only", "tool a", "--fail-on", "breaking", "--capabilities", ""},
			want: func(o *surfaceDiffOptions) {
				o.target.demo, o.update, o.reason, o.only, o.failOn = true, true, "why", []string{"tool a"}, "breaking"
				o.target.capabilities, o.capsChanged = []string{}, true
			}},
		{name: "three files", args: []string{"a.json", "b.json", "c.json"}, err: "surface diff takes a surface file and a second file or a target"},
	})
}

func TestOpenCompareProxySessionsFlags(t *testing.T) {
	checkFlags(t, newOpenCmd, []string{"run.jsonl"}, nil, []flagCase[openOptions]{
		{name: "text", args: []string{"run.jsonl", "--text"}, want: func(o *openOptions) { o.text = true }},
		{name: "secrets", args: []string{"run.jsonl", "--secret-env", "A"}, want: func(o *openOptions) { o.secretEnv = []string{"A"} }},
		{name: "reproduce against release 2", args: []string{"run.jsonl", "--release", "2"}, want: func(o *openOptions) {
			o.target.release, o.releaseChanged = 2, true
		}},
		{name: "reproduce against a command", args: []string{"run.jsonl", "--", "node", "s.js"}, want: func(o *openOptions) {
			o.command = []string{"node", "s.js"}
		}},
		{name: "command without --", args: []string{"run.jsonl", "node"}, err: "a server command goes after --"},
		{name: "two files before --", args: []string{"a", "b", "--", "node"}, err: "open takes one FILE before --"},
	})
	checkFlags(t, newCompareCmd, []string{"a", "b"}, nil, []flagCase[compareOptions]{
		{name: "two calls", args: []string{"run.jsonl#7", "run.jsonl#11", "--show-cosmetic"}, want: func(o *compareOptions) {
			o.a, o.b, o.showCosmetic = "run.jsonl#7", "run.jsonl#11", true
		}},
		{name: "one call", args: []string{"run.jsonl"}, err: "accepts 2 arg(s)"},
	})
	checkFlags(t, newAttributeCmd, []string{"a", "b"}, nil, []flagCase[attributeOptions]{
		{name: "two calls on the demo", args: []string{"c.json#2", "c.json#4", "--demo", "--pin-dir", "fx", "--pin", "s.json", "--json"}, want: func(o *attributeOptions) {
			o.a, o.b, o.target.demo, o.pinDir, o.pin, o.json = "c.json#2", "c.json#4", true, "fx", "s.json", true
		}},
		{name: "a command and a tool", args: []string{"s.jsonl#7", "s.jsonl#11", "--tool", "get-sum", "--", "node", "e.js", "stdio"}, want: func(o *attributeOptions) {
			o.a, o.b, o.tool, o.command = "s.jsonl#7", "s.jsonl#11", "get-sum", []string{"node", "e.js", "stdio"}
		}},
		{name: "one call", args: []string{"c.json#2"}, err: "requires at least 2 arg(s)"},
		{name: "command without --", args: []string{"a", "b", "node"}, err: "a server command goes after --"},
		{name: "three calls before --", args: []string{"a", "b", "c", "--", "node"}, err: "attribute takes two calls A B before --"},
	})
	checkFlags(t, newProxyCmd, nil, nil, []flagCase[proxyOptions]{
		{name: "stdio", args: []string{"--record", "r.jsonl", "--secret", "$TOKEN", "--", "node", "s.js"}, want: func(o *proxyOptions) {
			o.record, o.secrets, o.command = "r.jsonl", []string{"$TOKEN"}, []string{"node", "s.js"}
		}},
		{name: "http", args: []string{"--listen", "127.0.0.1:7000", "--target", "http://127.0.0.1:3901/mcp", "--no-record"}, want: func(o *proxyOptions) {
			o.listen, o.target, o.noRecord = "127.0.0.1:7000", "http://127.0.0.1:3901/mcp", true
		}},
	})
	sessions := func(st *streams, runF runFunc[sessionsOptions]) *cobra.Command { return newSessionsCmd(st, runF, runF) }
	checkFlags(t, sessions, nil, nil, []flagCase[sessionsOptions]{
		{name: "list", args: []string{"--dir", "/d", "--json"}, want: func(o *sessionsOptions) { o.dir, o.json = "/d", true }},
		{name: "prune", args: []string{"prune", "--dir", "/d", "--older-than", "720h", "--keep", "5", "--dry-run"}, want: func(o *sessionsOptions) {
			o.dir, o.olderThan, o.keep, o.dryRun = "/d", 720*time.Hour, 5, true
		}},
	})
}

func TestTUIFlags(t *testing.T) {
	checkFlags(t, newConnectCmd, nil, nil, []flagCase[tuiOptions]{
		{name: "a server", args: []string{"--", "node", "s.js"}, want: func(o *tuiOptions) { o.command = []string{"node", "s.js"} }},
		{name: "a URL", args: []string{"--url", "http://h/mcp"}, want: func(o *tuiOptions) { o.target.url = "http://h/mcp" }},
		{name: "secrets", args: []string{"--secret-env", "A", "--secret-env", "B", "--", "s"}, want: func(o *tuiOptions) {
			o.secretEnv, o.command = []string{"A", "B"}, []string{"s"}
		}},
	})
	checkFlags(t, newDemoCmd, nil, nil, []flagCase[tuiOptions]{
		{name: "demo is the demo", args: []string{"--release", "2"}, want: func(o *tuiOptions) { o.target.demo, o.target.release = true, 2 }},
		{name: "secrets", args: []string{"--secret-env", "A"}, want: func(o *tuiOptions) { o.target.demo, o.secretEnv = true, []string{"A"} }},
	})
	checkFlags(t, newServeDemoCmd, nil, nil, []flagCase[serveDemoOptions]{
		{name: "release", args: []string{"--release", "2"}, want: func(o *serveDemoOptions) { o.release = 2 }},
		{name: "regress after", args: []string{"--release", "3", "--regress-after", "5"}, want: func(o *serveDemoOptions) { o.release, o.regressAfter = 3, 5 }},
	})
}

func TestDriftCommandFlags(t *testing.T) {
	checkFlags(t, newCheckCmd, []string{"c.json", "r.jsonl"}, nil, []flagCase[checkOptions]{
		{name: "json", args: []string{"--json", "c.json", "a.jsonl", "b.jsonl"}, want: func(o *checkOptions) { o.json, o.recordings = true, []string{"a.jsonl", "b.jsonl"} }},
		{name: "too few", args: []string{"c.json"}, err: "requires at least 2 arg(s)"},
	})
	checkFlags(t, newTrafficCmd, nil, func(o *trafficOptions) { o.target.auth = authFlags{} }, []flagCase[trafficOptions]{
		{name: "seeded", args: []string{"--release", "3", "--seed", "7", "--calls", "9"}, want: func(o *trafficOptions) { o.target.release, o.seed, o.calls = 3, 7, 9 }},
		{name: "a server", args: []string{"--", "node", "s.js"}, want: func(o *trafficOptions) { o.target.demo, o.command = false, []string{"node", "s.js"} }},
	})
}
