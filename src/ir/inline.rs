//! Inlining (`-O2`, whole programs only: in the REPL a function may be
//! redefined, so calls go through slots there).
//!
//! Three kinds: calls of small non-recursive functions are inlined by a
//! cost model (`ir::inliner`, which copies bodies with [`inline_call`]);
//! one-block leaf functions are expanded by the translator at the calls
//! left ([`is_small_leaf`]) — inside loops, and outside them only in
//! functions whose plan allows it (`codegen::plan::expands_outside_loops`);
//! here, small *recursive* functions are
//! unrolled — each call a function makes of itself, or of another small
//! function on its cycle of the call graph (mutual recursion), is
//! replaced by a copy of that function's body as it was before this pass,
//! for [`ROUNDS`] rounds (one where the cycle has other functions;
//! [`ARITHMETIC_ROUNDS`] for a function that touches no array, when the
//! whole last round fits), so `fib` makes an eighth of the calls it made
//! (a real call costs a frame, a stack check and spills around it; C
//! compilers unroll such recursion too). Only calls on a cycle: inlining
//! a function into a caller that runs it once (top-level code) would only
//! cost compile time. The calls left after the last round then run the
//! callee's entry tests first, and call only where they do not return at
//! once ([`guard_calls_with_early_return`]).
//!
//! A copy goes in like this: the call's block is split after the call,
//! the copy's entry follows the first half, its returns jump to the second
//! half, and a phi there (or the single returned value) replaces the
//! call's result. Calls inside the copy stay calls, and every real call
//! still checks the stack. Instructions keep the callee's source
//! locations, and each copy's are marked with the call it replaced
//! (`SrcLoc::inlined`, `Function::inline_sites`), so a runtime error in
//! unrolled code reads exactly as without unrolling, call stack included.

use super::dom::DomTree;
use super::*;
use crate::entity::SecondaryMap;
use rustc_hash::FxHashMap;

/// The most instructions a one-block leaf function may have to be
/// expanded by the translator.
pub const MAX_LEAF_INSTS: usize = 24;
/// The most instructions and phis a function may have to be unrolled.
pub const MAX_CALLEE_SIZE: usize = 40;
/// The most blocks a function may have to be unrolled.
pub const MAX_CALLEE_BLOCKS: usize = 8;
/// The most blocks a function without loops may have to be unrolled, in
/// one round: a backtracking search's tests and branches (a subset sum
/// 0.97×, a partition count's `distinct` 0.87× and a recursive flood fill
/// 0.89× the run time; two rounds ran the subset sum 0.88× but compiled
/// the partition count 1.2× longer). With loops, copies put loops
/// inside loops: 12 blocks made a three-way quicksort compile 20 %
/// longer for no gain, 16 made an n-queens search 2.2× and a
/// permutation search 1.4× slower.
pub const MAX_LOOP_FREE_CALLEE_BLOCKS: usize = 12;
/// Unrolling stops once a function has this many instructions and phis.
pub const MAX_CALLER_SIZE: usize = 200;
/// Rounds of unrolling: each replaces every self-call by a copy.
pub const ROUNDS: usize = 2;
/// Rounds of unrolling for a function that only computes: no arrays.
pub const ARITHMETIC_ROUNDS: usize = 3;
/// [`ARITHMETIC_ROUNDS`] are made only when all their copies and the
/// guards of the calls they leave take at most this many instructions
/// and phis (fib's take 183; a partition count's, each guard copying
/// both of its entry tests, do not fit, and its two rounds ran faster
/// than three under a limit of 420: 0.77 s against 0.83 s).
pub const MAX_ARITHMETIC_SIZE: usize = 300;

/// Small leaf functions — one block, no phis, no calls — which the
/// translator expands at their call sites. With no call inside, leaving
/// out the call's stack check cannot hide an overflow.
pub fn is_small_leaf(f: &Function) -> bool {
    let [entry] = f.layout[..] else {
        return false;
    };
    let block = &f.blocks[entry];
    block.phis.is_empty()
        && block.insts.len() <= MAX_LEAF_INSTS
        && matches!(block.term, Some(Terminator::Return(_)))
        && block
            .insts
            .iter()
            .all(|&i| !matches!(f.insts[i].kind, InstKind::Call(..)))
}

/// Instructions and phis of the laid-out blocks.
pub(super) fn size(f: &Function) -> usize {
    let (phis, insts) = f.counts();
    phis + insts
}

