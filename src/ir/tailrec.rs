//! Calls of a function by itself in tail position made jumps back to its
//! start (`-O2`, whole programs): tail-recursion elimination with an
//! accumulator, as GCC's `tree-tailcall` does it (Muchnick, *Advanced
//! Compiler Design and Implementation*, §15.1).
//!
//! A *tail site* is a block that ends by returning what a call of the
//! function itself returns (`return gcd(b, a % b);`), or that returns the
//! sum or the product of such a call's result and a value computed
//! before the call (`return n % 10 + digits(n / 10);`). The call is the
//! last thing the block does but for constants, so nothing the call would
//! do moves past anything else.
//!
//! The entry becomes the header of a loop: a new entry block jumps to
//! it, and each parameter becomes a phi of the parameter and of the
//! arguments of every tail site, which now jumps there. A function with
//! sums at its tail sites (or products: one of the two) carries an
//! accumulator `acc` from 0 (1): a site adds its value to it, and every
//! other return returns `acc + x` (`acc * x`). Toy's `+` and `*` on ints
//! wrap, so they are associative and commutative, and the result is
//! exactly the original's (floats are not: their sums stay calls).
//!
//! Each jump counts the calls it stands for, and the loop runs at most as
//! many times as the stack has bytes left ([`InstKind::CheckDepth`]):
//! recursion without end stops with `stack overflow` as before, at the
//! call's location, with the calls counted in the report's stack. A
//! recursion that fitted before still fits (a call takes more than a
//! byte); one up to several times deeper now runs too.
//!
//! Only where nothing else in the function can stop the program or call
//! another function (`nothing_else_stops`): an error's report lists the
//! call stack, which would miss the frames the jumps stand for; and only
//! where every call of the function by itself is a tail site: a loop that
//! keeps a call of itself (`fib(n - 1) + fib(n - 2)`) saves one call in
//! two but holds its parameters, counter and accumulator across the
//! other, in callee-saved registers each call saves and restores (a
//! partition count ran 1.26× slower so), and `ir::inline` unrolls such
//! functions instead.
//!
//! Only whole programs: in the REPL a function's call of itself goes
//! through its slot, and a later entry may redefine it.

use super::*;
use smallvec::smallvec;

/// Every function of `m` whose calls of itself in tail position become
/// jumps.
pub fn eliminate_tail_recursion(m: &mut Module) {
    for (k, f) in m.functions.iter_mut().enumerate() {
        let me = k as FuncRef;
        if !f.calls().any(|(_, _, g)| g == me) {
            continue;
        }
        let sites = tail_sites(f, me);
        let Some(op) = accumulation(&sites) else {
            continue;
        };
        let calls = f.calls().count();
        if !sites.is_empty()
            && sites.len() == calls
            && f.blocks[f.entry()].preds.is_empty()
            && nothing_else_stops(f, &sites)
        {
            make_loop(f, &sites, op);
        }
    }
}

/// A block that ends with a tail call of the function itself.
struct TailSite {
    block: Block,
    call: Inst,
    /// `Some((op, v))`: the block returns `v op call`.
    accumulated: Option<(BinaryOp, Value)>,
    /// The instruction computing that.
    combine: Option<Inst>,
}

