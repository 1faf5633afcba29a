//! Control flow: terminators and branch arguments, rotated loops (the
//! latch repeats the header's test), inverted loop tests, and the REPL's
//! polling of `toy_rt_pending` and early returns.

use super::*;

/// The most instructions copied from a join to its loop's latch into the
/// blocks that jump to the join (besides the header's test repeated).
const MAX_COPIED_LATCH: usize = 4;

/// A loop's join and the blocks after it up to its rotated latch, which
/// the translator copies into a block that jumps to the join.
struct LatchPath {
    blocks: Vec<ir::Block>,
    header: ir::Block,
}

impl<'a: 'p, 'p, M: Module> Translator<'a, 'p, '_, M> {
    pub(super) fn in_session(&self) -> bool {
        matches!(self.env.linking, Linking::Session { .. })
    }

    /// Returns zero values: the caller polls `toy_rt_pending` and returns
    /// too, up to the REPL.
    pub(super) fn return_early(&mut self) {
        let vals: Vec<cl::Value> = self.f.ret.map(|t| self.zero(t)).into_iter().collect();
        self.b.ins().return_(&vals);
    }

    /// In REPL code: returns at once when a runtime error or an interrupt
    /// is pending.
    pub(super) fn poll_pending(&mut self) {
        if !self.in_session() {
            return;
        }
        let addr = self.data_addr(self.env.runtime.pending);
        let pending = self.b.ins().atomic_load(types::I64, mem(), addr);
        let stop = self.b.create_block();
        let go_on = self.b.create_block();
        self.b.set_cold_block(stop);
        self.b.ins().brif(pending, stop, &[], go_on, &[]);
        self.b.switch_to_block(stop);
        self.return_early();
        self.b.switch_to_block(go_on);
    }

    /// The arguments a jump from `from` passes to `to`'s phis.
    pub(super) fn edge_args(&mut self, from: ir::Block, to: ir::Block) -> Vec<cl::BlockArg> {
        let index = self.f.blocks[to]
            .preds
            .iter()
            .position(|&p| p == from)
            .expect("edge recorded in preds");
        let f = self.f;
        f.blocks[to]
            .phis
            .iter()
            .map(|&phi| {
                let arg = f.phi_args(phi)[index];
                cl::BlockArg::Value(self.val(arg))
            })
            .collect()
    }

    pub(super) fn terminator(&mut self, block: ir::Block) {
        let term = self.f.blocks[block]
            .term
            .clone()
            .expect("verified: terminated");
        if term
            .successors()
            .iter()
            .any(|&to| self.plan.loops.is_back_edge(block, to))
        {
            self.poll_pending();
        }
        match term {
            ir::Terminator::Jump(to) if self.is_rotated_latch(block, to) => {
                self.repeat_header_test(block, to);
            }
            ir::Terminator::Jump(join) if let Some(path) = self.latch_copy(block, join) => {
                self.copy_latch(block, &path);
            }
            ir::Terminator::Jump(to) => {
                let mut args = self.edge_args(block, to);
                let target = self.block(to);
                let plan = self.plan;
                let entered =
                    (plan.vector_loops.iter()).find(|l| l.header == to && l.entry == block);
                if let Some(vector_loop) = entered {
                    let start = args[0].as_value().expect("a value argument");
                    args[0] = cl::BlockArg::Value(self.run_in_lanes(vector_loop, start));
                }
                self.b.ins().jump(target, &args);
            }
            ir::Terminator::Branch {
                cond,
                then_block,
                else_block,
            } => self.branch(block, cond, then_block, else_block),
            ir::Terminator::Return(v) => {
                let vals: Vec<cl::Value> = v.map(|v| self.val(v)).into_iter().collect();
                self.b.ins().return_(&vals);
            }
            ir::Terminator::Unreachable => {
                self.b.ins().trap(cl::TrapCode::unwrap_user(2));
            }
            ir::Terminator::Switch {
                value,
                cases,
                default,
            } => self.switch(value, &cases, default),
        }
    }

    /// One jump table over the cases' range (`ir::switch` forms only
    /// dense switches), gaps going to the default: Cranelift's `Switch`
    /// over `value - min`, the smallest case at 0, so that the table's one
    /// unsigned range test also sends values below `min` (which wrap) to
    /// the default. The targets take no arguments
    /// (`ir::Terminator::Switch`'s invariant).
    fn switch(&mut self, value: ir::Value, cases: &[(i64, ir::Block)], default: ir::Block) {
        let min = cases.iter().map(|&(n, _)| n).min().unwrap_or(0);
        let max = cases.iter().map(|&(n, _)| n).max().unwrap_or(0);
        let default = self.block(default);
        let mut entries = vec![default; max.wrapping_sub(min) as usize + 1];
        for &(n, to) in cases {
            entries[n.wrapping_sub(min) as usize] = self.block(to);
        }
        let mut switch = Switch::new();
        for (k, &to) in entries.iter().enumerate() {
            switch.set_entry(k as u128, to);
        }
        let value = self.val(value);
        let offset = self.b.ins().iadd_imm_s(value, min.wrapping_neg());
        switch.emit(&mut self.b, offset, default);
    }

