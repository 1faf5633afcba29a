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

impl Const {
    pub fn ty(self) -> super::Ty {
        match self {
            Const::Int(_) => super::Ty::Int,
            Const::Float(_) => super::Ty::Float,
            Const::Bool(_) => super::Ty::Bool,
        }
    }
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

/// `1 / d` when multiplying by it gives exactly what dividing by `d`
/// gives, for every dividend: `d` is a power of two (`±2^k`) whose
/// reciprocal is a normal float. Both operations round the same real
/// number `x * 2^-k` once; infinities, NaNs and signed zeros come out the
/// same too. Other divisors (`x / 3.0` against `x * (1.0 / 3.0)`) differ
/// in the last bit for some `x`.
pub fn exact_reciprocal(d: f64) -> Option<f64> {
    const MANTISSA: u64 = (1 << 52) - 1;
    let r = 1.0 / d;
    (d.is_normal() && d.to_bits() & MANTISSA == 0 && r.is_normal()).then_some(r)
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
    fn only_powers_of_two_have_exact_reciprocals() {
        assert_eq!(exact_reciprocal(2.0), Some(0.5));
        assert_eq!(exact_reciprocal(-0.25), Some(-4.0));
        assert_eq!(exact_reciprocal(1024.0), Some(1.0 / 1024.0));
        for d in [3.0, 6.0, 0.1, 0.0, -0.0, f64::INFINITY, f64::NAN, f64::MAX] {
            assert_eq!(exact_reciprocal(d), None, "{d}");
        }
        // 2^1023's reciprocal is subnormal; 2^-1023 is itself subnormal.
        assert_eq!(
            exact_reciprocal(f64::from_bits(0x7fe0_0000_0000_0000)),
            None
        );
        assert_eq!(exact_reciprocal(f64::MIN_POSITIVE / 2.0), None);
    }

    proptest::proptest! {
        /// Multiplying by the reciprocal gives the division's bits, for any
        /// dividend (NaNs, infinities, subnormals and signed zeros too).
        #[test]
        fn multiplying_by_an_exact_reciprocal_is_dividing(x_bits: u64, k in -1021i32..1022, negative: bool) {
            let d = if negative { -(2f64.powi(k)) } else { 2f64.powi(k) };
            let r = exact_reciprocal(d).expect("a power of two with a normal reciprocal");
            let x = f64::from_bits(x_bits);
            let (q, p) = (x / d, x * r);
            proptest::prop_assert!(q.to_bits() == p.to_bits() || (q.is_nan() && p.is_nan()));
        }
    }

    #[test]
    fn float_to_int_saturates() {
        let conv = |x| eval_unary(UnaryOp::FloatToInt, Const::Float(x));
        assert_eq!(conv(f64::NAN), Some(Const::Int(0)));
        assert_eq!(conv(1e300), Some(Const::Int(i64::MAX)));
        assert_eq!(conv(-2.9), Some(Const::Int(-2)));
    }
}
