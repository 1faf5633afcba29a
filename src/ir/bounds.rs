//! Which array accesses need no bounds check, proven on the SSA form.
//!
//! Two facts of Toy make this easy on SSA: an array's length never
//! changes, and an SSA value names one array for its whole life. An access
//! `a[i]` is in bounds when one of these holds:
//!
//! 1. it is dominated by an access `a[j]` with `j` the same value, or with
//!    constants `0 <= i <= j` (had that check failed, the program would
//!    have stopped there); or by an access `b[i]` where `b`'s known length
//!    is at most `a`'s (`code[pc]` then `args[pc]`, both of 256);
//! 2. `i` is a constant below a length known from `a`'s allocation
//!    (`[e; 10]`, `[x, y, z]`), or has a largest value below it: `x & c`
//!    (at most `c`), `x % c` of a non-negative `x`, and phis and selects
//!    of such (a hash table's probe `i = (i + 1) & mask`);
//! 3. `i` is non-negative and the access lies in a region entered only
//!    through the true edge of `i < len(a)` — or of `i < n` where `a` was
//!    allocated as `[e; n]`. This covers `for i in 0..len(a)` and
//!    `while i < len(a) { …; i += 1; }`.
//!
//! 7. the range of `i` known where it is read (`ir::ranges`: counters of
//!    counted loops within their bodies, constants, lengths `ir::alias`
//!    knows, sums and multiples of them, narrowed by the comparisons with
//!    constants that branch to the access) lies in `0..n`, with `n` a
//!    length known from `a`'s allocation or `ir::alias` (`board[r * 7 +
//!    c + 3]` under `if c + 3 < 7` in `for r in 0..6 { for c in 0..7`
//!    over boards of 42).
//!
//! Non-negativity is a greatest fixed point over constants, lengths,
//! phis, selects, `x + 1` where `x < bound` holds (so the add cannot
//! wrap), `x + k` where `x` is below a length or a small constant, `x &
//! c` with `c >= 0`, and `x % m`, `x >> k` and `x / c` (`c > 0`) of such
//! `x`: the loop counter `phi(0, i + 1)` qualifies by induction.
//!
//! Some of the checks that remain can run *earlier* than their access:
//! a program stops at its first failing check, and what it did before
//! (arithmetic, array stores) cannot be seen afterwards — only its output
//! can. So a check may move up past anything that neither prints, nor
//! calls a function that is not [quiet](is_quiet), nor can fail, if it
//! then reports exactly what the original would have. Checked once on
//! entry to a loop (at the end of its preheader, when the loop runs):
//!
//! 4. `a[u]` and `a[v]` in a loop `while u < v` whose `u` only grows and
//!    `v` only shrinks (by constant steps), when the body's first block
//!    reads both before anything else: every iteration's `u` and `v` lie
//!    between their values on entry, where the first iteration reads `a`,
//!    so its two checks, in its order, cover the loop (reversing a range
//!    in place);
//! 5. `a[u]` in a loop `while u < m` (or `u <= m`) where `m` keeps `u`
//!    below `a`'s length (`m` is `len(a)` or its allocated length; for
//!    `<=`, one less), `u` grows by a step that cannot make it wrap, and
//!    the body's first block reads `a[u]` before anything else: the first
//!    iteration's check covers the loop (marking multiples,
//!    `while j <= n { c[j] = true; j += i; }`, `j` starting at `i * i`);
//! 6. `a[u]` in a loop `for u in u0..m` (steps of one) with no exit but
//!    its header, no inner loop, and nothing else in it that could stop
//!    it or be seen, one such access in every iteration: the loop runs to
//!    its end or stops at the first `u` outside `a` — `u0`, or else
//!    `len(a)` if `m` exceeds it — so one check decides which and reports
//!    that index (a row update, `for j in 0..n { ci[j] += aik * bk[j]; }`).
//!    Likewise for up to three arrays walked in step when every access
//!    runs in every iteration (`c[j] = a[j] + b[j]`): the loop stops at
//!    the smallest such index over the arrays;
//!
//! And *grouped*: a run of constant-index accesses in one block
//! (`b[0] … c[6] … b[3]`) with nothing between them that could stop the
//! program or be seen is checked once, at its first access, against the
//! largest index per array; so is a run of accesses to one array at
//! constant offsets from one value (`code[at]`, `code[at + 1]`, `code[at +
//! 3]`: a record's fields), against its smallest and largest offset. The
//! group's cold path reports the access that would have failed first. A
//! group spans at most
//! [`jitrun_runtime::MAX_GROUP_ARRAYS`] arrays (their lengths go to the
//! runtime in registers). Only the REPL, where arrays outlive a failed
//! entry, must not check early.

use super::dom::DomTree;
use super::loops::{Loop, Loops};
use super::ranges::{Place, Ranges};
use super::*;
use crate::entity::SecondaryMap;
use rustc_hash::{FxHashMap as HashMap, FxHashSet};
use std::cell::RefCell;

/// Lengths, and the constant bounds [`Analysis::increment_of`] trusts,
/// stay below this; so does what it adds to a value below them (an array
/// of `2^40` elements would not fit in memory).
const SMALL: i64 = 1 << 40;

/// What an index is known to be below.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Bound {
    /// `len(array)`.
    Len(Value),
    /// Some value (an allocation's length operand).
    Value(Value),
}

/// Whether an access would be in bounds if it ran at the end of a block
/// (rules 1–3), for passes that move accesses (`ir::licm`).
pub struct Prover<'a> {
    a: Analysis<'a>,
    /// By block, made when first asked: the accesses it makes.
    accessed: HashMap<Block, Accessed>,
}

/// The accesses of a block, by array: the indices, and the largest
/// constant one.
#[derive(Default)]
struct Accessed {
    indices: FxHashSet<(Value, Value)>,
    max_constant: HashMap<Value, i64>,
    /// index → the smallest known length of an array it accessed.
    below: HashMap<Value, i64>,
}

/// How many blocks up the dominator tree [`Prover`] looks for an access
/// that covers another: it answers one query per hoisting candidate, so
/// a walk to the entry would make a function of thousands of loops one
/// after another take quadratic time.
const MAX_PROOF_WALK: usize = 64;

/// How many phis and selects deep rule 2 looks for an index's largest
/// value.
const MAX_DEPTH: usize = 4;

impl<'a> Prover<'a> {
    pub fn new(f: &'a Function, dom: &'a DomTree, loops: &'a Loops) -> Self {
        Prover {
            a: Analysis::new(f, dom, loops, &[], Rules::All),
            accessed: HashMap::default(),
        }
    }

