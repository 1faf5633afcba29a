//! Inlining by a cost model (`-O2`, whole programs only: in the REPL a
//! function may be redefined, so calls go through slots there).
//!
//! A call of a function that is not recursive (no cycle through it in the
//! call graph) is replaced by a copy of the callee's blocks when the
//! callee is small enough for the place of the call
//! ([`inline_calls`] says how small). Functions are visited bottom-up
//! (callees before their callers: Tarjan's SCCs come out in that order),
//! so a copy is made of a body whose own calls were already expanded.
//! Top-level code comes last and takes copies only at calls in its loops,
//! of functions that by then call nothing and have no loop
//! ([`inline_leaves_into_top_level_loops`]).
//! The copy goes in as `ir::inline`'s unrolled copies do: the call's block
//! is split, the copy's returns jump to the second half, where a phi (or
//! the single returned value) replaces the call's result; instructions
//! keep the callee's source locations, marked with the call they replaced
//! (`SrcLoc::inlined`, `Function::inline_sites`, the body's own sites
//! appended beneath it), so runtime errors print the call stack as
//! written. Everything after this pass — the collector's roots
//! (`ir::safepoints::live_across`), bounds checks, loop rotation — sees
//! the inlined code as the caller's own.
//!
//! A function no longer called by compiled code gets no code (codegen).

use super::inline::{can_copy, inline_call, size};
use super::scalars;
use super::*;

/// The largest callee (instructions and phis) inlined at a call outside
/// loops, when the callee is called elsewhere too. Such a call runs once
/// per run of its caller; what inlining saves there is the call itself —
/// argument moves, the callee's frame and stack check, spills of the
/// caller's values around it — about a dozen instructions, so a body of
/// that size costs no code and no compile time.
pub const BUDGET: usize = 12;
/// The largest callee inlined at a call inside a loop, or at the only
/// call of the callee anywhere in the program (whose copy replaces the
/// function's own code: no growth). In a loop the call's cost is paid at
/// every iteration, and the copy becomes part of the loop, where the
/// caller's loop-invariant values (array lengths, bounds facts,
/// constants) reach it; kept to a small loop body's size, because each
/// copy adds its size to what Cranelift compiles.
pub const LOOP_BUDGET: usize = 40;
/// Added to the budget for each constant argument: the copy computes
/// with the constant (Cranelift folds it, bounds facts see it), which
/// pays for a few of its instructions.
pub const CONST_ARG_BONUS: usize = 4;
/// Added to the budget for each argument: each is a move into an
/// argument register (or a stack store beyond the registers) that the
/// copy does not need.
pub const ARG_BONUS: usize = 1;
/// A caller grows by at most its own size or this many instructions,
/// whichever is more: code size, and Cranelift's time, stay within a
/// small factor of the program as written.
pub const MIN_GROWTH: usize = 60;
/// Rounds of inlining into one caller. A call's cost can fall once
/// others are in: `k = f(s); g(k)` reads `k` only at constant indices
/// once `g` is copied in, and then `f`'s returned array costs nothing.
pub const CALLER_ROUNDS: usize = 2;
/// No caller grows beyond this many instructions and phis by inlining.
pub const MAX_CALLER_SIZE: usize = 1000;
/// Calls in loops may take a small caller up to this size whatever its
/// own: there each copy saves a call on every iteration, and a caller of
/// a few dozen instructions that calls a helper from several places in
/// its loop would otherwise get one copy, the growth of
/// [`MIN_GROWTH`] spent.
pub const LOOP_CALLER_SIZE: usize = 240;