/// The tail sites of `f` (function `me`), in layout order.
fn tail_sites(f: &Function, me: FuncRef) -> Vec<TailSite> {
    let uses = f.use_counts();
    let used_once = |v: Option<Value>| v.is_none_or(|v| uses.get(&v) == Some(&1));
    let mut sites = Vec::new();
    for &block in &f.layout {
        let data = &f.blocks[block];
        let Some(Terminator::Return(returned)) = data.term else {
            continue;
        };
        let returned = returned.map(|v| f.resolve(v));
        // The block's last instructions but constants (SSA construction
        // makes a constant where it is first used: `f(n - 1) * 3`).
        let is_constant = |i: Inst| f.insts[i].result.is_some_and(|r| f.constant(r).is_some());
        let mut tail = (data.insts.iter().rev()).filter(|&&i| !is_constant(i));
        let site = match (tail.next(), tail.next()) {
            (Some(&call), _) if is_self_call(f, call, me) && f.insts[call].result == returned => {
                TailSite {
                    block,
                    call,
                    accumulated: None,
                    combine: None,
                }
            }
            (Some(&last), Some(&call)) if is_self_call(f, call, me) => {
                let InstKind::Binary(op @ (BinaryOp::IAdd | BinaryOp::IMul), x, y) =
                    f.insts[last].kind
                else {
                    continue;
                };
                let result = f.insts[call].result.expect("an int call has a result");
                let v = match (f.resolve(x) == result, f.resolve(y) == result) {
                    (true, false) => y,
                    (false, true) => x,
                    _ => continue,
                };
                if f.insts[last].result != returned || !used_once(returned) {
                    continue;
                }
                TailSite {
                    block,
                    call,
                    accumulated: Some((op, v)),
                    combine: Some(last),
                }
            }
            _ => continue,
        };
        if used_once(f.insts[site.call].result) {
            sites.push(site);
        }
    }
    sites
}

fn is_self_call(f: &Function, inst: Inst, me: FuncRef) -> bool {
    matches!(f.insts[inst].kind, InstKind::Call(callee, _) if callee == me)
}

/// Whether no instruction of `f` but the tail sites' calls can stop
/// the program: a runtime error's report lists the call stack, where the
/// frames the jumps stand for would be missing (a stack overflow, which
/// the jumps' checks report, counts them). No array is accessed or made
/// (bounds, memory), and every division is by a constant other than
/// zero or in a block only the false edge of `d == 0` (or the true edge
/// of `d != 0`) for its divisor `d` leads to.
fn nothing_else_stops(f: &mut Function, sites: &[TailSite]) -> bool {
    let mut divisions = Vec::new();
    for &b in &f.layout {
        for &i in &f.blocks[b].insts {
            match f.insts[i].kind {
                InstKind::Binary(op, _, d)
                    if op.can_fail() && f.int_constant(d).is_none_or(|d| d == 0) =>
                {
                    divisions.push((b, d));
                }
                InstKind::Call(..) if !sites.iter().any(|s| s.call == i) => return false,
                InstKind::NewArray { .. }
                | InstKind::ArrayLit(_)
                | InstKind::Renew { .. }
                | InstKind::ArrayGet { .. }
                | InstKind::ArraySet { .. } => return false,
                _ => {}
            }
        }
    }
    if divisions.is_empty() {
        return true;
    }
    let (dom, _) = f.dom_and_loops();
    let f = &*f;
    let nonzero_edges: Vec<(Block, Value)> = (f.layout.iter())
        .filter_map(|&b| match f.blocks[b].term {
            Some(Terminator::Branch {
                cond,
                then_block,
                else_block,
            }) => {
                let InstKind::Binary(BinaryOp::ICmp(cmp @ (Cmp::Eq | Cmp::Ne)), x, y) =
                    *f.def_kind(f.resolve(cond))?
                else {
                    return None;
                };
                let tested = match (f.int_constant(x), f.int_constant(y)) {
                    (_, Some(0)) => x,
                    (Some(0), _) => y,
                    _ => return None,
                };
                let nonzero = if cmp == Cmp::Eq {
                    else_block
                } else {
                    then_block
                };
                (f.blocks[nonzero].preds.len() == 1).then(|| (nonzero, f.resolve(tested)))
            }
            _ => None,
        })
        .collect();
    divisions.iter().all(|&(b, d)| {
        let d = f.resolve(d);
        (nonzero_edges.iter()).any(|&(t, tested)| tested == d && dom.dominates(t, b))
    })
}

