//! Compile errors said once and only when true (issue 20), through the
//! real binary: one report per error — `file:line:col: error: message`,
//! then an excerpt of the source that does not repeat the message — with
//! labels that explain, no errors that follow from another, every
//! independent error, in source order.

mod common;
use common::*;

/// The whole report, excerpt included: the message once, on the first
/// line; the excerpt's label explains instead of saying `here`.
#[test]
fn a_compile_error_is_one_report_with_an_excerpt() {
    let src = "fn f() -> int { return nosuch(1); }\n";
    let run = assert_compile_errors("once.toy", src, &["1:24: error: unknown function `nosuch`"]);
    let want = [
        "once.toy:1:24: error: unknown function `nosuch`",
        "   ╭─[once.toy:1:24]",
        "   │",
        " 1 │ fn f() -> int { return nosuch(1); }",
        "   │                        ───┬──  ",
        "   │                           ╰──── no function of this name is declared",
        "───╯",
        "",
    ]
    .join("\n");
    assert_eq!(run.stderr, want);
}

/// No report repeats its message in an `Error: …` header, for errors of
/// each stage.
#[test]
fn no_report_has_a_second_header() {
    for (src, want) in [
        (
            "let x = 1 2;\n",
            "1:11: error: unexpected token `2`, expected `;`, `[` or an operator",
        ),
        (
            "let s = \"abc;\n",
            "1:9: error: unterminated string literal",
        ),
        (
            "print(1 + true);\n",
            "1:7: error: `+` needs operands of the same type, found `int` and `bool`",
        ),
        (
            "let x: int = 1.5;\n",
            "1:14: error: expected `int`, found `float`",
        ),
    ] {
        let run = assert_compile_errors("header.toy", src, &[want]);
        assert!(
            !run.stderr.lines().any(|l| l.starts_with("Error")),
            "{src:?}:\n{}",
            run.stderr
        );
        let source_line = src.lines().next().unwrap();
        assert!(
            run.stderr.contains(&format!(" 1 │ {source_line}")),
            "{src:?}: no excerpt\n{}",
            run.stderr
        );
    }
}

/// The examples of issue 20, and more of the kind: an error reported once
/// silences every check that depends on what it is about. `(source, the
/// exact error lines)`.
const NO_FOLLOW_ON_ERRORS: &[(&str, &[&str])] = &[
    // No missing `return` after a `return` whose value has an error.
    (
        "fn f() -> int { return nosuch(1); }\n",
        &["1:24: error: unknown function `nosuch`"],
    ),
    // A `let` whose initializer has an error still declares its variable
    // (with the error type): no unknown variable, no missing `return`.
    (
        "fn g(x: int) -> int { let y = x + true; return y; }\n",
        &["1:31: error: `+` needs operands of the same type, found `int` and `bool`"],
    ),
    (
        "let a = nosuch;\nprint(a + 1);\na = 2.5;\nlet b: [int] = a;\nfn f() -> bool { return a; }\n",
        &["1:9: error: unknown variable `nosuch`"],
    ),
    (
        "let a = [nosuch, 1];\na[0] = 1.5;\nprint(len(a) + 1.5);\n",
        &["1:10: error: unknown variable `nosuch`"],
    ),
    (
        "let s = \"text\";\nprint(s * 2);\n",
        &["1:9: error: string literals can only be arguments of `print`"],
    ),
    (
        "fn k() {}\nlet v = k();\nprint(v + 1);\n",
        &["2:9: error: `k(…)` produces no value"],
    ),
    // `return;` in a function with a return type still returns.
    ("fn f() -> int { return; }\n", &["1:17: error: `return;` in a function that returns `int`"]),
    // A condition with an error: the arms still decide whether the
    // function can end without `return`; a `while` whose condition has
    // an error may be endless.
    (
        "fn f() -> int { if nosuch { return 1; } else { return 2; } }\n",
        &["1:20: error: unknown variable `nosuch`"],
    ),
    (
        "fn f() -> int { while nosuch { } }\n",
        &["1:23: error: unknown variable `nosuch`"],
    ),
    // A call with the wrong arguments or count, or of an unknown function:
    // nothing about what it returns.
    (
        "fn h(a: int) -> int { return a; }\nfn g() -> int { let y = h(1, 2); return y + true; }\n",
        &["2:25: error: `h` takes 1 argument, but 2 were given"],
    ),
    (
        "let y = nosuch(1);\nprint(y + true);\n",
        &["1:9: error: unknown function `nosuch`"],
    ),
    (
        "print(abs(true) + 1.5);\n",
        &["1:7: error: `abs` takes an `int` or a `float`"],
    ),
    // Which of two declarations of a name a use means is unknown: uses
    // report only their own errors.
    (
        "fn print() {}\nprint(\"a\", 1, 2);\n",
        &["1:4: error: `print` is a builtin function and cannot be redefined"],
    ),
    (
        "fn len(a: [int], b: int) -> int { return b; }\nprint(len([1], 2) + 1, len(nosuch));\n",
        &[
            "1:4: error: `len` is a builtin function and cannot be redefined",
            "2:28: error: unknown variable `nosuch`",
        ],
    ),
    (
        "fn f(a: int) -> int { return a; }\nfn f(a: float) -> float { return a; }\nprint(f(1.5) + 1.5);\n",
        &["2:4: error: function `f` is already defined"],
    ),
    (
        "fn f(a: int, a: float) -> float { return a * 2.0; }\n",
        &["1:14: error: parameter `a` is declared twice"],
    ),
    // An unexpected character leaves a gap the parser does not report.
    ("let x = 1 @ 2;\n", &["1:11: error: unexpected character `@`"]),
];

