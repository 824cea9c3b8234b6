//! The JSON Schemas under `schema/`: fresh (what `quill schema` prints now), valid draft
//! 2020-12, strict enough to catch a key the code adds without the schema — and, through
//! `validate_answer`, which `util` calls on every run, the judge of every JSON answer the
//! test suite sees.

use std::collections::HashMap;
use std::fs;
use std::path::Path;
use std::sync::OnceLock;

use serde_json::{Value, json};

use crate::util::*;

/// The names `quill schema` knows, as committed under `schema/NAME.json`.
const NAMES: [&str; 13] = [
    "read", "write", "edit", "apply", "undo", "rm", "glob", "grep", "transfer", "state", "version",
    "error", "progress",
];

fn schema_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/schema"))
}

/// The committed schemas, compiled once per test binary.
fn validators() -> &'static HashMap<&'static str, jsonschema::Validator> {
    static V: OnceLock<HashMap<&'static str, jsonschema::Validator>> = OnceLock::new();
    V.get_or_init(|| {
        NAMES
            .iter()
            .map(|name| {
                let path = schema_dir().join(format!("{name}.json"));
                let text =
                    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                let schema: Value = serde_json::from_str(&text)
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                let v = jsonschema::draft202012::new(&schema)
                    .unwrap_or_else(|e| panic!("{} does not compile: {e}", path.display()));
                (*name, v)
            })
            .collect()
    })
}

/// Check one line of `transfer --progress json` (an object with `event`) against
/// schema/progress.json.
pub fn validate_event(event: &Value) -> Result<(), String> {
    validate("progress", event)
}

/// Check one JSON answer of quill (an object with `ok`) against the schema of its op, or the
/// error schema for a failure. Err names every violation.
pub fn validate_answer(answer: &Value) -> Result<(), String> {
    let name = match (answer.get("ok"), answer.get("op")) {
        (Some(Value::Bool(false)), _) => "error",
        (Some(Value::Bool(true)), Some(Value::String(op))) => op.as_str(),
        _ => return Err("an answer needs `ok` (a boolean) and, on success, `op`".into()),
    };
    validate(name, answer)
}

/// `value` against schema/NAME.json: Err names the first violations.
fn validate(name: &str, value: &Value) -> Result<(), String> {
    let Some(v) = validators().get(name) else {
        return Err(format!("no schema named {name:?} under schema/"));
    };
    let errors: Vec<String> = v
        .iter_errors(value)
        .take(8)
        .map(|e| format!("  at {}: {e}", e.instance_path()))
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{value} does not match schema/{name}.json:\n{}",
            errors.join("\n")
        ))
    }
}

#[test]
fn the_committed_schemas_are_fresh() {
    let env = TestEnv::new();
    for name in NAMES {
        let out = env.text(&["schema", name]);
        out.ok();
        check_generated(&schema_dir().join(format!("{name}.json")), &out.stdout);
    }
}

#[test]
fn schema_alone_prints_them_all_keyed_by_name() {
    let env = TestEnv::new();
    let out = env.text(&["schema"]);
    out.ok();
    let all: Value = serde_json::from_str(&out.stdout).expect("one JSON object");
    let keys: Vec<&str> = all
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, NAMES);
    for name in NAMES {
        let one = env.text(&["schema", name]);
        let one: Value = serde_json::from_str(&one.stdout).unwrap();
        assert_eq!(all[name], one, "{name}");
    }
    // `--json` changes nothing: a schema is printed as it is.
    let out = env.json(&["schema", "edit"]);
    assert!(out.stdout.contains("\"$schema\""));
}

#[test]
fn an_unknown_name_is_a_usage_error_that_lists_the_names() {
    let env = TestEnv::new();
    let out = env.json(&["schema", "frobnicate"]);
    out.err("usage", 2);
    assert!(out.failure().error.message.contains("frobnicate"));
    let hint = out.json["error"]["hint"]
        .as_str()
        .unwrap_or_default()
        .to_string()
        + out.stdout.as_str();
    assert!(
        hint.contains("edit"),
        "names the valid ones: {}",
        out.stdout
    );
}