/// Whether `f` is small enough to be unrolled and to be copied into the
/// functions on its cycle of the call graph, with an entry block nothing
/// jumps back to and a return to come back through.
fn is_small(f: &Function) -> bool {
    let blocks = f.layout.len();
    size(f) <= MAX_CALLEE_SIZE
        && (blocks <= MAX_CALLEE_BLOCKS
            || (blocks <= MAX_LOOP_FREE_CALLEE_BLOCKS && DomTree::compute(f).is_acyclic()))
        && can_copy(f)
}

/// Whether a copy of `g` can replace a call: its entry block has no
/// predecessors (a copy's entry gets the call's block as its one), and
/// some block returns (to the code after the call).
pub(super) fn can_copy(g: &Function) -> bool {
    g.blocks[g.entry()].preds.is_empty()
        && g.layout
            .iter()
            .any(|&b| matches!(g.blocks[b].term, Some(Terminator::Return(_))))
}

/// The calls `f` makes of function `callee`, with their blocks.
fn calls_of(f: &Function, callee: FuncRef) -> impl Iterator<Item = (Block, Inst)> + '_ {
    f.calls()
        .filter(move |&(_, _, g)| g == callee)
        .map(|(b, i, _)| (b, i))
}

/// Unrolls every small recursive function of `m` [`ROUNDS`] levels
/// ([`ARITHMETIC_ROUNDS`] where it touches no array and the copies and
/// guards all fit): its
/// calls of the small functions on its cycle of the call graph — itself,
/// and those of a mutual recursion (`even` and `odd`, a parser's `expr`,
/// `term` and `factor`) — become copies of their bodies as they were
/// before this pass.
pub fn unroll_recursion(m: &mut Module) {
    let (_, cycle) = inliner::bottom_up(&inliner::call_graph(m));
    let originals: Vec<Option<Function>> = (m.functions.iter().zip(&cycle))
        .map(|(f, c)| (c.is_some() && is_small(f)).then(|| f.clone()))
        .collect();
    // Every small function on a cycle whose calls can be guarded.
    let mut guards: Vec<Option<Guard>> = (originals.iter().enumerate())
        .map(|(k, f)| Guard::of(f.as_ref()?, k as FuncRef))
        .collect();
    // By cycle: its small functions, with their bodies before the pass.
    let mut members: FxHashMap<usize, Vec<(FuncRef, &Function)>> = FxHashMap::default();
    for (g, (c, original)) in cycle.iter().zip(&originals).enumerate() {
        if let (Some(c), Some(original)) = (c, original) {
            members
                .entry(*c)
                .or_default()
                .push((g as FuncRef, original));
        }
    }
    for (index, f) in m.functions.iter_mut().enumerate() {
        // A function too large to copy calls itself for more than a few
        // tests: guards that run its tests a second time where the call
        // goes on into the body (more often than not, in a backtracking
        // search that prunes) cost more than the calls they save (a
        // subset-sum search ran 18 % slower with `rem == 0` alone copied).
        let (Some(cycle_of_f), Some(_)) = (
            cycle[index].and_then(|c| members.get(&c)),
            &originals[index],
        ) else {
            continue;
        };
        // The functions of f's cycle whose calls can be guarded.
        let guarded: Vec<FuncRef> = (cycle_of_f.iter())
            .map(|&(g, _)| g)
            .filter(|&g| guards[g as usize].is_some())
            .collect();
        let mut guard_calls = |g: &mut Function, limit: usize| -> bool {
            let mut complete = true;
            for &h in &guarded {
                let guard = guards[h as usize].as_mut().expect("guarded");
                complete &= guard_calls_with_early_return(g, h, guard, limit);
            }
            complete
        };
        let called = |f: &Function| -> Vec<(FuncRef, &Function)> {
            (cycle_of_f.iter().copied())
                .filter(|&(g, _)| calls_of(f, g).next().is_some())
                .collect()
        };
        let partners = called(f);
        if partners.is_empty() {
            continue;
        }
        // A function that calls others of its cycle takes one round of
        // copies: each copy brings calls of every function of the cycle,
        // and a second round (even of self-calls only) added half again
        // to the compile time of three small mutual recursions.
        let unroll = |g: &mut Function, rounds: usize, limit: usize| -> bool {
            let mut complete = true;
            for _ in 0..rounds {
                complete &= unroll_once(g, &partners, limit);
            }
            complete
        };
        let self_only = partners.len() == 1 && partners[0].0 == index as FuncRef;
        // A function of many blocks takes one round: more grew a partition
        // count's compile time by a fifth for no more speed.
        let few_blocks = f.layout.len() <= MAX_CALLEE_BLOCKS;
        let rounds = if self_only && few_blocks { ROUNDS } else { 1 };
        let mut g = f.clone();
        let complete = unroll(&mut g, rounds, MAX_CALLER_SIZE);
        // A body of a few tests and arithmetic copies cheaply, and each
        // round halves the calls left in a tree recursion (fib's, a
        // partition count's): a third round ran them 10-20 % faster. Only
        // a whole one: a round cut short by the size limit leaves calls
        // without their guard (20 % slower). Copies that read and check
        // array elements grew the function more than the calls they
        // saved (14 % slower), as did a fourth round of any. The rounds
        // before it are the ones made above when they were whole (each
        // copy then fit under the lower limit, so under this one too).
        if self_only && few_blocks && complete && !uses_arrays(f) {
            let mut deeper = g.clone();
            let more = ARITHMETIC_ROUNDS - rounds;
            if unroll(&mut deeper, more, MAX_ARITHMETIC_SIZE)
                && guard_calls(&mut deeper, MAX_ARITHMETIC_SIZE)
            {
                *f = deeper;
                continue;
            }
        }
        guard_calls(&mut g, MAX_CALLER_SIZE);
        *f = g;
    }
}

