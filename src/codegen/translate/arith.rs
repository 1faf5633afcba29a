//! Unary and binary operations: Toy's checked division, float min/max,
//! comparisons, remainders lowered as divisibility tests where the plan
//! says so, multiplication by small constants as shifts and adds, and
//! logical shifts written as a shift and a mask, float constants placed
//! where Cranelift can hoist them, and selects.

use super::*;

/// How far `known_multiple` looks up a chain of single-predecessor blocks.
const MAX_GUARD_WALK: usize = 8;

impl<'a: 'p, 'p, M: Module> Translator<'a, 'p, '_, M> {
    /// A float constant. Cranelift rematerializes `f64const` in every
    /// block that uses it — two instructions (`movabs`, `movq`) in a loop
    /// body at each iteration, where C compilers keep the constant in a
    /// register; the same bits through a `bitcast` are an ordinary value,
    /// which the egraph hoists out of loops. That costs the egraph two
    /// values instead of one, so constants used only outside loops (and
    /// zero: one `xorpd` wherever it is used) stay `f64const`.
    pub(super) fn float_constant(&mut self, bits: u64, used_in_loop: bool) -> cl::Value {
        if !used_in_loop {
            return self.b.ins().f64const(f64::from_bits(bits));
        }
        let k = self.b.ins().iconst(types::I64, bits as i64);
        self.b.ins().bitcast(types::F64, MemFlagsData::new(), k)
    }

    /// For a float `abs` or negation in a loop on x86-64, the mask of its
    /// `andpd` or `xorpd`. Cranelift builds that mask at each use (two
    /// instructions per iteration); as a hoisted constant it is built
    /// once. On aarch64 both are one instruction without a mask.
    fn sign_mask_in_register(&self, op: UnaryOp, result: Option<ir::Value>) -> Option<u64> {
        let mask = match op {
            UnaryOp::FAbs => 0x7fff_ffff_ffff_ffff,
            UnaryOp::FNeg => 0x8000_0000_0000_0000,
            _ => return None,
        };
        let x86 = self.module.isa().triple().architecture == target_lexicon::Architecture::X86_64;
        (x86 && result.is_some_and(|r| self.float_used_in_loop(r))).then_some(mask)
    }

    pub(super) fn is_tested_remainder(&self, v: ir::Value) -> bool {
        self.plan.tested_remainders.contains(&v)
    }

    pub(super) fn float_used_in_loop(&self, v: ir::Value) -> bool {
        if let Some(into_loop) = self.inlining_into_loop {
            return into_loop;
        }
        self.plan.loop_floats.contains(&v)
    }

    pub(super) fn unary(
        &mut self,
        op: UnaryOp,
        a: ir::Value,
        result: Option<ir::Value>,
    ) -> cl::Value {
        let a = self.val(a);
        if let Some(mask) = self.sign_mask_in_register(op, result) {
            let mask = self.float_constant(mask, true);
            return match op {
                UnaryOp::FAbs => self.b.ins().band(a, mask),
                _ => self.b.ins().bxor(a, mask),
            };
        }
        let ins = self.b.ins();
        match op {
            UnaryOp::INeg => ins.ineg(a),
            UnaryOp::FNeg => ins.fneg(a),
            UnaryOp::Not => ins.bxor_imm_u(a, 1),
            UnaryOp::IAbs => ins.iabs(a),
            UnaryOp::FAbs => ins.fabs(a),
            UnaryOp::Sqrt => ins.sqrt(a),
            UnaryOp::FloatToInt => ins.fcvt_to_sint_sat(types::I64, a),
            UnaryOp::IntToFloat => ins.fcvt_from_sint(types::F64, a),
        }
    }