    /// Whether `array[index]`, at the end of `block`, is in bounds: an
    /// access of `array` at `index` (or, for a constant, at one at least
    /// as large) runs before it, in `block` or a block that dominates it
    /// (rule 1, up to [`MAX_PROOF_WALK`] blocks up), or rule 2 or 3 holds
    /// there.
    pub fn in_bounds_at_end(&mut self, array: Value, index: Value, block: Block) -> bool {
        let a = &self.a;
        let (array, index) = (a.root(array), a.root(index));
        let constant = a.int_constant(index);
        let length = a.allocation_const_len(array);
        let mut at = Some(block);
        for _ in 0..MAX_PROOF_WALK {
            let Some(b) = at else { break };
            let accessed = self.accessed.entry(b).or_insert_with(|| a.accesses_of(b));
            if accessed.indices.contains(&(array, index))
                || constant_below(constant, accessed.max_constant.get(&array).copied())
                || shorter_or_equal(accessed.below.get(&index).copied(), length)
            {
                return true;
            }
            at = a.dom.idom(b);
        }
        a.in_bounds_by_facts(array, index, block)
    }
}

/// Rule 1 across arrays: an index below a length `checked` is below a
/// `length` at least as large.
fn shorter_or_equal(checked: Option<i64>, length: Option<i64>) -> bool {
    matches!((checked, length), (Some(c), Some(l)) if c <= l)
}

/// Rule 1 for constants: index `i` is covered by an access at `m` when
/// `0 <= i <= m`.
fn constant_below(i: Option<i64>, m: Option<i64>) -> bool {
    matches!((i, m), (Some(i), Some(m)) if 0 <= i && i <= m)
}

/// A function whose calls the rules may step over like arithmetic: one
/// block (so it ends), no calls, and nothing that prints or can fail.
/// (A formula `a(i, j)` over its arguments.) A leaf function checks no stack limit,
/// so its call cannot fail either.
pub fn is_quiet(f: &Function) -> bool {
    let [block] = f.layout[..] else {
        return false;
    };
    let data = &f.blocks[block];
    let constant = |v: Value| f.int_constant(v);
    let quiet_inst = |inst: Inst| {
        let kind = &f.insts[inst].kind;
        !is_access(kind) && is_quiet_kind(kind, constant, &[])
    };
    matches!(data.term, Some(Terminator::Return(_))) && data.insts.iter().all(|&i| quiet_inst(i))
}

/// Whether an instruction other than an array access neither prints, nor
/// calls a function not `quiet` (by `FuncRef`), nor can fail; `constant`
/// reads an integer constant operand.
fn is_quiet_kind(kind: &InstKind, constant: impl Fn(Value) -> Option<i64>, quiet: &[bool]) -> bool {
    match kind {
        InstKind::Binary(op, _, divisor) if op.can_fail() => {
            constant(*divisor).is_some_and(|d| d != 0)
        }
        InstKind::Call(func, _) => quiet.get(*func as usize) == Some(&true),
        InstKind::Print(_) | InstKind::NewArray { .. } | InstKind::CheckDepth(_) => false,
        _ => true,
    }
}

/// How each array access of a function is checked.
#[derive(Clone, Debug, Default)]
pub struct CheckPlan {
    /// Proven in bounds: no check at all.
    pub proven: SecondaryMap<Inst, bool>,
    /// Checked ahead of time: by its group, or on entry to its loop (rules
    /// 4–6); the check is there only where groups and entry checks are used.
    pub covered: SecondaryMap<Inst, bool>,
    /// Covered by its group, checked at the group's first access (in its
    /// block): not ahead of its loop.
    pub grouped: SecondaryMap<Inst, bool>,
    /// At the first access of each group: every access of the group, in
    /// program order.
    pub groups: HashMap<Inst, Vec<GroupedAccess>>,
    /// At the end of a loop's preheader: the checks run on entry (rules
    /// 4–6), in order.
    pub entry_checks: HashMap<Block, Vec<EntryCheck>>,
}

impl CheckPlan {
    /// Whether `inst` needs no check in its loop: proven, or checked on
    /// entry to the loop (not by a group, whose check runs in the loop).
    pub fn checked_before_loop(&self, inst: Inst) -> bool {
        self.proven[inst] || (self.covered[inst] && !self.grouped[inst])
    }
}

/// A check run on entry to a loop (rules 4–6).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryCheck {
    /// The access whose message is reported.
    pub inst: Inst,
    pub array: Value,
    /// The index the first iteration accesses (`u` or `v` on entry).
    pub index: Value,
    /// The loop runs, and the check applies, only if `a cmp b` (signed)
    /// holds on entry.
    pub enters: (Value, Cmp, Value),
    /// Rule 6: the loop reads `array` at every index from `index` up to
    /// this one (excluded); the check covers all of them and reports the
    /// first out of bounds.
    pub runs_to: Option<Value>,
    /// Rule 6 over several arrays: the others the loop walks, each with
    /// its first access, in the order an iteration runs them (`array`'s
    /// access `inst` runs before all of them).
    pub others: SmallVec<[(Value, Inst); 2]>,
}

/// An access checked by its group: at a constant index, or at a constant
/// offset from a value every access of the group adds one to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroupedAccess {
    pub inst: Inst,
    /// The array, defined before the group's first access.
    pub array: Value,
    /// The value the index adds `offset` to (wrapping, as the index
    /// does), defined before the group's first access; `None`: the index
    /// is the constant `offset`.
    pub base: Option<Value>,
    pub offset: i64,
}

/// Which accesses need no check, and which are checked in groups or on
/// loop entry, given `f`'s dominator tree and loop forest. `quiet`, by
/// `FuncRef`: the functions [`is_quiet`] (their calls neither end a group
/// nor keep a loop from being quiet).
pub fn plan_checks(f: &Function, dom: &DomTree, loops: &Loops, quiet: &[bool]) -> CheckPlan {
    analyze(f, dom, loops, quiet, Rules::All, false).0
}

/// [`plan_checks`] by rules 1–6 alone, for `ir::version`, which weighs a
/// copy by the checks it marks proven in the IR: rule 7 proves an access
/// only for the translator, while a copy's marks also let `ir::sink` and
/// `ir::select` move its accesses.
pub fn plan_checks_without_ranges(f: &Function, dom: &DomTree, loops: &Loops) -> CheckPlan {
    analyze(f, dom, loops, &[], Rules::WithoutRanges, false).0
}

/// Which of the module docs' rules an analysis applies.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rules {
    All,
    WithoutRanges,
}

