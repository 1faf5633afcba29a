//! The loop forest of a function, and the counters of its counted loops.
//!
//! Toy's CFGs are reducible, so every cycle is a natural loop: a header
//! that dominates the sources of the edges back to it (its latches), and
//! every block that reaches a latch without passing the header. Loops with
//! one header are one loop; a loop whose header lies in another loop is
//! nested in it. Computed from the dominator tree, and kept with the
//! function until its CFG changes (`ir::analyses`), so that the passes
//! and the translator's `FunctionPlan` share one; every analysis that
//! asks about loops (bounds checks, rotation, vector loops, hoisting,
//! versioning) and the translator (loop headers, back edges, blocks on a
//! loop) read it and find none itself.
//!
//! A *counted* loop is one whose header ends in `i < n` (or `i <= n`) for
//! a header phi `i` that starts at a value from outside and grows by a
//! positive constant on every back edge, with `n` defined outside the loop
//! ([`Loops::counted`]). In the blocks past the header's test, `i` lies in
//! `[init, n)` (or `[init, n]`) — as long as `i + step` cannot wrap, which
//! a pass relying on it must make sure of.
//!
//! A loop whose header compares a header phi with a constant, the phi
//! starting at a constant and changed by constant operations on its one
//! back edge (`s *= 2` from 1 while `s < 64`, `k -= 1` down to 0), has a
//! trip count found by running its test, as GCC's `loop_niter_by_eval`
//! does ([`Loops::evaluated_trips`]).

use super::alias::Effects;
use super::dom::DomTree;
use super::semantics::Const;
use super::*;
use crate::entity::SecondaryMap;
use rustc_hash::FxHashSet;
use std::cell::OnceCell;
use std::sync::Arc;

crate::entity!(
    /// A loop of a [`Loops`] forest.
    Loop,
    "loop"
);

#[derive(Clone, Debug, PartialEq)]
pub struct LoopData {
    pub header: Block,
    /// The blocks that jump back to the header.
    pub latches: Vec<Block>,
    /// Every block of the loop, nested loops' included, in reverse
    /// post-order (the header first).
    pub blocks: Vec<Block>,
    /// The innermost loop this one is nested in.
    pub parent: Option<Loop>,
    /// Whether another loop is nested in this one.
    pub has_inner: bool,
}

impl CountedLoop {
    /// How many times the body runs, if the counter's start and bound
    /// are constants; `None` past the `i64` range.
    pub fn constant_trips(&self, f: &Function) -> Option<i64> {
        let init = f.int_constant(self.counter.init)?;
        let bound = f.int_constant(self.bound)?;
        trips(init, bound, self.counter.step, self.inclusive)
    }
}

/// How many times `for (i = init; i < bound (or <=); i += step)` runs;
/// `None` past the `i64` range.
fn trips(init: i64, bound: i64, step: i64, inclusive: bool) -> Option<i64> {
    let (init, bound, step) = (init as i128, bound as i128, step as i128);
    let end = if inclusive { bound + 1 } else { bound };
    if init >= end {
        return Some(0);
    }
    i64::try_from((end - init + step - 1) / step).ok()
}

/// The natural loops of a function: its [`Forest`], which depends on the
/// CFG alone (and is kept with the function until that changes:
/// [`Function::dom_and_loops`]), and what is found of instructions.
pub struct Loops {
    forest: Arc<Forest>,
    /// The block of each laid-out instruction, made when first asked (so
    /// it does not follow instructions moved afterwards: `ir::licm`
    /// plans its moves before it makes them).
    block_of: OnceCell<SecondaryMap<Inst, Option<Block>>>,
}

/// The loops of a CFG and the blocks on them.
#[derive(Clone, Debug, PartialEq)]
pub struct Forest {
    /// In the reverse post-order of their headers: a loop comes before
    /// the loops nested in it.
    pub loops: Arena<Loop, LoopData>,
    /// The innermost loop each block belongs to.
    innermost: SecondaryMap<Block, Option<Loop>>,
}

impl std::ops::Deref for Loops {
    type Target = Forest;
    fn deref(&self) -> &Forest {
        &self.forest
    }
}

