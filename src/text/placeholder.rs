//! Omission placeholders: the lines a model writes *instead of* code it did not want to retype
//! (`// ... rest of the code ...`, `# existing code here`, `/* unchanged */`, `<!-- ... -->`).
//! quill writes text literally, so such a line in `edit`'s `new` or in `write`'s content would
//! replace the real lines it stands for. `introduced` finds the first placeholder line of a new
//! text that its context (`old`, the file as it is) does not already have, so a file that
//! legitimately holds such a comment can still be edited. Pure.
//!
//! A line is a placeholder when all of it is one of:
//! - a comment (`//`, `#`, `--`, `;`, `%`, `/* */`, `{/* */}`, `(* *)`, `<!-- -->`) holding
//!   only an ellipsis (`...`, `…`);
//! - a comment, or a line with an ellipsis, whose words are an omission phrase and nothing
//!   else: `rest of [the] NOUN…` (`rest of the code`), a strong word alone (`unchanged`,
//!   `omitted`, `no changes`, `same as before`), or `ADJECTIVE NOUN` (`existing code`, `other
//!   methods`) with an ellipsis or a tail word (`here`, `unchanged`, `remains the same`, …).
//!
//! A plain `...` line is not one (Python's `Ellipsis`, YAML's document end), nor is a comment
//! with words of its own (`// rest of the code handles errors`), nor a bare heading (`//
//! Existing code`, `## Other methods`).

use std::collections::HashSet;

/// A placeholder line of a new text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Placeholder {
    /// Its 1-based line in the new text.
    pub line: usize,
    /// The line as written, trimmed (at most 80 characters).
    pub text: String,
}

/// The first placeholder line of `new` that no line of `contexts` matches (compared by their
/// words, so `// ...existing code...` is already in a file holding `/* ... existing code ...
/// */`). The contexts are scanned only when `new` has a placeholder.
pub(crate) fn introduced(new: &str, contexts: &[&str]) -> Option<Placeholder> {
    let found: Vec<(usize, &str, String)> = new
        .lines()
        .enumerate()
        .filter_map(|(i, l)| normalize(l).map(|n| (i + 1, l.trim(), n)))
        .collect();
    if found.is_empty() {
        return None;
    }
    let known: HashSet<String> = contexts
        .iter()
        .flat_map(|c| c.lines())
        .filter_map(normalize)
        .collect();
    found
        .into_iter()
        .find(|(_, _, n)| !known.contains(n))
        .map(|(line, text, _)| Placeholder {
            line,
            text: text.chars().take(80).collect(),
        })
}

/// The placeholder's words (`...` for a bare ellipsis comment), or None: not a placeholder.
fn normalize(line: &str) -> Option<String> {
    let t = line.trim();
    if t.is_empty() || t.len() > 160 {
        return None;
    }
    let (body, marked) = strip_comment(t);
    let ellipsis = body.contains("..") || body.contains('…');
    if !marked && !ellipsis {
        return None;
    }
    let words = words(body);
    if words.is_empty() {
        return (marked && ellipsis).then(|| "...".to_string());
    }
    if words.len() > 12 {
        return None;
    }
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    phrase(&words, ellipsis).then(|| words.join(" "))
}

/// The text of a whole-line comment, and whether the line was one.
fn strip_comment(t: &str) -> (&str, bool) {
    const WRAPPED: [(&str, &str); 4] =
        [("{/*", "*/}"), ("<!--", "-->"), ("/*", "*/"), ("(*", "*)")];
    for (open, close) in WRAPPED {
        if let Some(rest) = t.strip_prefix(open) {
            let rest = rest.trim();
            return (rest.strip_suffix(close).unwrap_or(rest), true);
        }
    }
    for open in ["//", "#", "--", ";", "%"] {
        if let Some(rest) = t.strip_prefix(open) {
            // `///`, `//!`, `##`, `;;`: the marker repeated.
            let rest = rest.trim_start_matches(|c: char| "/!#;%-".contains(c));
            return (rest, true);
        }
    }
    (t, false)
}

/// Lowercase words: letters, digits, `-` and `'` inside a word; everything else separates.
fn words(body: &str) -> Vec<String> {
    body.to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '\''))
        .map(|w| w.trim_matches(|c| c == '-' || c == '\''))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

