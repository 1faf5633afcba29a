//! Ranges of int values known at compile time, for the passes that prove
//! accesses in bounds (`ir::bounds`) or decide a loop copy's guards
//! (`ir::version`): interval arithmetic over the SSA form.
//!
//! A value's range is known when it is a constant; the length of an
//! array whose length `ir::alias` knows; the counter of a counted loop
//! that steps by one (`ir::loops`), from its start to the value that ends
//! the loop — or, read within the loop's body, to the last value the body
//! sees (the header's test holds there); or a sum, difference or multiple
//! by a constant of such values, none of which can wrap. Where it is read
//! at a block, a range is narrowed by the comparisons with constants that
//! branch to that block: a block entered only through the true edge of
//! `c + 3 < 7` sees `c <= 3` (the conditions of the dominators whose edge
//! into the path to the block is that block's only way in). A join's phi
//! (of a few edges, no back edge) lies in the union of its arguments'
//! ranges, each read at the end of its edge (a clamp, `if x < lo { lo }
//! else if x > hi { hi } else { x }`, in `[lo, hi]`); a select in the
//! union of its arms', each narrowed by the condition that picks it; `min`
//! and `max` of two ranges in the range of the ends' `min` and `max`.
//!
//! Architecture Invariant: a range holds for every value the program can
//! compute where it is read; nothing here assumes a check passed.

use super::dom::DomTree;
use super::loops::Loops;
use super::*;

/// Definitions a range looks through, at most.
const MAX_DEPTH: usize = 6;

/// The most edges of a join whose phis' ranges are the union of their
/// arguments' (a clamp's has three).
const MAX_JOIN_EDGES: usize = 4;

/// How many blocks up the dominator tree the conditions are collected.
const MAX_CONDITION_WALK: usize = 64;

/// Ranges of one function's values, with its loops (and dominator tree,
/// for conditions).
pub struct Ranges<'a> {
    f: &'a Function,
    loops: &'a Loops,
    dom: Option<&'a DomTree>,
}

/// What a condition on the way to a block says of a value: it lies in
/// `[lo, hi]` there.
type Fact = (Value, i64, i64);

/// A block values are read at, and the facts the conditions that lead to
/// it give ([`Ranges::place`]).
pub struct Place {
    at: Block,
    facts: Vec<Fact>,
}

impl<'a> Ranges<'a> {
    /// Ranges in `f`, whose loops are `loops`; with `dom`, narrowed by the
    /// conditions that lead to the block they are read at.
    pub fn new(f: &'a Function, loops: &'a Loops, dom: Option<&'a DomTree>) -> Self {
        Ranges { f, loops, dom }
    }

    /// The range of `v` wherever it is read (no length, no condition).
    pub fn anywhere(&self, v: Value) -> Option<(i64, i64)> {
        self.range(None, &[], v, MAX_DEPTH)
    }

    /// Where values are read: block `at`, with what the conditions that
    /// lead to it say (collected once for every value read there).
    pub fn place(&self, at: Block) -> Place {
        Place {
            at,
            facts: self.conditions_at(at),
        }
    }

    /// The range of `v` read at (the start of) `place`'s block.
    pub fn at(&self, place: &Place, v: Value) -> Option<(i64, i64)> {
        self.range(Some(place.at), &place.facts, v, MAX_DEPTH)
    }

    /// Whether `a c b` holds for all values of `a` and `b` read at `place`.
    pub fn decides(&self, place: &Place, c: Cmp, a: Value, b: Value) -> bool {
        let (Some((a_lo, a_hi)), Some((b_lo, b_hi))) = (self.at(place, a), self.at(place, b))
        else {
            return false;
        };
        match c {
            Cmp::Lt => a_hi < b_lo,
            Cmp::Le => a_hi <= b_lo,
            Cmp::Gt => a_lo > b_hi,
            Cmp::Ge => a_lo >= b_hi,
            Cmp::Eq | Cmp::Ne => false,
        }
    }

    fn range(
        &self,
        at: Option<Block>,
        facts: &[Fact],
        v: Value,
        depth: usize,
    ) -> Option<(i64, i64)> {
        let f = self.f;
        let v = f.resolve(v);
        if let Some(n) = f.int_constant(v) {
            return Some((n, n));
        }
        let own = depth
            .checked_sub(1)
            .and_then(|depth| self.structural((at, facts), v, depth));
        narrow(own, facts, v)
    }

