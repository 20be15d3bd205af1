package lint

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/schema"
)

// checkTool runs the rules that look at one tool alone.
func checkTool(t *tool, cfg Config, add func(Finding)) {
	f := func(rule, path, msg, fix string) {
		add(Finding{Rule: rule, Item: t.item, Path: path, Message: msg, Fix: fix})
	}
	checkToolName(t, f)
	checkToolDescription(t, cfg, f)
	checkAnnotations(t, f)
	if !checkSchemas(t, f) {
		return // the arguments of a schema jig cannot read are not looked at
	}
	capped, capWhy := t.capped()
	for _, p := range t.params {
		checkParam(t, p, capped, capWhy, f)
	}
	checkTruncation(t, f)
}

type emit func(rule, path, msg, fix string)

// nameRe is the spec's rule for tool names (2025-11-25): 1 to 128 of
// A-Z a-z 0-9 _ - and dot.
var nameRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`) })

func checkToolName(t *tool, f emit) {
	switch {
	case t.name == "":
		f("tool-name-invalid", "/name", "the tool has no name", "give it a name of letters, digits, _ and -")
		return
	case !nameRe().MatchString(t.name):
		f("tool-name-invalid", "/name", fmt.Sprintf("%q is not a valid tool name: only A-Z a-z 0-9 _ - . and 1 to 128 of them", t.name),
			"rename it "+quote(suggestName(t.name)))
		return
	}
	if strings.Contains(t.name, ".") || len(t.name) > 64 {
		f("tool-name-unportable", "/name", fmt.Sprintf("%q has a dot or is over 64 characters: OpenAI and Anthropic function names allow neither", t.name),
			"rename it "+quote(suggestName(t.name)))
	}
}

func suggestName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 128 && (r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	out := b.String()
	if len(out) > 64 {
		out = out[:64]
	}
	return out
}

func checkToolDescription(t *tool, cfg Config, f emit) {
	d := strings.TrimSpace(t.description)
	switch {
	case d == "":
		f("description-missing", "/description", "the tool has no description: a model knows it only by its name",
			"say what it does, what it returns and when to use it")
	case len(strings.Fields(d)) == 1:
		f("description-missing", "/description", fmt.Sprintf("the tool's description is one word (%q)", d),
			"say what it does, what it returns and when to use it")
	}
	if n := tokens(t.description); n > cfg.MaxDescriptionTokens {
		f("description-oversized", "/description", fmt.Sprintf("the description is about %d tokens (over %d): every prompt the tools are listed in pays for it", n, cfg.MaxDescriptionTokens),
			"cut it to what a model needs to choose the tool and write its arguments")
	}
}

// Verbs whose tools destroy, write, or only read.
var (
	destroyVerbs = []string{"delete", "remove", "drop", "destroy", "purge", "erase", "wipe", "truncate", "kill", "terminate", "revoke", "unlink", "rm", "del", "clear", "reset", "uninstall", "deregister", "unregister", "archive"}
	writeVerbs   = []string{"create", "add", "insert", "update", "write", "set", "put", "post", "send", "edit", "modify", "patch", "upload", "move", "rename", "append", "save", "publish", "submit", "cancel", "close", "merge", "push", "commit", "assign", "approve", "install", "register", "deploy"}
)

func checkAnnotations(t *tool, f emit) {
	verb := t.firstWord()
	if t.annotations == nil {
		f("annotations-missing", "/annotations", "the tool declares no annotations: a client must assume it may write, destroy and reach outside systems",
			`declare readOnlyHint, destructiveHint, idempotentHint and openWorldHint`)
		return
	}
	ro, roSet := t.annotations["readOnlyHint"].(bool)
	de, deSet := t.annotations["destructiveHint"].(bool)
	switch {
	case slices.Contains(destroyVerbs, verb) && roSet && ro:
		f("annotation-contradicts-name", "/annotations/readOnlyHint", fmt.Sprintf("%q says readOnlyHint: true, but its name says it %ss", t.name, verb),
			`set "readOnlyHint": false and "destructiveHint": true`)
	case slices.Contains(destroyVerbs, verb) && deSet && !de:
		f("annotation-contradicts-name", "/annotations/destructiveHint", fmt.Sprintf("%q says destructiveHint: false, but its name says it %ss", t.name, verb),
			`set "destructiveHint": true (or rename the tool if it does not destroy anything)`)
	case slices.Contains(writeVerbs, verb) && roSet && ro:
		f("annotation-contradicts-name", "/annotations/readOnlyHint", fmt.Sprintf("%q says readOnlyHint: true, but its name says it %ss", t.name, verb),
			`set "readOnlyHint": false, or rename the tool after what it reads`)
	}
}

// checkSchemas runs the portability rules over the input and output
// schemas; it reports false when the input schema cannot be read as an
// object schema at all.
func checkSchemas(t *tool, f emit) bool {
	ok := true
	switch {
	case !t.hasInput:
		f("schema-not-object", "/inputSchema", "the tool has no inputSchema: the spec requires one", `give it {"type": "object"}`)
		ok = false
	case t.input == nil:
		f("schema-not-object", "/inputSchema", "the inputSchema is not a JSON object", `give it {"type": "object", "properties": {...}}`)
		ok = false
	case t.input["type"] == nil && t.input["properties"] == nil && t.input["$ref"] == nil:
		f("schema-not-object", "/inputSchema", "the inputSchema has no type and no properties: a model cannot know the arguments, and clients refuse it",
			`give it "type": "object" and the "properties" the tool takes`)
	case str(t.input, "type") != "object":
		f("schema-not-object", "/inputSchema/type", fmt.Sprintf("the inputSchema's type is %s, not \"object\"", shown(t.input["type"])), `give it "type": "object"`)
	}
	for _, k := range []string{"oneOf", "anyOf", "allOf"} {
		if _, has := t.input[k]; has {
			f("schema-root-combinator", "/inputSchema/"+k, k+" at the root of the input schema: OpenAI and Gemini function calling refuse it",
				"make the root an object with properties, and move the alternatives into one property")
		}
	}
	for _, side := range []struct {
		key string
		s   map[string]any
	}{{"inputSchema", t.input}, {"outputSchema", t.output}} {
		if side.s == nil {
			continue
		}
		unresolved := walkSchema(side.s, side.s, "/"+side.key, f)
		if unresolved || !ok {
			continue
		}
		raw, _ := json.Marshal(side.s)
		if _, err := schema.Validate(raw, json.RawMessage(`{}`)); err != nil {
			f("schema-invalid", "/"+side.key, "the "+side.key+" does not compile as JSON Schema: "+firstLine(err.Error()), "fix the schema where the message says")
		}
	}
	if t.output != nil && str(t.output, "type") != "object" {
		f("schema-not-object", "/outputSchema/type", fmt.Sprintf("the outputSchema's type is %s, not \"object\": structuredContent is always an object", shown(t.output["type"])), `give it "type": "object"`)
	}
	return ok
}

// commonFormats are the formats the main clients and model APIs know.
var commonFormats = []string{"date", "date-time", "time", "duration", "email", "uri", "uri-reference", "url", "uuid", "hostname", "ipv4", "ipv6", "int32", "int64", "float", "double", "byte", "binary", "password", "regex", "iri", "idn-email"}

// walkSchema applies the per-subschema portability rules to s and every
// schema below it; it reports whether a $ref did not resolve.
func walkSchema(root, s map[string]any, path string, f emit) (unresolved bool) {
	w := &schemaWalker{root: root, f: f}
	w.walk(s, path, false)
	return w.unresolved
}

type schemaWalker struct {
	root       map[string]any
	f          emit
	seenRef    bool
	unresolved bool
}

// walk checks one schema (property: it is a property's) and goes below it.
func (w *schemaWalker) walk(s map[string]any, path string, property bool) {
	w.ref(s, path)
	f := w.f
	if t, ok := s["type"].([]any); ok && len(t) > 1 {
		f("schema-type-union", path+"/type", fmt.Sprintf("type is a list (%s)", shown(t)), "use one type; leave the property out instead of sending null")
	}
	if property && !hasShape(s) {
		f("schema-missing-type", path, "the property has no type", `give it a "type"`)
	}
	if ap, ok := s["additionalProperties"].(map[string]any); ok {
		if n, ok := ap["not"].(map[string]any); ok && len(n) == 0 && len(ap) == 1 {
			f("schema-additional-properties", path+"/additionalProperties", `additionalProperties is {"not": {}}: some clients only understand false`, `write "additionalProperties": false`)
		}
	}
	if format := str(s, "format"); format != "" && !slices.Contains(commonFormats, format) {
		f("schema-format-unportable", path+"/format", fmt.Sprintf("format %q is not one most clients know", format), "use a pattern, and say the form in the description")
	}
	w.required(s, path)
	w.children(s, path)
}

func (w *schemaWalker) ref(s map[string]any, path string) {
	ref, ok := s["$ref"].(string)
	switch {
	case !ok:
	case !resolves(w.root, ref):
		w.unresolved = true
		w.f("schema-unresolved-ref", path+"/$ref", fmt.Sprintf("$ref %q does not resolve inside the schema", ref), "inline the definition, or add it to $defs")
	case !w.seenRef:
		w.seenRef = true
		w.f("schema-ref", path+"/$ref", fmt.Sprintf("the schema uses $ref (%q): some clients do not resolve it", ref), "inline the definition if the schema stays small")
	}
}

func (w *schemaWalker) required(s map[string]any, path string) {
	req, ok := s["required"].([]any)
	if !ok || !hasType(s, "object") {
		return
	}
	props, _ := s["properties"].(map[string]any)
	for _, r := range req {
		name, _ := r.(string)
		if _, ok := props[name]; ok {
			continue
		}
		why := "a model must invent it"
		if s["additionalProperties"] == false {
			why = "with additionalProperties false no call can be valid"
		}
		w.f("required-unknown", path+"/required", fmt.Sprintf("required lists %q, which properties does not define: %s", name, why), fmt.Sprintf("define %q in properties, or drop it from required", name))
	}
}

// children walks every subschema of s.
func (w *schemaWalker) children(s map[string]any, path string) {
	sub := func(v any, p string, property bool) {
		switch v := v.(type) {
		case map[string]any:
			w.walk(v, p, property)
		case bool:
			if property {
				w.f("schema-boolean-subschema", p, fmt.Sprintf("the schema is just %v: Claude Code and others refuse the tool", v), `write {} for anything, or a schema with a "type"`)
			}
		}
	}
	for _, k := range []string{"properties", "patternProperties", "$defs", "definitions"} {
		m, _ := s[k].(map[string]any)
		for _, name := range sortedKeys(m) {
			sub(m[name], path+"/"+k+"/"+escape(name), k == "properties")
		}
	}
	for _, k := range []string{"items", "additionalItems", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedProperties", "unevaluatedItems"} {
		sub(s[k], path+"/"+k, false)
	}
	for _, k := range []string{"oneOf", "anyOf", "allOf", "prefixItems", "items"} {
		list, _ := s[k].([]any)
		for i, v := range list {
			sub(v, fmt.Sprintf("%s/%s/%d", path, k, i), false)
		}
	}
}

// hasShape reports whether a schema says what kind of value it takes.
func hasShape(s map[string]any) bool {
	for _, k := range []string{"type", "$ref", "enum", "const", "oneOf", "anyOf", "allOf", "not", "properties", "items"} {
		if _, ok := s[k]; ok {
			return true
		}
	}
	return false
}

// resolves reports whether a $ref points inside the schema.
func resolves(root map[string]any, ref string) bool {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return false // remote: clients do not fetch it
	}
	if frag == "" {
		return true
	}
	if !strings.HasPrefix(frag, "/") {
		return anchored(root, frag)
	}
	var cur any = root
	for _, tok := range strings.Split(frag[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[tok]
			if !ok {
				return false
			}
			cur = v
		case []any:
			var i int
			if _, err := fmt.Sscan(tok, &i); err != nil || i < 0 || i >= len(c) {
				return false
			}
			cur = c[i]
		default:
			return false
		}
	}
	return true
}

// anchored reports whether a $anchor or $id fragment names a subschema.
func anchored(v any, name string) bool {
	switch v := v.(type) {
	case map[string]any:
		if v["$anchor"] == name || v["$id"] == "#"+name {
			return true
		}
		for _, x := range v {
			if anchored(x, name) {
				return true
			}
		}
	case []any:
		for _, x := range v {
			if anchored(x, name) {
				return true
			}
		}
	}
	return false
}

// Words that mark an argument or a description.
var (
	dateWords   = []string{"iso", "iso8601", "iso-8601", "8601", "rfc3339", "rfc 3339", "timestamp", "date", "yyyy", "datetime", "date-time", "date/time"}
	limitNames  = []string{"limit", "max", "count", "top", "size", "num", "number", "n", "k", "first", "last", "take", "per_page", "page_size", "pagesize", "perpage", "max_results", "maxresults", "results", "rows", "lines", "entries", "items", "head", "tail"}
	matchNames  = []string{"query", "q", "search", "term", "terms", "keyword", "keywords", "filter", "pattern", "match"}
	searchVerbs = []string{"search", "find", "lookup", "query", "filter", "match", "grep", "locate"}
	matchWords  = []string{"exact", "case-insensitive", "case insensitive", "case-sensitive", "case sensitive", "insensitive", "substring", "prefix", "fuzzy", "regex", "regular expression", "glob", "wildcard", "partial", "contains", "containing", "starts with", "begins with", "matches", "matching", "full-text", "full text", "lucene", "semantic", "similar", "any case", "ignores case", "ignoring case", "like '", "query syntax", "search syntax", "sql"}
	capWordsRe  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(at most|up to|no more than|maximum|max\.?|capped|cap of|limited to|truncat)`)
	})
	paginateKeys = []string{"truncated", "has_more", "hasmore", "hasMore", "next_cursor", "nextcursor", "nextCursor", "next_page", "nextPage", "next_page_token", "nextPageToken", "is_truncated", "isTruncated", "more_available", "partial", "incomplete"}
)

