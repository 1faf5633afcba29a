//! What the translator is told about one function: every analysis it
//! consults, computed in one place ([`FunctionPlan::new`]) from one
//! dominator tree and one loop forest, before translation starts.
//!
//! The level's [`Plan`] says which parts are computed (rotations at -O2,
//! vector loops in whole programs at -O2, float constants in loops at
//! -O2); the rest is needed at every level: the bounds-check plan, the
//! collector's roots and the remainders translated as divisibility tests.
//! Functions translated on their own and the leaf functions the
//! translator expands at their calls (`translate::Inlinable`) get their
//! plans from the same builder.
//!
//! Architecture Invariant: the translator computes no analysis over the
//! CFG; it reads the `FunctionPlan`.

use crate::entity::SecondaryMap;
use crate::ir::bounds::{self, CheckPlan};
use crate::ir::dom::DomTree;
use crate::ir::lengths::{self, Lengths};
use crate::ir::loops::{Loop, Loops};
use crate::ir::rotate::{self, RotatedLoop};
use crate::ir::semantics::Const;
use crate::ir::vector::{self, VectorLoop};
use crate::ir::{self, safepoints, BinaryOp, Cmp, InstKind, UnaryOp};
use crate::passes::Plan;
use rustc_hash::{FxHashMap, FxHashSet};

/// By instruction that may collect: the arrays live across it.
pub type Roots = FxHashMap<ir::Inst, Vec<ir::Value>>;

/// Everything the translator consults about a function.
pub struct FunctionPlan {
    /// Dominators, and the reverse post-order the translator follows
    /// (every definition before its uses).
    pub dom: std::sync::Arc<DomTree>,
    /// The loop forest: headers, back edges, the blocks on a loop.
    pub loops: Loops,
    /// Which bounds checks `ir::bounds` proved redundant, grouped, or
    /// moved to loop entries.
    pub checks: CheckPlan,
    /// Loops run two iterations at a time (`ir::vector`).
    pub vector_loops: Vec<VectorLoop>,
    /// Loops tested at their bottom (`ir::rotate`), in the layout order
    /// of their headers.
    pub rotations: Vec<RotatedLoop>,
    /// A collection can run while the function is active
    /// (`ir::safepoints::may_collect`).
    pub may_collect: bool,
    /// The arrays live across each instruction that may collect
    /// (`ir::safepoints::live_across`); empty unless `may_collect`.
    pub roots: Roots,
    /// Remainders translated only as divisibility tests
    /// ([`tested_remainders`]).
    pub tested_remainders: FxHashSet<ir::Value>,
    /// Float constants with a use in a loop ([`floats_used_in_loops`]).
    pub loop_floats: FxHashSet<ir::Value>,
    /// Dividends of divisions and remainders by a constant above 1 that
    /// are never negative ([`checks_and_dividends`]): by a power of two
    /// such a quotient is a shift and such a remainder a mask; by another
    /// constant they are unsigned, without signed division's fix-up.
    pub non_negative_dividends: FxHashSet<ir::Value>,
    /// Calls of small leaves are expanded in place outside loops too
    /// ([`expands_outside_loops`], which needs the whole program; false:
    /// only in loops).
    pub expands_outside_loops: bool,
    /// Arrays whose checks take their length from a constant or from a
    /// load before their loop (`ir::lengths`).
    pub lengths: Lengths,
    /// Unchecked element accesses in a loop whose index is a
    /// loop-invariant part plus a varying one ([`split_indices`]).
    pub split_indices: FxHashMap<ir::Inst, SplitIndex>,
}

/// An element index `invariant + varying + offset`, at an access inside a
/// loop whose array and `invariant` are defined outside it.
#[derive(Clone, Copy, Debug)]
pub struct SplitIndex {
    pub invariant: ir::Value,
    pub varying: ir::Value,
    pub offset: i64,
}

