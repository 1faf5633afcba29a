//! Small arrays renewed in place (`-O2`, whole programs): `a[i] = [x, y]`
//! overwrites the array `a[i]` holds, when an earlier such store made it,
//! instead of making a new one — the in-place reuse of Perceus (Reinking,
//! Xie, de Moura and Leijen 2021), proved statically rather than by a
//! reference count, for arrays that only their one element holds.
//!
//! Toy arrays are shared by reference, so overwriting `a[i]` is only
//! unobservable when nothing else holds that array and nobody reads it
//! after the store. The pass proves it for whole alias classes:
//!
//! - **Classes.** Array values that may be the same array, joined
//!   flow-insensitively through phis, selects and globals (a load of `g`
//!   and a store to `g` join `g`'s class).
//! - **Owned classes.** A class whose arrays are all made here (array
//!   literals, `[e; n]`, the empty array, loads of its globals), and whose
//!   values are only indexed, measured, printed or stored to its globals:
//!   never passed, returned, or stored in another array. Nothing outside
//!   the class can hold one of its arrays (the "outer" arrays).
//! - **Inner arrays.** A read `r = o[i]` of an owned class's array must
//!   only be indexed, measured or printed, and none of those uses may come
//!   after a renewing store of that class (or a call that may reach one)
//!   on a path from the read. So an array a renewing store made is held by
//!   its element alone when the next renewing store overwrites it.
//! - **Renewing stores.** `o[i] = lit` where `o` is in such a class and
//!   `lit` an array literal of scalars used only there. It becomes
//!   `old = o[i]; new = renew old, [x, y]; o[i] = new`: `renew` reuses
//!   `old` when its header says a renew made it and its length is the
//!   literal's (`codegen`'s `renew`), else makes a new array so marked.
//!   An array the program made any other way (shared by `[e; n]`, say) is
//!   never overwritten.
//!
//! The interpreter always makes a new array, so differential runs compare
//! the reuse against plain reference semantics.
//!
//! Architecture Invariant: `renew` runs after every pass that moves or
//! forwards memory reads; a `renew`'s `old` is read by nothing after it.

use super::dom::DomTree;
use super::*;
use crate::entity::EntityRef;
use rustc_hash::FxHashMap;

/// Runs the pass over the whole program.
pub fn renew_arrays(m: &mut Module) {
    for f in m.all_functions_mut() {
        f.resolve_aliases();
    }
    let mut classes = Classes::of(m);
    classes.disown_escaping(m);
    let stores = renewing_stores(m, &classes);
    if stores.is_empty() {
        return;
    }
    classes.disown_read_after_renewal(m, &stores);
    for k in 0..=m.functions.len() {
        let renewed: Vec<&Store> = (stores.iter())
            .filter(|s| s.function == k && classes.owned(classes.find(classes.node(k, s.array))))
            .collect();
        if renewed.is_empty() {
            continue;
        }
        let f = m.function_mut(k);
        for s in &renewed {
            renew(f, s);
        }
        let literals: rustc_hash::FxHashSet<Inst> = renewed.iter().map(|s| s.literal).collect();
        for &b in &f.layout {
            f.blocks[b].insts.retain(|i| !literals.contains(i));
        }
        f.resolve_aliases();
    }
}

/// Alias classes of array values (union-find): node `g` for global `g`,
/// then each function's values from `base[k]`.
struct Classes {
    parent: Vec<u32>,
    base: Vec<usize>,
    /// By class root: its arrays may be seen from outside the class.
    escapes: Vec<bool>,
    /// By class root: an inner array of the class may be read after a
    /// renewing store, or held elsewhere.
    shared: Vec<bool>,
}

impl Classes {
    fn of(m: &Module) -> Classes {
        let mut base = Vec::new();
        let mut next = m.globals.len();
        for k in 0..=m.functions.len() {
            base.push(next);
            next += m.function(k).values.len();
        }
        let mut classes = Classes {
            parent: (0..next as u32).collect(),
            base,
            escapes: vec![false; next],
            shared: vec![false; next],
        };
        for k in 0..=m.functions.len() {
            classes.join_flows(k, m.function(k));
        }
        classes
    }

    fn node(&self, k: usize, v: Value) -> usize {
        self.base[k] + v.index()
    }

    fn find(&self, mut n: usize) -> usize {
        while self.parent[n] as usize != n {
            n = self.parent[n] as usize;
        }
        n
    }

