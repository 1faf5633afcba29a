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

/// A store ending a block: the instruction, and what it stores where.
struct Store {
    inst: Inst,
    array: Value,
    index: Value,
    value: Value,
}

/// Joins in reverse post-order: an inner join's store, once sunk, is the
/// last store of its block for the join after it. (A predecessor ending
/// in a jump is one once in the join's list.)
pub fn sink_stores(f: &mut Function) {
    for join in reverse_post_order(f) {
        let preds = f.blocks[join].preds.clone();
        if preds.len() < 2 {
            continue;
        }
        let stores: Option<Vec<Store>> = preds.iter().map(|&p| last_store(f, p, join)).collect();
        let Some(stores) = stores else {
            continue;
        };
        let first = &stores[0];
        if (stores.iter()).any(|s| (s.array, s.index) != (first.array, first.index)) {
            continue;
        }
        for (&p, s) in preds.iter().zip(&stores) {
            f.blocks[p].insts.retain(|i| *i != s.inst);
        }
        let values: SmallVec<[Value; 2]> = stores.iter().map(|s| s.value).collect();
        let value = if values.iter().all(|&v| v == values[0]) {
            values[0]
        } else {
            f.add_phi(join, f.value_ty(values[0]), values)
        };
        // The first store becomes the join's (keeping its location).
        let first = &stores[0];
        f.insts[first.inst].kind = InstKind::ArraySet {
            array: first.array,
            index: first.index,
            value,
            checked: false,
        };
        f.blocks[join].insts.insert(0, first.inst);
    }
}

/// The store ending `block` (which jumps to `join`): an unchecked `set`,
/// followed by nothing but computation.
fn last_store(f: &Function, block: Block, join: Block) -> Option<Store> {
    let data = &f.blocks[block];
    if data.term != Some(Terminator::Jump(join)) {
        return None;
    }
    let at = (data.insts.iter()).rposition(|&i| !f.insts[i].kind.is_removable_if_unused())?;
    let inst = data.insts[at];
    match f.insts[inst].kind {
        InstKind::ArraySet {
            array,
            index,
            value,
            checked: false,
        } => Some(Store {
            inst,
            array,
            index,
            value,
        }),
        _ => None,
    }
}
