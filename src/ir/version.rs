//! Loop versioning: an innermost loop gets a second copy without the
//! bounds checks that can be decided before it starts, and a few tests in
//! front of it choose the copy to run.
//!
//! An array's length never changes and an SSA value names one array for
//! its life, so in a loop `l`, an access `a[x]` with `a` and `x` available
//! before `l` fails on every iteration or on none; and in a counted loop
//! (`ir::loops`) whose counter `i` runs over `[init, n)`, the accesses
//! `a[i + c]` past the header's test stay in bounds on every iteration if
//! `init + c >= 0` and `n + c <= len(a)`; and accesses `a[(i + c) % m]`
//! (an index that wraps around) if `init + c >= 0` and `1 <= m <=
//! len(a)`, with `m` available before the loop. When the counter runs
//! over constants, an index that is a sum of available values times
//! constants plus a part built from the counter by `+ - * / % & << >>`,
//! `min` and `max` with constants (`i * 9 + col`, `(r + i / 3) * 9 + c +
//! i % 3`, `max(i - 1, 0)`) lies within bounds found by interval
//! arithmetic, a *span*, and is in bounds if the span's ends are. So is
//! an index that is a join whose
//! range `ir::ranges` knows from the conditions on its edges (a clamp,
//! `if x < 0 { 0 } else if x > 9 { 9 } else { x }`: the span `[0, 9]`),
//! whatever the counter runs over. Accesses of one array at constant
//! offsets from one available index (`t[x]`, …, `t[x + 3]`), or at
//! constant indices, form a span too, tested once. These conditions, for
//! every such access, are tested once before the loop (the *guards*). If all hold,
//! the copy runs: the same code with those accesses marked `unchecked`. If
//! one fails, the original runs, checks and all, and stops where it would
//! have, with the same message. Nothing is checked early, so the REPL may
//! version too.
//!
//! Available before the loop: values defined outside it; pure arithmetic
//! of the loop on available values (`i - 1` in `m[i - 1][j]`), which the
//! guards compute again; and *invariant loads*: `get a[x]` with `a` and
//! `x` available, in a loop that makes no calls and stores no element of
//! the load's type (a Toy array holds one element type, so no other store
//! can change it): the rows `m[i]` of a loop over `m[i][j]`. Each is
//! loaded once, after its own guard, and the copy uses that value. A
//! loaded row's length feeds the next guards, so the guards run in
//! stages, each a block ending in a branch to the next stage or to the
//! original loop.
//!
//! A guard's condition that ranges known at compile time decide is not
//! tested: the counter of an enclosing counted loop runs from its start to
//! below its bound where the guards run (in that loop's body), and the
//! length of an array `ir::alias` knows is that length (`for u in 0..8 {
//! for y in 0..8 { … blk[x * 8 + y] … } }` over arrays of 64). When no
//! guard is left to test, the copy always runs: nothing enters the
//! original loop, which is then taken out (`tidy::remove_unreachable_blocks`),
//! so the loop costs no more code than before and none of its checks.
//!
//! In the copy, a remainder `(i + base + c) % m` whose guards hold (the
//! dividend never negative, `m >= 1`), of a counter stepping by one and a
//! divisor that is not a constant power of two (that is cheaper as a
//! mask), is carried from one iteration to the next instead of
//! divided anew: it starts as `(init + base + c) % m`, computed once
//! after the guards, and each back edge adds one and wraps to zero at `m`
//! (strength reduction of an induction variable's remainder).
//!
//! The copy costs compile time like the loop itself, so a loop is copied
//! only when it saves a check or a load, and at least twice as many as
//! the copy still checks (an index the guards cannot decide, such as
//! `a[idx[i]]` or `m[k][j]` with a row that changes with `k`, keeps its
//! check there, and fails where the original would); when the trip count
//! is known, it must also save more checks and loads than the guards
//! make compares. A large loop must save more: one check or load for
//! every [`INSTS_PER_SAVED`] instructions, a call counting for several
//! (in a loop that does much more per iteration than a check, the copy
//! gains little of its time and still costs its compile time).
//!
//! What is copied is the loop with the blocks its exits leave through for
//! good (a `return`) or on the way to the one block every exit reaches (a
//! `break`'s jump), if any does. Each copy reaches that block through
//! blocks of its own (so each keeps a header whose exit it alone enters,
//! as loop rotation wants), and a value of the loop used beyond it
//! becomes a phi there, of the original's value and the copy's.

use super::bounds::{self, CheckPlan};
use super::dom::DomTree;
use super::loops::{CountedLoop, Loop, Loops};
use super::ranges::{Place, Ranges};
use super::*;
use crate::entity::SecondaryMap;
use crate::ssa::peephole::canonicalize;
use rustc_hash::{FxHashMap, FxHashSet};

/// Loops larger than this (instructions and phis) are not copied.
const MAX_LOOP_SIZE: usize = 240;
/// A copy must save a check or a load for every this many instructions
/// of its loop: a check is a compare and a branch, so in a loop of more
/// instructions per check saved the copy gains a few percent of the
/// loop's time at most, and it costs compile time like the loop itself.
const INSTS_PER_SAVED: usize = 20;
/// What a call counts for in a loop's instructions, for
/// [`INSTS_PER_SAVED`].
const CALL_WEIGHT: usize = 8;
/// Offsets `i + c` and steps beyond this are left checked: the guards'
/// arithmetic on them cannot then wrap, since lengths stay far below
/// `2^62`.
const MAX_OFFSET: i64 = 1 << 24;
/// How deep a chain of arithmetic in the loop the guards recompute.
const MAX_RECOMPUTED_DEPTH: u32 = 4;
/// How deep an index's arithmetic a [`Span`] is looked for in.
const MAX_SPAN_DEPTH: u32 = 6;

/// `-limit <= n <= limit` (for any `n`: `i64::MIN` has no `abs`).
fn within(n: i64, limit: i64) -> bool {
    n.unsigned_abs() <= limit.unsigned_abs()
}

/// The first and the last value the counter of loop `c` can take in its
/// body, if its start and bound are constants (the first above the last
/// when the body never runs).
fn constant_counter_range(f: &Function, c: CountedLoop) -> Option<(i64, i64)> {
    let (init, bound) = (f.int_constant(c.counter.init)?, f.int_constant(c.bound)?);
    let last = if c.inclusive {
        bound
    } else {
        bound.checked_sub(1)?
    };
    Some((init, last))
}

/// Loops copied in one function, at most. Each copy changes the CFG, so
/// the dominator tree and loop forest are computed again for the next:
/// a pass over the whole function per copy, which would make a function
/// of thousands of loops take quadratic time.
const MAX_COPIES: usize = 32;

/// Versions the innermost loops of `f` one at a time (each copy changes
/// the CFG the next one is found in), at most [`MAX_COPIES`].
pub fn version_loops(f: &mut Function) {
    // Most functions check no index: no dominator tree or loops for them.
    if !f
        .insts
        .iter()
        .any(|(_, d)| d.kind.bounds_check() == Some(true))
    {
        return;
    }
    let mut seen: FxHashSet<Block> = FxHashSet::default();
    // What `ir::bounds` checks already, computed when first needed and
    // kept from copy to copy (a whole-function analysis per copy cost more
    // than the rest of the pass). It only weighs whether a copy is worth
    // it. A copy adds instructions only to loops that are not planned
    // again; it can take a proof away from a later loop (the original's
    // header no longer dominates the exit), never add one, so a stale
    // plan can only leave a loop uncopied.
    let mut checks: Option<CheckPlan> = None;
    for _ in 0..MAX_COPIES {
        let (dom, loops) = f.dom_and_loops();
        let versioned = loops
            .innermost_loops()
            .filter(|&l| seen.insert(loops.loops[l].header))
            .find_map(|l| plan(f, &dom, &loops, l, &mut checks));
        let Some(plan) = versioned else { return };
        let copy_header = Copier::new(f, &plan, &loops, &dom).copy(f);
        seen.insert(copy_header);
    }
}

/// A condition the guards test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Guard {
    /// `0 <= index < len(array)`.
    Index { array: Value, index: Value },
    /// `counter + base + c` (or `base + c - counter` when `down`) in
    /// bounds of `array` for every `c` in `[low, high]` and every value of
    /// the counter; `base` is the sum of available values (none: zero).
    Walk {
        array: Value,
        down: bool,
        base: Base,
        low: i64,
        high: i64,
    },
    /// `(counter + base + c) % divisor` (the counter negated when `down`)
    /// in bounds of `array` for every `c >= low` and every value of the
    /// counter: the dividend stays non-negative and `1 <= divisor <=
    /// len(array)`, so the remainder lies in `0..divisor` (a walk that
    /// wraps around, `row[(c + 1) % n]`).
    Remainder {
        array: Value,
        down: bool,
        base: Base,
        low: i64,
        divisor: Value,
    },
    /// `terms + c` in bounds of `array` for every `c` in `[low, high]`:
    /// an index whose part that varies lies in a range known at compile
    /// time, in a loop whose counter runs over constants (`g[i * 9 +
    /// col]`, `g[(r + i / 3) * 9 + i % 3]` for `i` in `0..9`).
    Span {
        array: Value,
        terms: ScaledBase,
        low: i64,
        high: i64,
    },
}

