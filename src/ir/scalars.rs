//! Scalar replacement of small arrays (`-O2`): an array made in the
//! function with a constant length of at most [`MAX_ELEMENTS`], whose
//! every use reads or writes an element at a constant index inside it or
//! takes its length — it is never passed to a call, stored in a global or
//! another array, merged in a phi, printed or returned — is not made at
//! all. Each element becomes an SSA variable: the array's making defines
//! them, a write defines one, a read uses one, and `len` is the constant.
//!
//! The variables are put into SSA form over the blocks the array's making
//! dominates (every use of the array is in them): a phi per element at
//! each join, then the redundant ones removed — trivial phis and sets of
//! phis that merge one value among themselves, by Braun et al.'s
//! Algorithm 5 (`ssa::minimize`), which leaves minimal SSA (Aycock and
//! Horspool show the same for trivial-phi removal on reducible flow
//! graphs); phis nothing reads are dropped at the end.
//!
//! The reads and writes removed could not fail (their constant indices are
//! inside the array), so no error moves; the array's allocation, and the
//! work of the collector for it, are what go away. Vectors written as
//! `[x, y, z]` and passed to small helpers are the usual case once the
//! helpers are inlined (`ir::inliner` counts the accesses this pass
//! removes when it weighs such a call).

use super::*;
use rustc_hash::{FxHashMap, FxHashSet};
use smallvec::smallvec;

/// The longest array replaced: each element is a variable, with a phi at
/// each join until shown trivial.
pub const MAX_ELEMENTS: i64 = 8;

/// Phis placed for one array (its elements times the joins below its
/// making), at most: beyond it the array stays, so that a huge function
/// costs no quadratic work.
const MAX_PHIS: usize = 4096;

/// An array the function makes: where, its length and its elements'
/// initial values.
struct Made {
    block: Block,
    inst: Inst,
    value: Value,
    initial: Vec<Value>,
}

/// Replaces the small local arrays of `f`.
pub fn replace_arrays(f: &mut Function) {
    let mut made = small_arrays(f);
    if made.is_empty() {
        return;
    }
    let escaped = escaping(f, &made);
    made.retain(|a| !escaped.contains(&a.value));
    if made.is_empty() {
        return;
    }
    let dom = f.dom_tree();
    let rpo = &dom.rpo;
    let mut placed = Vec::new();
    for array in &made {
        let region: Vec<Block> = rpo
            .iter()
            .copied()
            .filter(|&b| dom.dominates(array.block, b))
            .collect();
        let joins = region
            .iter()
            .filter(|&&b| f.blocks[b].preds.len() > 1)
            .count();
        if joins * array.initial.len() > MAX_PHIS {
            continue;
        }
        replace(f, array, &region, &mut placed);
    }
    f.resolve_aliases();
    // Trivial phis, and sets of phis that only merge one value among
    // themselves (the elements a loop does not change), go: Algorithm 5
    // of Braun et al., as SSA construction runs it.
    crate::ssa::minimize::remove_redundant_phi_sccs(f);
    drop_unread_phis(f, &placed);
    super::tidy::remove_dead_pure_insts(f);
}

/// The arrays `f` makes with a constant length of at most
/// [`MAX_ELEMENTS`], with their initial elements.
fn small_arrays(f: &Function) -> Vec<Made> {
    let mut out = Vec::new();
    for &block in &f.layout {
        for &inst in &f.blocks[block].insts {
            let data = &f.insts[inst];
            if let (Some(initial), Some(value)) = (initial_elements(f, &data.kind), data.result) {
                out.push(Made {
                    block,
                    inst,
                    value,
                    initial,
                });
            }
        }
    }
    out
}

/// The instructions [`replace_arrays`] removes from `f`: each small array
/// that stays local, its making and its accesses (a cost model's view of
/// what `f` will be).
pub fn removable(f: &Function) -> usize {
    let made = small_arrays(f);
    let escaped = escaping(f, &made);
    (made.iter())
        .filter(|a| !escaped.contains(&a.value))
        .filter_map(|a| local_accesses(f, a.value, a.initial.len() as i64))
        .map(|n| n + 1)
        .sum()
}

/// The length of the small array `kind` makes, if it makes one.
fn small_len(f: &Function, kind: &InstKind) -> Option<i64> {
    let n = match kind {
        InstKind::ArrayLit(elems) => elems.len() as i64,
        InstKind::NewArray { len, .. } => f.int_constant(*len)?,
        _ => return None,
    };
    (0..=MAX_ELEMENTS).contains(&n).then_some(n)
}

