//! Values carried from one iteration to the next instead of stored and
//! read back (`-O2`): in a counted loop whose counter `j` starts at a
//! constant `j0` and steps by `s`, and that stores `a[j + c] = x` on every
//! iteration — the only store of that element type in the loop, which
//! calls nothing — a read `a[j + c - s]` is the `x` of the iteration
//! before. It becomes a header phi: the `x` of the last iteration from
//! the latch, and `a[j0 + c - s]` read once before the loop. The read
//! leaves the loop's critical path, where a store and a load of the same
//! address cost the processor's store-to-load forwarding (a few cycles)
//! on every iteration: a dynamic-programming row built from its own
//! previous entry (`cur[j] = min(cur[j - 1] + 1, …)`), prefix sums
//! (`p[j + 1] = p[j] + a[j]`). This is the scalar replacement of
//! Callahan, Carr and Kennedy ("Improving register allocation for
//! subscripted variables", PLDI 1990) for a distance of one iteration.
//!
//! The read it replaces checked its index: on later iterations the store
//! of the iteration before checked the same index; the read before the
//! loop must be proven in bounds where it lands ([`bounds::Prover`], as
//! `ir::licm` asks), or the loop is left alone — a check moved before the
//! loop would report an error the program might never reach.

use super::bounds::Prover;
use super::dom::DomTree;
use super::loops::Loops;
use super::*;

/// A read to replace: in loop `header` (entered from `preheader`, one
/// latch `latch`), `get array[j + c - s]` (`inst`, in `block`) where
/// `value` is stored at `array[j + c]` every iteration, and which reads
/// `array[first]` on the first.
struct Carried {
    inst: Inst,
    block: Block,
    array: Value,
    value: Value,
    first: i64,
    header: Block,
    preheader: Block,
    latch: Block,
}

/// Finds the reads, makes each first read's index in its preheader, and
/// carries the reads whose first read is proven there (the index of the
/// others is taken out again).
pub fn carry_stored_values(f: &mut Function) {
    let has_sets = (f.insts.iter()).any(|(_, d)| matches!(d.kind, InstKind::ArraySet { .. }));
    if !has_sets {
        return;
    }
    let (dom, loops) = f.dom_and_loops();
    let found = find(f, &dom, &loops);
    if found.is_empty() {
        return;
    }
    let before: Vec<Value> = (found.iter())
        .map(|c| f.push_inst(c.preheader, InstKind::IConst(c.first), Ty::Int))
        .collect();
    let proven: Vec<bool> = {
        let mut prover = Prover::new(f, &dom, &loops);
        (found.iter().zip(&before))
            .map(|(c, &k)| prover.in_bounds_at_end(c.array, k, c.preheader))
            .collect()
    };
    let mut carried = false;
    for ((c, k), proven) in found.iter().zip(before).zip(proven) {
        if proven {
            carry(f, c, k);
            carried = true;
        } else {
            let ValueDef::Inst(unused) = f.values[k].def else {
                unreachable!("made by push_inst");
            };
            f.blocks[c.preheader].insts.retain(|i| *i != unused);
        }
    }
    if carried {
        f.resolve_aliases();
    }
}

/// The reads to replace (in loops whose counter starts at a constant: the
/// first read's index is then one the analysis can prove).
fn find(f: &Function, dom: &DomTree, loops: &Loops) -> Vec<Carried> {
    let mut found = Vec::new();
    for l in loops.innermost_loops() {
        let data = &loops.loops[l];
        let [latch] = data.latches[..] else {
            continue;
        };
        let (Some(preheader), Some(counted)) = (loops.preheader(f, l), loops.counted(f, l)) else {
            continue;
        };
        let Some(semantics::Const::Int(start)) = f.constant(counted.counter.init) else {
            continue;
        };
        let (j, step) = (counted.counter.phi, counted.counter.step);
        if loops.stores(f, l, &[]).is_none() {
            continue;
        }
        let stores = stores_at_counter(f, dom, loops, l, j, latch);
        for &block in &data.blocks {
            for &inst in &f.blocks[block].insts {
                let InstKind::ArrayGet { array, index, .. } = f.insts[inst].kind else {
                    continue;
                };
                let Some(stored) = stores.iter().find(|s| s.array == array) else {
                    continue;
                };
                // The read the iteration before stored, and its index on
                // the first iteration.
                let Some(read) = stored.offset.checked_sub(step) else {
                    continue;
                };
                if counter_offset(f, index, j) != Some(read) {
                    continue;
                }
                let Some(first) = start.checked_add(read) else {
                    continue;
                };
                found.push(Carried {
                    inst,
                    block,
                    array,
                    value: stored.value,
                    first,
                    header: data.header,
                    preheader,
                    latch,
                });
            }
        }
    }
    found
}

/// A store `set array[j + offset], value` made on every iteration.
struct Stored {
    array: Value,
    offset: i64,
    value: Value,
}

/// The stores `set a[j + c], x` of loop `l` that run on every iteration
/// (in a block dominating the latch), to an array defined outside the
/// loop, and are the loop's only store of their element type.
fn stores_at_counter(
    f: &Function,
    dom: &DomTree,
    loops: &Loops,
    l: super::loops::Loop,
    j: Value,
    latch: Block,
) -> Vec<Stored> {
    let mut stores: Vec<(Ty, Option<Stored>)> = Vec::new();
    for &b in &loops.loops[l].blocks {
        for &i in &f.blocks[b].insts {
            let InstKind::ArraySet {
                array,
                index,
                value,
                ..
            } = f.insts[i].kind
            else {
                continue;
            };
            let ty = f.value_ty(value);
            let every_iteration = dom.dominates(b, latch) && loops.is_invariant(f, l, array);
            let store =
                (counter_offset(f, index, j).filter(|_| every_iteration)).map(|offset| Stored {
                    array,
                    offset,
                    value,
                });
            match stores.iter_mut().find(|(t, _)| *t == ty) {
                Some(seen) => seen.1 = None,
                None => stores.push((ty, store)),
            }
        }
    }
    stores.into_iter().filter_map(|(_, s)| s).collect()
}

/// `c` if `index` is `j + c` (`j` itself, `j + 1`, `j - 1`).
fn counter_offset(f: &Function, index: Value, j: Value) -> Option<i64> {
    if index == j {
        return Some(0);
    }
    match f.def_kind(index).and_then(|kind| f.constant_offset(kind)) {
        Some((base, c)) if base == j => Some(c),
        _ => None,
    }
}

/// Replaces `c`'s read by a header phi of the value read before the loop
/// (at `before`, proven in bounds there) and the value stored by the
/// iteration before.
fn carry(f: &mut Function, c: &Carried, before: Value) {
    let result = f.insts[c.inst].result.expect("a get has a result");
    let ty = f.value_ty(result);
    let unchecked = InstKind::ArrayGet {
        array: c.array,
        index: before,
        checked: false,
    };
    let first = f.push_inst(c.preheader, unchecked, ty);
    let args = (f.blocks[c.header].preds.iter())
        .map(|&p| if p == c.latch { c.value } else { first })
        .collect();
    let phi = f.add_phi(c.header, ty, args);
    f.blocks[c.block].insts.retain(|i| *i != c.inst);
    f.values[result].def = ValueDef::Alias(phi);
}
