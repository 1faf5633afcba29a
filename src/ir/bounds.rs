//! Which array accesses need no bounds check, proven on the SSA form.
//!
//! Two facts of Toy make this easy on SSA: an array's length never
//! changes, and an SSA value names one array for its whole life. An access
//! `a[i]` is in bounds when one of these holds:
//!
//! 1. it is dominated by an access `a[j]` with `j` the same value, or with
//!    constants `0 <= i <= j` (had that check failed, the program would
//!    have stopped there);
//! 2. `i` is a constant below a length known from `a`'s allocation
//!    (`[e; 10]`, `[x, y, z]`);
//! 3. `i` is non-negative and the access lies in a region entered only
//!    through the true edge of `i < len(a)` — or of `i < n` where `a` was
//!    allocated as `[e; n]`. This covers `for i in 0..len(a)` and
//!    `while i < len(a) { …; i += 1; }`.
//!
//! Non-negativity is a greatest fixed point over constants, lengths,
//! phis and `x + 1` where `x < bound` holds (so the add cannot wrap): the
//! loop counter `phi(0, i + 1)` qualifies by induction.
//!
//! The checks that remain are *grouped* where that cannot be observed: a
//! run of constant-index accesses in one block (`b[0] … c[6] … b[3]`)
//! with nothing between them that prints, calls, or can fail otherwise is
//! checked once, at its first access, against the largest index per array.
//! Should that fail, the group's cold path reports the access that would
//! have failed first, so the program stops with the same message; what it
//! skipped (arithmetic, array stores) is unobservable once it has stopped.
//! Only the REPL, where arrays outlive a failed entry, must not use groups.

use super::dom::DomTree;
use super::*;
use crate::entity::SecondaryMap;
use rustc_hash::{FxHashMap as HashMap, FxHashSet};

/// What an index is known to be below.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Bound {
    /// `len(array)`.
    Len(Value),
    /// Some value (an allocation's length operand).
    Value(Value),
}

/// `true` for every `ArrayGet`/`ArraySet` whose bounds check can be left out.
pub fn proven_in_bounds(f: &Function) -> SecondaryMap<Inst, bool> {
    plan_checks(f).proven
}

/// How each array access of a function is checked.
#[derive(Clone, Debug, Default)]
pub struct CheckPlan {
    /// Proven in bounds: no check at all.
    pub proven: SecondaryMap<Inst, bool>,
    /// Checked ahead of time by its group (see the module docs).
    pub grouped: SecondaryMap<Inst, bool>,
    /// At the first access of each group: every access of the group, in
    /// program order.
    pub groups: HashMap<Inst, Vec<GroupedAccess>>,
}

/// A constant-index access checked by its group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroupedAccess {
    pub inst: Inst,
    /// The array, defined before the group's first access.
    pub array: Value,
    pub index: i64,
}

/// Which accesses need no check, and which are checked in groups.
pub fn plan_checks(f: &Function) -> CheckPlan {
    let mut plan = CheckPlan::default();
    if !f.insts.iter().any(|(_, d)| is_access(&d.kind)) {
        return plan;
    }
    let a = Analysis::new(f);
    a.walk_dominator_tree(&mut plan.proven);
    for &b in &f.layout {
        a.group_checks(b, &mut plan);
    }
    plan
}

/// What an instruction means to a group of checks.
enum GroupRole {
    /// Cannot fail, print or call: a group runs across it.
    Transparent,
    /// An unproven access with a constant index: joins a group.
    Member(GroupedAccess),
    /// Can fail or be observed: ends a group.
    Barrier,
}

fn is_access(kind: &InstKind) -> bool {
    matches!(kind, InstKind::ArrayGet { .. } | InstKind::ArraySet { .. })
}

struct Analysis<'a> {
    f: &'a Function,
    dom: DomTree,
    block_of: SecondaryMap<Inst, Option<Block>>,
    /// `(index, bound)` → blocks entered only when `index < bound`.
    guards: HashMap<(Value, Bound), Vec<Block>>,
    /// index → blocks entered only when `index < something`.
    bounded: HashMap<Value, Vec<Block>>,
    non_negative: SecondaryMap<Value, bool>,
}

impl<'a> Analysis<'a> {
    fn new(f: &'a Function) -> Self {
        let mut block_of = SecondaryMap::with_default(None);
        for &b in &f.layout {
            for &inst in &f.blocks[b].insts {
                block_of[inst] = Some(b);
            }
        }
        let mut a = Analysis {
            f,
            dom: DomTree::compute(f),
            block_of,
            guards: HashMap::default(),
            bounded: HashMap::default(),
            non_negative: SecondaryMap::with_default(false),
        };
        a.collect_guards();
        a.compute_non_negative();
        a
    }