/// Whether `f` takes, makes or touches an array.
fn uses_arrays(f: &Function) -> bool {
    let is_array = |v: Value| f.value_ty(v) == Ty::Array;
    f.params.iter().any(|&p| is_array(p))
        || f.layout.iter().flat_map(|&b| &f.blocks[b].insts).any(|&i| {
            let data = &f.insts[i];
            let mut operand_is_array = false;
            data.kind
                .for_each_operand(|v| operand_is_array |= is_array(v));
            data.result.is_some_and(is_array) || operand_is_array
        })
}

/// The most instructions and phis of one block of the entry tests, or of
/// an early return, that [`guard_calls_with_early_return`] copies to a
/// call site.
const MAX_GUARD_INSTS: usize = 4;
/// The most instructions and phis of all the entry tests together.
const MAX_GUARD_TEST_INSTS: usize = 10;
/// The most blocks of entry tests.
const MAX_GUARD_TESTS: usize = 4;

/// After unrolling: each remaining call of function `index` (`f` itself
/// or a function on its cycle) becomes that function's entry tests and
/// early returns ([`Guard`]), with the call left only on the other
/// paths —
/// `fib(x)` becomes `if x < 2 { x } else { fib(x) }`, and a partition
/// count's `p(n, k)` (`if n == 0 { return 1; } if n < 0 || k == 0 {
/// return 0; }`) both tests. About half the
/// calls a tree recursion makes end at such a return, each paying a
/// frame, a stack check and saved registers for nothing (a C compiler's
/// partial inlining does the same). The copied tests are repeated on
/// entry; they are pure and cannot fail, so running them twice changes
/// nothing (reads were tried too: no kernel gained).
/// Whether every call got its guard (`f` stays under `limit`).
fn guard_calls_with_early_return(
    f: &mut Function,
    index: FuncRef,
    guard: &mut Guard,
    limit: usize,
) -> bool {
    let sites: Vec<(Block, Inst)> = calls_of(f, index).collect();
    for &(block, call) in sites.iter().rev() {
        if size(f) > limit {
            f.resolve_aliases();
            return false;
        }
        // The copy's calls stand for this one in runtime error reports.
        let loc = f.insts[call].loc;
        for &c in &guard.calls {
            guard.stub.insts[c].loc = loc;
        }
        inline_call(f, block, call, &guard.stub, None);
    }
    f.resolve_aliases();
    true
}

/// What guards the calls of a function: a function that runs its entry
/// tests and early returns, and where they lead on calls it and returns
/// its result.
struct Guard {
    stub: Function,
    /// The stub's calls of the function.
    calls: Vec<Inst>,
}

impl Guard {
    /// The guard of function `index`, `f`, when its entry tests return at
    /// once somewhere.
    fn of(f: &Function, index: FuncRef) -> Option<Guard> {
        let tests = entry_guard(f)?;
        let (stub, calls) = call_stub(f, index, &tests);
        Some(Guard { stub, calls })
    }
}

