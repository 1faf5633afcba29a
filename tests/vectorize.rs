//! Loops run two iterations at a time at -O2 (`ir::vector`): which loops
//! are, and that nothing a program can observe changes — every element,
//! odd and even trip counts, empty and negative ranges, arrays that are
//! the same array, and runtime errors.

mod common;
use common::*;

/// Vector instructions in the Cranelift IR of `src` at `level`.
fn vector_insts(name: &str, src: &str, level: &str) -> usize {
    let run = run_source(name, src, &[level, "--emit", "clif"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    run.stdout
        .lines()
        .filter(|l| l.contains("f64x2") || l.contains("i64x2"))
        .count()
}

/// `c[j] += k * b[j]` and friends over ranges of every length from -2
/// to 9 and from different starts, printing every element.
const SHAPES: &str = "fn axpy(c: [float], k: float, lo: int, hi: int) {
    for j in lo..hi {
        c[j] += k * c[j] - 0.25;
    }
}
fn mix(a: [int], lo: int, hi: int) {
    for j in lo..hi {
        a[j] = (a[j] + 5) ^ (a[j] - 7) | 3;
    }
}
fn blend(c: [float], a: [float], b: [int], lo: int, hi: int) {
    for j in lo..hi {
        c[j] = a[j] * 0.5 - c[j];
        b[j] = b[j] + 1;
    }
}
fn roots(a: [float], n: int) {
    let i = 0;
    while i < n {
        a[i] = -sqrt(abs(a[i])) / 2.0;
        i += 1;
    }
}
fn add(a: [float], b: [float]) -> [float] {
    let c = [0.0; len(a)];
    for j in 0..len(a) {
        c[j] = a[j] - b[j];
    }
    return c;
}
for n in 0..10 {
    for lo in -2..3 {
        let hi = lo + n - 2;
        if lo >= 0 && hi <= 10 {
            let c = [1.5; 10];
            let b = [0.0; 10];
            let a = [0; 10];
            for i in 0..10 {
                b[i] = float(i) * 0.3 - 1.0;
                c[i] = float(i * i) / 7.0;
                a[i] = i * i - 20;
            }
            axpy(c, 0.7, lo, hi);
            mix(a, lo, hi);
            blend(c, b, a, lo, hi);
            roots(b, hi);
            print(n, lo, c, a, b, add(c, b));
        }
    }
}
";

/// The functions whose Cranelift IR at -O2 has vector instructions.
fn functions_in_lanes(name: &str, src: &str) -> Vec<String> {
    let run = run_source(name, src, &["-O2", "--emit", "clif"]);
    let mut found: Vec<String> = run
        .stdout
        .split("; toy.")
        .skip(1)
        .filter(|f| f.contains("f64x2") || f.contains("i64x2"))
        .map(|f| f.lines().next().unwrap().to_string())
        .collect();
    found.sort();
    found
}

#[test]
fn counted_loops_over_float_and_int_arrays_run_in_lanes_at_o2_only() {
    assert_eq!(vector_insts("vec_shapes.toy", SHAPES, "-O1"), 0);
    assert_eq!(
        functions_in_lanes("vec_shapes.toy", SHAPES),
        ["add", "axpy", "blend", "mix", "roots"]
    );
}

#[test]
fn every_element_is_as_without_lanes_for_every_range() {
    let reference = run_source("vec_shapes_ref.toy", SHAPES, &["-O0"]);
    assert_eq!(reference.status, 0, "{}", reference.stderr);
    // Every (n, lo) pair with a range inside the arrays printed a line.
    assert_eq!(reference.stdout.lines().count(), 30);
    same_at_every_level("vec_shapes_ref.toy", SHAPES, &reference.stdout);
}

/// The same array as source and destination, or two views of one array:
/// each lane still touches only its own element.
#[test]
fn arrays_that_are_the_same_array_give_the_same_result() {
    let src = "fn step(dst: [float], src: [float]) {
    for j in 0..len(dst) {
        dst[j] = src[j] * 2.0 + dst[j];
    }
}
let a = [1.0, 2.0, 3.0, 4.0, 5.0];
step(a, a);
print(a);
let b = [0.5; 4];
step(b, a);
print(b);
";
    assert!(vector_insts("vec_alias.toy", src, "-O2") > 0);
    same_at_every_level(
        "vec_alias.toy",
        src,
        "[3.0, 6.0, 9.0, 12.0, 15.0]\n[6.5, 12.5, 18.5, 24.5]\n",
    );
}

/// Loops that must run one iteration at a time: a sum carried across
/// iterations (adding in another order rounds differently), the counter
/// used as a value, a neighbouring index, a call, a print, an integer
/// multiplication, a loop with a branch, and the counter's step used as a
/// value (once a compiler crash).
#[test]
fn loops_that_are_not_element_wise_stay_scalar() {
    let cases = [
        "fn f(a: [float], n: int) -> float { let s = 0.0; for j in 0..n { s += a[j]; } return s; }",
        "fn f(a: [float], n: int) -> float { for j in 0..n { a[j] = float(j); } return a[0]; }",
        "fn f(a: [float], n: int) -> float { for j in 0..n { a[j] = a[j + 1]; } return a[0]; }",
        "fn g(x: float) -> float { return x; }\nfn f(a: [float], n: int) -> float { for j in 0..n { a[j] = g(a[j]); } return a[0]; }",
        "fn f(a: [float], n: int) -> float { for j in 0..n { print(a[j]); } return a[0]; }",
        "fn f(a: [int], n: int) -> float { for j in 0..n { a[j] = a[j] * 3; } return 0.0; }",
        // The step itself as an operand (one block: CSE shares `i + 1`).
        "fn f(a: [int], n: int) -> float { let i = 0; while i < n { a[i] = a[i] + (i + 1); i += 1; } return 0.0; }",
        "fn f(a: [float], n: int) -> float { for j in 0..n { a[j] = a[j] * 3.0; if a[j] > 1.0 { n = 0; } } return a[0]; }",
    ];
    for (i, case) in cases.iter().enumerate() {
        let array = if case.contains("[int]") {
            "[1, 2, 3, 4]"
        } else {
            "[1.0, 2.0, 3.0, 4.0]"
        };
        let src = format!("{case}\nprint(f({array}, 3));\n");
        let name = format!("vec_scalar_{i}.toy");
        assert_eq!(vector_insts(&name, &src, "-O2"), 0, "{case}");
        let reference = run_source(&name, &src, &["-O0"]);
        same_at_every_level(&name, &src, &reference.stdout);
    }
}

/// An index out of bounds in a loop that runs in lanes is found by the
/// loop's entry check (`ir::bounds` rule 6) before any lane runs, and
/// reported as the scalar loop would.
#[test]
fn an_index_out_of_bounds_reads_as_without_lanes() {
    let src = "fn axpy(c: [float], b: [float]) {
    for j in 0..len(c) {
        c[j] += 2.0 * b[j];
    }
}
let c = [1.0; 8];
axpy(c, [1.0; 8]);
print(c[7]);
axpy(c, [1.0; 5]);
print(c[0]);
";
    assert!(vector_insts("vec_oob.toy", src, "-O2") > 0);
    same_at_every_level("vec_oob.toy", src, "3.0\n");
    let run = run_source("vec_oob.toy", src, &["-O2"]);
    assert_eq!(run.status, 2);
    assert!(
        run.stderr.contains("3:23") && run.stderr.contains("the length is 5 but the index is 5"),
        "{}",
        run.stderr
    );
}