/// A loop's counter: a header phi stepping up by a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counter {
    pub phi: Value,
    /// Its value on entry (the operand from outside the loop).
    pub init: Value,
    /// The smallest of its steps on the back edges (all positive).
    pub step: i64,
    /// Whether every back edge steps it by exactly one.
    pub steps_by_one: bool,
}

/// A loop that runs while `counter < bound` (or `<=`), tested by its
/// header before anything else of an iteration happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountedLoop {
    pub counter: Counter,
    /// Defined outside the loop.
    pub bound: Value,
    /// `counter <= bound` rather than `<`.
    pub inclusive: bool,
    /// The header's target while the test holds: entered only from the
    /// header, so it dominates every block of the loop but the header.
    pub body: Block,
}

impl Forest {
    /// The loops of `f`'s CFG, whose dominator tree `dom` is.
    pub fn compute(f: &Function, dom: &DomTree) -> Forest {
        let mut loops: Arena<Loop, LoopData> = Arena::new();
        let mut innermost: SecondaryMap<Block, Option<Loop>> =
            SecondaryMap::with_capacity(f.blocks.len(), None);
        // Outer headers come first in reverse post-order, so a loop's
        // blocks are claimed by its inner loops after it.
        let headers = if dom.is_acyclic() {
            &[][..]
        } else {
            &dom.rpo[..]
        };
        for &header in headers {
            let preds = &f.blocks[header].preds;
            if !preds.iter().any(|&p| dom.dominates(header, p)) {
                continue;
            }
            let latches: Vec<Block> = (preds.iter().copied())
                .filter(|&p| dom.dominates(header, p))
                .collect();
            let parent = innermost[header];
            let l = loops.push(LoopData {
                header,
                latches: latches.clone(),
                blocks: Vec::new(),
                parent,
                has_inner: false,
            });
            if let Some(p) = parent {
                loops[p].has_inner = true;
            }
            // Claiming a block for `l` also marks it walked.
            innermost[header] = Some(l);
            let mut blocks = vec![header];
            let mut stack = latches;
            while let Some(b) = stack.pop() {
                if innermost[b] == Some(l) || !dom.is_reachable(b) {
                    continue;
                }
                innermost[b] = Some(l);
                blocks.push(b);
                stack.extend(f.blocks[b].preds.iter().copied());
            }
            blocks.sort_unstable_by_key(|&b| dom.rpo_number(b));
            loops[l].blocks = blocks;
        }
        Forest { loops, innermost }
    }
}

impl Loops {
    /// The loops of `f`, whose dominator tree `dom` is (a pass asks the
    /// function instead: [`Function::dom_and_loops`]).
    pub fn compute(f: &Function, dom: &DomTree) -> Loops {
        Loops::of(Arc::new(Forest::compute(f, dom)))
    }

    /// The loops of `forest`, a forest of the function's current CFG.
    pub fn of(forest: Arc<Forest>) -> Loops {
        Loops {
            forest,
            block_of: OnceCell::new(),
        }
    }

    /// The forest, to keep while the CFG stays as it is.
    pub fn forest(&self) -> &Arc<Forest> {
        &self.forest
    }

    /// Records `new`, a block just made to jump to `to` (not a header)
    /// and entered only from blocks that jumped to `to` before: it lies on
    /// the loops `to` lies on (it reaches their headers through `to`, and
    /// `to` is reached only through it or `to`'s other predecessors), and
    /// comes before `to` in reverse post-order. The forest then differs
    /// from the one [`Forest::compute`] would make at most in where `new`
    /// sits among a loop's blocks, so a pass that adds such blocks need not
    /// compute it again.
    pub fn add_block_before(&mut self, new: Block, to: Block) {
        debug_assert!(!self.is_header(to), "a header's latches would change");
        let forest = Arc::make_mut(&mut self.forest);
        forest.innermost[new] = forest.innermost[to];
        let mut at = forest.innermost[to];
        while let Some(l) = at {
            let blocks = &mut forest.loops[l].blocks;
            let k = blocks
                .iter()
                .position(|&b| b == to)
                .expect("`to` is on `l`");
            blocks.insert(k, new);
            at = forest.loops[l].parent;
        }
    }

    /// The innermost loop `b` lies on.
    pub fn innermost(&self, b: Block) -> Option<Loop> {
        self.innermost[b]
    }

    /// Whether `b` lies on a loop.
    pub fn in_loop(&self, b: Block) -> bool {
        self.innermost[b].is_some()
    }

