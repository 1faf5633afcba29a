//! Reassociation of loop-carried chains (`-O2`). In a tree of one
//! associative, commutative int operation (`+`, `*`, `&`, `|`, `^`,
//! `min`, `max`: ints wrap, so every order gives the same value), the
//! operand that carries a value from the iteration before is combined
//! last, so that the recurrence runs through one operation of the tree
//! instead of all of them. `min(min(up + 1, left + 1), diag + cost)`, with
//! `left` the value the iteration before computed, becomes
//! `min(min(up + 1, diag + cost), left + 1)`; `s = s + a[i] + b[i]`
//! becomes `s = s + (a[i] + b[i])`. GCC's `reassoc` ranks loop-carried
//! phis highest for the same reason.
//!
//! A value is *on the recurrence* of a loop header's phi `p` when it
//! depends on `p` within an iteration and `p`'s value for the next
//! iteration depends on it. Where `outer = inner op c` (either order),
//! `inner = x op y` in the same block has no other use, `x` is on a
//! recurrence that `y` and `c` are not on, `inner` becomes `y op c` (moved
//! to just before `outer`, where `c` is available) and `outer` becomes
//! `inner op x`; the step repeats from `outer` while `x` is such a tree
//! in turn. Only loops a tree is in, and only int phis whose next value a
//! tree computes, are looked at (the pass runs on every function).

use super::loops::{Loop, Loops};
use super::*;
use rustc_hash::FxHashSet;

fn is_reassociable(op: BinaryOp) -> bool {
    use BinaryOp::*;
    matches!(op, IAdd | IMul | And | Or | Xor | IMin | IMax)
}

/// Reassociates the loops of `f`.
pub fn reassociate_loops(f: &mut Function) {
    // Only a tree of two operations or more can change: find the blocks
    // with one before computing the loops.
    let tree_blocks = blocks_with_trees(f);
    if tree_blocks.is_empty() {
        return;
    }
    let loops = f.loops();
    // The innermost loop of each tree: a recurrence a tree is on runs
    // through the header of the loop the tree is in (an inner loop's
    // trees on an outer recurrence go through the inner header's phis).
    let mut with_trees: Vec<Loop> = (tree_blocks.iter())
        .filter_map(|&b| loops.innermost(b))
        .collect();
    with_trees.sort_unstable();
    with_trees.dedup();
    if with_trees.is_empty() {
        return;
    }
    let mut uses = None;
    for l in with_trees {
        let header = loops.loops[l].header;
        let int_phis =
            (f.blocks[header].phis.iter().copied()).filter(|&p| f.value_ty(p) == Ty::Int);
        for phi in int_phis.collect::<Vec<_>>() {
            let Some(mut on_cycle) = recurrence(f, &loops, l, phi) else {
                continue;
            };
            let uses = uses.get_or_insert_with(|| f.use_counts());
            for &b in &loops.loops[l].blocks {
                for inst in f.blocks[b].insts.clone() {
                    let Some(r) = f.insts[inst].result else {
                        continue;
                    };
                    if on_cycle.contains(&r) {
                        rotate_tree(f, uses, &mut on_cycle, b, inst);
                    }
                }
            }
        }
    }
}

/// Whether `v` is an operation of [`is_reassociable`] kind with an
/// operand of the same kind.
fn is_tree(f: &Function, v: Value) -> bool {
    let tree_of = |v: Value, op: BinaryOp| matches!(f.def_kind(f.resolve(v)), Some(&InstKind::Binary(inner, ..)) if inner == op);
    match f.def_kind(v) {
        Some(&InstKind::Binary(op, a, b)) => {
            is_reassociable(op) && (tree_of(a, op) || tree_of(b, op))
        }
        _ => false,
    }
}

/// The blocks holding a tree ([`is_tree`]).
fn blocks_with_trees(f: &Function) -> Vec<Block> {
    let is_root = |i: &Inst| f.insts[*i].result.is_some_and(|r| is_tree(f, r));
    (f.layout.iter().copied())
        .filter(|&b| f.blocks[b].insts.iter().any(is_root))
        .collect()
}