    /// The range of `v` from its definition (before the conditions), read
    /// at `at` where `facts` hold.
    fn structural(
        &self,
        read: (Option<Block>, &[Fact]),
        v: Value,
        depth: usize,
    ) -> Option<(i64, i64)> {
        let ((at, facts), f, loops) = (read, self.f, self.loops);
        let range = |x| self.range(at, facts, x, depth);
        if let Some(b) = f.phi_block(v) {
            let Some(l) = loops.innermost(b).filter(|&l| loops.loops[l].header == b) else {
                return self.join(v, b, depth);
            };
            let c = loops
                .counted(f, l)
                .filter(|c| c.counter.phi == v && c.counter.steps_by_one)?;
            let ((init_lo, init_hi), (_, bound_hi)) = (range(c.counter.init)?, range(c.bound)?);
            // The header's test holds in the body (which every block of
            // the loop but the header lies in).
            let in_body = at.is_some_and(|at| at != b && loops.contains(l, at));
            let last = bound_hi.checked_add(i64::from(c.inclusive) - i64::from(in_body))?;
            return Some((init_lo, init_hi.max(last)));
        }
        match *f.def_kind(v)? {
            InstKind::ArrayLen(array) if at.is_some() => f.known_length(array).map(|n| (n, n)),
            InstKind::Binary(BinaryOp::IAdd, a, b) => {
                let ((a_lo, a_hi), (b_lo, b_hi)) = (range(a)?, range(b)?);
                Some((a_lo.checked_add(b_lo)?, a_hi.checked_add(b_hi)?))
            }
            InstKind::Binary(BinaryOp::ISub, a, b) => {
                let ((a_lo, a_hi), (b_lo, b_hi)) = (range(a)?, range(b)?);
                Some((a_lo.checked_sub(b_hi)?, a_hi.checked_sub(b_lo)?))
            }
            InstKind::Binary(BinaryOp::IMul, a, b) => {
                let (k, x) = match (f.int_constant(a), f.int_constant(b)) {
                    (Some(k), _) => (k, b),
                    (_, Some(k)) => (k, a),
                    _ => return None,
                };
                let (lo, hi) = range(x)?;
                let (p, q) = (lo.checked_mul(k)?, hi.checked_mul(k)?);
                Some((p.min(q), p.max(q)))
            }
            InstKind::Binary(op @ (BinaryOp::IMin | BinaryOp::IMax), a, b) => {
                let ((a_lo, a_hi), (b_lo, b_hi)) = (range(a)?, range(b)?);
                Some(match op {
                    BinaryOp::IMin => (a_lo.min(b_lo), a_hi.min(b_hi)),
                    _ => (a_lo.max(b_lo), a_hi.max(b_hi)),
                })
            }
            InstKind::Select {
                cond,
                if_true,
                if_false,
            } => {
                let at = at?;
                let arm = |value: Value, holds: bool| {
                    let mut facts = facts.to_vec();
                    self.add_condition(&mut facts, at, cond, holds);
                    self.range(Some(at), &facts, value, depth)
                };
                let ((t_lo, t_hi), (e_lo, e_hi)) = (arm(if_true, true)?, arm(if_false, false)?);
                Some((t_lo.min(e_lo), t_hi.max(e_hi)))
            }
            _ => None,
        }
    }

    /// The range of phi `v` of block `b`, which no back edge enters: the
    /// union of its arguments' ranges, each read at the end of its edge's
    /// predecessor (where that block's conditions hold). Needs the
    /// dominator tree, for those conditions.
    fn join(&self, v: Value, b: Block, depth: usize) -> Option<(i64, i64)> {
        let (f, dom) = (self.f, self.dom?);
        let preds = &f.blocks[b].preds;
        if preds.len() > MAX_JOIN_EDGES || preds.iter().any(|&p| dom.dominates(b, p)) {
            return None;
        }
        // A join costs two levels of depth: joins of joins multiply the
        // walks for conditions.
        let depth = depth.checked_sub(1)?;
        let mut joined: Option<(i64, i64)> = None;
        for (&p, &a) in preds.iter().zip(f.phi_args(v)) {
            let facts = self.conditions_at(p);
            let (lo, hi) = self.range(Some(p), &facts, a, depth)?;
            joined = Some(joined.map_or((lo, hi), |(l, h)| (l.min(lo), h.max(hi))));
        }
        joined
    }