/// [`plan_checks`], and from the same analysis which int values of `f`
/// are never negative (the rules of the module docs), for lowerings that
/// are cheaper on such values (`x % 2^k` as a mask).
pub fn plan_checks_and_signs(
    f: &Function,
    dom: &DomTree,
    loops: &Loops,
    quiet: &[bool],
) -> (CheckPlan, SecondaryMap<Value, bool>) {
    let (plan, non_negative) = analyze(f, dom, loops, quiet, Rules::All, true);
    (plan, non_negative.expect("asked for"))
}

/// The check plan, and the non-negative values when `signs` asks.
fn analyze(
    f: &Function,
    dom: &DomTree,
    loops: &Loops,
    quiet: &[bool],
    rules: Rules,
    signs: bool,
) -> (CheckPlan, Option<SecondaryMap<Value, bool>>) {
    let mut plan = CheckPlan::default();
    let accesses = f.insts.iter().any(|(_, d)| is_access(&d.kind));
    if !accesses && !signs {
        return (plan, None);
    }
    let mut a = Analysis::new(f, dom, loops, quiet, rules);
    if accesses {
        a.collect_entry_checks();
        a.walk_dominator_tree(&mut plan);
        for &b in &f.layout {
            a.group_checks(b, &mut plan);
        }
        plan.entry_checks = std::mem::take(&mut a.entry_checks);
    }
    (plan, signs.then_some(a.non_negative))
}

/// What an instruction means to a group of checks.
enum GroupRole {
    /// Cannot fail, print or call: a group runs across it.
    Transparent,
    /// An unproven access: joins a group of constant indices, or of
    /// offsets from its index's base into the same array.
    Member(GroupedAccess),
    /// Can fail or be observed: ends a group.
    Barrier,
}

fn is_access(kind: &InstKind) -> bool {
    matches!(kind, InstKind::ArrayGet { .. } | InstKind::ArraySet { .. })
}

struct Analysis<'a> {
    f: &'a Function,
    quiet: &'a [bool],
    dom: &'a DomTree,
    loops: &'a Loops,
    /// `(index, bound)` → blocks entered only when `index < bound`.
    guards: HashMap<(Value, Bound), Vec<Block>>,
    /// index → blocks entered only when `index < something`.
    bounded: HashMap<Value, Vec<Block>>,
    /// Likewise, where the bound is a length or a constant below
    /// [`SMALL`]: adding up to `SMALL` to the value cannot wrap there.
    small_bounded: HashMap<Value, Vec<Block>>,
    non_negative: SecondaryMap<Value, bool>,
    /// Rules 4–6: `(array, index)` → loop bodies (their first blocks)
    /// where the entry checks cover the access.
    loop_covered: HashMap<(Value, Value), Vec<Block>>,
    entry_checks: HashMap<Block, Vec<EntryCheck>>,
    rules: Rules,
    /// Rule 7: the conditions that lead to each block asked about,
    /// collected once (a dominator walk) for all its accesses.
    places: RefCell<HashMap<Block, Place>>,
}

/// How a loop bound moves from one iteration to the next.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Motion {
    Invariant,
    Grows,
    Shrinks,
}

/// Steps larger than this might wrap around past a bound.
const MAX_STEP: i64 = 1 << 32;

/// A loop rules 4–6 apply to: its `header` branches on `cond` to `body`,
/// which the header alone enters, or out; its one `latch` lies in the
/// body; its `preheader` jumps to the header; and the header has no other
/// predecessor.
#[derive(Clone, Copy)]
struct EntryLoop {
    id: Loop,
    header: Block,
    cond: Value,
    body: Block,
    latch: Block,
    preheader: Block,
}

impl<'a> Analysis<'a> {
    fn new(
        f: &'a Function,
        dom: &'a DomTree,
        loops: &'a Loops,
        quiet: &'a [bool],
        rules: Rules,
    ) -> Self {
        let mut a = Analysis {
            f,
            quiet,
            dom,
            loops,
            guards: HashMap::default(),
            bounded: HashMap::default(),
            small_bounded: HashMap::default(),
            non_negative: SecondaryMap::with_default(false),
            loop_covered: HashMap::default(),
            entry_checks: HashMap::default(),
            rules,
            places: RefCell::default(),
        };
        a.collect_guards();
        a.compute_non_negative();
        a
    }

    fn def_block(&self, v: Value) -> Option<Block> {
        match self.f.values[self.f.resolve(v)].def {
            ValueDef::Inst(inst) => self.loops.block_of(self.f, inst),
            ValueDef::Phi(p) => Some(self.f.phis[p].block),
            ValueDef::Param(_) | ValueDef::Undef => Some(self.f.entry()),
            ValueDef::Alias(_) => None,
        }
    }

    /// Defined before the loop headed by `header` (so the same in every
    /// iteration, and known on entry).
    fn defined_before(&self, v: Value, header: Block) -> bool {
        self.def_block(v)
            .is_some_and(|d| d != header && self.dom.dominates(d, header))
    }

    /// How the header phi (or outside value) `v` moves, and its value on
    /// entry.
    fn motion(&self, v: Value, lp: &EntryLoop) -> Option<(Motion, Value)> {
        if self.defined_before(v, lp.header) {
            return Some((Motion::Invariant, v));
        }
        let (first, next) = self.loop_phi(v, lp)?;
        let small = |c: Value| {
            self.int_constant(c)
                .is_some_and(|c| (1..=MAX_STEP).contains(&c))
        };
        if self.added_step(next, v).is_some_and(small) {
            return Some((Motion::Grows, first));
        }
        match self.f.def_kind(next)? {
            InstKind::Binary(BinaryOp::ISub, x, c) if self.root(*x) == v && small(*c) => {
                Some((Motion::Shrinks, first))
            }
            _ => None,
        }
    }

    /// A phi `v` of the loop's header as its value on entry and its value
    /// from the latch (roots of both).
    fn loop_phi(&self, v: Value, lp: &EntryLoop) -> Option<(Value, Value)> {
        let ValueDef::Phi(p) = self.f.values[v].def else {
            return None;
        };
        let PhiData { block, args } = &self.f.phis[p];
        if *block != lp.header {
            return None;
        }
        let preds = &self.f.blocks[lp.header].preds;
        let arg_from = |b: Block| {
            preds
                .iter()
                .position(|&p| p == b)
                .map(|k| self.root(args[k]))
        };
        Some((arg_from(lp.preheader)?, arg_from(lp.latch)?))
    }