impl FunctionPlan {
    /// The plan of `f` under the level's `plan`. `quiet`, by `FuncRef`:
    /// the functions `ir::bounds::is_quiet` (empty where calls may reach
    /// any function, or where there are none). `collects`: if a
    /// collection can run while `f` is active, which of its instructions
    /// may run one. `expands_outside_loops`: see the field.
    pub fn new(
        f: &ir::Function,
        plan: &Plan,
        quiet: &[bool],
        collects: Option<&dyn Fn(&InstKind) -> bool>,
        expands_outside_loops: bool,
    ) -> FunctionPlan {
        let (dom, loops) = f.current_dom_and_loops();
        let (checks, non_negative_dividends) = checks_and_dividends(f, &dom, &loops, quiet);
        let vector_loops = if plan.vector_loops {
            vector::vector_loops(f, &loops, &checks)
        } else {
            Vec::new()
        };
        let rotations = if plan.rotate_loops {
            rotate::rotations(f, &dom, &loops)
        } else {
            Vec::new()
        };
        let roots = match collects {
            Some(collects) => safepoints::live_across(f, &dom, collects),
            None => Roots::default(),
        };
        let loop_floats = if plan.hoist_float_constants {
            floats_used_in_loops(f, &loops)
        } else {
            FxHashSet::default()
        };
        let lengths = lengths::lengths(f, &loops, |inst| !checks.proven[inst]);
        let split_indices = if plan.split_loop_indices {
            split_indices(f, &loops, &checks)
        } else {
            FxHashMap::default()
        };
        FunctionPlan {
            split_indices,
            lengths,
            may_collect: collects.is_some(),
            tested_remainders: tested_remainders(f),
            non_negative_dividends,
            loop_floats,
            dom,
            loops,
            checks,
            vector_loops,
            rotations,
            roots,
            expands_outside_loops,
        }
    }
}

/// What the expansions of a function's leaf calls outside its loops may
/// add, in IR instructions of the leaves' bodies. A function over it is
/// mostly straight-line calls (building a table, assembling a program),
/// which run once per call of the function: expanding them there saves a
/// call each and costs their whole bodies in compile time.
const EXPANSION_BUDGET: usize = 160;

/// Whether `f` expands calls of small leaves outside its loops: when all
/// its calls of `is_leaf` functions together stay within
/// [`EXPANSION_BUDGET`]. The top-level code, which runs once, expands
/// only in loops.
pub fn expands_outside_loops(program: &ir::Module, f: &ir::Function, is_leaf: &[bool]) -> bool {
    let expanded: usize = f
        .calls()
        .filter(|&(_, _, g)| is_leaf[g as usize])
        .map(|(_, _, g)| program.functions[g as usize].counts().1)
        .sum();
    expanded <= EXPANSION_BUDGET
}

/// The bounds-check plan, and the dividends `x` of `x / d` and `x % d`
/// (`d` a constant above 1) where `x` is never negative (`ir::bounds`'
/// signs, from the same analysis): there the quotient by `2^k` is
/// `x >> k`, the remainder `x & (2^k - 1)`, and by another constant both
/// are unsigned, where signed division needs a correction for negative
/// `x`.
fn checks_and_dividends(
    f: &ir::Function,
    dom: &DomTree,
    loops: &Loops,
    quiet: &[bool],
) -> (CheckPlan, FxHashSet<ir::Value>) {
    let dividends: Vec<ir::Value> = (f.insts.iter())
        .filter_map(|(_, d)| match d.kind {
            InstKind::Binary(BinaryOp::IRem | BinaryOp::IDiv, x, m) => {
                constant_divisor(f, m).map(|_| x)
            }
            _ => None,
        })
        .collect();
    if dividends.is_empty() {
        return (
            bounds::plan_checks(f, dom, loops, quiet),
            FxHashSet::default(),
        );
    }
    let (checks, non_negative) = bounds::plan_checks_and_signs(f, dom, loops, quiet);
    let dividends = dividends.into_iter().filter(|&x| non_negative[x]);
    (checks, dividends.collect())
}

/// `m`, when it is a constant above 1.
pub(super) fn constant_divisor(f: &ir::Function, m: ir::Value) -> Option<i64> {
    match f.constant(m) {
        Some(Const::Int(n)) if n > 1 => Some(n),
        _ => None,
    }
}

