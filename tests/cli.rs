//! The command line's reporting modes: `--stats`, `--stats=json`,
//! `--emit dot`, `--help`; and `JITRUN_COMPILE_THREADS`, which changes
//! nothing but the compile time. (The collector's counts: `tests/gc.rs`.)

mod common;
use common::*;
use jitrun::passes::{OptLevel, Scope};

const LOOP: &str = "fn count(n: int) -> int {\n    let s = 0;\n    for i in 0..n {\n        s += i * 1 + 0;\n    }\n    return s;\n}\nprint(count(10));\n";

#[test]
fn stats_json_is_one_object_per_function_then_phase_times() {
    let run = run_source("stats.toy", LOOP, &["--stats=json"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "45\n", "the program's own output is unchanged");
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 4, "{}", run.stderr);
    let keys = [
        "function",
        "blocks",
        "insts",
        "phis",
        "phis_created",
        "phis_removed_trivial",
        "phis_removed_scc",
        "folded",
        "simplified",
        "cse_hits",
    ];
    for line in &lines[..2] {
        let mut rest = *line;
        for key in keys {
            let at = rest
                .find(&format!("\"{key}\": "))
                .unwrap_or_else(|| panic!("{key} in {line}"));
            rest = &rest[at..];
        }
    }
    assert!(
        lines[0].starts_with("{\"function\": \"count\", \"blocks\": "),
        "{}",
        lines[0]
    );
    assert!(
        lines[0].contains("\"phis\": 2,"),
        "counter and sum: {}",
        lines[0]
    );
    assert!(
        lines[0].contains("\"simplified\": 2,"),
        "x*1 and x+0: {}",
        lines[0]
    );
    assert!(
        lines[1].starts_with("{\"function\": \"<top>\""),
        "{}",
        lines[1]
    );
    let phases = lines[2];
    assert!(
        phases.starts_with("{\"phase_us\": {\"parse\": "),
        "{phases}"
    );
    for key in ["check", "ssa", "codegen", "run"] {
        assert!(phases.contains(&format!("\"{key}\": ")), "{phases}");
    }
    assert!(phases.ends_with("}}"), "{phases}");
    let gc = lines[3];
    assert!(
        gc.starts_with("{\"gc\": {\"collections\": 0, \"time_us\": "),
        "no array, no collection: {gc}"
    );
    for key in ["peak_heap_bytes", "arrays_allocated", "arrays_freed"] {
        assert!(gc.contains(&format!("\"{key}\": 0")), "{gc}");
    }
}

#[test]
fn stats_table_for_people() {
    let run = run_source("stats_table.toy", LOOP, &["--stats"]);
    assert_eq!(run.stdout, "45\n");
    assert!(run.stderr.starts_with("function"), "{}", run.stderr);
    assert!(
        run.stderr.lines().any(|l| l.starts_with("count ")),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("phases (µs): parse"), "{}", run.stderr);
}

