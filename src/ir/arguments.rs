//! Interprocedural constant propagation of arguments (`-O2`, whole
//! programs; Callahan, Cooper, Kennedy and Torczon 1986, in its simplest
//! form): when every call of a function passes the same constant for a
//! parameter, the parameter is that constant, and the function's body
//! uses the constant instead. A program's sizes are usually top-level
//! `let`s passed down (`step(grid, next, rows, cols)`); as constants they
//! fold into the callee's arithmetic (`% cols` becomes a mask), its loop
//! bounds and its guards.
//!
//! What a call passes is a constant, a parameter of the caller passed
//! on (which is whatever the caller's callers pass: the values flow
//! through a worklist, each parameter falling at most twice, from "no
//! call seen" to a constant to "varies", so a chain of thousands of
//! functions passing a size down is one round), or anything else. A
//! recursive call that passes the parameter on unchanged agrees with any
//! constant; a function nothing calls is left alone. Folding after the
//! substitution can make an argument computed from a parameter (`n - 1`)
//! a constant too, so a few more rounds follow ([`ROUNDS`]).

use super::semantics::Const;
use super::*;
use rustc_hash::{FxHashMap, FxHashSet};

/// Rounds of substitution and folding, at most: each finds the
/// arguments the previous one's folding made constant. (Parameters
/// passed on unchanged need none: the worklist follows them.)
const ROUNDS: usize = 3;

/// What the calls of a function pass for one parameter.
#[derive(Clone, Copy, PartialEq)]
enum Passed {
    /// No call seen yet.
    Nothing,
    /// The same constant at every call.
    Constant(Const),
    /// Different values, or values not known before the run.
    Varies,
}

impl Passed {
    /// What the parameter is given also what one more call passes.
    fn meet(self, other: Passed) -> Passed {
        match (self, other) {
            (p, Passed::Nothing) | (Passed::Nothing, p) => p,
            (Passed::Constant(a), Passed::Constant(b)) if same(a, b) => self,
            _ => Passed::Varies,
        }
    }
}

/// Equal as values of the program: floats by their bits (`-0.0` is not
/// `0.0`, and a NaN is itself).
fn same(a: Const, b: Const) -> bool {
    match (a, b) {
        (Const::Float(x), Const::Float(y)) => x.to_bits() == y.to_bits(),
        _ => a == b,
    }
}

/// A parameter: its function's index and its position.
type Param = (usize, usize);

/// Makes every parameter that all calls pass the same constant for that
/// constant, in the function's body.
pub fn propagate_constant_arguments(m: &mut Module) {
    for _ in 0..ROUNDS {
        let constant = constant_parameters(m);
        if constant.is_empty() {
            return;
        }
        // By function (the list is sorted): its constant parameters.
        for run in constant.chunk_by(|a, b| a.0 .0 == b.0 .0) {
            let g = run[0].0 .0;
            let f = &mut m.functions[g];
            substitute(f, run.iter().map(|&((_, k), c)| (k, c)));
            // Fold what the constants make constant (`2 * r + 1`), so
            // that the next round and the passes after see it.
            super::tidy::fold_constants(f);
        }
    }
}

/// The parameters that every call passes one constant for, and which
/// their function still uses, with that constant.
fn constant_parameters(m: &Module) -> Vec<(Param, Const)> {
    let mut passed: FxHashMap<Param, Passed> = FxHashMap::default();
    // A caller's parameter passed on, to the parameters it reaches.
    let mut passed_on: FxHashMap<Param, Vec<Param>> = FxHashMap::default();
    for (caller, f) in m.all_functions().enumerate() {
        for (_, inst, g) in f.calls() {
            let InstKind::Call(_, args) = &f.insts[inst].kind else {
                unreachable!("calls() yields calls");
            };
            let g = g as usize;
            for (k, &arg) in args.iter().enumerate() {
                let arg = f.resolve(arg);
                let param = match f.values[arg].def {
                    ValueDef::Param(p) => Some(p as usize),
                    _ => None,
                };
                let what = match (f.constant(arg), param) {
                    (Some(c), _) => Passed::Constant(c),
                    // A recursive call passing the parameter on agrees.
                    (None, Some(p)) if (caller, p) == (g, k) => continue,
                    (None, Some(p)) => {
                        passed_on.entry((caller, p)).or_default().push((g, k));
                        Passed::Nothing
                    }
                    (None, None) => Passed::Varies,
                };
                let entry = passed.entry((g, k)).or_insert(Passed::Nothing);
                *entry = entry.meet(what);
            }
        }
    }
    // Parameters passed on: what reaches a caller's parameter reaches
    // the callee's, until nothing changes.
    let mut work: Vec<Param> = passed_on.keys().copied().collect();
    while let Some(from) = work.pop() {
        let value = passed.get(&from).copied().unwrap_or(Passed::Nothing);
        for &to in passed_on.get(&from).into_iter().flatten() {
            let entry = passed.entry(to).or_insert(Passed::Nothing);
            let met = entry.meet(value);
            if met != *entry {
                *entry = met;
                work.push(to);
            }
        }
    }
    let mut constant: Vec<(Param, Const)> = passed
        .into_iter()
        .filter_map(|(at, p)| match p {
            Passed::Constant(c) => Some((at, c)),
            _ => None,
        })
        .collect();
    constant.sort_unstable_by_key(|&(at, _)| at);
    // Only parameters still used (each function's uses scanned once).
    let mut used: Option<(usize, FxHashSet<Value>)> = None;
    constant.retain(|&((g, k), _)| {
        let f = &m.functions[g];
        if used.as_ref().is_none_or(|(of, _)| *of != g) {
            let mut values = FxHashSet::default();
            f.for_each_use(|_, u| {
                values.insert(f.resolve(u));
            });
            used = Some((g, values));
        }
        used.as_ref()
            .is_some_and(|(_, values)| values.contains(&f.params[k]))
    });
    constant
}

/// Replaces the uses of the parameters at the positions `constant` names
/// by their constants, made at the start of the entry block.
fn substitute(f: &mut Function, constant: impl Iterator<Item = (usize, Const)>) {
    let entry = f.entry();
    let mut by_param: FxHashMap<Value, Value> = FxHashMap::default();
    // Last parameter's constant first, as substituting them one at a
    // time in front of the block did.
    let constant: Vec<(usize, Const)> = constant.collect();
    for &(k, c) in constant.iter().rev() {
        let param = f.params[k];
        let value = f.push_inst(entry, InstKind::constant(c), f.value_ty(param));
        by_param.insert(param, value);
    }
    // The constants go first, before any use.
    let made = by_param.len();
    let insts = &mut f.blocks[entry].insts;
    insts.rotate_right(made);
    f.map_operands(|_, v| by_param.get(&v).copied().unwrap_or(v));
}
