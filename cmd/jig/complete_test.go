package main

import (
	"strings"
	"testing"
)

// jig complete and jig ping against server-everything, which advertises
// completions: the values on stdout, the count on stderr; usage errors
// name the flag and exit 2.
func TestCompleteAndPing(t *testing.T) {
	se := serverEverything(t)
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string
		stderr []string
	}{
		{"a prompt argument", append([]string{"complete", "--prompt", "completable-prompt", "--arg", "department=E", "--"}, se[1:]...), exitOK,
			[]string{"Engineering\n"}, []string{"jig: 1 value"}},
		{"narrowed by context", append([]string{"complete", "--prompt", "completable-prompt", "--arg", "name=", "--context", "department=Engineering", "--"}, se[1:]...), exitOK,
			[]string{"Alice\n"}, nil},
		{"a template variable", append([]string{"complete", "--template", "demo://resource/dynamic/text/{resourceId}", "--arg", "resourceId=1", "--"}, se[1:]...), exitOK,
			[]string{"1\n"}, nil},
		{"neither prompt nor template", []string{"complete", "--arg", "x=", "--demo"}, exitUsage,
			nil, []string{"give one of --prompt NAME or --template URI"}},
		{"an arg without =", []string{"complete", "--prompt", "p", "--arg", "department", "--demo"}, exitUsage,
			nil, []string{`--arg "department": expected NAME=PARTIAL`}},
		{"ping", append([]string{"ping", "--"}, se[1:]...), exitOK,
			[]string{"ping answered in "}, nil},
		{"ping the demo", []string{"ping", "--demo"}, exitOK,
			[]string{"ping answered in "}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := jig(t, "", tc.args...)
			if code != tc.code {
				t.Errorf("exit %d (want %d)\nstdout:\n%s\nstderr:\n%s", code, tc.code, stdout, stderr)
			}
			for _, w := range tc.stdout {
				if !strings.Contains(stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout)
				}
			}
			for _, w := range tc.stderr {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
		})
	}
}