    pub(super) fn binary(
        &mut self,
        op: BinaryOp,
        a: ir::Value,
        b: ir::Value,
        loc: SrcLoc,
    ) -> cl::Value {
        let cheaper = self
            .divisibility_test(op, a, b)
            .or_else(|| self.quotient_as_shift(op, a, b))
            .or_else(|| self.masked_remainder(op, a, b))
            .or_else(|| self.unsigned_division(op, a, b))
            .or_else(|| self.logical_shift(op, a, b))
            .or_else(|| self.multiply_by_shift_and_add(op, a, b));
        if let Some(v) = cheaper {
            return v;
        }
        let divisor = crate::ir::semantics::Const::Int;
        let const_b = self.f.constant(b);
        let (a, b) = (self.val(a), self.val(b));
        let ins = self.b.ins();
        match op {
            BinaryOp::IAdd => ins.iadd(a, b),
            BinaryOp::ISub => ins.isub(a, b),
            BinaryOp::IMul => ins.imul(a, b),
            BinaryOp::IDiv | BinaryOp::IRem => {
                let known_safe = matches!(const_b, Some(c) if c != divisor(0) && c != divisor(-1));
                if known_safe {
                    return if op == BinaryOp::IDiv {
                        ins.sdiv(a, b)
                    } else {
                        ins.srem(a, b)
                    };
                }
                self.checked_division(op, a, b, loc)
            }
            BinaryOp::FAdd => ins.fadd(a, b),
            BinaryOp::FSub => ins.fsub(a, b),
            BinaryOp::FMul => ins.fmul(a, b),
            BinaryOp::FDiv => ins.fdiv(a, b),
            BinaryOp::FRem => self
                .call_rt(self.env.runtime.fmod, &[a, b])
                .expect("fmod returns a value"),
            BinaryOp::And => ins.band(a, b),
            BinaryOp::Or => ins.bor(a, b),
            BinaryOp::Xor => ins.bxor(a, b),
            // Cranelift masks shift amounts to the type's width, as Toy does.
            BinaryOp::Shl => ins.ishl(a, b),
            BinaryOp::Shr => ins.sshr(a, b),
            BinaryOp::ICmp(c) | BinaryOp::BCmp(c) => ins.icmp(int_cc(c), a, b),
            BinaryOp::FCmp(c) => match float_cc(c) {
                (cc, true) => ins.fcmp(cc, b, a),
                (cc, false) => ins.fcmp(cc, a, b),
            },
            BinaryOp::IMin => ins.smin(a, b),
            BinaryOp::IMax => ins.smax(a, b),
            BinaryOp::FMin | BinaryOp::FMax => self.float_min_max(op, a, b),
        }
    }

    /// `x % 2^k == 0` (or `!= 0`) as a test of the low bits: the truncated
    /// remainder is zero exactly when they are, for negative `x` too.
    /// (`n % 2 == 0` is the hot test of many loops; Cranelift computes the
    /// remainder in full.)
    pub(super) fn divisibility_test(
        &mut self,
        op: BinaryOp,
        a: ir::Value,
        b: ir::Value,
    ) -> Option<cl::Value> {
        let t = remainder_test(self.f, op, a, b).filter(RemainderTest::of_low_bits)?;
        let x = self.val(t.x);
        let low = self.b.ins().band_imm_s(x, t.m - 1);
        Some(self.b.ins().icmp_imm_s(int_cc(t.cmp), low, 0))
    }

    /// `x / 2^k` where the rounding fix-up of signed division is not
    /// needed, as an arithmetic shift: where a dominating branch
    /// established `x % 2^j == 0` for some `j >= k` (the division is
    /// exact: `if n % 2 == 0 { n = n / 2; }`), or where the plan knows
    /// `x` is never negative (`plan.non_negative_dividends`).
    pub(super) fn quotient_as_shift(
        &mut self,
        op: BinaryOp,
        a: ir::Value,
        b: ir::Value,
    ) -> Option<cl::Value> {
        let d = self.power_of_two(BinaryOp::IDiv, op, b)?;
        if !self.plan.non_negative_dividends.contains(&a) && !self.known_multiple(a, d) {
            return None;
        }
        let x = self.val(a);
        Some(self.b.ins().sshr_imm_u(x, d.trailing_zeros() as i64))
    }

    /// `x % 2^k` of an `x` the plan knows is never negative
    /// (`plan.non_negative_dividends`): `x & (2^k - 1)`, without the
    /// fix-up a signed remainder needs for negative `x` (a hash or a
    /// wrap-around index `(c + 1) % 256`).
    pub(super) fn masked_remainder(
        &mut self,
        op: BinaryOp,
        a: ir::Value,
        b: ir::Value,
    ) -> Option<cl::Value> {
        let d = self.power_of_two(BinaryOp::IRem, op, b)?;
        if !self.plan.non_negative_dividends.contains(&a) {
            return None;
        }
        let x = self.val(a);
        Some(self.b.ins().band_imm_s(x, d - 1))
    }

