//! The stable text form of the IR (`jitrun --emit ssa`), pinned by
//! snapshot tests: a change in construction shows up as a diff.
//!
//! ```text
//! fn count(v0: int) -> int {
//! b0:
//!     v1 = iconst 0
//!     jump b1
//! b1: ; preds b0 b2
//!     v2 = phi int [v1, v5]
//!     …
//! }
//! ```

use super::*;
use std::fmt::{self, Write};

pub fn module_to_string(module: &Module) -> String {
    let mut out = String::new();
    for (i, g) in module.globals.iter().enumerate() {
        let _ = writeln!(out, "global g{i}: {g}");
    }
    for (i, s) in module.strings.iter().enumerate() {
        let _ = writeln!(out, "string s{i} = {s:?}");
    }
    if !out.is_empty() {
        out.push('\n');
    }
    for f in module.all_functions() {
        let _ = write_function(&mut out, f);
        out.push('\n');
    }
    out
}

pub fn function_to_string(f: &Function) -> String {
    let mut out = String::new();
    let _ = write_function(&mut out, f);
    out
}

pub fn write_function(out: &mut impl Write, f: &Function) -> fmt::Result {
    write!(out, "fn {}(", f.name)?;
    for (i, &p) in f.params.iter().enumerate() {
        if i > 0 {
            write!(out, ", ")?;
        }
        write!(out, "{p}: {}", f.value_ty(p))?;
    }
    write!(out, ")")?;
    if let Some(ret) = f.ret {
        write!(out, " -> {ret}")?;
    }
    writeln!(out, " {{")?;
    for &block in &f.layout {
        write_block(out, f, block)?;
    }
    writeln!(out, "}}")
}

/// The lines of a block's body: phis, instructions, terminator.
pub fn block_lines(f: &Function, block: Block) -> Vec<String> {
    let data = &f.blocks[block];
    let mut lines = Vec::new();
    for &phi in &data.phis {
        let mut line = format!("{phi} = phi {} [", f.value_ty(phi));
        let _ = write_list(&mut line, f.phi_args(phi));
        line.push(']');
        lines.push(line);
    }
    for &inst in &data.insts {
        let mut line = String::new();
        let _ = write_inst(&mut line, f, inst);
        lines.push(line);
    }
    lines.push(match &data.term {
        Some(term) => TermDisplay(term).to_string(),
        None => "<no terminator>".to_string(),
    });
    lines
}

fn write_block(out: &mut impl Write, f: &Function, block: Block) -> fmt::Result {
    let data = &f.blocks[block];
    write!(out, "{block}:")?;
    if !data.preds.is_empty() {
        write!(out, " ; preds")?;
        for p in &data.preds {
            write!(out, " {p}")?;
        }
    }
    writeln!(out)?;
    for line in block_lines(f, block) {
        writeln!(out, "    {line}")?;
    }
    Ok(())
}

fn write_list(out: &mut impl Write, values: &[Value]) -> fmt::Result {
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            write!(out, ", ")?;
        }
        write!(out, "{v}")?;
    }
    Ok(())
}

fn unary_name(op: UnaryOp) -> &'static str {
    match op {
        UnaryOp::INeg => "ineg",
        UnaryOp::FNeg => "fneg",
        UnaryOp::Not => "not",
        UnaryOp::IAbs => "iabs",
        UnaryOp::FAbs => "fabs",
        UnaryOp::Sqrt => "sqrt",
        UnaryOp::FloatToInt => "f2i",
        UnaryOp::IntToFloat => "i2f",
    }
}

fn cmp_name(c: Cmp) -> &'static str {
    match c {
        Cmp::Eq => "eq",
        Cmp::Ne => "ne",
        Cmp::Lt => "lt",
        Cmp::Le => "le",
        Cmp::Gt => "gt",
        Cmp::Ge => "ge",
    }
}

fn binary_name(op: BinaryOp) -> String {
    use BinaryOp::*;
    match op {
        IAdd => "iadd".into(),
        ISub => "isub".into(),
        IMul => "imul".into(),
        IDiv => "idiv".into(),
        IRem => "irem".into(),
        FAdd => "fadd".into(),
        FSub => "fsub".into(),
        FMul => "fmul".into(),
        FDiv => "fdiv".into(),
        FRem => "frem".into(),
        And => "and".into(),
        Or => "or".into(),
        Xor => "xor".into(),
        Shl => "shl".into(),
        Shr => "shr".into(),
        ICmp(c) => format!("icmp {}", cmp_name(c)),
        FCmp(c) => format!("fcmp {}", cmp_name(c)),
        BCmp(c) => format!("bcmp {}", cmp_name(c)),
        IMin => "imin".into(),
        IMax => "imax".into(),
        FMin => "fmin".into(),
        FMax => "fmax".into(),
    }
}

