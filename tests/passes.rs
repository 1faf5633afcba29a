//! The pass pipeline through the binary (`jitrun::passes`): `--print-after`,
//! `--passes`, and the usage errors of both and of `-O`.

mod common;
use common::*;
use jitrun::passes::{pipeline, OptLevel, Scope};
use std::sync::atomic::{AtomicUsize, Ordering};

/// `sum` reads the global `g` twice per iteration path (its length for the
/// bound, its elements in the body) and cannot change it; `fib` is small
/// and recursive, and a call makes `twice` keep its loads.
const PROGRAM: &str = "\
let g = [1, 2, 3];
g[2] = 3;
fn sum() -> int {
    let s = 0;
    for i in 0..len(g) {
        s += g[i];
    }
    return s;
}
fn twice() -> int {
    return g[0] + sum() + g[1];
}
fn fib(n: int) -> int {
    if n < 2 { return n; }
    return fib(n - 1) + fib(n - 2);
}
print(sum());
print(twice());
print(fib(20));
";

const OUTPUT: &str = "6\n9\n6765\n";

/// The text of function `name` in IR printed by `--emit ssa` or one
/// `--print-after` section.
fn function<'a>(ir: &'a str, name: &str) -> &'a str {
    let start = ir
        .find(&format!("fn {name}("))
        .unwrap_or_else(|| panic!("no fn {name} in:\n{ir}"));
    let len = ir[start..].find("\n}\n").expect("a closing brace") + 3;
    &ir[start..start + len]
}

/// `--print-after` sections: (header, IR) in order.
fn sections(stdout: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut rest = stdout;
    while let Some(after) = rest.strip_prefix("; after ") {
        let (name, body) = after.split_once('\n').expect("a header line");
        let end = body.find("\n; after ").map_or(body.len(), |i| i + 1);
        out.push((name, &body[..end]));
        rest = &body[end..];
    }
    assert!(rest.is_empty(), "text outside sections: {rest}");
    out
}

/// Runs [`PROGRAM`] from a file of its own: tests run on parallel
/// threads, and rewriting a shared file could let another read it empty.
fn run_program(args: &[&str]) -> Run {
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let n = RUNS.fetch_add(1, Ordering::Relaxed);
    run_source(&format!("passes{n}.toy"), PROGRAM, args)
}

fn ok(args: &[&str]) -> Run {
    let run = run_program(args);
    assert_eq!(run.status, 0, "{args:?}: {}", run.stderr);
    run
}

#[test]
fn print_after_load_once_shows_one_load_per_global_at_the_top() {
    let before = ok(&["--passes=", "--emit", "ssa"]).stdout;
    assert_eq!(function(&before, "sum").matches("load g0").count(), 2);
    let run = ok(&["--print-after=load-once"]);
    let [(name, ir)] = sections(&run.stdout)[..] else {
        panic!("one section expected:\n{}", run.stdout);
    };
    assert_eq!(name, "load-once");
    let sum = function(ir, "sum");
    assert_eq!(sum.matches("load g0").count(), 1, "{sum}");
    // In the entry block, before the loop.
    let entry = &sum[..sum.find("\nb1:").expect("a second block")];
    assert!(entry.contains("load g0"), "{sum}");
    // A function that calls keeps every load: a callee may store `g`.
    assert_eq!(function(ir, "twice"), function(&before, "twice"));
    // The run stops after printing, as --emit does.
    assert!(!run.stdout.contains("6765"), "{}", run.stdout);
}

#[test]
fn print_after_all_heads_each_pass_in_order() {
    let names = |args: &[&str]| -> Vec<String> {
        let run = ok(args);
        sections(&run.stdout)
            .iter()
            .map(|(name, ir)| {
                assert!(ir.contains("fn <top>()"), "{name}: {ir}");
                name.to_string()
            })
            .collect()
    };
    let o2: Vec<&str> = (pipeline(OptLevel::O2, Scope::Program).iter())
        .map(|p| p.name)
        .collect();
    assert_eq!(o2.first(), Some(&"constant-globals"));
    assert_eq!(o2.last(), Some(&"renew"));
    assert_eq!(names(&["--print-after=all"]), o2);
    assert_eq!(names(&["-O1", "--print-after=all"]), ["load-once"]);
    assert_eq!(names(&["-O0", "--print-after=all"]), Vec::<String>::new());
    // --passes decides the order.
    assert_eq!(
        names(&["--passes=unroll-recursion,load-once", "--print-after=all"]),
        ["unroll-recursion", "load-once"]
    );
}

