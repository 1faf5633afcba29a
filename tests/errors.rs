//! Every error class of LANGUAGE.md §7 through the real binary: the exit
//! status, the `file:line:col` of the error, its message, and (for compile
//! errors) nothing on stdout.

mod common;
use common::*;

/// `(source, line:col, message fragment)` for compile errors.
const COMPILE_ERRORS: &[(&str, &str, &str)] = &[
    ("let x = 1;\nprint(y);\n", "2:7", "unknown variable `y`"),
    ("print(foo(1));\n", "1:7", "unknown function `foo`"),
    (
        "let x: int = 1.5;\n",
        "1:14",
        "expected `int`, found `float`",
    ),
    ("print(1 + 2.0);\n", "1:7", "same type"),
    (
        "fn f(a: int) -> int { return a; }\nprint(f(1, 2));\n",
        "2:7",
        "takes 1 argument, but 2 were given",
    ),
    ("print(len(1, 2));\n", "1:7", "takes 1 argument"),
    (
        "fn f(a: int) -> int {\n  if a > 0 { return 1; }\n}\n",
        "3:1",
        "without returning",
    ),
    (
        "fn g() -> int { while true { break; } }\n",
        "1:39",
        "without returning",
    ),
    ("break;\n", "1:1", "`break` outside of a loop"),
    (
        "if true { continue; }\n",
        "1:11",
        "`continue` outside of a loop",
    ),
    ("print(1 < 2 < 3);\n", "1:7", "cannot be chained"),
    ("let x = 9223372036854775808;\n", "1:9", "too large"),
    ("let x = 0x8000000000000000;\n", "1:9", "too large"),
    ("let x = 99999999999999999999999;\n", "1:9", "too large"),
    ("fn print() {}\n", "1:4", "builtin"),
    ("fn f() {}\nfn f() {}\n", "2:4", "already defined"),
    ("if 1 { }\n", "1:4", "expected `bool`, found `int`"),
    ("while 1.0 { }\n", "1:7", "expected `bool`"),
    ("let x = \"s\";\n", "1:9", "string literals"),
    // Found by the `front_end` fuzz target: a string as a statement.
    ("(\"x\");\n", "1:2", "string literals"),
    ("for i in 5..2 { \"never\"; }\n", "1:17", "string literals"),
    ("print([1] == [1]);\n", "1:7", "arrays cannot be compared"),
    ("fn f() {}\nlet x = f();\n", "2:9", "produces no value"),
    ("let x = [];\n", "1:9", "at least one element"),
    (
        "let x = [1, 2.0];\n",
        "1:13",
        "expected `int`, found `float`",
    ),
    (
        "let a = [1];\na[0] = true;\n",
        "2:8",
        "expected `int`, found `bool`",
    ),
    ("let a = 1;\na[0] = 1;\n", "2:1", "cannot index"),
    ("print(!1);\n", "1:7", "cannot be applied"),
    ("print(-true);\n", "1:7", "cannot be applied"),
    ("print(1.5 & 2.0);\n", "1:7", "cannot be applied"),
    ("print(sqrt(4));\n", "1:7", "takes a `float`"),
    ("print(min(1, 2.0));\n", "1:7", "two `int`s or two `float`s"),
    ("fn f() { return 1; }\n", "1:17", "returns no value"),
    ("fn f() -> int { return; }\n", "1:17", "`return;`"),
    ("return;\n", "1:1", "outside of a function"),
    ("fn f(x: int, x: int) {}\n", "1:14", "declared twice"),
    ("let t: foo = 1;\n", "1:8", "unknown type `foo`"),
    ("1 + 2 = 3;\n", "1:1", "assigned"),
    ("let s = \"abc;\n", "1:9", "unterminated string"),
    (
        "/* never closed\nprint(1);\n",
        "1:1",
        "unterminated block comment",
    ),
    ("let x = 1 @ 2;\n", "1:11", "unexpected character `@`"),
    ("print(\"\\q\");\n", "1:8", "unknown escape"),
    ("print(1)\n", "2:1", "end of input"),
    ("{ let y = 1; }\nprint(y);\n", "2:7", "unknown variable `y`"),
    (
        "for i in 0..3 { }\nprint(i);\n",
        "2:7",
        "unknown variable `i`",
    ),
    ("let x = x + 1;\n", "1:9", "unknown variable `x`"),
];