/// A function's entry tests: the blocks from its entry on that only
/// compute a few pure values and branch, the blocks they branch to
/// that return at once, and the other blocks they branch to (where the
/// rest of the body begins).
struct EntryGuard {
    tests: Vec<Block>,
    returns: Vec<Block>,
    exits: Vec<Block>,
}

/// `f`'s entry tests, when some of them return at once. A block joins
/// the tests or the early returns only when every predecessor is a test
/// (so the tests form an acyclic region entered at the entry; blocks are
/// taken in layout order, which places a block after the blocks that
/// jump to it except along loops' back edges).
fn entry_guard(f: &Function) -> Option<EntryGuard> {
    let short = |b: Block| {
        size_of_block(f, b) <= MAX_GUARD_INSTS
            && (f.blocks[b].insts.iter()).all(|&i| f.insts[i].kind.is_removable_if_unused())
    };
    let is_test = |b: Block| match f.blocks[b].term {
        Some(Terminator::Branch {
            then_block,
            else_block,
            ..
        }) => then_block != else_block && short(b),
        Some(Terminator::Jump(_)) => short(b),
        _ => false,
    };
    let returns_at_once =
        |b: Block| short(b) && matches!(f.blocks[b].term, Some(Terminator::Return(_)));
    let entry = f.entry();
    if !f.blocks[entry].preds.is_empty() || !is_test(entry) {
        return None;
    }
    let mut guard = EntryGuard {
        tests: vec![entry],
        returns: Vec::new(),
        exits: Vec::new(),
    };
    let mut test_insts = size_of_block(f, entry);
    for &b in &f.layout[1..] {
        let preds = &f.blocks[b].preds;
        if !preds.iter().any(|p| guard.tests.contains(p)) {
            continue;
        }
        let only_from_tests = preds.iter().all(|p| guard.tests.contains(p));
        if only_from_tests && returns_at_once(b) {
            guard.returns.push(b);
        } else if only_from_tests
            && guard.tests.len() < MAX_GUARD_TESTS
            && test_insts + size_of_block(f, b) <= MAX_GUARD_TEST_INSTS
            && is_test(b)
        {
            test_insts += size_of_block(f, b);
            guard.tests.push(b);
        }
    }
    // A test that leads to no return (straight or through other tests)
    // only costs: it becomes part of the body.
    while let Some(k) = (1..guard.tests.len()).find(|&k| {
        !(f.successors(guard.tests[k]).iter())
            .any(|s| guard.tests.contains(s) || guard.returns.contains(s))
    }) {
        guard.tests.remove(k);
    }
    // The body starts where the tests lead on.
    for &t in &guard.tests {
        for s in f.successors(t) {
            if !guard.tests.contains(&s) && !guard.returns.contains(&s) && !guard.exits.contains(&s)
            {
                guard.exits.push(s);
            }
        }
    }
    (!guard.returns.is_empty() && !guard.exits.is_empty()).then_some(guard)
}

/// Phis and instructions of block `b`.
fn size_of_block(f: &Function, b: Block) -> usize {
    f.blocks[b].phis.len() + f.blocks[b].insts.len()
}

/// A function that runs `f`'s entry tests and early returns, and where
/// they lead on calls `f` itself and returns its result: inlined at a
/// call site, it guards the call. Returns the stub and its calls.
fn call_stub(f: &Function, index: FuncRef, guard: &EntryGuard) -> (Function, Vec<Inst>) {
    let mut stub = f.clone();
    let mut calls = Vec::new();
    for &exit in &guard.exits {
        let call = stub.insts.push(InstData {
            kind: InstKind::Call(index, f.params.clone()),
            result: None,
            loc: SrcLoc::default(),
        });
        let result = f.ret.map(|ty| {
            stub.values.push(ValueData {
                ty,
                def: ValueDef::Inst(call),
            })
        });
        stub.insts[call].result = result;
        let preds = (f.blocks[exit].preds.iter().copied())
            .filter(|p| guard.tests.contains(p))
            .collect();
        stub.blocks[exit] = BlockData {
            preds,
            phis: SmallVec::new(),
            insts: smallvec![call],
            term: Some(Terminator::Return(result)),
        };
        calls.push(call);
    }
    let in_stub =
        |b: &Block| guard.tests.contains(b) || guard.returns.contains(b) || guard.exits.contains(b);
    stub.layout = f.layout.iter().copied().filter(in_stub).collect();
    (stub, calls)
}

