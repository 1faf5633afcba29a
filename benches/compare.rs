//! The comparison script of issue 5: `cargo bench --bench compare`.
//!
//! Runs every kernel of `benches/kernels/` (a `.toy` program with a `.c`
//! twin and, optionally, a `.lua` twin printing the same output) under
//! jitrun at `-O0`, `-O1`, `-O2`, as C built by the system's `cc -O2` and
//! `cc -O0` (when `cc` exists) and under LuaJIT (when `luajit` exists),
//! several times each (`JITRUN_COMPARE_RUNS`, default 5; the engines of a
//! kernel take turns, so that a slow spell of a shared machine hits them
//! alike), and writes
//! `benches/results/compare.md` (medians: compile time, run time, total,
//! run time relative to `cc -O2`) and `benches/results/compare.svg`
//! (compile time against run time, one point per kernel and engine).
//! The geometric means are given over all kernels, over the original
//! eight ([`ORIGINAL_EIGHT`], the kernels the optimizer was tuned on) and
//! over the new ones alone (every other kernel: code it was not tuned on).
//!
//! jitrun's compile time is parse → finalized machine code and its run
//! time the run of the compiled code, both from `jitrun --time` (the
//! normal code path); C's compile time is `cc -O2 -o bin kernel.c` (compile
//! and link), its run time the binary's wall time. LuaJIT compiles while it
//! runs: its whole wall time counts as run time.
//! `JITRUN_COMPARE_ONLY=fib,sieve` restricts the kernels.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The kernels the set had before issue 19, which the optimizer was tuned
/// on. Every other kernel of `benches/kernels/` counts as new; the report
/// gives the geometric means over both groups separately.
const ORIGINAL_EIGHT: [&str; 8] = [
    "collatz",
    "fannkuch",
    "fib",
    "mandelbrot",
    "matmul",
    "nbody",
    "sieve",
    "spectralnorm",
];

fn is_original(kernel: &str) -> bool {
    ORIGINAL_EIGHT.contains(&kernel)
}

/// The twelve kernels added last, written by someone who had not seen the
/// optimizer's passes, as the held-out set is: a check on code the passes
/// were not shaped around (of these, only life and convolve were read
/// before the passes that followed them).
const LATEST_TWELVE: [&str; 12] = [
    "bignum",
    "bsearch",
    "convolve",
    "dijkstra",
    "knapsack",
    "life",
    "lu",
    "lz77",
    "mergesort",
    "montecarlo",
    "regvm",
    "unionfind",
];

fn is_latest(kernel: &str) -> bool {
    LATEST_TWELVE.contains(&kernel)
}

/// Ten kernels added after those, again written by someone who had not
/// seen the passes (first measured, before any change made after reading
/// them, at 1.06× `cc -O2`, whole process, best of 3).
const NEWEST_TEN: [&str; 10] = [
    "brainf",
    "crc",
    "csr",
    "fft",
    "kmp",
    "minimax",
    "modpow",
    "radixsort",
    "sudoku",
    "topo",
];

fn is_newest(kernel: &str) -> bool {
    NEWEST_TEN.contains(&kernel)
}

/// Twelve more, written the same way, of kinds the set lacked
/// (allocation-heavy trees, float-heavy calls, rings with a run-time
/// length, deep tail recursion, subset DP): first measured at 1.37×
/// `cc -O2` (best of 3), binarytrees 3.80×, cellular 2.75×, raytrace
/// 2.71×, before the changes they prompted.
const UNSEEN_TWELVE: [&str; 12] = [
    "ackermann",
    "binarytrees",
    "cellular",
    "heapsort",
    "kmeans",
    "lcs",
    "lis",
    "matpow",
    "polymul",
    "raytrace",
    "sobel",
    "tsp",
];

fn is_unseen(kernel: &str) -> bool {
    UNSEEN_TWELVE.contains(&kernel)
}

/// Twelve more by helpers who had not seen the passes: data structures
/// on arrays (an AVL tree, a trie, a Fenwick tree, an LRU cache, Huffman
/// code lengths, matrix-chain DP) and numeric code (a spring-mass cloth
/// with `[x, y]` vectors, an 8x8 DCT, Gaussian elimination, a 2-D heat
/// equation, an RPN evaluator, adaptive Simpson): first measured at
/// 1.92× `cc -O2` (best of 3), cloth 33×, heat2d 2.75×, dct8 2.63×,
/// mchain 1.93×, before the changes they prompted.
const PROBE_TWELVE: [&str; 12] = [
    "avl", "cloth", "dct8", "fenwick", "gauss", "heat2d", "huffman", "lru", "mchain", "rpn",
    "simpson", "trie",
];

