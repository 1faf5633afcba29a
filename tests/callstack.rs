//! Runtime errors print the Toy call stack under their first line, the
//! same at every level, under the interpreter and in the REPL; functions
//! -O2 expanded in place or unrolled appear as written; recursion is
//! collapsed so that a stack overflow's report stays small.

mod common;
use common::*;

/// Every mode: the interpreter and the JIT at each level.
const MODES: [&[&str]; 5] = [
    &["--interp", "-O0"],
    &["--interp"],
    &["-O0"],
    &["-O1"],
    &["-O2"],
];

/// Runs `src` as `name` in every mode; each must end with status 2, print
/// `stdout`, and report exactly `stderr`.
#[track_caller]
fn fails_everywhere_with(name: &str, src: &str, stdout: &str, stderr: &str) {
    for mode in MODES {
        let run = run_named(name, src, mode);
        assert_eq!(run.status, 2, "{mode:?}: {}", run.stderr);
        assert_eq!(run.stdout, stdout, "{mode:?}");
        assert_eq!(run.stderr, stderr, "{mode:?}");
    }
}

#[test]
fn the_issues_example() {
    let src = "fn inner(a: [int], i: int) -> int {\n    return a[i];\n}\nfn outer(a: [int]) -> int {\n    let k = 7;\n    return inner(a, k) + 1;\n}\nlet a = [1, 2, 3];\nprint(outer(a));\n";
    fails_everywhere_with(
        "tb.toy",
        src,
        "",
        "tb.toy:2:12: runtime error: index out of bounds: the length is 3 but the index is 7\n  in inner at tb.toy:2:12\n  called from outer at tb.toy:6:12\n  called from the top level at tb.toy:9:7\n",
    );
}

#[test]
fn errors_at_the_top_level_name_it() {
    fails_everywhere_with(
        "cs_top.toy",
        "print(1);\nlet z = 0;\nprint(10 / z);\n",
        "1\n",
        "cs_top.toy:3:7: runtime error: division by zero\n  in the top level at cs_top.toy:3:7\n",
    );
}

#[test]
fn every_kind_of_error_prints_its_stack() {
    let lib = "fn div(a: int, b: int) -> int {\n  return a / b;\n}\nfn make(n: int) -> [float] {\n  return [1.5; n];\n}\nfn twice(n: int) -> int {\n  return div(n, n - 3) + len(make(n - 5));\n}\n";
    let cases = [
        (
            "print(twice(6));\nprint(twice(3));\n",
            "3\n",
            "cs_kinds0.toy:2:10: runtime error: division by zero\n  in div at cs_kinds0.toy:2:10\n  called from twice at cs_kinds0.toy:8:10\n  called from the top level at cs_kinds0.toy:11:7\n",
        ),
        (
            "print(twice(6));\nprint(twice(4));\n",
            "3\n",
            "cs_kinds1.toy:5:10: runtime error: negative array length -1\n  in make at cs_kinds1.toy:5:10\n  called from twice at cs_kinds1.toy:8:30\n  called from the top level at cs_kinds1.toy:11:7\n",
        ),
    ];
    for (i, (main, out, err)) in cases.iter().enumerate() {
        let src = format!("{lib}{main}");
        fails_everywhere_with(&format!("cs_kinds{i}.toy"), &src, out, err);
    }
}

