//! `--stats`: what SSA construction built and did, per function, and the
//! time of each phase; as a table for people or JSON lines for scripts.

use crate::driver::Timings;
use crate::ir::Module;
use crate::ssa::builder::BuildStats;
use crate::ssa::lower::FunctionStats;
use std::fmt::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatsFormat {
    Table,
    Json,
}

/// One function's numbers, counted after construction.
pub struct FunctionReport {
    pub name: String,
    pub blocks: usize,
    /// Instructions other than phis.
    pub insts: usize,
    pub phis: usize,
    pub build: BuildStats,
}

impl FunctionReport {
    /// The numbers in the order of `--stats=json`, with their keys.
    pub fn fields(&self) -> [(&'static str, usize); 9] {
        let b = &self.build;
        [
            ("blocks", self.blocks),
            ("insts", self.insts),
            ("phis", self.phis),
            ("phis_created", b.phis_created),
            ("phis_removed_trivial", b.phis_removed_trivial),
            ("phis_removed_scc", b.phis_removed_scc),
            ("folded", b.folded),
            ("simplified", b.simplified),
            ("cse_hits", b.cse_hits),
        ]
    }
}

pub fn function_reports(module: &Module, stats: &[FunctionStats]) -> Vec<FunctionReport> {
    module
        .all_functions()
        .zip(stats)
        .map(|(f, s)| {
            let (phis, insts) = f.counts();
            FunctionReport {
                name: f.name.clone(),
                blocks: f.layout.len(),
                insts,
                phis,
                build: s.build,
            }
        })
        .collect()
}

fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

pub fn render(format: StatsFormat, functions: &[FunctionReport], t: &Timings) -> String {
    match format {
        StatsFormat::Json => render_json(functions, t),
        StatsFormat::Table => render_table(functions, t),
    }
}

fn phases(t: &Timings) -> [(&'static str, u128); 5] {
    [
        ("parse", t.parse.as_micros()),
        ("check", t.check.as_micros()),
        ("ssa", t.ssa.as_micros()),
        ("codegen", t.codegen.as_micros()),
        ("run", t.run.as_micros()),
    ]
}

fn render_json(functions: &[FunctionReport], t: &Timings) -> String {
    let mut out = String::new();
    for f in functions {
        let _ = write!(out, "{{\"function\": {}", json_string(&f.name));
        for (key, n) in f.fields() {
            let _ = write!(out, ", \"{key}\": {n}");
        }
        out.push_str("}\n");
    }
    let phases: Vec<String> = phases(t)
        .iter()
        .map(|(k, us)| format!("\"{k}\": {us}"))
        .collect();
    let _ = writeln!(out, "{{\"phase_us\": {{{}}}}}", phases.join(", "));
    let gc = jitrun_runtime::gc::stats();
    let _ = writeln!(
        out,
        "{{\"gc\": {{\"collections\": {}, \"time_us\": {}, \"peak_heap_bytes\": {}, \"arrays_allocated\": {}, \"arrays_freed\": {}}}}}",
        gc.collections,
        gc.time.as_micros(),
        gc.peak_bytes,
        gc.arrays_allocated,
        gc.arrays_freed
    );
    out
}

fn render_table(functions: &[FunctionReport], t: &Timings) -> String {
    let mut out = format!("{:<20}", "function");
    let Some(first) = functions.first() else {
        return out;
    };
    for (key, _) in first.fields() {
        let _ = write!(out, " {key:>width$}", width = key.len().max(6));
    }
    out.push('\n');
    for f in functions {
        let _ = write!(out, "{:<20}", f.name);
        for (key, n) in f.fields() {
            let _ = write!(out, " {n:>width$}", width = key.len().max(6));
        }
        out.push('\n');
    }
    let phases: Vec<String> = phases(t)
        .iter()
        .map(|(k, us)| format!("{k} {us}"))
        .collect();
    let _ = writeln!(out, "phases (µs): {}", phases.join("  "));
    let _ = writeln!(out, "{}", gc_line());
    out
}

/// The collector's counts, in one line for people.
fn gc_line() -> String {
    let gc = jitrun_runtime::gc::stats();
    format!(
        "gc: {} collections, {:.3} ms collecting, peak heap {} bytes, {} arrays allocated, {} freed",
        gc.collections,
        gc.time.as_secs_f64() * 1e3,
        gc.peak_bytes,
        gc.arrays_allocated,
        gc.arrays_freed
    )
}

/// `--time`: where compilation and the run spent their time, and how big
/// the program was at each stage.
pub fn time_table(a: &crate::driver::Artifacts) -> String {
    let t = &a.timings;
    let (finalize, cl_insts, code) = a
        .compiled
        .as_ref()
        .map(|c| (c.finalize, c.cl_insts, c.code_size))
        .unwrap_or_default();
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    let compile = t.codegen.saturating_sub(finalize);
    let mut rows = vec![
        ("parse", t.parse),
        ("check", t.check),
        ("ssa construction", t.ssa),
    ];
    if !t.passes.is_empty() {
        rows.push(("  of which passes", t.passes.iter().map(|&(_, d)| d).sum()));
    }
    rows.extend([
        ("cranelift compile", compile),
        ("finalize", finalize),
        ("run", t.run),
    ]);
    let mut out = String::new();
    for (name, d) in rows {
        let _ = writeln!(out, "{name:<18} {:>10.3} ms", ms(d));
    }
    let gc = jitrun_runtime::gc::stats();
    let _ = writeln!(out, "{:<18} {:>10.3} ms", "  of which gc", ms(gc.time));
    let total = t.parse + t.check + t.ssa + t.codegen + t.run;
    let _ = writeln!(out, "{:<18} {:>10.3} ms", "total", ms(total));
    let (phis, insts) = a.ssa.all_functions().fold((0, 0), |(p, i), f| {
        let (fp, fi) = f.counts();
        (p + fp, i + fi)
    });
    let _ = writeln!(
        out,
        "sizes: {} AST nodes, {insts} SSA instructions + {phis} phis, {cl_insts} Cranelift instructions, {code} bytes of machine code",
        a.ast_nodes
    );
    let _ = writeln!(out, "{}", gc_line());
    if !t.passes.is_empty() {
        let each: Vec<String> = t
            .passes
            .iter()
            .map(|(name, d)| format!("{name} {:.3}", ms(*d)))
            .collect();
        let _ = writeln!(out, "passes (ms): {}", each.join("  "));
    }
    out
}