/// `m`, when it is a constant power of two above 1.
pub(super) fn power_of_two_divisor(f: &ir::Function, m: ir::Value) -> Option<i64> {
    constant_divisor(f, m).filter(|&n| (n as u64).is_power_of_two())
}

/// `v` as `x % m` with a constant `m > 0`: `(x, m)`.
fn remainder_by_constant(f: &ir::Function, v: ir::Value) -> Option<(ir::Value, i64)> {
    let InstKind::Binary(BinaryOp::IRem, x, m) = *f.def_kind(v)? else {
        return None;
    };
    match f.constant(m) {
        Some(Const::Int(m)) if m > 0 => Some((x, m)),
        _ => None,
    }
}

/// A comparison `rem == 0` or `rem != 0` (either operand order) of a
/// remainder `rem = x % m` by a constant `m > 0`.
pub(super) struct RemainderTest {
    pub cmp: Cmp,
    pub rem: ir::Value,
    pub x: ir::Value,
    pub m: i64,
}

/// `a op b` as a [`RemainderTest`], if it is one.
pub(super) fn remainder_test(
    f: &ir::Function,
    op: BinaryOp,
    a: ir::Value,
    b: ir::Value,
) -> Option<RemainderTest> {
    let BinaryOp::ICmp(cmp @ (Cmp::Eq | Cmp::Ne)) = op else {
        return None;
    };
    let is_zero = |v| f.constant(v) == Some(Const::Int(0));
    let rem = match (is_zero(a), is_zero(b)) {
        (false, true) => a,
        (true, false) => b,
        _ => return None,
    };
    let (x, m) = remainder_by_constant(f, rem)?;
    Some(RemainderTest { cmp, rem, x, m })
}

impl RemainderTest {
    /// `x % 2^k == 0` (or `!= 0`): a test of `x`'s low bits.
    pub fn of_low_bits(&self) -> bool {
        (self.m as u64).is_power_of_two()
    }
}

/// The remainders `x % 2^k` whose every use is a test `== 0` or `!= 0`.
/// The translator's `divisibility_test` translates those tests from the
/// low bits of `x`, so the remainders need no code; left in, Cranelift
/// would still compute each (a `srem` may trap, and only the egraph of
/// `opt_level=speed` proves that one by a nonzero constant cannot).
fn tested_remainders(f: &ir::Function) -> FxHashSet<ir::Value> {
    let mut tested = FxHashSet::default();
    let has_remainders =
        (f.insts.iter()).any(|(_, d)| matches!(d.kind, InstKind::Binary(BinaryOp::IRem, ..)));
    if !has_remainders {
        return tested;
    }
    let mut needed: SecondaryMap<ir::Value, bool> = SecondaryMap::new();
    for &block in &f.layout {
        let data = &f.blocks[block];
        for &inst in &data.insts {
            match f.insts[inst].kind {
                InstKind::Binary(op, a, b) => {
                    match remainder_test(f, op, a, b).filter(RemainderTest::of_low_bits) {
                        Some(t) => {
                            tested.insert(t.rem);
                        }
                        None => {
                            needed[a] = true;
                            needed[b] = true;
                        }
                    }
                }
                ref kind => kind.for_each_operand(|v| needed[v] = true),
            }
        }
        if let Some(v) = data.term.as_ref().and_then(ir::Terminator::operand) {
            needed[v] = true;
        }
        for &phi in &data.phis {
            for &arg in f.phi_args(phi) {
                needed[arg] = true;
            }
        }
    }
    tested.retain(|&v| !needed[v]);
    tested
}

