//! Loops the translator tests at their bottom (`-O2`).
//!
//! Our IR keeps loops as SSA construction builds them: a header that tests
//! and branches to the body or the exit, and a latch that jumps back to
//! the header. Run as is, every iteration takes two branches (the latch's
//! jump and the header's test). A rotated loop repeats the header's test
//! at the end of each latch and branches straight to the body or the exit,
//! so an iteration takes one; the header itself runs once, as the guard
//! before the first iteration.
//!
//! Rotation happens in the translator, on Cranelift IR: our IR, and with
//! it every fact `ir::bounds` derives from the header's test, stays as it
//! is. The cost is that the body and the exit get a second predecessor, so
//! every header value (phi or instruction result) used beyond the header
//! reaches them as a block parameter: from the header on entry, from the
//! latch's copy of the header afterwards. The translator reads a header
//! value from the body's or the exit's parameter in the blocks those
//! dominate, which is why every use beyond the header must lie in one of
//! them.

use super::dom::DomTree;
use super::loops::{Loop, Loops};
use super::*;
use crate::entity::SecondaryMap;

/// Header instructions a latch may repeat: a loop's test and what feeds
/// it, never anything that calls, stores or fails.
const MAX_HEADER_INSTS: usize = 6;

/// A loop whose latches repeat its header's test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RotatedLoop {
    pub header: Block,
    /// The header's two targets, each with the header as its only
    /// predecessor.
    pub body: Block,
    pub exit: Block,
    /// Header values used in the blocks `body` dominates, in value order:
    /// `body`'s added parameters.
    pub body_values: Vec<Value>,
    /// Likewise for `exit`.
    pub exit_values: Vec<Value>,
}

/// The loops of `f` to rotate, in the layout order of their headers.
pub fn rotations(f: &Function, dom: &DomTree, loops: &Loops) -> Vec<RotatedLoop> {
    let headers: Vec<RotatedLoop> = f
        .layout
        .iter()
        .filter(|&&h| {
            loops
                .headed_by(h)
                .is_some_and(|l| latches_jump_back(f, loops, l))
        })
        .filter_map(|&h| with_rotatable_shape(f, h))
        .collect();
    if headers.is_empty() {
        return headers;
    }
    with_values_used_beyond(f, dom, headers)
}

/// The loop `header` heads, its values not yet collected, if the header
/// has the shape: a branch to two blocks it alone enters, after a few
/// instructions a latch can repeat.
fn with_rotatable_shape(f: &Function, header: Block) -> Option<RotatedLoop> {
    let data = &f.blocks[header];
    let Some(Terminator::Branch {
        then_block: body,
        else_block: exit,
        ..
    }) = data.term
    else {
        return None;
    };
    let entered_only_from_header =
        |b: Block| b != header && f.blocks[b].preds[..] == [header] && f.blocks[b].phis.is_empty();
    let rotatable = data.preds.len() >= 2
        && body != exit
        && entered_only_from_header(body)
        && entered_only_from_header(exit)
        && data.insts.len() <= MAX_HEADER_INSTS
        && data.insts.iter().all(|&i| is_repeatable(&f.insts[i].kind));
    rotatable.then(|| RotatedLoop {
        header,
        body,
        exit,
        body_values: Vec::new(),
        exit_values: Vec::new(),
    })
}

/// Instructions that cost little to repeat and have no effect but their
/// result: no calls, stores, checks or failures.
fn is_repeatable(kind: &InstKind) -> bool {
    match kind {
        InstKind::Binary(op, ..) => !op.can_fail(),
        InstKind::Copy(_) | InstKind::LoadGlobal(_) => true,
        other => other.is_pure(),
    }
}

/// Whether every back edge of loop `l` is a plain jump (the latch to
/// append the test to).
fn latches_jump_back(f: &Function, loops: &Loops, l: Loop) -> bool {
    let data = &loops.loops[l];
    (data.latches.iter()).all(|&p| f.blocks[p].term == Some(Terminator::Jump(data.header)))
}

/// `loops` with the header values their bodies and exits use, those
/// whose every use beyond the header lies in one of them. One walk over
/// the function for all loops.
fn with_values_used_beyond(
    f: &Function,
    dom: &DomTree,
    loops: Vec<RotatedLoop>,
) -> Vec<RotatedLoop> {
    let mut defined_in: SecondaryMap<Value, Option<u32>> = SecondaryMap::with_default(None);
    for (i, l) in loops.iter().enumerate() {
        let h = &f.blocks[l.header];
        let results = h.insts.iter().filter_map(|&i| f.insts[i].result);
        for v in h.phis.iter().copied().chain(results) {
            defined_in[v] = Some(i as u32);
        }
    }
    let mut loops: Vec<Option<RotatedLoop>> = loops.into_iter().map(Some).collect();
    f.for_each_use(|block, v| {
        let Some(i) = defined_in[v] else { return };
        let slot = &mut loops[i as usize];
        let Some(l) = slot else { return };
        if block == l.header {
            return;
        }
        if dom.dominates(l.body, block) {
            l.body_values.push(v);
        } else if dom.dominates(l.exit, block) {
            l.exit_values.push(v);
        } else {
            *slot = None;
        }
    });
    let mut loops: Vec<RotatedLoop> = loops.into_iter().flatten().collect();
    for l in &mut loops {
        for values in [&mut l.body_values, &mut l.exit_values] {
            values.sort_unstable();
            values.dedup();
        }
    }
    loops
}
