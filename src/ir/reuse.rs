//! Redundant reads removed (`-O2`): an element `a[i]` or a global read
//! again where nothing can have changed it takes the value read — or
//! stored — before. Available-expression analysis over loads, forward in
//! reverse post-order (a dataflow of "available loads" as in Muchnick
//! §13.1, restricted to acyclic flow):
//!
//! - a block's reads on entry are those its predecessors all end with, by
//!   the same value; a loop header, entered from a latch not yet seen,
//!   starts with none;
//! - `get a[i]` whose `(a, i)` is available is replaced by that value; so
//!   is `load g`;
//! - `set a[i], x` makes `x` the value of `(a, i)` and forgets every
//!   other element of `x`'s type (arrays of that type may be the same
//!   array: only a store of the element type can change an element, as
//!   `ir::licm` relies on too); `store g, x` makes `x` the value of `g`;
//! - a call forgets what the callee may store (`ir::alias`'s effects,
//!   in whole programs: the globals it or its callees store, and the
//!   elements of the classes and types they store), or everything where
//!   those are not known; runtime operations (printing, allocation)
//!   store no element and no global.
//!
//! A replaced read checked its index; the read it reuses (or the store)
//! checked the same index on every path to it first, so the error it
//! could report is reported there. The point: fewer loads, and a branch
//! arm that only re-reads what its test read becomes a select
//! (`if a[i] > m { m = a[i]; }`, `ir::select`).

use super::alias::Effects;
use super::dom::reverse_post_order;
use super::*;
use rustc_hash::FxHashMap;

/// Reads a block remembers, at most: beyond it, new reads are not
/// remembered (keeps the pass linear in huge straight-line code).
const MAX_AVAILABLE: usize = 64;

/// What a read is of.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Place {
    Element(Value, Value),
    Global(GlobalRef),
}

/// The places known at a point, with their values.
type Available = FxHashMap<Place, Value>;

/// Removes the redundant reads of `f`, knowing what calls may store
/// (`effects`, by function; empty where not known).
pub fn reuse_loads(f: &mut Function, effects: &[Effects]) {
    if !f.any_inst(InstKind::is_read) {
        return;
    }
    // What each block visited so far ends with.
    let mut at_end: FxHashMap<Block, Available> = FxHashMap::default();
    let mut replaced = false;
    for b in reverse_post_order(f) {
        let mut avail = on_entry(f, b, &at_end);
        let mut insts = std::mem::take(&mut f.blocks[b].insts);
        let before = insts.len();
        insts.retain(|&mut inst| !visit(f, inst, &mut avail, effects));
        replaced |= insts.len() < before;
        f.blocks[b].insts = insts;
        at_end.insert(b, avail);
    }
    if replaced {
        f.resolve_aliases();
    }
}

/// The reads available on entry to `b`: those all its predecessors
/// (every one visited) end with, by the same value.
fn on_entry(f: &Function, b: Block, at_end: &FxHashMap<Block, Available>) -> Available {
    let ends: Option<Vec<&Available>> = (f.blocks[b].preds.iter()).map(|p| at_end.get(p)).collect();
    let Some((first, rest)) = ends.as_deref().and_then(<[_]>::split_first) else {
        return Available::default();
    };
    let mut avail = (*first).clone();
    for other in rest {
        avail.retain(|place, v| other.get(place) == Some(v));
    }
    avail
}

/// Applies `inst` to `avail`; whether it is a read to remove (its result
/// then an alias of the value it reads).
fn visit(f: &mut Function, inst: Inst, avail: &mut Available, effects: &[Effects]) -> bool {
    let data = &f.insts[inst];
    // Operands may name reads replaced earlier.
    let element = |a: Value, i: Value| Place::Element(f.resolve(a), f.resolve(i));
    let read = match data.kind {
        InstKind::ArrayGet { array, index, .. } => element(array, index),
        InstKind::LoadGlobal(g) => Place::Global(g),
        InstKind::ArraySet {
            array,
            index,
            value,
            ..
        } => {
            let ty = f.value_ty(value);
            let place = element(array, index);
            avail.retain(|place, v| !matches!(place, Place::Element(..)) || f.value_ty(*v) != ty);
            remember(avail, place, f.resolve(value));
            return false;
        }
        InstKind::StoreGlobal(g, value) => {
            avail.insert(Place::Global(g), f.resolve(value));
            return false;
        }
        // It may overwrite the elements of `old`.
        InstKind::Renew { ref elems, .. } => {
            let ty = f.value_ty(elems[0]);
            avail.retain(|place, v| !matches!(place, Place::Element(..)) || f.value_ty(*v) != ty);
            return false;
        }
        InstKind::Call(g, _) => {
            match effects.get(g as usize) {
                Some(e) => avail.retain(|place, v| !may_store(f, e, place, *v)),
                None => avail.clear(),
            }
            return false;
        }
        _ => return false,
    };
    let result = data.result.expect("a read has a result");
    match avail.get(&read) {
        Some(&earlier) => {
            f.values[result].def = ValueDef::Alias(earlier);
            true
        }
        None => {
            remember(avail, read, result);
            false
        }
    }
}

/// Whether a call with effects `e` may change `place` (holding `v`).
fn may_store(f: &Function, e: &Effects, place: &Place, v: Value) -> bool {
    match *place {
        Place::Global(g) => e.globals.contains(&g),
        Place::Element(array, _) => match f.array_class(array) {
            Some(class) => e.elements.contains(&(class, f.value_ty(v))),
            None => true,
        },
    }
}

fn remember(avail: &mut Available, place: Place, value: Value) {
    if avail.len() < MAX_AVAILABLE || avail.contains_key(&place) {
        avail.insert(place, value);
    }
}
