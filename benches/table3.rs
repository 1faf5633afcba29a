//! The paper's Table 3 on jitrun's kernels: `cargo bench --bench table3`.
//!
//! For every kernel of `benches/kernels`, with (`on`) and without (`off`)
//! the on-the-fly optimizations of Braun et al. §3.1: SSA construction
//! time and the size of the IR it builds (instructions + phis), Cranelift
//! compile time (`opt_level=speed`) of that IR, and the run time of the
//! program (`jitrun -O2` against `jitrun -O2 --no-ssa-opt`, the run phase
//! of `--time`). Medians; writes `benches/results/table3.md`.

mod common;

use common::{checked, kernel_path, kernels, speed_codegen, ssa_options};
use jitrun::codegen;
use jitrun::ir;
use jitrun::ssa::lower::lower_program;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

fn median_time(runs: usize, mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    times[runs / 2]
}

fn ir_size(module: &ir::Module) -> usize {
    module
        .functions
        .iter()
        .chain(std::iter::once(&module.main))
        .flat_map(|f| f.layout.iter().map(move |&b| (f, b)))
        .map(|(f, b)| f.blocks[b].insts.len() + f.blocks[b].phis.len())
        .sum()
}

/// The median run phase of `jitrun --time -O2 [--no-ssa-opt] FILE`, in ms.
fn run_ms(file: &Path, optimize: bool, runs: usize) -> f64 {
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let mut cmd = Command::new(env!("CARGO_BIN_EXE_jitrun"));
            cmd.args(["-O2", "--time"]);
            if !optimize {
                cmd.arg("--no-ssa-opt");
            }
            let out = cmd.arg(file).output().expect("run jitrun");
            assert!(out.status.success());
            let table = String::from_utf8_lossy(&out.stderr).into_owned();
            table
                .lines()
                .find_map(|l| l.strip_prefix("run"))
                .and_then(|r| r.trim().trim_end_matches("ms").trim().parse().ok())
                .expect("a run row")
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[runs / 2]
}

fn main() {
    jitrun::memory::keep_freed_memory();
    let runs: usize = std::env::var("JITRUN_TABLE3_RUNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let cg = speed_codegen();
    let mut table = String::from(
        "| kernel | §3.1 opts | SSA construction (µs) | IR size (insts + phis) | Cranelift (µs) | run (ms) |\n|---|---|---:|---:|---:|---:|\n",
    );
    for (name, src) in kernels() {
        let file = kernel_path(&name);
        let (checked, lines) = checked(&src);
        for (label, optimize) in [("on", true), ("off", false)] {
            let opts = ssa_options(optimize);
            let construct = median_time(51, || {
                lower_program(&checked, &lines, opts);
            });
            let (module, _) = lower_program(&checked, &lines, opts);
            let cranelift = median_time(11, || {
                let compiled = codegen::compile(&module, &cg).expect("compiles");
                // SAFETY: never run; nothing points into it.
                unsafe { compiled.free() }
            });
            let run = run_ms(&file, optimize, runs);
            let row = format!(
                "| {name} | {label} | {:.1} | {} | {:.0} | {run:.1} |\n",
                construct.as_secs_f64() * 1e6,
                ir_size(&module),
                cranelift.as_secs_f64() * 1e6,
            );
            eprint!("{row}");
            table.push_str(&row);
        }
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Braun et al. Table 3 on the kernels: with (`on`) and without (`off`) the on-the-fly optimizations.\nMedians of 51 constructions, 11 Cranelift compilations, {runs} runs.\n"
    );
    out.push_str(&table);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/results");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("table3.md"), &out).unwrap();
    print!("{out}");
}