/// `.unchecked` on an access whose bounds check a pass removed.
fn unchecked_suffix(checked: bool) -> &'static str {
    if checked {
        ""
    } else {
        ".unchecked"
    }
}

fn write_inst(out: &mut impl Write, f: &Function, inst: Inst) -> fmt::Result {
    let data = &f.insts[inst];
    if let Some(r) = data.result {
        write!(out, "{r} = ")?;
    }
    match &data.kind {
        InstKind::Copy(v) => write!(out, "copy {v}"),
        InstKind::IConst(n) => write!(out, "iconst {n}"),
        InstKind::FConst(bits) => write!(out, "fconst {:?}", f64::from_bits(*bits)),
        InstKind::BConst(b) => write!(out, "bconst {b}"),
        InstKind::Unary(op, a) => write!(out, "{} {a}", unary_name(*op)),
        InstKind::Binary(op, a, b) => write!(out, "{} {a}, {b}", binary_name(*op)),
        InstKind::Call(func, args) => {
            write!(out, "call f{func}(")?;
            write_list(out, args)?;
            write!(out, ")")
        }
        InstKind::LoadGlobal(g) => write!(out, "load g{g}"),
        InstKind::StoreGlobal(g, v) => write!(out, "store g{g}, {v}"),
        InstKind::NewArray { len, fill } => write!(out, "new_array {fill}; {len}"),
        InstKind::ArrayLit(elems) => {
            write!(out, "array [")?;
            write_list(out, elems)?;
            write!(out, "]")
        }
        InstKind::Renew { old, elems } => {
            write!(out, "renew {old}, [")?;
            write_list(out, elems)?;
            write!(out, "]")
        }
        InstKind::EmptyArray => write!(out, "empty_array"),
        InstKind::ArrayLen(a) => write!(out, "len {a}"),
        InstKind::ArrayGet {
            array,
            index,
            checked,
        } => write!(out, "get{} {array}[{index}]", unchecked_suffix(*checked)),
        InstKind::ArraySet {
            array,
            index,
            value,
            checked,
        } => write!(
            out,
            "set{} {array}[{index}], {value}",
            unchecked_suffix(*checked)
        ),
        InstKind::Print(item) => match item {
            PrintItem::Int(v) => write!(out, "print_int {v}"),
            PrintItem::Float(v) => write!(out, "print_float {v}"),
            PrintItem::Bool(v) => write!(out, "print_bool {v}"),
            PrintItem::Array(v, code) => write!(out, "print_array {v}, type {code}"),
            PrintItem::Str(s) => write!(out, "print_str s{s}"),
            PrintItem::Space => write!(out, "print_space"),
            PrintItem::Newline => write!(out, "print_newline"),
        },
        InstKind::Clock => write!(out, "clock"),
        InstKind::CheckDepth(depth) => write!(out, "check_depth {depth}"),
        InstKind::Select {
            cond,
            if_true,
            if_false,
        } => write!(out, "select {cond}, {if_true}, {if_false}"),
    }?;
    if data.loc != SrcLoc::default() {
        write!(out, " @{}:{}", data.loc.line, data.loc.col)?;
    }
    if let Some(site) = data.loc.inlined.checked_sub(1) {
        // Expanded in place: where the copy's call was.
        let call = f.inline_sites[site as usize].call;
        write!(out, " (inlined at {}:{})", call.line, call.col)?;
    }
    Ok(())
}

struct TermDisplay<'a>(&'a Terminator);

impl fmt::Display for TermDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Terminator::Jump(b) => write!(f, "jump {b}"),
            Terminator::Branch {
                cond,
                then_block,
                else_block,
            } => write!(f, "br {cond}, {then_block}, {else_block}"),
            Terminator::Return(Some(v)) => write!(f, "ret {v}"),
            Terminator::Return(None) => write!(f, "ret"),
            Terminator::Unreachable => write!(f, "unreachable"),
            Terminator::Switch {
                value,
                cases,
                default,
            } => {
                write!(f, "switch {value}, [")?;
                for (k, &(n, b)) in cases.iter().enumerate() {
                    let sep = if k == 0 { "" } else { ", " };
                    write!(f, "{sep}{n}: {b}")?;
                }
                write!(f, "], {default}")
            }
        }
    }
}
