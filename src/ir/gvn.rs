//! Dominator-based value numbering (`-O2`): a pure instruction computing
//! what a dominating one already computed (same operation, same operands)
//! takes its value. SSA construction's hash-consing (Braun et al. §3.1)
//! works within a block; this pass reaches across blocks, so that the
//! passes after it see one value where the source wrote the same
//! expression twice (`a[j - 1]` in a test and again in its arm is one
//! element for `ir::reuse`). A division repeated where the first one
//! dominates it cannot fail where the first did not.

use super::*;
use rustc_hash::FxHashMap;

/// Numbers the values of every function of `m`.
pub fn number_values(m: &mut Module) {
    for f in m.all_functions_mut() {
        number_in(f);
    }
}

/// A walk of the dominator tree with a scoped table (Briggs, Cooper and
/// Simpson's dominator-based value numbering): a block sees the
/// computations of the blocks that dominate it, and only those, so each
/// lookup is one hash probe however many sibling blocks compute the same.
fn number_in(f: &mut Function) {
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
    let mut table: FxHashMap<InstKind, Value> = FxHashMap::default();
    let mut added: Vec<InstKind> = Vec::new();
    let mut replaced = false;
    let mut steps = vec![Step::Enter(f.entry())];
    while let Some(step) = steps.pop() {
        let b = match step {
            Step::Leave(mark) => {
                for kind in added.drain(mark..) {
                    table.remove(&kind);
                }
                continue;
            }
            Step::Enter(b) => b,
        };
        steps.push(Step::Leave(added.len()));
        let kids = children.get(&b).into_iter().flatten().rev();
        steps.extend(kids.map(|&c| Step::Enter(c)));
        let mut insts = std::mem::take(&mut f.blocks[b].insts);
        insts.retain(|&mut inst| {
            let data = &f.insts[inst];
            let (true, Some(result)) = (data.kind.is_pure(), data.result) else {
                return true;
            };
            let mut kind = data.kind.clone();
            kind.map_operands(|v| f.resolve(v));
            match table.get(&kind) {
                Some(&earlier) => {
                    f.values[result].def = ValueDef::Alias(earlier);
                    replaced = true;
                    false
                }
                None => {
                    table.insert(kind.clone(), result);
                    added.push(kind);
                    true
                }
            }
        });
        f.blocks[b].insts = insts;
    }
    if replaced {
        f.resolve_aliases();
    }
}
