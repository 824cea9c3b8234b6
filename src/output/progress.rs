//! Progress reporting on stderr for long operations: an indicatif bar on a terminal, JSON lines
//! for harnesses (`--progress json`), or nothing.
