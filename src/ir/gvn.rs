//! Dominator-based value numbering (`-O2`): a pure instruction computing
//! what a dominating one already computed (same operation, same operands)
//! takes its value. SSA construction's hash-consing (Braun et al. §3.1)
//! works within a block; this pass reaches across blocks, so that the
//! passes after it see one value where the source wrote the same
//! expression twice (`a[j - 1]` in a test and again in its arm is one
//! element for `ir::reuse`). A division repeated where the first one
//! dominates it cannot fail where the first did not.

use super::dom::DomTree;
use super::*;
use rustc_hash::FxHashMap;

/// Numbers the values of every function of `m`.
pub fn number_values(m: &mut Module) {
    for f in m.functions.iter_mut().chain(std::iter::once(&mut m.main)) {
        number_in(f);
    }
}

fn number_in(f: &mut Function) {
    let dom = DomTree::compute(f);
    // Each computation, with the values that hold it and their blocks.
    let mut seen: FxHashMap<InstKind, SmallVec<[(Value, Block); 2]>> = FxHashMap::default();
    let mut replaced = false;
    for &b in &dom.rpo {
        let mut insts = std::mem::take(&mut f.blocks[b].insts);
        insts.retain(|&mut inst| {
            let data = &f.insts[inst];
            let (true, Some(result)) = (data.kind.is_pure(), data.result) else {
                return true;
            };
            let mut kind = data.kind.clone();
            kind.map_operands(|v| f.resolve(v));
            let holders = seen.entry(kind).or_default();
            match holders.iter().find(|&&(_, at)| dom.dominates(at, b)) {
                Some(&(earlier, _)) => {
                    f.values[result].def = ValueDef::Alias(earlier);
                    replaced = true;
                    false
                }
                None => {
                    holders.push((result, b));
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
