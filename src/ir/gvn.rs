//! Dominator-based value numbering (`-O2`): a pure instruction computing
//! what a dominating one already computed (same operation, same operands)
//! takes its value. SSA construction's hash-consing (Braun et al. §3.1)
//! works within a block; this pass reaches across blocks, so that the
//! passes after it see one value where the source wrote the same
//! expression twice (`a[j - 1]` in a test and again in its arm is one
//! element for `ir::reuse`). A division repeated where the first one
//! dominates it cannot fail where the first did not.
//!
//! Each instruction is first folded and simplified as SSA construction
//! does (`ssa::peephole`): the passes before this one make operands
//! constant that were not when the code was built (an unrolled loop's
//! counter, an inlined call's arguments), which leaves `i * 4 + 0` and
//! `(x + 1) + 1`. Simplifying before numbering, as Click's value
//! numbering with constant folding does, lets `x + 0` meet `x`.
//!
//! A block entered only along one edge of a branch also knows the
//! branch's condition there (as GCC's dominator optimizer and LLVM's GVN
//! propagate the equalities of edges): the condition is true in the
//! blocks its `then` edge dominates and false in those of its `else`,
//! with what follows from that — both sides of an `and` found true (of an
//! `or` found false), and every comparison of the same two ints that the
//! known one decides (`a < b` found false decides `a >= b`; `a == b`
//! found true decides `a <= b` and `b > a`).
//! Uses of a known condition there become the constant, comparisons it
//! decides fold, and a branch on one becomes a jump; blocks no longer
//! reached go. An unrolled recursion's copies test again what the
//! enclosing copy's entry test already decided (`n == 0` in every copy
//! of a partition count's body).

use super::dom::DomTree;
use super::semantics::Const;
use super::tidy;
use super::*;
use crate::entity::SecondaryMap;
use crate::ssa::peephole::{self, Simplified};
use rustc_hash::FxHashMap;
use std::collections::hash_map::Entry;

/// A walk of the dominator tree with a scoped table (Briggs, Cooper and
/// Simpson's dominator-based value numbering): a block sees the
/// computations of the blocks that dominate it, and only those, so each
/// lookup is one hash probe however many sibling blocks compute the same.
pub fn number_values(f: &mut Function) {
    let dom = f.dom_tree();
    let mut children: FxHashMap<Block, SmallVec<[Block; 4]>> = FxHashMap::default();
    for &b in &dom.rpo[1..] {
        let parent = dom.idom(b).expect("a reachable block other than the entry");
        children.entry(parent).or_default().push(b);
    }
    enum Step {
        Enter(Block),
        /// Leave a block: forget what it added, from this length of `added` on.
        Leave(usize),
    }
    let mut numbering = Numbering {
        known: SecondaryMap::with_capacity(f.values.len(), None),
        ..Numbering::default()
    };
    let mut steps = vec![Step::Enter(f.entry())];
    while let Some(step) = steps.pop() {
        let b = match step {
            Step::Leave(mark) => {
                numbering.forget_from(mark);
                continue;
            }
            Step::Enter(b) => b,
        };
        steps.push(Step::Leave(numbering.added.len()));
        let kids = children.get(&b).into_iter().flatten().rev();
        steps.extend(kids.map(|&c| Step::Enter(c)));
        if let Some((cond, holds)) = decided_on_entry(f, b) {
            numbering.assume(f, &dom, cond, holds);
        }
        let insts = std::mem::take(&mut f.blocks[b].insts);
        let mut kept = SmallVec::with_capacity(insts.len());
        for inst in insts {
            numbering.number(f, &mut kept, inst);
        }
        if numbering.known_count > 0 {
            numbering.use_known_at_end(f, &mut kept, b);
        }
        f.blocks[b].insts = kept;
    }
    if numbering.folded_branch {
        tidy::remove_unreachable_blocks(f);
        tidy::merge_straight_blocks(f);
    }
    if numbering.replaced {
        f.resolve_aliases();
    }
}

