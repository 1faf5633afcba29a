//! If-conversion (`-O2`): a branch whose arms only compute becomes
//! straight-line code choosing with `select` — the phi folding of LLVM's
//! SimplifyCFG (`FoldTwoEntryPHINode`) and GCC's `phiopt`.
//!
//! A block `h` ending in `branch c, t, e` is converted when the join `j`
//! after it is reached only from the two sides of that branch:
//!
//! ```text
//! diamond:  h → a → j, h → b → j        triangle:  h → a → j, h → j
//! ```
//!
//! and the arms (`a`, `b`: one predecessor each, no phis, a jump to `j`)
//! hold only instructions that can run whatever `c` is — pure, unable to
//! stop the program (no division: `x / 0` must fail only on its own
//! path), not a runtime call (`%` on floats), or reads proven in bounds. The arms' instructions
//! move to the end of `h`, each phi of `j` becomes
//! `select c, <from the true side>, <from the false side>`, and `j` is
//! appended to `h`.
//!
//! Why: both arms of a running maximum, a minimum of three or a
//! conditional step cost one or two instructions, less than a branch the
//! processor mispredicts, and Cranelift lowers a select to a conditional
//! move (or `maxsd`/`minsd` for `a < b ? b : a` on floats). Arms are
//! limited to [`MAX_SPECULATED`] instructions between them, since both now
//! run every time.
//!
//! An `else if` chain joins all its arms in one block; two arms of one
//! branch that join with others first get a join of their own
//! ([`split_join`]), so that chains convert from the inside out. Reads
//! proven in bounds (unchecked) may run on either side.
//!
//! A chain of conditional steps (a count of the conditions that hold:
//! `if a { n += 1; } if b { n += 1; }`) is then taken apart
//! ([`separate_chained_steps`]): `n + (b ? 1 : 0)`, one addition per step
//! on the chain's critical path.
//!
//! A branch stays one where its selects would lengthen a recurrence of
//! the loop around it ([`keeps_branch`]): a running choice of a long
//! innermost loop (a minimum and its index: `if c < best { best = c; at
//! = k; }`), or a choice whose test waits for a nested loop or a call.
//!
//! The pass runs late (only `ir::switch`, which takes the chains it
//! leaves, follows): `ir::licm` and `ir::version` look for loops by
//! their branches and are done by then; `ir::bounds` treats a select as
//! it treats a phi.

use super::loops::{Loop, Loops};
use super::semantics::Const;
use super::*;
use crate::entity::SecondaryMap;
use rustc_hash::FxHashSet;

/// Instructions (constants not counted) the two arms may hold together:
/// a mispredicted branch costs some 15 to 20 cycles, in which a core runs
/// about six simple instructions besides the rest of the iteration;
/// beyond that, running both arms costs more than the branch did.
const MAX_SPECULATED: usize = 6;

/// Iterations from which a loop's running choice is taken to change
/// seldom enough for a branch ([`updates_running_choice`]): over 32
/// random values a minimum changes on about 4 (an eighth: at 15 to 20
/// cycles a misprediction, some 2 cycles an iteration, what the compare
/// and the conditional move add to its critical path).
const MIN_RUNNING_TRIPS: i64 = 32;

/// Phis a join may have: each becomes a select.
const MAX_SELECTS: usize = 4;

/// A branch to convert: its join, the predecessor of the join on each
/// side (`h` itself for a triangle's empty side), and the arms to move.
struct Shape {
    join: Block,
    true_pred: Block,
    false_pred: Block,
    arms: SmallVec<[Block; 2]>,
}

