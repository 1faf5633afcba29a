//! The run-time meaning of every pure IR operation, as Rust code.
//!
//! The constant folder evaluates with these functions, and the translator
//! emits Cranelift code with the same meaning, so that folding never changes
//! what a program prints (LANGUAGE.md §2, §5, §6).

use super::{BinaryOp, Cmp, UnaryOp};

/// A compile-time constant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Const {
    Int(i64),
    Float(f64),
    Bool(bool),
}

/// `f64::min` with a defined answer for `min(0.0, -0.0)` (= `-0.0`):
/// a NaN operand yields the other operand.
pub fn fmin(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a < b || (a == b && a.is_sign_negative()) {
        a
    } else {
        b
    }
}

/// `f64::max` with a defined answer for `max(0.0, -0.0)` (= `0.0`).
pub fn fmax(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a > b || (a == b && a.is_sign_positive()) {
        a
    } else {
        b
    }
}

fn compare<T: PartialOrd>(cmp: Cmp, a: T, b: T) -> bool {
    match cmp {
        Cmp::Eq => a == b,
        Cmp::Ne => a != b,
        Cmp::Lt => a < b,
        Cmp::Le => a <= b,
        Cmp::Gt => a > b,
        Cmp::Ge => a >= b,
    }
}

pub fn eval_unary(op: UnaryOp, x: Const) -> Option<Const> {
    use Const::*;
    Some(match (op, x) {
        (UnaryOp::INeg, Int(a)) => Int(a.wrapping_neg()),
        (UnaryOp::FNeg, Float(a)) => Float(-a),
        (UnaryOp::Not, Bool(a)) => Bool(!a),
        (UnaryOp::IAbs, Int(a)) => Int(a.wrapping_abs()),
        (UnaryOp::FAbs, Float(a)) => Float(a.abs()),
        (UnaryOp::Sqrt, Float(a)) => Float(a.sqrt()),
        // `as` saturates and maps NaN to 0, as LANGUAGE.md §2 asks.
        (UnaryOp::FloatToInt, Float(a)) => Int(a as i64),
        (UnaryOp::IntToFloat, Int(a)) => Float(a as f64),
        _ => return None,
    })
}

/// Evaluates `a op b`; `None` when the operation fails at run time
/// (division by zero), which must then stay in the program.
pub fn eval_binary(op: BinaryOp, a: Const, b: Const) -> Option<Const> {
    use BinaryOp::*;
    use Const::*;
    Some(match (op, a, b) {
        (IAdd, Int(a), Int(b)) => Int(a.wrapping_add(b)),
        (ISub, Int(a), Int(b)) => Int(a.wrapping_sub(b)),
        (IMul, Int(a), Int(b)) => Int(a.wrapping_mul(b)),
        (IDiv, Int(_), Int(0)) | (IRem, Int(_), Int(0)) => return None,
        (IDiv, Int(a), Int(b)) => Int(a.wrapping_div(b)),
        (IRem, Int(a), Int(b)) => Int(a.wrapping_rem(b)),
        (FAdd, Float(a), Float(b)) => Float(a + b),
        (FSub, Float(a), Float(b)) => Float(a - b),
        (FMul, Float(a), Float(b)) => Float(a * b),
        (FDiv, Float(a), Float(b)) => Float(a / b),
        (FRem, Float(a), Float(b)) => Float(a % b),
        (And, Int(a), Int(b)) => Int(a & b),
        // Passes combine conditions with `and` and `or` (`ir::version`'s
        // guards, `ir::select`'s `&&` and `||`).
        (And, Bool(a), Bool(b)) => Bool(a & b),
        (Or, Int(a), Int(b)) => Int(a | b),
        (Or, Bool(a), Bool(b)) => Bool(a | b),
        (Xor, Int(a), Int(b)) => Int(a ^ b),
        (Shl, Int(a), Int(b)) => Int(a.wrapping_shl(b as u32 & 63)),
        (Shr, Int(a), Int(b)) => Int(a.wrapping_shr(b as u32 & 63)),
        (ICmp(c), Int(a), Int(b)) => Bool(compare(c, a, b)),
        (FCmp(c), Float(a), Float(b)) => Bool(compare(c, a, b)),
        (BCmp(c), Bool(a), Bool(b)) => Bool(compare(c, a, b)),
        (IMin, Int(a), Int(b)) => Int(a.min(b)),
        (IMax, Int(a), Int(b)) => Int(a.max(b)),
        (FMin, Float(a), Float(b)) => Float(fmin(a, b)),
        (FMax, Float(a), Float(b)) => Float(fmax(a, b)),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_edge_cases_follow_the_spec() {
        let bin = |op, a, b| eval_binary(op, Const::Int(a), Const::Int(b));
        assert_eq!(
            bin(BinaryOp::IDiv, i64::MIN, -1),
            Some(Const::Int(i64::MIN))
        );
        assert_eq!(bin(BinaryOp::IRem, i64::MIN, -1), Some(Const::Int(0)));
        assert_eq!(bin(BinaryOp::IDiv, -7, 2), Some(Const::Int(-3)));
        assert_eq!(bin(BinaryOp::IRem, -7, 2), Some(Const::Int(-1)));
        assert_eq!(bin(BinaryOp::IDiv, 1, 0), None);
        assert_eq!(bin(BinaryOp::Shl, 1, 65), Some(Const::Int(2)));
        assert_eq!(bin(BinaryOp::Shr, -8, -1), Some(Const::Int(-1)));
    }

    #[test]
    fn float_min_max_prefer_numbers_over_nan() {
        assert_eq!(fmin(f64::NAN, 1.0), 1.0);
        assert_eq!(fmax(2.0, f64::NAN), 2.0);
        assert!(fmin(0.0, -0.0).is_sign_negative());
        assert!(fmax(-0.0, 0.0).is_sign_positive());
    }

    #[test]
    fn float_to_int_saturates() {
        let conv = |x| eval_unary(UnaryOp::FloatToInt, Const::Float(x));
        assert_eq!(conv(f64::NAN), Some(Const::Int(0)));
        assert_eq!(conv(1e300), Some(Const::Int(i64::MAX)));
        assert_eq!(conv(-2.9), Some(Const::Int(-2)));
    }
}