/// The condition of the branch that is block `b`'s only way in, and
/// whether it holds in `b` (`b` is its `then` target).
fn decided_on_entry(f: &Function, b: Block) -> Option<(Value, bool)> {
    let [p] = f.blocks[b].preds[..] else {
        return None;
    };
    match f.blocks[p].term {
        Some(Terminator::Branch {
            cond,
            then_block,
            else_block,
        }) if then_block != else_block && p != b => Some((f.resolve(cond), then_block == b)),
        _ => None,
    }
}

/// The value a phi takes from every edge (a join that folded branches
/// left one way into, or that gets the same constant from each), else `v`.
fn through_single_value_phi(f: &Function, v: Value) -> Value {
    if f.phi_block(v).is_none() {
        return v;
    }
    let mut args = f.phi_args(v).iter().map(|&a| f.resolve(a));
    let first = args.next().unwrap_or(v);
    let same =
        |a: Value| a == first || (f.constant(a).is_some() && f.constant(a) == f.constant(first));
    if first != v && args.all(same) {
        first
    } else {
        v
    }
}

/// The value bool `a` has on the edge from `p` to `j`, where that is
/// known: a constant, or the condition of `p`'s branch.
fn brings(f: &Function, p: Block, j: Block, a: Value) -> Option<bool> {
    if let Some(Const::Bool(b)) = f.constant(a) {
        return Some(b);
    }
    match f.blocks[p].term {
        Some(Terminator::Branch {
            cond,
            then_block,
            else_block,
        }) if then_block != else_block && f.resolve(cond) == a => Some(then_block == j),
        _ => None,
    }
}

/// The orderings two compared values may stand in, as a set of bits:
/// less, equal, greater and (floats, a NaN among them) unordered.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Orderings(u8);

impl Orderings {
    const LESS: u8 = 1;
    const EQUAL: u8 = 2;
    const GREATER: u8 = 4;
    const UNORDERED: u8 = 8;

    /// Those in which `cmp` holds.
    fn satisfying(cmp: Cmp) -> u8 {
        match cmp {
            Cmp::Eq => Self::EQUAL,
            Cmp::Ne => Self::LESS | Self::GREATER | Self::UNORDERED,
            Cmp::Lt => Self::LESS,
            Cmp::Le => Self::LESS | Self::EQUAL,
            Cmp::Gt => Self::GREATER,
            Cmp::Ge => Self::GREATER | Self::EQUAL,
        }
    }

    /// Those in which `cmp` comes out `holds` (only floats are unordered).
    fn where_comes_out(cmp: Cmp, holds: bool, floats: bool) -> Orderings {
        let all = if floats { 15 } else { 7 };
        let satisfying = Self::satisfying(cmp) & all;
        Orderings(if holds { satisfying } else { all & !satisfying })
    }

    /// The same with the two values swapped.
    fn swapped(self) -> Orderings {
        let keep = self.0 & (Self::EQUAL | Self::UNORDERED);
        let less = (self.0 & Self::LESS) * 4;
        let greater = (self.0 & Self::GREATER) / 4;
        Orderings(keep | less | greater)
    }

    /// What `cmp` comes out as, if these decide it.
    fn decide(self, cmp: Cmp) -> Option<bool> {
        let satisfying = Self::satisfying(cmp);
        if self.0 & satisfying == self.0 {
            Some(true)
        } else if self.0 & satisfying == 0 {
            Some(false)
        } else {
            None
        }
    }
}

/// The pure computations of the blocks dominating the one being numbered,
/// and the conditions the branches into it decided.
#[derive(Default)]
struct Numbering {
    table: FxHashMap<InstKind, Value>,
    /// Bool values known on the way to the current block.
    known: SecondaryMap<Value, Option<bool>>,
    known_count: usize,
    /// How pairs of values compare, as far as the branches on the way
    /// decided (`a < b` found false: equal or greater).
    known_comparisons: FxHashMap<Pair, Orderings>,
    /// What the walk added to the maps, in order, to forget on leaving.
    added: Vec<Added>,
    /// Whether some value became an alias.
    replaced: bool,
    /// Whether some branch became a jump.
    folded_branch: bool,
}

