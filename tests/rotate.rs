//! Loops tested at their bottom at -O2 (`ir::rotate`): which loops are,
//! and that nothing a program can observe changes — header values read
//! after the loop, loops nested in rotated loops, several latches
//! (`continue`), phis passed to each other, globals in the test, and
//! runtime errors inside a rotated loop.

mod common;
use common::*;

/// Cranelift IR of `src` at `level` (from a file of its own: tests run
/// in parallel).
fn clif(name: &str, src: &str, level: &str) -> String {
    let run = run_source(
        &format!("clif-{name}{level}.toy"),
        src,
        &[level, "--emit", "clif"],
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    run.stdout
}

/// Branches from a block back to itself: the body of a rotated loop that
/// is one Cranelift block.
fn self_branches(clif: &str) -> usize {
    let mut block = "";
    let mut count = 0;
    for line in clif.lines().map(str::trim) {
        if line.starts_with("block") && line.ends_with(':') {
            block = line.split(['(', ':']).next().unwrap_or("");
        } else if line.starts_with("brif") && line.contains(&format!(" {block}(")) {
            count += 1;
        }
    }
    count
}

/// Branches on a negated comparison: the header of a loop left as built.
fn negated_branches(clif: &str) -> usize {
    let lines: Vec<&str> = clif.lines().collect();
    let negated = lines
        .windows(2)
        .filter(|w| w[0].contains(" = icmp eq ") && w[1].trim_start().starts_with("brif"));
    negated.count()
}

#[test]
fn loops_test_at_their_bottom_at_o2() {
    // A loop it cannot rotate (a `break` also enters the exit) branches on
    // the negated test to the exit, so that Cranelift's block order puts
    // the body right after the test.
    let rotatable = "fn f(n: int) -> int {\n  let s = 0;\n  let i = 0;\n  while i < n {\n    s += i;\n    i += 1;\n  }\n  if s > 10 {\n    s -= 1;\n  }\n  return s;\n}\nprint(f(10), f(0), f(-3));\n";
    let with_break = "fn f(n: int) -> int {\n  let s = 0;\n  let i = 0;\n  while i < n {\n    if i == 7 {\n      break;\n    }\n    s += i;\n    i += 1;\n  }\n  return s;\n}\nprint(f(10), f(0), f(-3), f(100));\n";
    same_at_every_level("rotatable.toy", rotatable, "44 0 0\n");
    same_at_every_level("break.toy", with_break, "21 0 0 21\n");
    assert_eq!(self_branches(&clif("rotatable", rotatable, "-O2")), 1);
    assert_eq!(self_branches(&clif("rotatable", rotatable, "-O1")), 0);
    assert_eq!(negated_branches(&clif("rotatable", rotatable, "-O2")), 0);
    assert_eq!(self_branches(&clif("with_break", with_break, "-O2")), 0);
    assert_eq!(negated_branches(&clif("with_break", with_break, "-O2")), 1);
    assert_eq!(negated_branches(&clif("with_break", with_break, "-O1")), 0);
}

#[test]
fn header_values_reach_the_exit() {
    // `i` and `s` are read after the loop: from the header on a loop that
    // never runs, from the latch's copy of the test otherwise.
    let src = "fn f(n: int) -> int {\n  let i = 0;\n  let s = 0;\n  while i < n {\n    s += i;\n    i += 1;\n  }\n  return i * 1000 + s;\n}\nprint(f(5), f(1), f(0), f(-2));\n";
    same_at_every_level("exit.toy", src, "5010 1000 0 0\n");
    assert_eq!(self_branches(&clif("exit", src, "-O2")), 1);
}

#[test]
fn phis_passed_to_each_other_and_tests_of_several_instructions() {
    // `a = b` passes one header phi to another; the test `i * i + 1 < n`
    // is three header instructions, all repeated in the latch.
    let src = "fn fib(n: int) -> int {\n  let a = 0;\n  let b = 1;\n  let i = 0;\n  while i < n {\n    let t = a + b;\n    a = b;\n    b = t;\n    i += 1;\n  }\n  return a;\n}\nfn root(n: int) -> int {\n  let i = 0;\n  while i * i + 1 < n {\n    i += 1;\n  }\n  return i;\n}\nprint(fib(10), fib(1), fib(0), root(50), root(2), root(-7));\n";
    same_at_every_level("phis.toy", src, "55 1 0 7 1 0\n");
    assert_eq!(self_branches(&clif("phis", src, "-O2")), 2);
}

#[test]
fn nested_loops_several_latches_and_globals() {
    // The inner loop's bound is the outer loop's counter, read in the
    // outer body through its parameter; `continue` makes two latches,
    // each repeating the test; the top-level loop tests a global.
    let src = "fn triangle(n: int) -> int {\n  let s = 0;\n  for i in 0..n {\n    for j in 0..i {\n      s += i * j;\n    }\n  }\n  return s;\n}\nfn skip(n: int) -> int {\n  let i = 0;\n  let s = 0;\n  while i < n {\n    i += 1;\n    if i % 3 == 0 {\n      continue;\n    }\n    s += i;\n  }\n  return s * 100 + i;\n}\nlet g = 0;\nlet steps = 0;\nwhile g < 40 {\n  g += 7;\n  steps += 1;\n}\nprint(triangle(6), triangle(0), skip(10), skip(0), g, steps);\n";
    same_at_every_level("nested.toy", src, "85 0 3710 0 42 6\n");
    // Every loop tests `<` once at -O1; at -O2 each latch repeats it:
    // triangle's two loops one latch each, skip's two latches, the
    // top-level loop one.
    let tests = |level| clif("nested", src, level).matches(" slt ").count();
    assert_eq!(tests("-O1"), 4);
    assert_eq!(tests("-O2"), 4 + 5);
}

#[test]
fn runtime_errors_inside_rotated_loops() {
    // The index leaves the array in the fourth iteration: the three
    // prints before it come out, then the error with its location.
    let src = "fn walk(a: [int], n: int) {\n  let i = 0;\n  while i < n {\n    print(a[i] * 2);\n    i += 1;\n  }\n}\nwalk([1, 2, 3], 3);\nwalk([4, 5, 6], 4);\n";
    same_at_every_level("error.toy", src, "2\n4\n6\n8\n10\n12\n");
    let run = run_source("error.toy", src, &["-O2"]);
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("error.toy:4:11"), "{}", run.stderr);
}