/// The elements `kind` makes a small array of, if it does.
fn initial_elements(f: &Function, kind: &InstKind) -> Option<Vec<Value>> {
    let n = small_len(f, kind)?;
    Some(match kind {
        InstKind::NewArray { fill, .. } => vec![*fill; n as usize],
        _ => kind.operands(),
    })
}

/// The length of `v`, if `f` makes it as an array [`replace_arrays`] may
/// replace (depending on its uses).
pub fn small_array_len(f: &Function, v: Value) -> Option<i64> {
    let ValueDef::Inst(inst) = f.values[v].def else {
        return None;
    };
    small_len(f, &f.insts[inst].kind)
}

/// The number of instructions of `f` that read or write an element of
/// `array` (of length `len`) at a constant index or take its length, if
/// those are its only uses: what [`replace_arrays`] removes, were the
/// array made in `f`.
pub fn local_accesses(f: &Function, array: Value, len: i64) -> Option<usize> {
    accesses(f, array, len, false)
}

/// The length of the array `f` returns, if every return returns a small
/// array `f` makes and otherwise only reads and writes at constant
/// indices: once `f` is inlined, a caller that does the same with the
/// result replaces it.
pub fn returned_small_array(f: &Function) -> Option<i64> {
    let mut len = None;
    for &b in &f.layout {
        let Some(Terminator::Return(v)) = f.blocks[b].term else {
            continue;
        };
        let n = small_array_len(f, v?)?;
        if *len.get_or_insert(n) != n || accesses(f, v?, n, true).is_none() {
            return None;
        }
    }
    len
}

/// [`local_accesses`], where `returned` lets `array` be returned too.
fn accesses(f: &Function, array: Value, len: i64, returned: bool) -> Option<usize> {
    let (mut count, mut escapes) = (0, false);
    let length = |v: Value| (v == array).then_some(len);
    for_each_array_use(f, length, returned, |_, u| match u {
        Use::Local => count += 1,
        _ => escapes = true,
    });
    (!escapes).then_some(count)
}

/// Calls `seen(array, use)` for every use of an array that `length`
/// gives the length of: by an instruction, a [`use_of`] (never
/// [`Use::None`]); by a phi or a terminator, an escape — except a return
/// when `returned`.
fn for_each_array_use(
    f: &Function,
    length: impl Fn(Value) -> Option<i64>,
    returned: bool,
    mut seen: impl FnMut(Value, Use),
) {
    for &b in &f.layout {
        let data = &f.blocks[b];
        for &phi in &data.phis {
            for &v in f.phi_args(phi).iter().filter(|&&v| length(v).is_some()) {
                seen(v, Use::Escape);
            }
        }
        match data.term {
            Some(Terminator::Return(_)) if returned => {}
            ref term => {
                if let Some(v) = term.as_ref().and_then(|t| t.operand()) {
                    if length(v).is_some() {
                        seen(v, Use::Escape);
                    }
                }
            }
        }
        for &inst in &data.insts {
            let kind = &f.insts[inst].kind;
            kind.for_each_operand(|v| {
                if let Some(n) = length(v) {
                    seen(v, use_of(f, kind, v, n));
                }
            });
        }
    }
}

/// How an instruction uses an array.
#[derive(PartialEq)]
enum Use {
    None,
    /// Reads or writes an element at a constant index inside the array,
    /// or takes its length.
    Local,
    /// Anything else: the array may be seen elsewhere, or an access may
    /// fail.
    Escape,
}

fn use_of(f: &Function, kind: &InstKind, array: Value, len: i64) -> Use {
    let inside = |index: Value| match f.int_constant(index) {
        Some(i) if (0..len).contains(&i) => Use::Local,
        _ => Use::Escape,
    };
    match *kind {
        InstKind::ArraySet { value, .. } if value == array => Use::Escape,
        InstKind::ArrayGet {
            array: a, index, ..
        }
        | InstKind::ArraySet {
            array: a, index, ..
        } if a == array => inside(index),
        InstKind::ArrayLen(a) if a == array => Use::Local,
        ref other if other.operands().contains(&array) => Use::Escape,
        _ => Use::None,
    }
}

/// The arrays of `made` some use lets escape.
fn escaping(f: &Function, made: &[Made]) -> FxHashSet<Value> {
    let len: FxHashMap<Value, i64> = made
        .iter()
        .map(|a| (a.value, a.initial.len() as i64))
        .collect();
    let mut out = FxHashSet::default();
    for_each_array_use(
        f,
        |v| len.get(&v).copied(),
        false,
        |v, u| {
            if u == Use::Escape {
                out.insert(v);
            }
        },
    );
    out
}