#[test]
fn an_error_brings_no_follow_on_errors() {
    for (i, (src, want)) in NO_FOLLOW_ON_ERRORS.iter().enumerate() {
        assert_compile_errors(&format!("follow{i}.toy"), src, want);
    }
}

/// What does not depend on an error is still checked: the errors after
/// the first here are true whatever fixes it.
const INDEPENDENT_ERRORS: &[(&str, &[&str])] = &[
    // Issue 20: only the first was reported.
    (
        "fn f(x: int) -> int { return x; }\nprint(f(1.5), g(2));\n",
        &[
            "2:9: error: expected `int`, found `float`",
            "2:15: error: unknown function `g`",
        ],
    ),
    // Every operand, argument and element.
    (
        "print(nosuch + 1, 2 + true, len(1));\n",
        &[
            "1:7: error: unknown variable `nosuch`",
            "1:19: error: `+` needs operands of the same type, found `int` and `bool`",
            "1:29: error: `len` takes an array",
        ],
    ),
    (
        "let a = [1, true, 2.5];\n",
        &[
            "1:13: error: expected `int`, found `bool`",
            "1:19: error: expected `int`, found `float`",
        ],
    ),
    (
        "print(nosuch(1, zz));\n",
        &[
            "1:7: error: unknown function `nosuch`",
            "1:17: error: unknown variable `zz`",
        ],
    ),
    // The bounds and the body of a `for`.
    (
        "for i in nosuch..true { print(i + 1.5); }\n",
        &[
            "1:10: error: unknown variable `nosuch`",
            "1:18: error: expected `int`, found `bool`",
            "1:31: error: `+` needs operands of the same type, found `int` and `float`",
        ],
    ),
    // A call's type does not depend on its arguments.
    (
        "fn g(a: int) -> int { return a; }\nlet z: bool = g(1.5);\n",
        &[
            "2:15: error: expected `bool`, found `int`",
            "2:17: error: expected `int`, found `float`",
        ],
    ),
    // An annotation gives the variable its type whatever the initializer.
    (
        "let x: int = nosuch;\nlet y: float = x;\n",
        &[
            "1:14: error: unknown variable `nosuch`",
            "2:16: error: expected `float`, found `int`",
        ],
    ),
    // The first element gives an array literal its type.
    (
        "let a = [1, nosuch];\na[0] = 1.5;\n",
        &[
            "1:13: error: unknown variable `nosuch`",
            "2:8: error: expected `int`, found `float`",
        ],
    ),
    // A loop that can be left, or may not run, does not return.
    (
        "fn f() -> int { while nosuch { break; } }\n",
        &[
            "1:23: error: unknown variable `nosuch`",
            "1:41: error: function `f` can reach the end of its body without returning an `int`",
        ],
    ),
    (
        "fn f() -> int { for i in 0..nosuch { return 1; } }\n",
        &[
            "1:29: error: unknown variable `nosuch`",
            "1:50: error: function `f` can reach the end of its body without returning an `int`",
        ],
    ),
    // A value returned from a function without a return type.
    (
        "fn f() { return nosuch; }\n",
        &[
            "1:17: error: function `f` returns no value, but `return` has one",
            "1:17: error: unknown variable `nosuch`",
        ],
    ),
];

