//! Switch formation (`-O2`): an `if`/`else` chain that compares one int
//! value with a different constant at each step becomes one
//! [`Terminator::Switch`] — GCC's `if-to-switch` pass, LLVM's SimplifyCFG
//! folding value comparisons into a switch. The translator hands it to
//! Cranelift's `Switch` as one jump table, where the chain compared and
//! branched once per case it passed (an interpreter's dispatch on
//! opcodes).
//!
//! A chain starts at a block ending in `br (x == k), hit, miss` (or
//! `x != k`, its arms swapped) and goes on through `miss` while `miss`
//! has only that block as predecessor, no phis and no instructions but
//! constants and comparisons, and itself ends in a test of the same `x`
//! against a constant not tested before, whose `hit` is a block not yet
//! reached. A chain of at least [`MIN_CASES`] tests whose constants are
//! dense (the longest such start of it) becomes a switch in its first
//! block: the later tests' instructions move there (pure and unable to
//! fail; the comparisons then die), each `hit` becomes a case and the last
//! `miss` the default. When the tests after the first make such a chain
//! themselves, the switch starts at the second test and the first stays a
//! branch, as GCC leaves it: the case written first is often the frequent
//! one (an interpreter's `push`), and a branch on it is predicted apart
//! from the table's jump (two interpreters ran 6 % and 14 % faster, the
//! others within 3 %). A target with phis is reached through an empty
//! block of its own, since the switch passes no arguments.

use super::*;

/// Tests a chain needs to become a switch. A jump table costs a range
/// test, a load and an indirect jump, which the processors here predict
/// less well than a chain's branches: on opcodes drawn at random a table
/// ran 9-20 % slower than chains of 4 to 12 tests, and on a fixed random
/// sequence of 4096 replayed (which the branch predictor learns) more
/// than twice as slow — as gcc's own table is on the C version, 0.48 s
/// against 0.27 s without. On two interpreters with chains of 16 and 18
/// tests, over programs with loops, the table ran 17-24 % faster. From
/// eight tests on, a chain costs four or more compares on average.
const MIN_CASES: usize = 8;

/// The constants' range may be at most this many times their number: the
/// translator makes one table over the range, gaps going to the default.
/// A sparse chain (`'+'`, `'-'`, `'<'`, `'['`) is left as written: a
/// search by halves over it ran 10 % slower than the chain, whose
/// programmer put the frequent cases first (GCC's `if-to-switch`
/// likewise converts only chains that make a table).
pub const MAX_SPREAD: u64 = 2;

/// Forms the switches of `f`.
pub fn form_switches(f: &mut Function) {
    let mut formed = false;
    for head in f.layout.clone() {
        // A test a chain before took over has no terminator left.
        if f.blocks[head].term.is_none() || continues_chain(f, head) {
            continue;
        }
        if let Some(chain) = chain_from(f, head) {
            rewrite(f, without_first_test(f, head).unwrap_or(chain));
            formed = true;
        }
    }
    if formed {
        super::tidy::remove_dead_pure_insts(f);
    }
}

/// A block ending in a test of one value against a constant.
#[derive(Clone, Copy)]
struct Test {
    value: Value,
    constant: i64,
    hit: Block,
    miss: Block,
}

fn test_of(f: &Function, b: Block) -> Option<Test> {
    let Some(Terminator::Branch {
        cond,
        then_block,
        else_block,
    }) = f.blocks[b].term
    else {
        return None;
    };
    let Some(&InstKind::Binary(BinaryOp::ICmp(c), x, y)) = f.def_kind(cond) else {
        return None;
    };
    let (value, constant) = match (f.int_constant(x), f.int_constant(y)) {
        (None, Some(k)) => (f.resolve(x), k),
        (Some(k), None) => (f.resolve(y), k),
        _ => return None,
    };
    let (hit, miss) = match c {
        Cmp::Eq => (then_block, else_block),
        Cmp::Ne => (else_block, then_block),
        _ => return None,
    };
    (hit != miss).then_some(Test {
        value,
        constant,
        hit,
        miss,
    })
}

/// Whether `b` would be taken into the chain of its predecessor's test.
fn continues_chain(f: &Function, b: Block) -> bool {
    let &[p] = &f.blocks[b].preds[..] else {
        return false;
    };
    let (Some(before), Some(here)) = (test_of(f, p), test_of(f, b)) else {
        return false;
    };
    before.miss == b && before.value == here.value && holds_only_a_test(f, b)
}

