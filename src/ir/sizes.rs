//! Interprocedural array lengths (`-O2`, whole programs): when every
//! call of a function passes arrays of one constant length for a
//! parameter, `len` of that parameter is the constant; when every return
//! of a function returns arrays of one constant length, so is `len` of
//! its calls' results. It is `ir::arguments`' propagation for the one
//! property of an array that never changes: its length. A vector passed
//! through helpers (`axpy(y, h, k)`, `deriv(s)`) then has a constant
//! length inside them, its loops a constant trip count (`ir::unroll`)
//! and its accesses constant indices (`ir::scalars`).
//!
//! Only lengths of at most `scalars::MAX_ELEMENTS` are folded: they are
//! what a constant buys something for (a loop to unroll, elements to make
//! variables). A longer array's `len` stays a read, which the bounds-check
//! prover compares loop bounds with (`for i in 0..len(text)` proves
//! `text[i]`; a constant bound would not).
//!
//! The lengths are solved optimistically, as a fixpoint over the whole
//! program: a parameter no call has reached yet, or a result no return
//! has, is "not seen" and agrees with any length (so a recursion that
//! passes its vector on, or a step function whose result flows back into
//! its argument through a loop's phi, keeps its length); a length two
//! places disagree on, or one not known when compiled, "varies". A
//! function nothing calls is left alone.

use super::*;
use crate::entity::SecondaryMap;

/// What is known of the length of some arrays.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Length {
    /// No array seen yet.
    Unseen,
    Known(i64),
    Varies,
}

impl Length {
    fn meet(self, other: Length) -> Length {
        match (self, other) {
            (l, Length::Unseen) | (Length::Unseen, l) => l,
            (Length::Known(a), Length::Known(b)) if a == b => self,
            _ => Length::Varies,
        }
    }
}

/// Folds `len` of parameters and call results of constant length.
pub fn fold_lengths(m: &mut Module) {
    let (solved, last) = solve(m);
    for (k, last) in last.into_iter().enumerate() {
        let f = m.function(k);
        let lens: Vec<(Inst, Value)> = (f.layout.iter())
            .flat_map(|&b| f.blocks[b].insts.iter().copied())
            .filter_map(|i| match f.insts[i].kind {
                InstKind::ArrayLen(a) => Some((i, a)),
                _ => None,
            })
            .collect();
        if lens.is_empty() {
            continue;
        }
        let lengths = last.unwrap_or_else(|| lengths_in(f, &solved, k));
        let folds: Vec<(Inst, i64)> = (lens.into_iter())
            .filter_map(|(i, a)| match lengths[a] {
                Length::Known(n) if n <= scalars::MAX_ELEMENTS => Some((i, n)),
                _ => None,
            })
            .collect();
        let f = m.function_mut(k);
        for (i, n) in folds {
            f.insts[i].kind = InstKind::IConst(n);
        }
    }
}

/// The lengths of every function's array parameters and results.
struct Solved {
    params: Vec<Vec<Length>>,
    results: Vec<Length>,
    /// By function: some call of it exists.
    called: Vec<bool>,
}

/// Solves the lengths; also returns, for each function whose calls or
/// returns the solution depends on, its values' lengths under it.
fn solve(m: &Module) -> (Solved, Vec<Option<SecondaryMap<Value, Length>>>) {
    let count = m.functions.len();
    // Only calls' arguments and returned arrays feed the solution.
    let feeds: Vec<bool> = (0..=count)
        .map(|k| {
            let f = m.function(k);
            f.ret == Some(Ty::Array) || f.calls().next().is_some()
        })
        .collect();
    let mut last: Vec<Option<SecondaryMap<Value, Length>>> = (0..=count).map(|_| None).collect();
    let mut called = vec![false; count];
    for k in 0..=count {
        for (_, _, g) in m.function(k).calls() {
            called[g as usize] = true;
        }
    }
    let mut solved = Solved {
        params: (m.functions.iter())
            .map(|f| vec![Length::Unseen; f.params.len()])
            .collect(),
        results: vec![Length::Unseen; count],
        called,
    };
    // Each length only falls (Unseen, Known, Varies), so this ends.
    loop {
        let mut params = solved.params.clone();
        let mut results = solved.results.clone();
        for k in (0..=count).filter(|&k| feeds[k]) {
            let f = m.function(k);
            let lengths = lengths_in(f, &solved, k);
            for &b in &f.layout {
                for &i in &f.blocks[b].insts {
                    if let InstKind::Call(g, ref args) = f.insts[i].kind {
                        for (p, &a) in args.iter().enumerate() {
                            let at = &mut params[g as usize][p];
                            *at = at.meet(lengths[a]);
                        }
                    }
                }
                // The top-level code (`k == count`) has no result.
                let result = results.get_mut(k);
                if let (Some(r), Some(Terminator::Return(Some(v)))) = (result, &f.blocks[b].term) {
                    *r = r.meet(lengths[*v]);
                }
            }
            last[k] = Some(lengths);
        }
        if params == solved.params && results == solved.results {
            return (solved, last);
        }
        solved.params = params;
        solved.results = results;
    }
}

/// The length of each array value of function `k` given `solved`: the
/// greatest fixpoint, from "not seen" everywhere down (values on a cycle
/// of phis agree with what enters it). Values of other types vary.
fn lengths_in(f: &Function, solved: &Solved, k: usize) -> SecondaryMap<Value, Length> {
    let mut lengths = SecondaryMap::with_capacity(f.values.len(), Length::Varies);
    let arrays: Vec<Value> = (f.values.iter())
        .filter(|(_, data)| data.ty == Ty::Array)
        .map(|(v, _)| v)
        .collect();
    for &v in &arrays {
        lengths[v] = Length::Unseen;
    }
    let mut changed = true;
    while changed {
        changed = false;
        for &v in &arrays {
            let l = length_of(f, solved, k, &lengths, v);
            if l != lengths[v] {
                lengths[v] = l;
                changed = true;
            }
        }
    }
    lengths
}

fn length_of(
    f: &Function,
    solved: &Solved,
    k: usize,
    lengths: &SecondaryMap<Value, Length>,
    v: Value,
) -> Length {
    let ValueDef::Inst(i) = f.values[v].def else {
        return match f.values[v].def {
            ValueDef::Param(p) if solved.called.get(k) == Some(&true) => {
                solved.params[k][p as usize]
            }
            ValueDef::Phi(_) => {
                (f.phi_args(v).iter()).fold(Length::Unseen, |l, &a| l.meet(lengths[a]))
            }
            _ => Length::Varies,
        };
    };
    let kind = &f.insts[i].kind;
    // `[0.0; len(v)]` is as long as `v`.
    if let &InstKind::NewArray { len, .. } = kind {
        if let Some(&InstKind::ArrayLen(a)) = f.def_kind(len) {
            return lengths[a];
        }
    }
    match *kind {
        InstKind::EmptyArray => Length::Known(0),
        InstKind::Call(g, _) => solved.results[g as usize],
        InstKind::Select {
            if_true, if_false, ..
        } => lengths[if_true].meet(lengths[if_false]),
        ref made => lengths::made_with_length(f, made).map_or(Length::Varies, Length::Known),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_meet_as_a_lattice() {
        use Length::*;
        assert_eq!(Unseen.meet(Known(4)), Known(4));
        assert_eq!(Known(4).meet(Known(4)), Known(4));
        assert_eq!(Known(4).meet(Known(3)), Varies);
        assert_eq!(Varies.meet(Unseen), Varies);
    }
}
