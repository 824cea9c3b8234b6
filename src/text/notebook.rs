//! Jupyter notebooks as plain text for `quill read`: cells with their sources and the text of
//! their outputs, ANSI escapes stripped, progress lines collapsed, other representations only
//! named. It owns only turning notebook JSON into that text: it never opens a file, never
//! decides whether a file is a notebook (the caller goes by its name), never refuses a
//! notebook Jupyter could open for an odd field, and never panics on any input — bytes that
//! are not a notebook give `Err` with the reason.

use serde_json::{Map, Value};

use crate::text::encoding::Encoding;

/// Renders a Jupyter notebook (nbformat 4, and 3's `worksheets`) as plain text: each cell as a
/// header line (`# %% [code] cell 2 (execution_count 5)`), its source, then its outputs, each
/// introduced by `# -> output (…)`: stream text, `text/plain` of results and display data, and
/// errors as `ename: evalue` plus the traceback. ANSI escapes are stripped from outputs and
/// carriage-return progress lines are collapsed; other representations (images, HTML …) are
/// named in one `# -> output: image/png (not shown)` line. Cells are separated by a blank
/// line. Fields of an unexpected shape are skipped rather than refused, so any notebook
/// Jupyter can open renders. `Err` when the bytes are not JSON or not a notebook.
pub fn render(json: &[u8]) -> Result<String, String> {
    let json = json.strip_prefix(Encoding::Utf8Bom.bom()).unwrap_or(json);
    let root: Value =
        serde_json::from_slice(json).map_err(|e| format!("invalid notebook JSON: {e}"))?;
    let Value::Object(top) = &root else {
        return Err("not a Jupyter notebook: the top level is not a JSON object".to_string());
    };
    let cells: Vec<&Value> = match (top.get("cells"), top.get("worksheets")) {
        (Some(Value::Array(cells)), _) => cells.iter().collect(),
        (None, Some(Value::Array(sheets))) => sheets
            .iter()
            .filter_map(|sheet| sheet.get("cells").and_then(Value::as_array))
            .flatten()
            .collect(),
        _ => return Err("not a Jupyter notebook: no \"cells\" array".to_string()),
    };
    let mut out = String::new();
    for (n, cell) in cells.iter().enumerate() {
        if n > 0 {
            out.push('\n');
        }
        render_cell(&mut out, n + 1, cell);
    }
    Ok(out)
}

fn render_cell(out: &mut String, number: usize, cell: &Value) {
    let empty = Map::new();
    let cell = cell.as_object().unwrap_or(&empty);
    let cell_type = cell
        .get("cell_type")
        .and_then(Value::as_str)
        .unwrap_or("unknown");
    // nbformat 3 keeps headings in their own cell type; render them as markdown.
    let (cell_type, heading) = match cell_type {
        "heading" => {
            let level = cell.get("level").and_then(Value::as_u64).unwrap_or(1);
            ("markdown", Some(level.clamp(1, 6)))
        }
        other => (other, None),
    };
    out.push_str(&format!("# %% [{}] cell {number}", label(cell_type)));
    let count = cell
        .get("execution_count")
        .or_else(|| cell.get("prompt_number"));
    if let Some(Value::Number(count)) = count {
        out.push_str(&format!(" (execution_count {count})"));
    }
    out.push('\n');

    let source = cell
        .get("source")
        .or_else(|| cell.get("input"))
        .and_then(multiline)
        .unwrap_or_default();
    if !source.is_empty() {
        if let Some(level) = heading {
            for _ in 0..level {
                out.push('#');
            }
            out.push(' ');
        }
        push_block(out, &source);
    }
    for output in cell
        .get("outputs")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        render_output(out, output);
    }
}

