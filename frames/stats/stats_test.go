package stats

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/mcpjig/jig/frames"
)

// TestResultMembers: a result's members are found past a text that holds
// quotes and braces; isError and a structuredContent that is not null are
// noted; a result that is no object is none.
func TestResultMembers(t *testing.T) {
	c := New(Options{})
	r := c.reader.members([]byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"a \"} b"}],"isError":true}}`), nil)
	if r == nil || !r.isError || r.isSC || string(r.keys) != "contentisError" || len(r.ends) != 2 {
		t.Errorf("members = %+v", r)
	}
	r = c.reader.members([]byte(`{"jsonrpc":"2.0","id":1,"result":{"structuredContent":null,"isError":false}}`), nil)
	if r == nil || r.isError || r.isSC {
		t.Errorf("members = %+v", r)
	}
	if r := c.reader.members([]byte(`{"jsonrpc":"2.0","id":1,"result":[1]}`), nil); r != nil {
		t.Errorf("a result that is no object was taken: %+v", r)
	}
}

func TestShape(t *testing.T) {
	for args, want := range map[string]string{
		`{"customer":"Acme","limit":10,"since":"x"}`: "customer,limit:8-15,since",
		`{"limit":500,"customer":"Acme"}`:            "customer,limit:256-511",
		`{"limit":1,"all":true,"q":{"deep":5}}`:      "all:true,limit:1,q",
		`{}`:                                         "(no arguments)",
		``:                                           "(no arguments)",
	} {
		if got := Shape([]byte(args)); got != want {
			t.Errorf("Shape(%s) = %q, want %q", args, got, want)
		}
	}
}

// TestMetricIsBounded: a million values keep a bounded sample, exact
// moments, and quantiles close to the truth.
func TestMetricIsBounded(t *testing.T) {
	m := newMetric(1)
	for i := range 1_000_000 {
		m.Add(float64(i % 1000))
	}
	if len(m.sample) != ReservoirSize || m.N != 1_000_000 || math.Abs(m.Mean()-499.5) > 1e-6 {
		t.Fatalf("sample %d, n %d, mean %v", len(m.sample), m.N, m.Mean())
	}
	if med := m.Median(); math.Abs(med-500) > 40 {
		t.Errorf("median %v, want about 500", med)
	}
	if mad := m.MAD(); math.Abs(mad-250) > 30 {
		t.Errorf("MAD %v, want about 250", mad)
	}
}

// TestMannWhitney: no difference is z 0; a shift is a large z of its sign;
// all ties is no evidence.
func TestMannWhitney(t *testing.T) {
	a := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	if z := mannWhitney(a, a); z != 0 {
		t.Errorf("same samples: z %v", z)
	}
	var lo, hi []float64
	for i := range 50 {
		lo = append(lo, float64(i))
		hi = append(hi, float64(i+40))
	}
	if z := mannWhitney(lo, hi); z < 5 {
		t.Errorf("shifted up: z %v, want > 5", z)
	}
	if z := mannWhitney(hi, lo); z > -5 {
		t.Errorf("shifted down: z %v, want < -5", z)
	}
	if z := mannWhitney([]float64{3, 3, 3}, []float64{3, 3}); z != 0 {
		t.Errorf("all ties: z %v", z)
	}
}

// feed records calls of one tool into a collector, as a session would.
func feed(c *Collector, results []string, at time.Time) {
	s := c.Session()
	log := frames.NewLog(func() time.Time { return at })
	for i, r := range results {
		log.Append(frames.Frame{Dir: frames.ClientToServer, Raw: []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"t","arguments":{"q":"%d"}}}`, i, i))})
		log.Append(frames.Frame{Dir: frames.ServerToClient, Raw: []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":%s}`, i, r))})
	}
	for _, f := range log.Frames() {
		s.Add(f)
	}
	s.Close()
}

