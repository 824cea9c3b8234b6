//! Finding files and lines, shared by `glob` and `grep`: the ignore walk and its paging
//! (`walk`), the ordered parallel map grep's workers hand their results through (`ordered`), a
//! glob compiled the way quill matches it (`glob_pattern`), why a search is empty or short
//! (`why`), and why a named path does not exist (`missing`).

pub(crate) mod glob_pattern;
pub(crate) mod missing;
pub(crate) mod ordered;
pub(crate) mod walk;
pub(crate) mod why;