enum Added {
    Computed(InstKind),
    Known(Value),
    /// A pair's orderings were narrowed: what they were before.
    Compared(Pair, Option<Orderings>),
}

/// Two compared values of one type (0 ints, 1 floats, 2 bools), in a
/// fixed order, constants as their values: the same constant is a
/// different value in blocks that do not dominate each other.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Pair(u8, Operand, Operand);

#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Operand {
    Value(Value),
    Int(i64),
    /// A float's bits.
    Float(u64),
    Bool(bool),
}

impl Pair {
    /// The pair a comparison `op` of `a` and `b` compares, with its
    /// comparison, and whether the pair holds them swapped.
    fn of(f: &Function, op: BinaryOp, a: Value, b: Value) -> Option<(Pair, Cmp, bool)> {
        let (ty, cmp) = match op {
            BinaryOp::ICmp(c) => (0, c),
            BinaryOp::FCmp(c) => (1, c),
            BinaryOp::BCmp(c) => (2, c),
            _ => return None,
        };
        let operand = |v: Value| match f.constant(v) {
            Some(Const::Int(n)) => Operand::Int(n),
            Some(Const::Float(x)) => Operand::Float(x.to_bits()),
            Some(Const::Bool(b)) => Operand::Bool(b),
            None => Operand::Value(v),
        };
        let (a, b) = (operand(a), operand(b));
        Some(if a <= b {
            (Pair(ty, a, b), cmp, false)
        } else {
            (Pair(ty, b, a), cmp, true)
        })
    }
}

impl Numbering {
    fn forget_from(&mut self, mark: usize) {
        for added in self.added.drain(mark..) {
            match added {
                Added::Computed(kind) => {
                    self.table.remove(&kind);
                }
                Added::Known(v) => {
                    self.known[v] = None;
                    self.known_count -= 1;
                }
                Added::Compared(pair, None) => {
                    self.known_comparisons.remove(&pair);
                }
                Added::Compared(pair, Some(before)) => {
                    self.known_comparisons.insert(pair, before);
                }
            }
        }
    }

    /// Records that `cond` is `holds` in the current block and the blocks
    /// it dominates, with what follows from it.
    fn assume(&mut self, f: &Function, dom: &DomTree, cond: Value, holds: bool) {
        if self.known[cond].is_some() {
            return;
        }
        self.known[cond] = Some(holds);
        self.known_count += 1;
        self.added.push(Added::Known(cond));
        if let Some(j) = f.phi_block(cond) {
            return self.assume_phi(f, dom, cond, j, holds);
        }
        let Some(kind) = f.def_kind(cond).cloned() else {
            return;
        };
        match kind {
            InstKind::Binary(BinaryOp::And, x, y) if holds => {
                self.assume(f, dom, f.resolve(x), true);
                self.assume(f, dom, f.resolve(y), true);
            }
            InstKind::Binary(BinaryOp::Or, x, y) if !holds => {
                self.assume(f, dom, f.resolve(x), false);
                self.assume(f, dom, f.resolve(y), false);
            }
            InstKind::Unary(UnaryOp::Not, x) => self.assume(f, dom, f.resolve(x), !holds),
            InstKind::Binary(op, a, b) if op.is_comparison() => {
                self.know_comparisons(f, op, f.resolve(a), f.resolve(b), holds)
            }
            _ => {}
        }
    }