fn is_probe(kernel: &str) -> bool {
    PROBE_TWELVE.contains(&kernel)
}

/// Ten recursive kernels by a helper who had not seen the passes (a
/// three-way quicksort, Takeuchi's tarai, backtracking over `[bool]`, a
/// recursive-descent parser, accumulator-style tail recursion, partition
/// counts by tree recursion, flood fill, a binary search tree in arrays,
/// Karatsuba, mutual recursion over ints and floats): first measured at
/// 1.33× `cc -O2` (best of 3), partitions 2.22×, mutual 1.76×.
const RECURSION_TEN: [&str; 10] = [
    "bstarr",
    "floodfill",
    "karatsuba",
    "mutual",
    "partitions",
    "permback",
    "qsort3",
    "rdparse",
    "tailrec",
    "tarai",
];

fn is_recursion(kernel: &str) -> bool {
    RECURSION_TEN.contains(&kernel)
}

/// Six by a helper who had not seen the passes, of the held-out set's
/// kinds written the way one writes Toy first (an RK4 integrator whose
/// helpers return new 4-vectors, particles as `[x, y]` arrays, BFS on a
/// maze, an open-addressing table with tombstones, a heat stencil that
/// swaps grids, a stack VM on an `if`/`else` chain): first measured on
/// 07efa28 (best of 3) at henon 6.4× `cc -O2`, particles 2.3×, stackvm
/// 1.4×, mazebfs 1.25×, probing 1.26×, heatswap 0.60×. henon prompted
/// `ir::sizes` and `ir::unroll`.
const HELPER_SIX: [&str; 6] = [
    "henon",
    "heatswap",
    "mazebfs",
    "particles",
    "probing",
    "stackvm",
];

fn is_helper_six(kernel: &str) -> bool {
    HELPER_SIX.contains(&kernel)
}