fn render_output(out: &mut String, output: &Value) {
    let empty = Map::new();
    let output = output.as_object().unwrap_or(&empty);
    let kind = output
        .get("output_type")
        .and_then(Value::as_str)
        .unwrap_or("unknown");
    match kind {
        "stream" => {
            let name = output
                .get("name")
                .or_else(|| output.get("stream"))
                .and_then(Value::as_str)
                .unwrap_or("stdout");
            out.push_str(&format!("# -> output (stream {})\n", label(name)));
            let text = output.get("text").and_then(multiline).unwrap_or_default();
            push_block(out, &collapse_carriage_returns(&strip_ansi(&text)));
        }
        "execute_result" | "display_data" | "pyout" | "update_display_data" => {
            let kind = if kind == "pyout" {
                "execute_result"
            } else {
                kind
            };
            let (text, others) = mime_bundle(output);
            if let Some(text) = &text {
                out.push_str(&format!("# -> output ({kind})\n"));
                push_block(out, &strip_ansi(text));
            }
            if !others.is_empty() {
                out.push_str(&format!("# -> output: {} (not shown)\n", others.join(", ")));
            } else if text.is_none() {
                out.push_str(&format!("# -> output ({kind})\n"));
            }
        }
        "error" | "pyerr" => {
            out.push_str("# -> output (error)\n");
            let field = |key| output.get(key).and_then(Value::as_str).unwrap_or("");
            let (ename, evalue) = (field("ename"), field("evalue"));
            if !ename.is_empty() || !evalue.is_empty() {
                push_block(out, &strip_ansi(&format!("{ename}: {evalue}")));
            }
            let traceback = output
                .get("traceback")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str);
            for entry in traceback {
                push_block(out, &strip_ansi(entry));
            }
        }
        other => out.push_str(&format!("# -> output ({})\n", label(other))),
    }
}

/// The `text/plain` representation and the names of the others. nbformat 4 nests them under
/// `data` by mime type; nbformat 3 puts short names (`text`, `png` …) on the output itself.
fn mime_bundle(output: &Map<String, Value>) -> (Option<String>, Vec<String>) {
    const V3_MIMES: [(&str, &str); 8] = [
        ("text", "text/plain"),
        ("png", "image/png"),
        ("jpeg", "image/jpeg"),
        ("svg", "image/svg+xml"),
        ("html", "text/html"),
        ("latex", "text/latex"),
        ("json", "application/json"),
        ("javascript", "application/javascript"),
    ];
    let entries: Vec<(String, &Value)> = match output.get("data") {
        Some(Value::Object(data)) => data.iter().map(|(k, v)| (label(k), v)).collect(),
        _ => V3_MIMES
            .iter()
            .filter_map(|(short, mime)| Some((mime.to_string(), output.get(*short)?)))
            .collect(),
    };
    let mut text = None;
    let mut others = Vec::new();
    for (mime, value) in entries {
        match (mime.as_str(), multiline(value)) {
            ("text/plain", Some(plain)) => text = Some(plain),
            _ => others.push(mime),
        }
    }
    (text, others)
}

/// A notebook string field: a string, or an array of strings to concatenate (each element
/// carries its own newline). Non-string elements are skipped.
fn multiline(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Array(parts) => Some(parts.iter().filter_map(Value::as_str).collect()),
        _ => None,
    }
}

/// Appends `text` ending with exactly the newline it had, or one if it had none.
fn push_block(out: &mut String, text: &str) {
    out.push_str(text);
    if !text.is_empty() && !text.ends_with('\n') {
        out.push('\n');
    }
}

/// A name from the notebook that goes into a header line: no control characters.
fn label(s: &str) -> String {
    strip_ansi(s).chars().filter(|c| !c.is_control()).collect()
}

/// Removes ANSI/VT escape sequences (CSI such as colors, OSC such as hyperlinks and titles,
/// and the short two- and three-character escapes) that IPython puts in tracebacks.
fn strip_ansi(s: &str) -> String {
    if !s.contains(['\x1b', '\u{9b}']) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\x1b' => match chars.peek().copied() {
                Some('[') => {
                    chars.next();
                    skip_csi(&mut chars);
                }
                Some(']' | 'P' | 'X' | '^' | '_') => {
                    chars.next();
                    // A control string runs to BEL or ST (ESC \).
                    while let Some(c) = chars.next() {
                        if c == '\x07' || (c == '\x1b' && chars.next_if_eq(&'\\').is_some()) {
                            break;
                        }
                    }
                }
                Some(' '..='/') => {
                    while chars.next_if(|c| (' '..='/').contains(c)).is_some() {}
                    chars.next_if(|c| ('0'..='~').contains(c));
                }
                Some('0'..='~') => {
                    chars.next();
                }
                _ => {}
            },
            '\u{9b}' => skip_csi(&mut chars),
            c => out.push(c),
        }
    }
    out
}

fn skip_csi(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    while chars.next_if(|c| (' '..='?').contains(c)).is_some() {}
    chars.next_if(|c| ('@'..='~').contains(c));
}

