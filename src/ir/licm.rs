//! Loop-invariant loads of array elements and globals, hoisted to their
//! loop's preheader (`-O2`).
//!
//! A global the loop neither stores nor can have stored by a call (the
//! loop calls nothing, or, in a whole program, only functions whose
//! `ir::alias` effects do not store it) reads the same on every
//! iteration: its load goes
//! to the preheader (top-level code's variables are globals, so this is
//! most of what a top-level loop reads). So does the length of an array
//! defined outside the loop that the loop's header computes (`while i <
//! len(a)`): with its bound before the loop, the loop is counted
//! (`ir::loops`) and can be versioned.
//!
//! Cranelift hoists pure arithmetic and array lengths (read-only loads)
//! out of loops itself, but not element loads, which a store may change.
//! A `get a[i]` runs once before its loop instead of once per iteration
//! when:
//!
//! - `a` and `i` are invariant: defined outside the loop, or by a load
//!   hoisted before it, or `i` is a constant (which goes along);
//! - no store of the loop, or of a function it calls, may change it: a
//!   Toy array holds elements of one type all its life, so only a store
//!   of that type could, and only to an array of the load's alias class
//!   (`ir::alias`); a call of a function without known effects may store
//!   anything;
//! - it needs no bounds check where it lands: `ir::bounds` proves it in
//!   bounds at the end of the preheader ([`bounds::Prover`]). A load
//!   whose check could fail stays in the loop, since a check moved before
//!   the loop would report an error the program might never reach;
//!   `ir::version` hoists those behind guards. A proven load may run when
//!   the loop would not: it reads memory of the array, and nothing sees it.
//!
//! Loops are visited innermost first, so that a load leaves every loop it
//! is invariant in. Hoisted loads are marked unchecked. A hoisted value
//! holds a register through the whole loop; at most
//! [`MAX_HOISTED_PER_LOOP`] leave one loop, so that the loop's own values
//! keep theirs (a value spilled and reloaded every iteration would cost
//! what the hoisting saved).

use super::alias::Effects;
use super::bounds::Prover;
use super::dom::DomTree;
use super::loops::{Loop, Loops};
use super::*;
use rustc_hash::FxHashMap;

/// Loads hoisted out of one loop, at most: well below the registers of
/// either kind a loop has on x86-64 and aarch64 (15 and 16 or more).
const MAX_HOISTED_PER_LOOP: usize = 6;

/// Hoists the invariant loads of `f` (see the module's comment).
pub fn hoist_loads(f: &mut Function, effects: &[Effects]) {
    if !f.any_inst(InstKind::is_read) {
        return;
    }
    let (dom, loops) = f.dom_and_loops();
    let moves = plan_moves(f, &dom, &loops, effects);
    for (inst, from, to) in moves {
        let at = (f.blocks[from].insts.iter())
            .position(|&i| i == inst)
            .expect("in its block");
        f.blocks[from].insts.remove(at);
        f.blocks[to].insts.push(inst);
        if let InstKind::ArrayGet { checked, .. } = &mut f.insts[inst].kind {
            *checked = false;
        }
    }
}