    fn union(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            self.parent[a.max(b)] = a.min(b) as u32;
        }
    }

    fn owned(&self, root: usize) -> bool {
        !self.escapes[root] && !self.shared[root]
    }

    /// Joins the arrays that flow into one another in `f`: phis, selects,
    /// and globals loaded and stored.
    fn join_flows(&mut self, k: usize, f: &Function) {
        for &b in &f.layout {
            for &phi in &f.blocks[b].phis {
                if f.value_ty(phi) == Ty::Array {
                    for &arg in f.phi_args(phi) {
                        self.union(self.node(k, phi), self.node(k, arg));
                    }
                }
            }
            for &i in &f.blocks[b].insts {
                let data = &f.insts[i];
                match (&data.kind, data.result) {
                    (&InstKind::LoadGlobal(g), Some(r)) if f.value_ty(r) == Ty::Array => {
                        self.union(g as usize, self.node(k, r));
                    }
                    (&InstKind::StoreGlobal(g, v), _) if f.value_ty(v) == Ty::Array => {
                        self.union(g as usize, self.node(k, v));
                    }
                    (
                        &InstKind::Select {
                            if_true, if_false, ..
                        },
                        Some(r),
                    ) if f.value_ty(r) == Ty::Array => {
                        self.union(self.node(k, r), self.node(k, if_true));
                        self.union(self.node(k, r), self.node(k, if_false));
                    }
                    _ => {}
                }
            }
        }
    }

    /// Marks the classes some of whose arrays come from, or go to, where
    /// the class cannot follow them.
    fn disown_escaping(&mut self, m: &Module) {
        for k in 0..=m.functions.len() {
            let f = m.function(k);
            for (v, data) in f.values.iter() {
                if data.ty == Ty::Array && !made_in_class(f, v) {
                    let root = self.find(self.node(k, v));
                    self.escapes[root] = true;
                }
            }
            for_each_array_use(f, |v, stays| {
                if !stays(Role::Outer) {
                    let root = self.find(self.node(k, v));
                    self.escapes[root] = true;
                }
            });
        }
    }

    /// Marks the classes an inner array of which is held by more than its
    /// element, or read after a renewing store of its class may have
    /// overwritten it.
    fn disown_read_after_renewal(&mut self, m: &Module, stores: &[Store]) {
        let mut renewed: Vec<usize> = stores
            .iter()
            .map(|s| self.find(self.node(s.function, s.array)))
            .filter(|&root| !self.escapes[root])
            .collect();
        renewed.sort_unstable();
        renewed.dedup();
        for root in renewed {
            let reaches = self.functions_reaching(m, stores, root);
            for k in 0..=m.functions.len() {
                let f = m.function(k);
                let sites: rustc_hash::FxHashSet<Inst> = stores
                    .iter()
                    .filter(|s| s.function == k && self.find(self.node(k, s.array)) == root)
                    .map(|s| s.set)
                    .collect();
                let hazard = |i: Inst| match f.insts[i].kind {
                    InstKind::Call(g, _) => reaches[g as usize],
                    _ => sites.contains(&i),
                };
                // A literal read after its store is that store's array.
                let stored: Vec<(Value, Block, usize)> = (stores.iter())
                    .filter(|s| s.function == k && sites.contains(&s.set))
                    .map(|s| {
                        let at = f.blocks[s.block].insts.iter().position(|&i| i == s.set);
                        let value = f.insts[s.literal].result.expect("a literal has a value");
                        (value, s.block, at.expect("set in its block"))
                    })
                    .collect();
                if self.inner_read_after(f, k, root, stored, &hazard) {
                    self.shared[root] = true;
                    break;
                }
            }
        }
    }

    /// By function: it may run a renewing store of class `root`.
    fn functions_reaching(&self, m: &Module, stores: &[Store], root: usize) -> Vec<bool> {
        let mut reaches = vec![false; m.functions.len() + 1];
        for s in stores {
            if self.find(self.node(s.function, s.array)) == root {
                reaches[s.function] = true;
            }
        }
        let mut changed = true;
        while changed {
            changed = false;
            for k in 0..=m.functions.len() {
                let calls = m.function(k).calls().any(|(_, _, g)| reaches[g as usize]);
                if calls && !reaches[k] {
                    reaches[k] = true;
                    changed = true;
                }
            }
        }
        reaches
    }

    /// Whether some inner array of class `root` read in `f` is held
    /// elsewhere or used after a `hazard`.
    fn inner_read_after(
        &self,
        f: &Function,
        k: usize,
        root: usize,
        mut inner: Vec<(Value, Block, usize)>,
        hazard: &impl Fn(Inst) -> bool,
    ) -> bool {
        // The stored literals' other uses were checked with the stores.
        let stored = inner.len();
        for &b in &f.layout {
            for (pos, &i) in f.blocks[b].insts.iter().enumerate() {
                if let (&InstKind::ArrayGet { array, .. }, Some(r)) =
                    (&f.insts[i].kind, f.insts[i].result)
                {
                    if f.value_ty(r) == Ty::Array && self.find(self.node(k, array)) == root {
                        inner.push((r, b, pos));
                    }
                }
            }
        }
        if inner.is_empty() {
            return false;
        }
        let read: rustc_hash::FxHashSet<Value> = inner[stored..].iter().map(|&(r, ..)| r).collect();
        let mut held = false;
        for_each_array_use(f, |v, stays| {
            held |= read.contains(&v) && !stays(Role::Inner)
        });
        held || inner
            .iter()
            .any(|&(r, b, pos)| used_after_hazard(f, r, b, pos, hazard))
    }
}

