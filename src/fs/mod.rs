//! Reaching a file safely: a path resolved against `--root` with its symbolic links judged
//! (`paths`), and the guarded open every read and search goes through, with the file's
//! identity and streaming hash (`probe`).

pub(crate) mod paths;
pub(crate) mod probe;