// TestCompareVerdicts: below the minimum sample the verdict says so with
// the numbers; a cardinality collapse (40–60 rows becoming 3) is drift; the
// same distribution is not.
func TestCompareVerdicts(t *testing.T) {
	rows := func(n int) string {
		return `{"structuredContent":{"rows":[` + strings.TrimSuffix(strings.Repeat(`{"v":1},`, n), ",") + `]}}`
	}
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	base, same, cut, few := New(Options{}), New(Options{}), New(Options{}), New(Options{})
	var b, s, c []string
	for i := range 60 {
		b = append(b, rows(40+i%21))
		s = append(s, rows(40+(i*7)%21))
		c = append(c, rows(3))
	}
	feed(base, b, now)
	feed(same, s, now)
	feed(cut, c, now)
	feed(few, c[:10], now)
	card := func(r DriftReport) Finding {
		for _, f := range r.Groups[0].Findings {
			if f.Signal == "cardinality" {
				return f
			}
		}
		t.Fatal("no cardinality finding")
		return Finding{}
	}
	if f := card(Compare(base, same, DriftOptions{})); f.Verdict != NoDrift {
		t.Errorf("the same distribution: %+v", f)
	}
	if f := card(Compare(base, cut, DriftOptions{})); f.Verdict != Drift || f.Baseline < 45 || f.Current != 3 {
		t.Errorf("40–60 rows becoming 3: %+v", f)
	}
	r := Compare(base, few, DriftOptions{})
	if r.Groups[0].Verdict != Drift && r.Groups[0].Verdict != NotEnough {
		t.Errorf("ten calls: %+v", r.Groups[0])
	}
	if f := card(r); f.Verdict != NotEnough || !strings.Contains(f.Detail, "10 current values; 30 of each are needed") {
		t.Errorf("ten calls: %+v", f)
	}
}

// TestNotEnoughSaysOne: one call is "1 current call", not "1 current
// calls", in the group's note and in its findings.
func TestNotEnoughSaysOne(t *testing.T) {
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	base, one := New(Options{}), New(Options{})
	var b []string
	for range 40 {
		b = append(b, `{"structuredContent":{"rows":[1,2]}}`)
	}
	feed(base, b, now)
	feed(one, b[:1], now)
	r := Compare(base, one, DriftOptions{})
	g := r.Groups[0]
	if g.Verdict != NotEnough || !strings.Contains(g.Note, "40 baseline and 1 current call; 30 of each are needed") {
		t.Errorf("note %q (%s)", g.Note, g.Verdict)
	}
	for _, f := range g.Findings {
		if strings.Contains(f.Detail, " 1 current values") || strings.Contains(f.Detail, " 1 current calls") {
			t.Errorf("%s %s: %q", f.Signal, f.Path, f.Detail)
		}
	}
	if r := Compare(base, one, DriftOptions{MinSample: 1}); strings.Contains(fmt.Sprint(r), "1 of each are needed") {
		t.Errorf("a minimum of one: %+v", r)
	}
}

// FuzzParseStamp holds the hand parser of timestamps to time.Parse with
// RFC3339Nano: the same instant, the same refusals.
func FuzzParseStamp(f *testing.F) {
	for _, s := range []string{"2026-08-21T10:00:00Z", "2026-08-21T10:00:00.000837Z", "2024-02-29T23:59:59.999999999Z",
		"2023-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z", "2026-04-31T00:00:00Z", "2026-01-01T24:00:00Z",
		"2026-01-01T00:60:00Z", "2026-01-01T00:00:60Z", "2026-01-01T00:00:00.Z", "2026-01-01T00:00:00.1234567891Z",
		"2026-01-01T00:00:00+02:00", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "1900-02-29T00:00:00Z", "2000-02-29T00:00:00Z",
		"2026-01-01t00:00:00z", "2026-01-01T00:00:00", "+026-01-01T00:00:00Z", "2026-1-01T00:00:00Z", "2026-01-01T00:00:00.5x5Z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := time.Parse(time.RFC3339Nano, s)
		got, ok := parseStamp([]byte(s))
		if ok != (err == nil) || ok && !got.Equal(want) {
			t.Fatalf("parseStamp(%q) = %v, %v; time.Parse: %v, %v", s, got, ok, want, err)
		}
	})
}

