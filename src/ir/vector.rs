//! Loops whose iterations can run two at a time (`-O2`, not in the REPL).
//!
//! The translator runs such a loop on 128-bit vectors — two `f64` or two
//! `i64` lanes — for as many pairs of iterations as it has, then lets the
//! original loop run the last one, if any. A row update
//! `for j in 0..n { ci[j] += aik * bk[j]; }` is the shape: a counted loop
//! whose every access is `a[i]` for the loop's own counter `i`.
//!
//! Why running two iterations at once gives the same result: iteration
//! `i` touches only element `i` of each array, so lane 0 does exactly what
//! iteration `i` did and lane 1 what iteration `i + 1` did, each in its own
//! order; no two lanes touch the same element even when two array values
//! are the same array. Only element-wise operations that round the same in
//! a lane as in a scalar register qualify (IEEE `+ - * /` and `sqrt`,
//! wrapping integer `+ -` and bitwise operations); a value carried from one
//! iteration to the next (a sum) would be reassociated, so the counter
//! must be the loop's only phi. Every access must be proven in bounds or
//! checked on entry to the loop (`ir::bounds`), so no lane can fail; the
//! vector loop visits only indices the original loop would have visited.

use super::bounds::CheckPlan;
use super::loops::{Loop, Loops};
use super::*;

/// A loop of the shape above.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VectorLoop {
    /// The predecessor outside the loop; its jump to the header is where
    /// the vector loop goes.
    pub entry: Block,
    pub header: Block,
    /// The counter: the header's only phi, from the entry's value up by
    /// one per iteration.
    pub counter: Value,
    /// The loop runs while `counter < bound` (signed).
    pub bound: Value,
    /// The body's instructions in order (over the body block and the
    /// latch, if any), without the counter's step.
    pub insts: Vec<Inst>,
}

/// The loops of `f` that can run two iterations at a time.
pub fn vector_loops(f: &Function, loops: &Loops, plan: &CheckPlan) -> Vec<VectorLoop> {
    loops
        .innermost_loops()
        .filter_map(|l| vector_loop(f, loops, plan, l))
        .collect()
}

fn vector_loop(f: &Function, loops: &Loops, plan: &CheckPlan, l: Loop) -> Option<VectorLoop> {
    let header = loops.loops[l].header;
    let h = &f.blocks[header];
    let [counter] = h.phis[..] else { return None };
    if f.value_ty(counter) != Ty::Int || h.preds.len() != 2 {
        return None;
    }
    let entry = loops.preheader(f, l)?;
    let (cond, body) = header_test(f, header)?;
    let InstKind::Binary(BinaryOp::ICmp(Cmp::Lt), c, bound) = f.insts[only_inst(f, header)?].kind
    else {
        return None;
    };
    if c != counter || f.insts[only_inst(f, header)?].result != Some(cond) {
        return None;
    }
    let blocks = straight_body(f, loops, l, body)?;
    let back = *blocks.last().expect("the body block");
    let back_index = h.preds.iter().position(|&p| p == back)?;
    let step = f.phi_args(counter)[back_index];
    let in_loop = |v: Value| !loops.is_invariant(f, l, v);
    if in_loop(bound) || !is_step_of(f, step, counter) {
        return None;
    }
    let ValueDef::Inst(step_inst) = f.values[step].def else {
        return None;
    };
    // Operands the lanes can have: values from before the loop (the same
    // in both lanes) and the lanes' own earlier results. Not the counter,
    // the step or the test, which the lanes do not compute.
    let mut lane_values: Vec<Value> = Vec::new();
    let mut insts = Vec::new();
    for &b in blocks {
        for &inst in &f.blocks[b].insts {
            if inst == step_inst {
                continue;
            }
            let operand = |v: Value| !in_loop(v) || lane_values.contains(&v);
            if !runs_in_lanes(f, plan, inst, counter, &operand) {
                return None;
            }
            insts.push(inst);
            lane_values.extend(f.insts[inst].result);
        }
    }
    if insts.is_empty() {
        return None;
    }
    Some(VectorLoop {
        entry,
        header,
        counter,
        bound,
        insts,
    })
}

/// The header's condition and the block it enters the loop at.
fn header_test(f: &Function, header: Block) -> Option<(Value, Block)> {
    match f.blocks[header].term {
        Some(Terminator::Branch {
            cond, then_block, ..
        }) => Some((cond, then_block)),
        _ => None,
    }
}

fn only_inst(f: &Function, block: Block) -> Option<Inst> {
    match f.blocks[block].insts[..] {
        [inst] => Some(inst),
        _ => None,
    }
}

/// The loop's blocks past its header, if they run straight through:
/// `body` alone jumping back to the header, or `body` then one latch;
/// each entered only from the block before it.
fn straight_body<'l>(f: &Function, loops: &'l Loops, l: Loop, body: Block) -> Option<&'l [Block]> {
    let data = &loops.loops[l];
    let blocks = &data.blocks[1..];
    if blocks.len() > 2 || blocks.first() != Some(&body) {
        return None;
    }
    let mut before = data.header;
    for (k, &b) in blocks.iter().enumerate() {
        let next = blocks.get(k + 1).copied().unwrap_or(data.header);
        if f.blocks[b].preds[..] != [before] || f.blocks[b].term != Some(Terminator::Jump(next)) {
            return None;
        }
        before = b;
    }
    Some(blocks)
}

/// Whether `step` is `counter + 1`.
fn is_step_of(f: &Function, step: Value, counter: Value) -> bool {
    let ValueDef::Inst(inst) = f.values[step].def else {
        return false;
    };
    match f.insts[inst].kind {
        InstKind::Binary(BinaryOp::IAdd, a, b) => {
            let one = |v| matches!(f.constant(v), Some(semantics::Const::Int(1)));
            (a == counter && one(b)) || (b == counter && one(a))
        }
        _ => false,
    }
}

/// Whether `inst` computes the same in each of two lanes as in two
/// iterations, given which values may be its `operand`s.
fn runs_in_lanes(
    f: &Function,
    plan: &CheckPlan,
    inst: Inst,
    counter: Value,
    operand: &impl Fn(Value) -> bool,
) -> bool {
    let lane_type = |v: Value| matches!(f.value_ty(v), Ty::Float | Ty::Int);
    let checked = plan.checked_before_loop(inst);
    let kind = &f.insts[inst].kind;
    let element_wise = match *kind {
        InstKind::ArrayGet { array, index, .. } => {
            let result = f.insts[inst].result.expect("a get has a result");
            return index == counter && operand(array) && checked && lane_type(result);
        }
        InstKind::ArraySet {
            array,
            index,
            value,
            ..
        } => {
            return index == counter
                && operand(array)
                && operand(value)
                && checked
                && lane_type(value)
        }
        InstKind::Binary(op, a, _) => {
            use BinaryOp::*;
            match f.value_ty(a) {
                Ty::Float => matches!(op, FAdd | FSub | FMul | FDiv),
                Ty::Int => matches!(op, IAdd | ISub | And | Or | Xor),
                _ => false,
            }
        }
        InstKind::Unary(op, _) => matches!(op, UnaryOp::FNeg | UnaryOp::FAbs | UnaryOp::Sqrt),
        InstKind::FConst(_) | InstKind::IConst(_) => true,
        _ => false,
    };
    element_wise && kind.operands().into_iter().all(operand)
}