impl Guard {
    /// About how many compares its test makes: two bounds, or one and a
    /// divisor's two, and two range tests for each term of the base (and
    /// a multiplication, for a scaled one).
    fn cost(&self) -> u64 {
        fn count<T>(terms: &[Option<T>]) -> u64 {
            terms.iter().flatten().count() as u64
        }
        match self {
            Guard::Index { .. } => 2,
            Guard::Walk { base, .. } => 2 + 2 * count(base),
            Guard::Remainder { base, .. } => 3 + 2 * count(base),
            Guard::Span { terms, .. } if is_one_unit_term(terms) => 2,
            Guard::Span { terms, .. } => 2 + 3 * count(terms),
        }
    }
}

/// Up to two available values, summed: the part of an index that is the
/// same on every iteration (`row` in `d[row + c]`).
type Base = [Option<Value>; 2];

/// An array and the part of its index other than the constant: whether
/// the counter is negated, and the base.
type WalkKey = (Value, bool, Base);

/// A [`WalkKey`] and the divisor of a remainder of the walk.
type RemainderKey = (WalkKey, Value);

/// Up to two available values, each times a constant, summed.
type ScaledBase = [Option<(Value, i64)>; 2];

/// Whether `terms` is one value times 1 or -1.
fn is_one_unit_term(terms: &ScaledBase) -> bool {
    matches!(terms, [Some((_, -1 | 1)), None] | [None, Some((_, -1 | 1))])
}

/// Scales of a [`ScaledBase`]'s terms stay within this magnitude.
const MAX_SCALE: i64 = 1 << 10;

/// An index as a [`ScaledBase`] plus a part that lies in `[low, high]` on
/// every iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Span {
    terms: ScaledBase,
    low: i64,
    high: i64,
}

impl Span {
    /// Only the part that varies, no terms.
    fn is_range(&self) -> bool {
        self.terms == [None, None]
    }

    /// Its interval, if within [`MAX_OFFSET`] (so that no guard
    /// arithmetic on it can wrap) and not empty.
    fn within(terms: ScaledBase, low: i64, high: i64) -> Option<Span> {
        (within(low, MAX_OFFSET) && within(high, MAX_OFFSET) && low <= high).then_some(Span {
            terms,
            low,
            high,
        })
    }

    /// `self + other`: at most two terms, each value once (so that a
    /// term's scale only ever grows, and the range test of its final
    /// scale covers every partial sum).
    fn plus(self, other: Span) -> Option<Span> {
        let mut terms = self.terms;
        for t in other.terms.into_iter().flatten() {
            if terms.iter().flatten().any(|&(v, _)| v == t.0) {
                return None;
            }
            *terms.iter_mut().find(|s| s.is_none())? = Some(t);
        }
        Span::within(terms, self.low + other.low, self.high + other.high)
    }

    /// `self * k` for a constant `k` other than 0.
    fn times(self, k: i64) -> Option<Span> {
        if k == 0 || !within(k, MAX_SCALE) {
            return None;
        }
        let mut terms = self.terms;
        for (_, scale) in terms.iter_mut().flatten() {
            *scale = scale.checked_mul(k).filter(|&s| within(s, MAX_SCALE))?;
        }
        let (a, b) = (self.low.checked_mul(k)?, self.high.checked_mul(k)?);
        Span::within(terms, a.min(b), a.max(b))
    }

    /// A range's image under an operation monotone on it (`x / k`, `x >>
    /// k` for `k >= 0`, `min(x, k)`, `max(x, k)`), if it has no terms.
    fn monotone(self, op: impl Fn(i64) -> i64) -> Option<Span> {
        self.is_range()
            .then(|| Span::within([None, None], op(self.low), op(self.high)))?
    }

    /// `self % k` for a constant `k > 0` (the remainder takes the
    /// dividend's sign), if it has no terms.
    fn remainder(self, k: i64) -> Option<Span> {
        if !self.is_range() || k <= 0 {
            return None;
        }
        let (low, high) = (self.low, self.high);
        // Within one period of the same sign the remainder is the value.
        let (low, high) = if low > -k && high < k && (low >= 0 || high <= 0) {
            (low, high)
        } else if low >= 0 {
            (0, high.min(k - 1))
        } else if high <= 0 {
            (low.max(-(k - 1)), 0)
        } else {
            (-(k - 1), k - 1)
        };
        Span::within([None, None], low, high)
    }
}

/// An index as the counter (negated when `down`), plus a [`Base`], plus a
/// constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Affine {
    down: bool,
    base: Base,
    c: i64,
}

/// Values a guard adds up stay within this magnitude (tested), so that
/// sums of a few of them cannot wrap.
const MAX_TERM: i64 = 1 << 40;

/// What versioning one loop takes.
struct Plan {
    blocks: Vec<Block>,
    header: Block,
    preheader: Block,
    /// The block the loop's exits reach, unless every exit returns.
    exit: Option<Block>,
    counted: Option<CountedLoop>,
    /// `stages[s]`: the invariant loads computed at the start of stage
    /// `s`, and the guards tested after them.
    stages: Vec<(Vec<Inst>, Vec<Guard>)>,
    /// The accesses the copy does not check.
    unchecked: FxHashSet<Inst>,
    /// The loads the copy takes from the guards.
    hoisted: FxHashSet<Inst>,
    /// A hoisted load's result → the result of the first hoisted load of
    /// the same element, which the guards load in its stead.
    same_as: FxHashMap<Value, Value>,
    /// Arithmetic of the loop on values available before it, which the
    /// guards compute again when they need it.
    recomputed: FxHashSet<Value>,
    /// Values of the loop used beyond it.
    live_out: Vec<Value>,
    /// The remainders the copy carries from iteration to iteration.
    reduced: Vec<Reduced>,
    /// The largest magnitude, known at compile time, of values the guards
    /// add up (an enclosing loop's counter over constants, plus a
    /// constant): no guard tests them against a limit above it.
    magnitudes: FxHashMap<Value, u64>,
}

/// A remainder `(counter + base + c) % divisor` of a loop whose counter
/// steps by one, the dividend never negative and `divisor >= 1` when the
/// guards hold: the copy carries it in a phi.
#[derive(Clone, Copy, Debug)]
struct Reduced {
    irem: Inst,
    /// As the guards compute them.
    base: Base,
    c: i64,
    divisor: Value,
}

/// The plan for loop `l`, if it can be copied and the copy is worth it.
fn plan(
    f: &Function,
    dom: &DomTree,
    loops: &Loops,
    l: Loop,
    checks: &mut Option<CheckPlan>,
) -> Option<Plan> {
    let data = &loops.loops[l];
    let size: usize = data
        .blocks
        .iter()
        .map(|&b| f.blocks[b].insts.len() + f.blocks[b].phis.len())
        .sum();
    if size > MAX_LOOP_SIZE {
        return None;
    }
    let preheader = loops.preheader(f, l)?;
    let counted = loops.counted(f, l).filter(|c| c.counter.step <= MAX_OFFSET);
    let mut p = Planner {
        f,
        dom,
        loops,
        l,
        counted,
        stage: FxHashMap::default(),
        same_as: FxHashMap::default(),
        recomputed: FxHashSet::default(),
        stages: Vec::new(),
        walks: FxHashMap::default(),
        remainders: FxHashMap::default(),
        spans: FxHashMap::default(),
        unchecked: FxHashSet::default(),
        hoisted: FxHashSet::default(),
        reduced: Vec::new(),
    };
    p.hoist_invariant_loads();
    p.guard_accesses();
    p.add_walks();
    if p.stages.iter().all(|(_, guards)| guards.is_empty()) {
        return None;
    }
    if !p.is_worth_it(
        checks.get_or_insert_with(|| bounds::plan_checks_without_ranges(f, dom, loops)),
    ) {
        return None;
    }
    let (blocks, exit) = region(f, loops, l)?;
    let live_out = live_out(f, loops, &blocks, dom, exit)?;
    let magnitudes = known_magnitudes(f, loops, counted, &p.stages);
    Some(Plan {
        blocks,
        header: data.header,
        preheader,
        exit,
        counted,
        stages: p.stages,
        unchecked: p.unchecked,
        hoisted: p.hoisted,
        same_as: p.same_as,
        recomputed: p.recomputed,
        live_out,
        reduced: p.reduced,
        magnitudes,
    })
}

