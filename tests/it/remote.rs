//! `quill transfer` to and from `host:path` through a real OpenSSH server (`sshd.rs`).
