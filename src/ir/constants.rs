//! Globals that are constants (`-O2`, whole programs): Toy has no
//! `const`, so a program's fixed sizes and codes are top-level `let`s —
//! globals, loaded from memory wherever a function reads them. A global
//! is a constant when its one store in the whole program is of a
//! constant, in the top-level code's first block, before anything there
//! calls a function or reads the global: every read anywhere runs after
//! that store and sees its value. Its loads become that constant, which
//! Cranelift then folds into comparisons and addresses (the global stays,
//! stored once and never read).
//!
//! REPL entries are left alone: a later entry may assign the global.

use super::semantics::Const;
use super::*;
use rustc_hash::FxHashMap;

/// Replaces the loads of every constant global of `m` by its value.
pub fn fold_constant_globals(m: &mut Module) {
    let constants = constant_globals(m);
    if constants.is_empty() {
        return;
    }
    for f in m.all_functions_mut() {
        for &b in &f.layout {
            for &i in &f.blocks[b].insts {
                let InstKind::LoadGlobal(g) = f.insts[i].kind else {
                    continue;
                };
                if let Some(&c) = constants.get(&g) {
                    f.insts[i].kind = InstKind::constant(c);
                }
            }
        }
    }
}

/// The globals stored once, with a constant, early in the top-level
/// code (see the module's comment), and their values.
fn constant_globals(m: &Module) -> FxHashMap<GlobalRef, Const> {
    let mut stores: FxHashMap<GlobalRef, usize> = FxHashMap::default();
    for f in m.all_functions() {
        for &b in &f.layout {
            for &i in &f.blocks[b].insts {
                if let InstKind::StoreGlobal(g, _) = f.insts[i].kind {
                    *stores.entry(g).or_default() += 1;
                }
            }
        }
    }
    let main = &m.main;
    let mut early = FxHashMap::default();
    let mut read: Vec<GlobalRef> = Vec::new();
    for &i in &main.blocks[main.entry()].insts {
        match main.insts[i].kind {
            InstKind::Call(..) => break,
            InstKind::LoadGlobal(g) => read.push(g),
            InstKind::StoreGlobal(g, v) if stores[&g] == 1 && !read.contains(&g) => {
                if let Some(c) = main.constant(v) {
                    early.insert(g, c);
                }
            }
            _ => {}
        }
    }
    early
}