#[test]
fn every_schema_is_valid_draft_2020_12_and_closed() {
    for name in NAMES {
        let text = fs::read_to_string(schema_dir().join(format!("{name}.json"))).unwrap();
        let schema: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            schema["$schema"],
            "https://json-schema.org/draft/2020-12/schema"
        );
        assert!(
            jsonschema::meta::is_valid(&schema),
            "{name}.json is not a valid schema"
        );
        assert!(text.contains("\"unevaluatedProperties\": false"), "{name}");
    }
}

/// A validator that accepts anything proves nothing: real answers, changed the way a drifting
/// implementation would change them, must be refused.
#[test]
fn the_schemas_refuse_what_the_code_does_not_write() {
    let env = TestEnv::new();
    env.write("a.txt", "one\ntwo\n");
    let read = env.json(&["read", "a.txt"]);
    read.ok();
    let edit = env.json(&["edit", "a.txt", "--old", "one", "--new", "uno"]);
    edit.ok();
    let miss = env.json(&["edit", "a.txt", "--old", "zzz", "--new", "y"]);
    miss.err("edit_no_match", 3);
    env.write("gone.txt", "x\n");
    env.json(&["read", "gone.txt"]).ok();
    let rm = env.json(&["rm", "gone.txt"]);
    rm.ok();
    for good in [&read.json, &edit.json, &miss.json, &rm.json] {
        validate_answer(good).unwrap();
    }
    let mutants: Vec<(&str, Value)> = vec![
        ("an unknown key", with(&read.json, &["surprise"], json!(1))),
        ("a renamed key", without(&read.json, &["totalLines"])),
        ("a wrong type", with(&read.json, &["startLine"], json!("1"))),
        (
            "a null that may not be",
            with(&edit.json, &["sha256"], Value::Null),
        ),
        (
            "a hash of content rm left none of",
            with(&rm.json, &["sha256"], json!(rm.json["previousSha256"])),
        ),
        ("another op", with(&edit.json, &["op"], json!("glob"))),
        (
            "ok false on a success",
            with(&edit.json, &["ok"], json!(false)),
        ),
        (
            "an unknown error kind",
            with(&miss.json, &["error", "kind"], json!("oops")),
        ),
        (
            "a key of another kind",
            with(&miss.json, &["error", "count"], json!(2)),
        ),
        (
            "an unknown key in the error",
            with(&miss.json, &["error", "extra"], json!(2)),
        ),
        (
            "a nested unknown key",
            with(&read.json, &["fileAccess", "mode"], json!("r")),
        ),
    ];
    let event = json!({"event": "progress", "bytes": 1, "total": 2});
    validate_event(&event).unwrap();
    assert!(validate_event(&with(&event, &["rate"], json!(3))).is_err());
    assert!(validate_event(&without(&event, &["total"])).is_err());
    for (what, bad) in mutants {
        assert!(
            validate_answer(&bad).is_err(),
            "{what} passed validation: {bad}"
        );
    }
}

fn with(v: &Value, path: &[&str], value: Value) -> Value {
    let mut v = v.clone();
    let (last, parents) = path.split_last().unwrap();
    let mut at = &mut v;
    for p in parents {
        at = &mut at[*p];
    }
    at[*last] = value;
    v
}

fn without(v: &Value, path: &[&str]) -> Value {
    let mut v = v.clone();
    let (last, parents) = path.split_last().unwrap();
    let mut at = &mut v;
    for p in parents {
        at = &mut at[*p];
    }
    at.as_object_mut().unwrap().remove(*last);
    v
}