/// The values on the recurrence of `phi`, a phi of `l`'s header: those
/// that depend on it within an iteration and that its value for the next
/// iteration depends on; `None` when no tree is among them.
fn recurrence(f: &Function, loops: &Loops, l: Loop, phi: Value) -> Option<FxHashSet<Value>> {
    let data = &loops.loops[l];
    let header_phis = &f.blocks[data.header].phis;
    // Backward from the operands the latches pass, within the loop: what
    // the next value depends on (usually a few values: look no further
    // when no tree is among them).
    let preds = &f.blocks[data.header].preds;
    let mut work: Vec<Value> = (preds.iter().zip(f.phi_args(phi)))
        .filter(|(p, _)| data.latches.contains(p))
        .map(|(_, &a)| f.resolve(a))
        .collect();
    let mut before = FxHashSet::default();
    while let Some(v) = work.pop() {
        if loops.is_invariant(f, l, v) || !before.insert(v) || header_phis.contains(&v) {
            continue;
        }
        match f.values[v].def {
            ValueDef::Inst(i) => f.insts[i]
                .kind
                .for_each_operand(|o| work.push(f.resolve(o))),
            ValueDef::Phi(_) => work.extend(f.phi_args(v).iter().map(|&a| f.resolve(a))),
            _ => {}
        }
    }
    if !before.iter().any(|&v| is_tree(f, v)) {
        return None;
    }
    // Forward, in reverse post-order (the header first): what depends on
    // it, among those.
    let mut after: FxHashSet<Value> = FxHashSet::default();
    after.insert(phi);
    for &b in &data.blocks {
        if b != data.header {
            for &p in &f.blocks[b].phis {
                if f.phi_args(p).iter().any(|a| after.contains(&f.resolve(*a))) {
                    after.insert(p);
                }
            }
        }
        for &inst in &f.blocks[b].insts {
            let d = &f.insts[inst];
            let Some(r) = d.result else { continue };
            let mut depends = false;
            d.kind
                .for_each_operand(|v| depends |= after.contains(&f.resolve(v)));
            if depends {
                after.insert(r);
            }
        }
    }
    before.retain(|v| after.contains(v));
    Some(before)
}

/// Moves the operand on the recurrence up the tree `inst` roots, one
/// level at a time, while the shape allows (see the module's comment).
fn rotate_tree(
    f: &mut Function,
    uses: &FxHashMap<Value, usize>,
    on_cycle: &mut FxHashSet<Value>,
    block: Block,
    outer: Inst,
) {
    loop {
        let InstKind::Binary(op, a, b) = f.insts[outer].kind else {
            return;
        };
        if !is_reassociable(op) {
            return;
        }
        let Some((inner_value, c)) = one_on_cycle(f, on_cycle, a, b) else {
            return;
        };
        let ValueDef::Inst(inner) = f.values[inner_value].def else {
            return;
        };
        let InstKind::Binary(inner_op, x, y) = f.insts[inner].kind else {
            return;
        };
        let Some((carried, other)) = one_on_cycle(f, on_cycle, x, y) else {
            return;
        };
        // In `outer`'s block only: a tree split across blocks may span a
        // nested loop, which the moved operation must not enter.
        let local = f.blocks[block].insts.contains(&inner);
        if inner_op != op || uses.get(&inner_value) != Some(&1) || !local {
            return;
        }
        f.insts[inner].kind = InstKind::Binary(op, other, c);
        f.insts[outer].kind = InstKind::Binary(op, inner_value, carried);
        on_cycle.remove(&inner_value);
        move_before(f, inner, block, outer);
    }
}

/// `(a, b)` or `(b, a)`, the operand on the recurrence first, when exactly
/// one of them is.
fn one_on_cycle(
    f: &Function,
    on_cycle: &FxHashSet<Value>,
    a: Value,
    b: Value,
) -> Option<(Value, Value)> {
    let (a, b) = (f.resolve(a), f.resolve(b));
    match (on_cycle.contains(&a), on_cycle.contains(&b)) {
        (true, false) => Some((a, b)),
        (false, true) => Some((b, a)),
        _ => None,
    }
}

/// Moves `inst` to just before `before`, both in `block`.
fn move_before(f: &mut Function, inst: Inst, block: Block, before: Inst) {
    let insts = &mut f.blocks[block].insts;
    insts.retain(|i| *i != inst);
    let at = (f.blocks[block].insts.iter())
        .position(|&i| i == before)
        .expect("the tree's root is in its block");
    f.blocks[block].insts.insert(at, inst);
}
