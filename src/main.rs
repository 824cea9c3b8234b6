//! The `quill` binary: parse, run, exit. Everything else lives in the library.

fn main() -> std::process::ExitCode {
    quill::app::main()
}
