//! One load per global in functions that cannot change it (`-O1` and up).
//!
//! A function that calls no Toy function and never stores to global `g`
//! reads the same value from `g` wherever it loads it, so its loads of `g`
//! become one, at the top of the entry block. Loops read a register instead
//! of memory, and — the point — an array held in a global is one value: in
//! `for i in 0..len(g) { g[i] }` the array indexed is the array whose length
//! bounds the loop, which `ir::bounds` can then see (a global array of
//! records walked by every function).
//! Runtime calls (printing, allocation) never write globals.

use super::*;

/// Merges the loads of every global `f` cannot change into one.
pub fn load_once(f: &mut Function) {
    let mut loads: Vec<(GlobalRef, Block, Inst)> = Vec::new();
    let mut stored: Vec<GlobalRef> = Vec::new();
    for &b in &f.layout {
        for &i in &f.blocks[b].insts {
            match f.insts[i].kind {
                InstKind::Call(..) => return,
                InstKind::StoreGlobal(g, _) => stored.push(g),
                InstKind::LoadGlobal(g) => loads.push((g, b, i)),
                _ => {}
            }
        }
    }
    loads.retain(|(g, ..)| !stored.contains(g));
    // Stable: the first load of each global in layout order is kept.
    loads.sort_by_key(|&(g, ..)| g);
    let entry = f.entry();
    let mut hoisted = 0;
    for group in loads.chunk_by(|a, b| a.0 == b.0) {
        if group.len() < 2 {
            continue;
        }
        let (_, first_block, first) = group[0];
        let kept = f.insts[first].result.expect("a load has a result");
        f.blocks[first_block].insts.retain(|i| *i != first);
        f.blocks[entry].insts.insert(hoisted, first);
        hoisted += 1;
        for &(_, block, load) in &group[1..] {
            f.blocks[block].insts.retain(|i| *i != load);
            let v = f.insts[load].result.expect("a load has a result");
            f.values[v].def = ValueDef::Alias(kept);
        }
    }
    if hoisted > 0 {
        f.resolve_aliases();
    }
}