/// Whether `v` is an array of a kind a class can follow: made here, read
/// from a global or merged from such.
fn made_in_class(f: &Function, v: Value) -> bool {
    match f.values[v].def {
        ValueDef::Phi(_) => true,
        ValueDef::Inst(i) => matches!(
            f.insts[i].kind,
            InstKind::LoadGlobal(_)
                | InstKind::NewArray { .. }
                | InstKind::ArrayLit(_)
                | InstKind::EmptyArray
                | InstKind::Select { .. }
        ),
        ValueDef::Param(_) | ValueDef::Undef | ValueDef::Alias(_) => false,
    }
}

/// How an array is used, for [`for_each_array_use`]'s question.
#[derive(Clone, Copy, PartialEq)]
enum Role {
    /// An array of an owned class: it may also be stored to a global,
    /// merged or chosen (its class follows it there).
    Outer,
    /// An inner array: only read, written, measured or printed.
    Inner,
}

/// Calls `visit(v, stays)` for every use of an array value `v` in `f`;
/// `stays(role)` says whether the use keeps the array where an array of
/// that role may be.
fn for_each_array_use(f: &Function, mut visit: impl FnMut(Value, &dyn Fn(Role) -> bool)) {
    for &b in &f.layout {
        let data = &f.blocks[b];
        for &i in &data.insts {
            let kind = &f.insts[i].kind;
            kind.for_each_operand(|v| {
                if f.value_ty(v) == Ty::Array {
                    visit(v, &|role| keeps(kind, v, role));
                }
            });
        }
        if let Some(v) = data.term.as_ref().and_then(Terminator::operand) {
            if f.value_ty(v) == Ty::Array {
                visit(v, &|_| false);
            }
        }
        for &phi in &data.phis {
            for &arg in f.phi_args(phi) {
                if f.value_ty(arg) == Ty::Array {
                    visit(arg, &|role| role == Role::Outer);
                }
            }
        }
    }
}

/// Whether `kind`'s use of array `v` keeps it where an array of `role`
/// may be.
fn keeps(kind: &InstKind, v: Value, role: Role) -> bool {
    match *kind {
        InstKind::ArrayGet { .. } | InstKind::ArrayLen(_) | InstKind::Print(_) => true,
        InstKind::ArraySet { value, .. } => value != v,
        InstKind::StoreGlobal(..) => role == Role::Outer,
        InstKind::Select { cond, .. } => role == Role::Outer && cond != v,
        _ => false,
    }
}

/// `set o[i], lit` that may renew: `lit` an array literal of scalars used
/// only here.
struct Store {
    function: usize,
    block: Block,
    set: Inst,
    literal: Inst,
    array: Value,
}

