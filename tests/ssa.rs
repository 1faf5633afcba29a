//! The SSA that Braun et al.'s construction builds, as `--emit ssa` shows
//! it: snapshots pin the text (a change in construction shows up as a
//! diff), and every sample's SSA is checked for trivial phis.

mod common;
use common::*;

fn ssa(name: &str, src: &str, level: &str) -> String {
    let run = run_source(name, src, &["--emit", "ssa", level]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    run.stdout
}

const LOOP: &str = "fn count(n: int) -> int {\n    let i = 0;\n    let s = 0;\n    while i < n {\n        s = s + i;\n        i = i + 1;\n    }\n    return s;\n}\n";

/// Braun et al. Fig. 4: `res = a; if (b & 0) == 0 … ` folds to one arm.
const FIG4: &str = "fn f(a: int, b: int) -> int {\n    let res = 0;\n    if (b & 0) == 0 {\n        res = a;\n    } else {\n        res = a + 1;\n    }\n    return res;\n}\n";

/// Two nested loops copying `x = y` (the example after Algorithm 5).
const NESTED_COPY: &str = "fn g(y: int, n: int) -> int {\n    let x = y;\n    let i = 0;\n    while i < n {\n        x = y;\n        let j = 0;\n        while j < n {\n            x = y;\n            j += 1;\n        }\n        i += 1;\n    }\n    return x;\n}\n";

const SHORT_CIRCUIT: &str =
    "fn h(a: int, b: int) -> bool {\n    return a > 0 && b > 0 || a == b;\n}\n";

const BREAK_CONTINUE: &str = "fn k(n: int) -> int {\n    let s = 0;\n    for i in 0..n {\n        if i == 3 { continue; }\n        if i == 7 { break; }\n        s += i;\n    }\n    return s;\n}\n";

const GLOBALS: &str = "let g = 1;\nfn bump() { g = g + 1; }\nbump();\nprint(g + g);\n";

const CSE_AND_FOLD: &str = "fn m(a: int) -> int {\n    let x = (a + 1) * (a + 1);\n    let y = 2 * 3 + a - a;\n    return x + y * 1 + 0;\n}\n";

#[test]
fn snapshot_loop() {
    insta::assert_snapshot!("loop_o1", ssa("loop.toy", LOOP, "-O1"));
    insta::assert_snapshot!("loop_o0", ssa("loop.toy", LOOP, "-O0"));
}

#[test]
fn snapshot_fig4_constant_branch_builds_one_arm() {
    let opt = ssa("fig4.toy", FIG4, "-O1");
    assert!(!opt.contains("phi"), "{opt}");
    assert!(!opt.contains("br "), "{opt}");
    insta::assert_snapshot!("fig4_o1", opt);
    insta::assert_snapshot!("fig4_o0", ssa("fig4.toy", FIG4, "-O0"));
}

#[test]
fn snapshot_nested_copy_loops() {
    insta::assert_snapshot!("nested_copy_o1", ssa("nested.toy", NESTED_COPY, "-O1"));
}

#[test]
fn snapshot_short_circuit() {
    insta::assert_snapshot!("short_circuit_o1", ssa("sc.toy", SHORT_CIRCUIT, "-O1"));
}

#[test]
fn snapshot_break_continue() {
    insta::assert_snapshot!("break_continue_o1", ssa("bc.toy", BREAK_CONTINUE, "-O1"));
}

#[test]
fn snapshot_globals_are_memory() {
    let text = ssa("globals.toy", GLOBALS, "-O1");
    assert!(
        text.contains("load g0") && text.contains("store g0"),
        "{text}"
    );
    insta::assert_snapshot!("globals_o1", text);
}

#[test]
fn snapshot_cse_and_folding() {
    insta::assert_snapshot!("cse_fold_o1", ssa("cse.toy", CSE_AND_FOLD, "-O1"));
    insta::assert_snapshot!("cse_fold_o0", ssa("cse.toy", CSE_AND_FOLD, "-O0"));
}

/// `(phi, operands)` for every phi line of `--emit ssa` output.
fn phis(text: &str) -> Vec<(String, Vec<String>)> {
    text.lines()
        .filter_map(|l| {
            let (lhs, rhs) = l.trim().split_once(" = phi ")?;
            let args = rhs.split_once('[')?.1.trim_end_matches(']');
            Some((
                lhs.to_string(),
                args.split(", ").map(str::to_string).collect(),
            ))
        })
        .collect()
}

#[test]
fn no_sample_has_a_trivial_phi_at_any_level() {
    for file in samples() {
        for level in ["-O0", "-O1"] {
            let run = run_file(&file, &["--emit", "ssa", level]);
            assert_eq!(run.status, 0);
            for (phi, args) in phis(&run.stdout) {
                let mut others: Vec<&String> = args.iter().filter(|a| **a != phi).collect();
                others.sort();
                others.dedup();
                assert!(
                    others.len() >= 2,
                    "{} {level}: trivial phi {phi} {args:?}",
                    file.display()
                );
            }
        }
    }
}

#[test]
fn a_loop_gets_exactly_the_phis_of_its_loop_carried_variables() {
    let text = ssa("loop.toy", LOOP, "-O1");
    // `i` and `s` change in the loop; `n` does not and gets no phi.
    assert_eq!(phis(&text).len(), 2, "{text}");
}

#[test]
fn on_the_fly_optimizations_shrink_the_ir() {
    let count = |t: &str| t.lines().filter(|l| l.contains(" = ")).count();
    let o0 = ssa("cse.toy", CSE_AND_FOLD, "-O0");
    let o1 = ssa("cse.toy", CSE_AND_FOLD, "-O1");
    assert!(count(&o1) < count(&o0), "-O1:\n{o1}\n-O0:\n{o0}");
}

/// The example after Algorithm 5: copies `x = y` in two nested loops, with
/// `x` read while both loop headers are unsealed. Copy propagation makes
/// the header phis a redundant cycle; Algorithm 5 removes it.
const REDUNDANT_SCC: &str = "fn g(y: int, n: int) -> int {\n    let x = y;\n    let i = 0;\n    while i < n {\n        let t = x;\n        let j = 0;\n        while j < n {\n            let u = x;\n            x = y;\n            j += 1;\n        }\n        i += 1;\n    }\n    return x;\n}\nprint(g(3, 2));\n";

#[test]
fn snapshot_redundant_scc_removed_by_algorithm_5() {
    let text = ssa("scc.toy", REDUNDANT_SCC, "-O1");
    // Only the two loop counters keep phis; `x` is `y` throughout.
    assert_eq!(phis(&text).len(), 2, "{text}");
    insta::assert_snapshot!("redundant_scc_o1", text);
    let run = run_source("scc.toy", REDUNDANT_SCC, &[]);
    assert_eq!(run.stdout, "3\n");
}

#[test]
fn algorithm_5_statistics_through_the_library() {
    let ast = jitrun::syntax::parse(REDUNDANT_SCC).unwrap();
    let checked = jitrun::check::check(&ast).unwrap();
    let lines = jitrun::diag::LineIndex::new(REDUNDANT_SCC);
    let (_, stats) = jitrun::ssa::lower::lower_program(
        &checked,
        &lines,
        jitrun::ssa::lower::SsaOptions {
            optimize: true,
            mode: Default::default(),
            promote_globals: false,
        },
    );
    let g = stats.iter().find(|s| s.name == "g").unwrap();
    assert_eq!(g.build.phis_removed_scc, 2, "{:?}", g.build);
}

/// The checker's size estimate is what construction reserves; a function
/// that outgrows it makes its arenas grow by copying (a quarter of the
/// construction time of Ullrich's program). Unoptimized construction
/// keeps every instruction, so it is the largest case.
#[test]
fn size_hints_cover_samples_kernels_and_generated_programs() {
    let kernels = std::fs::read_dir("benches/kernels")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toy"));
    let mut programs: Vec<(String, String)> = samples()
        .into_iter()
        .chain(kernels)
        .map(|p| {
            (
                p.display().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    programs
        .extend((0..200).map(|seed| (format!("generated {seed}"), jitrun::testgen::program(seed))));
    let mut functions_checked = 0;
    for (name, src) in &programs {
        let ast = jitrun::syntax::parse(src).unwrap();
        let Ok(checked) = jitrun::check::check(&ast) else {
            continue;
        };
        let lines = jitrun::diag::LineIndex::new(src);
        let opts = jitrun::ssa::lower::SsaOptions {
            optimize: false,
            mode: Default::default(),
            promote_globals: false,
        };
        let (module, _) = jitrun::ssa::lower::lower_program(&checked, &lines, opts);
        let functions = checked.functions.iter().zip(&module.functions);
        for (f, ir) in functions.chain([(&checked.main, &module.main)]) {
            let at = format!("{name}: {}", f.name);
            let size = f.size;
            assert!(
                ir.blocks.len() <= size.blocks + 1,
                "{at}: {} blocks, {size:?}",
                ir.blocks.len()
            );
            assert!(
                ir.insts.len() <= size.insts,
                "{at}: {} insts, {size:?}",
                ir.insts.len()
            );
            functions_checked += 1;
        }
    }
    assert!(functions_checked > 300, "{functions_checked}");
}