    /// What the comparisons with constants that lead to `at` say: for
    /// each dominator `d` of `at` whose branch's edge to the next block on
    /// the way down is that block's only way in, the branch's condition
    /// (or its negation, on the false edge).
    fn conditions_at(&self, at: Block) -> Vec<Fact> {
        let mut facts = Vec::new();
        let Some(dom) = self.dom else {
            return facts;
        };
        let f = self.f;
        let mut below = at;
        for _ in 0..MAX_CONDITION_WALK {
            let Some(d) = dom.idom(below) else { break };
            if let Some(Terminator::Branch {
                cond,
                then_block,
                else_block,
            }) = f.blocks[d].term
            {
                let only_from_d = f.blocks[below].preds[..] == [d];
                if only_from_d && then_block != else_block {
                    if below == then_block {
                        self.add_condition(&mut facts, at, cond, true);
                    } else if below == else_block {
                        self.add_condition(&mut facts, at, cond, false);
                    }
                }
            }
            below = d;
        }
        facts
    }

    /// Records what `cond` (a comparison of a value, or of a value plus a
    /// constant, with a constant) being `holds` says of that value.
    fn add_condition(&self, facts: &mut Vec<Fact>, at: Block, cond: Value, holds: bool) {
        let f = self.f;
        let Some(kind) = f.def_kind(f.resolve(cond)) else {
            return;
        };
        let (a, b, c) = match *kind {
            InstKind::Binary(BinaryOp::ICmp(c), a, b) => (a, b, c),
            // Both sides of `p && q` hold where it does; neither of `p || q`
            // where it does not.
            InstKind::Binary(BinaryOp::And, p, q) if holds => {
                return [p, q]
                    .into_iter()
                    .for_each(|x| self.add_condition(facts, at, x, true));
            }
            InstKind::Binary(BinaryOp::Or, p, q) if !holds => {
                return [p, q]
                    .into_iter()
                    .for_each(|x| self.add_condition(facts, at, x, false));
            }
            _ => return,
        };
        let (x, c, n) = match (f.int_constant(a), f.int_constant(b)) {
            (None, Some(n)) => (f.resolve(a), c, n),
            (Some(n), None) => (f.resolve(b), c.swapped(), n),
            _ => return,
        };
        let c = if holds { c } else { c.negated() };
        // `y + k c n` is `y c n - k` where `y + k` cannot wrap.
        let (x, n) = match f.def_kind(x) {
            Some(&InstKind::Binary(BinaryOp::IAdd, y, k)) => match f.int_constant(k) {
                Some(k) if self.adds_without_wrap(at, y, k) => (f.resolve(y), n.checked_sub(k)),
                _ => (x, Some(n)),
            },
            _ => (x, Some(n)),
        };
        let Some(n) = n else { return };
        let (lo, hi) = match c {
            Cmp::Lt => (i64::MIN, n.checked_sub(1)),
            Cmp::Le => (i64::MIN, Some(n)),
            Cmp::Gt => (n.saturating_add(1), Some(i64::MAX)),
            Cmp::Ge => (n, Some(i64::MAX)),
            Cmp::Eq => (n, Some(n)),
            Cmp::Ne => return,
        };
        if let Some(hi) = hi {
            facts.push((x, lo, hi));
        }
    }
}

impl Ranges<'_> {
    /// Whether `y + k` lies within the ints for every `y` read at `at`
    /// (its range before any condition).
    fn adds_without_wrap(&self, at: Block, y: Value, k: i64) -> bool {
        self.range(Some(at), &[], y, MAX_DEPTH)
            .is_some_and(|(lo, hi)| lo.checked_add(k).is_some() && hi.checked_add(k).is_some())
    }
}

/// `range` narrowed by the facts about `v`; `None` unless both ends are
/// bounded by one or the other.
fn narrow(range: Option<(i64, i64)>, facts: &[Fact], v: Value) -> Option<(i64, i64)> {
    let mut bounds = range;
    for &(x, lo, hi) in facts {
        if x != v {
            continue;
        }
        let (a, b) = bounds.unwrap_or((i64::MIN, i64::MAX));
        bounds = Some((a.max(lo), b.min(hi)));
    }
    bounds.filter(|&(lo, hi)| lo > i64::MIN && hi < i64::MAX && lo <= hi)
}
