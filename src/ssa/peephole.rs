//! The conservative, local IR optimizations Braun et al. §3.1 runs while
//! constructing SSA: constant folding (with exactly the run-time semantics
//! of `ir::semantics`) and arithmetic simplification. They look only at an
//! instruction and the definitions of its operands, never drop an
//! instruction with a side effect (calls stay in the block; only a pure
//! result is replaced), and never fold an operation that fails at run time.

use crate::ir::semantics::{eval_binary, eval_unary, exact_reciprocal, Const};
use crate::ir::*;

pub enum Simplified {
    /// Every operand was constant: the result.
    Folded(Const),
    /// The instruction equals one of its operands (`x + 0`).
    Same(Value),
    /// The instruction is a constant whatever its operands (`x - x`).
    Constant(Const),
    /// An equivalent, cheaper instruction (`0 - x` to `-x`).
    Rewritten(InstKind),
    /// `x + k` for a constant `k` (`(x + 2) - 1` to `x + 1`): the builder
    /// makes the constant.
    Offset(Value, i64),
    /// `x * r` for a float constant `r`: a division by a power of two as
    /// the multiplication by its exact reciprocal (`x / 2.0` to
    /// `x * 0.5`, a few cycles against a division's dozen or more).
    Scaled(Value, f64),
    Unchanged,
}

impl Simplified {
    /// What an instruction computing `kind` becomes: `Ok` the instruction
    /// to emit instead (a constant, a cheaper one, `x + k` or `x * r` with
    /// the constant `constant` makes), or `Err` the value it computes.
    pub fn apply(
        self,
        kind: InstKind,
        constant: impl FnOnce(Const) -> Value,
    ) -> Result<InstKind, Value> {
        Ok(match self {
            Simplified::Unchanged => kind,
            Simplified::Folded(c) | Simplified::Constant(c) => InstKind::constant(c),
            Simplified::Same(v) => return Err(v),
            Simplified::Rewritten(k) => k,
            Simplified::Offset(x, k) => {
                InstKind::Binary(BinaryOp::IAdd, x, constant(Const::Int(k)))
            }
            Simplified::Scaled(x, r) => {
                InstKind::Binary(BinaryOp::FMul, x, constant(Const::Float(r)))
            }
        })
    }
}

/// The unary operation defining `v`, if any.
fn unary_def(f: &Function, v: Value) -> Option<(UnaryOp, Value)> {
    match f.values[v].def {
        ValueDef::Inst(inst) => match f.insts[inst].kind {
            InstKind::Unary(op, a) => Some((op, a)),
            _ => None,
        },
        _ => None,
    }
}

pub fn simplify(f: &Function, kind: &InstKind) -> Simplified {
    match *kind {
        InstKind::Unary(op, a) => simplify_unary(f, op, a),
        InstKind::Binary(op, a, b) => simplify_binary(f, op, a, b),
        _ => Simplified::Unchanged,
    }
}

fn simplify_unary(f: &Function, op: UnaryOp, a: Value) -> Simplified {
    if let Some(c) = f.constant(a).and_then(|c| eval_unary(op, c)) {
        return Simplified::Folded(c);
    }
    // Double negation: -(-x), !!x.
    match (op, unary_def(f, a)) {
        (UnaryOp::INeg, Some((UnaryOp::INeg, x)))
        | (UnaryOp::FNeg, Some((UnaryOp::FNeg, x)))
        | (UnaryOp::Not, Some((UnaryOp::Not, x))) => Simplified::Same(x),
        _ => Simplified::Unchanged,
    }
}

fn is_int(c: Option<Const>, n: i64) -> bool {
    c == Some(Const::Int(n))
}

/// Float constants compared by bits, so that `-0.0` and `0.0` differ.
fn is_float(c: Option<Const>, x: f64) -> bool {
    matches!(c, Some(Const::Float(y)) if y.to_bits() == x.to_bits())
}

fn simplify_binary(f: &Function, op: BinaryOp, a: Value, b: Value) -> Simplified {
    use BinaryOp::*;
    use Simplified::*;
    let (ca, cb) = (f.constant(a), f.constant(b));
    if let (Some(x), Some(y)) = (ca, cb) {
        if let Some(c) = eval_binary(op, x, y) {
            return Folded(c);
        }
        return Unchanged;
    }
    let same = a == b;
    match op {
        IAdd if is_int(cb, 0) => Same(a),
        IAdd if is_int(ca, 0) => Same(b),
        ISub if is_int(cb, 0) => Same(a),
        ISub if same => Constant(Const::Int(0)),
        ISub if is_int(ca, 0) => Rewritten(InstKind::Unary(UnaryOp::INeg, b)),
        IMul if is_int(cb, 1) => Same(a),
        IMul if is_int(ca, 1) => Same(b),
        IMul if is_int(ca, 0) || is_int(cb, 0) => Constant(Const::Int(0)),
        IDiv if is_int(cb, 1) => Same(a),
        IRem if is_int(cb, 1) || is_int(cb, -1) => Constant(Const::Int(0)),
        And if is_int(ca, 0) || is_int(cb, 0) => Constant(Const::Int(0)),
        And | Or | IMin | IMax if same => Same(a),
        Or | Xor if is_int(cb, 0) => Same(a),
        Or | Xor if is_int(ca, 0) => Same(b),
        Xor if same => Constant(Const::Int(0)),
        Shl | Shr if is_int(cb, 0) => Same(a),
        Shl | Shr if is_int(ca, 0) => Constant(Const::Int(0)),
        IAdd | ISub => match f.combined_offset(&InstKind::Binary(op, a, b)) {
            Some((x, 0)) => Same(x),
            Some((x, k)) => Offset(x, k),
            None => Unchanged,
        },
        ICmp(c) | BCmp(c) if same => {
            Constant(Const::Bool(matches!(c, Cmp::Eq | Cmp::Le | Cmp::Ge)))
        }
        // Exact for every float, NaN and signed zeros included.
        FMul | FDiv if is_float(cb, 1.0) => Same(a),
        FDiv => match cb {
            Some(Const::Float(d)) => match exact_reciprocal(d) {
                Some(r) => Scaled(a, r),
                None => Unchanged,
            },
            _ => Unchanged,
        },
        FMul if is_float(ca, 1.0) => Same(b),
        FSub if is_float(cb, 0.0) => Same(a),
        FAdd if is_float(cb, -0.0) => Same(a),
        FAdd if is_float(ca, -0.0) => Same(b),
        FMin | FMax if same => Same(a),
        _ => Unchanged,
    }
}

/// Orders the operands of commutative operations (constants last), so
/// that `a + b` and `b + a` meet in the hash-consing table.
pub fn canonicalize(kind: InstKind) -> InstKind {
    match kind {
        InstKind::Binary(op, a, b) if op.is_commutative() && a > b => InstKind::Binary(op, b, a),
        other => other,
    }
}