/// `ir::bounds` checks these accesses together (`toy_rt_group_error`)
/// and on entry to the loop over two arrays (`toy_rt_walk_error`) at -O2;
/// at -O2 `f` is also expanded into `g`.
#[test]
fn grouped_and_loop_entry_checks_print_the_stack() {
    fails_everywhere_with(
        "cs_group.toy",
        "fn f(b: [int], c: [int]) -> int {\n  let x = b[0] + c[0];\n  return x + b[5] * c[1] + c[6];\n}\nfn g(n: int) -> int {\n  return f([1, 2, 3], [1, 2, 3, 4]) + n;\n}\nprint(g(1));\n",
        "",
        "cs_group.toy:3:14: runtime error: index out of bounds: the length is 3 but the index is 5\n  in f at cs_group.toy:3:14\n  called from g at cs_group.toy:6:10\n  called from the top level at cs_group.toy:8:7\n",
    );
    fails_everywhere_with(
        "cs_walk.toy",
        "fn dot(a: [int], b: [int], n: int) -> int {\n  let s = 0;\n  for i in 0..n {\n    s += a[i] * b[i];\n  }\n  return s;\n}\nfn h(n: int) -> int {\n  return dot([1, 2, 3], [4, 5], n);\n}\nprint(h(2));\nprint(h(3));\n",
        "14\n",
        "cs_walk.toy:4:17: runtime error: index out of bounds: the length is 2 but the index is 2\n  in dot at cs_walk.toy:4:17\n  called from h at cs_walk.toy:9:10\n  called from the top level at cs_walk.toy:12:7\n",
    );
}

/// `leaf` is expanded in place at -O2 (in `mid`, and in the top-level
/// loop), so it has no code of its own; the stack still names it.
#[test]
fn a_function_expanded_in_place_keeps_its_frame() {
    let src = "fn leaf(a: [int], i: int) -> int {\n  return a[i] * 2;\n}\nfn mid(a: [int], i: int) -> int {\n  return leaf(a, i) + leaf(a, i + 1);\n}\nlet a = [1, 2, 3];\nfor i in 0..5 {\n  print(mid(a, i), leaf(a, i));\n}\n";
    let clif = run_named("cs_leaf.toy", src, &["-O2", "--emit", "clif"]);
    assert!(!clif.stdout.contains("; toy.leaf\n"), "{}", clif.stdout);
    fails_everywhere_with(
        "cs_leaf.toy",
        src,
        "6 2\n10 4\n",
        "cs_leaf.toy:2:10: runtime error: index out of bounds: the length is 3 but the index is 3\n  in leaf at cs_leaf.toy:2:10\n  called from mid at cs_leaf.toy:5:23\n  called from the top level at cs_leaf.toy:9:9\n",
    );
}

/// At -O2 `f` is unrolled two levels (`ir::inline`): most of these
/// frames are copies inside one machine frame.
#[test]
fn an_unrolled_recursive_function_keeps_every_frame() {
    let src = "fn f(a: [int], n: int) -> int {\n  if n == 0 {\n    return a[n + 5];\n  }\n  return f(a, n - 1) + 1;\n}\nprint(f([1, 2], 6));\n";
    let ssa = run_named("cs_unrolled.toy", src, &["-O2", "--emit", "ssa"]);
    assert!(ssa.stdout.contains("(inlined at 5:10)"), "{}", ssa.stdout);
    let called = "  called from f at cs_unrolled.toy:5:10\n".repeat(6);
    fails_everywhere_with(
        "cs_unrolled.toy",
        src,
        "",
        &format!("cs_unrolled.toy:3:12: runtime error: index out of bounds: the length is 2 but the index is 5\n  in f at cs_unrolled.toy:3:12\n{called}  called from the top level at cs_unrolled.toy:7:7\n"),
    );
}

/// Seven frames of a recursion print in full; eight collapse to the
/// first and last three and a count.
#[test]
fn runs_of_one_frame_collapse_beyond_seven() {
    let src = |n: i32| {
        format!("fn f(a: [int], n: int) -> int {{\n  if n == 0 {{\n    return a[9];\n  }}\n  return f(a, n - 1);\n}}\nprint(f([1], {n}));\n")
    };
    let frame = "  called from f at cs_run.toy:5:10\n";
    let head = "cs_run.toy:3:12: runtime error: index out of bounds: the length is 1 but the index is 9\n  in f at cs_run.toy:3:12\n";
    let tail = "  called from the top level at cs_run.toy:7:7\n";
    fails_everywhere_with(
        "cs_run.toy",
        &src(7),
        "",
        &format!("{head}{}{tail}", frame.repeat(7)),
    );
    fails_everywhere_with(
        "cs_run.toy",
        &src(8),
        "",
        &format!(
            "{head}{}  … 2 more calls of f at cs_run.toy:5:10\n{}{tail}",
            frame.repeat(3),
            frame.repeat(3)
        ),
    );
}