    /// Loop `l` as an [`EntryLoop`], if it is one.
    fn entry_loop(&self, l: Loop) -> Option<EntryLoop> {
        let data = &self.loops.loops[l];
        let header = data.header;
        let Some(Terminator::Branch {
            cond,
            then_block: body,
            ..
        }) = self.f.blocks[header].term
        else {
            return None;
        };
        let [latch] = data.latches[..] else {
            return None;
        };
        let preheader = self.loops.preheader(self.f, l)?;
        let shaped = self.f.blocks[header].preds.len() == 2
            && self.f.blocks[body].preds.len() == 1
            && self.dom.dominates(body, latch)
            && self.f.blocks[preheader].term == Some(Terminator::Jump(header));
        shaped.then_some(EntryLoop {
            id: l,
            header,
            cond,
            body,
            latch,
            preheader,
        })
    }

    /// Rules 4–6 for every [`EntryLoop`] `while u < v` (or `<=`) with
    /// nothing in the header that can fail or be seen. Headers in layout
    /// order: rule 6 counts the accesses an outer loop's entry checks
    /// cover as checked.
    fn collect_entry_checks(&mut self) {
        for &header in &self.f.layout {
            let Some(lp) = self
                .loops
                .headed_by(header)
                .and_then(|l| self.entry_loop(l))
            else {
                continue;
            };
            let Some((u, cmp, v)) = self.upper_bound_test(lp.cond) else {
                continue;
            };
            let quiet_header = self.f.blocks[header]
                .insts
                .iter()
                .all(|&i| matches!(self.group_role(i, None), GroupRole::Transparent));
            if !quiet_header {
                continue;
            }
            let mv = self.motion(v, &lp);
            if mv.is_some_and(|(m, _)| m == Motion::Invariant) {
                self.plan_bounded_walk(&lp, (u, cmp, v));
                if cmp == Cmp::Lt {
                    self.plan_quiet_loop(&lp, (u, v));
                }
            }
            let (Some((mu, u0)), Some((mv, v0))) = (self.motion(u, &lp), mv) else {
                continue;
            };
            if cmp == Cmp::Lt && mu != Motion::Shrinks && mv != Motion::Grows {
                self.plan_loop_entry(&lp, (u, v), (u0, v0));
            }
        }
    }

    /// Rule 5: a loop `while u < m` (or `<=`) whose `u` grows by a step
    /// that cannot make it wrap, where `m` bounds `u` below the length of
    /// an array the body's quiet start reads at `a[u]`: every iteration's
    /// `u` lies between its value on entry and the length, so the first
    /// iteration's check, run on entry, covers them all (marking
    /// multiples, `while j <= n { composite[j] = true; j += i; }`).
    fn plan_bounded_walk(&mut self, lp: &EntryLoop, (u, cmp, m): (Value, Cmp, Value)) {
        let Some((u0, step)) = self.step_of(u, lp) else {
            return;
        };
        let mut checks = Vec::new();
        for &inst in &self.f.blocks[lp.body].insts {
            let access = self.access(inst);
            match access {
                // Proven by rule 3 already (`for i in 0..len(a)`).
                Some((array, index)) if self.in_bounds_by_facts(array, index, lp.body) => {}
                Some((array, index))
                    if index == u
                        && self.defined_before(array, lp.header)
                        && self.below_len(m, cmp, array)
                        && self.cannot_wrap(step, array, lp.header) =>
                {
                    if !checks.iter().any(|c: &EntryCheck| c.array == array) {
                        checks.push(EntryCheck {
                            inst,
                            array,
                            index: u0,
                            enters: (u0, cmp, m),
                            runs_to: None,
                            others: SmallVec::new(),
                        });
                    }
                }
                _ => match self.group_role(inst, None) {
                    GroupRole::Transparent => {}
                    _ => break,
                },
            }
        }
        for check in &checks {
            self.cover(check.array, u, lp.body);
        }
        self.add_entry_checks(lp.preheader, checks);
    }

    /// The loop entered through `body` covers the accesses `array[index]`.
    fn cover(&mut self, array: Value, index: Value, body: Block) {
        let bodies = self.loop_covered.entry((array, index)).or_default();
        if !bodies.contains(&body) {
            bodies.push(body);
        }
    }

    fn add_entry_checks(&mut self, preheader: Block, checks: Vec<EntryCheck>) {
        if !checks.is_empty() {
            self.entry_checks
                .entry(preheader)
                .or_default()
                .extend(checks);
        }
    }

    /// `(array, index)` of an access, looking through copies.
    fn access(&self, inst: Inst) -> Option<(Value, Value)> {
        match &self.f.insts[inst].kind {
            InstKind::ArrayGet { array, index, .. } | InstKind::ArraySet { array, index, .. } => {
                Some((self.root(*array), self.root(*index)))
            }
            _ => None,
        }
    }

    /// The accesses `block` makes (for [`Prover`]).
    fn accesses_of(&self, block: Block) -> Accessed {
        let mut accessed = Accessed::default();
        for &inst in &self.f.blocks[block].insts {
            let Some((array, index)) = self.access(inst) else {
                continue;
            };
            accessed.indices.insert((array, index));
            if let Some(m) = self.int_constant(index) {
                let max = accessed.max_constant.entry(array).or_insert(m);
                *max = (*max).max(m);
            }
            if let Some(n) = self.allocation_const_len(array) {
                let least = accessed.below.entry(index).or_insert(n);
                *least = (*least).min(n);
            }
        }
        accessed
    }

