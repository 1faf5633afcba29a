//! Full unrolling of small counted loops (`-O2`), to enable scalar
//! replacement and the folding of table reads.
//!
//! For scalar replacement: an innermost loop of a header and one
//! straight-line body, counting from a constant to a constant bound (`for i in 0..4`, once
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
//! For tables (`ir::constants`): an innermost counted loop of any body
//! (branches, calls but of a recursive function; it leaves only through
//! its header) from a constant
//! to a constant of at most [`MAX_TRIPS`] trips and [`MAX_COPIED_TABLE`]
//! copied instructions, that reads a table at its counter and computes
//! with what it reads (a grid's direction offsets, `x + dx[k]`): in each
//! copy the reads become the table's elements, and what they feed folds.
//!
//! For their own sake (pass `unroll-small`, after inlining, so that a
//! helper's loop does not make it too large to inline): an innermost
//! counted loop of any body without calls, of at most
//! [`MAX_SMALL_TRIPS`] trips and [`MAX_COPIED_SMALL`] copied
//! instructions (`for i in 0..4` over a 4-vector).
//!
//! Trips come from the loop's counter ([`Loops::counted`]), or else by
//! running its test ([`Loops::evaluated_trips`]: `s *= 2` while
//! `s < 64`, `k -= 1` while `k > 0`).
//!
//! Each iteration copies the header's instructions (its test, whatever
//! else it computes) and then the body's blocks, in order, the first
//! entered from the header's copy and the latch jumping to the next one;
//! the header's phis take the values the body passed back. The header
//! runs once more after the last iteration, for the values the code
//! after the loop reads.
//! Nothing is reordered, so errors (a failed check, a division by zero)
//! happen where and when they did.

use super::loops::{Loop, Loops};
use super::semantics::Const;
use super::*;
use rustc_hash::FxHashMap;

/// Iterations of a loop unrolled, at most.
pub const MAX_TRIPS: i64 = 8;

/// Instructions the copies of a loop add, at most.
pub const MAX_COPIED: usize = 128;

/// Instructions the copies of a loop that reads a table at its counter
/// add, at most: the reads, and what they feed, fold in each copy.
const MAX_COPIED_TABLE: usize = 400;

/// Trips of a loop unrolled for its own sake (`unroll-small`: its
/// counter a constant in each copy, `a[i]` of a 4-vector, `T[u * 8 + x]`
/// of a small matrix, `i * dr`), at most, and the instructions its copies
/// add, as GCC's complete unrolling of loops with few iterations
/// (`cunroll`) allows. Not a loop that calls: its calls would leave the
/// loop, where the inliner weighs calls as run once.
const MAX_SMALL_TRIPS: i64 = 8;
const MAX_COPIED_SMALL: usize = 128;

/// Loops unrolled in one function, at most (each pass over the function
/// recomputes its loops).
const MAX_LOOPS: usize = 16;

/// Unrolls the loops of `f` whose copies make a small array or a
/// table's reads constant-indexed.
pub fn unroll_loops(f: &mut Function, facts: &Facts) {
    unroll_in(f, facts, false);
}

/// [`unroll_loops`], and also loops of few trips for their own sake:
/// after inlining, which weighs a function by its size.
pub fn unroll_small_loops(f: &mut Function, facts: &Facts) {
    unroll_in(f, facts, true);
}

fn unroll_in(f: &mut Function, facts: &Facts, small: bool) {
    if indexes_small_array_by_phi(f) {
        // A body that ends in its own block for `continue` is one block
        // then, and straight-line.
        tidy::merge_straight_blocks(f);
    }
    // No loop forest for a function without loops (a recursive function
    // unrolled is one): its dominator tree, kept, serves the passes after.
    if f.dom_tree().is_acyclic() {
        return;
    }
    let mut unrolled = 0;
    // Innermost loops share no block, and unrolling one changes only its
    // own blocks and the edges into and out of it: the plans of one loop
    // forest hold for all of its innermost loops. A loop whose inner
    // loops were all unrolled is innermost in the next forest.
    while unrolled < MAX_LOOPS {
        let loops = f.loops();
        let plans: Vec<Plan> = (loops.innermost_loops())
            .filter_map(|l| Plan::of(f, &loops, l, facts, small))
            .take(MAX_LOOPS - unrolled)
            .collect();
        if plans.is_empty() {
            break;
        }
        unrolled += plans.len();
        for plan in plans {
            plan.apply(f);
        }
    }
    if unrolled > 0 {
        // Folding makes the copies' counters constants, then their table
        // reads become constants too.
        tidy::tidy(f);
        if constants::fold_table_reads(f, &facts.tables) {
            tidy::tidy(f);
        }
    }
}

