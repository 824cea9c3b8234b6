//! The JSON Schema (draft 2020-12) of every answer quill prints with `--json`: one per op's
//! success object and one for the error object, generated from the very types `output`
//! serializes (`report`, `error`, `warnings`) with schemars, so the schema cannot say one
//! thing while the code writes another. `quill schema [OP]` prints them; `schema/` holds the
//! committed copies, and the test suite validates every JSON answer it sees against those.
//!
//! Every object is closed (`unevaluatedProperties: false`): a key the schema does not name
//! fails validation, so a new key must be added here (by adding it to its type) before a test
//! can pass. A key that may be null is required; a key that only applies to some answers is
//! optional (schemars' serialize contract: `skip_serializing_if` makes a key optional).
//! Pure: no I/O.

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde_json::{Map, Value, json};

use crate::error::Error;
use crate::report::search::GrepReport;
use crate::report::transfer::ProgressEvent;
use crate::report::{
    ApplyReport, GlobReport, ListingReport, MutationReport, ReadReport, StateReport,
    TransferReport, VersionReport,
};
use crate::warnings::Warning;

/// The names `quill schema NAME` takes, in the order `quill schema` prints them: every op
/// with a JSON answer, then `error`.
pub(crate) const NAMES: [&str; 13] = [
    "read", "write", "edit", "apply", "undo", "rm", "glob", "grep", "transfer", "state", "version",
    "error", "progress",
];

/// The ops whose failures the error object describes (`null`: no subcommand was identified).
const FAILING_OPS: [&str; 17] = [
    "read",
    "write",
    "edit",
    "apply",
    "undo",
    "rm",
    "glob",
    "grep",
    "transfer",
    "state",
    "tools",
    "call",
    "mcp",
    "guide",
    "completions",
    "man",
    "schema",
];

/// The success envelope around a report: `ok`, `op`, the report's keys, `warnings`.
#[derive(JsonSchema)]
#[schemars(rename_all = "camelCase")]
#[allow(dead_code)] // only its schema is used
struct Success<R> {
    /// Always true for a success (a search that found nothing included: exit 1).
    ok: bool,
    /// The command that answered.
    op: String,
    #[schemars(flatten)]
    report: R,
    /// What went wrong without failing the command, in the order it happened.
    warnings: Vec<Warning>,
}

/// The failure envelope.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct Failure {
    /// Always false for a failure.
    ok: bool,
    /// The command that failed; null when no command could be identified on the command line.
    op: Option<String>,
    error: ErrorObject,
    /// What went wrong before the failure without causing it.
    warnings: Vec<Warning>,
}

/// The error: its `kind` (which decides the exit code and the kind-specific keys), a message
/// for people, and a hint that names the next call, when quill knows one.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct ErrorObject {
    #[schemars(flatten)]
    error: Error,
    /// What happened and why, in one sentence (never the content of a file).
    message: String,
    /// What to do next — often the exact next call; null when there is nothing to suggest.
    hint: Option<String>,
    /// A transfer across machines: the other machine, when the failure happened there (the
    /// kind is then the far quill's own) or on the way to it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    host: Option<String>,
}

/// `read` answers a file's page or, for a directory, a page of its listing.
#[derive(JsonSchema)]
#[schemars(untagged)]
#[allow(dead_code)]
enum ReadAnswer {
    File(Success<ReadReport>),
    Directory(Success<ListingReport>),
}

/// `undo` answers one file's restoration or, without a PATH, the whole multi-file change it
/// reverted.
#[derive(JsonSchema)]
#[schemars(untagged)]
#[allow(dead_code)]
#[allow(clippy::large_enum_variant)] // never built: only its schema is used
enum UndoAnswer {
    File(Success<MutationReport>),
    Change(Success<ApplyReport>),
}