    /// The value `v` stands for, looking through copies (`-O0`).
    fn root(&self, mut v: Value) -> Value {
        loop {
            v = self.f.resolve(v);
            match self.def_kind(v) {
                Some(InstKind::Copy(x)) => v = *x,
                _ => return v,
            }
        }
    }

    fn def_kind(&self, v: Value) -> Option<&'a InstKind> {
        match self.f.values[v].def {
            ValueDef::Inst(inst) => Some(&self.f.insts[inst].kind),
            _ => None,
        }
    }

    fn int_constant(&self, v: Value) -> Option<i64> {
        match self.def_kind(self.root(v)) {
            Some(InstKind::IConst(n)) => Some(*n),
            _ => None,
        }
    }

    fn bound_of(&self, m: Value) -> Bound {
        let m = self.root(m);
        match self.def_kind(m) {
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
            let (i, m) = match self.def_kind(self.root(*cond)) {
                Some(InstKind::Binary(BinaryOp::ICmp(Cmp::Lt), i, m)) => (*i, *m),
                Some(InstKind::Binary(BinaryOp::ICmp(Cmp::Gt), m, i)) => (*i, *m),
                _ => continue,
            };
            let (i, bound) = (self.root(i), self.bound_of(m));
            self.guards.entry((i, bound)).or_default().push(*then_block);
            self.bounded.entry(i).or_default().push(*then_block);
        }
    }

    fn guarded(&self, blocks: Option<&Vec<Block>>, at: Block) -> bool {
        blocks.is_some_and(|ts| ts.iter().any(|&t| self.dom.dominates(t, at)))
    }

    /// `x + 1` where `x < bound` holds at the add, so it cannot wrap.
    fn increment_of(&self, v: Value) -> Option<Value> {
        let ValueDef::Inst(inst) = self.f.values[v].def else {
            return None;
        };
        let InstKind::Binary(BinaryOp::IAdd, l, r) = self.f.insts[inst].kind else {
            return None;
        };
        let x = match (self.int_constant(l), self.int_constant(r)) {
            (_, Some(1)) => self.root(l),
            (Some(1), _) => self.root(r),
            _ => return None,
        };
        let at = self.block_of[inst]?;
        self.guarded(self.bounded.get(&x), at).then_some(x)
    }

    /// The greatest set of values closed under the rules of the module
    /// docs, by a worklist that removes values whose operands fall out.
    fn compute_non_negative(&mut self) {
        let f = self.f;
        let mut depends: Vec<(Value, Vec<Value>)> = Vec::new();
        for (v, data) in f.values.iter() {
            if data.ty != Ty::Int {
                continue;
            }
            let operands = match &data.def {
                ValueDef::Phi { args, .. } => Some(args.iter().map(|&a| self.root(a)).collect()),
                ValueDef::Inst(_) => match self.def_kind(v) {
                    Some(InstKind::IConst(n)) if *n >= 0 => Some(Vec::new()),
                    Some(InstKind::ArrayLen(_)) => Some(Vec::new()),
                    _ => self.increment_of(v).map(|x| vec![x]),
                },
                _ => None,
            };
            if let Some(ops) = operands {
                self.non_negative[v] = true;
                depends.push((v, ops));
            }
        }
        let mut users: HashMap<Value, Vec<usize>> = HashMap::default();
        for (k, (_, ops)) in depends.iter().enumerate() {
            for &o in ops {
                users.entry(o).or_default().push(k);
            }
        }
        let mut work: Vec<usize> = (0..depends.len()).collect();
        while let Some(k) = work.pop() {
            let (v, ops) = &depends[k];
            if self.non_negative[*v] && ops.iter().any(|&o| !self.non_negative[o]) {
                self.non_negative[*v] = false;
                work.extend(users.get(v).into_iter().flatten().copied());
            }
        }
    }

    fn allocation_len(&self, array: Value) -> Option<Value> {
        match self.def_kind(array) {
            Some(InstKind::NewArray { len, .. }) => Some(self.root(*len)),
            _ => None,
        }
    }

    fn allocation_const_len(&self, array: Value) -> Option<i64> {
        match self.def_kind(array) {
            Some(InstKind::ArrayLit(elems)) => Some(elems.len() as i64),
            Some(InstKind::NewArray { len, .. }) => self.int_constant(*len),
            _ => None,
        }
    }

    /// Rules 2 and 3 (rule 1 needs the walk's state).
    fn in_bounds_by_facts(&self, array: Value, index: Value, at: Block) -> bool {
        if let (Some(i), Some(n)) = (self.int_constant(index), self.allocation_const_len(array)) {
            if 0 <= i && i < n {
                return true;
            }
        }
        if !self.non_negative[index] {
            return false;
        }
        let by_len = self.guards.get(&(index, Bound::Len(array)));
        let by_alloc = self
            .allocation_len(array)
            .and_then(|m| self.guards.get(&(index, Bound::Value(m))));
        self.guarded(by_len, at) || self.guarded(by_alloc, at)
    }

    fn group_role(&self, inst: Inst, proven: &SecondaryMap<Inst, bool>) -> GroupRole {
        match &self.f.insts[inst].kind {
            InstKind::ArrayGet { array, index } | InstKind::ArraySet { array, index, .. } => {
                if proven[inst] {
                    return GroupRole::Transparent;
                }
                match self.int_constant(*index) {
                    Some(index) => GroupRole::Member(GroupedAccess {
                        inst,
                        array: self.root(*array),
                        index,
                    }),
                    None => GroupRole::Barrier,
                }
            }
            InstKind::Binary(op, _, divisor) if op.can_fail() => {
                match self.int_constant(*divisor) {
                    Some(d) if d != 0 => GroupRole::Transparent,
                    _ => GroupRole::Barrier,
                }
            }
            InstKind::Call(..) | InstKind::Print(_) | InstKind::NewArray { .. } => {
                GroupRole::Barrier
            }
            _ => GroupRole::Transparent,
        }
    }

    /// Splits the unproven constant-index accesses of `block` into groups
    /// (module docs): a group ends at a barrier, and before an access to
    /// an array defined after the group's first access (the check runs
    /// there, so the array must exist by then).
    fn group_checks(&self, block: Block, plan: &mut CheckPlan) {
        let mut group: Vec<GroupedAccess> = Vec::new();
        let mut defined_since_start: FxHashSet<Value> = FxHashSet::default();
        for &inst in &self.f.blocks[block].insts {
            match self.group_role(inst, &plan.proven) {
                GroupRole::Transparent => {}
                GroupRole::Barrier => close_group(&mut group, plan),
                GroupRole::Member(access) => {
                    if defined_since_start.contains(&access.array) {
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
    fn walk_dominator_tree(&self, proven: &mut SecondaryMap<Inst, bool>) {
        let mut children: SecondaryMap<Block, Vec<Block>> = SecondaryMap::new();
        for &b in &self.f.layout {
            if let Some(d) = self.dom.idom(b) {
                children[d].push(b);
            }
        }
        let mut checked: HashMap<(Value, Value), ()> = HashMap::default();
        let mut max_const: HashMap<Value, i64> = HashMap::default();
        // Undo log: entries added to `checked`, and previous maxima.
        let mut added: Vec<(Value, Value)> = Vec::new();
        let mut raised: Vec<(Value, Option<i64>)> = Vec::new();
        // (block, marks to undo to on leaving); `None` marks the leave step.
        let mut stack: Vec<(Block, Option<(usize, usize)>)> = vec![(self.f.entry(), None)];
        while let Some((block, leave)) = stack.pop() {
            if let Some((a_len, r_len)) = leave {
                for key in added.drain(a_len..) {
                    checked.remove(&key);
                }
                for (array, old) in raised.drain(r_len..).rev() {
                    match old {
                        Some(m) => max_const.insert(array, m),
                        None => max_const.remove(&array),
                    };
                }
                continue;
            }
            stack.push((block, Some((added.len(), raised.len()))));
            for &inst in &self.f.blocks[block].insts {
                let (array, index) = match &self.f.insts[inst].kind {
                    InstKind::ArrayGet { array, index } => (*array, *index),
                    InstKind::ArraySet { array, index, .. } => (*array, *index),
                    _ => continue,
                };
                let (array, index) = (self.root(array), self.root(index));
                let constant = self.int_constant(index);
                let dominated = checked.contains_key(&(array, index))
                    || matches!(
                        (constant, max_const.get(&array)),
                        (Some(i), Some(&m)) if 0 <= i && i <= m
                    );
                proven[inst] = dominated || self.in_bounds_by_facts(array, index, block);
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
            }
            for &child in children[block].iter().rev() {
                stack.push((child, None));
            }
        }
    }
}

/// Records `group` if checking it together saves a check; empties it.
fn close_group(group: &mut Vec<GroupedAccess>, plan: &mut CheckPlan) {
    if group.len() >= 2 {
        for access in group.iter() {
            plan.grouped[access.inst] = true;
        }
        plan.groups.insert(group[0].inst, std::mem::take(group));
    }
    group.clear();
}