    /// Narrows how `a` and `b` compare to the orderings in which `a op b`
    /// comes out `holds`.
    fn know_comparisons(&mut self, f: &Function, op: BinaryOp, a: Value, b: Value, holds: bool) {
        let Some((pair, cmp, swapped)) = Pair::of(f, op, a, b) else {
            return;
        };
        let floats = matches!(op, BinaryOp::FCmp(_));
        let mut orderings = Orderings::where_comes_out(cmp, holds, floats);
        if swapped {
            orderings = orderings.swapped();
        }
        let before = match self.known_comparisons.entry(pair) {
            Entry::Vacant(slot) => {
                slot.insert(orderings);
                None
            }
            Entry::Occupied(mut slot) => {
                let before = *slot.get();
                let narrowed = Orderings(before.0 & orderings.0);
                if narrowed == before {
                    return;
                }
                slot.insert(narrowed);
                Some(before)
            }
        };
        self.added.push(Added::Compared(pair, before));
    }

    /// What comparison `kind` comes out as, if the branches on the way
    /// decided it.
    fn decided_comparison(&self, f: &Function, kind: &InstKind) -> Option<bool> {
        if self.known_comparisons.is_empty() {
            return None;
        }
        let InstKind::Binary(op, a, b) = *kind else {
            return None;
        };
        let (pair, cmp, swapped) = Pair::of(f, op, a, b)?;
        let orderings = *self.known_comparisons.get(&pair)?;
        let orderings = if swapped {
            orderings.swapped()
        } else {
            orderings
        };
        orderings.decide(cmp)
    }

    /// A bool phi of block `j` known `holds`: where only one edge into
    /// `j` can bring that value (a short circuit: `a || b` is false only
    /// when coming from `b`'s block, which `a` false entered), its
    /// argument is `holds` too, and so is what decided the edge's block.
    fn assume_phi(&mut self, f: &Function, dom: &DomTree, phi: Value, j: Block, holds: bool) {
        let mut feasible = (f.blocks[j].preds.iter().copied())
            .zip(f.phi_args(phi).iter().map(|&a| f.resolve(a)))
            .filter(|&(p, a)| brings(f, p, j, a) != Some(!holds));
        let (Some((p, a)), None) = (feasible.next(), feasible.next()) else {
            return;
        };
        // Along a back edge, `a` was computed in an iteration before, and
        // the blocks the current one dominates may compute it anew: only
        // a forward edge (RPO) tells what holds there.
        if dom.rpo_number(p) >= dom.rpo_number(j) {
            return;
        }
        self.assume(f, dom, a, holds);
        if let Some((cond, entered)) = decided_on_entry(f, p) {
            self.assume(f, dom, cond, entered);
        }
    }

    /// The known bool operands of `kind` replaced by constants.
    fn with_known_operands(
        &mut self,
        f: &mut Function,
        kept: &mut SmallVec<[Inst; 4]>,
        mut kind: InstKind,
    ) -> InstKind {
        let mut known: SmallVec<[(Value, bool); 2]> = SmallVec::new();
        kind.for_each_operand(|v| {
            if let Some(b) = self.known[v] {
                known.push((v, b));
            }
        });
        for (v, b) in known {
            let c = self.constant(f, kept, Const::Bool(b));
            kind.map_operands(|x| if x == v { c } else { x });
        }
        kind
    }

    /// At the end of block `b`: a branch on a known condition becomes a
    /// jump, and known values passed to successors' phis become constants.
    fn use_known_at_end(&mut self, f: &mut Function, kept: &mut SmallVec<[Inst; 4]>, b: Block) {
        if let Some(Terminator::Branch {
            cond,
            then_block,
            else_block,
        }) = f.blocks[b].term
        {
            let cond = through_single_value_phi(f, f.resolve(cond));
            let decided = match f.constant(cond) {
                Some(Const::Bool(holds)) => Some(holds),
                _ => self.known[cond],
            };
            if let (Some(holds), true) = (decided, then_block != else_block) {
                let (taken, dropped) = if holds {
                    (then_block, else_block)
                } else {
                    (else_block, then_block)
                };
                f.blocks[b].term = Some(Terminator::Jump(taken));
                drop_edge(f, b, dropped);
                self.folded_branch = true;
            }
        }
        for s in f.successors(b) {
            let Some(k) = f.blocks[s].preds.iter().position(|&p| p == b) else {
                continue;
            };
            for i in 0..f.blocks[s].phis.len() {
                let phi = f.blocks[s].phis[i];
                let arg = f.resolve(f.phi_args(phi)[k]);
                if let Some(holds) = self.known[arg] {
                    let c = self.constant(f, kept, Const::Bool(holds));
                    f.phi_args_mut(phi).expect("a phi")[k] = c;
                }
            }
        }
    }

