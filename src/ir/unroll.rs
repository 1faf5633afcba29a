//! Full unrolling of small counted loops (`-O2`), to enable scalar
//! replacement: an innermost loop of a header and one straight-line body,
//! counting from a constant to a constant bound (`for i in 0..4`, once
//! `ir::sizes` has made `len(v)` a constant), that runs at most
//! [`MAX_TRIPS`] times, copies into at most [`MAX_COPIED`] instructions,
//! and indexes with its counter an array the function makes with a
//! constant length of at most `scalars::MAX_ELEMENTS`, is replaced by its
//! iterations one after the other in its preheader. The counter is a
//! constant in each copy, so the array's accesses get constant indices
//! and `ir::scalars` turns it into SSA variables (the bonus LLVM's
//! full-unroll cost model gives loops over allocas); the loop's test and
//! branch are gone. Loops that would gain only the branch stay loops
//! (their code stays small, and vector loops stay vector loops).
//!
//! Each iteration copies the header's instructions (its test, whatever
//! else it computes) and then the body's, in order; the header's phis
//! take the values the body passed back. The header runs once more after
//! the last iteration, for the values the code after the loop reads.
//! Nothing is reordered, so errors (a failed check, a division by zero)
//! happen where and when they did.

use super::dom::DomTree;
use super::loops::{Loop, Loops};
use super::*;
use rustc_hash::FxHashMap;

/// Iterations of a loop unrolled, at most.
pub const MAX_TRIPS: i64 = 8;

/// Instructions the copies of a loop add, at most.
pub const MAX_COPIED: usize = 128;

/// Loops unrolled in one function, at most (each pass over the function
/// recomputes its loops).
const MAX_LOOPS: usize = 16;

/// Unrolls the small counted loops of every function.
pub fn unroll_loops(m: &mut Module) {
    for f in m.all_functions_mut() {
        unroll_in(f);
    }
}

fn unroll_in(f: &mut Function) {
    if !indexes_small_array_by_phi(f) {
        return;
    }
    // A body that ends in its own block for `continue` is one block then.
    tidy::merge_straight_blocks(f);
    let mut unrolled = 0;
    while unrolled < MAX_LOOPS {
        let dom = DomTree::compute(f);
        let loops = Loops::compute(f, &dom);
        let Some(plan) = loops.innermost_loops().find_map(|l| Plan::of(f, &loops, l)) else {
            break;
        };
        plan.apply(f);
        unrolled += 1;
    }
    if unrolled > 0 {
        tidy::tidy(f);
    }
}

/// A loop to unroll: its blocks, where it comes from and goes, and how
/// many times it runs.
struct Plan {
    preheader: Block,
    header: Block,
    body: Block,
    exit: Block,
    trips: i64,
}

impl Plan {
    fn of(f: &Function, loops: &Loops, l: Loop) -> Option<Plan> {
        let data = &loops.loops[l];
        let header = data.header;
        let counted = loops.counted(f, l)?;
        let body = counted.body;
        if data.blocks[..] != [header, body] || data.latches[..] != [body] {
            return None;
        }
        let preheader = loops.preheader(f, l)?;
        if f.blocks[preheader].term != Some(Terminator::Jump(header))
            || f.blocks[header].preds.len() != 2
        {
            return None;
        }
        let Some(Terminator::Branch {
            else_block: exit, ..
        }) = f.blocks[header].term
        else {
            return None;
        };
        let trips = counted.constant_trips(f)?;
        if !indexes_small_array(f, body, counted.counter.phi) {
            return None;
        }
        let size = f.blocks[header].insts.len() + f.blocks[body].insts.len();
        if trips > MAX_TRIPS || size * (trips as usize + 1) > MAX_COPIED {
            return None;
        }
        Some(Plan {
            preheader,
            header,
            body,
            exit,
            trips,
        })
    }