fn holds_only_a_test(f: &Function, b: Block) -> bool {
    let data = &f.blocks[b];
    data.phis.is_empty()
        && (data.insts.iter()).all(|&i| {
            matches!(
                f.insts[i].kind,
                InstKind::IConst(_) | InstKind::BConst(_) | InstKind::Binary(BinaryOp::ICmp(_), ..)
            )
        })
}

struct Chain {
    head: Block,
    value: Value,
    /// Each case: its constant, its target and the block whose test led
    /// there (the target's predecessor until the rewrite).
    cases: Vec<(i64, Block, Block)>,
    /// The blocks after the head whose tests the switch takes over.
    tests: Vec<Block>,
    /// Where no case holds, and the block that went there.
    default: (Block, Block),
}

fn chain_from(f: &Function, head: Block) -> Option<Chain> {
    let first = test_of(f, head)?;
    let mut chain = Chain {
        head,
        value: first.value,
        cases: vec![(first.constant, first.hit, head)],
        tests: Vec::new(),
        default: (first.miss, head),
    };
    if !f.blocks[first.hit].phis.is_empty() {
        return None;
    }
    loop {
        let (next, from) = chain.default;
        if f.blocks[next].preds[..] != [from] || !holds_only_a_test(f, next) {
            break;
        }
        let Some(t) = test_of(f, next) else { break };
        let reached = |b: Block| chain.cases.iter().any(|&(_, to, _)| to == b);
        if t.value != chain.value
            || chain.cases.iter().any(|&(k, ..)| k == t.constant)
            || reached(t.hit)
            || reached(t.miss)
            || !f.blocks[t.hit].phis.is_empty()
        {
            break;
        }
        chain.cases.push((t.constant, t.hit, next));
        chain.tests.push(next);
        chain.default = (t.miss, next);
    }
    while !is_dense(&chain.cases) && chain.cases.len() > MIN_CASES {
        // The last test goes back to being the default.
        let (_, _, last) = chain.cases.pop().expect("more than MIN_CASES");
        chain.tests.pop();
        let (_, _, before) = *chain.cases.last().expect("more than MIN_CASES");
        chain.default = (last, before);
    }
    (chain.cases.len() >= MIN_CASES && is_dense(&chain.cases)).then_some(chain)
}

/// The chain after `head`'s test, if that one is a switch too, so that the
/// first test stays a branch (module docs). A chain that tests the first
/// constant again later is left whole: that case could never hold there.
fn without_first_test(f: &Function, head: Block) -> Option<Chain> {
    let first = test_of(f, head)?;
    let rest = chain_from(f, first.miss)?;
    (!rest.cases.iter().any(|&(k, ..)| k == first.constant)).then_some(rest)
}

fn is_dense(cases: &[(i64, Block, Block)]) -> bool {
    are_dense(cases.iter().map(|&(k, ..)| k))
}

/// Whether `constants` span at most [`MAX_SPREAD`] times their number.
pub fn are_dense(constants: impl Iterator<Item = i64> + Clone) -> bool {
    let count = constants.clone().count() as u64;
    let min = constants.clone().min().unwrap_or(0);
    let max = constants.max().unwrap_or(0);
    max.abs_diff(min).saturating_add(1) <= MAX_SPREAD.saturating_mul(count)
}

fn rewrite(f: &mut Function, chain: Chain) {
    let head = chain.head;
    for &b in &chain.tests {
        let insts = std::mem::take(&mut f.blocks[b].insts);
        f.blocks[head].insts.extend(insts);
        f.blocks[b].term = None;
        f.blocks[b].preds.clear();
    }
    f.layout.retain(|b| !chain.tests.contains(b));
    for &(_, to, from) in &chain.cases {
        f.replace_pred(to, from, head);
    }
    let (default, from) = chain.default;
    let default = if f.blocks[default].phis.is_empty() {
        f.replace_pred(default, from, head);
        default
    } else {
        let edge = f.blocks.push(BlockData::default());
        f.layout.push(edge);
        f.blocks[edge].preds.push(head);
        f.blocks[edge].term = Some(Terminator::Jump(default));
        f.replace_pred(default, from, edge);
        edge
    };
    f.blocks[head].term = Some(Terminator::Switch {
        value: chain.value,
        cases: chain.cases.iter().map(|&(k, to, _)| (k, to)).collect(),
        default,
    });
}