/// Inlines calls in every function of `m`, then, in its top-level code,
/// the calls in loops of functions that call nothing and have no loop
/// ([`inline_leaves_into_top_level_loops`]): most top-level code runs
/// once, where a call costs nanoseconds and a copy costs compile time,
/// and copying even a function's only call, in a loop, into it was
/// slower when the callee had a loop (a stencil's sweep, 11-15 %: its
/// running maximum shared registers with values live across `print`
/// calls). A call
/// of function `g` is inlined when `g` is not recursive, has a return and an entry block
/// nothing jumps back to, and
/// `cost(g) - replaced <= budget + ARG_BONUS * args + CONST_ARG_BONUS * constant args`
/// (`replaced`: what `ir::scalars` removes once the copy is in, of the
/// small arrays the call passes and returns)
/// where the budget is [`LOOP_BUDGET`] in a loop, in a recursive caller
/// when `g` has no loop, or at `g`'s only call in the program and
/// [`BUDGET`] elsewhere, while the caller stays within its
/// growth ([`MIN_GROWTH`], [`MAX_CALLER_SIZE`]; in loops up to
/// [`LOOP_CALLER_SIZE`]); calls in loops go first,
/// cheapest first.
pub fn inline_calls(m: &mut Module) {
    let graph = call_graph(m);
    let (order, cycle) = bottom_up(&graph);
    let inlinable: Vec<bool> = (m.functions.iter().zip(&cycle))
        .map(|(g, on_cycle)| on_cycle.is_none() && can_copy(g))
        .collect();
    // By function: how many calls of it the program makes (as written).
    let mut calls = vec![0usize; m.functions.len()];
    for f in m.all_functions() {
        f.calls().for_each(|(_, _, g)| calls[g as usize] += 1);
    }
    // By function: the length of the small array it returns, if it returns
    // one ([`scalars::returned_small_array`]), kept up to date as callees
    // take copies (each is visited before its callers).
    let mut returned: Vec<Option<i64>> = m
        .functions
        .iter()
        .map(scalars::returned_small_array)
        .collect();
    for fi in order {
        if graph[fi].iter().all(|&g| !inlinable[g]) {
            continue;
        }
        let placeholder = Function::new(String::new(), None);
        let mut caller = std::mem::replace(&mut m.functions[fi], placeholder);
        let model = Model {
            functions: &m.functions,
            inlinable: &inlinable,
            calls: &calls,
            returned: &returned,
            only_in_loops: false,
            recursive: cycle[fi].is_some(),
        };
        let own = net_size(&caller);
        for _ in 0..CALLER_ROUNDS {
            if !model.inline_into(&mut caller, own) {
                break;
            }
            // Its copies computed with constant arguments and split
            // blocks: fold and merge them, before the next round weighs
            // the calls left and before the caller is copied in turn.
            super::tidy::tidy(&mut caller);
        }
        returned[fi] = scalars::returned_small_array(&caller);
        m.functions[fi] = caller;
    }
    inline_leaves_into_top_level_loops(m, &inlinable, &calls, &returned);
}

/// Top-level code takes copies only at calls in its loops, and only of
/// functions that (after their own inlining) call nothing and have no
/// loop: a branchy helper such as a rounding or a clamp. A callee with a
/// loop of its own would make the copy's loop part of top-level code,
/// where values live across `print` calls share its registers: a
/// stencil's running maximum was spilled in its inner loop that way.
fn inline_leaves_into_top_level_loops(
    m: &mut Module,
    inlinable: &[bool],
    calls: &[usize],
    returned: &[Option<i64>],
) {
    // Only the functions top-level code calls need the test.
    let mut leaves = vec![false; m.functions.len()];
    for g in callees(&m.main) {
        let f = &m.functions[g];
        leaves[g] = inlinable[g] && f.calls().next().is_none() && has_no_loop(f);
    }
    if !leaves.contains(&true) {
        return;
    }
    let model = Model {
        functions: &m.functions,
        inlinable: &leaves,
        calls,
        returned,
        only_in_loops: true,
        recursive: false,
    };
    let own = net_size(&m.main);
    if model.inline_into(&mut m.main, own) {
        super::tidy::tidy(&mut m.main);
    }
}

/// What the cost model knows of the program.
#[derive(Clone, Copy)]
struct Model<'a> {
    /// The functions, those already visited with their calls inlined.
    functions: &'a [Function],
    /// By function: whether its calls may be inlined at all.
    inlinable: &'a [bool],
    /// By function: how many calls of it the program makes as written.
    calls: &'a [usize],
    /// By function: the length of the small array it returns, if any.
    returned: &'a [Option<i64>],
    /// Whether only calls in the caller's loops are inlined.
    only_in_loops: bool,
    /// Whether the caller is on a cycle of the call graph: its calls run
    /// once per call of it, as often as a loop's run per iteration (a
    /// recursive integrator's calls of the function it integrates). They
    /// are weighed as calls in a loop when the callee has no loop of its
    /// own, whose iterations would pay for its call (a merge sort's
    /// merge ran 4 % more instructions copied in).
    recursive: bool,
}

/// Whether `f` has no loop (no back edge in its dominator tree).
fn has_no_loop(f: &Function) -> bool {
    f.current_dom_tree().is_acyclic()
}