#[test]
fn independent_errors_are_all_reported() {
    for (i, (src, want)) in INDEPENDENT_ERRORS.iter().enumerate() {
        assert_compile_errors(&format!("indep{i}.toy"), src, want);
    }
}

#[test]
fn errors_come_in_source_order() {
    // Function bodies are checked after the top-level statements.
    assert_compile_errors(
        "order.toy",
        "print(1 + true);\nfn f() -> int { return true; }\nprint(nosuch);\nfn g() { break; }\n",
        &[
            "1:7: error: `+` needs operands of the same type, found `int` and `bool`",
            "2:24: error: expected `int`, found `bool`",
            "3:7: error: unknown variable `nosuch`",
            "4:10: error: `break` outside of a loop",
        ],
    );
    // The lexer runs before the parser.
    assert_compile_errors(
        "order_syntax.toy",
        "let x = 1 2;\nprint(\"\\q\");\nlet y = ;\n",
        &[
            "1:11: error: unexpected token `2`, expected `;`, `[` or an operator",
            "2:8: error: unknown escape sequence `\\q`",
            "3:9: error: unexpected token `;`, expected an expression",
        ],
    );
}

#[test]
fn messages_use_the_right_article() {
    for (ty, said) in [
        ("int", "an `int`"),
        ("float", "a `float`"),
        ("bool", "a `bool`"),
        ("[int]", "a `[int]`"),
    ] {
        let src = format!("fn f(x: {ty}) -> {ty} {{ if true {{ return x; }} }}\n");
        let col = src.len() - 1;
        let want = format!(
            "1:{col}: error: function `f` can reach the end of its body without returning {said}"
        );
        assert_compile_errors("article.toy", &src, &[want.as_str()]);
    }
}

