//! Alias classes of arrays (`-O2`, whole programs): which array values may
//! be the same array. Steensgaard's unification-based points-to analysis
//! ("Points-to analysis in almost linear time", POPL 1996), on arrays:
//! flow- and context-insensitive, one union-find over the array values
//! of every function, the array globals and each function's returned
//! arrays. Two values that may hold the same array end up in one class:
//!
//! - a phi, a select, a copy and a renewed array join their operands;
//! - a load and a store of a global join the global;
//! - a call joins each array argument with the callee's parameter, and
//!   its result with the callee's returns;
//! - every class has a *contents* class: the arrays held as elements of
//!   its arrays. Reading an element joins the read with the contents,
//!   storing one (an element store, `[e; n]`'s fill, a literal's
//!   elements) joins the stored array with it; when two classes join,
//!   so do their contents;
//! - the empty array every array global holds before its `let` is one
//!   shared array, but it has no elements to change or read: each
//!   `EmptyArray` stays in a class of its own, so that the globals do not
//!   all become one class through it.
//!
//! The pass records each function's classes ([`Function::array_classes`]),
//! and the length of the arrays of a class when every instruction that
//! makes one of them gives the same ([`Function::known_length`]: the rows
//! of a particle system's `[x, y]` vectors), which `ir::bounds` and
//! `ir::lengths` take as they take a literal's;
//! [`Function::may_alias`] answers from them. A loop that stores the
//! elements of one class cannot change what a load from another class
//! reads, which `ir::licm` and `ir::version` ask ([`Loops::stores`]).
//! It also records what a call of each function may change
//! ([`Module::effects`]: the globals and the classes' elements it stores,
//! itself or through its callees), so that `ir::licm` hoists loads out of
//! loops that call functions which cannot change them. Only `ir::licm`,
//! right after this pass, reads them: a later pass may add stores the
//! effects do not list (`ir::renew` writes the elements of the arrays it
//! renews). In the REPL a later entry may make any two globals one array, so
//! entries are not classified: every value may alias any other there.
//!
//! Architecture Invariant: a pass after this one never makes an array
//! value it finds classified flow somewhere it did not (a new phi, select,
//! store or call of existing values); values a pass makes are
//! unclassified, which means "may be any array", except copies of a
//! classified value's instruction, which are the same arrays
//! ([`Function::copy_class`], `ir::version`'s loop copies).
//!
//! [`Loops::stores`]: super::loops::Loops::stores

use super::*;
use crate::entity::EntityRef;
use rustc_hash::{FxHashMap, FxHashSet};

/// A value no class was recorded for: any array.
pub const UNCLASSIFIED: u32 = u32::MAX;

/// Classifies the arrays of every function of `m` (the whole program).
pub fn classify_arrays(m: &mut Module) {
    for f in m.all_functions_mut() {
        f.resolve_aliases();
    }
    let mut u = Unifier::new(m);
    for k in 0..=m.functions.len() {
        u.join_flows(m, k);
    }
    m.effects = effects(m, &mut u);
    let lengths = class_lengths(m, &mut u);
    for k in 0..=m.functions.len() {
        let classes: Vec<u32> = {
            let f = m.function(k);
            (f.values.iter())
                .map(|(v, _)| {
                    if f.value_ty(v) == Ty::Array {
                        u.find(u.node(k, v))
                    } else {
                        UNCLASSIFIED
                    }
                })
                .collect()
        };
        let known = (classes.iter())
            .map(|c| lengths.get(c).copied().flatten().unwrap_or(-1))
            .collect();
        let f = m.function_mut(k);
        f.array_classes = classes;
        f.class_lengths = known;
    }
}

/// By class: the length every array of the class has, when all that
/// make one (literals, `[e; n]` with a constant `n`, the empty array) give
/// it the same (`None`: they do not). Every array a value of a whole
/// program can hold is made by an instruction of its class.
fn class_lengths(m: &Module, u: &mut Unifier) -> FxHashMap<u32, Option<i64>> {
    let mut lengths: FxHashMap<u32, Option<i64>> = FxHashMap::default();
    for k in 0..=m.functions.len() {
        let f = m.function(k);
        for &b in &f.layout {
            for &i in &f.blocks[b].insts {
                let data = &f.insts[i];
                let Some(r) = data.result.filter(|&r| f.value_ty(r) == Ty::Array) else {
                    continue;
                };
                let len = match data.kind {
                    InstKind::EmptyArray => Some(0),
                    InstKind::NewArray { len, .. } => match f.int_constant(len) {
                        // A negative length makes no array.
                        Some(n) if n < 0 => continue,
                        n => n,
                    },
                    InstKind::ArrayLit(ref elems) | InstKind::Renew { ref elems, .. } => {
                        Some(elems.len() as i64)
                    }
                    _ => continue,
                };
                let class = u.find(u.node(k, r));
                let known = lengths.entry(class).or_insert(len);
                if *known != len {
                    *known = None;
                }
            }
        }
    }
    lengths
}

/// What a call of a function may change: the globals it stores and the
/// elements it stores (by the array's class and the element's type),
/// itself or through the functions it calls ([`Module::effects`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Effects {
    pub globals: FxHashSet<GlobalRef>,
    pub elements: FxHashSet<(u32, Ty)>,
}