// capped reports whether a tool's results are capped, and what says so.
func (t *tool) capped() (bool, string) {
	if keys := t.paginationFields(); len(keys) > 0 {
		return true, "its results carry " + keys[0]
	}
	if m := capWordsRe().FindString(t.description); m != "" {
		return true, fmt.Sprintf("its description says %q", strings.ToLower(m))
	}
	return false, ""
}

// paginationFields are the fields of a tool's output schema (at the top
// level or in one object below it) that say results were cut.
func (t *tool) paginationFields() []string {
	var out []string
	var look func(s map[string]any, depth int)
	look = func(s map[string]any, depth int) {
		props, _ := s["properties"].(map[string]any)
		for _, k := range sortedKeys(props) {
			if slices.Contains(paginateKeys, k) {
				out = append(out, k)
			}
			if depth == 0 {
				if sub, ok := props[k].(map[string]any); ok {
					look(sub, 1)
				}
			}
		}
	}
	if t.output != nil {
		look(t.output, 0)
	}
	return out
}

func checkParam(t *tool, p param, capped bool, capWhy string, f emit) {
	words := frames.NameWords(p.name)
	desc := strings.ToLower(str(p.schema, "description"))
	if p.boolean {
		return // schema-boolean-subschema said it
	}
	if p.schema != nil && strings.TrimSpace(desc) == "" && !slices.Contains([]string{"cursor"}, p.name) {
		f("description-missing", p.path, fmt.Sprintf("the argument %q has no description: the model guesses its form from the name", p.name),
			fmt.Sprintf("describe %q: its form and an example", p.name))
	} else if n := len(strings.Fields(desc)); n == 1 {
		f("description-missing", p.path+"/description", fmt.Sprintf("the argument %q is described in one word (%q)", p.name, strings.TrimSpace(str(p.schema, "description"))),
			fmt.Sprintf("describe %q: its form and an example", p.name))
	}
	free := isFreeString(p.schema)
	dateLike := free && isDateLike(p.name, words, desc)
	if dateLike {
		f("date-bare-string", p.path, fmt.Sprintf("%q looks like a date but is a bare string: no format, no pattern; \"last month\" is as valid as \"2026-01-31\"", p.name),
			`add "format": "date" (or "date-time") and a "pattern" such as "^\\d{4}-\\d{2}-\\d{2}$", and say the form in the description`)
	}
	if (hasType(p.schema, "integer") || hasType(p.schema, "number")) && capped && isLimitLike(p.name, words) {
		if _, ok := p.schema["maximum"]; !ok {
			if _, ok := p.schema["exclusiveMaximum"]; !ok {
				f("limit-without-maximum", p.path, fmt.Sprintf("%q has no maximum, but results are capped (%s): a model asks for more and takes what comes back for everything", p.name, capWhy),
					fmt.Sprintf(`give %q a "maximum" equal to the cap, and say it in the description`, p.name))
			}
		}
	}
	if free {
		if vals := listedValues(str(p.schema, "description")); len(vals) >= 2 {
			f("enum-in-description", p.path, fmt.Sprintf("%q is a free string, but its description lists values (%s)", p.name, strings.Join(vals, ", ")),
				fmt.Sprintf(`make it "enum": [%s]`, strings.Join(vals, ", ")))
		}
	}
	if free && !dateLike && isMatchLike(t, p, words, desc) && !mentionsAny(t.text(), matchWords) {
		f("matching-undocumented", p.path, fmt.Sprintf("nothing says how %q matches (exact, case-insensitive, substring, fuzzy): a model varies the case or spelling and finds nothing", p.name),
			fmt.Sprintf(`say how it matches in the description of %q ("exact, case-sensitive"; "case-insensitive substring")`, p.name))
	}
}

