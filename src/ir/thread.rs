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
//! A choosing block is bypassed where that beats what `ir::select` would
//! make of it (an `and` or `or` of both tests, one branch, the second
//! test never skipped). It runs twice:
//!
//! - early (`thread`, before `ir::licm` and `ir::version`): a loop's exit
//!   test (one target in the loop, one outside) where some predecessor
//!   that jumps to `j` computes what cannot run on both sides (a checked
//!   read, a call, a division): `ir::select` could not convert it, and
//!   the loop would not be counted;
//! - late (`thread-late`, just before `ir::select`, once `ir::version`
//!   has copied the loops whose exits meet in a choosing block): a short
//!   circuit whose first test is statically predicted to decide
//!   ([`first_test_decides`], after Ball and Larus's heuristics):
//!   `if r2 < c && r2 > 0.0 { … }` guarding work that stores. Threaded,
//!   the predicted path runs one compare and one branch; combined, it
//!   would run both compares and combine them every time.
//!
//! Any other `&&` is left to `ir::select`: with no prediction, one branch
//! on both tests is the safer bet (a first test that goes either way
//! mispredicts less often combined). Each predecessor of `j` becomes one
//! of the target it now reaches, bringing the value `j` brought to the
//! target's phis ([`takes_preds`]); `j` may not head a loop (its latches
//! would become branches).

use super::dom::DomTree;
use super::loops::Loops;
use super::semantics::Const;
use super::*;
use rustc_hash::FxHashMap;

/// Threads the loops' exit tests of `f` (early: before `ir::licm` and
/// `ir::version` look for counted loops).
pub fn thread_branches(f: &mut Function) {
    thread_function(f, Which::ExitTests);
}

/// Threads, in `f`, the short circuits whose first test is predicted to
/// decide (late: just before `ir::select`, once `ir::version` has copied
/// the loops whose exits meet in a choosing block — threaded, those exits
/// would lead to two places, and `ir::version` copies only loops that
/// leave to one).
pub fn thread_late(f: &mut Function) {
    thread_function(f, Which::Late);
}