/// The schema printed by `quill schema NAME`; None for a name it does not know.
pub(crate) fn of(name: &str) -> Option<Value> {
    let (schema, ops): (Schema, &[&str]) = match name {
        "read" => (root::<ReadAnswer>(), &["read"]),
        "write" => (root::<Success<MutationReport>>(), &["write"]),
        "edit" => (root::<Success<MutationReport>>(), &["edit"]),
        "apply" => (root::<Success<ApplyReport>>(), &["apply"]),
        "undo" => (root::<UndoAnswer>(), &["undo"]),
        "rm" => (root::<Success<MutationReport>>(), &["rm"]),
        "glob" => (root::<Success<GlobReport>>(), &["glob"]),
        "grep" => (root::<Success<GrepReport>>(), &["grep"]),
        "transfer" => (root::<Success<TransferReport>>(), &["transfer"]),
        "state" => (root::<Success<StateReport>>(), &["state"]),
        "version" => (root::<Success<VersionReport>>(), &["version"]),
        "error" => (root::<Failure>(), &[]),
        "progress" => (root::<ProgressEvent>(), &[]),
        _ => return None,
    };
    let mut value = schema.to_value();
    envelope(&mut value, name, ops);
    mutation_hash(&mut value, name);
    close(&mut value, true);
    unwrap_lines(&mut value);
    standard_formats(&mut value);
    // The identification first, then the schema as generated.
    let mut head = Map::new();
    head.insert(
        "$schema".into(),
        json!("https://json-schema.org/draft/2020-12/schema"),
    );
    head.insert("$id".into(), json!(format!("quill/schema/{name}.json")));
    head.insert(
        "title".into(),
        json!(match name {
            "error" => "quill: the failure (`ok: false`) of any command".to_string(),
            "progress" => "quill transfer --progress json: one line on stderr".to_string(),
            op => format!("quill {op}: a success (`ok: true`)"),
        }),
    );
    if let Value::Object(rest) = value {
        for (k, v) in rest {
            if k != "title" {
                head.entry(k).or_insert(v);
            }
        }
    }
    Some(Value::Object(head))
}

