//! `--stats`: what SSA construction built and did, per function, and the
//! time of each phase; as a table for people or JSON lines for scripts.

use crate::driver::Timings;
use crate::ir::Module;
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
    pub phis_created: usize,
    pub phis_removed_trivial: usize,
    pub phis_removed_scc: usize,
    pub folded: usize,
    pub simplified: usize,
    pub cse_hits: usize,
}

pub fn function_reports(module: &Module, stats: &[FunctionStats]) -> Vec<FunctionReport> {
    module
        .functions
        .iter()
        .chain(std::iter::once(&module.main))
        .zip(stats)
        .map(|(f, s)| {
            let (phis, insts) = f.counts();
            FunctionReport {
                name: f.name.clone(),
                blocks: f.layout.len(),
                insts,
                phis,
                phis_created: s.build.phis_created,
                phis_removed_trivial: s.build.phis_removed_trivial,
                phis_removed_scc: s.build.phis_removed_scc,
                folded: s.build.folded,
                simplified: s.build.simplified,
                cse_hits: s.build.cse_hits,
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

fn render_json(functions: &[FunctionReport], t: &Timings) -> String {
    let mut out = String::new();
    for f in functions {
        let _ = writeln!(
            out,
            "{{\"function\": {}, \"blocks\": {}, \"insts\": {}, \"phis\": {}, \"phis_created\": {}, \"phis_removed_trivial\": {}, \"phis_removed_scc\": {}, \"folded\": {}, \"simplified\": {}, \"cse_hits\": {}}}",
            json_string(&f.name),
            f.blocks,
            f.insts,
            f.phis,
            f.phis_created,
            f.phis_removed_trivial,
            f.phis_removed_scc,
            f.folded,
            f.simplified,
            f.cse_hits
        );
    }
    let _ = writeln!(
        out,
        "{{\"phase_us\": {{\"parse\": {}, \"check\": {}, \"ssa\": {}, \"codegen\": {}, \"run\": {}}}}}",
        t.parse.as_micros(),
        t.check.as_micros(),
        t.ssa.as_micros(),
        t.codegen.as_micros(),
        t.run.as_micros()
    );
    out
}

fn render_table(functions: &[FunctionReport], t: &Timings) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<20} {:>7} {:>7} {:>6} {:>8} {:>8} {:>5} {:>7} {:>7} {:>5}",
        "function",
        "blocks",
        "insts",
        "phis",
        "created",
        "trivial",
        "scc",
        "folded",
        "simpl",
        "cse"
    );
    for f in functions {
        let _ = writeln!(
            out,
            "{:<20} {:>7} {:>7} {:>6} {:>8} {:>8} {:>5} {:>7} {:>7} {:>5}",
            f.name,
            f.blocks,
            f.insts,
            f.phis,
            f.phis_created,
            f.phis_removed_trivial,
            f.phis_removed_scc,
            f.folded,
            f.simplified,
            f.cse_hits
        );
    }
    let _ = writeln!(
        out,
        "phases (µs): parse {}  check {}  ssa {}  codegen {}  run {}",
        t.parse.as_micros(),
        t.check.as_micros(),
        t.ssa.as_micros(),
        t.codegen.as_micros(),
        t.run.as_micros()
    );
    out
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
    let rows = [
        ("parse", t.parse),
        ("check", t.check),
        ("ssa construction", t.ssa),
        ("cranelift compile", compile),
        ("finalize", finalize),
        ("run", t.run),
    ];
    let mut out = String::new();
    for (name, d) in rows {
        let _ = writeln!(out, "{name:<18} {:>10.3} ms", ms(d));
    }
    let total = t.parse + t.check + t.ssa + t.codegen + t.run;
    let _ = writeln!(out, "{:<18} {:>10.3} ms", "total", ms(total));
    let (phis, insts) = a
        .ssa
        .functions
        .iter()
        .chain(std::iter::once(&a.ssa.main))
        .fold((0, 0), |(p, i), f| {
            let (fp, fi) = f.counts();
            (p + fp, i + fi)
        });
    let _ = writeln!(
        out,
        "sizes: {} AST nodes, {insts} SSA instructions + {phis} phis, {cl_insts} Cranelift instructions, {code} bytes of machine code",
        a.ast_nodes
    );
    out
}
