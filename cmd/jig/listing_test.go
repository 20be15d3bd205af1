package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpjig/jig/session/peers"
)

func TestListLine(t *testing.T) {
	for _, tc := range []struct {
		item, key, want string
	}{
		{`{"uri":"demo://a","name":"a","description":"first\nsecond"}`, "uri", "demo://a  a  — first"},
		{`{"uri":"demo://a","name":"a","title":"The A"}`, "uri", "demo://a  The A"},
		{`{"uri":"demo://a"}`, "uri", "demo://a"},
		{`{"name":"greet"}`, "name", "greet"},
		{`{"name":"greet","title":"Greeting","description":"says hi"}`, "name", "greet  Greeting  — says hi"},
		{`{"uriTemplate":"demo://{id}","name":"demo://{id}"}`, "uriTemplate", "demo://{id}"},
		{`{"description":"keyless"}`, "uri", "(no uri)  — keyless"},
	} {
		if got := listLine(json.RawMessage(tc.item), tc.key); got != tc.want {
			t.Errorf("listLine(%s) = %q, want %q", tc.item, got, tc.want)
		}
	}
}

// The go-sdk everything server's prompts and resources have no description:
// the listing must not say <nil>, and must show their names.
func TestListingsWithoutDescriptions(t *testing.T) {
	bin := peers.Path(t, peers.GoSDKEverything)
	for _, tc := range []struct{ cmd, want string }{{"prompts", "greet (with Icons)"}, {"resources", "embedded:info  info (with Icons)"}} {
		code, out, errOut := jig(t, "", tc.cmd, "--no-record", "--", bin)
		if code != 0 || strings.Contains(out, "<nil>") || !strings.Contains(out, tc.want) {
			t.Errorf("jig %s: exit %d, stdout:\n%s\nstderr: %s\nwant %q and no <nil>", tc.cmd, code, out, errOut, tc.want)
		}
	}
}

// jig prompts shows each prompt's arguments, required ones starred, as
// jig tools shows a tool's: what jig prompt --args needs was not listed.
func TestPromptsListTheirArguments(t *testing.T) {
	code, out, errOut := jig(t, "", "prompts", "--demo")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	for _, want := range []string{"1 prompt\n", "  triage_report  ", "\n    customer*  — The customer", "\n    symptom  — "} {
		if !strings.Contains(out, want) {
			t.Errorf("jig prompts --demo lacks %q:\n%s", want, out)
		}
	}
}

// The commands that list or ask once open no subscriptions/listen stream on
// a 2026-07-28-era server (a round trip and a parked request it does not
// need); jig call keeps it, so list_changed during a call is still seen.
func TestOneShotCommandsDoNotSubscribe(t *testing.T) {
	bin := peers.Path(t, peers.GoSDKEverything)
	for _, args := range [][]string{{"tools"}, {"prompts"}, {"resources"}, {"ping"}, {"read", "embedded:info"},
		{"call", "greet", "--args", `{"name":"x"}`}} {
		full := append(append(args, "--no-record", "--frames"), "--", bin)
		code, _, errOut := jig(t, "", full...)
		if code != exitOK {
			t.Fatalf("jig %s: exit %d\n%s", strings.Join(args, " "), code, errOut)
		}
		want := args[0] == "call"
		if got := strings.Contains(errOut, "→ request      subscriptions/listen"); got != want {
			t.Errorf("jig %s: subscriptions/listen sent = %v, want %v:\n%s", strings.Join(args, " "), got, want, errOut)
		}
	}
}