    /// Numbers `inst` and pushes it onto `kept` (the block's instructions
    /// so far), unless it computes what a dominating instruction does or
    /// is one of its own operands, when its result becomes an alias.
    fn number(&mut self, f: &mut Function, kept: &mut SmallVec<[Inst; 4]>, inst: Inst) {
        let data = &f.insts[inst];
        let (true, Some(result)) = (data.kind.is_pure(), data.result) else {
            kept.push(inst);
            return;
        };
        let mut kind = data.kind.clone();
        kind.map_operands(|v| f.resolve(v));
        if self.known_count > 0 {
            kind = self.with_known_operands(f, kept, kind);
        }
        let kind = match self.simplified(f, kept, kind) {
            Ok(kind) => kind,
            Err(same) => return self.alias(f, result, same),
        };
        if let Some(holds) = self.decided_comparison(f, &kind) {
            let c = self.constant(f, kept, Const::Bool(holds));
            return self.alias(f, result, c);
        }
        match self.table.get(&kind) {
            Some(&earlier) => self.alias(f, result, earlier),
            None => {
                f.insts[inst].kind = kind.clone();
                self.remember(kind, result);
                kept.push(inst);
            }
        }
    }

    /// Makes `v` the value of `kind` for the blocks the current one
    /// dominates.
    fn remember(&mut self, kind: InstKind, v: Value) {
        self.table.insert(kind.clone(), v);
        self.added.push(Added::Computed(kind));
    }

    fn alias(&mut self, f: &mut Function, v: Value, by: Value) {
        f.values[v].def = ValueDef::Alias(by);
        self.replaced = true;
    }

    /// `kind` folded and simplified as SSA construction does (Braun et al.
    /// §3.1, `ssa::peephole`), now that earlier passes may have made its
    /// operands constant (an unrolled loop's counter) or made it an
    /// identity (`x + 0`): the instruction to number, canonical, or
    /// `Err(v)` when it computes `v`.
    fn simplified(
        &mut self,
        f: &mut Function,
        kept: &mut SmallVec<[Inst; 4]>,
        kind: InstKind,
    ) -> Result<InstKind, Value> {
        let simplified = peephole::simplify(f, &kind);
        if let Simplified::Unchanged = simplified {
            return Ok(peephole::canonicalize(kind));
        }
        // What it names may have become an alias earlier in this walk.
        let mut kind = simplified
            .apply(kind, |c| self.constant(f, kept, c))
            .map_err(|same| f.resolve(same))?;
        kind.map_operands(|v| f.resolve(v));
        Ok(peephole::canonicalize(kind))
    }

    /// The constant `c`: a dominating one, or a new one pushed onto `kept`.
    fn constant(&mut self, f: &mut Function, kept: &mut SmallVec<[Inst; 4]>, c: Const) -> Value {
        let kind = InstKind::constant(c);
        if let Some(&v) = self.table.get(&kind) {
            return v;
        }
        let (inst, v) = f.new_inst(kind.clone(), c.ty());
        kept.push(inst);
        self.remember(kind, v);
        v
    }
}

/// Takes the edge from `from` to `to` out of `to`'s predecessors, with
/// its arguments to `to`'s phis.
fn drop_edge(f: &mut Function, from: Block, to: Block) {
    let k = (f.blocks[to].preds.iter())
        .position(|&p| p == from)
        .expect("an edge");
    f.blocks[to].preds.remove(k);
    for i in 0..f.blocks[to].phis.len() {
        let phi = f.blocks[to].phis[i];
        f.phi_args_mut(phi).expect("a phi").remove(k);
    }
}
