//! Generated programs (`jitrun::testgen`) under the collector's checking
//! modes: each runs with `JITRUN_GC=verify` (a collection at every
//! allocation, freed memory poisoned and never reused) under `--interp`,
//! `-O0 --verify` and `-O2 --verify`, and with `JITRUN_GC=stress` at
//! `-O2`, and must print and exit exactly as it does at `-O2` with the
//! collector left alone (which collects nothing in programs this small).
//! A root the collector misses shows as exit status 3 (a freed array
//! reached again) or as different output.
//!
//! `JITRUN_GC_SEEDS=N` runs N seeds (150 by default), on two threads.

mod common;

use common::Run;
use std::path::Path;
use std::sync::Mutex;

/// Runs `jitrun ARGS… FILE` with `JITRUN_GC` set to `gc` (or unset).
fn run(file: &Path, args: &[&str], gc: Option<&str>) -> Run {
    let mut cmd = common::jitrun();
    cmd.args(args).arg(file);
    match gc {
        Some(mode) => cmd.env("JITRUN_GC", mode),
        None => cmd.env_remove("JITRUN_GC"),
    };
    common::run_command(&mut cmd)
}

/// The modes that must agree with the reference (`-O2`, no `JITRUN_GC`).
const MODES: [(&[&str], &str); 3] = [
    (&["--interp"], "verify"),
    (&["-O0", "--verify"], "verify"),
    (&["-O2", "--verify"], "verify"),
];

/// `--stats=json`'s collector line: `{"gc": {"collections": N, …}}`.
#[derive(Clone, Copy, Debug, Default)]
struct GcStats {
    collections: u64,
    peak_heap_bytes: u64,
    arrays_allocated: u64,
    arrays_freed: u64,
}

fn gc_stats(stderr: &str) -> Option<GcStats> {
    let line = stderr.lines().find(|l| l.starts_with("{\"gc\": "))?;
    let field = |key: &str| -> Option<u64> {
        let at = line.find(&format!("\"{key}\": "))? + key.len() + 4;
        let digits: String = line[at..]
            .chars()
            .take_while(|c| c.is_ascii_digit())
            .collect();
        digits.parse().ok()
    };
    Some(GcStats {
        collections: field("collections")?,
        peak_heap_bytes: field("peak_heap_bytes")?,
        arrays_allocated: field("arrays_allocated")?,
        arrays_freed: field("arrays_freed")?,
    })
}

/// Stderr without `--stats=json`'s lines.
fn without_stats(stderr: &str) -> String {
    stderr
        .lines()
        .filter(|l| !l.starts_with("{\""))
        .map(|l| format!("{l}\n"))
        .collect()
}

fn describe(what: &str, other: &Run, reference: &Run) -> String {
    format!(
        "{what} differs from -O2 without JITRUN_GC:\n  status {:?} vs {:?}\n  stdout {:?}\n  vs     {:?}\n  stderr {:?}\n  vs     {:?}",
        other.status,
        reference.status,
        other.stdout,
        reference.stdout,
        other.stderr,
        reference.stderr
    )
}

/// What one seed's program did: the first disagreement, if any, and the
/// collector's counts in stress mode when the program ran to its end.
struct Checked {
    disagreement: Option<String>,
    ended_in_error: bool,
    stress: Option<GcStats>,
}

fn check(seed: u64) -> Checked {
    let src = jitrun::testgen::program(seed);
    let path = common::scratch_file(&format!("gcgen{seed}.toy"), src.as_bytes());
    let reference = run(&path, &["-O2"], None);
    assert_ne!(
        reference.status, 1,
        "seed {seed} does not compile:\n{}\n{src}",
        reference.stderr
    );
    let mut disagreement = None;
    if reference.status == 3 {
        disagreement = Some(format!(
            "-O2 without JITRUN_GC ends in an internal error (status 3):\n{}",
            reference.stderr
        ));
    }
    for (args, gc) in MODES {
        if disagreement.is_some() {
            break;
        }
        let other = run(&path, args, Some(gc));
        if other != reference {
            let what = format!("JITRUN_GC={gc} jitrun {}", args.join(" "));
            disagreement = Some(describe(&what, &other, &reference));
        }
    }
    let stress = run(&path, &["-O2", "--stats=json"], Some("stress"));
    let stress_stats = gc_stats(&stress.stderr);
    if disagreement.is_none() {
        let filtered = Run {
            stderr: without_stats(&stress.stderr),
            ..stress
        };
        if filtered != reference {
            let what = "JITRUN_GC=stress jitrun -O2 --stats=json (stats lines left out)";
            disagreement = Some(describe(what, &filtered, &reference));
        } else if reference.status == 0 && stress_stats.is_none() {
            disagreement = Some(format!("no gc line in --stats=json:\n{}", stress.stderr));
        }
    }
    Checked {
        disagreement: disagreement
            .map(|why| format!("seed {seed} ({}): {why}\nprogram:\n{src}", path.display())),
        ended_in_error: reference.status == 2,
        stress: stress_stats.filter(|_| reference.status == 0),
    }
}

