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
use crate::ir::loops::Loops;
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
    pub dom: DomTree,
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
        let dom = DomTree::compute(f);
        let loops = Loops::compute(f, &dom);
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
        FunctionPlan {
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
