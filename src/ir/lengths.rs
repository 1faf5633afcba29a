//! Where a bounds check finds its array's length other than in the
//! array's header, read at the check.
//!
//! - **Known lengths.** An array made by `[x; n]` with a constant `n`, or
//!   by a literal, has that length for its whole life (a Toy array never
//!   grows or shrinks); so does a phi all of whose operands have the same
//!   known length (two rows swapped on every iteration). Its checks compare
//!   against a constant, which needs no load and no register. Found
//!   optimistically, as sparse conditional constant propagation finds
//!   constants (Wegman and Zadeck 1991): a phi is assumed to have its
//!   operands' length until an operand disagrees, so cycles of phis keep
//!   theirs.
//! - **Lengths loaded before a loop.** An array the loop does not redefine
//!   has the same length on every iteration. Its length is loaded once, at
//!   the end of the preheader of the outermost loop the array is invariant
//!   in, and every check in that loop compares against the loaded value.
//!   Cranelift merges repeated header loads only until the next call, and
//!   hoists none while a collection can run (`translate::load_len`); a
//!   length is an integer, so keeping it across a collection is safe while
//!   the array is live, which it is wherever it is checked.

use super::loops::{Loop, Loops};
use super::semantics::Const;
use super::*;
use rustc_hash::{FxHashMap, FxHashSet};

#[derive(Clone, Debug, Default)]
pub struct Lengths {
    /// Arrays whose length is known at compile time.
    pub known: FxHashMap<Value, i64>,
    /// At the end of a loop's preheader: the arrays whose length is loaded
    /// there for the checks in that loop, in the order first checked.
    pub loaded_before: FxHashMap<Block, Vec<(Value, Loop)>>,
}

/// The lengths of `f`'s arrays for its checks. `checked(inst)`: whether
/// the access `inst` is checked where it stands (not proven in bounds).
pub fn lengths(f: &Function, loops: &Loops, checked: impl Fn(Inst) -> bool) -> Lengths {
    let mut lengths = Lengths {
        known: known_lengths(f),
        ..Lengths::default()
    };
    if loops.loops.is_empty() {
        return lengths;
    }
    // An array's length is loaded for the first loop that checks it only:
    // a later sibling loop loads it at its checks.
    let mut loaded: FxHashSet<Value> = FxHashSet::default();
    for &block in &f.layout {
        let Some(inner) = loops.innermost(block) else {
            continue;
        };
        for &inst in &f.blocks[block].insts {
            let array = match f.insts[inst].kind {
                InstKind::ArrayGet {
                    array,
                    checked: true,
                    ..
                }
                | InstKind::ArraySet {
                    array,
                    checked: true,
                    ..
                } if checked(inst) => array,
                InstKind::ArrayLen(array) => array,
                _ => continue,
            };
            if lengths.known.contains_key(&array) || loaded.contains(&array) {
                continue;
            }
            let Some((l, preheader)) = outermost_invariant(f, loops, inner, array) else {
                continue;
            };
            loaded.insert(array);
            let before = lengths.loaded_before.entry(preheader).or_default();
            before.push((array, l));
        }
    }
    lengths
}

/// The outermost loop around `inner` (itself included) that `array` is
/// invariant in and that has a preheader, with that preheader.
fn outermost_invariant(
    f: &Function,
    loops: &Loops,
    inner: Loop,
    array: Value,
) -> Option<(Loop, Block)> {
    let mut found = None;
    let mut at = Some(inner);
    while let Some(l) = at {
        if !loops.is_invariant(f, l, array) {
            break;
        }
        if let Some(preheader) = loops.preheader(f, l) {
            found = Some((l, preheader));
        }
        at = loops.loops[l].parent;
    }
    found
}

/// What is known of an array's length while the analysis runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Known {
    /// Not yet seen (a phi none of whose operands is decided).
    Unseen,
    Length(i64),
    Unknown,
}

impl Known {
    fn meet(self, other: Known) -> Known {
        match (self, other) {
            (Known::Unseen, k) | (k, Known::Unseen) => k,
            (Known::Length(a), Known::Length(b)) if a == b => Known::Length(a),
            _ => Known::Unknown,
        }
    }
}

/// The arrays whose length is a compile-time constant.
fn known_lengths(f: &Function) -> FxHashMap<Value, i64> {
    let mut state: FxHashMap<Value, Known> = FxHashMap::default();
    for &p in &f.params {
        if let Some(len) = f.known_length(p) {
            state.insert(p, Known::Length(len));
        }
    }
    let mut phis = Vec::new();
    for &block in &f.layout {
        let data = &f.blocks[block];
        for &inst in &data.insts {
            let d = &f.insts[inst];
            let Some(r) = d.result else {
                continue;
            };
            // Made here with a constant length, or of a class whose arrays
            // all have one (`ir::alias`).
            let Some(len) = made_with_length(f, &d.kind).or_else(|| f.known_length(r)) else {
                continue;
            };
            state.insert(r, Known::Length(len));
        }
        phis.extend(data.phis.iter().filter(|&&p| f.value_ty(p) == Ty::Array));
    }
    if state.is_empty() {
        return FxHashMap::default();
    }
    // Optimistic: every phi starts unseen and only falls (unseen, then a
    // length, then unknown), so the loop ends.
    let of = |state: &FxHashMap<Value, Known>, v: Value| match f.values[v].def {
        ValueDef::Phi(_) => state.get(&v).copied().unwrap_or(Known::Unseen),
        _ => state.get(&v).copied().unwrap_or(Known::Unknown),
    };
    let mut changed = true;
    while changed {
        changed = false;
        for &phi in &phis {
            let args = f.phi_args(phi);
            let met = (args.iter().filter(|&&a| a != phi))
                .fold(Known::Unseen, |k, &a| k.meet(of(&state, a)));
            if of(&state, phi) != met {
                state.insert(phi, met);
                changed = true;
            }
        }
    }
    (state.into_iter())
        .filter_map(|(v, k)| match k {
            Known::Length(n) => Some((v, n)),
            _ => None,
        })
        .collect()
}

/// The length of the array `kind` makes, when known at compile time.
pub(crate) fn made_with_length(f: &Function, kind: &InstKind) -> Option<i64> {
    match *kind {
        InstKind::NewArray { len, .. } => match f.constant(len) {
            // A negative length fails at run time: no array is made.
            Some(Const::Int(n)) if n >= 0 => Some(n),
            _ => None,
        },
        InstKind::ArrayLit(ref elems) | InstKind::Renew { ref elems, .. } => {
            Some(elems.len() as i64)
        }
        _ => None,
    }
}