/// Each function's [`Effects`]: its own stores, then those of its callees
/// joined in until nothing changes (a recursive function's include its
/// own).
fn effects(m: &Module, u: &mut Unifier) -> Vec<Effects> {
    let mut globals = Vec::new();
    let mut elements = Vec::new();
    for (k, f) in m.functions.iter().enumerate() {
        let (mut g, mut e) = (FxHashSet::default(), FxHashSet::default());
        for &b in &f.layout {
            for &i in &f.blocks[b].insts {
                match f.insts[i].kind {
                    InstKind::StoreGlobal(stored, _) => {
                        g.insert(stored);
                    }
                    InstKind::ArraySet { array, value, .. } => {
                        e.insert((u.find(u.node(k, array)), f.value_ty(value)));
                    }
                    _ => {}
                }
            }
        }
        globals.push(g);
        elements.push(e);
    }
    let graph = inliner::call_graph(m);
    inliner::close_over_callees(&mut globals, &graph);
    inliner::close_over_callees(&mut elements, &graph);
    (globals.into_iter().zip(elements))
        .map(|(globals, elements)| Effects { globals, elements })
        .collect()
}

/// The union-find: a node per array global, per value of each function,
/// per function's returns, then the contents nodes made as needed.
struct Unifier {
    parent: Vec<u32>,
    /// By root: the class of the arrays its arrays hold, once one is known.
    contents: Vec<Option<u32>>,
    /// By function (the top-level code last): its first value's node.
    base: Vec<usize>,
    /// By function: the node of the arrays it returns.
    returns: Vec<usize>,
}

impl Unifier {
    fn new(m: &Module) -> Self {
        let mut next = m.globals.len();
        let (mut base, mut returns) = (Vec::new(), Vec::new());
        for k in 0..=m.functions.len() {
            base.push(next);
            next += m.function(k).values.len();
            returns.push(next);
            next += 1;
        }
        Unifier {
            parent: (0..next as u32).collect(),
            contents: vec![None; next],
            base,
            returns,
        }
    }

    fn node(&self, k: usize, v: Value) -> usize {
        self.base[k] + v.index()
    }

    fn find(&mut self, mut n: usize) -> u32 {
        while self.parent[n] as usize != n {
            // Path halving.
            let grand = self.parent[self.parent[n] as usize];
            self.parent[n] = grand;
            n = grand as usize;
        }
        n as u32
    }

    /// The contents class of `n`'s class, made if it has none yet.
    fn contents(&mut self, n: usize) -> usize {
        let root = self.find(n) as usize;
        if let Some(c) = self.contents[root] {
            return c as usize;
        }
        let c = self.parent.len();
        self.parent.push(c as u32);
        self.contents.push(None);
        self.contents[root] = Some(c as u32);
        c
    }

    /// Joins the classes of `a` and `b`, and then their contents.
    fn union(&mut self, a: usize, b: usize) {
        let mut work = vec![(a, b)];
        while let Some((a, b)) = work.pop() {
            let (ra, rb) = (self.find(a) as usize, self.find(b) as usize);
            if ra == rb {
                continue;
            }
            self.parent[rb] = ra as u32;
            match (self.contents[ra], self.contents[rb]) {
                (Some(x), Some(y)) => work.push((x as usize, y as usize)),
                (None, Some(y)) => self.contents[ra] = Some(y),
                _ => {}
            }
        }
    }

    /// Joins what flows together in function `k`.
    fn join_flows(&mut self, m: &Module, k: usize) {
        let f = m.function(k);
        let is_array = |v: Value| f.value_ty(v) == Ty::Array;
        let base = self.base[k];
        let node = |v: Value| base + v.index();
        for &b in &f.layout {
            for &phi in f.blocks[b].phis.iter().filter(|&&p| is_array(p)) {
                for &arg in f.phi_args(phi) {
                    self.union(node(phi), node(arg));
                }
            }
            for &i in &f.blocks[b].insts {
                let data = &f.insts[i];
                let r = data.result.filter(|&r| is_array(r)).map(node);
                match (&data.kind, r) {
                    (&InstKind::Copy(v), Some(r)) => self.union(r, node(v)),
                    (
                        &InstKind::Select {
                            if_true, if_false, ..
                        },
                        Some(r),
                    ) => {
                        self.union(r, node(if_true));
                        self.union(r, node(if_false));
                    }
                    (&InstKind::Renew { old, .. }, Some(r)) => self.union(r, node(old)),
                    (&InstKind::LoadGlobal(g), Some(r)) => self.union(r, g as usize),
                    (&InstKind::StoreGlobal(g, v), _) if is_array(v) => {
                        self.union(g as usize, node(v))
                    }
                    (InstKind::Call(g, args), r) => {
                        let callee = m.function(*g as usize);
                        for (&a, &p) in args.iter().zip(&callee.params) {
                            if is_array(a) {
                                self.union(node(a), self.node(*g as usize, p));
                            }
                        }
                        if let Some(r) = r {
                            self.union(r, self.returns[*g as usize]);
                        }
                    }
                    (&InstKind::ArrayGet { array, .. }, Some(r)) => {
                        let c = self.contents(node(array));
                        self.union(r, c);
                    }
                    (&InstKind::ArraySet { array, value, .. }, _) if is_array(value) => {
                        let c = self.contents(node(array));
                        self.union(c, node(value));
                    }
                    (&InstKind::NewArray { fill, .. }, Some(r)) if is_array(fill) => {
                        let c = self.contents(r);
                        self.union(c, node(fill));
                    }
                    (InstKind::ArrayLit(elems), Some(r)) => {
                        for &e in elems.iter().filter(|&&e| is_array(e)) {
                            let c = self.contents(r);
                            self.union(c, node(e));
                        }
                    }
                    _ => {}
                }
            }
            if let Some(Terminator::Return(Some(v))) = f.blocks[b].term {
                if is_array(v) {
                    self.union(node(v), self.returns[k]);
                }
            }
        }
    }
}
