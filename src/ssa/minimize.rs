//! Algorithm 5 of Braun et al. (§3.2): removal of redundant SCCs of phis.
//!
//! Algorithm 3 removes a phi once it references only itself and one other
//! value. A *set* of phis that reference only each other and one outside
//! value is just as redundant but invisible to it; such sets arise from
//! irreducible control flow and from copy propagation (the paper's example
//! after Algorithm 5). By Lemma 1 every redundant set contains a redundant
//! strongly connected component, so the pass computes the SCCs of the phi
//! data-flow graph (Tarjan, iteratively) and processes them in topological
//! order, operands first:
//!
//! * an SCC with exactly one operand from outside is replaced by it;
//! * an SCC with more is necessary at its border, but its *inner* phis
//!   (those with all operands inside) may hide smaller redundant SCCs:
//!   the procedure repeats on them — at once, before the next SCC.
//!
//! The order matters. §3.2: "We process the SCCs in topological order to
//! ensure that used values outside of the current SCC are already
//! contracted", and `processSCC` calls `removeRedundantPhis(inner)` in
//! place. An SCC after this one may use inner phis that the repetition
//! replaces: a phi `phi(a, b)` whose operands `a`, `b` are inner phis of
//! one SCC, replaced by one value `v`, is redundant only once they are.
//! So the recursion is kept as the paper orders it, on an explicit stack
//! of levels (each the SCCs of one set, in topological order) instead of
//! the native stack.
//!
//! Unlike the paper's `if len(scc) = 1: return` ("we already handled
//! trivial phi functions"), a single phi is processed like any SCC: a
//! contraction earlier in this pass can make it trivial (`phi(v, v)` in the
//! example above), and §3.2 defines a single redundant phi as exactly a
//! trivial one ("when P contains only a single phi function, this
//! definition degenerates to the definition of a trivial phi function").

use crate::entity::SecondaryMap;
use crate::ir::{Function, Value};

/// Runs Algorithm 5 on a finished function; returns how many phis it removed.
pub fn remove_redundant_phi_sccs(f: &mut Function) -> usize {
    let all: Vec<Value> = f
        .layout
        .iter()
        .flat_map(|&b| f.blocks[b].phis.iter().copied())
        .collect();
    let mut removed = 0;
    // `removeRedundantPhis(phis)` is one level: the SCCs of `phis`, in
    // topological order, still to process. `removeRedundantPhis(inner)`
    // pushes a level and finishes it before its caller's next SCC.
    let mut levels = vec![sccs(f, &all).into_iter()];
    while let Some(level) = levels.last_mut() {
        let Some(scc) = level.next() else {
            levels.pop();
            continue;
        };
        match process_scc(f, &scc) {
            Outcome::Replaced(n) => removed += n,
            Outcome::Recurse(inner) => {
                let inner_sccs = sccs(f, &inner);
                levels.push(inner_sccs.into_iter());
            }
            Outcome::Kept => {}
        }
    }
    if removed > 0 {
        f.resolve_aliases();
    }
    removed
}

fn is_live_phi(f: &Function, v: Value) -> bool {
    f.is_phi(v)
}

/// What `processSCC` did with an SCC.
enum Outcome {
    /// The SCC was redundant: its phis (this many) are gone.
    Replaced(usize),
    /// The SCC is necessary; its inner phis are to be processed next.
    Recurse(Vec<Value>),
    /// Nothing to do (necessary without inner phis, or unreachable).
    Kept,
}

/// `processSCC`, except that the recursion on `inner` is left to the
/// caller.
fn process_scc(f: &mut Function, scc: &[Value]) -> Outcome {
    let in_scc = |v: Value| scc.contains(&v);
    let mut inner = Vec::new();
    let mut outer_ops: Vec<Value> = Vec::new();
    for &phi in scc {
        let mut is_inner = true;
        for &op in f.phi_args(phi) {
            let op = f.resolve(op);
            if !in_scc(op) {
                is_inner = false;
                if !outer_ops.contains(&op) {
                    outer_ops.push(op);
                }
            }
        }
        if is_inner {
            inner.push(phi);
        }
    }
    match outer_ops.len() {
        // Only reachable from itself: dead code, nothing to do.
        0 => Outcome::Kept,
        // Also a single phi made trivial by an earlier contraction.
        1 => {
            for &phi in scc {
                f.remove_phi(phi, outer_ops[0]);
            }
            Outcome::Replaced(scc.len())
        }
        // A single phi with several outside operands is necessary (its
        // `inner` is empty: a phi of only itself has no outside operand).
        _ if !inner.is_empty() => Outcome::Recurse(inner),
        _ => Outcome::Kept,
    }
}

/// Strongly connected components of the graph whose nodes are `phis` and
/// whose edges go from a phi to each of its operands among `phis`, in
/// reverse topological order (an SCC comes after every SCC it uses).
/// Tarjan's algorithm with an explicit stack.
fn sccs(f: &Function, phis: &[Value]) -> Vec<Vec<Value>> {
    const NONE: u32 = u32::MAX;
    let mut index: SecondaryMap<Value, u32> = SecondaryMap::with_default(NONE);
    let mut low: SecondaryMap<Value, u32> = SecondaryMap::with_default(0);
    let mut member: SecondaryMap<Value, bool> = SecondaryMap::new();
    let mut on_stack: SecondaryMap<Value, bool> = SecondaryMap::new();
    for &p in phis {
        if is_live_phi(f, p) {
            member[p] = true;
        }
    }
    let succs = |v: Value| -> Vec<Value> {
        f.phi_args(v)
            .iter()
            .map(|&a| f.resolve(a))
            .filter(|&a| member[a])
            .collect()
    };
    let mut next_index = 0u32;
    let mut stack: Vec<Value> = Vec::new();
    let mut out = Vec::new();
    for &root in phis {
        if !member[root] || index[root] != NONE {
            continue;
        }
        // Each frame: a node, its successors, and the next one to visit.
        let mut frames: Vec<(Value, Vec<Value>, usize)> = Vec::new();
        index[root] = next_index;
        low[root] = next_index;
        next_index += 1;
        stack.push(root);
        on_stack[root] = true;
        frames.push((root, succs(root), 0));
        while let Some((v, vs, i)) = frames.last_mut() {
            let v = *v;
            if let Some(&w) = vs.get(*i) {
                *i += 1;
                if index[w] == NONE {
                    index[w] = next_index;
                    low[w] = next_index;
                    next_index += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    let ws = succs(w);
                    frames.push((w, ws, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            frames.pop();
            if let Some((parent, _, _)) = frames.last() {
                let parent = *parent;
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut scc = Vec::new();
                loop {
                    let w = stack.pop().expect("v is on the stack");
                    on_stack[w] = false;
                    scc.push(w);
                    if w == v {
                        break;
                    }
                }
                out.push(scc);
            }
        }
    }
    out
}
