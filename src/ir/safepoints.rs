//! Which functions can be in the middle of a collection.
//!
//! The collector (`jitrun_runtime::gc`) runs only inside array
//! allocations, and finds the arrays of compiled frames in the stack maps
//! of their calls. A function that neither allocates nor calls a function
//! that may is never on the stack during a collection: its arrays need no
//! stack slots, and its loops keep them in registers.

use super::*;

/// By function (`module.functions` in order, then `main`): whether a
/// collection can run while it is active. `calls_may_change`: calls go
/// through slots that later code may point elsewhere (REPL entries), so
/// every call may collect.
pub fn may_collect(module: &Module, calls_may_change: bool) -> Vec<bool> {
    let all: Vec<&Function> = module.functions.iter().chain([&module.main]).collect();
    let mut collects: Vec<bool> = all.iter().map(|f| allocates(f)).collect();
    let calls: Vec<Vec<FuncRef>> = all.iter().map(|f| callees(f)).collect();
    if calls_may_change {
        for (c, callees) in collects.iter_mut().zip(&calls) {
            *c |= !callees.is_empty();
        }
        return collects;
    }
    // A fixpoint over the call graph: at most one round per function.
    let mut changed = true;
    while changed {
        changed = false;
        for i in 0..all.len() {
            if !collects[i] && calls[i].iter().any(|&g| collects[g as usize]) {
                collects[i] = true;
                changed = true;
            }
        }
    }
    collects
}

fn insts(f: &Function) -> impl Iterator<Item = &InstKind> {
    f.layout
        .iter()
        .flat_map(|&b| &f.blocks[b].insts)
        .map(|&i| &f.insts[i].kind)
}

fn allocates(f: &Function) -> bool {
    insts(f).any(|k| matches!(k, InstKind::NewArray { .. } | InstKind::ArrayLit(_)))
}

fn callees(f: &Function) -> Vec<FuncRef> {
    insts(f)
        .filter_map(|k| match k {
            InstKind::Call(g, _) => Some(*g),
            _ => None,
        })
        .collect()
}