/// One round: every call of a partner `(g, original)` present when the
/// round starts becomes a copy of `original`, while `f` stays under
/// [`MAX_CALLER_SIZE`]. Whether every one did.
fn unroll_once(f: &mut Function, partners: &[(FuncRef, &Function)], limit: usize) -> bool {
    let sites: Vec<(Block, Inst, &Function)> = f
        .calls()
        .filter_map(|(b, i, g)| Some((b, i, partners.iter().find(|p| p.0 == g)?.1)))
        .collect();
    // Last site first: splitting a block moves the instructions after the
    // call, so earlier sites in the same block stay where they were found.
    let mut inlined_any = false;
    let mut complete = true;
    for &(block, call, original) in sites.iter().rev() {
        if size(f) + size(original) > limit {
            complete = false;
            continue;
        }
        // Instructions of the copy name the callee and this call.
        f.inline_sites.push(InlineSite {
            callee: original.name.clone(),
            call: f.insts[call].loc,
        });
        let site = f.inline_sites.len() as u32;
        inline_call(f, block, call, original, Some(site));
        inlined_any = true;
    }
    if inlined_any {
        f.resolve_aliases();
    }
    complete
}

/// Replaces `call` (in `block`) by a copy of `body`, whose instructions
/// get `SrcLoc::inlined` `site` when it is given (and keep theirs
/// otherwise). The body's own inline sites (calls expanded into it
/// before) are appended to `f`'s, the outermost of them now made at
/// `site`, so a copy of a copy still names every frame. The call's result
/// becomes an alias; the caller resolves aliases once at the end.
pub(super) fn inline_call(
    f: &mut Function,
    block: Block,
    call: Inst,
    body: &Function,
    site: Option<u32>,
) {
    debug_assert!(
        site.is_some() || body.inline_sites.is_empty(),
        "a copy without a site of its own has no sites to remap"
    );
    let InstKind::Call(_, args) = f.insts[call].kind.clone() else {
        unreachable!("inlining a call")
    };
    let result = f.insts[call].result;
    // Site `k` of the body becomes site `base + k` of `f`.
    let base = f.inline_sites.len() as u32;
    if let Some(site) = site {
        for s in &body.inline_sites {
            let inlined = match s.call.inlined {
                0 => site,
                k => base + k,
            };
            f.inline_sites.push(InlineSite {
                callee: s.callee.clone(),
                call: SrcLoc { inlined, ..s.call },
            });
        }
    }
    let after = split_after(f, block, call);
    let mut copy = BodyCopy::new(f, body, &args);
    let returns = copy.fill(f, body, after, site.map(|s| (s, base)));
    f.blocks[block].term = Some(Terminator::Jump(copy.entry));
    f.blocks[copy.entry].preds.push(block);
    let at = f.layout.iter().position(|&b| b == block).expect("laid out") + 1;
    let copied = body.layout.iter().map(|&b| copy.blocks[b].expect("copied"));
    let new_blocks: Vec<Block> = copied.chain(std::iter::once(after)).collect();
    f.layout.splice(at..at, new_blocks);
    if let Some(r) = result {
        let value = match returns[..] {
            [single] => single,
            _ => f.add_phi(after, f.value_ty(r), returns.into_iter().collect()),
        };
        f.values[r].def = ValueDef::Alias(value);
    }
}

/// Moves what follows `call` in `block` (and the terminator) to a new
/// block, drops the call, and returns the new block. Successors see the
/// new block as their predecessor, in the same position.
fn split_after(f: &mut Function, block: Block, call: Inst) -> Block {
    let after = f.blocks.push(BlockData::default());
    let data = &mut f.blocks[block];
    let k = data
        .insts
        .iter()
        .position(|&i| i == call)
        .expect("in block");
    let tail: SmallVec<[Inst; 4]> = data.insts.drain(k..).skip(1).collect();
    let term = data.term.take().expect("terminated");
    for succ in term.successors() {
        f.replace_pred(succ, block, after);
    }
    f.blocks[after].insts = tail;
    f.blocks[after].term = Some(term);
    after
}

/// The blocks and values of one copy of a callee, mapped into the caller.
struct BodyCopy {
    blocks: SecondaryMap<Block, Option<Block>>,
    values: SecondaryMap<Value, Option<Value>>,
    entry: Block,
}

