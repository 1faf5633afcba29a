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

use super::semantics::Const;
use super::*;
use crate::ssa::peephole::{self, Simplified};
use rustc_hash::FxHashMap;

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
    let mut numbering = Numbering::default();
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
        let insts = std::mem::take(&mut f.blocks[b].insts);
        let mut kept = SmallVec::with_capacity(insts.len());
        for inst in insts {
            numbering.number(f, &mut kept, inst);
        }
        f.blocks[b].insts = kept;
    }
    if numbering.replaced {
        f.resolve_aliases();
    }
}

/// The pure computations of the blocks dominating the one being numbered.
#[derive(Default)]
struct Numbering {
    table: FxHashMap<InstKind, Value>,
    /// The keys of `table`, in the order they were added.
    added: Vec<InstKind>,
    /// Whether some value became an alias.
    replaced: bool,
}

impl Numbering {
    fn forget_from(&mut self, mark: usize) {
        for kind in self.added.drain(mark..) {
            self.table.remove(&kind);
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
        let kind = match self.simplified(f, kept, kind) {
            Ok(kind) => kind,
            Err(same) => return self.alias(f, result, same),
        };
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
        self.added.push(kind);
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