// TestSchemaChangeSaysEachDefinition: a tool whose schema changed names each
// definition with its calls, most first; it printed a Go map
// ("map[4c855d74:1 88c6fc1e:11]").
func TestSchemaChangeSaysEachDefinition(t *testing.T) {
	var b strings.Builder
	Report{Tools: []ToolReport{{Tool: "t", Schemas: map[string]int64{"4c855d74": 1, "88c6fc1e": 11, "": 2}}}}.WriteText(&b)
	if want := "its schema changed within the recordings: 3 definitions (88c6fc1e 11 calls, none listed 2 calls, 4c855d74 1 call)"; !strings.Contains(b.String(), want) {
		t.Errorf("got:\n%s\nwant %q", b.String(), want)
	}
}

// FuzzReadingsAgree holds the reading jig stats does of a recorded result
// — the Scanner's spans, the structuredContent walked once into a tape and
// played back — to the plain reading (no spans, no tape: passed over, then
// walked): the same report, byte for byte. The input is a result's bytes,
// recorded as a recording holds them (record) or put in the record's raw
// string as they are, escapes and all; each is answered twice, by results
// that differ, so repeats and the prediction of the next field both count.
func FuzzReadingsAgree(f *testing.F) {
	text := `{"orders":[{"id":"ord-1","placed_at":"2026-08-21T10:00:00Z","total":1e999,"note":"a \"b\" \\ c"}],"truncated":false}`
	tq, _ := json.Marshal(text)
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":` + string(tq) + `}],"structuredContent":` + text + `}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"a":[1,2,{"b":null}]},"isError":true}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"a":1},"structuredContent":null,"content":[{"type":"text","text":"{\"x\":1}"}]}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"content":[{"text":"{\"x\":[1]}"}]},"x":1}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"a":"\ud83d\ude00\ud83d","b":"` + "\xff" + `"},"x":}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"structured\u0043ontent":{"k\u00e9y":"v"},"_meta":{}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"structuredContent":` + strings.Repeat("[", 199) + strings.Repeat("]", 199) + `}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"structuredContent":` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"n":123456789012345678901234567890e400,"m":-0.0}}`,
	} {
		f.Add([]byte(s), true)
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, in []byte, record bool) {
		if record {
			q, _ := json.Marshal(string(in))
			in = q[1 : len(q)-1]
		}
		var reports [2][]byte
		for i, plain := range []bool{false, true} {
			c := New(Options{})
			c.reader.plain = plain
			s := frames.NewScanner(strings.NewReader(readingsRecording(in)), "t.jsonl")
			if !plain {
				s.WithSpans()
			}
			feed := c.Session()
			for s.Next() {
				if f := s.Frame(); f != nil {
					feed.AddSpans(f, s.Spans())
				}
			}
			feed.Close()
			reports[i], _ = json.Marshal(c.Report(""))
		}
		if !bytes.Equal(reports[0], reports[1]) {
			t.Fatalf("body %q:\nwith spans and tape: %s\nplain:               %s", in, reports[0], reports[1])
		}
	})
}

// readingsRecording is a recording of two calls answered by body, then by
// body with its first digit changed.
func readingsRecording(body []byte) string {
	var b strings.Builder
	b.WriteString(`{"type":"header","format":1,"jig":"test"}` + "\n")
	other := bytes.Clone(body)
	if i := bytes.IndexAny(other, "0123456789"); i >= 0 {
		other[i] = '0' + (other[i]-'0'+1)%10
	}
	for i, resp := range [][]byte{body, other} {
		fmt.Fprintf(&b, `{"type":"frame","seq":%d,"time":"2026-11-01T00:00:0%dZ","dir":"c2s","kind":"request","method":"tools/call","id":"1","raw":"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\",\"arguments\":{}}}"}`+"\n", 2*i+1, 2*i)
		fmt.Fprintf(&b, `{"type":"frame","seq":%d,"time":"2026-11-01T00:00:0%dZ","dir":"s2c","kind":"result","id":"1","raw":"%s"}`+"\n", 2*i+2, 2*i+1, resp)
	}
	return b.String()
}