#[test]
fn passes_runs_one_pass_alone() {
    let plain = ok(&["--passes=", "--emit", "ssa"]).stdout;
    let run = ok(&["--passes=unroll-recursion", "--print-after=all"]);
    let [("unroll-recursion", ir)] = sections(&run.stdout)[..] else {
        panic!("one unroll-recursion section expected:\n{}", run.stdout);
    };
    // fib grew copies of itself; the loads of `g` were left alone.
    let (fib, plain_fib) = (function(ir, "fib"), function(&plain, "fib"));
    assert!(fib.lines().count() > 2 * plain_fib.lines().count(), "{fib}");
    assert_eq!(function(ir, "sum"), function(&plain, "sum"));
    // --emit ssa shows the same IR as the last --print-after section.
    let emitted = ok(&["--passes=unroll-recursion", "--emit", "ssa"]).stdout;
    assert_eq!(emitted, ir);
}

#[test]
fn no_passes_change_the_ir_but_not_the_output() {
    for level in ["-O1", "-O2"] {
        let default = ok(&[level]);
        let none = ok(&[level, "--passes="]);
        assert_eq!(default.stdout, OUTPUT, "{level}");
        assert_eq!(none.stdout, OUTPUT, "{level}");
        let ir_default = ok(&[level, "--emit", "ssa"]).stdout;
        let ir_none = ok(&[level, "--passes=", "--emit", "ssa"]).stdout;
        assert_ne!(ir_default, ir_none, "{level}");
    }
    // And the interpreter agrees on the IR after each pass alone (this
    // program has no loop over arrays, so `licm` and `version` would not
    // change it: their file tests, tests/files/licm and
    // tests/files/version, run them).
    for passes in [
        "--passes=load-once",
        "--passes=unroll-recursion",
        "--passes=inline",
    ] {
        assert_eq!(ok(&[passes, "--interp"]).stdout, OUTPUT, "{passes}");
        assert_eq!(ok(&[passes]).stdout, OUTPUT, "{passes}");
    }
}

#[test]
fn unknown_pass_names_are_usage_errors() {
    let cases: [(&[&str], &str); 4] = [
        (&["--passes=load-once,gcm"], "unknown pass `gcm`"),
        (&["--print-after=sccp"], "unknown pass `sccp`"),
        (
            &["-O1", "--print-after=unroll-recursion"],
            "pass `unroll-recursion` does not run at -O1",
        ),
        (
            &["--passes=unroll-recursion", "--print-after=load-once"],
            "pass `load-once` is not in --passes",
        ),
    ];
    for (args, message) in cases {
        let run = run_program(args);
        assert_eq!(run.status, 2, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(message), "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{args:?}: {}", run.stdout);
    }
    let run = run_program(&["--passes=nope"]);
    assert!(
        run.stderr.contains(
            "the passes are: constant-globals, constant-args, array-lengths, load-once, tail-calls, unroll-recursion"
        ),
        "{}",
        run.stderr
    );
    let run = run_program(&["--print-after=nope"]);
    assert!(
        run.stderr.contains(
            "the passes are: all, constant-globals, constant-args, array-lengths, load-once, tail-calls, unroll-recursion"
        ),
        "{}",
        run.stderr
    );
}

#[test]
fn opt_levels_parse_as_before() {
    for (arg, message) in [
        (
            "-O3",
            "invalid value '3' for '-O <OPT_LEVEL>': 3 is not in 0..=2",
        ),
        (
            "-Ox",
            "invalid value 'x' for '-O <OPT_LEVEL>': invalid digit found in string",
        ),
        (
            "-O-1",
            "invalid value '-1' for '-O <OPT_LEVEL>': -1 is not in 0..=2",
        ),
    ] {
        let run = run_program(&[arg]);
        assert_eq!(run.status, 2, "{arg}");
        assert!(
            run.stderr.starts_with(&format!("error: {message}")),
            "{arg}: {}",
            run.stderr
        );
    }
    for arg in ["-O0", "-O1", "-O2"] {
        assert_eq!(ok(&[arg]).stdout, OUTPUT, "{arg}");
    }
}