fn renewing_stores(m: &Module, classes: &Classes) -> Vec<Store> {
    let mut stores = Vec::new();
    for k in 0..=m.functions.len() {
        let f = m.function(k);
        let mut uses: Option<FxHashMap<Value, usize>> = None;
        let mut dom: Option<std::sync::Arc<DomTree>> = None;
        for &b in &f.layout {
            for &set in &f.blocks[b].insts {
                let InstKind::ArraySet { array, value, .. } = f.insts[set].kind else {
                    continue;
                };
                let ValueDef::Inst(literal) = f.values[value].def else {
                    continue;
                };
                let InstKind::ArrayLit(ref elems) = f.insts[literal].kind else {
                    continue;
                };
                if f.value_ty(elems[0]) == Ty::Array
                    || classes.escapes[classes.find(classes.node(k, array))]
                {
                    continue;
                }
                let uses = uses.get_or_insert_with(|| f.use_counts());
                let mut only_read_after = || {
                    let dom = dom.get_or_insert_with(|| f.current_dom_tree());
                    only_read_after(f, dom, b, set, value)
                };
                if uses[&value] == 1 || only_read_after() {
                    stores.push(Store {
                        function: k,
                        block: b,
                        set,
                        literal,
                        array,
                    });
                }
            }
        }
    }
    stores
}

/// Whether every use of `v` but `set` (in `block`) comes after it and
/// only reads `v`: an element read forwarded from the store (`ir::reuse`),
/// say.
fn only_read_after(f: &Function, dom: &DomTree, block: Block, set: Inst, v: Value) -> bool {
    let at = |b: Block, i: Inst| f.blocks[b].insts.iter().position(|&j| j == i);
    let set_at = at(block, set);
    let mut ok = true;
    for &b in &f.layout {
        let data = &f.blocks[b];
        for (pos, &i) in data.insts.iter().enumerate() {
            let kind = &f.insts[i].kind;
            if i == set || !kind.operands().contains(&v) {
                continue;
            }
            let after = if b == block {
                Some(pos) > set_at
            } else {
                dom.dominates(block, b)
            };
            ok &= after && keeps(kind, v, Role::Inner);
        }
        ok &= data.term.as_ref().and_then(Terminator::operand) != Some(v);
        ok &= data.phis.iter().all(|&phi| !f.phi_args(phi).contains(&v));
    }
    ok
}

/// Whether a use of `r` (made at `pos` in `block`) can follow a `hazard`
/// on some path from `r`'s making. A path that comes back to `block`
/// makes `r` anew before any use.
fn used_after_hazard(
    f: &Function,
    r: Value,
    block: Block,
    pos: usize,
    hazard: &impl Fn(Inst) -> bool,
) -> bool {
    let mut seen: [rustc_hash::FxHashSet<Block>; 2] = Default::default();
    let mut work = vec![(block, pos + 1, false)];
    while let Some((b, start, mut after)) = work.pop() {
        let data = &f.blocks[b];
        for &i in &data.insts[start..] {
            if after && f.insts[i].kind.operands().contains(&r) {
                return true;
            }
            after |= hazard(i);
        }
        if after && data.term.as_ref().and_then(Terminator::operand) == Some(r) {
            return true;
        }
        for s in f.successors(b) {
            if s != block && seen[after as usize].insert(s) {
                work.push((s, 0, after));
            }
        }
    }
    false
}

/// `set o[i], lit` → `old = o[i]; new = renew old, [..]; set o[i], new`,
/// the index checked by the read (the same error, at the same place, as
/// the store's check). The caller drops the literal from its block.
fn renew(f: &mut Function, s: &Store) {
    let InstKind::ArraySet {
        array,
        index,
        checked,
        ..
    } = f.insts[s.set].kind
    else {
        unreachable!("a renewing store is a set");
    };
    let made = std::mem::replace(&mut f.insts[s.literal].kind, InstKind::EmptyArray);
    let InstKind::ArrayLit(elems) = made else {
        unreachable!("a renewing store stores a literal");
    };
    let (set_loc, lit_loc) = (f.insts[s.set].loc, f.insts[s.literal].loc);
    let at = f.blocks[s.block]
        .insts
        .iter()
        .position(|&i| i == s.set)
        .expect("set in its block");
    let read = InstKind::ArrayGet {
        array,
        index,
        checked,
    };
    let old = f.insert_inst(s.block, at, read, Ty::Array);
    let new = f.insert_inst(s.block, at + 1, InstKind::Renew { old, elems }, Ty::Array);
    for (v, loc) in [(old, set_loc), (new, lit_loc)] {
        let ValueDef::Inst(i) = f.values[v].def else {
            unreachable!("just made");
        };
        f.insts[i].loc = loc;
    }
    // Reads of the literal after the store read the renewed array.
    let literal = f.insts[s.literal].result.expect("a literal has a value");
    f.values[literal].def = ValueDef::Alias(new);
    f.insts[s.set].kind = InstKind::ArraySet {
        array,
        index,
        value: new,
        checked: false,
    };
}
