//! Which functions can be in the middle of a collection, and which arrays
//! each of their calls must show the collector.
//!
//! The collector (`jitrun_runtime::gc`) runs only inside array
//! allocations, and finds the arrays of compiled frames in the stack maps
//! of their calls. A function that neither allocates nor calls a function
//! that may is never on the stack during a collection: its arrays need no
//! stack slots, and its loops keep them in registers. In one that may,
//! [`live_across`] names, per collecting instruction, the arrays the
//! frame still needs after it: the translator stores just those into
//! stack slots before the call and lists the slots in the call's stack
//! map. The heap does not move, so nothing is reloaded after the call.

use super::dom::DomTree;
use super::*;
use crate::entity::SecondaryMap;
use rustc_hash::FxHashMap;

/// By function (`module.functions` in order, then `main`): whether a
/// collection can run while it is active. `calls_may_change`: calls go
/// through slots that later code may point elsewhere (REPL entries), so
/// every call may collect.
pub fn may_collect(module: &Module, calls_may_change: bool) -> Vec<bool> {
    let all: Vec<&Function> = module.all_functions().collect();
    let mut collects: Vec<bool> = all.iter().map(|f| insts(f).any(allocates)).collect();
    let calls: Vec<Vec<FuncRef>> = all.iter().map(|f| callees(f)).collect();
    if calls_may_change {
        for (c, callees) in collects.iter_mut().zip(&calls) {
            *c |= !callees.is_empty();
        }
        return collects;
    }
    // A fixpoint over the call graph: at most one round per function.
    let mut changed = true;
    while changed {
        changed = false;
        for i in 0..all.len() {
            if !collects[i] && calls[i].iter().any(|&g| collects[g as usize]) {
                collects[i] = true;
                changed = true;
            }
        }
    }
    collects
}

fn insts(f: &Function) -> impl Iterator<Item = &InstKind> {
    f.layout
        .iter()
        .flat_map(|&b| &f.blocks[b].insts)
        .map(|&i| &f.insts[i].kind)
}

/// Whether `kind` allocates an array (and so may run a collection).
pub fn allocates(kind: &InstKind) -> bool {
    matches!(
        kind,
        InstKind::NewArray { .. } | InstKind::ArrayLit(_) | InstKind::Renew { .. }
    )
}

/// Whether `kind` may run a collection: an allocation, or a call of a
/// function that may. `callees`: [`may_collect`] by `FuncRef`, or `None`
/// where every call may (REPL code calls through slots that may change).
pub fn collects(kind: &InstKind, callees: Option<&[bool]>) -> bool {
    match (kind, callees) {
        (InstKind::Call(g, _), Some(callees)) => callees[*g as usize],
        (InstKind::Call(..), None) => true,
        (other, _) => allocates(other),
    }
}

fn callees(f: &Function) -> Vec<FuncRef> {
    f.calls().map(|(_, _, g)| g).collect()
}

/// By instruction, for each instruction of `f` that `collects`: the array
/// values the collector must keep while it runs. Those live after it (its
/// own result is not made yet), and for an array literal also its array
/// elements, which are stored into the new array after the allocation.
/// Liveness is the usual backward dataflow over the reachable blocks (in
/// `dom`'s reverse post-order), with a phi's operand live at the end of
/// the matching predecessor.
pub fn live_across(
    f: &Function,
    dom: &DomTree,
    collects: impl Fn(&InstKind) -> bool,
) -> FxHashMap<Inst, Vec<Value>> {
    let arrays = ArrayIndex::of(f);
    let mut roots = FxHashMap::default();
    if arrays.values.is_empty() {
        return roots;
    }
    let order = &dom.rpo;
    let mut live_in: SecondaryMap<Block, BitSet> =
        SecondaryMap::with_default(BitSet::new(arrays.values.len()));
    let mut changed = true;
    while changed {
        changed = false;
        for &b in order.iter().rev() {
            let out = live_out(f, &arrays, &live_in, b);
            let into = transfer(f, &arrays, b, out, &mut |_, _| {});
            if into != live_in[b] {
                live_in[b] = into;
                changed = true;
            }
        }
    }
    for &b in order {
        let out = live_out(f, &arrays, &live_in, b);
        transfer(f, &arrays, b, out, &mut |inst, live| {
            let kind = &f.insts[inst].kind;
            if !collects(kind) {
                return;
            }
            let mut keep: Vec<Value> = live.iter().map(|i| arrays.values[i]).collect();
            if let InstKind::ArrayLit(elems) | InstKind::Renew { elems, .. } = kind {
                keep.extend(elems.iter().filter(|&&e| arrays.index[e].is_some()));
                keep.sort_unstable();
                keep.dedup();
            }
            if !keep.is_empty() {
                roots.insert(inst, keep);
            }
        });
    }
    roots
}

/// The values of array type that liveness tracks, numbered densely.
struct ArrayIndex {
    values: Vec<Value>,
    index: SecondaryMap<Value, Option<u32>>,
}

impl ArrayIndex {
    fn of(f: &Function) -> Self {
        let mut values = Vec::new();
        let mut index = SecondaryMap::with_default(None);
        for (v, data) in f.values.iter() {
            let defined = !matches!(data.def, ValueDef::Undef | ValueDef::Alias(_));
            if data.ty == Ty::Array && defined {
                index[v] = Some(values.len() as u32);
                values.push(v);
            }
        }
        ArrayIndex { values, index }
    }