/// A loop to unroll: its blocks, where it comes from and goes, and how
/// many times it runs.
struct Plan {
    preheader: Block,
    header: Block,
    /// The loop's blocks but its header, in reverse post-order (the
    /// header's target while the test holds first).
    body: Vec<Block>,
    latch: Block,
    exit: Block,
    trips: i64,
}

impl Plan {
    fn of(f: &Function, loops: &Loops, l: Loop, facts: &Facts, small: bool) -> Option<Plan> {
        let data = &loops.loops[l];
        let header = data.header;
        // Its trips, and the header phi that is a constant in each copy.
        let (phi, first, trips) = match loops.counted(f, l) {
            Some(counted) => {
                let trips = counted.constant_trips(f)?;
                (counted.counter.phi, counted.body, trips)
            }
            None => {
                let evaluated = loops.evaluated_trips(f, l, MAX_TRIPS)?;
                (evaluated.phi, evaluated.body, evaluated.trips)
            }
        };
        let [latch] = data.latches[..] else {
            return None;
        };
        if trips > MAX_TRIPS {
            return None;
        }
        let body: Vec<Block> = data.blocks[1..].to_vec();
        // Only the header leaves the loop, and only the latch goes back.
        let inside = |b: Block, s: Block| (s != header || b == latch) && loops.contains(l, s);
        if body.first() != Some(&first)
            || !(body.iter()).all(|&b| f.successors(b).iter().all(|&s| inside(b, s)))
        {
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
        // Copies of a straight-line body that makes a small array
        // variables; of any body whose table reads become constants.
        let limit = if body.len() == 1 && indexes_small_array(f, &body, phi) {
            MAX_COPIED
        } else if reads_table(f, &body, phi, &facts.tables)
            && !calls_recursive(f, &body, &facts.recursive)
        {
            MAX_COPIED_TABLE
        } else if small && trips <= MAX_SMALL_TRIPS && !calls(f, &body) {
            MAX_COPIED_SMALL
        } else {
            return None;
        };
        let size: usize = (std::iter::once(&header).chain(&body))
            .map(|&b| f.blocks[b].insts.len() + f.blocks[b].phis.len())
            .sum();
        if size * (trips as usize + 1) > limit {
            return None;
        }
        Some(Plan {
            preheader,
            header,
            body,
            latch,
            exit,
            trips,
        })
    }

    /// Replaces the loop by `trips` copies of its header's instructions
    /// and its body, then one more of the header's instructions, each
    /// copy of the body its own blocks, entered from the block before it.
    fn apply(self, f: &mut Function) {
        let Plan {
            preheader,
            header,
            body,
            latch,
            exit,
            trips,
        } = self;
        let from_latch = f.blocks[header].preds.iter().position(|&p| p == latch);
        let from_latch = from_latch.expect("the latch jumps back");
        let from_outside = 1 - from_latch;
        let mut map: FxHashMap<Value, Value> = FxHashMap::default();
        let phis = f.blocks[header].phis.clone();
        for &phi in &phis {
            map.insert(phi, f.phi_args(phi)[from_outside]);
        }
        let header_insts = f.blocks[header].insts.clone();
        let mut at = preheader;
        let mut made = Vec::new();
        for _ in 0..trips {
            copy_into(f, at, &header_insts, &mut map);
            let next = f.blocks.push(BlockData::default());
            let blocks = copy_blocks(f, &body, at, next, &mut map);
            f.blocks[at].term = Some(Terminator::Jump(blocks[0]));
            let latch_copy = blocks[body.iter().position(|&b| b == latch).expect("in the body")];
            f.blocks[next].preds = smallvec![latch_copy];
            let values: Vec<Value> = (phis.iter())
                .map(|&phi| resolve(&map, f.phi_args(phi)[from_latch]))
                .collect();
            for (&phi, v) in phis.iter().zip(values) {
                map.insert(phi, v);
            }
            made.extend(blocks);
            made.push(next);
            at = next;
        }
        copy_into(f, at, &header_insts, &mut map);
        // The header's values, read after the loop, are their last copies.
        let header_values: Vec<Value> = phis
            .iter()
            .copied()
            .chain(results(f, &header_insts))
            .collect();
        for v in header_values {
            f.values[v].def = ValueDef::Alias(resolve(&map, v));
        }
        f.blocks[at].term = Some(Terminator::Jump(exit));
        f.replace_pred(exit, header, at);
        let place = f.layout.iter().position(|&b| b == header);
        let place = place.expect("the header is laid out");
        f.layout.retain(|&b| b != header && !body.contains(&b));
        f.layout.splice(place..place, made);
        f.resolve_aliases();
    }
}

/// Copies `body` (acyclic, in reverse post-order) into new blocks, the
/// edge from the header into it coming from `from` and the latch's jump
/// back going to `next`; `map` learns the copies' values. The copies, in
/// `body`'s order.
fn copy_blocks(
    f: &mut Function,
    body: &[Block],
    from: Block,
    next: Block,
    map: &mut FxHashMap<Value, Value>,
) -> Vec<Block> {
    let copies: Vec<Block> = body
        .iter()
        .map(|_| f.blocks.push(BlockData::default()))
        .collect();
    let copy = |b: Block| body.iter().position(|&c| c == b).map(|k| copies[k]);
    // Edges into the body come from the header or the body; edges out of
    // it go to the body or back to the header.
    let pred = |b: Block| copy(b).unwrap_or(from);
    let target = |b: Block| copy(b).unwrap_or(next);
    for (&b, &nb) in body.iter().zip(&copies) {
        f.blocks[nb].preds = f.blocks[b].preds.iter().map(|&p| pred(p)).collect();
        for k in 0..f.blocks[b].phis.len() {
            let phi = f.blocks[b].phis[k];
            let args = f.phi_args(phi).iter().map(|&a| resolve(map, a)).collect();
            let copy = f.add_phi(nb, f.value_ty(phi), args);
            map.insert(phi, copy);
        }
        let insts = f.blocks[b].insts.clone();
        copy_into(f, nb, &insts, map);
        let mut term = f.blocks[b].term.clone().expect("terminated");
        term.map_operands(|v| resolve(map, v));
        f.blocks[nb].term = Some(term.map_blocks(target));
    }
    copies
}

/// Whether `body` calls a function.
fn calls(f: &Function, body: &[Block]) -> bool {
    (body.iter().flat_map(|&b| &f.blocks[b].insts))
        .any(|&i| matches!(f.insts[i].kind, InstKind::Call(..)))
}

/// Whether `body` calls a function on a cycle of the call graph: such a
/// call stays a call (the inliner copies none), and a call's frame,
/// saved registers and the callee's own work outweigh the test, branch
/// and table reads an unrolled iteration saves, while the copies add to
/// the compile time of every pass after.
fn calls_recursive(f: &Function, body: &[Block], recursive: &[bool]) -> bool {
    (body.iter().flat_map(|&b| &f.blocks[b].insts)).any(|&i| match f.insts[i].kind {
        InstKind::Call(g, _) => recursive.get(g as usize).copied().unwrap_or(true),
        _ => false,
    })
}

/// Whether `body` reads a table (`ir::constants`) at index `counter`
/// and computes with what it reads: with the counter a constant in each
/// copy, the reads become constants, and so does what they feed (`x +
/// dx[k]` an offset of `x`). Reads that only reach calls, prints and
/// stores gain nothing from being constants.
fn reads_table(
    f: &Function,
    body: &[Block],
    counter: Value,
    tables: &FxHashMap<GlobalRef, Vec<Const>>,
) -> bool {
    let insts = || body.iter().flat_map(|&b| &f.blocks[b].insts);
    let reads: SmallVec<[Value; 4]> = insts()
        .filter_map(|&i| match f.insts[i].kind {
            InstKind::ArrayGet { array, index, .. }
                if index == counter && constants::table_of(f, tables, array).is_some() =>
            {
                f.insts[i].result
            }
            _ => None,
        })
        .collect();
    !reads.is_empty() && insts().any(|&i| computes_with(&f.insts[i].kind, &reads))
}

/// Whether `kind` computes with one of `values` (arithmetic, a compare, a
/// choice, an index), so that it folds when they are constants.
fn computes_with(kind: &InstKind, values: &[Value]) -> bool {
    match *kind {
        InstKind::Unary(_, a) => values.contains(&a),
        InstKind::Binary(_, a, b) => values.contains(&a) || values.contains(&b),
        InstKind::Select { .. } => kind.operands().iter().any(|v| values.contains(v)),
        InstKind::ArrayGet { index, .. } | InstKind::ArraySet { index, .. } => {
            values.contains(&index)
        }
        _ => false,
    }
}

/// Whether `body` reads or writes, at index `counter`, an array the
/// function makes with a constant length `ir::scalars` replaces: with
/// the counter a constant in each copy, the array becomes variables.
fn indexes_small_array(f: &Function, body: &[Block], counter: Value) -> bool {
    (body.iter().flat_map(|&b| &f.blocks[b].insts))
        .any(|&i| small_array_at(f, i).is_some_and(|ix| ix == counter))
}

/// Whether some access of `f` indexes such an array by a phi: the
/// functions whose straight blocks are merged first (the others keep
/// their blocks as they are).
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