/// Applies carriage returns the way a terminal shows them: text after a `\r` overwrites the
/// line from its start, so a progress bar shows its last state instead of every update.
fn collapse_carriage_returns(s: &str) -> String {
    if !s.contains('\r') {
        return s.to_string();
    }
    let s = s.replace("\r\n", "\n");
    let mut out = String::with_capacity(s.len());
    for (n, line) in s.split('\n').enumerate() {
        if n > 0 {
            out.push('\n');
        }
        let mut shown: Vec<char> = Vec::new();
        for part in line.split('\r') {
            let part: Vec<char> = part.chars().collect();
            if part.len() >= shown.len() {
                shown = part;
            } else {
                shown.splice(..part.len(), part);
            }
        }
        out.extend(shown);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const NOTEBOOK: &str = r##"{
      "nbformat": 4, "nbformat_minor": 5, "metadata": {},
      "cells": [
        {"cell_type": "markdown", "id": "a", "metadata": {},
         "source": ["# Title\n", "Some *text*."]},
        {"cell_type": "code", "id": "b", "metadata": {}, "execution_count": 5,
         "source": "import sys\nprint('hi')\n1 + 1",
         "outputs": [
           {"output_type": "stream", "name": "stdout", "text": ["hi\n", "there\n"]},
           {"output_type": "stream", "name": "stderr", "text": "  0%\r 50%\r100%\ndone"},
           {"output_type": "execute_result", "execution_count": 5, "metadata": {},
            "data": {"text/plain": ["2"], "text/html": "<b>2</b>"}}
         ]},
        {"cell_type": "code", "id": "c", "metadata": {}, "execution_count": null,
         "source": ["1/0"],
         "outputs": [
           {"output_type": "error", "ename": "ZeroDivisionError", "evalue": "division by zero",
            "traceback": ["\u001b[0;31m---------\u001b[0m", "\u001b[0;31mZeroDivisionError\u001b[0m: division by zero"]}
         ]},
        {"cell_type": "code", "id": "d", "metadata": {}, "execution_count": 7, "source": [],
         "outputs": [
           {"output_type": "display_data", "metadata": {},
            "data": {"image/png": "iVBORw0KGgo=", "text/plain": "<Figure size 640x480 with 1 Axes>"}},
           {"output_type": "display_data", "metadata": {}, "data": {"image/png": "iVBORw0KGgo="}}
         ]},
        {"cell_type": "raw", "id": "e", "metadata": {}, "source": "raw text"}
      ]
    }"##;

    #[test]
    fn notebook_renders_cells_and_outputs() {
        let expected = "\
# %% [markdown] cell 1
# Title
Some *text*.

# %% [code] cell 2 (execution_count 5)
import sys
print('hi')
1 + 1
# -> output (stream stdout)
hi
there
# -> output (stream stderr)
100%
done
# -> output (execute_result)
2
# -> output: text/html (not shown)

# %% [code] cell 3
1/0
# -> output (error)
ZeroDivisionError: division by zero
---------
ZeroDivisionError: division by zero

# %% [code] cell 4 (execution_count 7)
# -> output (display_data)
<Figure size 640x480 with 1 Axes>
# -> output: image/png (not shown)
# -> output: image/png (not shown)

# %% [raw] cell 5
raw text
";
        assert_eq!(render(NOTEBOOK.as_bytes()), Ok(expected.to_string()));
    }

    #[test]
    fn notebook_source_string_or_array() {
        let as_string = r#"{"nbformat": 4, "cells": [{"cell_type": "code", "source": "a = 1\nb = 2\n", "outputs": []}]}"#;
        let as_array = r#"{"nbformat": 4, "cells": [{"cell_type": "code", "source": ["a = 1\n", "b = 2\n"], "outputs": []}]}"#;
        let expected = "# %% [code] cell 1\na = 1\nb = 2\n";
        assert_eq!(render(as_string.as_bytes()), Ok(expected.into()));
        assert_eq!(render(as_array.as_bytes()), Ok(expected.into()));
    }

    #[test]
    fn notebook_format_3() {
        let v3 = r#"{"nbformat": 3, "worksheets": [{"cells": [
            {"cell_type": "heading", "level": 2, "source": ["Intro"]},
            {"cell_type": "code", "prompt_number": 3, "input": ["x\n"], "outputs": [
                {"output_type": "pyout", "text": ["42"], "png": "AAAA"},
                {"output_type": "stream", "stream": "stdout", "text": "ok\n"},
                {"output_type": "pyerr", "ename": "E", "evalue": "v", "traceback": []}
            ]}
        ]}]}"#;
        let expected = "\
# %% [markdown] cell 1
## Intro

