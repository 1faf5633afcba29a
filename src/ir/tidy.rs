//! Cleanups for passes that copy code into a function (`ir::inliner`,
//! `ir::arguments`): a copy's arguments may be constants, which its
//! arithmetic then computes with (folded here as SSA construction folds,
//! Braun et al. §3.1), and a copy is spliced in between the two halves of
//! the call's block, which leaves a chain of blocks each jumping to the
//! next (merged here). A straight-line function that inlined a helper is
//! then one block again — a leaf the translator can expand at its calls —
//! and a run of accesses across the copy can be checked as one group.

use super::semantics;
use super::*;
use rustc_hash::FxHashSet;

/// Folds constant arithmetic, drops what is left unused, then merges
/// each block into its predecessor where that is its only one and jumps
/// straight to it.
pub fn tidy(f: &mut Function) {
    fold_constants(f);
    remove_unused(f);
    merge_straight_blocks(f);
}

/// Removes the instructions whose results nothing uses and that can go
/// (`InstKind::is_removable_if_unused`), until none is left: the
/// operands of folded arithmetic, mostly.
pub fn remove_unused(f: &mut Function) {
    loop {
        let mut used: FxHashSet<Value> = FxHashSet::default();
        f.for_each_use(|_, v| {
            used.insert(v);
        });
        let mut removed = false;
        for bi in 0..f.layout.len() {
            let b = f.layout[bi];
            let (insts, values) = (&f.insts, &f.blocks[b]);
            let keep: SmallVec<[Inst; 4]> = (values.insts.iter().copied())
                .filter(|&i| {
                    let data = &insts[i];
                    let unused = data.result.is_none_or(|r| !used.contains(&r));
                    !(unused && data.kind.is_removable_if_unused())
                })
                .collect();
            removed |= keep.len() != f.blocks[b].insts.len();
            f.blocks[b].insts = keep;
        }
        if !removed {
            return;
        }
    }
}

/// Replaces every pure operation on constants by its value, until none
/// is left (an operation that would fail at run time stays).
pub fn fold_constants(f: &mut Function) {
    let mut changed = true;
    while changed {
        changed = false;
        for bi in 0..f.layout.len() {
            let b = f.layout[bi];
            for ii in 0..f.blocks[b].insts.len() {
                let inst = f.blocks[b].insts[ii];
                let folded = match f.insts[inst].kind {
                    InstKind::Binary(op, x, y) => f
                        .constant(x)
                        .zip(f.constant(y))
                        .and_then(|(x, y)| semantics::eval_binary(op, x, y)),
                    InstKind::Unary(op, x) => {
                        f.constant(x).and_then(|x| semantics::eval_unary(op, x))
                    }
                    _ => None,
                };
                if let Some(c) = folded {
                    f.insts[inst].kind = super::constants::constant_inst(c);
                    changed = true;
                }
            }
        }
    }
}

/// Merges block `s` into `b` wherever `b` ends with a jump to `s` and is
/// its only predecessor (so `s`'s phis have one argument each, which
/// replaces them); the merged block ends as `s` did.
pub fn merge_straight_blocks(f: &mut Function) {
    let mut removed: FxHashSet<Block> = FxHashSet::default();
    for bi in 0..f.layout.len() {
        let b = f.layout[bi];
        if removed.contains(&b) {
            continue;
        }
        // `b` may then jump straight to another block it alone enters.
        while let Some(Terminator::Jump(s)) = f.blocks[b].term {
            if s == b || s == f.entry() || f.blocks[s].preds[..] != [b] {
                break;
            }
            for phi in std::mem::take(&mut f.blocks[s].phis) {
                let arg = f.phi_args(phi)[0];
                f.remove_phi(phi, arg);
            }
            let insts = std::mem::take(&mut f.blocks[s].insts);
            f.blocks[b].insts.extend(insts);
            f.blocks[b].term = f.blocks[s].term.take();
            f.blocks[s].preds.clear();
            for succ in f.successors(b) {
                for p in f.blocks[succ].preds.iter_mut().filter(|p| **p == s) {
                    *p = b;
                }
            }
            removed.insert(s);
        }
    }
    if !removed.is_empty() {
        f.layout.retain(|b| !removed.contains(b));
        f.resolve_aliases();
    }
}