    /// `x / d` and `x % d` (`d` a constant above 1) of an `x` the plan
    /// knows is never negative (`plan.non_negative_dividends`), as
    /// unsigned division: the same results there, and Cranelift's
    /// multiply by the reciprocal then needs no fix-up for negative `x`
    /// (`i / 3`, `i % 9` of a counter).
    pub(super) fn unsigned_division(
        &mut self,
        op: BinaryOp,
        a: ir::Value,
        b: ir::Value,
    ) -> Option<cl::Value> {
        if !matches!(op, BinaryOp::IDiv | BinaryOp::IRem)
            || constant_divisor(self.f, b).is_none()
            || !self.plan.non_negative_dividends.contains(&a)
        {
            return None;
        }
        let (x, d) = (self.val(a), self.val(b));
        Some(match op {
            BinaryOp::IDiv => self.b.ins().udiv(x, d),
            _ => self.b.ins().urem(x, d),
        })
    }

    /// `(x >> k) & (2^(64 - k) - 1)` as one logical shift: the mask keeps
    /// exactly the bits the arithmetic shift did not copy from the sign.
    /// (Toy's `>>` is arithmetic; this is how a Toy program shifts
    /// logically. Cranelift computes the shift and the mask.)
    pub(super) fn logical_shift(
        &mut self,
        op: BinaryOp,
        a: ir::Value,
        b: ir::Value,
    ) -> Option<cl::Value> {
        if op != BinaryOp::And {
            return None;
        }
        let int = |v: ir::Value| self.f.int_constant(v);
        let (shifted, mask) = match (int(a), int(b)) {
            (None, Some(m)) => (a, m),
            (Some(m), None) => (b, m),
            _ => return None,
        };
        let &InstKind::Binary(BinaryOp::Shr, x, k) = self.f.def_kind(shifted)? else {
            return None;
        };
        let k = int(k)?;
        if !(1..64).contains(&k) || mask != (1i64 << (64 - k)).wrapping_sub(1) {
            return None;
        }
        let x = self.val(x);
        Some(self.b.ins().ushr_imm_u(x, k))
    }

    /// The divisor `b` of an `op` that is `wanted`, when it is a constant
    /// power of two above 1.
    fn power_of_two(&self, wanted: BinaryOp, op: BinaryOp, b: ir::Value) -> Option<i64> {
        (op == wanted).then(|| power_of_two_divisor(self.f, b))?
    }

    /// Whether `x` is a multiple of `d`, by how it is computed or by a
    /// test guarding the current block.
    pub(super) fn known_multiple(&self, x: ir::Value, d: i64) -> bool {
        self.multiple_by_definition(x, d) || self.guarded_multiple(x, d)
    }

    /// `x = a * b` with a constant factor that `d` divides, or a product
    /// of consecutive integers `a * (a ± 1)` when `d` is 2 (as in
    /// `n * (n + 1) / 2`). Wrapping keeps both: it takes a multiple of
    /// 2^64, which every power of two divides.
    pub(super) fn multiple_by_definition(&self, x: ir::Value, d: i64) -> bool {
        let Some(&InstKind::Binary(BinaryOp::IMul, a, b)) = self.f.def_kind(x) else {
            return false;
        };
        let divides =
            |v: ir::Value| matches!(self.f.constant(v), Some(Const::Int(c)) if c % d == 0);
        let is_one = |v: ir::Value| self.f.constant(v) == Some(Const::Int(1));
        let next_to = |u: ir::Value, v: ir::Value| match self.f.def_kind(u) {
            Some(&InstKind::Binary(BinaryOp::IAdd, p, q)) => {
                (p == v && is_one(q)) || (q == v && is_one(p))
            }
            Some(&InstKind::Binary(BinaryOp::ISub, p, q)) => p == v && is_one(q),
            _ => false,
        };
        debug_assert!((d as u64).is_power_of_two(), "exact halvings only");
        divides(a) || divides(b) || (d == 2 && (next_to(a, b) || next_to(b, a)))
    }

    /// Whether the current block lies, through single-predecessor blocks,
    /// on the edge of a branch taken only when `x % m == 0` for a multiple
    /// `m` of `d`.
    pub(super) fn guarded_multiple(&self, x: ir::Value, d: i64) -> bool {
        let f = self.f;
        let mut child = self.current_block;
        for _ in 0..MAX_GUARD_WALK {
            let [parent] = f.blocks[child].preds[..] else {
                return false;
            };
            if let Some(ir::Terminator::Branch {
                cond,
                then_block,
                else_block,
            }) = f.blocks[parent].term
            {
                let taken = match self.remainder_test(cond) {
                    Some(t) if t.cmp == Cmp::Eq && then_block == child => Some((t.x, t.m)),
                    Some(t) if t.cmp == Cmp::Ne && else_block == child => Some((t.x, t.m)),
                    _ => None,
                };
                if taken.is_some_and(|(y, m)| y == x && m % d == 0) {
                    return true;
                }
            }
            child = parent;
        }
        false
    }

