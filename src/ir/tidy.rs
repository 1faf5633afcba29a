//! Cleanups for passes that copy code into a function (`ir::inliner`,
//! `ir::arguments`): a copy's arguments may be constants, which its
//! arithmetic then computes with (folded here as SSA construction folds,
//! Braun et al. §3.1), and a copy is spliced in between the two halves of
//! the call's block, which leaves a chain of blocks each jumping to the
//! next (merged here). A straight-line function that inlined a helper is
//! then one block again — a leaf the translator can expand at its calls —
//! and a run of accesses across the copy can be checked as one group.

use super::semantics;
use super::*;
use crate::entity::SecondaryMap;
use rustc_hash::FxHashSet;

/// Folds constant arithmetic, drops what is left unused, then merges
/// each block into its predecessor where that is its only one and jumps
/// straight to it.
pub fn tidy(f: &mut Function) {
    fold_constants(f);
    remove_dead_pure_insts(f);
    merge_straight_blocks(f);
    drop_unused_inline_sites(f);
}

/// Keeps only the inline sites that some instruction's location names
/// (or that such a site was expanded in), renumbered in order. A copy
/// whose code folded away leaves its sites behind otherwise, and a chain
/// of calls inlined into each other would carry every site below it:
/// quadratic in the chain's length.
pub fn drop_unused_inline_sites(f: &mut Function) {
    if f.inline_sites.is_empty() {
        return;
    }
    let mut used = vec![false; f.inline_sites.len()];
    for &b in &f.layout {
        for &i in &f.blocks[b].insts {
            let mut site = f.insts[i].loc.inlined;
            // Parents come before their children: stop at one already
            // marked, whose parents are.
            while let Some(k) = site.checked_sub(1) {
                if std::mem::replace(&mut used[k as usize], true) {
                    break;
                }
                site = f.inline_sites[k as usize].call.inlined;
            }
        }
    }
    if used.iter().all(|&u| u) {
        return;
    }
    // New number (plus one) of each kept site; 0 for dropped ones.
    let mut renumbered = vec![0u32; used.len()];
    let mut kept = Vec::new();
    for (k, site) in std::mem::take(&mut f.inline_sites).into_iter().enumerate() {
        if used[k] {
            kept.push(site);
            renumbered[k] = kept.len() as u32;
        }
    }
    let renumber = |inlined: u32| inlined.checked_sub(1).map_or(0, |k| renumbered[k as usize]);
    for site in &mut kept {
        site.call.inlined = renumber(site.call.inlined);
    }
    f.inline_sites = kept;
    for &b in &f.layout {
        for &i in &f.blocks[b].insts {
            let loc = &mut f.insts[i].loc;
            loc.inlined = renumber(loc.inlined);
        }
    }
}

/// Replaces every pure operation on constants by its value, until none
/// is left (an operation that would fail at run time stays), and combines
/// the constants of an offset of an offset (`(c + n) - 1` once `n` is 256:
/// `c + 255`), as SSA construction does (`Function::combined_offset`), and
/// turns a float division by a power of two into a multiplication.
pub fn fold_constants(f: &mut Function) {
    let mut changed = true;
    while changed {
        changed = false;
        for bi in 0..f.layout.len() {
            let b = f.layout[bi];
            let mut ii = 0;
            while ii < f.blocks[b].insts.len() {
                let inst = f.blocks[b].insts[ii];
                let folded = match f.insts[inst].kind {
                    InstKind::Binary(op, x, y) => f
                        .constant(x)
                        .zip(f.constant(y))
                        .and_then(|(x, y)| semantics::eval_binary(op, x, y)),
                    InstKind::Unary(op, x) => {
                        f.constant(x).and_then(|x| semantics::eval_unary(op, x))
                    }
                    _ => None,
                };
                if let Some(c) = folded {
                    f.insts[inst].kind = InstKind::constant(c);
                    changed = true;
                } else if let Some((x, r)) = division_by_power_of_two(f, inst) {
                    // As SSA construction does (`ssa::peephole`).
                    let r = f.insert_inst(b, ii, InstKind::FConst(r.to_bits()), Ty::Float);
                    f.insts[inst].kind = InstKind::Binary(BinaryOp::FMul, x, r);
                    ii += 1;
                } else if let Some((x, k)) = f.combined_offset(&f.insts[inst].kind) {
                    // (An offset of zero would leave `x + 0`: left as it is.)
                    if k != 0 {
                        let k = f.insert_inst(b, ii, InstKind::IConst(k), Ty::Int);
                        f.insts[inst].kind = InstKind::Binary(BinaryOp::IAdd, x, k);
                        ii += 1;
                    }
                }
                ii += 1;
            }
        }
    }
}

