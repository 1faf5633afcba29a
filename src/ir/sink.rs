//! Stores sunk to a join (`-O2`): when every predecessor of a block ends
//! by storing to the same element, `set a[i], x1`, `set a[i], x2`, …, and
//! does nothing after it but compute, the stores become one at the head
//! of the join: `set a[i], phi(x1, x2, …)` — LLVM's `MergedLoadStoreMotion`
//! (store sinking). An `if`/`else` that picks what to store leaves arms
//! that only compute, which `ir::select` turns into a select, and a store
//! on every iteration, which `ir::carry` can read back.
//!
//! Only stores already proven in bounds (unchecked: `ir::version`'s fast
//! loops) move: a checked store reports its own line when it fails, and
//! the two lines differ.

use super::dom::reverse_post_order;
use super::*;

/// Sinks the paired stores of every function of `m`.
pub fn sink_stores(m: &mut Module) {
    for f in m.functions.iter_mut().chain(std::iter::once(&mut m.main)) {
        sink_in(f);
    }
}

/// Joins in reverse post-order: an inner join's store, once sunk, is the
/// last store of its block for the join after it.
fn sink_in(f: &mut Function) {
    for join in reverse_post_order(f) {
        let preds = f.blocks[join].preds.clone();
        if preds.len() < 2 {
            continue;
        }
        let stores: Option<Vec<(Inst, Value)>> =
            preds.iter().map(|&p| last_store(f, p, join)).collect();
        let Some(stores) = stores else {
            continue;
        };
        let place = |i: Inst| match f.insts[i].kind {
            InstKind::ArraySet { array, index, .. } => (array, index),
            _ => unreachable!("last_store finds stores"),
        };
        let (first, _) = stores[0];
        let distinct = (1..preds.len()).all(|k| !preds[..k].contains(&preds[k]));
        if !distinct || stores.iter().any(|&(s, _)| place(s) != place(first)) {
            continue;
        }
        let (array, index) = place(first);
        for (&p, &(s, _)) in preds.iter().zip(&stores) {
            f.blocks[p].insts.retain(|i| *i != s);
        }
        let values: SmallVec<[Value; 2]> = stores.iter().map(|&(_, v)| v).collect();
        let value = if values.iter().all(|&v| v == values[0]) {
            values[0]
        } else {
            f.add_phi(join, f.value_ty(values[0]), values)
        };
        // The first store becomes the join's (keeping its location).
        f.insts[first].kind = InstKind::ArraySet {
            array,
            index,
            value,
            checked: false,
        };
        f.blocks[join].insts.insert(0, first);
    }
}

/// The store ending `block` (which jumps to `join`): an unchecked
/// `set`, followed by nothing but computation; with its value.
fn last_store(f: &Function, block: Block, join: Block) -> Option<(Inst, Value)> {
    let data = &f.blocks[block];
    if data.term != Some(Terminator::Jump(join)) {
        return None;
    }
    let at = data
        .insts
        .iter()
        .rposition(|&i| !f.insts[i].kind.is_removable_if_unused())?;
    let s = data.insts[at];
    match f.insts[s].kind {
        InstKind::ArraySet {
            value,
            checked: false,
            ..
        } => Some((s, value)),
        _ => None,
    }
}