/// The unchecked element accesses of `f` inside a loop whose array is
/// defined outside the innermost loop around them and whose index is
/// `invariant + varying` (a constant added to either kept apart): `c[i +
/// j]` in a loop over `j`, `a[i * n + j]`. The translator addresses them
/// from `array + invariant * size`, which Cranelift computes once before
/// the loop, plus `varying * size`, one addition fewer per access (a C
/// compiler's strength reduction of addresses). Each such base is a
/// value the loop holds, so the accesses of a loop sharing an invariant
/// part are split only when the bases replace as many values the loop
/// would hold otherwise ([`holds_no_more`]); a base beside the array and
/// the invariant part, both still used, made the loop spill. Checked
/// accesses need the whole index for their check and stay as they are.
fn split_indices(
    f: &ir::Function,
    loops: &Loops,
    checks: &CheckPlan,
) -> FxHashMap<ir::Inst, SplitIndex> {
    let mut groups: FxHashMap<(Loop, ir::Value), Vec<Candidate>> = FxHashMap::default();
    for &block in &f.layout {
        let Some(l) = loops.innermost(block) else {
            continue;
        };
        for &inst in &f.blocks[block].insts {
            let (InstKind::ArrayGet { array, index, .. } | InstKind::ArraySet { array, index, .. }) =
                f.insts[inst].kind
            else {
                continue;
            };
            if !checks.proven[inst] || !loops.is_invariant(f, l, array) {
                continue;
            }
            let mut adds = Vec::new();
            if let Some(split) = split_index(f, loops, l, index, &mut adds) {
                let candidate = Candidate {
                    inst,
                    array,
                    index,
                    split,
                    adds,
                };
                groups
                    .entry((l, split.invariant))
                    .or_default()
                    .push(candidate);
            }
        }
    }
    if groups.is_empty() {
        return FxHashMap::default();
    }
    let uses = uses_in_loops(f, loops, groups.keys().map(|&(l, _)| l));
    let kept = groups
        .into_iter()
        .filter(|&((l, _), ref group)| holds_no_more(f, group, |v| uses.get(&(l, v)).copied()));
    kept.flat_map(|(_, group)| group)
        .map(|c| (c.inst, c.split))
        .collect()
}

/// An access [`split_indices`] may split: its array and index, the split,
/// and the additions that make its index from the invariant part (the
/// index itself first).
struct Candidate {
    inst: ir::Inst,
    array: ir::Value,
    index: ir::Value,
    split: SplitIndex,
    adds: Vec<ir::Value>,
}

/// How many times each value is used inside each of `of` (nested loops
/// included): a use counts for every loop of `of` around its block.
fn uses_in_loops(
    f: &ir::Function,
    loops: &Loops,
    of: impl Iterator<Item = Loop>,
) -> FxHashMap<(Loop, ir::Value), usize> {
    let of: FxHashSet<Loop> = of.collect();
    let mut uses = FxHashMap::default();
    f.for_each_use(|block, v| {
        let mut at = loops.innermost(block);
        while let Some(l) = at {
            if of.contains(&l) {
                *uses.entry((l, v)).or_default() += 1;
            }
            at = loops.loops[l].parent;
        }
    });
    uses
}

/// Whether splitting `group` (the accesses of one loop sharing an
/// invariant part) leaves the loop no more values to hold: it holds one
/// base per array, and no longer an array all of whose uses in it are
/// the group's accesses, nor the invariant part when all of its uses and
/// of the additions built from it are the group's. `uses_in_loop`: the
/// count of a value's uses in the loop (of `f`).
fn holds_no_more(
    f: &ir::Function,
    group: &[Candidate],
    uses_in_loop: impl Fn(ir::Value) -> Option<usize>,
) -> bool {
    let only_by = |v: ir::Value, refs: usize| uses_in_loop(v) == Some(refs);
    let mut arrays: FxHashMap<ir::Value, usize> = FxHashMap::default();
    let mut refs: FxHashMap<ir::Value, usize> = FxHashMap::default();
    for c in group {
        *arrays.entry(c.array).or_default() += 1;
        *refs.entry(c.index).or_default() += 1;
    }
    let adds: FxHashSet<ir::Value> = group.iter().flat_map(|c| c.adds.iter().copied()).collect();
    for &add in &adds {
        if let Some(&InstKind::Binary(_, x, y)) = f.def_kind(add) {
            *refs.entry(x).or_default() += 1;
            *refs.entry(y).or_default() += 1;
        }
    }
    let freed_arrays = arrays.iter().filter(|&(&a, &n)| only_by(a, n)).count();
    let invariant = group[0].split.invariant;
    let refs_of = |v: ir::Value| refs.get(&v).copied().unwrap_or(0);
    let freed_invariant =
        adds.iter().all(|&a| only_by(a, refs_of(a))) && only_by(invariant, refs_of(invariant));
    arrays.len() <= freed_arrays + usize::from(freed_invariant)
}