/// The largest magnitude of each of the guards' terms, and of the
/// counter's start and bound, whose range is known wherever they are read
/// (`ir::ranges`).
fn known_magnitudes(
    f: &Function,
    loops: &Loops,
    counted: Option<CountedLoop>,
    stages: &[(Vec<Inst>, Vec<Guard>)],
) -> FxHashMap<Value, u64> {
    let mut terms: Vec<Value> = counted.map_or(vec![], |c| vec![c.counter.init, c.bound]);
    for guard in stages.iter().flat_map(|(_, guards)| guards) {
        match *guard {
            Guard::Index { .. } => {}
            Guard::Walk { base, .. } | Guard::Remainder { base, .. } => {
                terms.extend(base.into_iter().flatten());
            }
            Guard::Span { terms: scaled, .. } => {
                terms.extend(scaled.into_iter().flatten().map(|(v, _)| v));
            }
        }
    }
    let ranges = Ranges::new(f, loops, None);
    (terms.into_iter())
        .filter_map(|v| {
            let (lo, hi) = ranges.anywhere(v)?;
            Some((v, lo.unsigned_abs().max(hi.unsigned_abs())))
        })
        .collect()
}

/// The blocks to copy — loop `l`, and the blocks its exits leave through
/// for good (a `return`) or on their way to one join (a `break`'s jump) —
/// and the one block they all leave to, if only they enter it (none when
/// every exit returns).
fn region(f: &Function, loops: &Loops, l: Loop) -> Option<(Vec<Block>, Option<Block>)> {
    let mut blocks = loops.loops[l].blocks.clone();
    let exits = loops.exits(f, l);
    let mut targets: Vec<Block> = Vec::new();
    if let [exit] = exits[..] {
        targets.push(exit);
    }
    for &x in exits.iter().filter(|_| exits.len() > 1) {
        let data = &f.blocks[x];
        let leaves_from_one_block = data.preds.len() == 1 && data.phis.is_empty();
        match data.term {
            Some(Terminator::Return(_) | Terminator::Unreachable) if leaves_from_one_block => {
                blocks.push(x)
            }
            Some(Terminator::Jump(t)) if leaves_from_one_block && !loops.contains(l, t) => {
                blocks.push(x);
                targets.push(t);
            }
            _ => targets.push(x),
        }
    }
    targets.sort_unstable();
    targets.dedup();
    let exit = match targets[..] {
        [] => return Some((blocks, None)),
        [exit] => exit,
        _ => return None,
    };
    let only_from_region = f.blocks[exit].preds.iter().all(|p| blocks.contains(p));
    (only_from_region && !blocks.contains(&exit)).then_some((blocks, Some(exit)))
}

/// The values defined in `region` and used outside it (other than by the
/// exit's phis, which the copy extends), if each one's definition
/// dominates every edge into `exit`: the exit can then merge both copies'
/// values in a phi. Without an exit (every exit returns) nothing outside
/// the region can use its values.
fn live_out(
    f: &Function,
    loops: &Loops,
    region: &[Block],
    dom: &DomTree,
    exit: Option<Block>,
) -> Option<Vec<Value>> {
    let mut in_region = SecondaryMap::with_default(false);
    for &b in region {
        in_region[b] = true;
    }
    let mut out = Vec::new();
    let mut noted = FxHashSet::default();
    // The exit's phi arguments are used in their predecessors, in the
    // region: the copy extends them instead.
    f.for_each_use(|at, v| {
        if in_region[at] || !dom.is_reachable(at) {
            return;
        }
        if loops.def_block(f, v).is_some_and(|b| in_region[b]) && noted.insert(v) {
            out.push(v);
        }
    });
    let Some(exit) = exit else {
        return out.is_empty().then_some(out);
    };
    let dominates_exit_edges = |v: &Value| {
        let def = loops.def_block(f, *v).expect("defined in the loop");
        f.blocks[exit].preds.iter().all(|&p| dom.dominates(def, p))
    };
    out.iter().all(dominates_exit_edges).then_some(out)
}

struct Planner<'a> {
    f: &'a Function,
    dom: &'a DomTree,
    loops: &'a Loops,
    l: Loop,
    counted: Option<CountedLoop>,
    /// The guard stage after which a value is available: 0 for values
    /// defined outside the loop, one more than its operands' for a load,
    /// its operands' for recomputed arithmetic.
    stage: FxHashMap<Value, usize>,
    /// See [`Plan::same_as`].
    same_as: FxHashMap<Value, Value>,
    /// See [`Plan::recomputed`].
    recomputed: FxHashSet<Value>,
    stages: Vec<(Vec<Inst>, Vec<Guard>)>,
    /// The constants each array is walked with, by array and the rest of
    /// the index.
    walks: FxHashMap<WalkKey, (i64, i64)>,
    /// The smallest constant of each walk indexed by its remainder.
    remainders: FxHashMap<RemainderKey, i64>,
    /// The range of each [`Span`], by array and terms.
    spans: FxHashMap<(Value, ScaledBase), (i64, i64)>,
    unchecked: FxHashSet<Inst>,
    hoisted: FxHashSet<Inst>,
    reduced: Vec<Reduced>,
}