    /// The loop `b` heads, if it is a loop header. (A header's innermost
    /// loop is its own: a loop nested in it has a header of its own.)
    pub fn headed_by(&self, b: Block) -> Option<Loop> {
        self.innermost[b].filter(|&l| self.loops[l].header == b)
    }

    pub fn is_header(&self, b: Block) -> bool {
        self.headed_by(b).is_some()
    }

    /// Whether `from → to` is a loop's back edge: `to` heads a loop that
    /// `from` lies in (on reducible CFGs, the edges that go back in
    /// reverse post-order).
    pub fn is_back_edge(&self, from: Block, to: Block) -> bool {
        self.headed_by(to).is_some_and(|l| self.contains(l, from))
    }

    /// The block of a laid-out instruction of `f` (the function the
    /// forest is of).
    pub fn block_of(&self, f: &Function, inst: Inst) -> Option<Block> {
        let block_of = self.block_of.get_or_init(|| {
            let mut block_of = SecondaryMap::with_capacity(f.insts.len(), None);
            for &b in &f.layout {
                for &i in &f.blocks[b].insts {
                    block_of[i] = Some(b);
                }
            }
            block_of
        });
        block_of[inst]
    }

    /// The block that defines `v`; `None` for parameters and undefined values.
    pub fn def_block(&self, f: &Function, v: Value) -> Option<Block> {
        match f.values[v].def {
            ValueDef::Inst(i) => self.block_of(f, i),
            ValueDef::Phi(p) => Some(f.phis[p].block),
            _ => None,
        }
    }

    /// Whether `b` belongs to loop `l` (or to a loop nested in it).
    pub fn contains(&self, l: Loop, b: Block) -> bool {
        let mut at = self.innermost[b];
        while let Some(inner) = at {
            if inner == l {
                return true;
            }
            at = self.loops[inner].parent;
        }
        false
    }