func isDateLike(name string, words []string, desc string) bool {
	last := ""
	if len(words) > 0 {
		last = words[len(words)-1]
	}
	if slices.Contains([]string{"id", "ids", "name", "format", "field", "column", "type", "key", "zone", "tz", "timezone"}, last) {
		return false // the id of a date, a date's format, a time zone: not a date
	}
	switch {
	case slices.Contains([]string{"since", "until", "date", "timestamp", "datetime", "deadline", "dob", "birthday", "birthdate"}, last),
		last == "at" && len(words) > 1,
		slices.Contains([]string{"since", "until", "date"}, strings.ToLower(name)):
		// an id or a name of a date is not a date
		return !hasWord(words, "id", "name", "format", "field", "column", "type")
	}
	if slices.Contains([]string{"from", "to", "start", "end", "before", "after", "time", "day", "due"}, last) || hasWord(words, "date", "time") {
		return mentionsAny(desc, dateWords) || strings.Contains(desc, "yyyy")
	}
	return false
}

func isLimitLike(name string, words []string) bool {
	n := strings.ToLower(name)
	if slices.Contains(limitNames, n) {
		return true
	}
	return hasWord(words, "limit", "max", "maximum") || (len(words) > 1 && words[0] == "max") ||
		slices.Contains([]string{"per_page", "page_size", "pagesize", "perpage", "max_results", "maxresults", "num_results", "top_k", "topk"}, n)
}