/// Labels say what is at each place and why a type was expected, at the
/// places the checker knows: `(source, the error's first line, the texts
/// of its labels in source order)`.
const LABELS: &[(&str, &str, &[&str])] = &[
    (
        "let a = [1, 2];\nlet b: float = a;\n",
        "2:16: error: expected `float`, found `[int]`",
        &[
            "expected `float` because of this annotation",
            "this is `[int]`",
        ],
    ),
    (
        "fn f(x: int, y: float) -> float { return y; }\nprint(f(1, 2));\n",
        "2:12: error: expected `float`, found `int`",
        &[
            "expected `float` because of this parameter",
            "this is `int`",
        ],
    ),
    (
        "fn f() -> bool { return 1; }\n",
        "1:25: error: expected `bool`, found `int`",
        &[
            "expected `bool` because of this return type",
            "this is `int`",
        ],
    ),
    (
        "let x = 1;\nx = 2.5;\n",
        "2:5: error: expected `int`, found `float`",
        &[
            "expected `int` because `x` is initialized with this",
            "this is `float`",
        ],
    ),
    (
        "let a = [1, 2];\na[0] = true;\n",
        "2:8: error: expected `int`, found `bool`",
        &["this is `[int]`", "this is `bool`"],
    ),
    (
        "print([1, 2.5]);\n",
        "1:11: error: expected `int`, found `float`",
        &[
            "expected `int` because of the first element",
            "this is `float`",
        ],
    ),
    (
        "print(1 + true);\n",
        "1:7: error: `+` needs operands of the same type, found `int` and `bool`",
        &["this is `int`", "this is `bool`"],
    ),
    (
        "fn f() -> int {\n  print(1);\n}\n",
        "3:1: error: function `f` can reach the end of its body without returning an `int`",
        &[
            "`f` is declared to return an `int`",
            "the body can end here without `return`",
        ],
    ),
    (
        "fn h(a: int, b: int) -> int { return a; }\nprint(h(1));\n",
        "2:7: error: `h` takes 2 arguments, but 1 was given",
        &["`h` is declared with 2 parameters", "1 argument missing"],
    ),
    (
        "fn f() {}\nfn f() {}\n",
        "2:4: error: function `f` is already defined",
        &["first defined here", "defined again here"],
    ),
    (
        "print(y);\n",
        "1:7: error: unknown variable `y`",
        &["no variable of this name is in scope here"],
    ),
    (
        "let x = 1 2;\n",
        "1:11: error: unexpected token `2`, expected `;`, `[` or an operator",
        &["expected `;`, `[` or an operator"],
    ),
];

#[test]
fn labels_explain_the_error() {
    for (i, (src, error, labels)) in LABELS.iter().enumerate() {
        let name = format!("label{i}.toy");
        let run = run_named(&name, src, &[]);
        assert_eq!(run.status, 1, "{src:?}");
        let first = run.stderr.lines().next().unwrap_or_default();
        assert_eq!(first, format!("{name}:{error}"), "{src:?}:\n{}", run.stderr);
        // The labels in order of their place in the source, each once.
        let said: Vec<&str> = run
            .stderr
            .lines()
            .filter_map(|l| l.split_once("╰─").map(|(_, rest)| rest))
            .map(|rest| rest.trim_start_matches('─').trim())
            .collect();
        assert_eq!(said, *labels, "{src:?}:\n{}", run.stderr);
    }
}

/// The label under a mismatch points at the annotation and at the value.
#[test]
fn labels_point_at_their_places() {
    let run = run_named("where.toy", "let b: float = [1, 2];\n", &[]);
    let want = [
        "where.toy:1:16: error: expected `float`, found `[int]`",
        "   ╭─[where.toy:1:16]",
        "   │",
        " 1 │ let b: float = [1, 2];",
        "   │        ──┬──   ───┬──  ",
        "   │          ╰───────────── expected `float` because of this annotation",
        "   │                   │    ",
        "   │                   ╰──── this is `[int]`",
        "───╯",
        "",
    ]
    .join("\n");
    assert_eq!(run.stderr, want);
}

/// The REPL reports compile errors the same way, without follow-on errors,
/// and goes on.
#[test]
fn the_repl_reports_compile_errors_the_same_way() {
    let out = run_with_stdin(
        jitrun().env("JITRUN_HISTORY", ""),
        b"fn f() -> int { return nosuch(1); }\nfn g(x: int) -> int { let y = x + true; return y; }\n6 * 7\n",
    );
    let stderr = &out.stderr;
    assert_eq!(out.stdout, "42\n");
    assert_eq!(
        error_lines("<repl>", stderr),
        [
            "1:24: error: unknown function `nosuch`",
            "1:31: error: `+` needs operands of the same type, found `int` and `bool`",
        ],
        "{stderr}"
    );
    assert_eq!(
        stderr.matches("unknown function `nosuch`").count(),
        1,
        "{stderr}"
    );
    assert!(!stderr.lines().any(|l| l.starts_with("Error")), "{stderr}");
    assert!(
        stderr.contains("╰──── no function of this name is declared"),
        "{stderr}"
    );
    assert!(stderr.contains("╰─── this is `bool`"), "{stderr}");
}