    /// Loops with no loop nested in them.
    pub fn innermost_loops(&self) -> impl Iterator<Item = Loop> + '_ {
        self.loops
            .iter()
            .filter(|(_, d)| !d.has_inner)
            .map(|(l, _)| l)
    }

    /// The header's one predecessor outside the loop, if it has only one.
    pub fn preheader(&self, f: &Function, l: Loop) -> Option<Block> {
        let mut outside = f.blocks[self.loops[l].header]
            .preds
            .iter()
            .copied()
            .filter(|&p| !self.contains(l, p));
        let first = outside.next()?;
        outside.all(|p| p == first).then_some(first)
    }

    /// The blocks outside the loop that blocks of the loop branch to, in
    /// reverse post-order of the loop's blocks.
    pub fn exits(&self, f: &Function, l: Loop) -> Vec<Block> {
        let mut exits = Vec::new();
        for &b in &self.loops[l].blocks {
            for s in f.successors(b) {
                if !self.contains(l, s) && !exits.contains(&s) {
                    exits.push(s);
                }
            }
        }
        exits
    }

    /// Whether `v` is defined outside loop `l` (a parameter, a constant, or
    /// a value of a block not in it): the same on every iteration.
    pub fn is_invariant(&self, f: &Function, l: Loop, v: Value) -> bool {
        match self.def_block(f, v) {
            Some(b) => !self.contains(l, b),
            None => true,
        }
    }

    /// The element stores of loop `l`, and what the functions it calls
    /// may store by their `effects` ([`Module::effects`]); `None` when it
    /// calls a function `effects` does not know, which may store anything.
    pub fn stores(&self, f: &Function, l: Loop, effects: &[Effects]) -> Option<LoopStores> {
        let mut stores = LoopStores::default();
        for &b in &self.loops[l].blocks {
            for &i in &f.blocks[b].insts {
                let (array, value) = match f.insts[i].kind {
                    InstKind::StoreGlobal(g, _) => {
                        stores.globals.insert(g);
                        continue;
                    }
                    InstKind::Call(g, _) => {
                        let e = effects.get(g as usize)?;
                        stores.called.extend(e.elements.iter().copied());
                        stores.globals.extend(e.globals.iter().copied());
                        continue;
                    }
                    InstKind::ArraySet { array, value, .. } => (array, value),
                    // It may overwrite an array's elements.
                    InstKind::Renew { old, ref elems } => (old, elems[0]),
                    _ => continue,
                };
                let store = (array, f.value_ty(value));
                if !stores.own.contains(&store) {
                    stores.own.push(store);
                }
            }
        }
        Some(stores)
    }

    /// The test of `l`'s header and the block it enters while the test
    /// holds, when the header computes that test and branches on it into
    /// a block of the loop that only the header enters, or out of the
    /// loop.
    fn header_test(&self, f: &Function, l: Loop) -> Option<(Value, Block)> {
        let header = self.loops[l].header;
        let Some(Terminator::Branch {
            cond,
            then_block: body,
            else_block: exit,
        }) = f.blocks[header].term
        else {
            return None;
        };
        let enters = self.contains(l, body) && f.blocks[body].preds[..] == [header];
        let leaves = !self.contains(l, exit);
        (enters && leaves && self.def_block(f, cond) == Some(header)).then_some((cond, body))
    }

    /// `l` as a counted loop (module docs), if it is one.
    pub fn counted(&self, f: &Function, l: Loop) -> Option<CountedLoop> {
        let header = self.loops[l].header;
        let (cond, body) = self.header_test(f, l)?;
        let ValueDef::Inst(test) = f.values[cond].def else {
            return None;
        };
        let (phi, bound, inclusive) = match f.insts[test].kind {
            InstKind::Binary(BinaryOp::ICmp(Cmp::Lt), a, b) => (a, b, false),
            InstKind::Binary(BinaryOp::ICmp(Cmp::Le), a, b) => (a, b, true),
            InstKind::Binary(BinaryOp::ICmp(Cmp::Gt), a, b) => (b, a, false),
            InstKind::Binary(BinaryOp::ICmp(Cmp::Ge), a, b) => (b, a, true),
            _ => return None,
        };
        if f.phi_block(phi) != Some(header) || !self.is_invariant(f, l, bound) {
            return None;
        }
        let counter = self.counter(f, l, phi)?;
        Some(CountedLoop {
            counter,
            bound,
            inclusive,
            body,
        })
    }

    /// The trips of `l` found by running its header's test (module docs),
    /// when it stops within `max` trips: the compare's phi, the header's
    /// target while the test holds, and the trips.
    pub fn evaluated_trips(&self, f: &Function, l: Loop, max: i64) -> Option<EvaluatedLoop> {
        let header = self.loops[l].header;
        let (cond, body) = self.header_test(f, l)?;
        let [latch] = self.loops[l].latches[..] else {
            return None;
        };
        let Some(&InstKind::Binary(cmp @ BinaryOp::ICmp(_), a, b)) = f.def_kind(cond) else {
            return None;
        };
        let (phi, bound, phi_first) = match (f.int_constant(a), f.int_constant(b)) {
            (None, Some(bound)) => (a, bound, true),
            (Some(bound), None) => (b, bound, false),
            _ => return None,
        };
        if f.phi_block(phi) != Some(header) {
            return None;
        }
        let preds = &f.blocks[header].preds;
        let (mut init, mut next) = (None, None);
        for (&pred, &arg) in preds.iter().zip(f.phi_args(phi)) {
            if pred == latch {
                next = Some(arg);
            } else if init.is_none() {
                init = Some(f.int_constant(arg)?);
            } else {
                return None;
            }
        }
        let steps = constant_steps(f, phi, next?)?;
        let holds = |v: i64| {
            let (x, y) = if phi_first { (v, bound) } else { (bound, v) };
            semantics::eval_binary(cmp, Const::Int(x), Const::Int(y)) == Some(Const::Bool(true))
        };
        let mut v = init?;
        let mut trips = 0;
        while holds(v) {
            trips += 1;
            if trips > max {
                return None;
            }
            for &(op, k, k_first) in steps.iter().rev() {
                let (x, y) = if k_first { (k, v) } else { (v, k) };
                let Some(Const::Int(next)) =
                    semantics::eval_binary(op, Const::Int(x), Const::Int(y))
                else {
                    return None;
                };
                v = next;
            }
        }
        Some(EvaluatedLoop { phi, body, trips })
    }

    /// Header phi `phi` as a counter: one operand from outside, and
    /// `phi + c` (`c > 0` constant) from every latch.
    fn counter(&self, f: &Function, l: Loop, phi: Value) -> Option<Counter> {
        let header = self.loops[l].header;
        let mut init = None;
        let mut step = i64::MAX;
        let mut steps_by_one = true;
        for (&pred, &arg) in f.blocks[header].preds.iter().zip(f.phi_args(phi)) {
            if !self.contains(l, pred) {
                if init.is_some_and(|i| i != arg) {
                    return None;
                }
                init = Some(arg);
                continue;
            }
            match offset_from(f, arg) {
                Some((base, c)) if base == phi && c > 0 => {
                    step = step.min(c);
                    steps_by_one &= c == 1;
                }
                _ => return None,
            }
        }
        Some(Counter {
            phi,
            init: init?,
            step,
            steps_by_one,
        })
    }
}