impl Planner<'_> {
    /// Whether the copy is worth its code (which costs compile time like
    /// the loop itself, and adds values that compete for registers with
    /// the rest of the function): it saves a load or a check, and at least
    /// twice as many as it leaves checked (those `ir::bounds` checks
    /// before the loop aside).
    fn is_worth_it(&self, checks: &CheckPlan) -> bool {
        let ahead = |i: Inst| checks.checked_before_loop(i);
        let left = (self.insts())
            .filter(|&(_, i)| {
                self.f.insts[i].kind.bounds_check() == Some(true)
                    && !ahead(i)
                    && !self.unchecked.contains(&i)
                    && !self.hoisted.contains(&i)
            })
            .count();
        let saved = self.unchecked.iter().filter(|&&i| !ahead(i)).count() + self.hoisted.len();
        saved > 0
            && 2 * left <= saved
            && self.weight() <= INSTS_PER_SAVED * saved
            && self.pays_for_guards(saved)
    }

    /// The loop's instructions, a call counted as [`CALL_WEIGHT`] (the
    /// callee's work dilutes what a check saves in the caller's loop).
    fn weight(&self) -> usize {
        self.insts()
            .map(|(_, i)| match self.f.insts[i].kind {
                InstKind::Call(..) => CALL_WEIGHT,
                _ => 1,
            })
            .sum()
    }

    /// Whether the checks and loads a loop of known trip count saves
    /// outweigh the guards' compares ([`Guard::cost`]), a check being a
    /// compare too. Of a loop whose trip count is not known, many
    /// iterations are assumed.
    fn pays_for_guards(&self, saved_per_iteration: usize) -> bool {
        let Some(trips) = self.counted.and_then(|c| c.constant_trips(self.f)) else {
            return true;
        };
        let cost: u64 = self
            .stages
            .iter()
            .flat_map(|(_, g)| g)
            .map(Guard::cost)
            .sum();
        (trips as u64).saturating_mul(saved_per_iteration as u64) > cost
    }

    fn insts(&self) -> impl Iterator<Item = (Block, Inst)> + '_ {
        let blocks = &self.loops.loops[self.l].blocks;
        blocks
            .iter()
            .flat_map(|&b| self.f.blocks[b].insts.iter().map(move |&i| (b, i)))
    }

    /// The value the guards compute for `v`: one load per element.
    fn canonical(&self, v: Value) -> Value {
        self.same_as.get(&v).copied().unwrap_or(v)
    }

    /// The stage `v` is available after, if it can be before the loop:
    /// defined outside it, loaded by the guards, or computed in the loop
    /// by pure arithmetic from such values (`i - 1` for a row `m[i - 1]`),
    /// which the guards then compute too.
    fn stage_of(&mut self, v: Value) -> Option<usize> {
        self.stage_within(v, MAX_RECOMPUTED_DEPTH)
    }

    fn stage_within(&mut self, v: Value, depth: u32) -> Option<usize> {
        if self.loops.is_invariant(self.f, self.l, v) {
            return Some(0);
        }
        if let Some(&s) = self.stage.get(&v) {
            return Some(s);
        }
        let ValueDef::Inst(inst) = self.f.values[v].def else {
            return None;
        };
        let kind = &self.f.insts[inst].kind;
        if depth == 0 || !kind.is_removable_if_unused() {
            return None;
        }
        let mut s = 0;
        for operand in kind.operands() {
            s = s.max(self.stage_within(operand, depth - 1)?);
        }
        self.stage.insert(v, s);
        self.recomputed.insert(v);
        Some(s)
    }

    fn stage_mut(&mut self, s: usize) -> &mut (Vec<Inst>, Vec<Guard>) {
        while self.stages.len() <= s {
            self.stages.push(Default::default());
        }
        &mut self.stages[s]
    }

    fn guard(&mut self, s: usize, g: Guard) {
        let guards = &mut self.stage_mut(s).1;
        if !guards.contains(&g) {
            guards.push(g);
        }
    }

    /// Loads of an invariant element, in a loop without calls and without
    /// stores of the element's type; in reverse post-order, so a row's
    /// row comes after it.
    fn hoist_invariant_loads(&mut self) {
        let Some(stores) = self.loops.stores(self.f, self.l, &[]) else {
            return;
        };
        let loads: Vec<(Inst, Value, Value, Value)> = self
            .insts()
            .filter_map(|(_, i)| match self.f.insts[i].kind {
                InstKind::ArrayGet { array, index, .. } => {
                    let r = self.f.insts[i].result?;
                    Some((i, r, array, index))
                }
                _ => None,
            })
            .collect();
        let mut loaded: FxHashMap<(Value, Value), Value> = FxHashMap::default();
        for (inst, result, array, index) in loads {
            if stores.may_change(self.f, array, self.f.value_ty(result)) {
                continue;
            }
            let (Some(sa), Some(si)) = (self.stage_of(array), self.stage_of(index)) else {
                continue;
            };
            let (array, canonical_index) = (self.canonical(array), self.canonical(index));
            let s = sa.max(si);
            self.stage.insert(result, s + 1);
            self.hoisted.insert(inst);
            if let Some(&first) = loaded.get(&(array, canonical_index)) {
                self.same_as.insert(result, first);
                continue;
            }
            loaded.insert((array, canonical_index), result);
            // A span's guard goes in at the latest stage of its array and
            // term (`add_walks`), no later than `s`: before the load.
            match self.invariant_span(index) {
                Some(span) => self.widen_span(array, span),
                None => self.guard(
                    s,
                    Guard::Index {
                        array,
                        index: canonical_index,
                    },
                ),
            }
            self.stage_mut(s + 1).0.push(inst);
        }
    }

    /// Guards for the other accesses to arrays available before the loop:
    /// invariant indices, and [`Affine`] walks of the counter.
    fn guard_accesses(&mut self) {
        let header = self.loops.loops[self.l].header;
        let accesses: Vec<(Block, Inst, Value, Value)> = self
            .insts()
            .filter(|(_, i)| !self.hoisted.contains(i))
            .filter_map(|(b, i)| match self.f.insts[i].kind {
                InstKind::ArrayGet {
                    array,
                    index,
                    checked: true,
                }
                | InstKind::ArraySet {
                    array,
                    index,
                    checked: true,
                    ..
                } => Some((b, i, array, index)),
                _ => None,
            })
            .collect();
        for (block, inst, array, index) in accesses {
            let Some(sa) = self.stage_of(array) else {
                continue;
            };
            let array = self.canonical(array);
            if let Some(si) = self.stage_of(index) {
                if let Some(span) = self.invariant_span(index) {
                    self.widen_span(array, span);
                } else {
                    let index = self.canonical(index);
                    self.guard(sa.max(si), Guard::Index { array, index });
                }
                self.unchecked.insert(inst);
                continue;
            }
            let Some(counted) = self.counted else {
                continue;
            };
            if block == header {
                continue;
            }
            let counter = counted.counter.phi;
            if let Some((a, divisor)) = self.remainder(index, counter) {
                let base = self.canonical_base(a.base);
                let key = ((array, a.down, base), divisor);
                let low = self.remainders.entry(key).or_insert(a.c);
                *low = (*low).min(a.c);
                self.unchecked.insert(inst);
                // A power of two is cheaper as a mask; other divisors,
                // constants included (a multiply by a reciprocal and its
                // fix-ups), are carried.
                let power_of_two =
                    (self.f.int_constant(divisor)).is_some_and(|m| m > 0 && m & (m - 1) == 0);
                if !a.down && counted.counter.steps_by_one && !power_of_two {
                    self.reduce(index, base, a.c, divisor);
                }
                continue;
            }
            let Some(a) = self.affine(index, counter, 4) else {
                if let Some(span) = self.span_of_index(index, counted) {
                    self.widen_span(array, span);
                    self.unchecked.insert(inst);
                }
                continue;
            };
            if !within(a.c, MAX_OFFSET) {
                continue;
            }
            let base = self.canonical_base(a.base);
            let walk = self
                .walks
                .entry((array, a.down, base))
                .or_insert((a.c, a.c));
            walk.0 = walk.0.min(a.c);
            walk.1 = walk.1.max(a.c);
            self.unchecked.insert(inst);
        }
    }

    /// An index available before the loop as a [`Span`]: `x + c` (or `x`)
    /// as the one term `x` and the constant `c`, or a constant `c >= 0`
    /// alone; so that the guard of `a[x]`, `a[x + 1]`, …, `a[x + 7]` is
    /// one test of `x`, and that of `a[0]`, …, `a[7]` one of `len(a)`.
    fn invariant_span(&mut self, index: Value) -> Option<Span> {
        if let Some(c) = self.f.int_constant(index) {
            return (c >= 0).then(|| Span::within([None, None], c, c)).flatten();
        }
        let (x, c) = (self.f.def_kind(index))
            .and_then(|kind| self.f.constant_offset(kind))
            .filter(|&(x, _)| self.stage_of(x).is_some())
            .unwrap_or((index, 0));
        Span::within([Some((self.canonical(x), 1)), None], c, c)
    }

    /// Makes the guard of `array`'s span with `span`'s terms cover `span`.
    fn widen_span(&mut self, array: Value, span: Span) {
        let range = (self.spans)
            .entry((array, span.terms))
            .or_insert((span.low, span.high));
        *range = (range.0.min(span.low), range.1.max(span.high));
    }

    /// Carries remainder `v` (`(counter + base + c) % divisor`) in the
    /// copy, once however many accesses use it.
    fn reduce(&mut self, v: Value, base: Base, c: i64, divisor: Value) {
        let ValueDef::Inst(irem) = self.f.values[v].def else {
            unreachable!("a remainder is an instruction's result");
        };
        if self.reduced.iter().all(|r| r.irem != irem) {
            self.reduced.push(Reduced {
                irem,
                base,
                c,
                divisor,
            });
        }
    }

    /// The base's values as the guards compute them, in a fixed order.
    fn canonical_base(&self, base: Base) -> Base {
        let mut base = base.map(|t| t.map(|v| self.canonical(v)));
        base.sort_unstable();
        base
    }

    /// `v` as `x % divisor` with `x` an [`Affine`] walk of `counter` and
    /// the divisor available before the loop (as the guards compute it).
    fn remainder(&mut self, v: Value, counter: Value) -> Option<(Affine, Value)> {
        let ValueDef::Inst(inst) = self.f.values[v].def else {
            return None;
        };
        let InstKind::Binary(BinaryOp::IRem, x, divisor) = self.f.insts[inst].kind else {
            return None;
        };
        self.stage_of(divisor)?;
        let a = self.affine(x, counter, 4)?;
        within(a.c, MAX_OFFSET).then(|| (a, self.canonical(divisor)))
    }

    /// `v` as an [`Affine`] index in `counter`, looking through at most
    /// `depth` additions and subtractions.
    fn affine(&mut self, v: Value, counter: Value, depth: u32) -> Option<Affine> {
        if v == counter {
            return Some(Affine {
                down: false,
                base: [None, None],
                c: 0,
            });
        }
        let ValueDef::Inst(inst) = self.f.values[v].def else {
            return None;
        };
        if depth == 0 {
            return None;
        }
        let int = |x: Value| self.f.int_constant(x).filter(|&n| within(n, MAX_OFFSET));
        match self.f.insts[inst].kind {
            InstKind::Binary(BinaryOp::IAdd, a, b) => {
                let (walked, other) = match self.affine(a, counter, depth - 1) {
                    Some(w) => (w, b),
                    None => (self.affine(b, counter, depth - 1)?, a),
                };
                self.plus(walked, other)
            }
            InstKind::Binary(BinaryOp::ISub, a, b) => {
                if let Some(walked) = self.affine(a, counter, depth - 1) {
                    return int(b).map(|n| Affine {
                        c: walked.c - n,
                        ..walked
                    });
                }
                // a - (counter + base + c): down, from a - base - c.
                let walked = self.affine(b, counter, depth - 1)?;
                if walked.down || walked.base != [None, None] {
                    return None;
                }
                let negated = Affine {
                    down: true,
                    base: [None, None],
                    c: -walked.c,
                };
                self.plus(negated, a)
            }
            _ => None,
        }
    }

    /// `walked + other`: a constant joins `c`, an available value the base.
    fn plus(&mut self, walked: Affine, other: Value) -> Option<Affine> {
        if let Some(n) = self.f.int_constant(other) {
            if within(n, MAX_OFFSET) {
                return Some(Affine {
                    c: walked.c + n,
                    ..walked
                });
            }
        }
        self.stage_of(other)?;
        let mut base = walked.base;
        let free = base.iter_mut().find(|t| t.is_none())?;
        *free = Some(other);
        Some(Affine { base, ..walked })
    }

    /// `index` as a [`Span`], when it is a join with a known range or the
    /// counter runs over constants, and the index is not always out of
    /// bounds.
    fn span_of_index(&mut self, index: Value, counted: CountedLoop) -> Option<Span> {
        if self.f.phi_block(index).is_some() {
            return self.join_span(index).filter(|span| span.low >= 0);
        }
        let (init, last) = constant_counter_range(self.f, counted)?;
        let counter = Span::within([None, None], init, last)?;
        let span = self.span(index, counted.counter.phi, counter, MAX_SPAN_DEPTH)?;
        (!span.is_range() || span.low >= 0).then_some(span)
    }

    /// Phi `v` (not the counter) as the constant [`Span`] its range is, a
    /// join of values whose ranges the conditions on its edges bound (a
    /// clamp: `if x < lo { lo } else if x > hi { hi } else { x }`).
    fn join_span(&self, v: Value) -> Option<Span> {
        let b = self.f.phi_block(v)?;
        let ranges = Ranges::new(self.f, self.loops, Some(self.dom));
        let (lo, hi) = ranges.at(&ranges.place(b), v)?;
        Span::within([None, None], lo, hi)
    }

    /// `v` as a [`Span`], where `counter` ranges over `counter_span`,
    /// looking through at most `depth` operations.
    fn span(&mut self, v: Value, counter: Value, counter_span: Span, depth: u32) -> Option<Span> {
        if v == counter {
            return Some(counter_span);
        }
        if let Some(n) = self.f.int_constant(v) {
            return Span::within([None, None], n, n);
        }
        if self.stage_of(v).is_some() {
            return Some(Span {
                terms: [Some((v, 1)), None],
                low: 0,
                high: 0,
            });
        }
        if self.f.phi_block(v).is_some() {
            return self.join_span(v);
        }
        let ValueDef::Inst(inst) = self.f.values[v].def else {
            return None;
        };
        if depth == 0 {
            return None;
        }
        let InstKind::Binary(op, a, b) = self.f.insts[inst].kind else {
            return None;
        };
        let (ka, kb) = (self.f.int_constant(a), self.f.int_constant(b));
        let mut span = |x| self.span(x, counter, counter_span, depth - 1);
        match (op, ka, kb) {
            (BinaryOp::IAdd, ..) => span(a)?.plus(span(b)?),
            (BinaryOp::ISub, ..) => span(a)?.plus(span(b)?.times(-1)?),
            (BinaryOp::IMul, _, Some(k)) => span(a)?.times(k),
            (BinaryOp::IMul, Some(k), _) => span(b)?.times(k),
            (BinaryOp::Shl, _, Some(k)) if (0..63).contains(&k) => span(a)?.times(1 << k),
            // Truncating division by a positive constant is monotone.
            (BinaryOp::IDiv, _, Some(k)) if k > 0 => span(a)?.monotone(|x| x / k),
            (BinaryOp::Shr, _, Some(k)) if (0..64).contains(&k) => span(a)?.monotone(|x| x >> k),
            (BinaryOp::IRem, _, Some(k)) => span(a)?.remainder(k),
            // A clamp by `min`/`max` with a constant.
            (BinaryOp::IMin, _, Some(k)) => span(a)?.monotone(|x| x.min(k)),
            (BinaryOp::IMin, Some(k), _) => span(b)?.monotone(|x| x.min(k)),
            (BinaryOp::IMax, _, Some(k)) => span(a)?.monotone(|x| x.max(k)),
            (BinaryOp::IMax, Some(k), _) => span(b)?.monotone(|x| x.max(k)),
            (BinaryOp::And, _, Some(k)) if k >= 0 => {
                let x = span(a).filter(|x| x.is_range() && x.low >= 0);
                Span::within([None, None], 0, x.map_or(k, |x| x.high.min(k)))
            }
            _ => None,
        }
    }

    fn add_walks(&mut self) {
        let mut walks: Vec<(WalkKey, (i64, i64))> = self.walks.drain().collect();
        walks.sort_unstable();
        for ((array, down, base), (low, high)) in walks {
            let mut s = self.stage_of(array).expect("walked arrays are available");
            for t in base.into_iter().flatten() {
                s = s.max(self.stage_of(t).expect("base terms are available"));
            }
            let walk = Guard::Walk {
                array,
                down,
                base,
                low,
                high,
            };
            self.guard(s, walk);
        }
        let mut remainders: Vec<(RemainderKey, i64)> = self.remainders.drain().collect();
        remainders.sort_unstable();
        for (((array, down, base), divisor), low) in remainders {
            let s = [array, divisor]
                .into_iter()
                .chain(base.into_iter().flatten())
                .map(|v| self.stage_of(v).expect("remainder operands are available"))
                .max()
                .unwrap_or(0);
            let remainder = Guard::Remainder {
                array,
                down,
                base,
                low,
                divisor,
            };
            self.guard(s, remainder);
        }
        let mut spans: Vec<((Value, ScaledBase), (i64, i64))> = self.spans.drain().collect();
        spans.sort_unstable();
        for ((array, terms), (low, high)) in spans {
            let s = std::iter::once(array)
                .chain(terms.into_iter().flatten().map(|(v, _)| v))
                .map(|v| self.stage_of(v).expect("span operands are available"))
                .max()
                .unwrap_or(0);
            let terms = terms.map(|t| t.map(|(v, k)| (self.canonical(v), k)));
            let span = Guard::Span {
                array,
                terms,
                low,
                high,
            };
            self.guard(s, span);
        }
    }
}