/// The `format` values JSON Schema 2020-12 defines (its format vocabulary). Ajv with
/// ajv-formats knows every one; in strict mode it refuses a schema with any other.
const STANDARD_FORMATS: [&str; 19] = [
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// The keywords of JSON Schema 2020-12 (core, applicator, unevaluated, validation,
/// meta-data, format and content vocabularies): Ajv's strict mode refuses any other
/// (`nullable`, an `x-` key, schemars' leftovers).
const KEYWORDS: [&str; 57] = [
    "$schema",
    "$id",
    "$ref",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$vocabulary",
    "$comment",
    "$defs",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentSchemas",
    "prefixItems",
    "items",
    "contains",
    "properties",
    "patternProperties",
    "additionalProperties",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "type",
    "enum",
    "const",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxContains",
    "minContains",
    "maxProperties",
    "minProperties",
    "required",
    "dependentRequired",
    "title",
    "description",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "examples",
    "format",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
];

/// What a strict validator (Ajv's strict mode) refuses in `schema`: a key in a schema's
/// place that is no keyword, or a `format` JSON Schema does not define — each as
/// `POINTER: what`. Walks only the places that hold schemas (a property named `format` is a
/// property, not a format).
pub fn strict_problems(schema: &Value) -> Vec<String> {
    fn walk(s: &Value, at: &str, out: &mut Vec<String>) {
        let Value::Object(o) = s else {
            if !s.is_boolean() {
                out.push(format!("{at}: a schema is an object or a boolean, not {s}"));
            }
            return;
        };
        for (k, v) in o {
            let here = format!("{at}/{k}");
            match k.as_str() {
                "properties" | "patternProperties" | "$defs" | "dependentSchemas" => {
                    for (name, sub) in v.as_object().into_iter().flatten() {
                        walk(sub, &format!("{here}/{name}"), out);
                    }
                }
                "items"
                | "additionalProperties"
                | "unevaluatedProperties"
                | "unevaluatedItems"
                | "not"
                | "if"
                | "then"
                | "else"
                | "contains"
                | "propertyNames"
                | "contentSchema" => walk(v, &here, out),
                "allOf" | "anyOf" | "oneOf" | "prefixItems" => {
                    for (i, sub) in v.as_array().into_iter().flatten().enumerate() {
                        walk(sub, &format!("{here}/{i}"), out);
                    }
                }
                "format" if v.as_str().is_some_and(|f| STANDARD_FORMATS.contains(&f)) => {}
                "format" => out.push(format!("{here}: {v} is not a format JSON Schema defines")),
                k if KEYWORDS.contains(&k) => {}
                k => out.push(format!("{here}: `{k}` is not a JSON Schema keyword")),
            }
        }
    }
    let mut out = Vec::new();
    walk(schema, "#", &mut out);
    out
}

#[test]
fn every_published_schema_passes_a_strict_validator() {
    // The walk finds what Ajv's strict mode refuses.
    let bad = json!({"type": "object", "properties": {
        "format": {"type": "integer", "format": "uint64"},
        "b": {"type": "string", "nullable": true},
        "c": {"type": "string", "format": "date-time"},
    }});
    assert_eq!(
        strict_problems(&bad).len(),
        2,
        "{:?}",
        strict_problems(&bad)
    );
    let env = TestEnv::new();
    let mut problems = Vec::new();
    for name in NAMES {
        let text = fs::read_to_string(schema_dir().join(format!("{name}.json"))).unwrap();
        let schema: Value = serde_json::from_str(&text).unwrap();
        for p in strict_problems(&schema) {
            problems.push(format!("schema/{name}.json {p}"));
        }
    }
    let out = env.text(&["schema"]);
    out.ok();
    let all: Value = serde_json::from_str(&out.stdout).unwrap();
    for (name, schema) in all.as_object().unwrap() {
        for p in strict_problems(schema) {
            problems.push(format!("quill schema {name}: {p}"));
        }
    }
    for (format, key) in [
        ("json", "/inputSchema"),
        ("openai", "/function/parameters"),
        ("anthropic", "/input_schema"),
    ] {
        let out = env.text(&["tools", "--format", format]);
        out.ok();
        let tools: Vec<Value> = serde_json::from_str(&out.stdout).unwrap();
        assert_eq!(tools.len(), 10);
        for tool in &tools {
            let schema = tool.pointer(key).expect("an argument schema");
            for p in strict_problems(schema) {
                problems.push(format!(
                    "quill tools --format {format}, {}: {p}",
                    tool.pointer("/name")
                        .or(tool.pointer("/function/name"))
                        .unwrap()
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