#[test]
fn generated_programs_agree_when_the_collector_runs_at_every_allocation() {
    let seeds: u64 = std::env::var("JITRUN_GC_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(150);
    let results = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for lane in 0..2u64 {
            let results = &results;
            scope.spawn(move || {
                for seed in (lane..seeds).step_by(2) {
                    let checked = check(seed);
                    results.lock().unwrap().push((seed, checked));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|(seed, _)| *seed);
    let failures: Vec<&String> = results
        .iter()
        .filter_map(|(_, c)| c.disagreement.as_ref())
        .collect();
    let failed_seeds: Vec<u64> = results
        .iter()
        .filter(|(_, c)| c.disagreement.is_some())
        .map(|(seed, _)| *seed)
        .collect();
    let freed_reached = failures
        .iter()
        .filter(|f| f.contains("status 3 vs"))
        .count();
    assert!(
        failures.is_empty(),
        "{} of {seeds} programs disagree ({freed_reached} of them exit with status 3, a freed array reached), seeds {failed_seeds:?}; the first:\n{}",
        failures.len(),
        failures[0]
    );

    // Most programs must run to their end, or the comparison says little.
    let errors = results.iter().filter(|(_, c)| c.ended_in_error).count();
    assert!(
        errors * 4 < seeds as usize,
        "{errors} of {seeds} ended in an error"
    );

    // Stress mode collects at every allocation, and most programs allocate
    // a lot (in loops and callees) and make garbage while other arrays
    // are live.
    let stats: Vec<GcStats> = results.iter().filter_map(|(_, c)| c.stress).collect();
    for s in &stats {
        assert!(s.collections >= s.arrays_allocated, "{s:?}");
    }
    let count = |f: &dyn Fn(&GcStats) -> bool| stats.iter().filter(|s| f(s)).count();
    let many = count(&|s| s.arrays_allocated >= 10);
    let lots = count(&|s| s.arrays_allocated >= 50);
    let reclaimed_while_live =
        count(&|s| s.arrays_freed >= 5 && s.arrays_allocated.saturating_sub(s.arrays_freed) >= 2);
    let big = count(&|s| s.peak_heap_bytes >= 1000);
    let n = stats.len();
    let summary = format!(
        "of {n} programs that ran to their end: {many} allocate at least 10 arrays, {lots} at least 50, {reclaimed_while_live} free at least 5 while keeping others, {big} reach a peak heap of 1000 bytes"
    );
    println!("{summary}");
    assert!(n * 2 >= seeds as usize, "{summary}");
    assert!(many * 10 >= n * 6, "{summary}");
    // About a fifth: over 600 seeds 92 of 521 (17.7 %) before the
    // generator's recursive function was now and then a pair, 104 of 520
    // (20.0 %) after; a floor of 20 % failed by chance on 150 seeds.
    assert!(lots * 100 >= n * 15, "{summary}");
    assert!(reclaimed_while_live * 10 >= n * 6, "{summary}");
    assert!(big * 10 >= n * 2, "{summary}");
}

/// The generator makes the shapes the collector's roots come from: arrays
/// of arrays, temporaries made in loops (some of hundreds of elements),
/// arrays carried around loops, functions that take and return arrays,
/// globals replaced by callees in their own statement (`g = f(g)`).
#[test]
fn generated_programs_allocate_while_holding_arrays() {
    let programs: Vec<String> = (0..300).map(jitrun::testgen::program).collect();
    let having = |f: &dyn Fn(&str) -> bool| programs.iter().filter(|p| f(p)).count();
    let nested = having(&|p| p.contains("[[int]]") || p.contains("[[float]]"));
    assert!(nested >= 60, "arrays of arrays: {nested}");
    let big_temporaries = having(&|p| {
        p.lines().any(|l| {
            l.trim_start().starts_with("let t")
                && l.split("; ")
                    .filter_map(|part| part.split(']').next())
                    .any(|n| n.parse::<u64>().is_ok_and(|n| n >= 50))
        })
    });
    assert!(big_temporaries >= 100, "big temporaries: {big_temporaries}");
    // `c = [c[…` or `c = f(c…`: a variable replaced by an array computed
    // from its old value.
    let self_replacing = |l: &str| {
        let l = l.trim_start();
        let Some((name, value)) = l.split_once(" = ") else {
            return false;
        };
        let call = value.starts_with(['t', 's', 'm', 'f'])
            && (value.contains(&format!("({name})")) || value.contains(&format!("({name}, ")));
        !name.contains(['[', ' '])
            && ((value.starts_with('[') && value.contains(&format!("{name}["))) || call)
    };
    let carried = having(&|p| p.lines().any(self_replacing));
    assert!(
        carried >= 100,
        "arrays replaced from their old value: {carried}"
    );
    // `g = …` in a function's body, for a global `let g: [… = …;`.
    let globals_by_callees = having(&|p| {
        let array_globals: Vec<&str> = p
            .lines()
            .filter_map(|l| l.strip_prefix("let ")?.split_once(": [").map(|(g, _)| g))
            .collect();
        let mut in_function = false;
        p.lines().any(|l| {
            if l.starts_with("fn ") {
                in_function = true;
            } else if l == "}" {
                in_function = false;
            }
            in_function
                && l.trim_start()
                    .split_once(" = ")
                    .is_some_and(|(name, _)| array_globals.contains(&name))
        })
    });
    assert!(
        globals_by_callees >= 100,
        "globals replaced in functions: {globals_by_callees}"
    );
    let array_functions = having(&|p| p.contains("(p0: [") && p.contains(") -> ["));
    println!(
        "of 300 programs: {nested} with arrays of arrays, {big_temporaries} with big temporaries, {carried} replace an array from its old value, {globals_by_callees} replace globals in functions, {array_functions} have functions on arrays"
    );
    assert!(
        array_functions >= 100,
        "functions on arrays: {array_functions}"
    );
}