#[test]
fn compile_errors_name_file_line_col_and_exit_1() {
    let mut failures = Vec::new();
    for (i, (src, at, fragment)) in COMPILE_ERRORS.iter().enumerate() {
        let name = format!("err{i}.toy");
        let run = run_source(&name, src, &[]);
        let location = format!("{name}:{at}: error:");
        let ok = run.status == 1
            && run.stdout.is_empty()
            && run.stderr.contains(&location)
            && run.stderr.contains(fragment);
        if !ok {
            failures.push(format!(
                "{src:?}: want `{location}` and `{fragment}`, status 1; got status {}\n{}",
                run.status, run.stderr
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn several_independent_syntax_errors_in_one_run() {
    let src = "let a = 1;\nlet b = ;\nlet c = 2 +;\nfn f( {}\nprint(a);\nlet d = 1 +;\n";
    let run = run_source("multi.toy", src, &[]);
    assert_eq!(run.status, 1);
    for at in ["multi.toy:2:9:", "multi.toy:3:12:", "multi.toy:4:7:"] {
        assert!(run.stderr.contains(at), "missing {at} in\n{}", run.stderr);
    }
}

/// Each lexical error is reported once, without follow-on errors: a run of
/// stray characters is one error, and a string or comment left open
/// swallows the rest of the file (whatever the parser makes of the cut-off
/// program would only repeat it).
#[test]
fn lexical_errors_are_reported_once_each() {
    let cases = [
        (
            "let x = 1 + @@ $ 2;\nprint(x);\n",
            &["1:13: error: unexpected character `@`"][..],
        ),
        (
            "let s = \"abc;\nif true {\nprint(1);\n",
            &["1:9: error: unterminated string literal"],
        ),
        (
            "fn f() {\n  /* open\n  print(1);\n}\n",
            &["2:3: error: unterminated block comment"],
        ),
        ("print(1.);\n", &["1:8: error: unexpected character `.`"]),
        (
            "print(\"a\\qb\", 1 + # 2);\n",
            &[
                "1:9: error: unknown escape sequence `\\q`",
                "1:19: error: unexpected character `#`",
            ],
        ),
    ];
    for (src, want) in cases {
        assert_compile_errors("lex.toy", src, want);
    }
}

#[test]
fn type_errors_are_all_reported_before_anything_runs() {
    let src = "print(\"side effect\");\nprint(x);\nprint(1 + true);\n";
    let run = run_source("two.toy", src, &[]);
    assert_eq!(run.status, 1);
    assert!(run.stdout.is_empty(), "ran before checking: {}", run.stdout);
    assert!(run.stderr.contains("two.toy:2:7"), "{}", run.stderr);
    assert!(run.stderr.contains("two.toy:3:7"), "{}", run.stderr);
}

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

/// `(source, expected stdout before the error, line:col, message)`.
const RUNTIME_ERRORS: &[(&str, &str, &str, &str)] = &[
    ("print(1);\nlet z = 0;\nprint(10 / z);\n", "1\n", "3:7", "division by zero"),
    ("let z = 0;\nprint(10 % z);\n", "", "2:7", "division by zero"),
    ("print(1 / 0);\n", "", "1:7", "division by zero"),
    ("let a = [1, 2];\nprint(a[2]);\n", "", "2:7", "index out of bounds: the length is 2 but the index is 2"),
    ("let a = [1, 2];\nlet i = -1;\na[i] = 3;\n", "", "3:1", "index out of bounds: the length is 2 but the index is -1"),
    ("let a = [[1]];\na[0][1] += 1;\n", "", "2:1", "index out of bounds: the length is 1 but the index is 1"),
    ("let n = -1;\nlet a = [0; n];\n", "", "2:9", "negative array length -1"),
    (
        "fn f(n: int) -> int { return f(n + 1) + 1; }\nprint(\"start\");\nprint(f(0));\n",
        "start\n",
        "1:30",
        "stack overflow",
    ),
    (
        "fn f(n: int) -> int { if n == 0 { return 0; } return 1 + f(n - 1); }\nprint(f(1000));\nprint(f(100000000));\n",
        "1000\n",
        "1:58",
        "stack overflow",
    ),
    // Checked together (`ir::bounds` groups); still reported at the
    // access that fails first, whichever array it indexes.
    (
        "fn f(b: [int], c: [int]) -> int {\n  let x = b[0] + c[0];\n  return x + b[5] * c[1] + c[6];\n}\nprint(7);\nprint(f([1, 2, 3], [1, 2, 3, 4]));\n",
        "7\n",
        "3:14",
        "index out of bounds: the length is 3 but the index is 5",
    ),
    (
        "fn f(b: [int], c: [int]) -> int {\n  let x = b[0] + c[0];\n  return x + b[5] * c[1] + c[6];\n}\nprint(f([1, 2, 3, 4, 5, 6], [1]));\n",
        "",
        "3:21",
        "index out of bounds: the length is 1 but the index is 1",
    ),
    (
        "fn f(b: [int], c: [int]) -> int {\n  let x = b[0] + c[0];\n  return x + b[5] * c[1] + c[6];\n}\nprint(f([1, 2, 3, 4, 5, 6], [1, 2, 3]));\n",
        "",
        "3:28",
        "index out of bounds: the length is 3 but the index is 6",
    ),
    // A group spans at most three arrays (their lengths go to the
    // runtime in registers): `d` starts a second group, with `a[5]`.
    (
        "fn f(a: [int], b: [int], c: [int], d: [int]) -> int {\n  return a[1] + b[2] + c[3] + d[4] + a[5];\n}\nprint(f([1, 2, 3, 4, 5, 6], [1, 2, 3], [1, 2, 3], [1, 2, 3, 4, 5]));\n",
        "",
        "2:24",
        "index out of bounds: the length is 3 but the index is 3",
    ),
    (
        "fn f(a: [int], b: [int], c: [int], d: [int]) -> int {\n  return a[1] + b[2] + c[3] + d[4] + a[5];\n}\nprint(f([1, 2, 3, 4, 5, 6], [1, 2, 3], [1, 2, 3, 4], [1, 2]));\n",
        "",
        "2:31",
        "index out of bounds: the length is 2 but the index is 4",
    ),
    (
        "fn f(a: [int], b: [int], c: [int], d: [int]) -> int {\n  return a[1] + b[2] + c[3] + d[4] + a[5];\n}\nprint(f([1, 2, 3], [1, 2, 3], [1, 2, 3, 4], [1, 2, 3, 4, 5]));\n",
        "",
        "2:38",
        "index out of bounds: the length is 3 but the index is 5",
    ),
    // Checked on entry to a loop walking three arrays in step (rule 6):
    // reported at the first `j` outside some array, at the first access
    // in the iteration whose array that is (reads before the write).
    (
        "fn f(a: [int], b: [int], c: [int], lo: int, hi: int) {\n  for j in lo..hi {\n    c[j] = a[j] + b[j];\n  }\n}\nprint(1);\nf([1, 2, 3, 4, 5], [1, 2, 3], [0; 10], 0, 8);\nprint(2);\n",
        "1\n",
        "3:19",
        "index out of bounds: the length is 3 but the index is 3",
    ),
    (
        "fn f(a: [int], b: [int], c: [int], lo: int, hi: int) {\n  for j in lo..hi {\n    c[j] = a[j] + b[j];\n  }\n}\nprint(1);\nf([1, 2, 3, 4, 5], [1, 2, 3], [0; 10], 4, 8);\nprint(2);\n",
        "1\n",
        "3:19",
        "index out of bounds: the length is 3 but the index is 4",
    ),
    (
        "fn f(a: [int], b: [int], c: [int], lo: int, hi: int) {\n  for j in lo..hi {\n    c[j] = a[j] + b[j];\n  }\n}\nprint(1);\nf([1, 2, 3], [1, 2, 3], [0; 10], 0, 8);\nprint(2);\n",
        "1\n",
        "3:12",
        "index out of bounds: the length is 3 but the index is 3",
    ),
    (
        "fn f(a: [int], b: [int], c: [int], lo: int, hi: int) {\n  for j in lo..hi {\n    c[j] = a[j] + b[j];\n  }\n}\nprint(1);\nf([1, 2, 3], [1, 2, 3], [0; 2], 0, 8);\nprint(2);\n",
        "1\n",
        "3:5",
        "index out of bounds: the length is 2 but the index is 2",
    ),
    (
        "fn f(a: [int], b: [int], c: [int], lo: int, hi: int) {\n  for j in lo..hi {\n    c[j] = a[j] + b[j];\n  }\n}\nprint(1);\nf([1, 2, 3], [1, 2, 3], [0; 2], -1, 8);\nprint(2);\n",
        "1\n",
        "3:12",
        "index out of bounds: the length is 3 but the index is -1",
    ),
    // One array: an access below an earlier one is never the first to
    // fail; a negative index is above every length.
    (
        "fn f(b: [int]) -> int {\n  return b[4] + b[2] * b[6];\n}\nprint(f([1, 2, 3]));\n",
        "",
        "2:10",
        "index out of bounds: the length is 3 but the index is 4",
    ),
    (
        "fn f(b: [int]) -> int {\n  return b[5] + b[-1] * b[0];\n}\nprint(f([1, 2, 3, 4, 5, 6]));\n",
        "",
        "2:17",
        "index out of bounds: the length is 6 but the index is -1",
    ),
    // Checked on entry to the loop (`ir::bounds` rule 4); reported as
    // the first iteration would, and only if the loop runs.
    (
        "fn f(a: [int], lo: int, hi: int) -> int {\n  while lo < hi {\n    let t = a[lo];\n    a[lo] = a[hi];\n    a[hi] = t;\n    lo += 1;\n    hi -= 1;\n  }\n  return a[0];\n}\nprint(f([1, 2, 3], 0, 2));\nprint(f([1, 2, 3], 2, 2));\nprint(f([1, 2, 3], 9, -4));\nprint(f([1, 2, 3], 0, 3));\n",
        "3\n1\n1\n",
        "4:13",
        "index out of bounds: the length is 3 but the index is 3",
    ),
    (
        "fn f(a: [int], lo: int, hi: int) -> int {\n  while lo < hi {\n    let t = a[lo];\n    a[lo] = a[hi];\n    a[hi] = t;\n    lo += 1;\n    hi -= 1;\n  }\n  return a[0];\n}\nprint(f([1, 2, 3], -1, 9));\n",
        "",
        "3:13",
        "index out of bounds: the length is 3 but the index is -1",
    ),
    (
        "fn f(n: int, k: int) -> int {\n  let a = [0; n + 1];\n  let j = k;\n  while j <= n {\n    a[j] = 1;\n    j += 2;\n  }\n  return j;\n}\nprint(f(5, 1));\nprint(f(5, 9));\nprint(f(5, -3));\n",
        "7\n9\n",
        "5:5",
        "index out of bounds: the length is 6 but the index is -3",
    ),
    (
        "fn f(b: [int], k: int, n: int) -> int {\n  let s = 0;\n  for j in k..n {\n    s += b[j];\n  }\n  return s;\n}\nprint(f([1, 2, 3], 0, 3));\nprint(f([1, 2, 3], 5, 2));\nprint(f([1, 2, 3], 1, 7));\n",
        "6\n0\n",
        "4:10",
        "index out of bounds: the length is 3 but the index is 3",
    ),
    (
        "fn f(b: [int], k: int, n: int) -> int {\n  let s = 0;\n  for j in k..n {\n    s += b[j];\n  }\n  return s;\n}\nprint(f([1, 2, 3], -2, 2));\n",
        "",
        "4:10",
        "index out of bounds: the length is 3 but the index is -2",
    ),
    (
        "fn w(i: int) -> int { return i * 2; }\nfn f(b: [int], n: int) -> int {\n  let s = 0;\n  for j in 0..n {\n    s += w(j) + b[j];\n  }\n  return s;\n}\nprint(f([1, 2], 2));\nprint(f([1, 2], 5));\n",
        "5\n",
        "5:17",
        "index out of bounds: the length is 2 but the index is 2",
    ),
    // Detected on entry to `f`; reported at the call it came from (found
    // by its return address), not at `f`'s first call.
    (
        "fn two(n: int) -> int { if n > 0 { return 2; } return 1; }\nfn f(n: int) -> int {\n  let k = two(n);\n  return f(n + k) + 1;\n}\nprint(f(0));\n",
        "",
        "4:10",
        "stack overflow",
    ),
];

#[test]
fn runtime_errors_flush_stdout_report_location_and_exit_2() {
    for level in ["-O0", "-O2"] {
        for (i, (src, out, at, msg)) in RUNTIME_ERRORS.iter().enumerate() {
            let name = format!("rt{i}.toy");
            let run = run_source(&name, src, &[level]);
            let want = format!("{name}:{at}: runtime error: {msg}");
            assert_eq!(run.status, 2, "{src:?} {level}: {}", run.stderr);
            assert_eq!(run.stdout, *out, "{src:?} {level}");
            assert!(
                run.stderr.contains(&want),
                "{src:?} {level}: want {want}\n{}",
                run.stderr
            );
        }
    }
}

#[test]
fn huge_allocation_is_a_runtime_error_not_an_abort() {
    let run = run_source("huge.toy", "print(len([0; 1 << 40]));\n", &[]);
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("huge.toy:1:11: runtime error"),
        "{}",
        run.stderr
    );
}

#[test]
fn deep_but_bounded_recursion_works() {
    let src =
        "fn f(n: int) -> int { if n == 0 { return 0; } return 1 + f(n - 1); }\nprint(f(100000));\n";
    let run = run_source("deep.toy", src, &[]);
    assert_eq!(
        (run.status, run.stdout.as_str()),
        (0, "100000\n"),
        "{}",
        run.stderr
    );
}

/// Syntax errors name the token found and what could have come instead,
/// through the real binary: `(source, the whole error lines)`.
#[test]
fn syntax_errors_say_what_was_expected() {
    let long = format!("let s = 1 \"{}\";\n", "x".repeat(60));
    let long_error = format!(
        "1:11: error: unexpected token `\\\"{}…`, expected `;`, `[` or an operator",
        "x".repeat(39)
    );
    let cases: Vec<(&str, Vec<&str>)> = vec![
        (
            "let x = 1 2;\n",
            vec!["1:11: error: unexpected token `2`, expected `;`, `[` or an operator"],
        ),
        (
            "let x = 1 +;\n",
            vec!["1:12: error: unexpected token `;`, expected an expression"],
        ),
        (
            "print(1, 2;\n",
            vec!["1:11: error: unexpected token `;`, expected `)`, `,`, `[` or an operator"],
        ),
        (
            "let t: int 5;\n",
            vec!["1:12: error: unexpected token `5`, expected `=`"],
        ),
        (
            "if true { print(1); } else print(2);\n",
            vec!["1:28: error: unexpected token `print`, expected `if` or `{`"],
        ),
        // A block left open at the end keeps the errors found inside it.
        (
            "fn f() {\n    let x = 1;\n    x y;\n    let z = 2;\n",
            vec![
                "3:7: error: unexpected token `y`, expected `(`, `;`, `[` or an operator",
                "5:1: error: unexpected end of input, expected `}`",
            ],
        ),
        // An unclosed string swallows the rest; the token is shown shortened.
        (long.as_str(), vec![long_error.as_str()]),
    ];
    for (src, want) in cases {
        assert_compile_errors("syn.toy", src, &want);
    }
}