/// The functions `f` calls, each once.
pub(super) fn callees(f: &Function) -> Vec<usize> {
    let mut out: Vec<usize> = f.calls().map(|(_, _, g)| g as usize).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The call graph of `m`'s functions: by function, its [`callees`] in the
/// module (a REPL entry's code may also call functions of earlier entries,
/// through slots; they are not in it).
pub(super) fn call_graph(m: &Module) -> Vec<Vec<usize>> {
    let n = m.functions.len();
    (m.functions.iter())
        .map(|f| callees(f).into_iter().filter(|&g| g < n).collect())
        .collect()
}

/// Joins into each function's facts those of every function it calls,
/// directly or not (a recursive function's include its own): `facts` by
/// function, `graph` its callees, as [`callees`] gives them. A fixpoint
/// that copies only what a caller lacks.
pub(super) fn close_over_callees<T: Copy + Eq + std::hash::Hash>(
    facts: &mut [rustc_hash::FxHashSet<T>],
    graph: &[Vec<usize>],
) {
    let mut changed = true;
    while changed {
        changed = false;
        for (k, callees) in graph.iter().enumerate() {
            for &g in callees {
                let new: Vec<T> = (facts[g].iter())
                    .filter(|x| !facts[k].contains(x))
                    .copied()
                    .collect();
                changed |= !new.is_empty();
                facts[k].extend(new);
            }
        }
    }
}

/// The functions of the call graph `graph` in an order where each comes
/// after every function it calls, except within a cycle; and, by
/// function, the cycle it is on (calls itself, directly or not) as the
/// number of its strongly connected component, `None` when it is on
/// none. Tarjan's algorithm, iterative: it emits each strongly connected
/// component after all those it reaches.
pub(super) fn bottom_up(graph: &[Vec<usize>]) -> (Vec<usize>, Vec<Option<usize>>) {
    const NONE: usize = usize::MAX;
    let n = graph.len();
    let mut index = vec![NONE; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut order = Vec::with_capacity(n);
    let mut cycle = vec![None; n];
    let mut components = 0;
    let mut next = 0;
    // (function, its next edge to follow)
    let mut frames: Vec<(usize, usize)> = Vec::new();
    for root in 0..n {
        if index[root] != NONE {
            continue;
        }
        macro_rules! visit {
            ($v:expr) => {{
                let v = $v;
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
                frames.push((v, 0));
            }};
        }
        visit!(root);
        while let Some(&(v, e)) = frames.last() {
            if let Some(&w) = graph[v].get(e) {
                frames.last_mut().expect("a frame").1 += 1;
                if index[w] == NONE {
                    visit!(w);
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            frames.pop();
            if let Some(&(u, _)) = frames.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == index[v] {
                let start = stack.iter().rposition(|&x| x == v).expect("on the stack");
                let cyclic = stack.len() - start > 1 || graph[v].contains(&v);
                for x in stack.drain(start..) {
                    on_stack[x] = false;
                    cycle[x] = cyclic.then_some(components);
                    order.push(x);
                }
                components += 1;
            }
        }
    }
    (order, cycle)
}

/// What a copy of `f` adds to its caller: its instructions and phis
/// other than constants. A constant is an immediate operand, or one
/// register Cranelift materializes once; the copy's constants mostly
/// meet the caller's own, which GVN shares.
fn cost(f: &Function) -> usize {
    let constants = (f.layout.iter())
        .flat_map(|&b| &f.blocks[b].insts)
        .filter(|&&i| {
            matches!(
                f.insts[i].kind,
                InstKind::IConst(_) | InstKind::FConst(_) | InstKind::BConst(_)
            )
        })
        .count();
    size(f) - constants
}

/// A caller's size as the cost model counts it: its instructions and
/// phis, less those `ir::scalars` will remove (the small arrays its
/// copies made that stay local, and their accesses).
fn net_size(f: &Function) -> usize {
    size(f) - scalars::removable(f)
}

/// A call `Model::inline_into` may inline: its position among the caller's
/// calls, block, instruction, callee's size, and whether it is in a loop.
struct Site {
    position: usize,
    block: Block,
    call: Inst,
    cost: usize,
    in_loop: bool,
}

impl Model<'_> {
    /// The instructions of `callee` that `ir::scalars` will remove once
    /// it is copied in: its accesses to parameters for which the call
    /// passes a small array the caller makes (or gets from a call that
    /// is inlined too and returns one it makes), when the callee only
    /// reads and writes that array's elements at constant indices.
    /// (Whether the caller lets the array escape is not asked: that is
    /// the caller's own code.)
    fn replaced_accesses(&self, caller: &Function, args: &[Value], callee: &Function) -> usize {
        (args.iter().zip(&callee.params))
            .filter_map(|(&a, &p)| {
                let len = self.fresh_array_len(caller, a)?;
                scalars::local_accesses(callee, p, len)
            })
            .sum()
    }

    /// The instructions `ir::scalars` will remove once the call `call` of
    /// `g` is inlined because of what it returns: when `g` returns a small
    /// array it makes and the caller only reads and writes the result's
    /// elements at constant indices, the callee's allocation and those
    /// accesses of the caller.
    fn replaced_result(&self, caller: &Function, call: Inst, g: FuncRef) -> usize {
        let (Some(len), Some(result)) = (self.returned[g as usize], caller.insts[call].result)
        else {
            return 0;
        };
        scalars::local_accesses(caller, result, len).map_or(0, |n| n + 1)
    }

    /// The length of `v` if it is a small array `caller` makes, or the
    /// result of a call of an inlinable function that returns one.
    fn fresh_array_len(&self, caller: &Function, v: Value) -> Option<i64> {
        if let Some(len) = scalars::small_array_len(caller, v) {
            return Some(len);
        }
        let ValueDef::Inst(inst) = caller.values[v].def else {
            return None;
        };
        let InstKind::Call(g, _) = caller.insts[inst].kind else {
            return None;
        };
        self.returned[g as usize].filter(|_| self.inlinable[g as usize])
    }

    /// Inlines the calls of `caller` the cost model accepts while its
    /// [`net_size`] stays within the limits that `own`, its net size
    /// before the first round, sets; whether it inlined any.
    fn inline_into(&self, caller: &mut Function, own: usize) -> bool {
        let loops = caller.loops();
        let mut sites = Vec::new();
        for (position, (block, call, g)) in caller.calls().enumerate() {
            let in_loop = loops.in_loop(block);
            let only_call = self.calls[g as usize] == 1;
            if !self.inlinable[g as usize] || (self.only_in_loops && !in_loop) {
                continue;
            }
            let callee = &self.functions[g as usize];
            let in_loop = in_loop || (self.recursive && has_no_loop(callee));
            let InstKind::Call(_, ref args) = caller.insts[call].kind else {
                unreachable!("a call")
            };
            let constants = args.iter().filter(|&&a| caller.constant(a).is_some());
            let budget = if in_loop || only_call {
                LOOP_BUDGET
            } else {
                BUDGET
            } + ARG_BONUS * args.len()
                + CONST_ARG_BONUS * constants.count();
            let replaced = self.replaced_accesses(caller, args, callee)
                + self.replaced_result(caller, call, g);
            let cost = cost(callee).saturating_sub(replaced);
            if cost <= budget {
                sites.push(Site {
                    position,
                    block,
                    call,
                    cost,
                    in_loop,
                });
            }
        }
        if sites.is_empty() {
            return false;
        }
        let limit = (own + own.max(MIN_GROWTH)).min(MAX_CALLER_SIZE.max(own));
        let loop_limit = limit.max(LOOP_CALLER_SIZE);
        sites.sort_by_key(|s| (!s.in_loop, s.cost, s.position));
        let mut total = net_size(caller);
        sites.retain(|s| {
            let fits = total + s.cost <= if s.in_loop { loop_limit } else { limit };
            if fits {
                total += s.cost;
            }
            fits
        });
        if sites.is_empty() {
            return false;
        }
        // Last call first: splitting a block moves the instructions after
        // the call, so earlier calls in the same block stay where they were.
        sites.sort_by_key(|s| std::cmp::Reverse(s.position));
        for s in &sites {
            let InstKind::Call(g, _) = caller.insts[s.call].kind else {
                unreachable!("a call")
            };
            let callee = &self.functions[g as usize];
            caller.inline_sites.push(InlineSite {
                callee: callee.name.clone(),
                call: caller.insts[s.call].loc,
            });
            let site = caller.inline_sites.len() as u32;
            inline_call(caller, s.block, s.call, callee, Some(site));
        }
        caller.resolve_aliases();
        true
    }
}

#[cfg(test)]
mod tests {
    use super::bottom_up;

    #[test]
    fn callees_come_first_and_cycles_are_recursive() {
        // 0 calls 1 and 2; 1 calls 2; 2 calls 3 and 3 calls 2; 4 calls itself.
        let graph = vec![vec![1, 2], vec![2], vec![3], vec![2], vec![4]];
        let (order, cycle) = bottom_up(&graph);
        let pos = |f: usize| order.iter().position(|&x| x == f).unwrap();
        assert!(pos(2) < pos(1) && pos(1) < pos(0) && pos(3) < pos(1));
        let on_cycle: Vec<bool> = cycle.iter().map(Option::is_some).collect();
        assert_eq!(on_cycle, vec![false, false, true, true, true]);
        assert_eq!(cycle[2], cycle[3], "2 and 3 share their cycle");
        assert_ne!(cycle[2], cycle[4], "4 is on a cycle of its own");
        assert_eq!(order.len(), 5);
    }
}