/// Doc comments become descriptions line by line; join the lines of a paragraph.
fn unwrap_lines(v: &mut Value) {
    match v {
        Value::Object(o) => {
            for (k, x) in o.iter_mut() {
                match x {
                    Value::String(s) if k == "description" => {
                        *s = s
                            .split("\n\n")
                            .map(|p| p.split('\n').map(str::trim).collect::<Vec<_>>().join(" "))
                            .collect::<Vec<_>>()
                            .join("\n\n");
                    }
                    _ => unwrap_lines(x),
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(unwrap_lines),
        _ => {}
    }
}

/// The `format` values JSON Schema 2020-12 defines (its format vocabulary, §7.3).
pub(crate) const STANDARD_FORMATS: [&str; 19] = [
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

/// Drop the formats JSON Schema does not define — schemars writes one per Rust number type
/// (`uint64`, `uint`, `double`, …), which a strict validator (Ajv's strict mode) refuses as
/// unknown. What they said stays said by standard keywords: the `minimum` 0 schemars writes
/// beside an unsigned one, and the `maximum` of a narrow one (`uint32`), added here.
fn standard_formats(v: &mut Value) {
    match v {
        Value::Object(o) => {
            let format = o.get("format").and_then(Value::as_str).map(str::to_string);
            if let Some(format) = format.filter(|f| !STANDARD_FORMATS.contains(&f.as_str())) {
                o.remove("format");
                let maximum = match format.as_str() {
                    "uint8" => Some(u64::from(u8::MAX)),
                    "uint16" => Some(u64::from(u16::MAX)),
                    "uint32" => Some(u64::from(u32::MAX)),
                    _ => None,
                };
                if let Some(m) = maximum {
                    o.entry("maximum").or_insert(json!(m));
                }
            }
            o.values_mut().for_each(standard_formats);
        }
        Value::Array(a) => a.iter_mut().for_each(standard_formats),
        _ => {}
    }
}

/// `quill schema`: every schema, keyed by name.
pub(crate) fn all() -> Value {
    let mut m = Map::new();
    for name in NAMES {
        if let Some(s) = of(name) {
            m.insert(name.to_string(), s);
        }
    }
    Value::Object(m)
}

/// A schema with every subschema inlined (no `$defs`): each object's place then says
/// whether it is a whole value (closed) or a part merged into another (`close`).
fn root<T: JsonSchema>() -> Schema {
    let mut settings = SchemaSettings::draft2020_12().for_serialize();
    settings.inline_subschemas = true;
    SchemaGenerator::new(settings).into_root_schema_for::<T>()
}

/// Pin `ok` and `op` to what this schema's answers hold.
fn envelope(v: &mut Value, name: &str, ops: &[&str]) {
    let error = name == "error";
    let pin = |props: &mut Map<String, Value>| {
        if let Some(ok) = props.get_mut("ok") {
            set(ok, "const", json!(!error));
        }
        if let Some(op) = props.get_mut("op") {
            let allowed: Vec<Value> = if error {
                FAILING_OPS
                    .iter()
                    .map(|o| json!(o))
                    .chain([Value::Null])
                    .collect()
            } else {
                ops.iter().map(|o| json!(o)).collect()
            };
            set(op, "enum", Value::Array(allowed));
        }
    };
    // The envelope is the root object, or each branch of `read`'s two answers.
    if let Some(props) = v.get_mut("properties").and_then(Value::as_object_mut) {
        pin(props);
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(branches) = v.get_mut(key).and_then(Value::as_array_mut) {
            for b in branches {
                if let Some(props) = b.get_mut("properties").and_then(Value::as_object_mut) {
                    pin(props);
                }
            }
        }
    }
}

/// The mutation object's `sha256` is null only when no file is left: always for `rm`, never for
/// `write` and `edit`; `undo` may do either (the undo of a creation removes the file).
fn mutation_hash(v: &mut Value, name: &str) {
    let Some(hash) = v.pointer_mut("/properties/sha256") else {
        return;
    };
    match name {
        "write" | "edit" => set(hash, "type", json!("string")),
        "rm" => {
            set(hash, "type", json!("null"));
            if let Some(o) = hash.as_object_mut() {
                o.remove("pattern");
            }
        }
        _ => {}
    }
}

fn set(v: &mut Value, key: &str, value: Value) {
    if let Some(o) = v.as_object_mut() {
        o.insert(key.into(), value);
    }
}

/// Close every object that is a whole value (`unevaluatedProperties: false`); the branches of
/// a schema that also has properties of its own are parts of one object (a flattened enum)
/// and stay open — the object they merge into is closed and sees their keys.
fn close(v: &mut Value, whole: bool) {
    let Some(obj) = v.as_object_mut() else {
        return;
    };
    let has_properties = obj.contains_key("properties");
    if whole && has_properties {
        obj.entry("unevaluatedProperties")
            .or_insert(Value::Bool(false));
    }
    if let Some(props) = obj.get_mut("properties").and_then(Value::as_object_mut) {
        for p in props.values_mut() {
            close(p, true);
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(items) = obj.get_mut(key) {
            close(items, true);
        }
    }
    for key in ["oneOf", "anyOf", "allOf"] {
        if let Some(branches) = obj.get_mut(key).and_then(Value::as_array_mut) {
            for b in branches {
                close(b, whole && !has_properties && key != "allOf");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds_in(schema: &Value) -> Vec<String> {
        schema["properties"]["error"]["oneOf"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|b| b["properties"]["kind"]["const"].as_str())
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn every_name_has_a_schema_of_draft_2020_12() {
        for name in NAMES {
            let s = of(name).unwrap();
            assert_eq!(
                s["$schema"], "https://json-schema.org/draft/2020-12/schema",
                "{name}"
            );
            assert!(!s.to_string().contains("$ref"), "{name}: everything inline");
        }
        assert!(of("frobnicate").is_none());
    }

    #[test]
    fn only_standard_formats_are_left() {
        let mut v = json!({"properties": {
            "a": {"type": "integer", "format": "uint64", "minimum": 0},
            "b": {"type": "integer", "format": "uint32", "minimum": 0},
            "c": {"type": "number", "format": "double"},
            "d": {"type": "string", "format": "date-time"},
            "format": {"type": "string"},
        }});
        standard_formats(&mut v);
        assert_eq!(
            v["properties"],
            json!({
                "a": {"type": "integer", "minimum": 0},
                "b": {"type": "integer", "minimum": 0, "maximum": 4294967295u64},
                "c": {"type": "number"},
                "d": {"type": "string", "format": "date-time"},
                "format": {"type": "string"},
            })
        );
        for name in NAMES {
            let s = of(name).unwrap().to_string();
            assert!(!s.contains("\"format\":\"uint"), "{name}");
        }
    }

    #[test]
    fn the_error_schema_names_every_kind() {
        let kinds = kinds_in(&of("error").unwrap());
        for (_, expected) in crate::error::tests::TABLE.iter() {
            for k in expected.iter() {
                assert!(kinds.iter().any(|x| x == k), "{k} missing from {kinds:?}");
            }
        }
    }

    #[test]
    fn whole_objects_are_closed_and_merged_parts_open() {
        let mut v = json!({
            "type": "object",
            "properties": {"a": {"type": "object", "properties": {"b": {}}}},
            "oneOf": [{"properties": {"k": {}}}],
        });
        close(&mut v, true);
        assert_eq!(v["unevaluatedProperties"], false);
        assert_eq!(v["properties"]["a"]["unevaluatedProperties"], false);
        assert!(v["oneOf"][0].get("unevaluatedProperties").is_none());
        let mut w = json!({"oneOf": [{"properties": {"k": {}}}]});
        close(&mut w, true);
        assert_eq!(w["oneOf"][0]["unevaluatedProperties"], false);
    }
}
