//! Graphviz pictures of the SSA CFG (`jitrun --emit dot`): one cluster per
//! function, one box per block listing its phis and instructions.

use super::print::block_lines;
use super::{Function, Module};
use std::fmt::Write;

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

pub fn module_to_dot(module: &Module) -> String {
    let mut out = String::from("digraph ssa {\n    node [shape=box, fontname=\"monospace\"];\n");
    for f in module.all_functions() {
        write_function(&mut out, f);
    }
    out.push_str("}\n");
    out
}

fn write_function(out: &mut String, f: &Function) {
    let name = escape(&f.name);
    let _ = writeln!(
        out,
        "    subgraph \"cluster_{name}\" {{\n        label=\"fn {name}\";"
    );
    for &b in &f.layout {
        let mut label = format!("{b}:\\l");
        for line in block_lines(f, b) {
            let _ = write!(label, "  {}\\l", escape(&line));
        }
        let _ = writeln!(out, "        \"{name}.{b}\" [label=\"{label}\"];");
    }
    for &b in &f.layout {
        for s in f.successors(b) {
            let _ = writeln!(out, "        \"{name}.{b}\" -> \"{name}.{s}\";");
        }
    }
    out.push_str("    }\n");
}