/// Converts the branches of `f`, inner ones first: converting an inner
/// diamond can leave its enclosing arm straight-line.
pub fn form_selects(f: &mut Function) {
    // Made when first needed; converting acyclic branches leaves the
    // loop headers as they are.
    let mut loops: Option<Loops> = None;
    // The block of each instruction, kept as conversions move them.
    let mut homes: Option<SecondaryMap<Inst, Option<Block>>> = None;
    let mut converted = false;
    loop {
        let mut any = false;
        let mut bi = f.layout.len();
        while bi > 0 {
            bi -= 1;
            let Some(&h) = f.layout.get(bi) else {
                continue;
            };
            if split_join(f, h, &mut loops) {
                any = true;
            }
            let Some(shape) = shape_at(f, h) else {
                continue;
            };
            let loops = loops.get_or_insert_with(|| f.loops());
            let homes = homes.get_or_insert_with(|| inst_blocks(f));
            if keeps_branch(f, loops, homes, h, &shape) {
                continue;
            }
            convert(f, h, shape);
            // The arms' and the join's instructions, and the selects.
            for &i in &f.blocks[h].insts {
                homes[i] = Some(h);
            }
            any = true;
        }
        if !any {
            break;
        }
        converted = true;
    }
    if converted {
        f.resolve_aliases();
        separate_chained_steps(f);
        // The steps taken apart (`x + k`) are left unused.
        super::tidy::remove_dead_pure_insts(f);
    }
}

/// Gives the two sides of one branch that join with other paths a join
/// of their own (an `else if` chain joins all its arms in one block):
/// `h → a, h → b, a → j, b → j, c → j` becomes `a → k, b → k, k → j`,
/// the part of `j`'s phis from `a` and `b` in phis of `k`; likewise a
/// triangle, `h → a → j, h → j` (an `else if` without a final `else`).
/// Whether `h` (a branch block) was such a branch.
fn split_join(f: &mut Function, h: Block, loops: &mut Option<Loops>) -> bool {
    let Some((a, b)) = branch_targets(f, h) else {
        return false;
    };
    // The join, the arms to move, and the join's predecessor on each side.
    let (j, arms, (pa, pb)) = match (arm_target(f, h, a), arm_target(f, h, b)) {
        (Some(j), Some(k)) if j == k => (j, vec![a, b], (a, b)),
        (Some(j), _) if j == b => (j, vec![a], (a, h)),
        (_, Some(j)) if j == a => (j, vec![b], (h, b)),
        _ => return false,
    };
    // Split only where the diamond or triangle made will be converted.
    let cheap = speculated(f, &arms) <= MAX_SPECULATED && f.blocks[j].phis.len() <= MAX_SELECTS;
    if f.blocks[j].preds.len() <= 2 || !cheap {
        return false;
    }
    // Not a loop's header: its latches stay as they are.
    let loops = loops.get_or_insert_with(|| f.loops());
    if loops.is_header(j) {
        return false;
    }
    let at = |p: Block| (f.blocks[j].preds.iter()).position(|&q| q == p);
    let (from_a, from_b) = (
        at(pa).expect("pa jumps to j"),
        at(pb).expect("pb jumps to j"),
    );
    let join = f.blocks.push(BlockData::default());
    f.layout.push(join);
    for phi in f.blocks[j].phis.clone() {
        let args = f.phi_args(phi);
        let merged = smallvec![args[from_a], args[from_b]];
        let ty = f.value_ty(phi);
        let inner = f.add_phi(join, ty, merged);
        let args = f.phi_args_mut(phi).expect("a live phi");
        args[from_a] = inner;
        args.remove(from_b);
    }
    f.blocks[j].preds[from_a] = join;
    f.blocks[j].preds.remove(from_b);
    f.blocks[join].preds = smallvec![pa, pb];
    f.blocks[join].term = Some(Terminator::Jump(j));
    for p in [pa, pb] {
        f.retarget(p, j, join);
    }
    loops.add_block_before(join, j);
    true
}

/// The two targets of the branch ending `h`, if it ends in one to two
/// different blocks.
fn branch_targets(f: &Function, h: Block) -> Option<(Block, Block)> {
    match f.blocks[h].term {
        Some(Terminator::Branch {
            then_block,
            else_block,
            ..
        }) if then_block != else_block => Some((then_block, else_block)),
        _ => None,
    }
}

/// The shape of the branch ending `h`, if it can be converted.
fn shape_at(f: &Function, h: Block) -> Option<Shape> {
    let (t, e) = branch_targets(f, h)?;
    let shape = match (arm_target(f, h, t), arm_target(f, h, e)) {
        (Some(j), Some(k)) if j == k => Shape {
            join: j,
            true_pred: t,
            false_pred: e,
            arms: smallvec![t, e],
        },
        (Some(j), _) if j == e => Shape {
            join: j,
            true_pred: t,
            false_pred: h,
            arms: smallvec![t],
        },
        (_, Some(j)) if j == t => Shape {
            join: j,
            true_pred: h,
            false_pred: e,
            arms: smallvec![e],
        },
        _ => return None,
    };
    let join = &f.blocks[shape.join];
    let fits = shape.join != h
        && join.preds.len() == 2
        && join.phis.len() <= MAX_SELECTS
        && speculated(f, &shape.arms) <= MAX_SPECULATED;
    fits.then_some(shape)
}

