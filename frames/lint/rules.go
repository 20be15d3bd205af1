package lint

import "sync"

// A Rule is one check: its id, default severity, why it matters in one
// line, and the general fix (each finding says the specific one).
type Rule struct {
	ID       string   `json:"id"`
	Severity Severity `json:"severity"`
	Why      string   `json:"why"`
	Fix      string   `json:"fix"`
	// Probe rules need jig lint --probe: their evidence is a call's answer.
	Probe bool `json:"probe,omitempty"`
}

const defaultMaxDescriptionTokens = 500

// Rules is the catalogue, in the order the README documents it.
var Rules = []Rule{
	{"date-bare-string", Warning, "a date typed as a bare string accepts anything a model writes, \"last month\" too, and a handler that cannot parse it often answers with nothing",
		`add "format": "date" or "date-time" and a "pattern", and say the form in the description`, false},
	{"limit-without-maximum", Warning, "results are capped but the limit has no maximum: a model asks for 500, gets 20 and takes them for all there is",
		`give the limit argument a "maximum" equal to the cap, and say the cap in its description`, false},
	{"truncation-undocumented", Warning, "results carry a truncation or pagination field the description never mentions, so a model has no reason to read it",
		"say in the tool's description what the field means and what to do next (ask again with the cursor, narrow the query)", false},
	{"enum-in-description", Warning, "a free string whose description lists the allowed values: the schema lets a model send anything else",
		`make it an "enum" of those values`, false},
	{"matching-undocumented", Warning, "a name or search argument whose matching rule (exact, case-insensitive, prefix, fuzzy) nobody wrote down: a model varies the case or spelling and finds nothing",
		`say how it matches in the argument's description ("exact, case-sensitive", "case-insensitive substring")`, false},
	{"tool-names-confusable", Warning, "two tools whose names differ by a letter, a plural or a spelling: a model picks the wrong one",
		"rename one so the difference is a word (search_orders / get_order_by_id), and say in each description when to use the other", false},
	{"descriptions-near-duplicate", Warning, "two tools described in nearly the same words: a model cannot tell when to use which",
		"say in each description what sets it apart and when to use the other", false},
	{"description-missing", Warning, "a tool or argument with no description (or one word): the model guesses what it does from its name",
		"describe what it does, what it returns and when to use it; for an argument, its form and an example", false},
	{"description-oversized", Warning, "a description this long costs every prompt the tools are listed in, whether the tool is used or not",
		"cut it to what a model needs to choose the tool and write its arguments; move the rest to a resource", false},
	{"annotations-missing", Info, "without annotations a client must assume a tool may write, destroy and reach outside systems, and asks before every call",
		`declare readOnlyHint, destructiveHint, idempotentHint and openWorldHint`, false},
	{"annotation-contradicts-name", Error, "the annotations say the opposite of the tool's name (a delete_* that is not destructive, a create_* that only reads): a client trusts the annotation",
		"make the annotations say what the tool does", false},
	{"required-unknown", Error, "required names a property the schema does not define: with additionalProperties false no call can be valid, otherwise a model must invent it",
		"define the property, or drop it from required", false},
	{"schema-not-object", Error, `the input schema is not an object schema with "type": "object": the spec requires one, and clients drop or refuse the tool`,
		`give it "type": "object" and its "properties"`, false},
	{"schema-invalid", Error, "the schema is not valid JSON Schema: clients that validate arguments refuse every call, others ignore it",
		"fix the schema (the message says where)", false},
	{"schema-unresolved-ref", Error, "a $ref that does not resolve inside the schema: clients do not fetch remote references",
		"inline the definition, or add it to $defs", false},
	{"schema-ref", Info, "some clients do not resolve $ref, and show the model an argument of unknown shape",
		"inline the definition where the tool is small enough", false},
	{"schema-root-combinator", Warning, "oneOf, anyOf or allOf at the root of an input schema: several model APIs refuse it",
		"make the root an object with properties, and move the alternatives into one property", false},
	{"schema-boolean-subschema", Warning, "a schema that is just true or false: valid JSON Schema, refused by some clients (Claude Code: \"Invalid input\")",
		`write {} for anything, or a schema with a "type"`, false},
	{"schema-type-union", Info, `"type" as a list ("nullable" types): some model APIs accept only one type`,
		"use one type, and leave the property out instead of sending null", false},
	{"schema-missing-type", Info, "a property schema with no type: some clients skip the tool, and a model guesses the shape",
		`give it a "type"`, false},
	{"schema-additional-properties", Info, `additionalProperties as a schema ({"not": {}}) where false is meant: some clients only understand the boolean`,
		`write "additionalProperties": false`, false},
	{"schema-format-unportable", Info, "a format most clients and model APIs do not know: it is ignored, and the model is not told the form",
		"use a common format (date, date-time, email, uri, uuid) or a pattern, and say the form in the description", false},
	{"tool-name-invalid", Error, "a tool name outside the spec's rules (1 to 128 characters of A-Z a-z 0-9 _ - .), or listed twice: clients refuse or rename it",
		"rename it with letters, digits, _ and - only", false},
	{"tool-name-unportable", Info, "a name with a dot or over 64 characters: model APIs that take tool names as function names refuse it",
		"rename it to at most 64 characters of letters, digits, _ and -", false},
	{"output-schema-missing", Warning, "results carry structuredContent but the tool declares no outputSchema: clients cannot validate it and models do not know its shape",
		"declare an outputSchema for the structured result", true},
	{"structured-content-invalid", Error, "the structuredContent a call returned does not match the tool's own outputSchema",
		"make the result match its schema, or the schema the result", true},
	{"probe-unparseable-date-accepted", Warning, "an unparseable date was accepted without an error: a model's \"last month\" silently means something else",
		`reject what you cannot parse with a tool error that says the form, and declare "format" and "pattern"`, true},
	{"probe-limit-silently-capped", Warning, "a limit above the cap was accepted and the results cut without the schema or description saying so",
		`declare the cap as "maximum", and say it in the description`, true},
	{"probe-case-sensitive-undocumented", Warning, "the same name in another case found other results, and nothing says matching is case-sensitive",
		`say "exact, case-sensitive" in the argument's description, or match case-insensitively`, true},
}

// ruleByID indexes Rules, built on first use: nothing at package init,
// which every run of jig pays for.
var ruleByID = sync.OnceValue(func() map[string]Rule {
	m := make(map[string]Rule, len(Rules))
	for _, r := range Rules {
		m[r.ID] = r
	}
	return m
})

// RuleOf returns the rule with the given id.
func RuleOf(id string) (Rule, bool) {
	r, ok := ruleByID()[id]
	return r, ok
}