/// The instructions to move, in order: each with the block it is in (by
/// then) and its loop's preheader.
fn plan_moves(
    f: &Function,
    dom: &DomTree,
    loops: &Loops,
    effects: &[Effects],
) -> Vec<(Inst, Block, Block)> {
    let mut prover: Option<Prover> = None;
    let mut moves = Vec::new();
    // Where the moves so far put an instruction, and what they added to
    // each block.
    let mut moved_to: FxHashMap<Inst, Block> = FxHashMap::default();
    let mut added: FxHashMap<Block, Vec<Inst>> = FxHashMap::default();
    for l in innermost_first(loops) {
        let Some(preheader) = loops.preheader(f, l) else {
            continue;
        };
        let Some(stores) = loops.stores(f, l, effects) else {
            continue;
        };
        let header = loops.loops[l].header;
        let block_of = |moved_to: &FxHashMap<Inst, Block>, v: Value| match f.values[v].def {
            ValueDef::Inst(i) => (moved_to.get(&i).copied()).or_else(|| loops.def_block(f, v)),
            _ => loops.def_block(f, v),
        };
        // What the loads hoisted so far read: another load of the same
        // place takes no register of its own (`ir::reuse` makes it the
        // first one's value).
        let mut hoisted: Vec<Place> = Vec::new();
        for &b in &loops.loops[l].blocks {
            // The block's own instructions not moved, and those moved here
            // from inner loops that stayed.
            let stayed = |i: &Inst| moved_to.get(i) == Some(&b);
            let here = (f.blocks[b].insts.iter().copied())
                .filter(|i| !moved_to.contains_key(i))
                .chain(added.get(&b).into_iter().flatten().copied().filter(stayed));
            for inst in here.collect::<Vec<_>>() {
                let place = place_of(f, inst);
                if hoisted.len() == MAX_HOISTED_PER_LOOP && !hoisted.contains(&place) {
                    continue;
                }
                // The instructions to move: the load, after a constant
                // index made in the loop, which goes along.
                let outside_loop =
                    |v: Value| block_of(&moved_to, v).is_none_or(|d| !loops.contains(l, d));
                let to_move: SmallVec<[Inst; 2]> = match f.insts[inst].kind {
                    InstKind::LoadGlobal(g) if !stores.globals.contains(&g) => smallvec![inst],
                    // The length a loop's test compares with (`while i <
                    // len(a)`): before the loop, the loop is counted.
                    InstKind::ArrayLen(array) if b == header && outside_loop(array) => {
                        smallvec![inst]
                    }
                    InstKind::ArrayGet { array, index, .. } => {
                        let constant = match f.values[index].def {
                            ValueDef::Inst(i)
                                if !outside_loop(index) && f.constant(index).is_some() =>
                            {
                                Some(i)
                            }
                            _ => None,
                        };
                        let ty = f.value_ty(f.insts[inst].result.expect("a get has a result"));
                        let invariant = !stores.may_change(f, array, ty)
                            && outside_loop(array)
                            && (outside_loop(index) || constant.is_some());
                        if !invariant
                            || !(prover.get_or_insert_with(|| Prover::new(f, dom, loops)))
                                .in_bounds_at_end(array, index, preheader)
                        {
                            continue;
                        }
                        constant.into_iter().chain([inst]).collect()
                    }
                    _ => continue,
                };
                if !hoisted.contains(&place) {
                    hoisted.push(place);
                }
                for i in to_move {
                    let from = block_of(&moved_to, f.insts[i].result.expect("a result"))
                        .expect("in a block");
                    moves.push((i, from, preheader));
                    moved_to.insert(i, preheader);
                    added.entry(preheader).or_default().push(i);
                }
            }
        }
    }
    moves
}

/// What a hoisted instruction reads, for counting the registers hoisting
/// takes: a global, an element by its array and index (a constant index
/// by its value, as the copies of one constant are one value to
/// Cranelift), or an array's length.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Global(GlobalRef),
    Element(Value, Result<i64, Value>),
    Length(Value),
    Other(Inst),
}

fn place_of(f: &Function, inst: Inst) -> Place {
    match f.insts[inst].kind {
        InstKind::LoadGlobal(g) => Place::Global(g),
        InstKind::ArrayGet { array, index, .. } => {
            Place::Element(array, f.int_constant(index).ok_or(index))
        }
        InstKind::ArrayLen(array) => Place::Length(array),
        _ => Place::Other(inst),
    }
}

/// Every loop, each after the loops nested in it (the forest numbers a
/// loop before the loops nested in it).
fn innermost_first(loops: &Loops) -> Vec<Loop> {
    let mut order: Vec<Loop> = loops.loops.keys().collect();
    order.reverse();
    order
}