    pub(super) fn branch(
        &mut self,
        block: ir::Block,
        cond: ir::Value,
        then_block: ir::Block,
        else_block: ir::Block,
    ) {
        // `br !x, a, b` is `br x, b, a`: no `xor` to compute the negation.
        let (cond, then_block, else_block) = match self.f.def_kind(cond) {
            Some(&InstKind::Unary(UnaryOp::Not, x)) => (x, else_block, then_block),
            _ => (cond, then_block, else_block),
        };
        let then_args = self.branch_args(block, then_block);
        let else_args = self.branch_args(block, else_block);
        let (t, e) = (self.block(then_block), self.block(else_block));
        let c = self.val(cond);
        // A rotated loop's latch falls through into its body's next
        // iteration without the inversion.
        let header = self.plan.loops.is_header(block) && !self.is_rotated_header(block);
        match header.then(|| self.inverted_comparison(c)).flatten() {
            Some(inverse) => {
                self.b.ins().brif(inverse, e, &else_args, t, &then_args);
            }
            None => {
                self.b.ins().brif(c, t, &then_args, e, &else_args);
            }
        }
    }

    /// The arguments of a branch from `from` to `to`: `to`'s phis, and
    /// when `from` heads a rotated loop, the header values its body or
    /// exit receives.
    pub(super) fn branch_args(&mut self, from: ir::Block, to: ir::Block) -> Vec<cl::BlockArg> {
        let mut args = self.edge_args(from, to);
        let Some(l) = self.rotated_loop(from) else {
            return args;
        };
        let values = if to == l.body {
            &l.body_values
        } else {
            &l.exit_values
        };
        args.extend(values.iter().map(|&v| cl::BlockArg::Value(self.val(v))));
        args
    }

    /// Appends to each rotated loop's body and exit a parameter per header
    /// value used there.
    pub(super) fn append_rotated_params(&mut self) {
        let Some(mut r) = self.rotated.take() else {
            return;
        };
        for (i, l) in self.plan.rotations.iter().enumerate() {
            for (target, values) in [(l.body, &l.body_values), (l.exit, &l.exit_values)] {
                let cb = self.block(target);
                for &v in values {
                    let ty = self.f.value_ty(v);
                    let param = self.b.append_block_param(cb, cl_type(ty));
                    let hv = r.params[v].get_or_insert(HeaderValue {
                        in_loop: i as u32,
                        in_body: None,
                        in_exit: None,
                    });
                    if target == l.body {
                        hv.in_body = Some(param);
                    } else {
                        hv.in_exit = Some(param);
                    }
                }
            }
        }
        self.rotated = Some(r);
    }