/// Makes the copy and the guards of one [`Plan`].
struct Copier<'p> {
    plan: &'p Plan,
    /// The loops the plan was made with (of the CFG before the copy).
    loops: &'p Loops,
    /// Where the guards run (before the loop's preheader), for the
    /// conditions compile-time ranges decide (`ir::ranges`).
    guards_at: Place,
    /// Some guard tests a condition not known to hold at compile time:
    /// the original loop stays, for when one fails.
    may_fail: bool,
    /// Some guard is known to fail at compile time: the copy is dropped.
    never_fast: bool,
    /// The copy of each loop block.
    blocks: FxHashMap<Block, Block>,
    /// The copy's value for each value of the loop (and the guards' for
    /// hoisted loads).
    values: FxHashMap<Value, Value>,
    /// The values the guards have tested to lie within a limit, and the
    /// limit ([`Copier::require_within`]).
    range_tested: FxHashSet<(Value, i64)>,
    /// The plan's `magnitudes`, and those of the guards' recomputed
    /// values of them.
    magnitudes: FxHashMap<Value, u64>,
}

impl<'p> Copier<'p> {
    fn new(f: &mut Function, plan: &'p Plan, loops: &'p Loops, dom: &'p DomTree) -> Self {
        let blocks = plan
            .blocks
            .iter()
            .map(|&b| (b, f.blocks.push(BlockData::default())))
            .collect();
        let guards_at = Ranges::new(f, loops, Some(dom)).place(plan.preheader);
        Copier {
            plan,
            loops,
            guards_at,
            may_fail: false,
            never_fast: false,
            blocks,
            values: FxHashMap::default(),
            range_tested: FxHashSet::default(),
            magnitudes: plan.magnitudes.clone(),
        }
    }

    fn value(&self, v: Value) -> Value {
        let v = self.plan.same_as.get(&v).copied().unwrap_or(v);
        self.values.get(&v).copied().unwrap_or(v)
    }

    fn block(&self, b: Block) -> Block {
        self.blocks.get(&b).copied().unwrap_or(b)
    }

    /// `v` as the guards see it in `block`: a loaded or recomputed value
    /// of theirs, computed here if no earlier guard block has.
    fn operand(&mut self, f: &mut Function, block: Block, v: Value) -> Value {
        let v = self.plan.same_as.get(&v).copied().unwrap_or(v);
        if let Some(&mapped) = self.values.get(&v) {
            return mapped;
        }
        if !self.plan.recomputed.contains(&v) {
            return v;
        }
        let ValueDef::Inst(inst) = f.values[v].def else {
            unreachable!("recomputed values are instruction results");
        };
        let mut kind = f.insts[inst].kind.clone();
        for operand in kind.operands() {
            self.operand(f, block, operand);
        }
        kind.map_operands(|o| self.value(o));
        let copy = f.push_inst(block, kind, f.value_ty(v));
        self.values.insert(v, copy);
        if let Some(&m) = self.plan.magnitudes.get(&v) {
            self.magnitudes.insert(copy, m);
        }
        copy
    }