/// `v` as constant operations on `phi` (`phi * 2`, `(phi >> 1) ^ 3`), at
/// most four, outermost first: each operator, its constant and whether
/// the constant is its left operand.
fn constant_steps(f: &Function, phi: Value, v: Value) -> Option<Vec<(BinaryOp, i64, bool)>> {
    let mut steps = Vec::new();
    let mut v = v;
    while v != phi {
        if steps.len() == 4 {
            return None;
        }
        let &InstKind::Binary(op, a, b) = f.def_kind(v)? else {
            return None;
        };
        if f.value_ty(v) != Ty::Int {
            return None;
        }
        match (f.int_constant(a), f.int_constant(b)) {
            (None, Some(k)) => {
                steps.push((op, k, false));
                v = a;
            }
            (Some(k), None) => {
                steps.push((op, k, true));
                v = b;
            }
            _ => return None,
        }
    }
    Some(steps)
}

/// A loop whose trips [`Loops::evaluated_trips`] found.
#[derive(Clone, Copy, Debug)]
pub struct EvaluatedLoop {
    /// The header phi the test compares.
    pub phi: Value,
    /// The header's target while the test holds.
    pub body: Block,
    pub trips: i64,
}

/// `v` as `base + c` for a constant `c` (`base` itself, `base + 3`,
/// `base - 1`, `(base + 1) + 2`), following at most a few steps.
fn offset_from(f: &Function, v: Value) -> Option<(Value, i64)> {
    let mut v = v;
    let mut offset: i64 = 0;
    for _ in 0..4 {
        let Some((base, c)) = f.def_kind(v).and_then(|kind| f.constant_offset(kind)) else {
            break;
        };
        offset = offset.checked_add(c)?;
        v = base;
    }
    Some((v, offset))
}

/// What a loop's element stores write ([`Loops::stores`]): each store's
/// array and the type of its elements, and what the functions it calls
/// may store.
#[derive(Default)]
pub struct LoopStores {
    own: Vec<(Value, Ty)>,
    /// The elements the functions the loop calls may store: by class and type.
    called: FxHashSet<(u32, Ty)>,
    /// The globals the loop, or a function it calls, may store.
    pub globals: FxHashSet<GlobalRef>,
}