    /// The remainder test `cond` is, if any.
    pub(super) fn remainder_test(&self, cond: ir::Value) -> Option<RemainderTest> {
        let InstKind::Binary(op, a, b) = *self.f.def_kind(cond)? else {
            return None;
        };
        remainder_test(self.f, op, a, b)
    }

    /// `x * 3`, `x * 5`, `x * 9` as `x + (x << k)`: x86-64 computes that
    /// in one `lea` (with a following `+ c` folded in), where `imul`
    /// takes three cycles (the scales 2, 4 and 8 of x86-64 addressing,
    /// and aarch64's shifted add), on the critical path of recurrences
    /// like `n = 3 * n + 1`.
    pub(super) fn multiply_by_shift_and_add(
        &mut self,
        op: BinaryOp,
        a: ir::Value,
        b: ir::Value,
    ) -> Option<cl::Value> {
        if op != BinaryOp::IMul {
            return None;
        }
        let (x, k) = match (self.f.constant(a), self.f.constant(b)) {
            (_, Some(Const::Int(c @ (3 | 5 | 9)))) => (a, (c - 1).trailing_zeros()),
            (Some(Const::Int(c @ (3 | 5 | 9))), _) => (b, (c - 1).trailing_zeros()),
            _ => return None,
        };
        let x = self.val(x);
        let shifted = self.b.ins().ishl_imm_u(x, k as i64);
        Some(self.b.ins().iadd(x, shifted))
    }

    /// Toy division: zero divisors are runtime errors, `MIN / -1` wraps to
    /// `MIN` and `MIN % -1` is 0 (where Cranelift's `sdiv` would trap).
    pub(super) fn checked_division(
        &mut self,
        op: BinaryOp,
        a: cl::Value,
        b: cl::Value,
        loc: SrcLoc,
    ) -> cl::Value {
        let is_zero = self.b.ins().icmp_imm_s(IntCC::Equal, b, 0);
        self.check(is_zero, ErrorKind::DivisionByZero, loc, [a, b]);
        let ins = self.b.ins();
        let minus_one = ins.icmp_imm_s(IntCC::Equal, b, -1);
        let one = self.b.ins().iconst(types::I64, 1);
        let safe = self.b.ins().select(minus_one, one, b);
        if op == BinaryOp::IDiv {
            let q = self.b.ins().sdiv(a, safe);
            let neg = self.b.ins().ineg(a);
            self.b.ins().select(minus_one, neg, q)
        } else {
            let r = self.b.ins().srem(a, safe);
            let zero = self.b.ins().iconst(types::I64, 0);
            self.b.ins().select(minus_one, zero, r)
        }
    }

    /// `cond ? if_true : if_false`. A bool is 0 or 1 in its byte, so
    /// choosing between the ints 1 and 0 is the bool widened: no
    /// conditional move. (Cranelift knows that only of a comparison's
    /// result, not of a bool loaded from an array or passed in.)
    pub(super) fn select(
        &mut self,
        cond: ir::Value,
        if_true: ir::Value,
        if_false: ir::Value,
    ) -> cl::Value {
        let c = self.val(cond);
        match (self.f.constant(if_true), self.f.constant(if_false)) {
            (Some(Const::Int(1)), Some(Const::Int(0))) => self.b.ins().uextend(types::I64, c),
            _ => {
                let (t, e) = (self.val(if_true), self.val(if_false));
                self.b.ins().select(c, t, e)
            }
        }
    }

    /// `semantics::fmin`/`fmax`: a NaN operand yields the other one;
    /// otherwise Cranelift's `fmin`/`fmax` (which order `-0.0 < 0.0`).
    pub(super) fn float_min_max(&mut self, op: BinaryOp, a: cl::Value, b: cl::Value) -> cl::Value {
        let m = if op == BinaryOp::FMin {
            self.b.ins().fmin(a, b)
        } else {
            self.b.ins().fmax(a, b)
        };
        let a_nan = self.b.ins().fcmp(FloatCC::Unordered, a, a);
        let b_nan = self.b.ins().fcmp(FloatCC::Unordered, b, b);
        let r = self.b.ins().select(b_nan, a, m);
        self.b.ins().select(a_nan, b, r)
    }
}