    fn add(&self, set: &mut BitSet, v: Value) {
        if let Some(i) = self.index[v] {
            set.insert(i as usize);
        }
    }

    fn remove(&self, set: &mut BitSet, v: Value) {
        if let Some(i) = self.index[v] {
            set.remove(i as usize);
        }
    }
}

/// Arrays live at the end of `b`: its successors' live-in arrays and the
/// phi operands `b` passes them.
fn live_out(
    f: &Function,
    arrays: &ArrayIndex,
    live_in: &SecondaryMap<Block, BitSet>,
    b: Block,
) -> BitSet {
    let mut out = BitSet::new(arrays.values.len());
    for s in f.successors(b) {
        out.union_with(&live_in[s]);
        let from_b = f.blocks[s]
            .preds
            .iter()
            .enumerate()
            .filter(|&(_, &p)| p == b);
        for (k, _) in from_b {
            for &phi in &f.blocks[s].phis {
                if let Some(&arg) = f.phi_args(phi).get(k) {
                    arrays.add(&mut out, arg);
                }
            }
        }
    }
    out
}

/// Walks `b` backwards from the arrays live at its end (`live`); tells
/// `at` the arrays live after each instruction, its result excluded;
/// returns those live at its start (its phis excluded: they are defined
/// there).
fn transfer(
    f: &Function,
    arrays: &ArrayIndex,
    b: Block,
    mut live: BitSet,
    at: &mut impl FnMut(Inst, &BitSet),
) -> BitSet {
    let block = &f.blocks[b];
    if let Some(Terminator::Return(Some(v))) = block.term {
        arrays.add(&mut live, v);
    }
    for &inst in block.insts.iter().rev() {
        let data = &f.insts[inst];
        if let Some(r) = data.result {
            arrays.remove(&mut live, r);
        }
        at(inst, &live);
        data.kind.for_each_operand(|v| arrays.add(&mut live, v));
    }
    for &phi in &block.phis {
        arrays.remove(&mut live, phi);
    }
    live
}

/// A fixed-size set of small integers.
#[derive(Clone, Debug, PartialEq, Eq)]
struct BitSet(Vec<u64>);

impl BitSet {
    fn new(len: usize) -> Self {
        BitSet(vec![0; len.div_ceil(64)])
    }

    fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    fn remove(&mut self, i: usize) {
        self.0[i / 64] &= !(1 << (i % 64));
    }

    fn union_with(&mut self, other: &BitSet) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a |= b;
        }
    }

    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        (self.0.iter().enumerate()).flat_map(|(w, &bits)| {
            (0..64)
                .filter(move |i| bits & (1 << i) != 0)
                .map(move |i| w * 64 + i)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::{self, Emit, Options};

    /// For each allocation of `src`'s first function, in block layout
    /// order: how many arrays `live_across` keeps there. (Top-level
    /// variables are globals, roots of their own.)
    fn kept_at_allocations(src: &str) -> Vec<usize> {
        let opts = Options {
            opt_level: driver::OptLevel::O1,
            emit: Some(Emit::Ssa),
            ..Options::default()
        };
        let module = driver::compile(src, &opts).expect("compiles").ssa;
        let f = &module.functions[0];
        let roots = live_across(f, &DomTree::compute(f), allocates);
        let mut kept = Vec::new();
        for &b in &f.layout {
            for &i in &f.blocks[b].insts {
                if allocates(&f.insts[i].kind) {
                    let live = roots.get(&i).map_or(&[][..], Vec::as_slice);
                    assert!(live.iter().all(|&v| f.value_ty(v) == Ty::Array));
                    kept.push(live.len());
                }
            }
        }
        kept
    }

    #[test]
    fn a_parameter_used_after_an_allocation_is_kept() {
        let src = "fn f(a: [int], n: int) -> int { let t = [n; 3]; return a[0] + t[0]; }\nprint(f([1], 2));\n";
        assert_eq!(kept_at_allocations(src), [1]);
    }

    #[test]
    fn a_parameter_dead_before_the_allocation_is_not() {
        let src = "fn f(a: [int], n: int) -> int { let x = a[0]; let t = [n; 3]; return x + t[0]; }\nprint(f([1], 2));\n";
        assert_eq!(kept_at_allocations(src), [0]);
    }

    #[test]
    fn a_loop_carried_array_is_kept_around_the_loop() {
        // `[i; 2]` runs while the phi's array is still needed by the
        // literal after it; the literal itself needs neither.
        let src = "fn f() -> [int] {\n  let a = [1];\n  for i in 0..3 { let t = [i; 2]; a = [a[0] + t[0]]; }\n  return a;\n}\nprint(f());\n";
        assert_eq!(kept_at_allocations(src), [0, 1, 0]);
    }

    #[test]
    fn an_array_literal_keeps_its_array_elements() {
        let src = "fn f() -> [[int]] { let x = [1]; return [x, [2]]; }\nprint(f());\n";
        assert_eq!(kept_at_allocations(src), [0, 1, 2]);
    }
}