impl LoopStores {
    /// Whether a store of the loop may change an element of type `ty` of
    /// `array`. A Toy array holds elements of one type all its life, and
    /// arrays `ir::alias` put in different classes are different arrays.
    pub fn may_change(&self, f: &Function, array: Value, ty: Ty) -> bool {
        let class = f.array_class(array);
        (self.own.iter()).any(|&(written, t)| t == ty && f.may_alias(written, array))
            || (self.called.iter()).any(|&(c, t)| t == ty && class.is_none_or(|a| a == c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::{self, Emit, Options};

    /// `src`'s first function at -O1, and its loop forest.
    fn forest(src: &str) -> (Function, Loops) {
        let opts = Options {
            opt_level: driver::OptLevel::O1,
            emit: Some(Emit::Ssa),
            ..Options::default()
        };
        let module = driver::compile(src, &opts).expect("compiles").ssa;
        let f = module.functions[0].clone();
        let loops = Loops::compute(&f, &DomTree::compute(&f));
        (f, loops)
    }

    #[test]
    fn nested_loops_form_a_forest() {
        let (f, loops) = forest(
            "fn f(n: int) -> int {
                let s = 0;
                for i in 0..n { for j in 0..i { s += j; } }
                for k in 0..n { s += k; }
                return s;
            }",
        );
        assert_eq!(loops.loops.len(), 3);
        let inner: Vec<Loop> = loops.innermost_loops().collect();
        assert_eq!(inner.len(), 2, "the j loop and the k loop");
        let (outer, _) = loops
            .loops
            .iter()
            .find(|(_, d)| d.has_inner)
            .expect("i loop");
        let j_loop = inner
            .iter()
            .copied()
            .find(|&l| loops.loops[l].parent == Some(outer))
            .expect("the j loop is nested in the i loop");
        let j_header = loops.loops[j_loop].header;
        assert!(loops.contains(outer, j_header));
        assert!(!loops.contains(j_loop, loops.loops[outer].header));
        assert!(loops.preheader(&f, j_loop).is_some());
        assert_eq!(loops.exits(&f, j_loop).len(), 1);
    }

    #[test]
    fn counters_step_up_by_constants_to_an_invariant_bound() {
        let (f, loops) = forest(
            "fn f(a: [int], n: int) -> int {
                let s = 0;
                let i = 1;
                while i <= n { s += a[i]; i += 3; }
                let j = 0;
                while j < n { s += j; j = j * 2 + 1; }
                return s;
            }",
        );
        let mut counted: Vec<Option<CountedLoop>> =
            loops.loops.keys().map(|l| loops.counted(&f, l)).collect();
        counted.sort_by_key(Option::is_none);
        let first = counted[0].expect("the first loop counts");
        assert_eq!(first.counter.step, 3);
        assert!(first.inclusive);
        assert_eq!(first.bound, f.params[1]);
        assert_eq!(counted[1], None, "j * 2 + 1 is no constant step");
    }

    /// Whether `b` lies on a cycle of the CFG: some successor reaches it.
    fn on_a_cycle(f: &Function, b: Block) -> bool {
        let mut seen: SecondaryMap<Block, bool> = SecondaryMap::with_default(false);
        let mut work: Vec<Block> = f.successors(b).to_vec();
        while let Some(x) = work.pop() {
            if x == b {
                return true;
            }
            if !std::mem::replace(&mut seen[x], true) {
                work.extend(f.successors(x));
            }
        }
        false
    }

    #[test]
    fn blocks_in_loops_are_the_blocks_on_cycles() {
        let (f, loops) = forest(
            "fn f(n: int) -> int {
                let s = 0;
                for i in 0..n { for j in 0..i { if j > 2 { s += j; } } }
                if s > 3 { s = 1; }
                while s < n { s += 2; }
                return s;
            }",
        );
        for &b in &f.layout {
            assert_eq!(loops.in_loop(b), on_a_cycle(&f, b), "{b}");
        }
        assert!(!loops.in_loop(f.entry()));
    }

    #[test]
    fn headers_are_entered_back_only_from_their_latches() {
        let (f, loops) = forest(
            "fn f(n: int) -> int {
                let s = 0;
                for i in 0..n { for j in 0..i { s += j; } }
                return s;
            }",
        );
        let headers: Vec<Block> = f
            .layout
            .iter()
            .copied()
            .filter(|&b| loops.is_header(b))
            .collect();
        assert_eq!(headers.len(), 2);
        for (l, d) in loops.loops.iter() {
            assert_eq!(loops.headed_by(d.header), Some(l));
            for &p in &f.blocks[d.header].preds {
                assert_eq!(loops.is_back_edge(p, d.header), d.latches.contains(&p));
            }
            // A block of the loop other than the header heads an inner loop
            // or none.
            for &b in &d.blocks[1..] {
                assert!(loops
                    .headed_by(b)
                    .is_none_or(|i| loops.loops[i].parent == Some(l)));
            }
        }
        for &b in &f.layout {
            for &i in &f.blocks[b].insts {
                assert_eq!(loops.block_of(&f, i), Some(b));
            }
        }
    }

    #[test]
    fn trip_counts() {
        assert_eq!(trips(0, 4, 1, false), Some(4));
        assert_eq!(trips(0, 4, 1, true), Some(5));
        assert_eq!(trips(0, 5, 2, false), Some(3));
        assert_eq!(trips(3, 3, 1, false), Some(0));
        assert_eq!(trips(7, 3, 1, true), Some(0));
        assert_eq!(trips(i64::MIN, i64::MAX, 1, true), None);
    }
}