impl BodyCopy {
    /// Creates the copy's blocks, phis and instruction results (operands
    /// still the callee's; [`BodyCopy::fill`] maps them), with the
    /// callee's parameters standing for the call's arguments.
    fn new(f: &mut Function, body: &Function, args: &[Value]) -> Self {
        f.blocks.reserve(body.layout.len());
        f.values.reserve(body.values.len());
        f.insts.reserve(body.insts.len());
        let mut blocks = SecondaryMap::with_capacity(body.blocks.len(), None);
        for &b in &body.layout {
            blocks[b] = Some(f.blocks.push(BlockData::default()));
        }
        let mut values = SecondaryMap::with_capacity(body.values.len(), None);
        for (&param, &arg) in body.params.iter().zip(args) {
            values[param] = Some(arg);
        }
        let entry = blocks[body.entry()].expect("copied");
        BodyCopy {
            blocks,
            values,
            entry,
        }
    }

    fn block(&self, b: Block) -> Block {
        self.blocks[b].expect("a laid-out block of the callee")
    }

    /// Copies every block's phis, instructions and terminator into `f`;
    /// returns go to `after`. Returns the returned values, one per edge
    /// into `after`, in its predecessor order.
    fn fill(
        &mut self,
        f: &mut Function,
        body: &Function,
        after: Block,
        site: Option<(u32, u32)>,
    ) -> Vec<Value> {
        // Definitions first (a phi may use a value defined further on).
        for &b in &body.layout {
            let nb = self.block(b);
            for &phi in &body.blocks[b].phis {
                let v = f.add_phi(nb, body.value_ty(phi), SmallVec::new());
                self.values[phi] = Some(v);
            }
            for &inst in &body.blocks[b].insts {
                let data = &body.insts[inst];
                // Only instructions that can fail have locations; those
                // of the body's own copies move to the remapped sites.
                let loc = match site {
                    Some((_, base)) if data.loc.inlined > 0 => SrcLoc {
                        inlined: base + data.loc.inlined,
                        ..data.loc
                    },
                    Some((inlined, _)) if data.loc != SrcLoc::default() => SrcLoc {
                        inlined,
                        ..data.loc
                    },
                    _ => data.loc,
                };
                let ni = f.insts.push(InstData {
                    kind: data.kind.clone(),
                    result: None,
                    loc,
                });
                if let Some(r) = data.result {
                    let v = f.values.push(ValueData {
                        ty: body.value_ty(r),
                        def: ValueDef::Inst(ni),
                    });
                    f.insts[ni].result = Some(v);
                    self.values[r] = Some(v);
                }
                f.blocks[nb].insts.push(ni);
            }
        }
        let blocks = &self.blocks;
        let block = |b: Block| blocks[b].expect("a laid-out block of the callee");
        let values = &mut self.values;
        let mut map = |f: &mut Function, v: Value| -> Value {
            let v = body.resolve(v);
            if let Some(nv) = values[v] {
                return nv;
            }
            // Only `Undef` is defined nowhere in the layout.
            let nv = f.values.push(ValueData {
                ty: body.value_ty(v),
                def: ValueDef::Undef,
            });
            values[v] = Some(nv);
            nv
        };
        let mut returns = Vec::new();
        for &b in &body.layout {
            let nb = block(b);
            let data = &body.blocks[b];
            f.blocks[nb].preds = data.preds.iter().map(|&p| block(p)).collect();
            for (k, &phi) in data.phis.iter().enumerate() {
                let new_phi = f.blocks[nb].phis[k];
                for &a in body.phi_args(phi) {
                    let na = map(f, a);
                    f.phi_args_mut(new_phi).expect("a copied phi").push(na);
                }
            }
            for k in 0..data.insts.len() {
                let ni = f.blocks[nb].insts[k];
                let mut kind = std::mem::replace(&mut f.insts[ni].kind, InstKind::Clock);
                kind.map_operands(|v| map(f, v));
                f.insts[ni].kind = kind;
            }
            let term = match data.term.clone().expect("terminated") {
                Terminator::Return(v) => {
                    if let Some(v) = v {
                        returns.push(map(f, v));
                    }
                    f.blocks[after].preds.push(nb);
                    Terminator::Jump(after)
                }
                other => {
                    let mut term = other.map_blocks(&block);
                    term.map_operands(|v| map(f, v));
                    term
                }
            };
            f.blocks[nb].term = Some(term);
        }
        returns
    }
}