/// `x / d` for a constant `d` whose exact reciprocal `r` gives the same
/// results as a multiplication: `(x, r)`.
fn division_by_power_of_two(f: &Function, inst: Inst) -> Option<(Value, f64)> {
    let InstKind::Binary(BinaryOp::FDiv, x, d) = f.insts[inst].kind else {
        return None;
    };
    match f.constant(d)? {
        semantics::Const::Float(d) => semantics::exact_reciprocal(d).map(|r| (x, r)),
        _ => None,
    }
}

/// Drops pure instructions and reads of globals whose results nobody
/// uses (left behind by folding and simplification: SSA construction's,
/// and [`tidy`]'s), and then those that only they used — but never one
/// that can fail at run time, such as a division.
pub fn remove_dead_pure_insts(f: &mut Function) {
    let mut uses: SecondaryMap<Value, u32> = SecondaryMap::new();
    for &b in &f.layout {
        let data = &f.blocks[b];
        for &phi in &data.phis {
            for &a in f.phi_args(phi) {
                uses[a] += 1;
            }
        }
        for &inst in &data.insts {
            f.insts[inst].kind.for_each_operand(|v| uses[v] += 1);
        }
        if let Some(v) = data.term.as_ref().and_then(|t| t.operand()) {
            uses[v] += 1;
        }
    }
    let is_dead = |f: &Function, uses: &SecondaryMap<Value, u32>, inst: Inst| {
        let data = &f.insts[inst];
        // A read of a global, unused, changes nothing either (it is not
        // pure: a store may change what it reads).
        let removable =
            data.kind.is_removable_if_unused() || matches!(data.kind, InstKind::LoadGlobal(_));
        removable && data.result.is_some_and(|r| uses[r] == 0)
    };
    let mut work: Vec<Inst> = f
        .layout
        .iter()
        .flat_map(|&b| f.blocks[b].insts.iter().copied())
        .filter(|&i| is_dead(f, &uses, i))
        .collect();
    let mut dead: SecondaryMap<Inst, bool> = SecondaryMap::new();
    while let Some(inst) = work.pop() {
        if dead[inst] {
            continue;
        }
        dead[inst] = true;
        for v in f.insts[inst].kind.operands() {
            uses[v] -= 1;
            if let ValueDef::Inst(def) = f.values[v].def {
                if uses[v] == 0 && is_dead(f, &uses, def) {
                    work.push(def);
                }
            }
        }
    }
    for &b in &f.layout {
        f.blocks[b].insts.retain(|i| !dead[*i]);
    }
}

/// Merges block `s` into `b` wherever `b` ends with a jump to `s` and is
/// its only predecessor (so `s`'s phis have one argument each, which
/// replaces them); the merged block ends as `s` did.
pub fn merge_straight_blocks(f: &mut Function) {
    let mut removed: FxHashSet<Block> = FxHashSet::default();
    for bi in 0..f.layout.len() {
        let b = f.layout[bi];
        if removed.contains(&b) {
            continue;
        }
        // `b` may then jump straight to another block it alone enters.
        while let Some(Terminator::Jump(s)) = f.blocks[b].term {
            if s == b || s == f.entry() || f.blocks[s].preds[..] != [b] {
                break;
            }
            for phi in std::mem::take(&mut f.blocks[s].phis) {
                let arg = f.phi_args(phi)[0];
                f.remove_phi(phi, arg);
            }
            let insts = std::mem::take(&mut f.blocks[s].insts);
            f.blocks[b].insts.extend(insts);
            f.blocks[b].term = f.blocks[s].term.take();
            f.blocks[s].preds.clear();
            for succ in f.successors(b) {
                f.replace_pred(succ, s, b);
            }
            removed.insert(s);
        }
    }
    if !removed.is_empty() {
        f.layout.retain(|b| !removed.contains(b));
        f.resolve_aliases();
    }
}