    fn apply(self, f: &mut Function) {
        let Plan {
            preheader,
            header,
            body,
            exit,
            trips,
        } = self;
        let from_body = f.blocks[header].preds.iter().position(|&p| p == body);
        let from_body = from_body.expect("the body jumps back");
        let from_outside = 1 - from_body;
        let mut map: FxHashMap<Value, Value> = FxHashMap::default();
        let phis = f.blocks[header].phis.clone();
        for &phi in &phis {
            map.insert(phi, f.phi_args(phi)[from_outside]);
        }
        let header_insts = f.blocks[header].insts.clone();
        let body_insts = f.blocks[body].insts.clone();
        for _ in 0..trips {
            copy_into(f, preheader, &header_insts, &mut map);
            copy_into(f, preheader, &body_insts, &mut map);
            let next: Vec<Value> = (phis.iter())
                .map(|&phi| resolve(&map, f.phi_args(phi)[from_body]))
                .collect();
            for (&phi, v) in phis.iter().zip(next) {
                map.insert(phi, v);
            }
        }
        copy_into(f, preheader, &header_insts, &mut map);
        // The header's values, read after the loop, are their last copies.
        let header_values: Vec<Value> = phis
            .iter()
            .copied()
            .chain(results(f, &header_insts))
            .collect();
        for v in header_values {
            f.values[v].def = ValueDef::Alias(resolve(&map, v));
        }
        f.blocks[preheader].term = Some(Terminator::Jump(exit));
        f.replace_pred(exit, header, preheader);
        f.layout.retain(|&b| b != header && b != body);
        f.resolve_aliases();
    }
}

/// Whether `body` reads or writes, at index `counter`, an array the
/// function makes with a constant length `ir::scalars` replaces: with
/// the counter a constant in each copy, the array becomes variables.
fn indexes_small_array(f: &Function, body: Block, counter: Value) -> bool {
    (f.blocks[body].insts.iter()).any(|&i| small_array_at(f, i).is_some_and(|ix| ix == counter))
}

/// Whether some access of `f` indexes such an array by a phi: the only
/// functions this pass may change (the others keep their blocks as
/// they are).
fn indexes_small_array_by_phi(f: &Function) -> bool {
    (f.layout.iter().flat_map(|&b| &f.blocks[b].insts))
        .any(|&i| small_array_at(f, i).is_some_and(|ix| f.is_phi(ix)))
}

/// The index of access `i` when its array is one the function makes with
/// a constant length of at most `scalars::MAX_ELEMENTS`.
fn small_array_at(f: &Function, i: Inst) -> Option<Value> {
    let (InstKind::ArrayGet { array, index, .. } | InstKind::ArraySet { array, index, .. }) =
        f.insts[i].kind
    else {
        return None;
    };
    let len = f
        .def_kind(array)
        .and_then(|made| lengths::made_with_length(f, made));
    len.filter(|n| (1..=scalars::MAX_ELEMENTS).contains(n))
        .map(|_| index)
}

fn resolve(map: &FxHashMap<Value, Value>, v: Value) -> Value {
    map.get(&v).copied().unwrap_or(v)
}

fn results<'a>(f: &'a Function, insts: &'a [Inst]) -> impl Iterator<Item = Value> + 'a {
    insts.iter().filter_map(|&i| f.insts[i].result)
}

/// Appends copies of `insts` to `block`, their operands mapped through
/// `map`, which learns each copy's result.
fn copy_into(f: &mut Function, block: Block, insts: &[Inst], map: &mut FxHashMap<Value, Value>) {
    for &i in insts {
        let mut kind = f.insts[i].kind.clone();
        kind.map_operands(|v| resolve(map, v));
        let data = InstData {
            kind,
            result: None,
            loc: f.insts[i].loc,
        };
        let copy = f.insts.push(data);
        if let Some(r) = f.insts[i].result {
            let ty = f.value_ty(r);
            let v = f.values.push(ValueData {
                ty,
                def: ValueDef::Inst(copy),
            });
            f.insts[copy].result = Some(v);
            map.insert(r, v);
        }
        f.blocks[block].insts.push(copy);
    }
}