    /// Rule 6: a loop `while u < m` (`for u in u0..m`) stepping `u` by one,
    /// with no exit but its header, no inner loop, and nothing in it that
    /// prints, calls or can fail — except reads or writes `a[u]` of one
    /// array, one of which runs in every iteration. Such a loop either
    /// runs to its end or stops at the first `u` outside `a`: `u0` if that
    /// is out of bounds, else `len(a)` if `m` exceeds it. Nothing
    /// observable happens before, so one check on entry decides it
    /// (a row update, `for j in 0..n { ci[j] += aik * bk[j]; }`).
    ///
    /// With several arrays (up to [`jitrun_runtime::MAX_GROUP_ARRAYS`],
    /// `c[j] = a[j] + b[j]`), every access must run in every iteration:
    /// the loop stops at the smallest such `u` over the arrays, at the
    /// first access in the iteration whose array ends there.
    fn plan_quiet_loop(&mut self, lp: &EntryLoop, (u, m): (Value, Value)) {
        let Some((u0, step)) = self.step_of(u, lp) else {
            return;
        };
        if self.int_constant(step) != Some(1) {
            return;
        }
        let (header, latch) = (lp.header, lp.latch);
        let Some(region) = self.quiet_loop_region(lp) else {
            return;
        };
        let mut arrays: Vec<Value> = Vec::new();
        // The accesses a[u], by block, in order within each block.
        let mut accesses: Vec<(Block, Inst)> = Vec::new();
        for &b in region {
            let Some(term) = &self.f.blocks[b].term else {
                return;
            };
            // Only the back edge leaves the loop.
            let stays = term.successors().iter().all(|&s| {
                (s == header && b == latch) || (s != header && self.loops.contains(lp.id, s))
            });
            if !stays {
                return;
            }
            for &inst in &self.f.blocks[b].insts {
                let access = self.access(inst);
                match access {
                    // Proven already, or covered by rule 5's check.
                    Some((array, index))
                        if self.in_bounds_by_facts(array, index, b)
                            || self.guarded(self.loop_covered.get(&(array, index)), b) => {}
                    Some((a, index)) if index == u && self.defined_before(a, lp.header) => {
                        if !arrays.contains(&a) {
                            arrays.push(a);
                        }
                        accesses.push((b, inst));
                    }
                    _ => {
                        if !matches!(self.group_role(inst, None), GroupRole::Transparent) {
                            return;
                        }
                    }
                }
            }
        }
        let firsts = match arrays.len() {
            1 => {
                // The access every iteration runs first: in a block that
                // runs in every iteration and before all the others' blocks.
                let first = accesses.iter().find(|&&(b, _)| {
                    self.dom.dominates(b, latch)
                        && accesses.iter().all(|&(c, _)| self.dom.dominates(b, c))
                });
                let Some(&(_, inst)) = first else { return };
                vec![(arrays[0], inst)]
            }
            2..=jitrun_runtime::MAX_GROUP_ARRAYS => {
                match self.first_access_of_each(&accesses, latch) {
                    Some(firsts) => firsts,
                    None => return,
                }
            }
            _ => return,
        };
        for &(array, _) in &firsts {
            self.cover(array, u, lp.body);
        }
        let (array, inst) = firsts[0];
        let check = EntryCheck {
            inst,
            array,
            index: u0,
            enters: (u0, Cmp::Lt, m),
            runs_to: Some(m),
            others: firsts[1..].iter().copied().collect(),
        };
        self.add_entry_checks(lp.preheader, vec![check]);
    }

    /// When every access runs in every iteration (its block dominates the
    /// latch): each array's first access, in the order an iteration runs
    /// them.
    fn first_access_of_each(
        &self,
        accesses: &[(Block, Inst)],
        latch: Block,
    ) -> Option<Vec<(Value, Inst)>> {
        if !accesses.iter().all(|&(b, _)| self.dom.dominates(b, latch)) {
            return None;
        }
        // Blocks that all dominate the latch lie on one dominator chain.
        let mut ordered = accesses.to_vec();
        ordered.sort_by(|&(b, i), &(c, j)| {
            if b == c {
                let insts = &self.f.blocks[b].insts;
                let at = |inst| insts.iter().position(|&k| k == inst);
                at(i).cmp(&at(j))
            } else if self.dom.dominates(b, c) {
                std::cmp::Ordering::Less
            } else {
                std::cmp::Ordering::Greater
            }
        });
        let mut firsts: Vec<(Value, Inst)> = Vec::new();
        for (_, inst) in ordered {
            let (array, _) = self.access(inst).expect("an access");
            if !firsts.iter().any(|&(a, _)| a == array) {
                firsts.push((array, inst));
            }
        }
        Some(firsts)
    }