const LEAD: &[&str] = &["keep", "leave", "all", "and", "the", "plus", "with"];
const DETERMINER: &[&str] = &[
    "the", "this", "that", "your", "my", "our", "its", "his", "her",
];
/// Adjectives of what was there: `existing code`, `other methods` (with an ellipsis or a tail
/// word: `// Other methods` alone is a heading).
const ADJ: &[&str] = &[
    "existing",
    "unchanged",
    "omitted",
    "untouched",
    "unmodified",
    "elided",
    "other",
    "previous",
    "remaining",
    "original",
    "old",
    "same",
    "more",
    "prior",
    "additional",
];
/// Words that say "left out" after a noun: `code omitted`, `42 lines unchanged`.
const STRONG: &[&str] = &[
    "unchanged",
    "omitted",
    "untouched",
    "unmodified",
    "elided",
    "same",
    "intact",
];
/// Words that are a placeholder alone (as a comment, or with an ellipsis).
const ALONE: &[&[&str]] = &[
    &["unchanged"],
    &["omitted"],
    &["snip"],
    &["snipped"],
    &["elided"],
    &["untouched"],
    &["unmodified"],
    &["no", "changes"],
    &["no", "change"],
    &["same", "as", "before"],
    &["as", "before"],
];
const NOUN: &[&str] = &[
    "code",
    "implementation",
    "implementations",
    "logic",
    "content",
    "contents",
    "line",
    "lines",
    "method",
    "methods",
    "function",
    "functions",
    "func",
    "funcs",
    "fn",
    "fns",
    "import",
    "imports",
    "test",
    "tests",
    "case",
    "cases",
    "field",
    "fields",
    "prop",
    "props",
    "property",
    "properties",
    "style",
    "styles",
    "rule",
    "rules",
    "config",
    "configuration",
    "settings",
    "options",
    "body",
    "file",
    "files",
    "class",
    "classes",
    "component",
    "components",
    "section",
    "sections",
    "entry",
    "entries",
    "item",
    "items",
    "key",
    "keys",
    "value",
    "values",
    "route",
    "routes",
    "handler",
    "handlers",
    "definition",
    "definitions",
    "declaration",
    "declarations",
    "export",
    "exports",
    "member",
    "members",
    "text",
    "markup",
    "html",
    "element",
    "elements",
    "attribute",
    "attributes",
    "dependency",
    "dependencies",
    "page",
    "query",
    "queries",
    "script",
    "module",
    "modules",
    "program",
    "document",
    "doc",
    "docs",
    "template",
    "block",
    "blocks",
    "statement",
    "statements",
    "cell",
    "cells",
    "row",
    "rows",
    "data",
    "step",
    "steps",
    "task",
    "tasks",
    "job",
    "jobs",
    "stuff",
    "part",
    "parts",
    "function's",
    "helpers",
    "helper",
    "struct",
    "structs",
    "variables",
    "constants",
    "types",
    "impl",
    "impls",
    "match",
    "arms",
    "branches",
    "css",
    "js",
    "markdown",
    "readme",
    "config's",
];
/// Words that may follow a placeholder's phrase: `here`, `remains the same`, `for brevity`.
const TAIL: &[&str] = &[
    "here",
    "goes",
    "go",
    "remains",
    "remain",
    "stays",
    "stay",
    "is",
    "are",
    "as",
    "before",
    "same",
    "the",
    "unchanged",
    "omitted",
    "elided",
    "above",
    "below",
    "etc",
    "for",
    "brevity",
    "not",
    "shown",
    "untouched",
    "unmodified",
    "intact",
    "kept",
    "continues",
    "continue",
    "follows",
    "follow",
    "left",
    "out",
    "of",
    "and",
    "from",
    "original",
    "previous",
    "existing",
    "remaining",
    "other",
    "like",
    "was",
    "were",
    "be",
    "stays",
    "preserved",
    "in",
    "place",
    "without",
    "changes",
    "change",
    "no",
    "changed",
];

fn is(set: &[&str], w: &str) -> bool {
    set.contains(&w)
}

fn is_number(w: &str) -> bool {
    w.chars().all(|c| c.is_ascii_digit() || c == '-') && w.chars().any(|c| c.is_ascii_digit())
}

