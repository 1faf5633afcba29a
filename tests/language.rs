//! Rules of LANGUAGE.md that the samples do not pin down, each as a small
//! program run through the binary at -O0 and at -O2.

mod common;
use common::*;

const CASES: &[(&str, &str, &str)] = &[
    (
        "left-to-right evaluation of operands and arguments",
        "fn t(x: int) -> int { print(x); return x; }\nprint(t(1) + t(2) * t(3));\nprint(t(4), t(5));\n",
        "1\n2\n3\n7\n4\n5\n4 5\n",
    ),
    (
        "a[i] op= e evaluates a, then i, then reads a[i], then e",
        "let arr = [10, 20];\nfn a() -> [int] { print(\"a\"); return arr; }\nfn i() -> int { print(\"i\"); return 1; }\nfn e() -> int { print(\"e\"); arr[1] = 100; return 1; }\na()[i()] += e();\nprint(arr);\n",
        "a\ni\ne\n[10, 21]\n",
    ),
    (
        "globals read before their let hold zero values",
        "fn f() -> int { return g; }\nfn h() -> int { return len(ga); }\nfn b() -> bool { return gb; }\nprint(f(), h(), b());\nlet g = 5;\nlet ga = [1, 2];\nlet gb = true;\nprint(f(), h(), b());\n",
        "0 0 false\n5 2 true\n",
    ),
    (
        "functions change globals for everyone",
        "let n = 1;\nfn inc() { n = n * 2; }\ninc();\ninc();\nprint(n);\n",
        "4\n",
    ),
    (
        "precedence: comparisons below bitwise operators, unary above all",
        "print(1 + 2 * 3 << 1 & 7 ^ 1 | 8);\nprint(1 | 2 == 3);\nprint(-2 * 3, !true == false, - -5);\nprint((1 < 2) == true);\n",
        "15\ntrue\n-6 true 5\ntrue\n",
    ),
    (
        "comments and literal forms",
        "print(/* inline */ 0xFF, 0XaB, 0b1111_0000, 1e3, 2.5E-1, 7_7);\n// trailing comment",
        "255 171 240 1000.0 0.25 77\n",
    ),
    (
        "number edges: `..` after an int, exponents need digits, `_` in fractions",
        "let e = 2;\nfor i in 1..3 { print(i); }\nprint(1e3 + 0.5, 2.5e-3, 3.0E+2, 1_000.2_5, 1+e, 0x1F_ff);\n",
        "1\n2\n1000.5 0.0025 300.0 1000.25 3 8191\n",
    ),
    (
        "shadowing may change the type",
        "let x = 1;\nlet x = 2.5;\nlet x = [x];\nprint(x);\n",
        "[2.5]\n",
    ),
    (
        "conversions and builtins",
        "print(int(5), float(2.5), int(-0.5), float(-3), abs(-7), abs(-0.0), max(2, 9), min(-1.5, 2.0), len([[1], [2]]));\n",
        "5 2.5 0 -3.0 7 0.0 9 -1.5 2\n",
    ),
    (
        "clock is a monotonic float",
        "let a = clock();\nlet b = clock();\nprint(b >= a, a >= 0.0);\n",
        "true true\n",
    ),
    (
        "while true without break counts as never ending; dead code after return",
        "fn forever() -> int { while true { } }\nfn early() -> int { return 1; print(2); }\nprint(early());\n",
        "1\n",
    ),
    (
        "void calls as statements, nested calls as arguments",
        "fn say(x: int) { print(\"say\", x); }\nfn twice(x: int) -> int { return 2 * x; }\nsay(twice(twice(3)));\n",
        "say 12\n",
    ),
    (
        "bool equality and float comparisons",
        "print(true == true, true != false, false == true, 1.5 < 2.5, 2.5 >= 2.5, -0.0 == 0.0);\n",
        "true true false true true true\n",
    ),
    (
        "the for range is half-open and may be empty or negative",
        "for i in -2..1 { print(i); }\nfor i in 3..3 { print(\"never\"); }\n",
        "-2\n-1\n0\n",
    ),
    (
        "continue in while re-evaluates the condition",
        "let i = 0;\nlet odd = 0;\nwhile i < 10 { i += 1; if i % 2 == 0 { continue; } odd += 1; }\nprint(i, odd);\n",
        "10 5\n",
    ),
    (
        "break leaves only the innermost loop",
        "let n = 0;\nfor a in 0..3 { while true { n += 1; break; } }\nprint(n);\n",
        "3\n",
    ),
    (
        "constant folding keeps run-time semantics",
        "print(9223372036854775807 + 1, 1 << 64, -1 >> 70, 7 / -2, 7 % -2, 0.1 + 0.2, 1.0 / 0.0, int(1e20));\n",
        "-9223372036854775808 1 -1 -3 1 0.30000000000000004 inf 9223372036854775807\n",
    ),
    (
        "a constant division by zero is a runtime error only when reached",
        "if false { print(1 / 0); }\nprint(\"fine\");\n",
        "fine\n",
    ),
    (
        "parameters are assignable locals",
        "fn f(n: int) -> int { n += 1; return n; }\nlet k = 1;\nprint(f(k), k);\n",
        "2 1\n",
    ),
    (
        "arrays share by reference through parameters and returns",
        "fn set(a: [int]) { a[0] = 9; }\nlet x = [1, 2];\nlet y = x;\nset(y);\nprint(x, y);\n",
        "[9, 2] [9, 2]\n",
    ),
    (
        "a function returning an array of arrays of bools",
        "fn grid(n: int) -> [[bool]] { let g = [[false]; n]; for i in 0..n { g[i] = [i % 2 == 0; 2]; } return g; }\nprint(grid(3));\n",
        "[[true, true], [false, false], [true, true]]\n",
    ),
];

#[test]
fn language_rules_hold_at_every_level() {
    let mut failures = Vec::new();
    for (i, (what, src, expected)) in CASES.iter().enumerate() {
        for level in ["-O0", "-O2"] {
            let run = run_source(&format!("lang{i}.toy"), src, &[level]);
            if run.status != 0 || run.stdout != *expected {
                failures.push(format!(
                    "{what} ({level}): status {}\nwant {expected:?}\ngot  {:?}\n{}",
                    run.status, run.stdout, run.stderr
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