    /// The guards' values of a [`Base`]'s terms.
    fn operands(&mut self, f: &mut Function, block: Block, base: Base) -> Vec<Value> {
        base.into_iter()
            .flatten()
            .map(|t| self.operand(f, block, t))
            .collect()
    }

    /// Builds the guards and the copy; returns the copy's header.
    fn copy(mut self, f: &mut Function) -> Block {
        let plan = self.plan;
        // Each copy gets a preheader of its own, which just jumps to it.
        let original = f.blocks.push(BlockData::default());
        let fast = f.blocks.push(BlockData::default());
        let (first_guard, guards) = self.guards(f, original, fast);
        f.blocks[fast].term = Some(Terminator::Jump(self.block(plan.header)));
        // Before the copy's definitions take the place of the values the
        // guards recomputed from the loop's (a divisor made in the loop).
        let starts = self.remainder_operands(f, fast);
        self.copy_definitions(f);
        self.copy_uses(f, fast);
        self.carry_remainders(f, fast, starts);
        // The preheader enters the guards; the original loop is entered
        // from the block the failing guards go to.
        f.retarget(plan.preheader, plan.header, first_guard);
        f.blocks[first_guard].preds.push(plan.preheader);
        f.blocks[original].term = Some(Terminator::Jump(plan.header));
        f.replace_pred(plan.header, plan.preheader, original);
        let splits = self.join_at_exit(f);
        let copy_header = self.block(plan.header);
        let at = f
            .layout
            .iter()
            .position(|&b| b == plan.header)
            .expect("the header is laid out");
        let copies = plan.blocks.iter().map(|&b| self.block(b));
        let new: Vec<Block> = guards
            .into_iter()
            .chain([fast])
            .chain(copies)
            .chain(splits)
            .chain([original])
            .collect();
        f.layout.splice(at..at, new);
        if !self.may_fail || self.never_fast {
            // No guard can fail (nothing enters the original loop), or one
            // always does (nothing enters the copy); the guards' values
            // for the conditions decided are unused.
            super::tidy::remove_unreachable_blocks(f);
            super::tidy::remove_dead_pure_insts(f);
        }
        copy_header
    }

    /// The guard blocks, in order; each ends in a branch to the next (the
    /// last to `fast`) or to `original` (a jump to one of them where its
    /// conditions are decided). Returns the first and all of them.
    fn guards(&mut self, f: &mut Function, original: Block, fast: Block) -> (Block, Vec<Block>) {
        let plan = self.plan;
        let blocks: Vec<Block> = plan
            .stages
            .iter()
            .map(|_| f.blocks.push(BlockData::default()))
            .collect();
        for (s, (loads, guards)) in plan.stages.iter().enumerate() {
            let block = blocks[s];
            for &load in loads {
                let InstKind::ArrayGet { array, index, .. } = f.insts[load].kind else {
                    unreachable!("hoisted loads are gets");
                };
                let result = f.insts[load].result.expect("a get has a result");
                let kind = InstKind::ArrayGet {
                    array: self.operand(f, block, array),
                    index: self.operand(f, block, index),
                    checked: false,
                };
                let v = f.push_inst(block, kind, f.value_ty(result));
                self.values.insert(result, v);
            }
            let mut code = GuardCode::new(block);
            for &g in guards {
                self.test(f, &mut code, g);
            }
            let all = code.conjunction(f);
            self.may_fail |= all.is_some();
            // A guard known to fail at compile time: the copy never runs.
            let fails = code.always_fails(f);
            self.never_fast |= fails;
            let next = match blocks.get(s + 1) {
                _ if fails => original,
                Some(&b) => b,
                None => fast,
            };
            f.blocks[next].preds.push(block);
            f.blocks[block].term = Some(match all {
                Some(cond) if !fails => {
                    f.blocks[original].preds.push(block);
                    Terminator::Branch {
                        cond,
                        then_block: next,
                        else_block: original,
                    }
                }
                _ => Terminator::Jump(next),
            });
        }
        (blocks[0], blocks)
    }

    /// Requires in `code` the conditions under which guard `g` holds.
    fn test(&mut self, f: &mut Function, code: &mut GuardCode, g: Guard) {
        let block = code.block;
        match g {
            Guard::Index { array, index } => {
                let array = self.operand(f, block, array);
                let index = self.operand(f, block, index);
                let len = code.len(f, array);
                let zero = code.int(f, 0);
                self.require(f, code, Cmp::Ge, index, zero);
                self.require(f, code, Cmp::Lt, index, len);
            }
            Guard::Walk {
                array,
                down,
                base,
                low,
                high,
            } => {
                let array = self.operand(f, block, array);
                let terms = self.operands(f, block, base);
                self.test_walk(f, code, array, down, &terms, (low, high))
            }
            Guard::Remainder {
                array,
                down,
                base,
                low,
                divisor,
            } => {
                let array = self.operand(f, block, array);
                let divisor = self.operand(f, block, divisor);
                let terms = self.operands(f, block, base);
                self.test_remainder(f, code, (array, divisor), down, &terms, low)
            }
            Guard::Span {
                array,
                terms,
                low,
                high,
            } => {
                let array = self.operand(f, block, array);
                self.test_span(f, code, array, terms, (low, high))
            }
        }
    }

    /// Whether `terms + c` lies in bounds of `array` for every `c` in
    /// `low..=high`. Each term is tested to be small enough first, so that
    /// the sums cannot wrap.
    fn test_span(
        &mut self,
        f: &mut Function,
        code: &mut GuardCode,
        array: Value,
        terms: ScaledBase,
        (low, high): (i64, i64),
    ) {
        let block = code.block;
        let mut sum = None;
        // One term of scale ±1 is its own sum, which cannot wrap (but as
        // `0 - i64::MIN`, which the test below then fails): the two
        // compares of the sum bound it.
        let unwrapped = is_one_unit_term(&terms);
        for (term, k) in terms.into_iter().flatten() {
            let x = self.operand(f, block, term);
            if !unwrapped {
                // A term with scale ±1 is tested as the walks' are (and
                // once for both); a scaled one within a smaller limit.
                let limit = if within(k, 1) {
                    MAX_TERM
                } else {
                    MAX_TERM / MAX_SCALE
                };
                self.require_within(f, code, x, limit);
            }
            let scaled = match k {
                1 => x,
                -1 => {
                    let zero = code.int(f, 0);
                    code.binary(f, BinaryOp::ISub, zero, x)
                }
                _ => {
                    let k = code.int(f, k);
                    code.binary(f, BinaryOp::IMul, x, k)
                }
            };
            sum = Some(match sum {
                Some(s) => code.binary(f, BinaryOp::IAdd, s, scaled),
                None => scaled,
            });
        }
        let len = code.len(f, array);
        let Some(sum) = sum else {
            // No terms: `low >= 0` was known when the span was taken.
            let high_c = code.int(f, high);
            self.require(f, code, Cmp::Lt, high_c, len);
            return;
        };
        let room = match high {
            0 => len,
            _ => {
                let high_c = code.int(f, high);
                code.binary(f, BinaryOp::ISub, len, high_c)
            }
        };
        let min_sum = code.int(f, -low);
        self.require(f, code, Cmp::Ge, sum, min_sum);
        self.require(f, code, Cmp::Lt, sum, room);
    }

    /// Requires `a c b` in `code`, unless the ranges of `a` and `b` known
    /// where the guards run decide it holds.
    fn require(&self, f: &mut Function, code: &mut GuardCode, c: Cmp, a: Value, b: Value) {
        let ranges = Ranges::new(f, self.loops, None);
        if !ranges.decides(&self.guards_at, c, a, b) {
            code.require(f, c, a, b);
        }
    }

    /// Requires `-limit <= x <= limit`, unless `x` is known to lie within
    /// it (a constant, or a term of known range: `Plan::magnitudes`) or an
    /// earlier guard of this copy tested it against that limit.
    fn require_within(&mut self, f: &mut Function, code: &mut GuardCode, x: Value, limit: i64) {
        let magnitude =
            (f.int_constant(x).map(i64::unsigned_abs)).or_else(|| self.magnitudes.get(&x).copied());
        let known = magnitude.is_some_and(|m| m <= limit.unsigned_abs());
        if known || !self.range_tested.insert((x, limit)) {
            return;
        }
        let (min, max) = (code.int(f, -limit), code.int(f, limit));
        self.require(f, code, Cmp::Ge, x, min);
        self.require(f, code, Cmp::Le, x, max);
    }