/// Takes the blocks no path from the entry reaches out of the layout, and
/// out of the predecessors (and their arguments out of the phis) of the
/// blocks they jumped to.
pub fn remove_unreachable_blocks(f: &mut Function) {
    let reached_blocks = super::dom::reverse_post_order(f);
    if reached_blocks.len() == f.layout.len() {
        return;
    }
    let mut reached: SecondaryMap<Block, bool> = SecondaryMap::with_capacity(f.blocks.len(), false);
    for &b in &reached_blocks {
        reached[b] = true;
    }
    f.layout.retain(|&b| reached[b]);
    for &b in &reached_blocks {
        if f.blocks[b].preds.iter().all(|&p| reached[p]) {
            continue;
        }
        let keep: Vec<bool> = f.blocks[b].preds.iter().map(|&p| reached[p]).collect();
        f.blocks[b].preds.retain(|p| reached[*p]);
        for k in 0..f.blocks[b].phis.len() {
            let phi = f.blocks[b].phis[k];
            if let Some(args) = f.phi_args_mut(phi) {
                let mut kept = keep.iter();
                args.retain(|_| *kept.next().expect("an argument per predecessor"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(callee: &str, line: u32, inlined: u32) -> InlineSite {
        InlineSite {
            callee: callee.into(),
            call: SrcLoc {
                line,
                col: 1,
                inlined,
            },
        }
    }

    /// Sites no laid-out instruction names, directly or as the site a
    /// named one was expanded in, go; the rest keep their order and
    /// parents under their new numbers.
    #[test]
    fn unused_inline_sites_are_dropped_and_the_rest_renumbered() {
        let mut f = Function::new("f", None);
        let b = f.blocks.push(BlockData::default());
        f.layout.push(b);
        f.blocks[b].term = Some(Terminator::Return(None));
        // 1: g at 10, 2: h at 20 (in g's copy), 3: k at 30, 4: m at 40
        // (in k's copy), 5: n at 50.
        f.inline_sites = vec![
            site("g", 10, 0),
            site("h", 20, 1),
            site("k", 30, 0),
            site("m", 40, 3),
            site("n", 50, 0),
        ];
        let in_h = f.push_inst(b, InstKind::IConst(1), Ty::Int);
        let in_n = f.push_inst(b, InstKind::IConst(2), Ty::Int);
        let own = f.push_inst(b, InstKind::IConst(3), Ty::Int);
        let inst = |f: &Function, v: Value| match f.values[v].def {
            ValueDef::Inst(i) => i,
            _ => unreachable!(),
        };
        let (h, n, o) = (inst(&f, in_h), inst(&f, in_n), inst(&f, own));
        f.insts[h].loc.inlined = 2;
        f.insts[n].loc.inlined = 5;
        drop_unused_inline_sites(&mut f);
        let kept: Vec<(&str, u32, u32)> = (f.inline_sites.iter())
            .map(|s| (s.callee.as_str(), s.call.line, s.call.inlined))
            .collect();
        assert_eq!(kept, [("g", 10, 0), ("h", 20, 1), ("n", 50, 0)]);
        assert_eq!(f.insts[h].loc.inlined, 2);
        assert_eq!(f.insts[n].loc.inlined, 3);
        assert_eq!(f.insts[o].loc.inlined, 0);
        let mut frames = Vec::new();
        f.frames_at(f.insts[n].loc, &mut frames);
        let names: Vec<&str> = frames.iter().map(|(name, _)| *name).collect();
        assert_eq!(names, ["n", "f"]);
    }
}
