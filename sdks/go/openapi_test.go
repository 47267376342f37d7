package cgs_test

// The OpenAPI document as the conformance tests read it: loading, $ref resolution, and a small
// JSON Schema validator for what the SDK sends (types, required, unknown members, patterns, enums).

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
)

type object = map[string]interface{}

// documentPath is the contract, from sdks/go.
var documentPath = filepath.Join("..", "..", "supabase", "functions", "v3", "openapi.json")

var (
	documentOnce sync.Once
	document     object
	documentErr  error
)

func loadDocument(t *testing.T) object {
	t.Helper()
	documentOnce.Do(func() {
		data, err := os.ReadFile(documentPath)
		if err != nil {
			documentErr = err
			return
		}
		documentErr = json.Unmarshal(data, &document)
	})
	if documentErr != nil {
		t.Fatalf("reading the OpenAPI document %s: %v", documentPath, documentErr)
	}
	return document
}

// at follows a path of member names through the document.
func at(doc object, names ...string) object {
	var current interface{} = doc
	for _, name := range names {
		m, ok := current.(object)
		if !ok {
			return nil
		}
		current = m[name]
	}
	m, _ := current.(object)
	return m
}

// resolve follows $ref (local references only) and returns the schema and the last ref's name.
func resolve(doc object, schema object) (object, string) {
	name := ""
	for schema != nil {
		ref, ok := schema["$ref"].(string)
		if !ok {
			break
		}
		parts := strings.Split(strings.TrimPrefix(ref, "#/"), "/")
		name = parts[len(parts)-1]
		schema = at(doc, parts...)
	}
	return schema, name
}

