//! Loops run two iterations at a time on 128-bit vectors (`ir::vector`):
//! the vector loop before the scalar one, and each instruction's lanes.

use super::*;

impl<'a: 'p, 'p, M: Module> Translator<'a, 'p, '_, M> {
    /// Runs the pairs of iterations of `l` from counter `start` in two
    /// vector lanes (`ir::vector`); returns the counter the loop itself
    /// continues from, at most one iteration before its end.
    pub(super) fn run_in_lanes(&mut self, l: &VectorLoop, start: cl::Value) -> cl::Value {
        let bound = self.val(l.bound);
        // The loop runs `bound - start` times (as an unsigned distance)
        // if `start < bound`, else not at all. An even count is
        // `count - (count & 1)`, not `count & -2`: Cranelift recomputes an
        // `and` with a constant at every use, here in the loop.
        let runs = self.b.ins().icmp(IntCC::SignedLessThan, start, bound);
        let distance = self.b.ins().isub(bound, start);
        let zero = self.b.ins().iconst(types::I64, 0);
        let count = self.b.ins().select(runs, distance, zero);
        let odd = self.b.ins().band_imm_s(count, 1);
        let pairs = self.b.ins().isub(count, odd);
        let end = self.b.ins().iadd(start, pairs);
        // Tested at the bottom: one branch per pair of iterations.
        let body = self.b.create_block();
        let exit = self.b.create_block();
        let counter = self.b.append_block_param(body, types::I64);
        let rest = self.b.append_block_param(exit, types::I64);
        let none = self.b.ins().icmp(IntCC::Equal, start, end);
        let arg = |v| [cl::BlockArg::Value(v)];
        self.b
            .ins()
            .brif(none, exit, &arg(start), body, &arg(start));
        self.b.switch_to_block(body);
        self.lanes(l, counter);
        let next = self.b.ins().iadd_imm_u(counter, 2);
        // `next` never passes `end`, so `>=` is `==`; but Cranelift turns
        // `next == end` with a constant `end` into a test of `counter`
        // against `end - 2`, which keeps both counters live: a copy and a
        // jump more per pair.
        let done = self
            .b
            .ins()
            .icmp(IntCC::SignedGreaterThanOrEqual, next, end);
        self.b.ins().brif(done, exit, &arg(next), body, &arg(next));
        self.b.switch_to_block(exit);
        rest
    }

    /// The body of `l` on two lanes: iterations `counter` and `counter + 1`.
    pub(super) fn lanes(&mut self, l: &VectorLoop, counter: cl::Value) {
        let flags = |t: &Self, ty: Ty| {
            MemFlagsData::new()
                .with_notrap()
                .with_alias_region(t.elements.of(ty).alias_region())
        };
        let mut lanes: FxHashMap<ir::Value, cl::Value> = FxHashMap::default();
        for &inst in &l.insts {
            let result = self.f.insts[inst].result;
            let v = match self.f.insts[inst].kind {
                InstKind::ArrayGet { array, .. } => {
                    let elem = self.f.value_ty(result.expect("a get's result"));
                    let addr = self.lane_addr(array, counter);
                    let flags = flags(self, elem);
                    self.b
                        .ins()
                        .load(lane_type(elem), flags, addr, ARRAY_HEADER as i32)
                }
                InstKind::ArraySet { array, value, .. } => {
                    let flags = flags(self, self.f.value_ty(value));
                    let v = self.lane(&lanes, value);
                    let addr = self.lane_addr(array, counter);
                    self.b.ins().store(flags, v, addr, ARRAY_HEADER as i32);
                    continue;
                }
                InstKind::Binary(op, a, b) => {
                    let (a, b) = (self.lane(&lanes, a), self.lane(&lanes, b));
                    let ins = self.b.ins();
                    match op {
                        BinaryOp::FAdd => ins.fadd(a, b),
                        BinaryOp::FSub => ins.fsub(a, b),
                        BinaryOp::FMul => ins.fmul(a, b),
                        BinaryOp::FDiv => ins.fdiv(a, b),
                        BinaryOp::IAdd => ins.iadd(a, b),
                        BinaryOp::ISub => ins.isub(a, b),
                        BinaryOp::And => ins.band(a, b),
                        BinaryOp::Or => ins.bor(a, b),
                        BinaryOp::Xor => ins.bxor(a, b),
                        _ => unreachable!("ir::vector admits only lane-wise operations"),
                    }
                }
                InstKind::Unary(op, a) => {
                    let a = self.lane(&lanes, a);
                    let ins = self.b.ins();
                    match op {
                        UnaryOp::FNeg => ins.fneg(a),
                        UnaryOp::FAbs => ins.fabs(a),
                        UnaryOp::Sqrt => ins.sqrt(a),
                        _ => unreachable!("ir::vector admits only lane-wise operations"),
                    }
                }
                InstKind::FConst(_) | InstKind::IConst(_) => {
                    let v = result.expect("a constant's result");
                    self.splat(v)
                }
                _ => unreachable!("ir::vector admits only lane-wise instructions"),
            };
            lanes.insert(result.expect("a lane-wise result"), v);
        }
    }

    /// `v` in both lanes: computed in the lanes, or defined before the loop.
    pub(super) fn lane(
        &mut self,
        lanes: &FxHashMap<ir::Value, cl::Value>,
        v: ir::Value,
    ) -> cl::Value {
        match lanes.get(&v) {
            Some(&lane) => lane,
            None => self.splat(v),
        }
    }

    pub(super) fn splat(&mut self, v: ir::Value) -> cl::Value {
        let ty = lane_type(self.f.value_ty(v));
        let scalar = match self.f.constant(v) {
            Some(Const::Int(n)) => self.b.ins().iconst(types::I64, n),
            Some(Const::Float(x)) => self.b.ins().f64const(x),
            _ => self.val(v),
        };
        self.b.ins().splat(ty, scalar)
    }

    /// The address of element `counter` of `array`, minus the header.
    pub(super) fn lane_addr(&mut self, array: ir::Value, counter: cl::Value) -> cl::Value {
        let a = self.val(array);
        let offset = self.b.ins().ishl_imm_u(counter, 3);
        self.b.ins().iadd(a, offset)
    }
}

/// The vector of two lanes of an `int` or `float`.
fn lane_type(ty: Ty) -> cl::Type {
    match ty {
        Ty::Float => types::F64X2,
        _ => types::I64X2,
    }
}
