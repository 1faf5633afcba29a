//! Unrolling of small recursive functions at -O2 (`ir::inline`): fewer
//! real calls, and nothing a program can observe changes — output, its
//! order, runtime errors and their locations, stack overflows.

mod common;
use common::*;

const FIB: &str = "fn fib(n: int) -> int {\n    if n < 2 {\n        return n;\n    }\n    return fib(n - 1) + fib(n - 2);\n}\nprint(fib(20));\n";

/// Calls of `f0` in the first function's SSA (`name`: a file name no
/// other test uses, as tests run in parallel).
fn calls_in_ssa(name: &str, src: &str, level: &str) -> usize {
    let run = run_source(name, src, &[level, "--emit", "ssa"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let fib = run.stdout.split("fn <top>").next().unwrap();
    fib.matches("= call f0(").count()
}

#[test]
fn fib_calls_itself_eight_times_after_two_rounds_at_o2_only() {
    assert_eq!(calls_in_ssa("unroll_fib_ssa.toy", FIB, "-O1"), 2);
    assert_eq!(calls_in_ssa("unroll_fib_ssa.toy", FIB, "-O2"), 8);
    for level in ["-O0", "-O2"] {
        let run = run_source("unroll_fib.toy", FIB, &[level]);
        assert_eq!((run.status, run.stdout.as_str()), (0, "6765\n"), "{level}");
    }
}

/// The calls left after unrolling run the entry test first and make no
/// call when it returns at once: fib's 8 calls each behind a copy of
/// `n < 2` (7 tests from unrolling, 8 guards), and the same for an early
/// return in the `else` branch that computes its value.
#[test]
fn calls_left_after_unrolling_test_for_the_early_return_first() {
    let tests = |src: &str| {
        let run = run_source("unroll_guard_ssa.toy", src, &["-O2", "--emit", "ssa"]);
        let first = run.stdout.split("fn <top>").next().unwrap().to_string();
        (
            first.matches("= call f0(").count(),
            first.matches(" = icmp ").count(),
        )
    };
    assert_eq!(tests(FIB), (8, 15));
    let src = "fn g(n: int) -> int {\n    if n >= 2 {\n        return g(n - 1) + g(n - 2) + 1;\n    }\n    return n * 3 - 1;\n}\nlet s = 0;\nfor n in -3..22 {\n    s = s * 7 + g(n);\n}\nprint(s);\n";
    assert_eq!(tests(src), (8, 15));
    let (reference, unrolled) = at_o0_and_unrolled("unroll_guard.toy", src);
    assert_eq!(reference.status, 0, "{}", reference.stderr);
    assert_eq!(unrolled.stdout, reference.stdout);
    assert_eq!(unrolled.status, 0);
}

/// `src` run at -O0 and at -O2, after checking that -O2 did unroll its
/// first function (more blocks than at -O1), so that the comparison tests
/// unrolled code. `name`: a file name no other test uses.
fn at_o0_and_unrolled(name: &str, src: &str) -> (Run, Run) {
    let first_function_blocks = |level: &str| {
        let ssa = run_source(name, src, &[level, "--emit", "ssa"]).stdout;
        let first = ssa.split("fn <top>").next().unwrap();
        first.lines().filter(|l| l.starts_with('b')).count()
    };
    assert!(first_function_blocks("-O2") > first_function_blocks("-O1"));
    (
        run_source(name, src, &["-O0"]),
        run_source(name, src, &["-O2"]),
    )
}

/// Each level prints before and after its calls; the unrolled copies must
/// print in exactly the same order.
#[test]
fn output_order_inside_unrolled_recursion_is_unchanged() {
    let src = "fn walk(n: int) -> int {\n    print(\"in\", n);\n    if n <= 0 {\n        return 1;\n    }\n    let s = walk(n - 1) + walk(n - 2);\n    print(\"out\", n, s);\n    return s;\n}\nprint(walk(6));\n";
    let (reference, unrolled) = at_o0_and_unrolled("unroll_order.toy", src);
    assert_eq!(reference.status, 0, "{}", reference.stderr);
    assert!(reference.stdout.lines().count() > 40);
    assert_eq!(unrolled.stdout, reference.stdout);
    assert_eq!(unrolled.status, 0);
}

/// A division by zero three levels down — inside an unrolled copy — is
/// reported at the callee's own line and column, after the same output.
#[test]
fn runtime_error_in_an_unrolled_copy_reads_as_without_unrolling() {
    let src = "fn down(n: int, d: int) -> int {\n    print(n);\n    if n == 0 {\n        return 100 / d;\n    }\n    return down(n - 1, d - 1) + 1;\n}\nprint(down(3, 3));\nprint(down(3, 2));\n";
    let (reference, unrolled) = at_o0_and_unrolled("unroll_err.toy", src);
    assert_eq!(reference.status, 2, "{}", reference.stderr);
    assert!(reference.stderr.contains(":4:16"), "{}", reference.stderr);
    assert!(
        reference.stderr.contains("division by zero"),
        "{}",
        reference.stderr
    );
    assert_eq!(
        (unrolled.status, &unrolled.stdout, &unrolled.stderr),
        (reference.status, &reference.stdout, &reference.stderr)
    );
}

/// Unrolled or not, endless recursion still ends in the stack-overflow
/// error: the copies keep real calls, and every real call checks.
#[test]
fn endless_unrolled_recursion_still_overflows_the_stack() {
    let src = "fn up(n: int) -> int {\n    if n < 0 {\n        return 0;\n    }\n    return up(n + 1) + 1;\n}\nprint(up(0));\n";
    // One self-call stays one call, now three levels deep, behind a
    // fourth copy of the entry test.
    let no_call = src.replace("print(up(0))", "print(1)");
    let ssa = run_source("unroll_up_ssa.toy", &no_call, &["-O2", "--emit", "ssa"]).stdout;
    assert_eq!(ssa.matches("= call f0(").count(), 1, "{ssa}");
    assert_eq!(ssa.matches("icmp lt").count(), 4, "{ssa}");
    let run = run_source("unroll_overflow.toy", src, &["-O2"]);
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("unroll_overflow.toy:5:12: runtime error: stack overflow"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stdout, "");
}

/// A small leaf function is expanded at every call at -O2 (in functions,
/// and in top-level code inside loops), so a whole program compiles no
/// code for it; at -O1 it is an ordinary function.
/// The REPL calls functions through slots, so there it keeps its code.
#[test]
fn leaf_functions_expanded_everywhere_get_no_code_of_their_own_at_o2() {
    let src = "fn sq(x: int) -> int {\n    return x * x;\n}\nfn walk(n: int) -> int {\n    if n <= 0 {\n        return 0;\n    }\n    return sq(n) + walk(n - 1);\n}\nfor i in 7..8 {\n    print(sq(i), walk(3));\n}\n";
    let functions = |level: &str| {
        let run = run_source("leaf_code.toy", src, &[level, "--emit", "clif"]);
        assert_eq!(run.status, 0, "{}", run.stderr);
        run.stdout
            .lines()
            .filter_map(|l| l.strip_prefix("; toy."))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(functions("-O1"), ["sq", "walk", "<top>"]);
    assert_eq!(functions("-O2"), ["walk", "<top>"]);
    for level in ["-O0", "-O2"] {
        let run = run_source("leaf_code.toy", src, &[level]);
        assert_eq!((run.status, run.stdout.as_str()), (0, "49 14\n"), "{level}");
    }
}