    /// The rotated loop `header` heads, if any.
    pub(super) fn rotated_loop(&self, header: ir::Block) -> Option<&'p RotatedLoop> {
        let plan = self.plan;
        let i = *self.rotated.as_ref()?.by_header.get(&header)?;
        Some(&plan.rotations[i])
    }

    pub(super) fn is_rotated_header(&self, block: ir::Block) -> bool {
        self.rotated_loop(block).is_some()
    }

    pub(super) fn is_rotated_latch(&self, block: ir::Block, header: ir::Block) -> bool {
        self.plan.loops.is_back_edge(block, header) && self.is_rotated_header(header)
    }

    /// The blocks to copy in place of `block`'s jump to `join`, if that
    /// jump is better replaced by a copy of the blocks from `join` to its
    /// loop's rotated latch ([`latch_path`](Self::latch_path)): a few
    /// instructions that only compute, and the header's test. The join of
    /// an `if` in a loop's body is followed by the latch, which reverse
    /// post-order places after both arms; the path that skips a long arm
    /// then jumps over it to the latch and back to the header, two taken
    /// branches per iteration where the copy leaves one (LLVM's tail
    /// duplication of small blocks). Not in REPL code, which polls on
    /// every back edge.
    fn latch_copy(&self, block: ir::Block, join: ir::Block) -> Option<LatchPath> {
        let f = self.f;
        if self.in_session() || f.blocks[join].preds.len() < 2 {
            return None;
        }
        let path = self.latch_path(join)?;
        let insts = || path.blocks.iter().flat_map(|&b| &f.blocks[b].insts);
        let copies = !path.blocks.contains(&block)
            && insts().count() <= MAX_COPIED_LATCH
            && insts().all(|&i| f.insts[i].kind.is_removable_if_unused())
            && !(self.plan.vector_loops.iter()).any(|l| l.header == path.header);
        copies.then_some(path)
    }

    /// The blocks from `join` on that the translator emits as one (each
    /// after the next continues its predecessor) when the last is a
    /// rotated loop's latch, and that loop's header.
    fn latch_path(&self, join: ir::Block) -> Option<LatchPath> {
        let mut blocks = vec![join];
        let mut at = join;
        while let Some(ir::Terminator::Jump(next)) = self.f.blocks[at].term {
            if self.is_rotated_latch(at, next) {
                return Some(LatchPath {
                    blocks,
                    header: next,
                });
            }
            if !self.continues_its_predecessor(next) || blocks.len() > MAX_COPIED_LATCH {
                return None;
            }
            blocks.push(next);
            at = next;
        }
        None
    }

    /// Ends `block` with a copy of `path` ([`latch_copy`](Self::latch_copy)):
    /// its join's phis take `block`'s arguments, the instructions are made
    /// again, and the header's test repeated on them branches back or out.
    fn copy_latch(&mut self, block: ir::Block, path: &LatchPath) {
        let incoming = self.edge_args(block, path.blocks[0]);
        let latch = *path.blocks.last().expect("a latch");
        let header = path.header;
        self.translate_again(&path.blocks, &incoming, |t| {
            t.repeat_header_test(latch, header);
        });
    }

    /// Ends a rotated loop's latch with a copy of its header: the header's
    /// instructions on the values the latch passes to its phis, then its
    /// branch (`ir::rotate`).
    pub(super) fn repeat_header_test(&mut self, latch: ir::Block, header: ir::Block) {
        let incoming = self.edge_args(latch, header);
        let Some(ir::Terminator::Branch {
            cond,
            then_block,
            else_block,
        }) = self.f.blocks[header].term
        else {
            unreachable!("ir::rotate: a rotated header branches");
        };
        self.translate_again(&[header], &incoming, |t| {
            t.branch(header, cond, then_block, else_block);
        });
    }

    /// Translates the instructions of `blocks` (a run the translator emits
    /// as one) again, into the current Cranelift block, with the first
    /// block's phis taking `incoming`; then `end` (the terminator, with the
    /// last block as the current one). The values the blocks define map to
    /// their first translation again afterwards.
    fn translate_again(
        &mut self,
        blocks: &[ir::Block],
        incoming: &[cl::BlockArg],
        end: impl FnOnce(&mut Self),
    ) {
        let f = self.f;
        let phis = &f.blocks[blocks[0]].phis;
        let insts = || blocks.iter().flat_map(|&b| &f.blocks[b].insts);
        let results = insts().filter_map(|&i| f.insts[i].result);
        let defined: Vec<ir::Value> = phis.iter().copied().chain(results).collect();
        let saved: Vec<Option<cl::Value>> = defined.iter().map(|&v| self.values[v]).collect();
        for (&phi, arg) in phis.iter().zip(incoming) {
            self.values[phi] = arg.as_value();
        }
        let here = self.current_block;
        for &b in blocks {
            self.current_block = b;
            for &inst in &f.blocks[b].insts {
                self.inst(inst);
            }
        }
        end(self);
        self.current_block = here;
        for (v, cv) in defined.into_iter().zip(saved) {
            self.values[v] = cv;
        }
    }

    /// The negation of `c` when `c` is an integer comparison and Cranelift
    /// optimizes: a loop header branching on it with the targets swapped
    /// puts the loop body first in Cranelift's block order (its reverse
    /// post-order places a branch's second target first), so the body
    /// falls through from its test instead of being jumped to.
    /// The egraph folds `icmp eq (icmp cc x y), 0` into `icmp !cc x y`;
    /// without it the negation would cost an instruction, so not at -O0/-O1.
    pub(super) fn inverted_comparison(&mut self, c: cl::Value) -> Option<cl::Value> {
        if !self.env.plan.invert_loop_tests {
            return None;
        }
        let cl::ValueDef::Result(inst, _) = self.b.func.dfg.value_def(c) else {
            return None;
        };
        let opcode = self.b.func.dfg.insts[inst].opcode();
        if opcode != cl::Opcode::Icmp {
            return None;
        }
        Some(self.b.ins().icmp_imm_u(IntCC::Equal, c, 0))
    }
}