# %% [code] cell 2 (execution_count 3)
x
# -> output (execute_result)
42
# -> output: image/png (not shown)
# -> output (stream stdout)
ok
# -> output (error)
E: v
";
        assert_eq!(render(v3.as_bytes()), Ok(expected.into()));
    }

    #[test]
    fn notebook_errors_and_odd_shapes() {
        assert!(render(b"{\"cells\": [").is_err_and(|e| e.starts_with("invalid notebook JSON")));
        assert!(render(b"\xff\xfe").is_err());
        assert!(render(b"[1, 2]").is_err_and(|e| e.contains("not a Jupyter notebook")));
        assert!(render(b"{\"nbformat\": 4}").is_err());
        assert!(render(b"{\"cells\": 3}").is_err());
        assert_eq!(render(b"\xef\xbb\xbf{\"cells\": []}"), Ok(String::new()));
        let odd = r#"{"cells": [7, {"cell_type": "code\n[x]", "source": 3,
            "outputs": [null, {"output_type": "mystery"}, {"output_type": "stream", "text": [1, "a"]}]}]}"#;
        let expected = "\
# %% [unknown] cell 1

# %% [code[x]] cell 2
# -> output (unknown)
# -> output (mystery)
# -> output (stream stdout)
a
";
        assert_eq!(render(odd.as_bytes()), Ok(expected.into()));
    }

    #[test]
    fn ansi_and_carriage_returns() {
        assert_eq!(
            strip_ansi("\x1b[1;31mred\x1b[0m \x1b]8;;http://x\x07link\x1b]8;;\x1b\\ \x1b(Bok\x1bc"),
            "red link ok"
        );
        assert_eq!(strip_ansi("tail\x1b[1;3"), "tail");
        // Why this is not anstream::adapter::strip_str: that leaves a C1 CSI (U+009B) in place.
        assert_eq!(strip_ansi("a\u{9b}31mb"), "ab");
        assert_eq!(collapse_carriage_returns("abcdef\rxy\r\n2\r"), "xycdef\n2");
    }

    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            prop::sample::select(vec![
                "code",
                "markdown",
                "stream",
                "error",
                "execute_result",
                "display_data",
                "text/plain",
                "\x1b[",
                "\r",
            ])
            .prop_map(Value::from),
            ".*".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 64, 6, |inner| {
            let keys = prop::sample::select(vec![
                "cell_type",
                "source",
                "outputs",
                "output_type",
                "name",
                "text",
                "data",
                "text/plain",
                "traceback",
                "ename",
                "evalue",
                "execution_count",
                "cells",
                "level",
            ]);
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::vec((keys, inner), 0..6).prop_map(|kv| Value::Object(
                    kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
                )),
            ]
        })
    }

    #[test]
    fn headings_counts_and_display_updates() {
        let nb = r#"{"nbformat": 3, "worksheets": [{"cells": [
            {"cell_type": "heading", "level": 9, "source": "Deep"},
            {"cell_type": "heading", "source": "Default"},
            {"cell_type": "heading", "level": 2, "source": ""},
            {"cell_type": "code", "execution_count": "5", "source": "x", "outputs": [
                {"output_type": "update_display_data", "data": {"text/plain": "later"}},
                {"output_type": "display_data", "data": {}},
                {"output_type": "error"}
            ]}
        ]}, 7, {"cells": 3}]}"#;
        let expected = "\
# %% [markdown] cell 1
###### Deep

# %% [markdown] cell 2
# Default

# %% [markdown] cell 3

# %% [code] cell 4
x
# -> output (update_display_data)
later
# -> output (display_data)
# -> output (error)
";
        assert_eq!(render(nb.as_bytes()), Ok(expected.into()));
    }

    #[test]
    fn deep_nesting_is_refused_not_overflowed() {
        let deep = format!(
            "{{\"cells\": [{}{}]}}",
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        assert!(render(deep.as_bytes()).is_err_and(|e| e.starts_with("invalid notebook JSON")));
    }

    proptest! {
        #[test]
        fn any_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
            let _ = render(&bytes);
        }

        #[test]
        fn notebooks_of_any_shape_never_panic(cells in json_value(), top in json_value()) {
            let mut nb = match top { Value::Object(map) => map, _ => Map::new() };
            nb.insert("cells".into(), cells.clone());
            let nb = Value::Object(nb).to_string();
            let _ = render(nb.as_bytes());
            let cells = Value::Array(vec![cells]);
            let _ = render(serde_json::json!({"cells": cells}).to_string().as_bytes());
        }

    }
}
