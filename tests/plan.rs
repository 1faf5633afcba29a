//! The translator's plan (`jitrun::codegen::plan::FunctionPlan`), built
//! for functions of programs compiled at -O2 through the library.

use jitrun::codegen::plan::FunctionPlan;
use jitrun::driver::{compile, Emit, Options};
use jitrun::ir::{Function, InstKind, Module};
use jitrun::passes::{OptLevel, Scope};

/// The program's IR after the -O2 passes.
fn optimized(src: &str) -> Module {
    let opts = Options {
        emit: Some(Emit::Ssa),
        verify: true,
        ..Options::default()
    };
    compile(src, &opts).expect("the program compiles").ssa
}

fn plan_of(f: &Function) -> FunctionPlan {
    FunctionPlan::new(f, &OptLevel::O2.plan(Scope::Program), &[], None, false)
}

fn function<'a>(m: &'a Module, name: &str) -> &'a Function {
    m.functions
        .iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no function {name}"))
}

/// The element accesses of `f` that run unchecked, and how many of them
/// the plan splits.
fn unchecked_and_split(f: &Function) -> (usize, usize) {
    let plan = plan_of(f);
    let unchecked = (f.layout.iter())
        .flat_map(|&b| &f.blocks[b].insts)
        .filter(|&&i| f.insts[i].kind.bounds_check().is_some() && plan.checks.proven[i])
        .count();
    (unchecked, plan.split_indices.len())
}

/// `c[i + j]` in a loop over `j`: `c` and `i` are used in the loop only
/// there, so one base `c + 8i` replaces both. In the butterfly, `re`,
/// `start`, `half` and `a = start + k` all stay needed in the loop (for
/// other accesses and for `b`), so bases would only add values to hold:
/// none is split. `m[r * n + j]`, `m` used only there, is split. (The
/// loops run more than eight trips: shorter ones are unrolled.)
#[test]
fn indices_split_only_where_bases_replace_what_the_loop_holds() {
    let m = optimized(
        "\
fn accumulate(a: [int], b: [int], c: [int]) {
    for i in 0..len(a) {
        let ai = a[i];
        for j in 0..len(b) {
            c[i + j] = c[i + j] + ai * b[j];
        }
    }
}
fn butterfly(re: [float], start: int, half: int) {
    for k in 0..half {
        let a = start + k;
        let b = a + half;
        let x = re[b];
        re[b] = re[a] - x;
        re[a] = re[a] + x;
    }
}
fn row_sums(m: [int], rows: int, n: int, out: [int]) {
    for r in 0..rows {
        let s = 0;
        for j in 0..n {
            s += m[r * n + j];
        }
        out[r] = s;
    }
}
let c = [0; 17];
accumulate([1, 2, 3, 4, 5, 6, 7, 8, 9], [5, 6, 7, 8, 9, 1, 2, 3, 4], c);
print(c[0], c[3], c[6]);
let re = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0];
butterfly(re, 0, 9);
print(re[0], re[3]);
let out = [0; 3];
row_sums([1, 2, 3, 4, 5, 6], 2, 3, out);
row_sums([1, 2, 3, 4, 5, 6], 3, 2, out);
print(out[0], out[1], out[2]);
",
    );
    let (unchecked, split) = unchecked_and_split(function(&m, "accumulate"));
    assert!(
        unchecked >= 2,
        "the versioned loop's c[i + j] runs unchecked"
    );
    assert_eq!(split, 2, "the load and the store of c[i + j]");
    let (unchecked, split) = unchecked_and_split(function(&m, "butterfly"));
    assert!(unchecked >= 4, "the versioned butterfly runs unchecked");
    assert_eq!(split, 0);
    let (unchecked, split) = unchecked_and_split(function(&m, "row_sums"));
    assert!(unchecked >= 1, "the versioned row loop runs unchecked");
    assert_eq!(split, 1, "m[r * n + j]");
    let plan = plan_of(function(&m, "row_sums"));
    let &split = plan.split_indices.values().next().unwrap();
    let f = function(&m, "row_sums");
    assert!(
        matches!(f.def_kind(split.invariant), Some(InstKind::Binary(..))),
        "the invariant part is r * n"
    );
}

/// The differential runs reach split indices: some generated programs
/// have an access the plan splits.
#[test]
fn generated_programs_have_split_indices() {
    let split = (0..400)
        .filter(|&seed| {
            let m = optimized(&jitrun::testgen::program(seed));
            let splits = m
                .all_functions()
                .any(|f| !plan_of(f).split_indices.is_empty());
            splits
        })
        .count();
    // 44 when this was written (5 before the generator's walks took an
    // invariant base, `a[k + i + d]`); 32 later, 29 once the generator
    // made tables (its random stream moved), 22 once it made stepped
    // loops, 18 and then 17 once it made clamped reads.
    assert!(split >= 15, "{split} of 400 programs have a split index");
}