/// Where arm `a` of `h`'s branch jumps, if it is one: reached only from
/// `h`, no phis, instructions that may run on either side.
fn arm_target(f: &Function, h: Block, a: Block) -> Option<Block> {
    let data = &f.blocks[a];
    let Some(Terminator::Jump(j)) = data.term else {
        return None;
    };
    let simple = data.preds.as_slice() == [h]
        && data.phis.is_empty()
        && (data.insts.iter()).all(|&i| may_speculate(&f.insts[i].kind));
    simple.then_some(j)
}

/// Whether `kind` may run on a path that did not ask for it: nothing
/// seen, nothing that can fail, no runtime call. A read proven in bounds
/// (unchecked: `ir::version`'s fast loops decide their accesses before
/// the loop, whatever path an iteration takes) reads memory of its array
/// on either side.
pub(super) fn may_speculate(kind: &InstKind) -> bool {
    match kind {
        InstKind::Binary(BinaryOp::FRem, ..) => false,
        InstKind::ArrayGet { checked, .. } => !checked,
        other => other.is_removable_if_unused(),
    }
}

/// The instructions of `arms` that would run on both sides (constants
/// not counted).
fn speculated(f: &Function, arms: &[Block]) -> usize {
    (arms.iter())
        .map(|&a| {
            f.blocks[a]
                .insts
                .iter()
                .filter(|&&i| !is_constant(f, i))
                .count()
        })
        .sum()
}

fn is_constant(f: &Function, i: Inst) -> bool {
    matches!(
        f.insts[i].kind,
        InstKind::IConst(_) | InstKind::FConst(_) | InstKind::BConst(_)
    )
}

/// The block of each laid-out instruction of `f`.
fn inst_blocks(f: &Function) -> SecondaryMap<Inst, Option<Block>> {
    let mut homes = SecondaryMap::with_default(None);
    for &b in &f.layout {
        for &i in &f.blocks[b].insts {
            homes[i] = Some(b);
        }
    }
    homes
}

/// Whether `h`'s branch should stay one, though its arms only compute,
/// because as selects it would lengthen a recurrence of the innermost
/// loop around it: a value the join chooses flows back to a header phi
/// that the branch's condition depends on, so each iteration's select
/// waits for the condition, and the next iteration for the select. A
/// predicted branch lets the next iteration start at once. This follows
/// LLVM's x86 `CmovConversion`, which turns a conditional move back into
/// a branch when its condition lies deeper on the loop's critical path
/// than its values; two cases are clear enough to decide here:
///
/// - the condition waits for a loop nested in this one or for a call (a
///   comparison function's loop deciding which child a heap's sift goes
///   down to): far deeper than any value, worth even a branch that is
///   often mispredicted;
/// - a running choice: each chosen value is the phi unchanged or one
///   made without it (`best = c` when `c < best`), in a long counted loop
///   with nothing nested. The compare and the conditional move would add
///   a few cycles to every iteration, to save mispredictions that grow
///   rare as such updates do.
///
/// A recurrence whose new value is computed from the old one
/// (`a >= m ? a - m : a`, a bisection's `mid + 1`) waits for the old
/// value either way, and its branch is often unpredictable: it is
/// converted.
fn keeps_branch(
    f: &Function,
    loops: &Loops,
    homes: &SecondaryMap<Inst, Option<Block>>,
    h: Block,
    shape: &Shape,
) -> bool {
    let Some(Terminator::Branch { cond, .. }) = f.blocks[h].term else {
        return false;
    };
    let Some(l) = loops.innermost(h) else {
        return false;
    };
    // A walk past its budget converts, as before this test existed.
    let keeps = || -> Option<bool> {
        let recurrent = recurrent_phis(f, loops, homes, l, cond, &f.blocks[shape.join].phis)?;
        if recurrent.is_empty() {
            return Some(false);
        }
        let waits_for_inner_work = walk_within(f, loops, homes, l, &[cond], |v| {
            let nested = |b: Block| loops.innermost(b) != Some(l);
            match f.values[v].def {
                ValueDef::Phi(p) => nested(f.phis[p].block),
                ValueDef::Inst(i) => {
                    homes[i].is_some_and(nested) || matches!(f.insts[i].kind, InstKind::Call(..))
                }
                _ => false,
            }
        })?;
        Some(waits_for_inner_work || updates_running_choice(f, loops, homes, l, shape, &recurrent)?)
    };
    keeps().unwrap_or(false)
}