/// A group of kernels for a geomean: its name and which kernels it takes.
type Group = (&'static str, fn(&str) -> bool);

/// The groups the report gives geometric means over, in its columns'
/// order.
const GROUPS: [Group; 9] = [
    ("all", |_| true),
    ("original eight", is_original),
    ("new", |k| !is_original(k)),
    ("latest twelve", is_latest),
    ("newest ten", is_newest),
    ("unseen twelve", is_unseen),
    ("probe twelve", is_probe),
    ("recursion ten", is_recursion),
    ("helper six", is_helper_six),
];

/// One way of running a kernel.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Engine {
    Jitrun(u8),
    Cc(&'static str),
    LuaJit,
}

impl Engine {
    fn name(&self) -> String {
        match self {
            Engine::Jitrun(level) => format!("jitrun -O{level}"),
            Engine::Cc(flag) => format!("cc {flag}"),
            Engine::LuaJit => "LuaJIT".into(),
        }
    }

    fn color(&self) -> &'static str {
        match self {
            Engine::Jitrun(0) => "#9ecae1",
            Engine::Jitrun(1) => "#4292c6",
            Engine::Jitrun(_) => "#08306b",
            Engine::Cc("-O0") => "#fdae6b",
            Engine::Cc(_) => "#d94801",
            Engine::LuaJit => "#41ab5d",
        }
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct Sample {
    compile: Duration,
    run: Duration,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("-v")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok()
}

fn kernels() -> Vec<String> {
    let only: Option<Vec<String>> = std::env::var("JITRUN_COMPARE_ONLY")
        .ok()
        .map(|s| s.split(',').map(str::to_string).collect());
    let mut names: Vec<String> = std::fs::read_dir(root().join("benches/kernels"))
        .expect("benches/kernels")
        .filter_map(|e| {
            let path = e.ok()?.path();
            (path.extension()? == "toy").then(|| path.file_stem()?.to_str().map(str::to_string))?
        })
        .filter(|n| only.as_ref().is_none_or(|o| o.contains(n)))
        .collect();
    names.sort();
    names
}

/// Milliseconds of a `--time` table row.
fn phase_ms(table: &str, row: &str) -> f64 {
    table
        .lines()
        .find_map(|l| l.strip_prefix(row))
        .and_then(|rest| rest.trim().trim_end_matches("ms").trim().parse().ok())
        .unwrap_or_else(|| panic!("no `{row}` row in:\n{table}"))
}

fn run_jitrun(kernel: &Path, level: u8) -> (Sample, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_jitrun"))
        .arg(format!("-O{level}"))
        .arg("--time")
        .arg(kernel)
        .output()
        .expect("run jitrun");
    assert!(out.status.success(), "jitrun failed on {kernel:?}");
    let table = String::from_utf8_lossy(&out.stderr);
    let run = phase_ms(&table, "run");
    let total = phase_ms(&table, "total");
    let sample = Sample {
        compile: Duration::from_secs_f64((total - run) / 1e3),
        run: Duration::from_secs_f64(run / 1e3),
    };
    (sample, String::from_utf8_lossy(&out.stdout).into_owned())
}

fn timed_output(command: &mut Command) -> (Duration, String) {
    let start = Instant::now();
    let out = command.output().expect("run");
    let elapsed = start.elapsed();
    assert!(out.status.success(), "{command:?} failed");
    (elapsed, String::from_utf8_lossy(&out.stdout).into_owned())
}

fn run_cc(kernel: &Path, flag: &str, scratch: &Path) -> (Sample, String) {
    let binary = scratch.join(format!(
        "{}{flag}",
        kernel.file_stem().unwrap().to_string_lossy()
    ));
    let (compile, _) = timed_output(
        Command::new("cc")
            .arg(flag)
            .arg("-o")
            .arg(&binary)
            .arg(kernel)
            .arg("-lm"),
    );
    let (run, stdout) = timed_output(&mut Command::new(&binary));
    (Sample { compile, run }, stdout)
}

fn run_luajit(kernel: &Path) -> (Sample, String) {
    let (run, stdout) = timed_output(Command::new("luajit").arg(kernel));
    let compile = Duration::ZERO;
    (Sample { compile, run }, stdout)
}

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

type Results = BTreeMap<String, BTreeMap<Engine, Sample>>;

fn main() {
    let runs: usize = std::env::var("JITRUN_COMPARE_RUNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5)
        .max(1);
    let mut engines = vec![Engine::Jitrun(0), Engine::Jitrun(1), Engine::Jitrun(2)];
    if have("cc") {
        engines.push(Engine::Cc("-O0"));
        engines.push(Engine::Cc("-O2"));
    }
    if have("luajit") {
        engines.push(Engine::LuaJit);
    }
    let scratch = std::env::temp_dir().join(format!("jitrun-compare-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("scratch dir");
    let dir = root().join("benches/kernels");
    let mut results: Results = BTreeMap::new();
    for kernel in kernels() {
        let mut reference: Option<String> = None;
        let sources: Vec<(&Engine, PathBuf)> = engines
            .iter()
            .map(|engine| {
                let source = match engine {
                    Engine::Jitrun(_) => dir.join(format!("{kernel}.toy")),
                    Engine::Cc(_) => dir.join(format!("{kernel}.c")),
                    Engine::LuaJit => dir.join(format!("{kernel}.lua")),
                };
                (engine, source)
            })
            .filter(|(_, source)| source.exists())
            .collect();
        // Round-robin over the engines, so that a slow spell of this
        // shared machine hits every engine of the kernel alike.
        let mut samples: Vec<Vec<Sample>> = vec![Vec::new(); sources.len()];
        for _ in 0..runs {
            for ((engine, source), samples) in sources.iter().zip(&mut samples) {
                let (sample, stdout) = match engine {
                    Engine::Jitrun(level) => run_jitrun(source, *level),
                    Engine::Cc(flag) => run_cc(source, flag, &scratch),
                    Engine::LuaJit => run_luajit(source),
                };
                match &reference {
                    None => reference = Some(stdout),
                    Some(r) => assert_eq!(
                        r,
                        &stdout,
                        "{kernel}: {} prints something else",
                        engine.name()
                    ),
                }
                samples.push(sample);
            }
        }
        for ((engine, _), samples) in sources.iter().zip(samples) {
            let sample = Sample {
                compile: median(samples.iter().map(|s| s.compile).collect()),
                run: median(samples.iter().map(|s| s.run).collect()),
            };
            eprintln!(
                "{kernel:>14} {:>12}: compile {:>9.3} ms, run {:>9.1} ms",
                engine.name(),
                ms(sample.compile),
                ms(sample.run)
            );
            results
                .entry(kernel.clone())
                .or_default()
                .insert((*engine).clone(), sample);
        }
    }
    let out_dir = root().join("benches/results");
    std::fs::create_dir_all(&out_dir).expect("results dir");
    let table = markdown(&results, &engines, runs);
    std::fs::write(out_dir.join("compare.md"), &table).expect("write compare.md");
    std::fs::write(out_dir.join("compare.svg"), svg(&results, &engines)).expect("write svg");
    print!("{table}");
    let _ = std::fs::remove_dir_all(&scratch);
}

fn geomean(xs: &[f64]) -> f64 {
    (xs.iter().map(|x| x.ln()).sum::<f64>() / xs.len() as f64).exp()
}

fn markdown(results: &Results, engines: &[Engine], runs: usize) -> String {
    let mut out = String::new();
    let baseline = Engine::Cc("-O2");
    let _ = writeln!(
        out,
        "Medians of {runs} runs. Times in ms; `run ×` is run time relative to `cc -O2`.\n"
    );
    let _ = writeln!(
        out,
        "| kernel | engine | compile | run | total | run × |\n|---|---|---:|---:|---:|---:|"
    );
    for (kernel, by_engine) in results {
        let base = by_engine.get(&baseline).map(|s| ms(s.run));
        for (engine, s) in by_engine {
            let ratio = base.map_or("–".into(), |b| format!("{:.2}", ms(s.run) / b));
            let compile = match engine {
                Engine::LuaJit => "–".to_string(),
                _ => format!("{:.2}", ms(s.compile)),
            };
            let _ = writeln!(
                out,
                "| {kernel} | {} | {compile} | {:.1} | {:.1} | {ratio} |",
                engine.name(),
                ms(s.run),
                ms(s.compile + s.run)
            );
        }
    }
    let groups = GROUPS;
    let sizes: Vec<usize> = groups
        .iter()
        .map(|(_, member)| results.keys().filter(|k| member(k)).count())
        .collect();
    // The geometric mean of an engine's run-time ratios over the kernels of
    // a group that it ran (a LuaJIT twin may be missing), and how many.
    let ratio_geomean = |engine: &Engine, member: fn(&str) -> bool| {
        let ratios: Vec<f64> = results
            .iter()
            .filter(|(k, _)| member(k))
            .filter_map(|(_, by)| Some(ms(by.get(engine)?.run) / ms(by.get(&baseline)?.run)))
            .collect();
        (!ratios.is_empty()).then(|| (geomean(&ratios), ratios.len()))
    };
    if let Some(level2) = engines.iter().find(|e| **e == Engine::Jitrun(2)) {
        let summary: Vec<String> = groups
            .iter()
            .zip(&sizes)
            .filter_map(|((name, member), n)| {
                let (g, _) = ratio_geomean(level2, *member)?;
                Some(format!("**{g:.2}×** over {name} ({n})"))
            })
            .collect();
        if !summary.is_empty() {
            let _ = writeln!(
                out,
                "\njitrun -O2 run time relative to `cc -O2`, geometric mean: {}.",
                summary.join(", ")
            );
        }
    }
    let members = |list: &[&str]| list.join(", ");
    let _ = writeln!(
        out,
        "\nGeometric means of the run time relative to `cc -O2` over all kernels, over the \
         original eight ({}), over the new ones (every other kernel), over the latest \
         twelve of those ({}), over the newest ten ({}), over the unseen twelve ({}), \
         over the probe twelve ({}), over the recursion ten ({}) and over the helper \
         six ({}); \
         compile time in ms, over all kernels. `(k of n)`: the engine ran only k of the \
         group's n kernels.\n",
        members(&ORIGINAL_EIGHT),
        members(&LATEST_TWELVE),
        members(&NEWEST_TEN),
        members(&UNSEEN_TWELVE),
        members(&PROBE_TWELVE),
        members(&RECURSION_TEN),
        members(&HELPER_SIX),
    );
    let columns: Vec<String> = (groups.iter().zip(&sizes))
        .map(|((name, _), n)| format!(" run × {name} ({n}) |"))
        .collect();
    let _ = writeln!(
        out,
        "| engine |{} compile |\n|---|{}---:|",
        columns.concat(),
        "---:|".repeat(groups.len())
    );
    for engine in engines {
        let cells: Vec<String> = groups
            .iter()
            .zip(&sizes)
            .map(|((_, member), n)| match ratio_geomean(engine, *member) {
                None => "–".to_string(),
                Some((g, k)) if k == *n => format!("{g:.2}"),
                Some((g, k)) => format!("{g:.2} ({k} of {n})"),
            })
            .collect();
        if cells.iter().all(|c| c == "–") {
            continue;
        }
        let compiles: Vec<f64> = results
            .values()
            .filter_map(|by| Some(ms(by.get(engine)?.compile).max(1e-3)))
            .collect();
        let compile = match engine {
            Engine::LuaJit => "–".to_string(),
            _ => format!("{:.2}", geomean(&compiles)),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {compile} |",
            engine.name(),
            cells.join(" | ")
        );
    }
    out
}

/// A log-log scatter plot: compile time (x) against run time (y).
fn svg(results: &Results, engines: &[Engine]) -> String {
    let (w, h, left, bottom, top, right) = (760.0, 520.0, 70.0, 60.0, 30.0, 170.0);
    let points: Vec<(&Engine, &str, f64, f64)> = results
        .iter()
        .flat_map(|(k, by)| {
            by.iter()
                .filter(|(e, _)| **e != Engine::LuaJit)
                .map(move |(e, s)| (e, k.as_str(), ms(s.compile), ms(s.run)))
        })
        .collect();
    let range = |vals: Vec<f64>| {
        let lo = vals.iter().cloned().fold(f64::INFINITY, f64::min).max(1e-3);
        let hi = vals.iter().cloned().fold(0.0, f64::max).max(lo * 10.0);
        (lo.log10().floor(), hi.log10().ceil())
    };
    let (x0, x1) = range(points.iter().map(|p| p.2).collect());
    let (y0, y1) = range(points.iter().map(|p| p.3).collect());
    let px = |x: f64| left + (x.max(1e-3).log10() - x0) / (x1 - x0) * (w - left - right);
    let py = |y: f64| h - bottom - (y.max(1e-3).log10() - y0) / (y1 - y0) * (h - top - bottom);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="18" text-anchor="middle" font-size="14">compile time vs run time per kernel (log-log, ms)</text>"#,
        (w - right + left) / 2.0
    );
    for e in x0 as i32..=x1 as i32 {
        let x = px(10f64.powi(e));
        let _ = writeln!(
            s,
            r##"<line x1="{x}" y1="{top}" x2="{x}" y2="{}" stroke="#ddd"/><text x="{x}" y="{}" text-anchor="middle">{}</text>"##,
            h - bottom,
            h - bottom + 16.0,
            10f64.powi(e)
        );
    }
    for e in y0 as i32..=y1 as i32 {
        let y = py(10f64.powi(e));
        let _ = writeln!(
            s,
            r##"<line x1="{left}" y1="{y}" x2="{}" y2="{y}" stroke="#ddd"/><text x="{}" y="{}" text-anchor="end">{}</text>"##,
            w - right,
            left - 6.0,
            y + 4.0,
            10f64.powi(e)
        );
    }
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle">compile time (ms): jitrun parse→machine code; cc compile+link</text>"#,
        (w - right + left) / 2.0,
        h - 18.0
    );
    let _ = writeln!(
        s,
        r#"<text x="16" y="{}" text-anchor="middle" transform="rotate(-90 16 {})">run time (ms)</text>"#,
        h / 2.0,
        h / 2.0
    );
    for (engine, kernel, c, r) in &points {
        let _ = writeln!(
            s,
            r#"<circle cx="{:.1}" cy="{:.1}" r="5" fill="{}" fill-opacity="0.85"><title>{kernel}, {}: compile {c:.2} ms, run {r:.1} ms</title></circle>"#,
            px(*c),
            py(*r),
            engine.color(),
            engine.name()
        );
    }
    for (i, engine) in engines.iter().filter(|e| **e != Engine::LuaJit).enumerate() {
        let y = top + 20.0 + 20.0 * i as f64;
        let x = w - right + 20.0;
        let _ = writeln!(
            s,
            r#"<circle cx="{x}" cy="{y}" r="5" fill="{}"/><text x="{}" y="{}">{}</text>"#,
            engine.color(),
            x + 10.0,
            y + 4.0,
            engine.name()
        );
    }
    let _ = writeln!(s, "</svg>");
    s
}