/// Whether `w` (lowercase words) is an omission phrase and nothing else.
fn phrase(w: &[&str], ellipsis: bool) -> bool {
    let mut i = 0;
    let mut led = false; // `keep existing code`, `leave the rest`
    while i < w.len() && (is(LEAD, w[i]) || is_number(w[i])) {
        led |= w[i] == "keep" || w[i] == "leave";
        i += 1;
    }
    let Some(&head) = w.get(i) else {
        return false;
    };
    let known = |x: &&str| is(NOUN, x) || is(ADJ, x) || is(TAIL, x) || is_number(x);
    if head == "rest" {
        // `rest of [the] code…`, `rest unchanged`: something after `rest of the`, or `...`.
        i += 1;
        if w.get(i) == Some(&"of") {
            i += 1;
            while w.get(i).is_some_and(|x| is(DETERMINER, x)) {
                i += 1;
            }
        }
        let rest = &w[i..];
        return rest.iter().all(known) && (ellipsis || led || !rest.is_empty());
    }
    if let Some(alone) = ALONE.iter().find(|a| w[i..].starts_with(a))
        && !w.get(i + alone.len()).is_some_and(|x| is(NOUN, x))
    {
        return w[i + alone.len()..]
            .iter()
            .all(|x| is(TAIL, x) || is_number(x));
    }
    if is(ADJ, head) {
        // `existing code here`, `... other methods ...`, `keep existing code`.
        let rest = &w[i + 1..];
        let nouns = rest.iter().filter(|x| is(NOUN, x)).count();
        let more = ellipsis || led || rest.iter().any(|x| !is(NOUN, x));
        return rest.iter().all(known) && nouns > 0 && more;
    }
    if is(NOUN, head) {
        // `code omitted`, `42 lines unchanged`: nouns, then a strong tail word.
        let nouns = w[i..].iter().take_while(|x| is(NOUN, x)).count();
        let rest = &w[i + nouns..];
        return rest
            .iter()
            .all(|x| is(TAIL, x) || is(ADJ, x) || is_number(x))
            && rest.iter().any(|x| is(STRONG, x));
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_placeholder(line: &str) -> bool {
        normalize(line).is_some()
    }

    #[test]
    fn omission_comments_are_placeholders() {
        for line in [
            "// ... rest of the code ...",
            "    // ...existing code...",
            "# existing code here",
            "/* unchanged */",
            "<!-- ... -->",
            "<!-- rest of the page unchanged -->",
            "{/* ... */}",
            "// ...",
            "# …",
            "-- rest of query",
            "// rest of the file remains the same",
            "// other methods unchanged",
            "// ... other methods ...",
            "# ... (rest of file unchanged)",
            "// (42 lines omitted)",
            "// code omitted for brevity",
            "/// rest of the implementation",
            "... rest of the code ...",
            "[... existing code ...]",
            "// Rest Of The Tests",
            "// no changes",
            "# same as before",
            "// keep existing code",
            "  /* ... existing imports ... */",
            "// rest unchanged",
            "// unchanged code here",
            "# The rest of the code is unchanged.",
        ] {
            assert!(is_placeholder(line), "{line:?} is a placeholder");
        }
    }

    #[test]
    fn real_lines_are_not_placeholders() {
        for line in [
            "...",
            "    ...",
            "def f(): ...",
            "// Existing code",
            "## Other methods",
            "// Other functions",
            "// rest of the code handles errors",
            "The rest of the code is unchanged.",
            "let rest = &xs[1..];",
            "for i in 0..n {",
            "// TODO: more work here",
            "# your code here",
            "// code here",
            "",
            "// previous implementation",
            "x = 1  # unchanged",
            "print('...')",
            "// see the rest of the docs at https://example.com/...",
            "// rest",
            "# existing",
        ] {
            assert!(!is_placeholder(line), "{line:?} is not a placeholder");
        }
    }

    #[test]
    fn a_placeholder_the_context_already_has_is_not_introduced() {
        let new = "fn a() {\n    // ... existing code ...\n    b();\n}\n";
        let found = introduced(new, &["fn a() {\n    c();\n}\n"]).unwrap();
        assert_eq!(
            found,
            Placeholder {
                line: 2,
                text: "// ... existing code ...".into()
            }
        );
        // The file (or `old`) holds the same placeholder, written another way.
        assert_eq!(introduced(new, &["", "/* ...existing code... */\n"]), None);
        // Another placeholder than the one the file has is still new.
        let two = "// ... existing code ...\n# rest of the file unchanged\n";
        assert_eq!(
            introduced(two, &["// ...existing code...\n"]).map(|p| p.line),
            Some(2)
        );
        assert_eq!(introduced("no placeholder\n", &[]), None);
    }

    #[test]
    fn long_lines_are_cut_in_the_answer() {
        let line = format!("// ... existing code{}...", " ".repeat(100));
        let p = introduced(&line, &[]).unwrap();
        assert!(p.text.chars().count() <= 80);
    }
}