/// The header phis of loop `l` that `cond` depends on within one
/// iteration and that one of `chosen` flows back to.
fn recurrent_phis(
    f: &Function,
    loops: &Loops,
    homes: &SecondaryMap<Inst, Option<Block>>,
    l: Loop,
    cond: Value,
    chosen: &[Value],
) -> Option<Vec<Value>> {
    let header = loops.loops[l].header;
    let latches = &loops.loops[l].latches;
    let mut recurrent = Vec::new();
    for phi in carried_sources(f, loops, homes, l, &[cond])? {
        let preds = &f.blocks[header].preds;
        let back: Vec<Value> = (f.phi_args(phi).iter().zip(preds))
            .filter(|(_, p)| latches.contains(p))
            .map(|(&v, _)| v)
            .collect();
        if reaches_within(f, loops, homes, l, &back, chosen)? {
            recurrent.push(phi);
        }
    }
    Some(recurrent)
}

/// Whether the join of `shape` updates a running choice of loop `l`
/// ([`keeps_branch`]) through the `recurrent` phis: a loop of unknown or
/// at least [`MIN_RUNNING_TRIPS`] trips with nothing nested, each chosen
/// value a recurrent phi or made without them.
fn updates_running_choice(
    f: &Function,
    loops: &Loops,
    homes: &SecondaryMap<Inst, Option<Block>>,
    l: Loop,
    shape: &Shape,
    recurrent: &[Value],
) -> Option<bool> {
    // Only a loop with nothing nested in it runs its iterations back to
    // back, the recurrence its critical path. In a short loop the choice
    // changes on many iterations (a running minimum of `n` random values
    // changes about `ln n` times); a counted loop of unknown trip count
    // is taken to be long, a loop that searches (not counted) short.
    let Some(counted) = loops.counted(f, l) else {
        return Some(false);
    };
    let trips = counted.constant_trips(f);
    if loops.loops[l].has_inner || trips.is_some_and(|n| n < MIN_RUNNING_TRIPS) {
        return Some(false);
    }
    for &phi in &f.blocks[shape.join].phis {
        for &v in f.phi_args(phi) {
            let made_without = carried_sources(f, loops, homes, l, &[v])?
                .iter()
                .all(|p| !recurrent.contains(p));
            if !recurrent.contains(&f.resolve(v)) && !made_without {
                return Some(false);
            }
        }
    }
    Some(true)
}

/// The header phis of loop `l` that `from` depends on within one
/// iteration (through instructions and phis of `l`'s other blocks);
/// `None` past [`MAX_WALKED`] values.
fn carried_sources(
    f: &Function,
    loops: &Loops,
    homes: &SecondaryMap<Inst, Option<Block>>,
    l: Loop,
    from: &[Value],
) -> Option<Vec<Value>> {
    let header = loops.loops[l].header;
    let mut found = Vec::new();
    walk_within(f, loops, homes, l, from, |v| {
        if f.phi_block(v) == Some(header) {
            found.push(v);
        }
        false
    })?;
    Some(found)
}

/// Whether `from` depends within one iteration of `l` on one of `phis`;
/// `None` past [`MAX_WALKED`] values.
fn reaches_within(
    f: &Function,
    loops: &Loops,
    homes: &SecondaryMap<Inst, Option<Block>>,
    l: Loop,
    from: &[Value],
    phis: &[Value],
) -> Option<bool> {
    walk_within(f, loops, homes, l, from, |v| phis.contains(&v))
}