    /// Whether the walk `array[counter + terms + c]` (`terms - counter +
    /// c` when `down`) stays in bounds for every `c` in `low..=high` and
    /// every value of the counter.
    fn test_walk(
        &mut self,
        f: &mut Function,
        code: &mut GuardCode,
        array: Value,
        down: bool,
        terms: &[Value],
        (low, high): (i64, i64),
    ) {
        let counted = self.plan.counted.expect("walks are of counted loops");
        let (init, bound) = (counted.counter.init, counted.bound);
        let len = code.len(f, array);
        let sum = self.walk_start(f, code, down, terms, low);
        let high_c = code.int(f, high);
        let room = code.binary(f, BinaryOp::ISub, len, high_c);
        let last_below = if counted.inclusive { Cmp::Lt } else { Cmp::Le };
        if !down {
            // bound + base + high <= len (< for `<=` loops).
            let end = sum.map_or(bound, |s| code.binary(f, BinaryOp::IAdd, bound, s));
            self.require(f, code, last_below, end, room);
        } else {
            // base + high - init < len.
            let base_sum = sum.unwrap_or_else(|| code.int(f, 0));
            let highest = code.binary(f, BinaryOp::ISub, base_sum, init);
            self.require(f, code, Cmp::Lt, highest, room);
        }
    }

    /// Whether `(counter + terms + c) % divisor` (`terms - counter + c`
    /// when `down`) lies in bounds of `array` for every `c >= low` and
    /// every value of the counter: the dividend is never negative and
    /// `1 <= divisor <= len(array)`.
    fn test_remainder(
        &mut self,
        f: &mut Function,
        code: &mut GuardCode,
        (array, divisor): (Value, Value),
        down: bool,
        terms: &[Value],
        low: i64,
    ) {
        let len = code.len(f, array);
        self.walk_start(f, code, down, terms, low);
        let one = code.int(f, 1);
        self.require(f, code, Cmp::Ge, divisor, one);
        self.require(f, code, Cmp::Le, divisor, len);
    }

    /// Requires that a walk's smallest index `counter + terms + low`
    /// (`terms - counter + low` when `down`) over all values of the
    /// counter be at least 0; returns the sum of `terms` (none: `None`).
    fn walk_start(
        &mut self,
        f: &mut Function,
        code: &mut GuardCode,
        down: bool,
        terms: &[Value],
        low: i64,
    ) -> Option<Value> {
        let counted = self.plan.counted.expect("walks are of counted loops");
        let (init, bound) = (counted.counter.init, counted.bound);
        // Small values first, so that the sums below cannot wrap (lengths
        // are far below 2^40 too). A term tested by an earlier guard of
        // this copy, or a small constant, needs no test.
        if !terms.is_empty() || down {
            for &x in [init, bound].iter().chain(terms) {
                self.require_within(f, code, x, MAX_TERM);
            }
        }
        let sum = terms
            .iter()
            .copied()
            .reduce(|s, t| code.binary(f, BinaryOp::IAdd, s, t));
        if !down {
            // init + base + low >= 0.
            let first = sum.map_or(init, |s| code.binary(f, BinaryOp::IAdd, init, s));
            let min_first = code.int(f, -low);
            self.require(f, code, Cmp::Ge, first, min_first);
        } else {
            // base + low - last counter >= 0: the counter's last value is
            // bound - 1 (bound for `<=` loops).
            let base_sum = sum.unwrap_or_else(|| code.int(f, 0));
            let lowest = code.binary(f, BinaryOp::ISub, base_sum, bound);
            let slack = if counted.inclusive { -low } else { -low - 1 };
            let min_lowest = code.int(f, slack);
            self.require(f, code, Cmp::Ge, lowest, min_lowest);
        }
        sum
    }

    /// The copy's phis and instruction results, operands left for
    /// [`Copier::copy_uses`] (a phi may use a value defined further on).
    fn copy_definitions(&mut self, f: &mut Function) {
        for &b in &self.plan.blocks {
            let nb = self.block(b);
            for k in 0..f.blocks[b].phis.len() {
                let phi = f.blocks[b].phis[k];
                let v = f.add_phi(nb, f.value_ty(phi), SmallVec::new());
                self.values.insert(phi, v);
            }
            for k in 0..f.blocks[b].insts.len() {
                let inst = f.blocks[b].insts[k];
                if self.plan.hoisted.contains(&inst) {
                    continue;
                }
                if self.plan.reduced.iter().any(|r| r.irem == inst) {
                    // Carried in a header phi instead.
                    let r = f.insts[inst].result.expect("a remainder has a result");
                    let phi = f.add_phi(self.block(self.plan.header), Ty::Int, SmallVec::new());
                    self.values.insert(r, phi);
                    continue;
                }
                let mut data = f.insts[inst].clone();
                if self.plan.unchecked.contains(&inst) {
                    clear_check(&mut data.kind);
                }
                let ni = f.insts.push(InstData {
                    result: None,
                    ..data
                });
                if let Some(r) = data.result {
                    let v = f.values.push(ValueData {
                        ty: f.value_ty(r),
                        def: ValueDef::Inst(ni),
                    });
                    f.insts[ni].result = Some(v);
                    f.copy_class(r, v);
                    self.values.insert(r, v);
                }
                f.blocks[nb].insts.push(ni);
            }
        }
    }

    /// The copy's operands, predecessors, phi operands and terminators.
    fn copy_uses(&self, f: &mut Function, fast: Block) {
        let plan = self.plan;
        for &b in &plan.blocks {
            let nb = self.block(b);
            let preds: SmallVec<[Block; 2]> = f.blocks[b]
                .preds
                .iter()
                .map(|&p| {
                    if p == plan.preheader && b == plan.header {
                        fast
                    } else {
                        self.block(p)
                    }
                })
                .collect();
            f.blocks[nb].preds = preds;
            for k in 0..f.blocks[b].phis.len() {
                let (phi, copy) = (f.blocks[b].phis[k], f.blocks[nb].phis[k]);
                let args: SmallVec<[Value; 2]> =
                    f.phi_args(phi).iter().map(|&a| self.value(a)).collect();
                *f.phi_args_mut(copy).expect("a copied phi") = args;
            }
            for k in 0..f.blocks[nb].insts.len() {
                let ni = f.blocks[nb].insts[k];
                f.insts[ni].kind.map_operands(|v| self.value(v));
            }
            let mut term = f.blocks[b].term.clone().expect("terminated");
            term.map_operands(|v| self.value(v));
            f.blocks[nb].term = Some(term.map_blocks(|b| self.block(b)));
        }
    }

    /// The divisor and the terms of the base of each of [`Plan::reduced`]'s
    /// remainders as the guards (or `fast`) compute them.
    fn remainder_operands(&mut self, f: &mut Function, fast: Block) -> Vec<(Value, Vec<Value>)> {
        (self.plan.reduced.iter())
            .map(|r| {
                (
                    self.operand(f, fast, r.divisor),
                    self.operands(f, fast, r.base),
                )
            })
            .collect()
    }

    /// The operands of the phis that carry [`Plan::reduced`] remainders:
    /// from `fast`, the remainder of the counter's first value, computed
    /// there from `starts` ([`Self::remainder_operands`]); from each
    /// latch, one more, wrapped to zero at the divisor.
    fn carry_remainders(
        &mut self,
        f: &mut Function,
        fast: Block,
        starts: Vec<(Value, Vec<Value>)>,
    ) {
        let plan = self.plan;
        let Some(counted) = plan.counted else {
            return;
        };
        let header = self.block(plan.header);
        // Shared by the remainders, so that their sums are made once.
        let mut code = GuardCode::new(fast);
        for (r, (divisor, terms)) in plan.reduced.iter().zip(starts) {
            let result = f.insts[r.irem].result.expect("a remainder has a result");
            let phi = self.value(result);
            let c = code.int(f, r.c);
            let first = terms
                .into_iter()
                .chain([c])
                .fold(counted.counter.init, |sum, t| {
                    code.binary(f, BinaryOp::IAdd, sum, t)
                });
            let start = f.push_inst(
                fast,
                InstKind::Binary(BinaryOp::IRem, first, divisor),
                Ty::Int,
            );
            let loc = f.insts[r.irem].loc;
            if let ValueDef::Inst(i) = f.values[start].def {
                f.insts[i].loc = loc;
            }
            let preds = f.blocks[header].preds.clone();
            let args = preds
                .into_iter()
                .map(|p| {
                    if p == fast {
                        start
                    } else {
                        wrapped_successor(f, p, phi, divisor)
                    }
                })
                .collect();
            *f.phi_args_mut(phi).expect("a carried remainder's phi") = args;
        }
    }

