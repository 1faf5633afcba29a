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
use rustc_hash::FxHashSet;

/// Folds constant arithmetic, drops what is left unused, then merges
/// each block into its predecessor where that is its only one and jumps
/// straight to it.
pub fn tidy(f: &mut Function) {
    fold_constants(f);
    remove_unused(f);
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

/// Removes the instructions whose results nothing uses and that can go
/// (`InstKind::is_removable_if_unused`), until none is left: the
/// operands of folded arithmetic, mostly.
pub fn remove_unused(f: &mut Function) {
    loop {
        let mut used: FxHashSet<Value> = FxHashSet::default();
        f.for_each_use(|_, v| {
            used.insert(v);
        });
        let mut removed = false;
        for bi in 0..f.layout.len() {
            let b = f.layout[bi];
            let (insts, values) = (&f.insts, &f.blocks[b]);
            let keep: SmallVec<[Inst; 4]> = (values.insts.iter().copied())
                .filter(|&i| {
                    let data = &insts[i];
                    let unused = data.result.is_none_or(|r| !used.contains(&r));
                    !(unused && data.kind.is_removable_if_unused())
                })
                .collect();
            removed |= keep.len() != f.blocks[b].insts.len();
            f.blocks[b].insts = keep;
        }
        if !removed {
            return;
        }
    }
}

/// Replaces every pure operation on constants by its value, until none
/// is left (an operation that would fail at run time stays).
pub fn fold_constants(f: &mut Function) {
    let mut changed = true;
    while changed {
        changed = false;
        for bi in 0..f.layout.len() {
            let b = f.layout[bi];
            for ii in 0..f.blocks[b].insts.len() {
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
                    f.insts[inst].kind = super::constants::constant_inst(c);
                    changed = true;
                }
            }
        }
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
                for p in f.blocks[succ].preds.iter_mut().filter(|p| **p == s) {
                    *p = b;
                }
            }
            removed.insert(s);
        }
    }
    if !removed.is_empty() {
        f.layout.retain(|b| !removed.contains(b));
        f.resolve_aliases();
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
