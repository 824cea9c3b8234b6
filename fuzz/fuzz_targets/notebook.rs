//! Fuzz target for notebook rendering. Each input is rendered twice: as the raw bytes of a
//! `.ipynb` file (mostly invalid JSON: the parse and shape errors), and as a notebook of any
//! shape built from the same bytes out of notebook field names and values (the cell and
//! output renderers). Nothing may panic; raw bytes render the same with or without a UTF-8
//! BOM; an error names its reason; a notebook whose cells are an array always renders, with
//! a header line for each cell.
#![no_main]

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use quill::text::notebook;
use serde_json::{Map, Value};

const BOM: &[u8] = b"\xef\xbb\xbf";

const KEYS: [&str; 20] = [
    "cell_type",
    "source",
    "input",
    "outputs",
    "output_type",
    "name",
    "stream",
    "text",
    "data",
    "text/plain",
    "image/png",
    "png",
    "traceback",
    "ename",
    "evalue",
    "execution_count",
    "prompt_number",
    "level",
    "cells",
    "worksheets",
];

const STRINGS: [&str; 18] = [
    "code",
    "markdown",
    "raw",
    "heading",
    "stream",
    "stdout",
    "error",
    "pyerr",
    "execute_result",
    "pyout",
    "display_data",
    "update_display_data",
    "text/plain",
    "\x1b[1;31mred\x1b[0m",
    "\x1b]8;;x\x07",
    "50%\r100%\n",
    "line\n",
    "\r\n\r",
];

/// A JSON value that leans towards notebook field names and values.
fn value(u: &mut Unstructured, depth: u32) -> Result<Value> {
    let pick = if depth == 0 {
        u.int_in_range(0..=5)?
    } else {
        u.int_in_range(0..=7)?
    };
    Ok(match pick {
        0 => Value::Null,
        1 => Value::Bool(u.arbitrary()?),
        2 => Value::from(u.arbitrary::<i64>()?),
        3 => Value::from(u.arbitrary::<f64>()?),
        4 => Value::from(u.arbitrary::<String>()?),
        5 => Value::from(*u.choose(&STRINGS)?),
        6 => {
            let n = u.int_in_range(0..=4)?;
            Value::Array((0..n).map(|_| value(u, depth - 1)).collect::<Result<_>>()?)
        }
        _ => {
            let n = u.int_in_range(0..=6)?;
            let mut map = Map::new();
            for _ in 0..n {
                map.insert(u.choose(&KEYS)?.to_string(), value(u, depth - 1)?);
            }
            Value::Object(map)
        }
    })
}

/// A notebook, nbformat 4 (`cells`) or 3 (`worksheets`), whose cells are an array of any
/// shape; also the number of cells.
fn shaped(u: &mut Unstructured) -> Result<(Value, usize)> {
    let n = u.int_in_range(0..=6)?;
    let cells: Vec<Value> = (0..n).map(|_| value(u, 4)).collect::<Result<_>>()?;
    let mut top = match value(u, 1)? {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    top.remove("cells");
    top.remove("worksheets");
    if u.arbitrary()? {
        top.insert("cells".into(), Value::Array(cells));
    } else {
        let sheet = serde_json::json!({ "cells": cells });
        top.insert("worksheets".into(), Value::Array(vec![sheet]));
    }
    Ok((Value::Object(top), n))
}

fuzz_target!(|data: &[u8]| {
    match notebook::render(data) {
        Ok(text) => {
            assert!(text.is_empty() || text.starts_with("# %% ["), "{text:?}");
        }
        Err(why) => assert!(
            why.starts_with("invalid notebook JSON") || why.starts_with("not a Jupyter notebook"),
            "{why}"
        ),
    }
    if !data.starts_with(BOM) {
        let mut with_bom = BOM.to_vec();
        with_bom.extend_from_slice(data);
        assert_eq!(notebook::render(&with_bom), notebook::render(data));
    }

    if let Ok((nb, cells)) = shaped(&mut Unstructured::new(data)) {
        let json = nb.to_string();
        match notebook::render(json.as_bytes()) {
            Ok(text) => assert!(text.matches("# %% [").count() >= cells, "{text:?}"),
            Err(why) => panic!("{json} does not render: {why}"),
        }
    }
});