/// Which choosing blocks a run bypasses.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Which {
    /// Loops' exit tests that `ir::select` could not convert.
    ExitTests,
    /// Short circuits whose first test is predicted to decide
    /// ([`first_test_decides`]).
    Late,
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
fn thread_function(f: &mut Function, which: Which) {
    let mut bypassed: Vec<Block> = Vec::new();
    loop {
        // What the block and its neighbours show first: most functions
        // have no such block, and need no use counts, dominator tree or
        // loops.
        let candidates: Vec<Block> = (f.layout.iter().copied())
            .filter(|b| !bypassed.contains(b) && promising(f, *b, which).is_some())
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
            let Some(edges) =
                promising(f, b, which).filter(|e| fits(f, &dom, &loops, &uses, b, e, which))
            else {
                continue;
            };
            bypass(f, b, &edges.edges);
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

/// The new edges of `b`'s predecessors, in their order, and whether a
/// predecessor that jumps in computes what `ir::select` could not run on
/// both sides.
struct Edges {
    choice: Choice,
    edges: Vec<Edge>,
    unspeculable: bool,
}

/// The new edge of each predecessor of `b`, if `b` only chooses, its
/// targets can take its predecessors ([`takes_preds`]) and both stay
/// reachable.
fn edges(f: &Function, b: Block) -> Option<Edges> {
    let choice = choosing_phi(f, b)?;
    let Choice {
        phi,
        then_block,
        else_block,
    } = choice;
    let preds = &f.blocks[b].preds;
    if ![then_block, else_block]
        .iter()
        .all(|&t| takes_preds(f, b, phi, t, preds))
    {
        return None;
    }
    let mut edges = Vec::with_capacity(preds.len());
    let mut unspeculable = false;
    for (&p, &arg) in preds.iter().zip(f.phi_args(phi)) {
        let edge = match (f.constant(arg), &f.blocks[p].term) {
            (Some(Const::Bool(known)), _) => Edge::Known(known),
            (_, Some(Terminator::Jump(_))) => {
                unspeculable |= !f.blocks[p].insts.iter().all(|&i| speculable(f, i));
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
    // A target that `b` alone enters and no edge would reach (the second
    // test folded to the value the first one decides with) would be left
    // unreachable: such a block is left for Cranelift to fold.
    let reached = |t: Block, side: bool| {
        f.blocks[t].preds.len() > 1
            || (edges.iter())
                .any(|e| matches!(*e, Edge::Branch(_)) || matches!(*e, Edge::Known(v) if v == side))
    };
    if !reached(then_block, true) || !reached(else_block, false) {
        return None;
    }
    Some(Edges {
        choice,
        edges,
        unspeculable,
    })
}

/// Whether target `t` of choosing block `b` (whose phi is `phi`) can take
/// `b`'s predecessors `preds` as its own: none is one already (its phis
/// would need two values from it), and each phi of `t` has from `b` a
/// value other than `phi`. Such a value is defined above `b` (`b` holds
/// nothing else), so it dominates every predecessor of `b`, which brings
/// it instead.
fn takes_preds(f: &Function, b: Block, phi: Value, t: Block, preds: &[Block]) -> bool {
    let data = &f.blocks[t];
    if data.phis.is_empty() {
        return true;
    }
    let Some(from_b) = data.preds.iter().position(|&p| p == b) else {
        return false;
    };
    !preds.iter().any(|p| data.preds.contains(p))
        && (data.phis.iter()).all(|&q| f.phi_args(q)[from_b] != phi)
}

/// `b`'s [`edges`], if what they show alone says bypassing `b` pays, for
/// `which`: a predecessor that jumps in computes what `ir::select` could
/// not run on both sides, or the first test is predicted to decide
/// ([`first_test_decides`]).
fn promising(f: &Function, b: Block, which: Which) -> Option<Edges> {
    let edges = edges(f, b)?;
    let pays = match which {
        Which::ExitTests => edges.unspeculable,
        Which::Late => first_test_decides(f, b, &edges),
    };
    pays.then_some(edges)
}

/// Whether the [`promising`] `b` fits where it is: not a loop's header,
/// its phi used by its branch alone, and, for `ExitTests`, a loop's exit
/// test (one target in its innermost loop, one outside).
fn fits(
    f: &Function,
    dom: &DomTree,
    loops: &Loops,
    uses: &FxHashMap<Value, usize>,
    b: Block,
    edges: &Edges,
    which: Which,
) -> bool {
    let Choice {
        phi,
        then_block,
        else_block,
    } = edges.choice;
    // A predecessor `b` dominates is a latch: `b` heads a loop.
    let heads_loop = f.blocks[b].preds.iter().any(|&p| dom.dominates(b, p));
    let exit_test = || {
        (loops.innermost(b))
            .is_some_and(|l| loops.contains(l, then_block) != loops.contains(l, else_block))
    };
    !heads_loop && uses.get(&phi) == Some(&1) && (which == Which::Late || exit_test())
}

/// Whether the first test of the short circuit that `b` chooses on is
/// predicted to decide it, so that threaded, the predicted path runs one
/// test and one branch, where `ir::select` would run both tests and
/// combine them on every path: the branch is predicted to go where a
/// predecessor's known value leads ([`predicted_target`]), and each
/// second test (on an edge that jumps in) is predicted to come out the
/// other way ([`predicted_outcome`]), so the first must be what decides.
/// (`if r2 < c && r2 > 0.0 { … }` guarding work that stores: the whole
/// is predicted false, `r2 > 0.0` true, so `r2 < c` false. With a second
/// test of no prediction, a first test that often goes either way would
/// mispredict where the combined test would not.)
fn first_test_decides(f: &Function, b: Block, edges: &Edges) -> bool {
    let Some(likely) = predicted_target(f, b, &edges.choice) else {
        return false;
    };
    let mut known_to_likely = false;
    for &edge in &edges.edges {
        match edge {
            Edge::Known(k) => known_to_likely |= k == likely,
            Edge::Branch(v) => {
                if predicted_outcome(f, v) != Some(!likely) {
                    return false;
                }
            }
        }
    }
    known_to_likely
}

/// The outcome Ball and Larus's opcode heuristic predicts for comparison
/// `v`: a value is seldom zero or negative, and seldom equal to a given
/// constant (`x > 0`, `x >= 0` and `x != c` hold; `x < 0`, `x <= 0` and
/// `x == c` fail). `None` for other values.
fn predicted_outcome(f: &Function, v: Value) -> Option<bool> {
    let &InstKind::Binary(BinaryOp::ICmp(cmp) | BinaryOp::FCmp(cmp), a, b) = f.def_kind(v)? else {
        return None;
    };
    let (cmp, k) = match (f.constant(a), f.constant(b)) {
        (_, Some(k)) => (cmp, k),
        (Some(k), None) => (cmp.swapped(), k),
        (None, None) => return None,
    };
    let zero = matches!(k, Const::Int(0)) || matches!(k, Const::Float(x) if x == 0.0);
    match cmp {
        Cmp::Eq => Some(false),
        Cmp::Ne => Some(true),
        Cmp::Gt | Cmp::Ge if zero => Some(true),
        Cmp::Lt | Cmp::Le if zero => Some(false),
        _ => None,
    }
}

/// The side (`true`: the then block) `b`'s branch is predicted to take by
/// Ball and Larus's call and store heuristics ("Branch prediction for
/// free", PLDI 1993): a successor that calls or stores (an allocation
/// calls the runtime, a print is a call) and that `b` alone enters, so
/// that it does not post-dominate the branch, is predicted not taken;
/// `None` when neither or both are.
fn predicted_target(f: &Function, b: Block, choice: &Choice) -> Option<bool> {
    let unlikely = |s: Block| {
        let data = &f.blocks[s];
        data.preds.as_slice() == [b]
            && data
                .insts
                .iter()
                .any(|&i| calls_or_stores(&f.insts[i].kind))
    };
    match (unlikely(choice.then_block), unlikely(choice.else_block)) {
        (true, false) => Some(false),
        (false, true) => Some(true),
        _ => None,
    }
}

/// Whether `kind` calls (a function, the runtime to allocate or print)
/// or stores.
fn calls_or_stores(kind: &InstKind) -> bool {
    matches!(
        kind,
        InstKind::Call(..)
            | InstKind::StoreGlobal(..)
            | InstKind::ArraySet { .. }
            | InstKind::NewArray { .. }
            | InstKind::ArrayLit(_)
            | InstKind::Renew { .. }
            | InstKind::Print(_)
    )
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
    // What `b` brought to each target's phis, which each predecessor that
    // reaches the target brings instead ([`takes_preds`]).
    let mut brought: Vec<(Block, Vec<Value>)> = Vec::with_capacity(2);
    for t in [then_block, else_block] {
        let from_b = (f.blocks[t].preds.iter())
            .position(|&p| p == b)
            .expect("b branches to t");
        f.blocks[t].preds.remove(from_b);
        let values = (f.blocks[t].phis.clone().into_iter())
            .map(|q| f.phi_args_mut(q).expect("a live phi").remove(from_b))
            .collect();
        brought.push((t, values));
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
                let (_, values) = (brought.iter())
                    .find(|(t, _)| *t == s)
                    .expect("p now reaches only b's targets");
                for (q, &v) in f.blocks[s].phis.clone().into_iter().zip(values) {
                    f.phi_args_mut(q).expect("a live phi").push(v);
                }
            }
        }
    }
    let placeholder = f.phi_args(phi)[0];
    f.remove_phi(phi, placeholder);
    f.blocks[b].term = None;
}