    /// The blocks of the loop but its header, in reverse post-order, if
    /// the loop has no inner loop and the body dominates all of them.
    /// Returns and exits have no path to the latch, so they are not in
    /// it: the caller sees them as edges out.
    fn quiet_loop_region(&self, lp: &EntryLoop) -> Option<&'a [Block]> {
        let data = &self.loops.loops[lp.id];
        let region = &data.blocks[1..];
        let dominated = region.iter().all(|&b| self.dom.dominates(lp.body, b));
        (!data.has_inner && dominated).then_some(region)
    }

    /// `(u0, step)` of a header phi `u = phi(u0, u + step)`.
    fn step_of(&self, u: Value, lp: &EntryLoop) -> Option<(Value, Value)> {
        let (first, next) = self.loop_phi(u, lp)?;
        Some((first, self.added_step(next, u)?))
    }

    /// `s` if `next` is `v + s` (or `s + v`).
    fn added_step(&self, next: Value, v: Value) -> Option<Value> {
        match self.f.def_kind(next)? {
            InstKind::Binary(BinaryOp::IAdd, x, s) | InstKind::Binary(BinaryOp::IAdd, s, x)
                if self.root(*x) == v =>
            {
                Some(self.root(*s))
            }
            _ => None,
        }
    }

    /// `u cmp m` (`<` or `<=`) implies `u < len(array)`.
    fn below_len(&self, m: Value, cmp: Cmp, array: Value) -> bool {
        let alloc = self.allocation_len(array);
        match cmp {
            Cmp::Lt => {
                let bound = self.bound_of(m);
                bound == Bound::Len(array) || alloc.is_some_and(|n| self.bound_of(n) == bound)
            }
            Cmp::Le => alloc.is_some_and(|n| self.is_successor(n, m)),
            _ => false,
        }
    }

    /// `n` is `m + 1`.
    fn is_successor(&self, n: Value, m: Value) -> bool {
        if let (Some(n), Some(m)) = (self.int_constant(n), self.int_constant(m)) {
            return m.checked_add(1) == Some(n);
        }
        match self.f.def_kind(n) {
            Some(InstKind::Binary(BinaryOp::IAdd, x, y)) => {
                let is =
                    |v: &Value, w: &Value| self.root(*v) == m && self.int_constant(*w) == Some(1);
                is(x, y) || is(y, x)
            }
            _ => false,
        }
    }

    /// Adding `step` to an index below the length of `array` stays far
    /// from wrapping: the step is a non-negative constant no larger than
    /// [`MAX_STEP`], or a non-negative value fixed before the loop and
    /// itself below the array's length.
    fn cannot_wrap(&self, step: Value, array: Value, header: Block) -> bool {
        if let Some(c) = self.int_constant(step) {
            return (0..=MAX_STEP).contains(&c);
        }
        if !self.defined_before(step, header) || !self.non_negative[step] {
            return false;
        }
        let by_len = self.guards.get(&(step, Bound::Len(array)));
        let by_alloc = self
            .allocation_len(array)
            .and_then(|n| self.guards.get(&(step, self.bound_of(n))));
        self.guarded(by_len, header) || self.guarded(by_alloc, header)
    }

    /// The accesses `a[u]`, `a[v]` in the quiet start of `body` whose
    /// array is read at both: checked on entry, covered in the loop.
    fn plan_loop_entry(
        &mut self,
        lp: &EntryLoop,
        (u, v): (Value, Value),
        (u0, v0): (Value, Value),
    ) {
        // The accesses before the first barrier that index with u or v.
        let mut start: Vec<(Inst, Value, Value)> = Vec::new();
        for &inst in &self.f.blocks[lp.body].insts {
            let access = self.access(inst);
            match access {
                Some((array, index))
                    if (index == u || index == v) && self.defined_before(array, lp.header) =>
                {
                    start.push((inst, array, index))
                }
                _ => match self.group_role(inst, None) {
                    GroupRole::Transparent => {}
                    _ => break,
                },
            }
        }
        // An array read at only one of u and v is a barrier: the start
        // ends there, and may lose accesses another array needed.
        loop {
            let both = |array: Value, start: &[(Inst, Value, Value)]| {
                [u, v]
                    .iter()
                    .all(|&x| start.iter().any(|&(_, a, i)| a == array && i == x))
            };
            let cut = start.iter().position(|&(_, a, _)| !both(a, &start));
            match cut {
                Some(k) => start.truncate(k),
                None => break,
            }
        }
        let mut checks = Vec::new();
        for &(inst, array, index) in &start {
            let first = if index == u { u0 } else { v0 };
            if !checks
                .iter()
                .any(|c: &EntryCheck| c.array == array && c.index == first)
            {
                checks.push(EntryCheck {
                    inst,
                    array,
                    index: first,
                    enters: (u0, Cmp::Lt, v0),
                    runs_to: None,
                    others: SmallVec::new(),
                });
            }
            self.cover(array, u, lp.body);
            self.cover(array, v, lp.body);
        }
        self.add_entry_checks(lp.preheader, checks);
    }

    /// The value `v` stands for, looking through copies (`-O0`).
    fn root(&self, mut v: Value) -> Value {
        loop {
            v = self.f.resolve(v);
            match self.f.def_kind(v) {
                Some(InstKind::Copy(x)) => v = *x,
                _ => return v,
            }
        }
    }

    fn int_constant(&self, v: Value) -> Option<i64> {
        match self.f.def_kind(self.root(v)) {
            Some(InstKind::IConst(n)) => Some(*n),
            _ => None,
        }
    }

    fn bound_of(&self, m: Value) -> Bound {
        let m = self.root(m);
        match self.f.def_kind(m) {
            Some(InstKind::ArrayLen(a)) => Bound::Len(self.root(*a)),
            _ => Bound::Value(m),
        }
    }

    /// Branches on `i < m` (or `m > i`) whose true successor has no other
    /// predecessor.
    fn collect_guards(&mut self) {
        for &b in &self.f.layout {
            let Some(Terminator::Branch {
                cond, then_block, ..
            }) = &self.f.blocks[b].term
            else {
                continue;
            };
            if self.f.blocks[*then_block].preds.len() != 1 {
                continue;
            }
            let Some((i, Cmp::Lt, m)) = self.upper_bound_test(*cond) else {
                continue;
            };
            let bound = self.bound_of(m);
            self.guards.entry((i, bound)).or_default().push(*then_block);
            self.bounded.entry(i).or_default().push(*then_block);
            let small = match self.f.def_kind(m) {
                Some(InstKind::ArrayLen(_)) => true,
                _ => self.int_constant(m).is_some_and(|n| n <= SMALL),
            };
            if small {
                self.small_bounded.entry(i).or_default().push(*then_block);
            }
        }
    }

    /// `cond` as `i < m` or `i <= m` (also written `m > i`, `m >= i`):
    /// the roots of `i` and `m`, and `Lt` or `Le`.
    fn upper_bound_test(&self, cond: Value) -> Option<(Value, Cmp, Value)> {
        let InstKind::Binary(BinaryOp::ICmp(cmp), a, b) = self.f.def_kind(self.root(cond))? else {
            return None;
        };
        let (i, cmp, m) = match cmp {
            Cmp::Lt | Cmp::Le => (a, *cmp, b),
            Cmp::Gt | Cmp::Ge => (b, cmp.swapped(), a),
            Cmp::Eq | Cmp::Ne => return None,
        };
        Some((self.root(*i), cmp, self.root(*m)))
    }

    fn guarded(&self, blocks: Option<&Vec<Block>>, at: Block) -> bool {
        blocks.is_some_and(|ts| ts.iter().any(|&t| self.dom.dominates(t, at)))
    }

    /// `x + 1` where `x < bound` holds at the add, so it cannot wrap; or
    /// `x + k`, `0 < k <= SMALL`, where `x` is below a length or a
    /// constant up to `SMALL` there (a wrap-around neighbour `c + n - 1`
    /// with `n` a constant).
    fn increment_of(&self, v: Value) -> Option<Value> {
        let ValueDef::Inst(inst) = self.f.values[v].def else {
            return None;
        };
        let InstKind::Binary(BinaryOp::IAdd, l, r) = self.f.insts[inst].kind else {
            return None;
        };
        let (x, k) = match (self.int_constant(l), self.int_constant(r)) {
            (_, Some(k)) => (self.root(l), k),
            (Some(k), _) => (self.root(r), k),
            _ => return None,
        };
        let at = self.loops.block_of(self.f, inst)?;
        let below = match k {
            1 => self.bounded.get(&x),
            2..=SMALL => self.small_bounded.get(&x),
            _ => return None,
        };
        self.guarded(below, at).then_some(x)
    }

    /// The greatest set of values closed under the rules of the module
    /// docs, by a worklist that removes values whose operands fall out.
    fn compute_non_negative(&mut self) {
        let f = self.f;
        self.non_negative = SecondaryMap::with_capacity(f.values.len(), false);
        // Each candidate with its operands, `operands[from..to]`: only the
        // laid-out phis and results (the arenas also hold values earlier
        // passes dropped).
        let mut depends: Vec<(Value, usize, usize)> = Vec::new();
        let mut operands: Vec<Value> = Vec::new();
        let laid_out = f.layout.iter().flat_map(|&b| {
            let data = &f.blocks[b];
            let results = data.insts.iter().filter_map(|&i| f.insts[i].result);
            data.phis.iter().copied().chain(results)
        });
        for v in laid_out {
            if f.values[v].ty != Ty::Int {
                continue;
            }
            let from = operands.len();
            let candidate = match &f.values[v].def {
                &ValueDef::Phi(p) => {
                    operands.extend(f.phis[p].args.iter().map(|&a| self.root(a)));
                    true
                }
                ValueDef::Inst(_) => match f.def_kind(v) {
                    Some(InstKind::IConst(n)) => *n >= 0,
                    Some(InstKind::ArrayLen(_)) => true,
                    Some(InstKind::Select {
                        if_true, if_false, ..
                    }) => {
                        operands.extend([self.root(*if_true), self.root(*if_false)]);
                        true
                    }
                    // Bits of a non-negative mask.
                    Some(&InstKind::Binary(BinaryOp::And, a, b))
                        if [a, b]
                            .iter()
                            .any(|&x| self.int_constant(x).is_some_and(|n| n >= 0)) =>
                    {
                        true
                    }
                    // The sign of the dividend; a shift of a non-negative value.
                    Some(&InstKind::Binary(BinaryOp::IRem | BinaryOp::Shr, x, _)) => {
                        operands.push(self.root(x));
                        true
                    }
                    Some(&InstKind::Binary(BinaryOp::IDiv, x, m))
                        if self.int_constant(m).is_some_and(|n| n > 0) =>
                    {
                        operands.push(self.root(x));
                        true
                    }
                    _ => match self.increment_of(v) {
                        Some(x) => {
                            operands.push(x);
                            true
                        }
                        None => false,
                    },
                },
                _ => false,
            };
            if candidate {
                self.non_negative[v] = true;
                depends.push((v, from, operands.len()));
            }
        }
        let mut users: HashMap<Value, SmallVec<[usize; 2]>> = HashMap::default();
        for (k, &(_, from, to)) in depends.iter().enumerate() {
            for &o in &operands[from..to] {
                users.entry(o).or_default().push(k);
            }
        }
        let mut work: Vec<usize> = (0..depends.len()).collect();
        while let Some(k) = work.pop() {
            let (v, from, to) = depends[k];
            if self.non_negative[v] && operands[from..to].iter().any(|&o| !self.non_negative[o]) {
                self.non_negative[v] = false;
                work.extend(users.get(&v).into_iter().flatten().copied());
            }
        }
    }

    fn allocation_len(&self, array: Value) -> Option<Value> {
        match self.f.def_kind(array) {
            Some(InstKind::NewArray { len, .. }) => Some(self.root(*len)),
            _ => None,
        }
    }

    fn allocation_const_len(&self, array: Value) -> Option<i64> {
        match self.f.def_kind(array) {
            Some(InstKind::ArrayLit(elems) | InstKind::Renew { elems, .. }) => {
                Some(elems.len() as i64)
            }
            Some(InstKind::NewArray { len, .. }) => self.int_constant(*len),
            _ => self.f.known_length(array),
        }
    }

    /// The largest value `v` can have, when rule 2 knows one (at most
    /// [`MAX_DEPTH`] phis and selects deep).
    fn largest(&self, v: Value, depth: usize) -> Option<i64> {
        let v = self.root(v);
        let of_all = |args: &[Value]| -> Option<i64> {
            let mut most = None;
            for &a in args {
                let m = self.largest(a, depth.checked_sub(1)?)?;
                most = Some(most.map_or(m, |n: i64| n.max(m)));
            }
            most
        };
        if let ValueDef::Phi(p) = self.f.values[v].def {
            return of_all(&self.f.phis[p].args);
        }
        match *self.f.def_kind(v)? {
            InstKind::IConst(n) => Some(n),
            InstKind::Binary(BinaryOp::And, a, b) => {
                let mask = self.int_constant(a).or(self.int_constant(b))?;
                (mask >= 0).then_some(mask)
            }
            InstKind::Binary(BinaryOp::IRem, x, m) => {
                let m = self.int_constant(m)?;
                (m > 0 && self.non_negative[self.root(x)]).then(|| m - 1)
            }
            InstKind::Select {
                if_true, if_false, ..
            } => of_all(&[if_true, if_false]),
            _ => None,
        }
    }

    /// Rules 2, 3 and 7 (rule 1 needs the walk's state).
    fn in_bounds_by_facts(&self, array: Value, index: Value, at: Block) -> bool {
        if let (Some(i), Some(n)) = (self.int_constant(index), self.allocation_const_len(array)) {
            if 0 <= i && i < n {
                return true;
            }
        }
        if let Some(n) = self.allocation_const_len(array) {
            if self.non_negative[index] && self.largest(index, MAX_DEPTH).is_some_and(|m| m < n) {
                return true;
            }
        }
        if self.non_negative[index] {
            let by_len = self.guards.get(&(index, Bound::Len(array)));
            let by_alloc = self
                .allocation_len(array)
                .and_then(|m| self.guards.get(&(index, self.bound_of(m))));
            if self.guarded(by_len, at) || self.guarded(by_alloc, at) {
                return true;
            }
        }
        self.in_bounds_by_range(array, index, at)
    }

    /// Rule 7: the index's range where it is read lies within the
    /// array's known length.
    fn in_bounds_by_range(&self, array: Value, index: Value, at: Block) -> bool {
        if self.rules != Rules::All {
            return false;
        }
        let Some(n) = self.allocation_const_len(array) else {
            return false;
        };
        let ranges = Ranges::new(self.f, self.loops, Some(self.dom));
        let mut places = self.places.borrow_mut();
        let place = places.entry(at).or_insert_with(|| ranges.place(at));
        (ranges.at(place, index)).is_some_and(|(lo, hi)| 0 <= lo && hi < n)
    }

    /// `plan`: the accesses known safe so far (none without it).
    fn group_role(&self, inst: Inst, plan: Option<&CheckPlan>) -> GroupRole {
        match &self.f.insts[inst].kind {
            InstKind::ArrayGet { array, index, .. } | InstKind::ArraySet { array, index, .. } => {
                if plan.is_some_and(|p| p.proven[inst] || p.covered[inst]) {
                    return GroupRole::Transparent;
                }
                let (base, offset) = self.base_and_offset(*index);
                GroupRole::Member(GroupedAccess {
                    inst,
                    array: self.root(*array),
                    base,
                    offset,
                })
            }
            kind if is_quiet_kind(kind, |v| self.int_constant(v), self.quiet) => {
                GroupRole::Transparent
            }
            _ => GroupRole::Barrier,
        }
    }

    /// `v` as a base plus a constant offset: `(None, n)` for a constant
    /// `n`, `(x, c)` for `x + c` or `x - (-c)` (`Function::constant_offset`),
    /// else `(v, 0)`.
    fn base_and_offset(&self, v: Value) -> (Option<Value>, i64) {
        let v = self.root(v);
        if let Some(n) = self.int_constant(v) {
            return (None, n);
        }
        match self
            .f
            .def_kind(v)
            .and_then(|kind| self.f.constant_offset(kind))
        {
            Some((x, c)) => (Some(self.root(x)), c),
            None => (Some(v), 0),
        }
    }

    /// Splits the unproven accesses of `block` into groups (module docs):
    /// a group ends at a barrier, before an access to an array defined
    /// after the group's first access (the check runs there, so the array
    /// must exist by then), and before an access with another base (or,
    /// in a group of offsets from a base, into another array).
    fn group_checks(&self, block: Block, plan: &mut CheckPlan) {
        let mut group: Vec<GroupedAccess> = Vec::new();
        let mut defined_since_start: FxHashSet<Value> = FxHashSet::default();
        for &inst in &self.f.blocks[block].insts {
            match self.group_role(inst, Some(plan)) {
                GroupRole::Transparent => {}
                GroupRole::Barrier => close_group(&mut group, plan),
                GroupRole::Member(access) => {
                    let joins = group.first().is_none_or(|first| {
                        first.base == access.base
                            && (access.base.is_none()
                                || first.array == access.array
                                    && first.offset.abs_diff(access.offset) <= MAX_OFFSET_DISTANCE)
                    });
                    if !joins
                        || defined_since_start.contains(&access.array)
                        || adds_one_array_too_many(&group, access.array)
                    {
                        close_group(&mut group, plan);
                    }
                    if group.is_empty() {
                        defined_since_start.clear();
                    }
                    group.push(access);
                }
            }
            if let (false, Some(v)) = (group.is_empty(), self.f.insts[inst].result) {
                defined_since_start.insert(v);
            }
        }
        close_group(&mut group, plan);
    }

    /// Rule 1 on a depth-first walk of the dominator tree, with the
    /// accesses seen on the path from the entry in scoped tables.
    fn walk_dominator_tree(&self, plan: &mut CheckPlan) {
        let mut children: SecondaryMap<Block, Vec<Block>> = SecondaryMap::new();
        for &b in &self.f.layout {
            if let Some(d) = self.dom.idom(b) {
                children[d].push(b);
            }
        }
        let mut checked: HashMap<(Value, Value), ()> = HashMap::default();
        let mut max_const: HashMap<Value, i64> = HashMap::default();
        // index → the smallest known length of an array it accessed.
        let mut below: HashMap<Value, i64> = HashMap::default();
        // Undo log: entries added to `checked`, and previous maxima and
        // least lengths.
        let mut added: Vec<(Value, Value)> = Vec::new();
        let mut raised: Vec<(Value, Option<i64>)> = Vec::new();
        let mut lowered: Vec<(Value, Option<i64>)> = Vec::new();
        // (block, marks to undo to on leaving); `None` marks the leave step.
        let mut stack = vec![(self.f.entry(), None)];
        while let Some((block, leave)) = stack.pop() {
            if let Some((a_len, r_len, l_len)) = leave {
                for key in added.drain(a_len..) {
                    checked.remove(&key);
                }
                undo(&mut max_const, raised.drain(r_len..));
                undo(&mut below, lowered.drain(l_len..));
                continue;
            }
            stack.push((block, Some((added.len(), raised.len(), lowered.len()))));
            for &inst in &self.f.blocks[block].insts {
                let (array, index) = match &self.f.insts[inst].kind {
                    InstKind::ArrayGet { array, index, .. } => (*array, *index),
                    InstKind::ArraySet { array, index, .. } => (*array, *index),
                    _ => continue,
                };
                let (array, index) = (self.root(array), self.root(index));
                let constant = self.int_constant(index);
                let length = self.allocation_const_len(array);
                let dominated = checked.contains_key(&(array, index))
                    || constant_below(constant, max_const.get(&array).copied())
                    || shorter_or_equal(below.get(&index).copied(), length);
                // A pass proved it already (`ir::licm`, `ir::version`).
                plan.proven[inst] = self.f.insts[inst].kind.bounds_check() == Some(false)
                    || dominated
                    || self.in_bounds_by_facts(array, index, block);
                plan.covered[inst] = !plan.proven[inst]
                    && self.guarded(self.loop_covered.get(&(array, index)), block);
                if checked.insert((array, index), ()).is_none() {
                    added.push((array, index));
                }
                if let Some(i) = constant {
                    let old = max_const.get(&array).copied();
                    if old.is_none_or(|m| i > m) {
                        max_const.insert(array, i);
                        raised.push((array, old));
                    }
                }
                if let Some(n) = length {
                    let old = below.get(&index).copied();
                    if old.is_none_or(|m| n < m) {
                        below.insert(index, n);
                        lowered.push((index, old));
                    }
                }
            }
            for &child in children[block].iter().rev() {
                stack.push((child, None));
            }
        }
    }
}