/// Values a walk of [`walk_within`] meets, at most: the values a test
/// or a chosen value depends on in one iteration are few, and a loop of
/// thousands of branches would otherwise take a walk per branch over
/// all of them.
const MAX_WALKED: usize = 256;

/// Walks back from `from` over the values defined in loop `l`, through
/// instructions' operands and phis' arguments but not past `l`'s header
/// phis (the previous iteration), calling `visit` on each value met;
/// stops as soon as `visit` says so, and says whether it did (`None`
/// once it has met [`MAX_WALKED`] values).
fn walk_within(
    f: &Function,
    loops: &Loops,
    homes: &SecondaryMap<Inst, Option<Block>>,
    l: Loop,
    from: &[Value],
    mut visit: impl FnMut(Value) -> bool,
) -> Option<bool> {
    let header = loops.loops[l].header;
    let mut seen: FxHashSet<Value> = FxHashSet::default();
    let mut stack: Vec<Value> = from.to_vec();
    while let Some(v) = stack.pop() {
        let v = f.resolve(v);
        if !seen.insert(v) {
            continue;
        }
        if seen.len() > MAX_WALKED {
            return None;
        }
        match f.values[v].def {
            ValueDef::Phi(p) => {
                let block = f.phis[p].block;
                if !loops.contains(l, block) {
                    continue;
                }
                if visit(v) {
                    return Some(true);
                }
                if block != header {
                    stack.extend(f.phis[p].args.iter().copied());
                }
            }
            ValueDef::Inst(i) if homes[i].is_some_and(|b| loops.contains(l, b)) => {
                if visit(v) {
                    return Some(true);
                }
                f.insts[i].kind.for_each_operand(|o| stack.push(o));
            }
            _ => {}
        }
    }
    Some(false)
}

/// Rewrites `h`'s branch as selects and appends the join to `h`.
fn convert(f: &mut Function, h: Block, shape: Shape) {
    let Some(Terminator::Branch { cond, .. }) = f.blocks[h].term else {
        unreachable!("shape_at found a branch");
    };
    for &a in &shape.arms {
        let moved = std::mem::take(&mut f.blocks[a].insts);
        f.blocks[h].insts.extend(moved);
    }
    let j = shape.join;
    let side = |f: &Function, pred: Block| {
        (f.blocks[j].preds.iter())
            .position(|&p| p == pred)
            .expect("the join's predecessor")
    };
    let (on_true, on_false) = (side(f, shape.true_pred), side(f, shape.false_pred));
    for phi in f.blocks[j].phis.clone() {
        let args = f.phi_args(phi);
        let (if_true, if_false) = (args[on_true], args[on_false]);
        let chosen = if if_true == if_false {
            if_true
        } else {
            let ty = f.value_ty(phi);
            let kind = choice(f, cond, if_true, if_false);
            f.push_inst(h, kind, ty)
        };
        f.remove_phi(phi, chosen);
    }
    let insts = std::mem::take(&mut f.blocks[j].insts);
    f.blocks[h].insts.extend(insts);
    f.blocks[h].term = f.blocks[j].term.take();
    for s in f.successors(h) {
        f.replace_pred(s, j, h);
    }
    f.blocks[j].preds.clear();
    f.layout.retain(|b| *b != j && !shape.arms.contains(b));
}

/// Takes the chained conditional steps of `f` apart: `c ? x + k : x`
/// (`k` a constant; also `x - k`, and the step on the false side) where
/// `x` was itself chosen by an earlier branch — a count of the conditions
/// that hold — becomes `x + (c ? k : 0)`. The choice then no longer waits
/// for `x`, so each step adds one addition to the chain's critical path,
/// not an addition and a conditional move; and `c ? 1 : 0` is the bool
/// itself, widened (the translator's lowering). A lone conditional step
/// stays a select: its condition is usually the later operand, and the
/// select waits for it least; so does a step whose condition tests `x`.
fn separate_chained_steps(f: &mut Function) {
    for bi in 0..f.layout.len() {
        let b = f.layout[bi];
        let mut ii = 0;
        while ii < f.blocks[b].insts.len() {
            let inst = f.blocks[b].insts[ii];
            if let Some((cond, base, op, k, when_true)) = chained_step(f, inst) {
                let zero = f.insert_inst(b, ii, InstKind::IConst(0), Ty::Int);
                let (if_true, if_false) = if when_true { (k, zero) } else { (zero, k) };
                let chosen = InstKind::Select {
                    cond,
                    if_true,
                    if_false,
                };
                let chosen = f.insert_inst(b, ii + 1, chosen, Ty::Int);
                f.insts[inst].kind = InstKind::Binary(op, base, chosen);
                ii += 2;
            }
            ii += 1;
        }
    }
}