func sortedKeys(m object) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func stringsOf(v interface{}) []string {
	list, _ := v.([]interface{})
	var out []string
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// types is the schema's `type` as a list ("string", or ["string", "null"]).
func types(schema object) []string {
	switch t := schema["type"].(type) {
	case string:
		return []string{t}
	case []interface{}:
		return stringsOf(t)
	}
	return nil
}

// nonNull splits a schema into its non-null part and whether null is allowed: `type: [X, "null"]`
// or `oneOf: [X, {type: null}]`.
func nonNull(doc object, schema object) (object, string, bool) {
	schema, name := resolve(doc, schema)
	ts := types(schema)
	if contains(ts, "null") {
		copied := object{}
		for k, v := range schema {
			copied[k] = v
		}
		var rest []interface{}
		for _, t := range ts {
			if t != "null" {
				rest = append(rest, t)
			}
		}
		copied["type"] = rest
		if len(rest) == 1 {
			copied["type"] = rest[0]
		}
		return copied, name, true
	}
	if variants, ok := schema["oneOf"].([]interface{}); ok {
		var others []object
		nullable := false
		for _, v := range variants {
			variant, _ := v.(object)
			if r, _ := resolve(doc, variant); contains(types(r), "null") && len(types(r)) == 1 {
				nullable = true
				continue
			}
			others = append(others, variant)
		}
		if nullable && len(others) == 1 {
			inner, innerName := resolve(doc, others[0])
			return inner, innerName, true
		}
	}
	return schema, name, false
}

// patternCache compiles the document's patterns for Go's RE2, which lacks lookahead: a `(?!...)`
// group is dropped, so such a pattern checks a little less than the API does.
var patternCache sync.Map

var lookahead = regexp.MustCompile(`\(\?![^)]*\)`)

// ECMAScript's \uFFFF and \u{10FFFF} escapes are RE2's \x{FFFF} and \x{10FFFF}.
var unicodeEscape = regexp.MustCompile(`\\u\{([0-9A-Fa-f]+)\}|\\u([0-9A-Fa-f]{4})`)

func pattern(p string) *regexp.Regexp {
	if re, ok := patternCache.Load(p); ok {
		return re.(*regexp.Regexp)
	}
	re, err := regexp.Compile(unicodeEscape.ReplaceAllString(lookahead.ReplaceAllString(p, ""), `\x{$1$2}`))
	if err != nil {
		re = regexp.MustCompile(``)
	}
	patternCache.Store(p, re)
	return re
}

// validate checks a JSON value against a schema, returning each violation with its location.
func validate(doc object, schema object, value interface{}, where string) []string {
	schema, _ = resolve(doc, schema)
	if schema == nil {
		return nil
	}
	var problems []string
	fail := func(format string, args ...interface{}) {
		problems = append(problems, where+": "+fmt.Sprintf(format, args...))
	}
	if all, ok := schema["allOf"].([]interface{}); ok {
		for _, s := range all {
			sub, _ := s.(object)
			problems = append(problems, validate(doc, sub, value, where)...)
		}
	}
	if variants, ok := schema["oneOf"].([]interface{}); ok {
		matched := 0
		for _, v := range variants {
			sub, _ := v.(object)
			if len(validate(doc, sub, value, where)) == 0 {
				matched++
			}
		}
		if matched != 1 {
			fail("matches %d of oneOf's schemas, not one", matched)
		}
	}
	if ts := types(schema); len(ts) > 0 && !contains(ts, jsonType(value)) &&
		!(contains(ts, "number") && jsonType(value) == "integer") {
		fail("is %s, not %v", jsonType(value), ts)
		return problems
	}
	if enum, ok := schema["enum"].([]interface{}); ok {
		found := false
		for _, e := range enum {
			if e == value {
				found = true
			}
		}
		if !found {
			fail("%v is not one of %v", value, enum)
		}
	}
	if c, ok := schema["const"]; ok && c != value {
		fail("%v is not %v", value, c)
	}
	switch v := value.(type) {
	case string:
		if p, ok := schema["pattern"].(string); ok && !pattern(p).MatchString(v) {
			fail("%q does not match %s", v, p)
		}
	case float64:
		if min, ok := schema["minimum"].(float64); ok && v < min {
			fail("%v is below %v", v, min)
		}
		if max, ok := schema["maximum"].(float64); ok && v > max {
			fail("%v is above %v", v, max)
		}
	case []interface{}:
		if items, ok := schema["items"].(object); ok {
			for i, item := range v {
				problems = append(problems, validate(doc, items, item, fmt.Sprintf("%s/%d", where, i))...)
			}
		}
	case object:
		properties, _ := schema["properties"].(object)
		for _, name := range stringsOf(schema["required"]) {
			if _, ok := v[name]; !ok {
				fail("lacks the required %s", name)
			}
		}
		for _, name := range sortedKeys(v) {
			if property, ok := properties[name].(object); ok {
				problems = append(problems, validate(doc, property, v[name], where+"/"+name)...)
				continue
			}
			switch extra := schema["additionalProperties"].(type) {
			case bool:
				if !extra {
					fail("has the undeclared member %s", name)
				}
			case object:
				if names, ok := schema["propertyNames"].(object); ok {
					problems = append(problems, validate(doc, names, name, where+"/"+name+" (name)")...)
				}
				problems = append(problems, validate(doc, extra, v[name], where+"/"+name)...)
			}
		}
	}
	return problems
}

func jsonType(v interface{}) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case float64:
		if x == float64(int64(x)) {
			return "integer"
		}
		return "number"
	case []interface{}:
		return "array"
	case object:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// operation is one operation of the document.
type operation struct {
	id, method, path string
	op               object
	pathItem         object
}

func operations(doc object) []operation {
	var ops []operation
	paths := at(doc, "paths")
	for _, path := range sortedKeys(paths) {
		item, _ := paths[path].(object)
		for _, method := range []string{"get", "post", "put", "patch", "delete"} {
			if op, ok := item[method].(object); ok {
				id, _ := op["operationId"].(string)
				ops = append(ops, operation{id: id, method: strings.ToUpper(method), path: path, op: op, pathItem: item})
			}
		}
	}
	return ops
}

// operatorOperation: everything but the provider API (tag provider), which game providers call.
func (o operation) operatorOperation() bool {
	return !contains(stringsOf(o.op["tags"]), "provider")
}

// parameters are the operation's parameters (its path item's too), by location and name.
func (o operation) parameters(doc object, in string) map[string]object {
	found := map[string]object{}
	var all []interface{}
	if list, ok := o.pathItem["parameters"].([]interface{}); ok {
		all = append(all, list...)
	}
	if list, ok := o.op["parameters"].([]interface{}); ok {
		all = append(all, list...)
	}
	for _, p := range all {
		parameter, _ := resolve(doc, p.(object))
		if parameter["in"] == in {
			found[parameter["name"].(string)] = parameter
		}
	}
	return found
}

// pathPattern matches the operation's path, each {parameter} one segment.
func (o operation) pathPattern() *regexp.Regexp {
	quoted := regexp.QuoteMeta(o.path)
	return regexp.MustCompile("^" + regexp.MustCompile(`\\\{[^}]*\\\}`).ReplaceAllString(quoted, `[^/]+`) + "$")
}

// requestSchema is the operation's JSON body schema, nil when it takes none.
func (o operation) requestSchema() object {
	return at(o.op, "requestBody", "content", "application/json", "schema")
}

// success is the first 2xx answer: its status, schema and first example (examples resolved).
func (o operation) success(doc object) (int, object, interface{}) {
	responses := at(o.op, "responses")
	for _, code := range sortedKeys(responses) {
		if !strings.HasPrefix(code, "2") {
			continue
		}
		response, _ := resolve(doc, responses[code].(object))
		var status int
		fmt.Sscanf(code, "%d", &status)
		media := at(response, "content", "application/json")
		schema, _ := media["schema"].(object)
		examples, _ := media["examples"].(object)
		for _, name := range sortedKeys(examples) {
			example, _ := resolve(doc, examples[name].(object))
			return status, schema, example["value"]
		}
		return status, schema, nil
	}
	return 0, nil, nil
}