/// Restores the entries of `map` an undo log's `changes` (key, old value)
/// replaced, latest first.
fn undo(
    map: &mut HashMap<Value, i64>,
    changes: impl DoubleEndedIterator<Item = (Value, Option<i64>)>,
) {
    for (key, old) in changes.rev() {
        match old {
            Some(m) => map.insert(key, m),
            None => map.remove(&key),
        };
    }
}

/// Whether an access to `array` would make `group` span more arrays than
/// the runtime's report of a failed group takes lengths for.
fn adds_one_array_too_many(group: &[GroupedAccess], array: Value) -> bool {
    if group.iter().any(|g| g.array == array) {
        return false;
    }
    let first_of_its_array =
        |(i, g): &(usize, &GroupedAccess)| group[..*i].iter().all(|h| h.array != g.array);
    let arrays = group.iter().enumerate().filter(first_of_its_array).count();
    arrays >= jitrun_runtime::MAX_GROUP_ARRAYS
}

/// Accesses a group of offsets from a base needs. Its check computes a
/// limit (the length less the offsets' span) beside its one compare, and
/// holds the base up to the group's first access: against two accesses'
/// own checks, a heap's sift choosing between `h[c + 1]` and `h[c]` ran
/// 11 % slower grouped; a register machine reading its instructions'
/// four fields ran 6 % faster.
const MIN_OFFSET_GROUP: usize = 3;

/// The farthest an access's offset may lie from that of its group's first
/// access: the group's check compares with its array's length less the
/// offsets' span, which must not wrap.
const MAX_OFFSET_DISTANCE: u64 = 1 << 20;

/// Records `group` if checking it together saves a check; empties it.
fn close_group(group: &mut Vec<GroupedAccess>, plan: &mut CheckPlan) {
    let least = match group.first().and_then(|g| g.base) {
        None => 2,
        Some(_) => MIN_OFFSET_GROUP,
    };
    if group.len() >= least {
        for access in group.iter() {
            plan.covered[access.inst] = true;
            plan.grouped[access.inst] = true;
        }
        plan.groups.insert(group[0].inst, std::mem::take(group));
    }
    group.clear();
}