/// `inst` as a chained conditional step (see [`separate_chained_steps`]):
/// its condition, the value stepped from, the step's operation and
/// constant, and whether the step is taken when the condition holds.
fn chained_step(f: &Function, inst: Inst) -> Option<(Value, Value, BinaryOp, Value, bool)> {
    let InstKind::Select {
        cond,
        if_true,
        if_false,
    } = f.insts[inst].kind
    else {
        return None;
    };
    let step = |stepped: Value, base: Value| match f.def_kind(stepped) {
        Some(&InstKind::Binary(op @ (BinaryOp::IAdd | BinaryOp::ISub), a, k))
            if a == base && f.constant(k).is_some() =>
        {
            Some((op, k))
        }
        Some(&InstKind::Binary(BinaryOp::IAdd, k, a)) if a == base && f.constant(k).is_some() => {
            Some((BinaryOp::IAdd, k))
        }
        _ => None,
    };
    let (base, (op, k), when_true) = match (step(if_true, if_false), step(if_false, if_true)) {
        (Some(s), _) => (if_false, s, true),
        (None, Some(s)) => (if_true, s, false),
        (None, None) => return None,
    };
    let is_select = |v: Value| matches!(f.def_kind(v), Some(InstKind::Select { .. }));
    let chosen_before = match f.def_kind(base) {
        Some(InstKind::Select { .. }) => true,
        Some(&InstKind::Binary(BinaryOp::IAdd | BinaryOp::ISub, a, b)) => {
            is_select(a) || is_select(b)
        }
        _ => false,
    };
    // A condition on `x` itself (`x >= 10 ? x - 10 : x`) waits for `x`
    // anyway: the select's form is no slower there.
    let tests_base = f
        .def_kind(cond)
        .is_some_and(|d| d.operands().contains(&base));
    (chosen_before && !tests_base).then_some((cond, base, op, k, when_true))
}

/// `cond ? if_true : if_false`; on bools, the `&&` or `||` it is when one
/// side is `cond` itself, its negation or a constant (what short-circuit
/// operators leave: `a && b` is `a ? b : a`, and `!a && b` with `a`
/// itself tested is `a ? !a : b`).
fn choice(f: &Function, cond: Value, if_true: Value, if_false: Value) -> InstKind {
    if f.value_ty(if_true) == Ty::Bool {
        if let Some(and_or) = and_or(f, cond, if_true, if_false) {
            return and_or;
        }
    }
    // `!x ? a : b` is `x ? b : a`, without computing the negation.
    if let Some(&InstKind::Unary(UnaryOp::Not, x)) = f.def_kind(cond) {
        return choice(f, x, if_false, if_true);
    }
    InstKind::Select {
        cond,
        if_true,
        if_false,
    }
}

/// `cond ? if_true : if_false` on bools as one `and` or `or`, when a side
/// is a constant, `cond` or its negation.
fn and_or(f: &Function, cond: Value, if_true: Value, if_false: Value) -> Option<InstKind> {
    let is = |v: Value, b: bool| v == cond || f.constant(v) == Some(Const::Bool(b));
    let negates = |v: Value| f.def_kind(v) == Some(&InstKind::Unary(UnaryOp::Not, cond));
    if is(if_true, true) {
        // cond || if_false
        Some(InstKind::Binary(BinaryOp::Or, cond, if_false))
    } else if is(if_false, false) {
        // cond && if_true
        Some(InstKind::Binary(BinaryOp::And, cond, if_true))
    } else if negates(if_true) {
        // !cond && if_false
        Some(InstKind::Binary(BinaryOp::And, if_true, if_false))
    } else if negates(if_false) {
        // !cond || if_true
        Some(InstKind::Binary(BinaryOp::Or, if_false, if_true))
    } else {
        None
    }
}