func isMatchLike(t *tool, p param, words []string, desc string) bool {
	if hasWord(words, "id", "ids", "uuid", "url", "uri", "path", "file", "dir", "directory", "token", "cursor", "key", "email", "content", "body", "text", "message", "description", "code", "json", "sha", "ref", "branch", "owner", "repo") {
		return false
	}
	if len(words) > 0 && slices.Contains(matchNames, words[len(words)-1]) {
		return true
	}
	// Any other string of a search tool is what it searches by (search_orders'
	// customer); elsewhere a name is just a name (greet's).
	if slices.Contains(searchVerbs, t.firstWord()) || hasWord(t.words, "search") {
		return true
	}
	dw := descriptionWords(desc)
	return slices.Contains(dw, "search") || strings.Contains(desc, "filter by") || strings.Contains(desc, "to match")
}

func mentionsAny(text string, words []string) bool {
	text = strings.ToLower(text)
	for _, w := range words {
		if strings.Contains(text, w) {
			return true
		}
	}
	return false
}

var (
	enumLeadRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(one of|allowed values?|valid values?|possible values?|accepted values?|supported values?|options? (?:are|is)|values? (?:are|is)|must be|can be|either|choose from|valid options)[:\s]`)
	})
	quotedRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("[\"'`]([A-Za-z0-9_.:/-]{1,40})[\"'`]") })
	pipeRe   = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b([a-z][a-z0-9_-]{0,30})(?:\s*\|\s*([a-z][a-z0-9_-]{0,30})){1,}\b`)
	})
)

// listedValues returns the values a description enumerates after a phrase
// like "one of" (quoted, or a|b|c), or nil.
func listedValues(desc string) []string {
	loc := enumLeadRe().FindStringIndex(desc)
	if loc == nil {
		return nil
	}
	rest := desc[loc[1]:]
	if i := strings.IndexAny(rest, ".;\n"); i >= 0 && !strings.ContainsAny(rest[:i], "\"'`") {
		rest = rest[:i]
	}
	if len(rest) > 200 {
		rest = rest[:200]
	}
	var vals []string
	for _, m := range quotedRe().FindAllStringSubmatch(rest, 12) {
		if v := strconvQuote(m[1]); !slices.Contains(vals, v) {
			vals = append(vals, v)
		}
	}
	if len(vals) >= 2 {
		return vals
	}
	if m := pipeRe().FindString(rest); m != "" {
		vals = nil
		for _, v := range strings.Split(m, "|") {
			vals = append(vals, strconvQuote(strings.TrimSpace(v)))
		}
		return vals
	}
	return nil
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

func quote(s string) string { return strconvQuote(s) }

func shown(v any) string {
	if v == nil {
		return "missing"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// checkTruncation flags results that carry a truncation or pagination
// field the tool's description never mentions.
func checkTruncation(t *tool, f emit) {
	desc := strings.ToLower(t.title + " " + t.description)
	for _, k := range t.paginationFields() {
		words := strings.Join(frames.NameWords(k), " ")
		if strings.Contains(desc, strings.ToLower(k)) || strings.Contains(desc, words) || mentionsAny(desc, []string{"truncat", "cursor", "paginat", "next page", "more results", "has more", "partial"}) {
			continue
		}
		f("truncation-undocumented", "/outputSchema/properties/"+escape(k), fmt.Sprintf("results carry %q, and the description never says what it means or what to do", k),
			fmt.Sprintf("say in the description that %s means more matched, and how to get the rest", k))
		return
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