/// Replaces `array`'s elements by variables over `region` (the blocks its
/// making dominates, in reverse post-order); the phis placed are added to
/// `placed`.
fn replace(f: &mut Function, array: &Made, region: &[Block], placed: &mut Vec<Value>) {
    let types: Vec<Ty> = array.initial.iter().map(|&v| f.value_ty(v)).collect();
    let len = array.initial.len() as i64;
    // The elements' values at the end of each block of the region.
    let mut at_end: FxHashMap<Block, Vec<Value>> = FxHashMap::default();
    let mut joins: Vec<(Block, Vec<Value>)> = Vec::new();
    for &b in region {
        let preds = &f.blocks[b].preds;
        let mut current = if b == array.block {
            Vec::new()
        } else if preds.len() == 1 {
            at_end[&preds[0]].clone()
        } else {
            let phis: Vec<Value> = (types.iter())
                .map(|&ty| f.add_phi(b, ty, smallvec![]))
                .collect();
            joins.push((b, phis.clone()));
            phis
        };
        let mut insts = std::mem::take(&mut f.blocks[b].insts);
        insts.retain(|&mut inst| !rewrite(f, inst, array, len, &mut current));
        f.blocks[b].insts = insts;
        at_end.insert(b, current);
    }
    for (b, phis) in joins {
        for (e, &phi) in phis.iter().enumerate() {
            let args = (f.blocks[b].preds.iter())
                // A predecessor outside the region is unreachable.
                .map(|p| at_end.get(p).map_or(phi, |vals| vals[e]))
                .collect();
            *f.phi_args_mut(phi).expect("a phi") = args;
        }
        placed.extend(phis);
    }
}

/// Applies `inst` to the elements' `current` values; whether it goes (the
/// making, reads and writes; a read's result then names the element's
/// value, a length becomes the constant).
fn rewrite(f: &mut Function, inst: Inst, array: &Made, len: i64, current: &mut Vec<Value>) -> bool {
    let element = |f: &Function, index: Value| f.int_constant(index).expect("constant") as usize;
    match f.insts[inst].kind {
        _ if inst == array.inst => {
            *current = array.initial.iter().map(|&v| f.resolve(v)).collect();
            true
        }
        InstKind::ArrayGet {
            array: a, index, ..
        } if a == array.value => {
            let result = f.insts[inst].result.expect("a read has a result");
            f.values[result].def = ValueDef::Alias(current[element(f, index)]);
            true
        }
        InstKind::ArraySet {
            array: a,
            index,
            value,
            ..
        } if a == array.value => {
            current[element(f, index)] = f.resolve(value);
            true
        }
        InstKind::ArrayLen(a) if a == array.value => {
            f.insts[inst].kind = InstKind::IConst(len);
            false
        }
        _ => false,
    }
}

/// Removes the phis of `placed` that no instruction, terminator or other
/// phi reads, directly or through phis of `placed` that are read.
fn drop_unread_phis(f: &mut Function, placed: &[Value]) {
    let ours: FxHashSet<Value> = placed.iter().copied().filter(|&p| f.is_phi(p)).collect();
    let mut read: FxHashSet<Value> = Default::default();
    let mut work = Vec::new();
    let mut note = |v: Value, work: &mut Vec<Value>| {
        if ours.contains(&v) && read.insert(v) {
            work.push(v);
        }
    };
    for &b in &f.layout {
        let data = &f.blocks[b];
        for &phi in data.phis.iter().filter(|p| !ours.contains(p)) {
            f.phi_args(phi).iter().for_each(|&a| note(a, &mut work));
        }
        for &inst in &data.insts {
            f.insts[inst].kind.for_each_operand(|v| note(v, &mut work));
        }
        if let Some(v) = data.term.as_ref().and_then(|t| t.operand()) {
            note(v, &mut work);
        }
    }
    while let Some(phi) = work.pop() {
        for &a in f.phi_args(phi).to_vec().iter() {
            note(a, &mut work);
        }
    }
    for &phi in ours.iter().filter(|p| !read.contains(p)) {
        let block = f.phi_block(phi).expect("a phi");
        f.blocks[block].phis.retain(|p| *p != phi);
        f.values[phi].def = ValueDef::Undef;
    }
}