#[test]
fn a_stack_overflow_collapses_its_recursion() {
    let src = "fn f(n: int) -> int { return f(n + 1) + 1; }\nprint(\"start\");\nprint(f(0));\n";
    let frame = "  called from f at so.toy:1:30\n";
    let want = format!(
        "so.toy:1:30: runtime error: stack overflow\n  in f at so.toy:1:30\n{}  … N more calls of f at so.toy:1:30\n{}  called from the top level at so.toy:3:7\n",
        frame.repeat(2),
        frame.repeat(3)
    );
    for mode in MODES {
        let run = run_named("so.toy", src, mode);
        assert_eq!(
            (run.status, run.stdout.as_str()),
            (2, "start\n"),
            "{mode:?}"
        );
        assert_eq!(without_recursion_depth(&run.stderr), want, "{mode:?}");
        // Recursion that ran the stack out is thousands of calls deep.
        let count = run.stderr.lines().nth(4).unwrap();
        let digits: String = count.chars().filter(char::is_ascii_digit).collect();
        assert!(digits.parse::<u64>().unwrap() > 10_000, "{count}");
    }
}

/// 100 000 calls deep and more: the report stays a few hundred bytes, also
/// for mutual recursion, whose runs do not collapse (the first and last
/// 20 lines are kept).
#[test]
fn deep_recursion_reports_stay_small() {
    let deep = "fn f(n: int) -> int {\n  if n == 0 {\n    return 0;\n  }\n  return f(n - 1) + 1;\n}\nprint(f(100000));\nprint(f(100000000));\n";
    let mutual = "fn f(n: int) -> int { return g(n + 1) + 1; }\nfn g(n: int) -> int { return f(n + 1) + 1; }\nprint(f(0));\n";
    for mode in MODES {
        let run = run_named("cs_deep.toy", deep, mode);
        assert_eq!(
            (run.status, run.stdout.as_str()),
            (2, "100000\n"),
            "{mode:?}"
        );
        assert!(run.stderr.len() < 1024, "{mode:?}: {}", run.stderr);
        let run = run_named("cs_mutual.toy", mutual, mode);
        assert_eq!(run.status, 2, "{mode:?}");
        assert!(run.stderr.len() < 4096, "{mode:?}: {}", run.stderr);
        assert_eq!(
            run.stderr.lines().count(),
            1 + 20 + 1 + 20,
            "{}",
            run.stderr
        );
        assert!(
            run.stderr
                .ends_with("  called from the top level at cs_mutual.toy:3:7\n"),
            "{}",
            run.stderr
        );
        assert!(run.stderr.contains("\n  … "), "{}", run.stderr);
    }
}

/// In the REPL each frame names `<repl>` and the line in its entry.
#[test]
fn the_repl_prints_stacks_with_entry_lines() {
    let input = "fn inner(a: [int], i: int) -> int {\n  return a[i];\n}\nfn outer(a: [int], n: int) -> int {\n  let one = 1;\n  return inner(a, n) + one;\n}\nlet a = [1, 2, 3];\nouter(a, 1)\nouter(a, 5)\nfor i in 0..2 {\n  print(outer(a, i * 9));\n}\n";
    let out = run_with_stdin(&mut repl_command(), input.as_bytes());
    assert_eq!(out.stdout, "3\n2\n");
    assert_eq!(
        out.stderr,
        "<repl>:2:10: runtime error: index out of bounds: the length is 3 but the index is 5\n  in inner at <repl>:2:10\n  called from outer at <repl>:3:10\n  called from the top level at <repl>:1:1\n<repl>:2:10: runtime error: index out of bounds: the length is 3 but the index is 9\n  in inner at <repl>:2:10\n  called from outer at <repl>:3:10\n  called from the top level at <repl>:2:9\n"
    );
}
