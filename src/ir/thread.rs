//! Jump threading over short-circuit conditions (`-O2`): a block that
//! only chooses — one bool phi, no instructions, a branch on the phi —
//! is bypassed, each predecessor going straight where its value leads.
//!
//! SSA construction builds `while i < n && a[i] != x { … }` as
//!
//! ```text
//! h:  br i < n, r, j           r:  c = a[i] != x; jump j
//! j:  t = phi [false from h, c from r]; br t, body, exit
//! ```
//!
//! and `j` is the loop's only exit test but not its header: the loop is
//! not counted (`ir::loops`), so nothing versions it, and every iteration
//! materializes the bool and tests it again. Threaded, `h` branches to
//! `body` or `exit` on `i < n` (the phi's `false` from `h` is known on
//! that edge) and `r` on `c`; `j` is gone.
//!
//! Only a loop's exit test (one target in the loop, one outside), and
//! only where `ir::select` could not make the choice an `and` or `or`
//! instead (no branch at all): some predecessor that jumps to `j`
//! computes what cannot run on both sides (a checked read, a call, a
//! division). An `&&` inside a loop's body is left to `ir::select`, which
//! converts it once `ir::version` has cleared its reads. The targets may
//! have no phis (the predecessors reaching them change), and `j` may not
//! head a loop (its latches would become branches).

use super::dom::DomTree;
use super::loops::Loops;
use super::semantics::Const;
use super::*;
use rustc_hash::FxHashMap;

/// Threads every function of `m`.
pub fn thread_branches(m: &mut Module) {
    for f in m.all_functions_mut() {
        thread_function(f);
    }
}

/// Where a predecessor of the bypassed block goes instead.
#[derive(Clone, Copy)]
enum Edge {
    /// The value is known on this edge: to the target it chooses.
    Known(bool),
    /// The predecessor jumps in: it branches on the value itself.
    Branch(Value),
}

/// Bypasses every choosing block of `f` that qualifies, until none is
/// left (bypassing the second test of `a && b && c` frees the first's
/// phi of its other use).
fn thread_function(f: &mut Function) {
    let mut bypassed: Vec<Block> = Vec::new();
    loop {
        // What the block and its neighbours show first: most functions
        // have no such block, and need no dominator tree or loops.
        let candidates: Vec<Block> = (f.layout.iter().copied())
            .filter(|b| !bypassed.contains(b) && edges(f, *b).is_some())
            .collect();
        if candidates.is_empty() {
            break;
        }
        let uses = f.use_counts();
        let (dom, loops) = f.dom_and_loops();
        let before = bypassed.len();
        for b in candidates {
            // Asked again: bypassing a block changes its predecessors'
            // branches.
            let Some(edges) = edges(f, b).filter(|_| tests_exit(f, &dom, &loops, &uses, b)) else {
                continue;
            };
            bypass(f, b, &edges);
            bypassed.push(b);
        }
        if bypassed.len() == before {
            break;
        }
        f.layout.retain(|b| !bypassed.contains(b));
    }
}

/// A block that only chooses: its bool phi and the targets of its
/// branch on it.
#[derive(Clone, Copy)]
struct Choice {
    phi: Value,
    then_block: Block,
    else_block: Block,
}

/// `b` as a [`Choice`], if `b` holds one bool phi and nothing else and
/// branches on it to two other blocks.
fn choosing_phi(f: &Function, b: Block) -> Option<Choice> {
    let data = &f.blocks[b];
    let [phi] = data.phis[..] else {
        return None;
    };
    let Some(Terminator::Branch {
        cond,
        then_block,
        else_block,
    }) = data.term
    else {
        return None;
    };
    let simple = cond == phi
        && data.insts.is_empty()
        && then_block != else_block
        && then_block != b
        && else_block != b;
    simple.then_some(Choice {
        phi,
        then_block,
        else_block,
    })
}

/// The new edge of each predecessor of `b`, in the order of its
/// predecessors, if `b` only chooses, its targets have no phis, and it is
/// worth it (a predecessor that jumps in computes what `ir::select` could
/// not run on both sides).
fn edges(f: &Function, b: Block) -> Option<Vec<Edge>> {
    let Choice {
        phi,
        then_block,
        else_block,
    } = choosing_phi(f, b)?;
    if [then_block, else_block]
        .iter()
        .any(|&t| !f.blocks[t].phis.is_empty())
    {
        return None;
    }
    let preds = &f.blocks[b].preds;
    let mut edges = Vec::with_capacity(preds.len());
    let mut worth_it = false;
    for (&p, &arg) in preds.iter().zip(f.phi_args(phi)) {
        let edge = match (f.constant(arg), &f.blocks[p].term) {
            (Some(Const::Bool(known)), _) => Edge::Known(known),
            (_, Some(Terminator::Jump(_))) => {
                worth_it |= !f.blocks[p].insts.iter().all(|&i| speculable(f, i));
                Edge::Branch(arg)
            }
            (
                _,
                Some(Terminator::Branch {
                    cond,
                    then_block: t,
                    else_block: e,
                }),
            ) if *cond == arg && t != e => Edge::Known(*t == b),
            _ => return None,
        };
        edges.push(edge);
    }
    worth_it.then_some(edges)
}

/// Whether choosing block `b` is a loop's exit test (one target in its
/// innermost loop, one outside) and not a loop's header, and its phi has
/// no use but its branch.
fn tests_exit(
    f: &Function,
    dom: &DomTree,
    loops: &Loops,
    uses: &FxHashMap<Value, usize>,
    b: Block,
) -> bool {
    let Some(Choice {
        phi,
        then_block,
        else_block,
    }) = choosing_phi(f, b)
    else {
        return false;
    };
    let exit_test = loops
        .innermost(b)
        .is_some_and(|l| loops.contains(l, then_block) != loops.contains(l, else_block));
    // A predecessor `b` dominates is a latch: `b` heads a loop.
    let heads_loop = f.blocks[b].preds.iter().any(|&p| dom.dominates(b, p));
    exit_test && !heads_loop && uses.get(&phi) == Some(&1)
}

/// Whether `ir::select` could run `i` on both sides of a branch.
fn speculable(f: &Function, i: Inst) -> bool {
    super::select::may_speculate(&f.insts[i].kind)
}

/// Sends each predecessor of `b` where its edge leads and takes `b` out.
fn bypass(f: &mut Function, b: Block, edges: &[Edge]) {
    let Choice {
        phi,
        then_block,
        else_block,
    } = choosing_phi(f, b).expect("planned: a choosing block");
    let preds = std::mem::take(&mut f.blocks[b].preds);
    for t in [then_block, else_block] {
        f.blocks[t].preds.retain(|p| *p != b);
    }
    for (&p, &edge) in preds.iter().zip(edges) {
        match edge {
            Edge::Known(value) => {
                let to = if value { then_block } else { else_block };
                f.retarget(p, b, to);
            }
            Edge::Branch(cond) => {
                f.blocks[p].term = Some(Terminator::Branch {
                    cond,
                    then_block,
                    else_block,
                });
            }
        }
        // A branch whose two sides now lead to one block is a jump.
        if let Some(Terminator::Branch {
            then_block: t,
            else_block: e,
            ..
        }) = f.blocks[p].term
        {
            if t == e {
                f.blocks[p].term = Some(Terminator::Jump(t));
            }
        }
        for s in f.successors(p) {
            if !f.blocks[s].preds.contains(&p) {
                f.blocks[s].preds.push(p);
            }
        }
    }
    let placeholder = f.phi_args(phi)[0];
    f.remove_phi(phi, placeholder);
    f.blocks[b].term = None;
}
