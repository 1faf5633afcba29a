//! Errors of LANGUAGE.md §7 that a test file under `tests/files/` cannot
//! state: a file that is not UTF-8 or holds NUL bytes, and files with no
//! room for an expectation (empty, comments only). Every other compile
//! and runtime error class, with its exit status, `file:line:col` and
//! message, is a file in `tests/files/compile_errors/` and
//! `tests/files/runtime_errors/` (`tests/filetests.rs`).

mod common;
use common::*;

#[test]
fn invalid_utf8_and_nul_bytes_are_compile_errors() {
    let path = scratch_file("bad_utf8.toy", b"print(1);\n\xff\xfe\n");
    let run = run_file(&path, &[]);
    assert_eq!(run.status, 1);
    assert!(run.stderr.contains("bad_utf8.toy:2:1:"), "{}", run.stderr);
    let path = scratch_file("nul.toy", b"print(1);\x00\n");
    let run = run_file(&path, &[]);
    assert_eq!(run.status, 1);
    assert!(run.stderr.contains("nul.toy:1:10:"), "{}", run.stderr);
}

#[test]
fn empty_and_comment_only_programs_succeed_silently() {
    for (name, src) in [
        ("empty.toy", ""),
        ("comments.toy", "// hi\n/* there */\n"),
        ("decls.toy", "fn f() -> int { return 1; }\n"),
    ] {
        let run = run_source(name, src, &[]);
        assert_eq!(
            (run.status, run.stdout.as_str()),
            (0, ""),
            "{name}: {}",
            run.stderr
        );
    }
}
