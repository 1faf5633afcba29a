//! Memory of programs that allocate, next to CPython's twins:
//! `cargo bench --bench memory` (Linux: peak resident set from `wait4`).
//!
//! Runs every `benches/memory/NAME.toy` with `jitrun` and its twin
//! `NAME.py` with `python3` (when there is one), the two taking turns,
//! three times each; reports median wall time and the largest peak
//! resident set, checks that both print the same, and writes the table to
//! `benches/results/memory.md`. Then times one full collection of a heap
//! of 1 000 000 small live arrays held by an array of arrays, through the
//! runtime's API.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const RUNS: usize = 3;

struct Measured {
    time: Duration,
    peak_kib: u64,
    stdout: String,
}

/// Runs `command` to its end; its wall time, peak resident set and output.
/// The child is reaped by `wait4`, which also reports its resource usage.
#[allow(clippy::zombie_processes)]
fn measure(command: &mut Command) -> Measured {
    let start = Instant::now();
    let child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start");
    let pid = child.id() as libc::pid_t;
    let mut stdout = child.stdout.expect("piped");
    let mut text = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut text).expect("read output");
    let mut status = 0;
    // SAFETY: `rusage` is plain data, filled in by `wait4` for our child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child, which nothing else reaps.
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let time = start.elapsed();
    assert_eq!(reaped, pid, "wait4");
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "{command:?} failed"
    );
    Measured {
        time,
        peak_kib: usage.ru_maxrss as u64,
        stdout: text,
    }
}

fn have_python() -> bool {
    Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn programs(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("benches/memory")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toy"))
        .collect();
    files.sort();
    files
}

/// The median time and the largest peak of `runs`.
fn summary(runs: &[Measured]) -> (Duration, u64) {
    let mut times: Vec<Duration> = runs.iter().map(|m| m.time).collect();
    times.sort();
    let peak = runs.iter().map(|m| m.peak_kib).max().unwrap_or(0);
    (times[times.len() / 2], peak)
}

/// The REPL fed 3 000 entries that each declare `x` again with a fresh
/// 800 KB array (and a function that reads the first `x`).
fn repl_redeclaring(jitrun: &str) -> Measured {
    let mut input = String::from("let x = [-1; 100000];\nfn first() -> int { return x[0]; }\n");
    for i in 0..3000 {
        input.push_str(&format!("let x = [{i}; 100000];\n"));
    }
    input.push_str("print(first(), x[0]);\n");
    let path = std::env::temp_dir().join(format!("jitrun-memory-{}.repl", std::process::id()));
    std::fs::write(&path, input).expect("write REPL input");
    let stdin = std::fs::File::open(&path).expect("REPL input");
    let measured = measure(Command::new(jitrun).env("JITRUN_HISTORY", "").stdin(stdin));
    assert_eq!(measured.stdout, "-1 2999\n");
    let _ = std::fs::remove_file(&path);
    measured
}

/// One full collection of 1 000 000 small live arrays reachable from an
/// array of arrays held by a root cell.
fn full_collection_of_a_million_arrays() -> (Duration, u64) {
    use jitrun_runtime::gc;
    use std::sync::atomic::{AtomicU64, Ordering};
    static ROOT: AtomicU64 = AtomicU64::new(0);
    let n = 1_000_000;
    let outer = jitrun_runtime::array_new(n, 0, gc::ElemKind::Arrays as i64, 0);
    ROOT.store(outer as u64, Ordering::SeqCst);
    gc::add_global_roots(&[&ROOT as *const AtomicU64 as usize]);
    for i in 0..n {
        let inner = jitrun_runtime::array_new(2, i, gc::ElemKind::Words as i64, 0);
        // SAFETY: `outer` has `n` elements after its length word.
        unsafe { *outer.add(1 + i as usize) = inner as i64 };
    }
    let before = gc::stats().collections;
    let start = Instant::now();
    gc::collect_now();
    let took = start.elapsed();
    assert_eq!(gc::stats().collections, before + 1);
    (took, gc::stats().heap_bytes as u64)
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let jitrun = env!("CARGO_BIN_EXE_jitrun");
    let python = have_python();
    let mut rows = Vec::new();
    for toy in programs(&root.join("benches/memory")) {
        let name = toy.file_stem().unwrap().to_string_lossy().into_owned();
        let py = toy.with_extension("py");
        let twin = python && py.exists();
        let mut ours = Vec::new();
        let mut theirs = Vec::new();
        for _ in 0..RUNS {
            ours.push(measure(Command::new(jitrun).arg(&toy).stdin(Stdio::null())));
            if twin {
                theirs.push(measure(
                    Command::new("python3").arg(&py).stdin(Stdio::null()),
                ));
            }
        }
        if let Some(t) = theirs.first() {
            assert_eq!(ours[0].stdout, t.stdout, "{name}: outputs differ");
        }
        let (time, peak) = summary(&ours);
        let python = (!theirs.is_empty()).then(|| summary(&theirs));
        eprintln!("{name}: {time:?} {peak} KiB; python {python:?}");
        rows.push((name, time, peak, python));
    }
    let mut md = String::from(
        "| program | jitrun time | jitrun peak RSS | CPython time | CPython peak RSS | time vs CPython |\n|---|---:|---:|---:|---:|---:|\n",
    );
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let mb = |kib: u64| kib as f64 / 1024.0;
    for (name, time, peak, python) in &rows {
        match python {
            Some((pt, pp)) => md.push_str(&format!(
                "| {name} | {:.0} ms | {:.1} MB | {:.0} ms | {:.1} MB | {:.2}× |\n",
                ms(*time),
                mb(*peak),
                ms(*pt),
                mb(*pp),
                time.as_secs_f64() / pt.as_secs_f64()
            )),
            None => md.push_str(&format!(
                "| {name} | {:.0} ms | {:.1} MB | – | – | – |\n",
                ms(*time),
                mb(*peak)
            )),
        }
    }
    let repl: Vec<Measured> = (0..RUNS).map(|_| repl_redeclaring(jitrun)).collect();
    let (time, peak) = summary(&repl);
    md.push_str(&format!(
        "| REPL: 3 000 entries `let x = [i; 100000];` | {:.0} ms | {:.1} MB | – | – | – |\n",
        ms(time),
        mb(peak)
    ));
    let (took, heap) = full_collection_of_a_million_arrays();
    md.push_str(&format!(
        "\nOne full collection of 1 000 000 live arrays of 2 ints (held by an array of arrays; {:.1} MB of heap): {:.1} ms.\n",
        heap as f64 / 1e6,
        ms(took)
    ));
    print!("{md}");
    let out = root.join("benches/results/memory.md");
    std::fs::write(&out, &md).expect("write benches/results/memory.md");
    println!("written to {}", out.display());
}