/// `index` as `invariant + varying + offset` in loop `l` (see
/// [`split_indices`]); `adds` collects the additions it looks through.
fn split_index(
    f: &ir::Function,
    loops: &Loops,
    l: Loop,
    index: ir::Value,
    adds: &mut Vec<ir::Value>,
) -> Option<SplitIndex> {
    let kind = f.def_kind(index)?;
    adds.push(index);
    if let Some((x, c)) = f.constant_offset(kind) {
        return with_offset(split_index(f, loops, l, x, adds)?, c);
    }
    let InstKind::Binary(BinaryOp::IAdd, x, y) = *kind else {
        return None;
    };
    let invariant = |v| computable_before(f, loops, l, v, MAX_INVARIANT_DEPTH);
    let (invariant, varying) = match (invariant(x), invariant(y)) {
        (true, false) => (x, y),
        (false, true) => (y, x),
        _ => return None,
    };
    // A constant added to the varying part goes into the displacement.
    let (varying, c) = (f.def_kind(varying))
        .and_then(|kind| f.constant_offset(kind))
        .unwrap_or((varying, 0));
    with_offset(
        SplitIndex {
            invariant,
            varying,
            offset: 0,
        },
        c,
    )
}

/// How deep [`computable_before`] looks through pure instructions.
const MAX_INVARIANT_DEPTH: usize = 3;

/// Whether `v` is the same on every iteration of loop `l`: defined outside
/// it, or computed in it by a pure arithmetic instruction from such
/// values (a copy of a loop may recompute `r * n` in its body), which
/// Cranelift's loop-invariant code motion computes before the loop.
fn computable_before(f: &ir::Function, loops: &Loops, l: Loop, v: ir::Value, depth: usize) -> bool {
    if loops.is_invariant(f, l, v) {
        return true;
    }
    match f.def_kind(v) {
        Some(&InstKind::Binary(op, x, y)) if depth > 0 && !op.can_fail() => {
            computable_before(f, loops, l, x, depth - 1)
                && computable_before(f, loops, l, y, depth - 1)
        }
        Some(&InstKind::Unary(_, x)) if depth > 0 => computable_before(f, loops, l, x, depth - 1),
        _ => false,
    }
}

/// `s` with `c` more elements of offset, while any element's byte offset
/// still fits a load's displacement.
fn with_offset(s: SplitIndex, c: i64) -> Option<SplitIndex> {
    let offset = s.offset.checked_add(c)?;
    (offset.abs() < MAX_SPLIT_OFFSET).then_some(SplitIndex { offset, ..s })
}

/// The largest constant part of a split index, in elements: times the
/// largest element size it stays far within a 32-bit displacement.
const MAX_SPLIT_OFFSET: i64 = 1 << 24;

/// The float constants of `f` with a use in a loop (a phi's argument is
/// used at the end of its predecessor), and the float `abs` and negations
/// computed in a loop (a sign mask is a constant too, on x86-64): the
/// translator materializes those where Cranelift can hoist them.
fn floats_used_in_loops(f: &ir::Function, loops: &Loops) -> FxHashSet<ir::Value> {
    let mut floats = FxHashSet::default();
    if loops.loops.is_empty() {
        return floats;
    }
    f.for_each_use(|block, v| {
        if loops.in_loop(block) && matches!(f.def_kind(v), Some(InstKind::FConst(_))) {
            floats.insert(v);
        }
    });
    for &b in f.layout.iter().filter(|&&b| loops.in_loop(b)) {
        for &i in &f.blocks[b].insts {
            let data = &f.insts[i];
            if let InstKind::Unary(UnaryOp::FAbs | UnaryOp::FNeg, _) = data.kind {
                floats.extend(data.result);
            }
        }
    }
    floats
}