#[test]
fn emit_dot_draws_every_block_and_edge() {
    let run = run_source("dot.toy", LOOP, &["--emit", "dot"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let dot = &run.stdout;
    assert!(dot.starts_with("digraph ssa {"), "{dot}");
    assert!(dot.trim_end().ends_with('}'));
    assert!(dot.contains("subgraph \"cluster_count\""), "{dot}");
    assert!(dot.contains("phi int ["), "phis are drawn: {dot}");
    // The loop's back edge: the latch jumps to the header.
    let edges = dot.lines().filter(|l| l.contains("->")).count();
    assert!(edges >= 4, "{dot}");
    assert_eq!(dot.matches('{').count(), dot.matches('}').count(), "{dot}");
}

#[test]
fn help_lists_the_options() {
    let out = jitrun().arg("--help").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    for opt in ["--emit", "-O", "--target", "--stats", "--verify"] {
        assert!(text.contains(opt), "{opt} missing in\n{text}");
    }
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn marker_mode_places_no_temporary_phis_in_ullrichs_program() {
    let mut src = String::from("fn f() -> int { return 5; }\nfn g() -> int {\n    let x = f();\n");
    for _ in 0..1000 {
        src.push_str("    if x > 1 {} else {}\n");
    }
    src.push_str("    let y = x;\n    return y;\n}\nprint(g());\n");
    let created = |mode: &str| {
        let run = run_source("ullrich1000.toy", &src, &["-O0", mode, "--stats=json"]);
        assert_eq!(run.stdout, "5\n", "{}", run.stderr);
        let line = run
            .stderr
            .lines()
            .find(|l| l.contains("\"g\""))
            .unwrap()
            .to_string();
        let n = line.split("\"phis_created\": ").nth(1).unwrap();
        n[..n.find(',').unwrap()].parse::<usize>().unwrap()
    };
    assert_eq!(created("--ssa=braun"), 1000);
    assert_eq!(created("--ssa=marker"), 0);
}

#[test]
fn time_prints_every_phase_and_the_sizes() {
    let run = run_source("time.toy", LOOP, &["--time"]);
    assert_eq!(run.stdout, "45\n", "the program's own output is unchanged");
    for phase in [
        "parse",
        "check",
        "ssa construction",
        "cranelift compile",
        "finalize",
        "run",
        "total",
    ] {
        assert!(
            run.stderr
                .lines()
                .any(|l| l.starts_with(phase) && l.ends_with(" ms")),
            "{phase} missing in\n{}",
            run.stderr
        );
    }
    let sizes = run
        .stderr
        .lines()
        .find(|l| l.starts_with("sizes: "))
        .expect("a sizes line");
    let numbers: Vec<usize> = sizes
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    assert_eq!(numbers.len(), 5, "{sizes}");
    assert!(numbers.iter().all(|&n| n > 0), "{sizes}");
}

#[test]
fn time_lists_each_pass_of_the_level_in_order() {
    let passes_line = |args: &[&str]| -> Option<String> {
        let run = run_source("passes.toy", LOOP, args);
        assert_eq!(run.stdout, "45\n");
        run.stderr
            .lines()
            .find_map(|l| l.strip_prefix("passes (ms): ").map(str::to_owned))
    };
    let line = passes_line(&["--time"]).expect("a line of pass times at -O2");
    let names: Vec<&str> = line
        .split("  ")
        .map(|p| p.split(' ').next().unwrap())
        .collect();
    let expected: Vec<&str> = jitrun::passes::pipeline(OptLevel::O2, Scope::Program)
        .iter()
        .map(|p| p.name)
        .collect();
    assert_eq!(names, expected, "{line}");
    for pass in line.split("  ") {
        let ms: f64 = pass.rsplit(' ').next().unwrap().parse().expect("a time");
        assert!(ms >= 0.0, "{pass}");
    }
    assert_eq!(
        passes_line(&["--time", "--passes=gvn,licm"])
            .as_deref()
            .map(|l| l
                .split("  ")
                .map(|p| p.split(' ').next().unwrap())
                .collect::<Vec<_>>()),
        Some(vec!["gvn", "licm"])
    );
    assert_eq!(passes_line(&["--time", "-O0"]), None, "-O0 runs no pass");
}

#[test]
fn no_ssa_opt_leaves_out_the_on_the_fly_optimizations() {
    // At -O1, whose one pass does not fold: `gvn` at -O2 folds and
    // simplifies what SSA construction left.
    let src = "let x = 2 + 3;\nprint(x * 1);\n";
    let folded = run_source("fold.toy", src, &["-O1", "--emit", "ssa"]);
    assert!(folded.stdout.contains("iconst 5"), "{}", folded.stdout);
    assert!(!folded.stdout.contains("iadd"), "{}", folded.stdout);
    let plain = run_source("nofold.toy", src, &["-O1", "--no-ssa-opt", "--emit", "ssa"]);
    assert!(plain.stdout.contains("iadd"), "{}", plain.stdout);
    assert!(plain.stdout.contains("imul"), "{}", plain.stdout);
    let ran = run_source("nofold_run.toy", src, &["-O2", "--no-ssa-opt"]);
    assert_eq!(ran.stdout, "5\n");
}

/// Calls of Toy functions in the top-level code's Cranelift IR: each
/// carries its call-site index as source location (`@0001 … call`).
fn main_calls(clif: &str) -> usize {
    let main = clif.split("; toy.<top>").nth(1).expect("main's clif");
    main.lines()
        .filter(|l| l.starts_with('@') && l.contains(" call "))
        .count()
}

#[test]
fn small_leaf_functions_are_inlined_in_loops_at_o2_with_the_same_errors() {
    let src = "fn sq(x: int) -> int { return x * x; }\nfn ratio(a: int, b: int) -> int { return a / b; }\nlet s = 0;\nfor i in 0..10 { s += sq(i); }\nprint(s);\nprint(ratio(7, s - 285));\n";
    let o1 = run_source("inline1.toy", src, &["-O1", "--emit", "clif"]);
    let o2 = run_source("inline2.toy", src, &["-O2", "--emit", "clif"]);
    assert_eq!(main_calls(&o1.stdout), 2, "{}", o1.stdout);
    // -O2: sq expanded in the loop; ratio, called where top-level code
    // runs once, stays a call.
    assert_eq!(main_calls(&o2.stdout), 1, "{}", o2.stdout);
    // A function expanded at every call has no code of its own.
    assert!(!o2.stdout.contains("; toy.sq\n"), "{}", o2.stdout);
    assert!(o2.stdout.contains("; toy.ratio\n"), "{}", o2.stdout);
    for level in ["-O0", "-O1", "-O2"] {
        let run = run_source("inline_run.toy", src, &[level]);
        assert_eq!(run.stdout, "285\n", "{level}");
        assert_eq!(run.status, 2);
        assert!(
            run.stderr
                .contains("inline_run.toy:2:42: runtime error: division by zero"),
            "{level}: {}",
            run.stderr
        );
    }
}

#[test]
fn exact_halvings_shift_and_small_products_add() {
    // Divisions known exact from a dominating `% 2^k == 0` test become
    // shifts (negative numbers included); `* 3`, `* 5`, `* 9` become a
    // shift and an add (wrapping like the multiplication).
    let src = "let s = 0;\nfor n in -9..9 {\n    if n % 4 == 0 {\n        s += n / 4 + n / 2;\n    }\n    if n % 2 != 0 {\n        s += n / 2;\n    } else {\n        s += 100 * (n / 2);\n    }\n    s += n * 3 + 5 * n + n * 9;\n}\nlet big = 4611686018427387904 + 7;\nprint(s, big * 3, 5 * big, big * 9, -big * 3);\n";
    let expected =
        "-157 -4611686018427387883 4611686018427387939 4611686018427387967 4611686018427387883\n";
    for level in ["-O0", "-O1", "-O2"] {
        let run = run_source("lea.toy", src, &[level]);
        assert_eq!(run.stdout, expected, "{level}: {}", run.stderr);
    }
    let clif = run_source("lea.toy", src, &["-O2", "--emit", "clif"]).stdout;
    assert_eq!(clif.matches(" = sshr").count(), 3, "{clif}");
    assert_eq!(clif.matches(" = sdiv").count(), 1, "odd n / 2: {clif}");
    assert_eq!(clif.matches(" = imul").count(), 1, "100 * …: {clif}");
}

#[test]
fn halved_products_of_consecutive_integers_shift() {
    // `n * (n + 1)` is even for every `n`, wrapping or not, so halving it
    // is exact: a shift, with no rounding fix-up for negative numbers.
    // `(n - 1) * n` and `n * 6` likewise; `n * n` may be odd.
    let src = "fn tri(n: int) -> int {\n    return n * (n + 1) / 2 + (n - 1) * n / 2 + n * 6 / 2 + n * n / 2;\n}\nlet s = 0;\nfor n in -6..7 {\n    s = s * 3 + tri(n);\n}\nprint(s, tri(4611686018427387907), tri(-4611686018427387907), tri(9223372036854775807), tri(-9223372036854775807 - 1));\n";
    agrees_with_interpreter("tri.toy", src);
    let clif = run_source("tri.toy", src, &["-O2", "--emit", "clif"]).stdout;
    // Each copy of `tri` (the translator expands it at its calls): three
    // shifts, and a division for the odd `n * n`.
    let (shifts, divisions) = (
        clif.matches(" = sshr").count(),
        clif.matches(" = sdiv").count(),
    );
    assert!(divisions >= 1, "{clif}");
    assert_eq!(shifts, 3 * divisions, "{clif}");
}

#[test]
fn float_constants_stay_in_registers_at_o2() {
    // At -O2 a nonzero float constant is its bits through a `bitcast`,
    // which Cranelift hoists out of loops (it rematerializes `f64const`
    // at every use); the values are the same, signed zeros, infinities
    // and tiny numbers included.
    let src = "let x = 0.0;\nlet y = 1.0;\nfor i in 0..9 {\n    x = x * 0.5 + 1.25;\n    y = y / -0.0 + 0.0;\n}\nprint(x, y, 1.0 / -0.0, -0.0, 0.0 * -1.0, 5e-324 / 2.0, 1e308 * 10.0);\n";
    agrees_with_interpreter("consts.toy", src);
    let clif = |level| run_source("consts.toy", src, &[level, "--emit", "clif"]).stdout;
    let (o1, o2) = (clif("-O1"), clif("-O2"));
    assert!(o2.contains("bitcast.f64"), "{o2}");
    assert!(!o2.contains("f64const 0x1.4"), "1.25 as f64const: {o2}");
    assert!(o1.contains("f64const 0x1.4"), "{o1}");
}

#[test]
fn float_constants_used_only_outside_loops_stay_f64const_at_o2() {
    // The `bitcast` costs Cranelift's egraph a second value and buys
    // nothing outside loops. 0.75 is defined before the loop and used in
    // it; `quarter`'s 0.25 is expanded once in the loop and once after;
    // 3.5 and 2.0 are used outside loops only (two calls of `scale`
    // pass two values, so `v` and `n` stay parameters and the loop a
    // loop).
    let src = "fn quarter(v: float) -> float {\n    return v * 0.25;\n}\nfn scale(v: float, n: int) -> float {\n    let k = 0.75;\n    let s = 0.0;\n    for i in 0..n {\n        s = s + quarter(v) * k;\n    }\n    return s * 3.5 + quarter(v);\n}\nprint(scale(2.0, 3), scale(-1.0, 4));\n";
    agrees_with_interpreter("outside.toy", src);
    let clif = run_source("outside.toy", src, &["-O2", "--emit", "clif"]).stdout;
    for (bits, in_loop) in [
        ("0x3fe8_0000_0000_0000", true),  // 0.75
        ("0x3fd0_0000_0000_0000", true),  // 0.25, expanded in the loop
        ("0x400c_0000_0000_0000", false), // 3.5
        ("0x4000_0000_0000_0000", false), // 2.0
    ] {
        let made_of_bits = clif.contains(&format!("iconst.i64 {bits}"));
        assert_eq!(made_of_bits, in_loop, "{bits}: {clif}");
    }
    for value in [
        "0x1.c000000000000p1",
        "0x1.0000000000000p-2",
        "0x1.0000000000000p1",
    ] {
        assert!(
            clif.contains(&format!("f64const {value}")),
            "{value}: {clif}"
        );
    }
}

/// Reads the machine code of the binary under test (`target_arch`):
/// x86-64 or aarch64.
#[test]
fn branches_on_a_negation_swap_their_targets() {
    // `if !x` and `while !done` branch on `x` with the targets swapped: no
    // `xor` computes the negation, at any level. The negation printed as
    // a value is still computed (not `!done`, which the loop's exit
    // decides at `-O2`).
    let src = "let seen = [false, true, false, true, true];\nlet count = 0;\nfor i in 0..len(seen) {\n    if !seen[i] {\n        count += 1;\n    }\n}\nlet done = false;\nlet n = 0;\nwhile !done {\n    n += 1;\n    done = n * n > 50;\n}\nlet flag = seen[n % 5];\nprint(count, n, !flag);\n";
    for level in ["-O0", "-O1", "-O2"] {
        let run = run_source("negated.toy", src, &[level]);
        assert_eq!(run.stdout, "2 8 false\n", "{level}: {}", run.stderr);
        let asm = run_source("negated.toy", src, &[level, "--emit", "asm"]).stdout;
        // A bool negated is an exclusive or with 1, in the machine code of
        // the binary under test.
        let negation = |l: &&str| match target_arch() {
            "aarch64" => l.trim_start().starts_with("eor ") && l.ends_with(", #1"),
            _ => l.contains("xor") && l.contains("$0x1"),
        };
        let negations = asm.lines().filter(negation);
        assert_eq!(negations.count(), 1, "{level}: {asm}");
    }
}

/// Runs `jitrun --perf-map ARGS` with `input` on stdin; its perf map's lines.
fn perf_map_lines(args: &[&str], input: &str) -> Vec<(usize, usize, String)> {
    use std::io::Write;
    let mut child = jitrun()
        .arg("--perf-map")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("start jitrun");
    let pid = child.id();
    let mut stdin = child.stdin.take().expect("piped");
    stdin.write_all(input.as_bytes()).expect("write input");
    drop(stdin);
    assert!(child.wait().expect("jitrun ends").success());
    let path = format!("/tmp/perf-{pid}.map");
    let text = std::fs::read_to_string(&path).expect("the perf map");
    let _ = std::fs::remove_file(&path);
    text.lines()
        .map(|l| {
            let mut parts = l.splitn(3, ' ');
            let mut hex = || usize::from_str_radix(parts.next().unwrap(), 16).expect("hex");
            let (start, size) = (hex(), hex());
            (
                start,
                size,
                parts.next().expect("a name").trim_end().to_string(),
            )
        })
        .collect()
}

#[test]
fn perf_map_names_each_function_as_written() {
    let src = "fn fib(n: int) -> int { if n < 2 { return n; } return fib(n - 1) + fib(n - 2); }\nprint(fib(20));\n";
    let path = scratch_file("perf.toy", src.as_bytes());
    let lines = perf_map_lines(&[path.to_str().unwrap()], "");
    let names: Vec<&str> = lines.iter().map(|(_, _, n)| n.as_str()).collect();
    assert_eq!(names, ["fib", "<top>"]);
    for (start, size, name) in &lines {
        assert!(*start != 0 && *size > 0, "{name}: {start:x} {size:x}");
    }
    // Functions do not overlap.
    assert!(lines[0].0 + lines[0].1 <= lines[1].0 || lines[1].0 + lines[1].1 <= lines[0].0);
}

#[test]
fn perf_map_grows_with_repl_entries_and_redefinitions() {
    let input =
        "fn sq(x: int) -> int { return x * x; }\nsq(3)\nfn sq(x: int) -> int { return x + x; }\n";
    let lines = perf_map_lines(&[], input);
    let names: Vec<&str> = lines.iter().map(|(_, _, n)| n.as_str()).collect();
    assert_eq!(names.iter().filter(|n| **n == "sq").count(), 2, "{names:?}");
}

/// Functions that allocate (so that a collection runs in each under
/// `JITRUN_GC=stress`) and a failing index three calls deep, whose call
/// stack names every caller.
const SEVERAL_FUNCTIONS: &str = "fn fill(n: int) -> [int] {
    let a = [0; n];
    for i in 0..n {
        a[i] = i * i % 7;
    }
    return a;
}
fn total(n: int) -> int {
    let s = 0;
    for round in 0..n {
        let a = fill(n + round);
        for i in 0..len(a) {
            s += a[i];
        }
    }
    return s;
}
fn spread(n: int) -> float {
    let xs = [0.0; n];
    let lo = 1.0e9;
    let hi = -1.0e9;
    for i in 0..n {
        xs[i] = float(i % 5) * 0.5 - float(i / 3);
        if xs[i] < lo {
            lo = xs[i];
        }
        if xs[i] > hi {
            hi = xs[i];
        }
    }
    let mid = 0;
    while mid * 2 < n && xs[mid] != lo {
        mid += 1;
    }
    return hi - lo + float(mid);
}
fn pick(n: int) -> int {
    let a = fill(n);
    return a[n + total(n) % 2];
}
print(total(20));
print(spread(40));
print(pick(5));
";

#[test]
fn functions_compiled_on_several_threads_get_the_same_code_stack_maps_and_call_sites() {
    let path = scratch_file("threads.toy", SEVERAL_FUNCTIONS.as_bytes());
    let run_with = |threads: &str, args: &[&str]| {
        let mut command = jitrun();
        command
            .env("JITRUN_COMPILE_THREADS", threads)
            .env("JITRUN_GC", "stress")
            .args(args)
            .arg(&path);
        run_command(&mut command)
    };
    let alone = run_with("1", &[]);
    assert_eq!(alone.status, 2, "{}", alone.stderr);
    assert_eq!(alone.stdout, "1160\n32.5\n");
    assert!(
        alone.stderr.contains("index out of bounds")
            && alone.stderr.contains("  in pick at ")
            && alone.stderr.contains("  called from the top level at "),
        "{}",
        alone.stderr
    );
    for threads in ["2", "3"] {
        assert_eq!(run_with(threads, &[]), alone, "{threads} threads");
        assert_eq!(
            run_with(threads, &["--emit=asm"]),
            run_with("1", &["--emit=asm"]),
            "{threads} threads"
        );
    }
}