/// The one operation the sites accumulate with (`None` inside: none
/// does); `None` when they use both.
fn accumulation(sites: &[TailSite]) -> Option<Option<BinaryOp>> {
    let mut ops = sites.iter().filter_map(|s| s.accumulated.map(|(op, _)| op));
    let first = ops.next();
    ops.all(|op| Some(op) == first).then_some(first)
}

/// Makes `f`'s entry a loop header that the tail sites jump to.
fn make_loop(f: &mut Function, sites: &[TailSite], op: Option<BinaryOp>) {
    let header = f.entry();
    let start = f.blocks.push(BlockData::default());
    f.layout.insert(0, start);
    f.blocks[header].preds.push(start);
    for k in 0..f.params.len() {
        let old = f.params[k];
        let param = f.values.push(ValueData {
            ty: f.value_ty(old),
            def: ValueDef::Param(k as u32),
        });
        f.copy_class(old, param);
        f.params[k] = param;
        // The old parameter's uses now read the phi.
        let phi = f.phis.push(PhiData {
            block: header,
            args: smallvec![param],
        });
        f.values[old].def = ValueDef::Phi(phi);
        f.blocks[header].phis.push(old);
    }
    let zero = f.push_inst(start, InstKind::IConst(0), Ty::Int);
    let depth = f.add_phi(header, Ty::Int, smallvec![zero]);
    let acc = op.map(|op| {
        let identity = f.push_inst(start, InstKind::IConst(identity(op)), Ty::Int);
        (op, f.add_phi(header, Ty::Int, smallvec![identity]))
    });
    f.blocks[start].term = Some(Terminator::Jump(header));
    for site in sites {
        jump_back(f, site, header, depth, acc.map(|(_, acc)| acc));
    }
    if let Some((op, acc)) = acc {
        return_accumulated(f, op, acc);
    }
}

/// The accumulator's start: `x op identity == x`.
fn identity(op: BinaryOp) -> i64 {
    match op {
        BinaryOp::IMul => 1,
        _ => 0,
    }
}

/// Replaces `site`'s call and return by a jump to `header`, passing the
/// call's arguments to the parameters' phis, the depth one more, and the
/// accumulator with the site's value.
fn jump_back(f: &mut Function, site: &TailSite, header: Block, depth: Value, acc: Option<Value>) {
    let block = site.block;
    // The call and what combines its result go; constants stay.
    (f.blocks[block].insts).retain(|i| *i != site.call && Some(*i) != site.combine);
    let InstKind::Call(_, args) = f.insts[site.call].kind.clone() else {
        unreachable!("a tail site ends with a call");
    };
    let one = f.push_inst(block, InstKind::IConst(1), Ty::Int);
    let deeper = f.push_inst(block, InstKind::Binary(BinaryOp::IAdd, depth, one), Ty::Int);
    let check = f.insts.push(InstData {
        kind: InstKind::CheckDepth(deeper),
        result: None,
        loc: f.insts[site.call].loc,
    });
    f.blocks[block].insts.push(check);
    let acc_next = acc.map(|acc| match site.accumulated {
        Some((op, v)) => f.push_inst(block, InstKind::Binary(op, acc, v), Ty::Int),
        None => acc,
    });
    f.blocks[block].term = Some(Terminator::Jump(header));
    f.blocks[header].preds.push(block);
    let incoming = args.into_iter().chain([deeper]).chain(acc_next);
    let phis = f.blocks[header].phis.clone();
    for (phi, arg) in phis.into_iter().zip(incoming) {
        f.phi_args_mut(phi).expect("a phi").push(arg);
    }
}

/// Every return left (not a tail site) returns `acc op x` for its `x`.
fn return_accumulated(f: &mut Function, op: BinaryOp, acc: Value) {
    for k in 0..f.layout.len() {
        let block = f.layout[k];
        let Some(Terminator::Return(Some(x))) = f.blocks[block].term else {
            continue;
        };
        let r = f.push_inst(block, InstKind::Binary(op, acc, x), Ty::Int);
        f.blocks[block].term = Some(Terminator::Return(Some(r)));
    }
}
