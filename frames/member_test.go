package frames

import (
	"fmt"
	"strings"
	"testing"
)

func TestSetMember(t *testing.T) {
	for _, c := range []struct {
		raw, value string
		path       []string
		want       string
		ok         bool
	}{
		{`{"result":{"a":1.0},"jsonrpc":"2.0","id":7}`, `"mock-1"`, []string{"id"}, `{"result":{"a":1.0},"jsonrpc":"2.0","id":"mock-1"}`, true},
		{`{ "id" : 1 , "x":{"id":2}}`, `9`, []string{"id"}, `{ "id" : 9 , "x":{"id":2}}`, true},
		{`{"params":{"progressToken":"a","progress":1}}`, `5`, []string{"params", "progressToken"}, `{"params":{"progressToken":5,"progress":1}}`, true},
		{`{"params":{"s":"\"}{","progressToken":"a"}}`, `5`, []string{"params", "progressToken"}, `{"params":{"s":"\"}{","progressToken":5}}`, true},
		{`{"p\u0061rams":{"t":1}}`, `2`, []string{"params", "t"}, `{"p\u0061rams":{"t":2}}`, true},
		{`{"a":[{"id":1}]}`, `2`, []string{"id"}, `{"a":[{"id":1}]}`, false},
		{`{"a":1}`, `2`, []string{"a", "b"}, `{"a":1}`, false},
		{`{"a":1,"a":3}`, `2`, []string{"a"}, `{"a":1,"a":2}`, true},
		{`[1]`, `2`, []string{"a"}, `[1]`, false},
		{`{"a":`, `2`, []string{"a"}, `{"a":`, false},
	} {
		got, ok := SetMember([]byte(c.raw), []byte(c.value), c.path...)
		if string(got) != c.want || ok != c.ok {
			t.Errorf("SetMember(%s, %s, %v) = %s, %v; want %s, %v", c.raw, c.value, c.path, got, ok, c.want, c.ok)
		}
	}
}

func TestElements(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
		ok   bool
	}{
		{`[]`, nil, true},
		{` [ 1 , "a,]" , {"x":[1,2]} ,null] `, []string{`1`, `"a,]"`, `{"x":[1,2]}`, `null`}, true},
		{`[{"a":"\"]"}]`, []string{`{"a":"\"]"}`}, true},
		{`{"a":1}`, nil, false},
		{`[1,`, nil, false},
		{`[1 2]`, nil, false},
		{`["\x"]`, nil, false},
		{`[1] x`, nil, false},
	} {
		spans, ok := Elements([]byte(c.in))
		var got []string
		for _, s := range spans {
			got = append(got, string(s))
		}
		if ok != c.ok || strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("Elements(%s) = %q %v, want %q %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestFields(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
		ok   bool
	}{
		{`{}`, "", true},
		{` {"a" : 1, "b\u0031":{"c":[1,"}"]}, "a":null} `, `a=1|b1={"c":[1,"}"]}|a=null`, true},
		{`{"a":1,}`, "a=1", false},
		{`{"a":tru}`, "", false},
		{`[1]`, "", false},
	} {
		var got []string
		ok := Fields([]byte(c.in), func(k string, v []byte) { got = append(got, k+"="+string(v)) })
		if ok != c.ok || strings.Join(got, "|") != c.want {
			t.Errorf("Fields(%s) = %q %v, want %q %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestArrayMember(t *testing.T) {
	in := `{"a":{"x":[1]}, "list" : [ {"k":"]"}, 2 ] ,"z":"last"}`
	start, end, elems, ok := ArrayMember([]byte(in), "list")
	if !ok || in[start:end] != `[ {"k":"]"}, 2 ]` || len(elems) != 2 || string(elems[0]) != `{"k":"]"}` || string(elems[1]) != "2" {
		t.Fatalf("ArrayMember = %d %d %q %v", start, end, elems, ok)
	}
	for _, bad := range []string{`{"list":1}`, `{"a":1}`, `{"list":[1],"z":tru}`, `{"list":[1,]}`, `{"list":[]`} {
		if _, _, _, ok := ArrayMember([]byte(bad), "list"); ok {
			t.Errorf("ArrayMember(%s) ok", bad)
		}
	}
	if _, _, elems, ok := ArrayMember([]byte(`{"list":[]}`), "list"); !ok || len(elems) != 0 {
		t.Errorf("an empty list: %q %v", elems, ok)
	}
}

func TestArrayMemberFields(t *testing.T) {
	in := `{"a":{"x":[1]}, "list" : [ {"k":"]"}, 2 ] ,"z":"la\"st"}`
	var got []string
	elems, found, valid := ArrayMemberFields([]byte(in), "list", func(k string, v []byte) { got = append(got, k+"="+string(v)) })
	if !found || !valid || len(elems) != 2 || string(elems[0]) != `{"k":"]"}` || strings.Join(got, " ") != `a={"x":[1]} list=[ {"k":"]"}, 2 ] z="la\"st"` {
		t.Fatalf("ArrayMemberFields = %q %v %v, members %q", elems, found, valid, got)
	}
	if _, found, valid := ArrayMemberFields([]byte(`{"a":1}`), "list", func(string, []byte) {}); found || !valid {
		t.Errorf("no list: found %v valid %v", found, valid)
	}
	for _, bad := range []string{`{"list":1}`, `{"list":[1],"z":tru}`, `{"list":[1,]}`, `{"list":[]`, `{"a":1`} {
		if _, _, valid := ArrayMemberFields([]byte(bad), "list", func(string, []byte) {}); valid {
			t.Errorf("ArrayMemberFields(%s) valid", bad)
		}
	}
}

func TestObjectsOf(t *testing.T) {
	in := `{"head":1, "list" : [ {"k":"]","steps":[ {"a":1}, 2 ]}, {}, {"k":"x\\"}], "z":[]}`
	var got []string
	start, end, n, ok := ObjectsOf([]byte(in), "list", "steps", func(e int, k string, v []byte, elems [][]byte) {
		got = append(got, fmt.Sprintf("%d %s=%s %q", e, k, v, elems))
	})
	want := `0 k="]" []|0 steps=[ {"a":1}, 2 ] ["{\"a\":1}" "2"]|2 k="x\\" []`
	if !ok || n != 3 || !strings.HasPrefix(in[start:end], `[ {"k"`) || !strings.HasSuffix(in[start:end], `}]`) || strings.Join(got, "|") != want {
		t.Fatalf("ObjectsOf = %d %v %q\n%s\nwant\n%s", n, ok, in[start:end], strings.Join(got, "|"), want)
	}
	for _, bad := range []string{`{"list":[1]}`, `{"list":[{"steps":1}]}`, `{"list":[{"a":tru}]}`, `{"list":[{},]}`, `{"list":[{}]`, `{"a":1}`, `{"list":[{}],"z":x}`} {
		if _, _, _, ok := ObjectsOf([]byte(bad), "list", "steps", func(int, string, []byte, [][]byte) {}); ok {
			t.Errorf("ObjectsOf(%s) ok", bad)
		}
	}
}

func TestFieldsUntil(t *testing.T) {
	var got []string
	ok := FieldsUntil([]byte(`{"name":"a","tool":"t","request":{"x":[1,2]},"actual":not json`), func(k string, v []byte) bool {
		got = append(got, k)
		return k != "request"
	})
	if !ok || strings.Join(got, ",") != "name,tool,request" {
		t.Errorf("FieldsUntil = %v %v", got, ok)
	}
	if FieldsUntil([]byte(`{"name":tru}`), func(string, []byte) bool { return true }) {
		t.Error("a broken member read as well formed")
	}
}