    /// Both copies' edges into the exit, each through a block of its own
    /// when it leaves from a branch; the exit's phis extended, and a phi
    /// for each value used beyond the loop. Returns the new blocks.
    fn join_at_exit(&self, f: &mut Function) -> Vec<Block> {
        let plan = self.plan;
        let Some(exit) = plan.exit else {
            return Vec::new();
        };
        let originals = f.blocks[exit].preds.clone();
        let mut splits = Vec::new();
        let mut preds: SmallVec<[Block; 2]> = SmallVec::new();
        // Per predecessor of the exit: from the copy?
        let mut from_copy = Vec::new();
        for copy in [false, true] {
            for &p in &originals {
                let p = if copy { self.block(p) } else { p };
                let through = if f.successors(p).len() > 1 {
                    let s = f.blocks.push(BlockData::default());
                    f.blocks[s].preds.push(p);
                    f.blocks[s].term = Some(Terminator::Jump(exit));
                    f.retarget(p, exit, s);
                    splits.push(s);
                    s
                } else {
                    p
                };
                preds.push(through);
                from_copy.push(copy);
            }
        }
        f.blocks[exit].preds = preds;
        for k in 0..f.blocks[exit].phis.len() {
            let phi = f.blocks[exit].phis[k];
            let args: SmallVec<[Value; 2]> = f.phi_args(phi).to_vec().into();
            let copied = args.iter().map(|&a| self.value(a));
            let all: SmallVec<[Value; 2]> = args.iter().copied().chain(copied).collect();
            *f.phi_args_mut(phi).expect("an exit phi") = all;
        }
        let mut merged: FxHashMap<Value, Value> = FxHashMap::default();
        for &v in &plan.live_out {
            let args = from_copy
                .iter()
                .map(|&copy| if copy { self.value(v) } else { v })
                .collect();
            let phi = f.add_phi(exit, f.value_ty(v), args);
            merged.insert(v, phi);
        }
        if !merged.is_empty() {
            self.use_merged(f, &merged, &splits);
        }
        splits
    }

    /// Uses beyond the loop of its values name the exit's phis instead.
    fn use_merged(&self, f: &mut Function, merged: &FxHashMap<Value, Value>, splits: &[Block]) {
        let plan = self.plan;
        let inside: FxHashSet<Block> = plan
            .blocks
            .iter()
            .flat_map(|&b| [b, self.block(b)])
            .chain(splits.iter().copied())
            .collect();
        let exit_phis: FxHashSet<Value> = merged.values().copied().collect();
        let map = |v: Value| merged.get(&v).copied().unwrap_or(v);
        for bi in 0..f.layout.len() {
            let b = f.layout[bi];
            if inside.contains(&b) {
                continue;
            }
            for k in 0..f.blocks[b].insts.len() {
                let i = f.blocks[b].insts[k];
                f.insts[i].kind.map_operands(map);
            }
            if let Some(term) = f.blocks[b].term.as_mut() {
                term.map_operands(map);
            }
            if Some(b) == plan.exit {
                continue;
            }
            for k in 0..f.blocks[b].phis.len() {
                let phi = f.blocks[b].phis[k];
                if exit_phis.contains(&phi) {
                    continue;
                }
                if let Some(args) = f.phi_args_mut(phi) {
                    args.iter_mut().for_each(|a| *a = map(*a));
                }
            }
        }
    }
}

/// Clears an access's bounds check.
/// `r + 1`, or zero where that is `divisor`, computed at the end of
/// `block`.
fn wrapped_successor(f: &mut Function, block: Block, r: Value, divisor: Value) -> Value {
    let one = f.push_inst(block, InstKind::IConst(1), Ty::Int);
    let zero = f.push_inst(block, InstKind::IConst(0), Ty::Int);
    let next = f.push_inst(block, InstKind::Binary(BinaryOp::IAdd, r, one), Ty::Int);
    let at_end = f.push_inst(
        block,
        InstKind::Binary(BinaryOp::ICmp(Cmp::Eq), next, divisor),
        Ty::Bool,
    );
    let kind = InstKind::Select {
        cond: at_end,
        if_true: zero,
        if_false: next,
    };
    f.push_inst(block, kind, Ty::Int)
}

fn clear_check(kind: &mut InstKind) {
    if let InstKind::ArrayGet { checked, .. } | InstKind::ArraySet { checked, .. } = kind {
        *checked = false;
    }
}

/// Makes `block`'s terminator go to `to` where it went to `from`.
/// The guards' code in one block. Their arithmetic often works on
/// constants (a loop from 0, a walk at offset 0), so it folds: constant
/// operands are computed (`semantics::eval_binary`), `x + 0`, `0 + x` and
/// `x - 0` are `x`, and a comparison known to hold is `None`, no code at all.
/// Constants are made once per block.
struct GuardCode {
    block: Block,
    /// The instructions pushed, so that each computation is made once.
    made: FxHashMap<InstKind, Value>,
    /// The conditions required so far, each once, in order.
    required: Vec<Value>,
}

impl GuardCode {
    fn new(block: Block) -> Self {
        GuardCode {
            block,
            made: FxHashMap::default(),
            required: Vec::new(),
        }
    }

    /// `kind`'s result in the block, pushed when first asked for.
    fn make(&mut self, f: &mut Function, kind: InstKind, ty: Ty) -> Value {
        let block = self.block;
        *self
            .made
            .entry(kind)
            .or_insert_with_key(|kind| f.push_inst(block, kind.clone(), ty))
    }

    fn int(&mut self, f: &mut Function, n: i64) -> Value {
        self.make(f, InstKind::IConst(n), Ty::Int)
    }

    fn len(&mut self, f: &mut Function, array: Value) -> Value {
        self.make(f, InstKind::ArrayLen(array), Ty::Int)
    }

    fn known(f: &Function, a: Value, b: Value) -> Option<(semantics::Const, semantics::Const)> {
        f.constant(a).zip(f.constant(b))
    }

    /// `a op b` on ints.
    fn binary(&mut self, f: &mut Function, op: BinaryOp, a: Value, b: Value) -> Value {
        use semantics::Const::Int;
        let folded = Self::known(f, a, b).and_then(|(x, y)| semantics::eval_binary(op, x, y));
        match (folded, f.constant(a), f.constant(b)) {
            (Some(Int(n)), ..) => self.int(f, n),
            (_, _, Some(Int(0))) if matches!(op, BinaryOp::IAdd | BinaryOp::ISub) => a,
            (_, Some(Int(0)), _) if op == BinaryOp::IAdd => b,
            _ => match Self::cancelled(f, op, a, b) {
                Some(x) => x,
                // Ordered, so that `a + b` and `b + a` are made once.
                None => self.make(f, canonicalize(InstKind::Binary(op, a, b)), Ty::Int),
            },
        }
    }

    /// `(x + y) - y` is `x` and `(x - y) + y` is `x` (ints wrap): a walk's
    /// end often adds and takes away the same bound.
    fn cancelled(f: &Function, op: BinaryOp, a: Value, b: Value) -> Option<Value> {
        let Some(&InstKind::Binary(inner, x, y)) = f.def_kind(a) else {
            return None;
        };
        match (op, inner) {
            (BinaryOp::ISub, BinaryOp::IAdd) if y == b => Some(x),
            (BinaryOp::ISub, BinaryOp::IAdd) if x == b => Some(y),
            (BinaryOp::IAdd, BinaryOp::ISub) if y == b => Some(x),
            _ => None,
        }
    }

    /// Requires `a c b` (nothing when it is known to hold).
    fn require(&mut self, f: &mut Function, c: Cmp, a: Value, b: Value) {
        let op = BinaryOp::ICmp(c);
        let cond = match Self::known(f, a, b).and_then(|(x, y)| semantics::eval_binary(op, x, y)) {
            Some(semantics::Const::Bool(true)) => return,
            Some(semantics::Const::Bool(false)) => self.make(f, InstKind::BConst(false), Ty::Bool),
            _ => self.make(f, InstKind::Binary(op, a, b), Ty::Bool),
        };
        if !self.required.contains(&cond) {
            self.required.push(cond);
        }
    }

    /// Whether a required condition is known to be false.
    fn always_fails(&self, f: &Function) -> bool {
        (self.required.iter()).any(|&c| matches!(f.def_kind(c), Some(InstKind::BConst(false))))
    }

    /// All the required conditions together; `None` when there are none.
    fn conjunction(&mut self, f: &mut Function) -> Option<Value> {
        let block = self.block;
        let both = |f: &mut Function, a, b| {
            f.push_inst(block, InstKind::Binary(BinaryOp::And, a, b), Ty::Bool)
        };
        self.required.iter().copied().reduce(|a, b| both(f, a, b))
    }
}
