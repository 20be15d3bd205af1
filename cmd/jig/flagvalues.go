package main

import (
	"encoding/csv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/pflag"
)

// The repeatable flags of every session command (--header, --env, --input,
// --root, --capabilities). pflag's own StringArray and StringSlice values
// render their defaults through a csv.Writer, each with a 4 KB buffer, when
// the flag is defined: with the target flags bound to every command that
// was half a megabyte and ~0.3 ms of each run of jig. These behave as
// pflag's do (TestFlagValuesArePflags holds them to it): the same type
// names, help text and parsing.

// sliceVar defines flag name on fl with value v. pflag shows no default for
// its own slice flags when they are empty; for another Value type it takes
// only "" for empty, so an empty default is given as "".
func sliceVar(fl *pflag.FlagSet, v pflag.Value, name, usage string) {
	fl.Var(v, name, usage)
	if f := fl.Lookup(name); f.DefValue == "[]" {
		f.DefValue = ""
	}
}

// stringArray is a repeatable flag taken verbatim: --header A --header B.
type stringArray struct {
	value   *[]string
	changed bool
}

func newStringArray(p *[]string, def []string) *stringArray {
	*p = def
	return &stringArray{value: p}
}

// Set replaces the default on the first use and appends after.
func (s *stringArray) Set(v string) error {
	if !s.changed {
		*s.value = []string{v}
		s.changed = true
	} else {
		*s.value = append(*s.value, v)
	}
	return nil
}

func (s *stringArray) Type() string   { return "stringArray" }
func (s *stringArray) String() string { return "[" + csvLine(*s.value) + "]" }

// The pflag.SliceValue methods.
func (s *stringArray) Append(v string) error    { *s.value = append(*s.value, v); return nil }
func (s *stringArray) Replace(v []string) error { *s.value = append([]string(nil), v...); return nil }
func (s *stringArray) GetSlice() []string       { return append([]string{}, *s.value...) }

// stringSlice is a flag of comma-separated values, repeatable:
// --capabilities roots,sampling.
type stringSlice struct {
	value   *[]string
	changed bool
}

func newStringSlice(p *[]string, def []string) *stringSlice {
	*p = def
	return &stringSlice{value: p}
}

// Set reads v as one CSV record; the first use replaces the default.
func (s *stringSlice) Set(v string) error {
	vals := []string{}
	if v != "" {
		var err error
		if vals, err = csv.NewReader(strings.NewReader(v)).Read(); err != nil {
			return err
		}
	}
	if !s.changed {
		*s.value = vals
	} else {
		*s.value = append(*s.value, vals...)
	}
	s.changed = true
	return nil
}

func (s *stringSlice) Type() string   { return "stringSlice" }
func (s *stringSlice) String() string { return "[" + csvLine(*s.value) + "]" }

func (s *stringSlice) Append(v string) error    { *s.value = append(*s.value, v); return nil }
func (s *stringSlice) Replace(v []string) error { *s.value = v; return nil }
func (s *stringSlice) GetSlice() []string       { return *s.value }

// csvLine is vals as one CSV record without its newline, as pflag writes a
// slice flag's value: joined by commas when no value needs quoting, which
// is every default jig has, else through encoding/csv.
func csvLine(vals []string) string {
	plain := true
	for _, v := range vals {
		if r, _ := utf8.DecodeRuneInString(v); v == "" || strings.ContainsAny(v, ",\"\r\n") || unicode.IsSpace(r) || v == `\.` {
			plain = false
			break
		}
	}
	if plain {
		return strings.Join(vals, ",")
	}
	var b strings.Builder
	w := csv.NewWriter(&b)
	w.Write(vals)
	w.Flush()
	return strings.TrimSuffix(b.String(), "\n")
}
