//! Calls: of Toy functions (directly, through the session's table, or
//! expanded in place when the callee is a small leaf), of the runtime's
//! print functions, and the collector's roots stored before each call
//! that may collect.

use super::*;

impl<'a: 'p, 'p, M: Module> Translator<'a, 'p, '_, M> {
    /// The body to expand in place of a call of `func` in `block`, if any.
    pub(super) fn inlined(&self, func: ir::FuncRef, block: ir::Block) -> Option<&'a Inlinable<'a>> {
        match self.env.linking {
            Linking::Program { inline, .. }
                if expands_calls_in(self.plan.expands_outside_loops, &self.plan.loops, block) =>
            {
                inline[func as usize].as_ref()
            }
            _ => None,
        }
    }

    /// Before the call of `inst` that may collect: stores the arrays live
    /// across it (and across the calls being expanded around it) into the
    /// root slots; returns the stack map entries naming them. Nothing is
    /// reloaded after the call: the heap does not move.
    pub(super) fn store_roots(&mut self, inst: ir::Inst) -> Vec<UserStackMapEntry> {
        let plan = self.plan;
        let mut values = self.outer_roots.clone();
        if let Some(live) = plan.roots.get(&inst) {
            values.extend(live.iter().map(|&v| self.val(v)));
        }
        values.sort_unstable();
        values.dedup();
        let mut entries = Vec::with_capacity(values.len());
        for (i, v) in values.into_iter().enumerate() {
            let slot = self.root_slot(i);
            let addr = self.b.ins().stack_addr(types::I64, slot, 0);
            self.b.ins().store(MemFlagsData::trusted(), v, addr, 0);
            entries.push(UserStackMapEntry {
                ty: cl_type(Ty::Array),
                slot,
                offset: 0,
            });
        }
        entries
    }

    pub(super) fn root_slot(&mut self, i: usize) -> cl::StackSlot {
        while self.root_slots.len() <= i {
            let data = cl::StackSlotData::new(cl::StackSlotKind::ExplicitSlot, 8, 3);
            let slot = self.b.create_sized_stack_slot(data);
            self.root_slots.push(slot);
        }
        self.root_slots[i]
    }

    /// Emits `emit`'s call for IR instruction `inst`, its stack map naming
    /// the arrays live across it (none where `inst` cannot collect).
    pub(super) fn safepoint_call(
        &mut self,
        inst: ir::Inst,
        emit: impl FnOnce(&mut Self) -> cl::Inst,
    ) -> Option<cl::Value> {
        let entries = self.store_roots(inst);
        let call = emit(self);
        self.b.func.dfg.append_user_stack_map_entries(call, entries);
        self.b.inst_results(call).first().copied()
    }

    /// A call of a Toy function (the callee checks the stack limit),
    /// marked with its location for stack overflow reports.
    pub(super) fn call(
        &mut self,
        inst: ir::Inst,
        func: ir::FuncRef,
        args: &[ir::Value],
        result: Option<Ty>,
        loc: SrcLoc,
    ) -> Option<cl::Value> {
        let args: Vec<cl::Value> = args.iter().map(|&a| self.val(a)).collect();
        if let Some(callee) = self.inlined(func, self.current_block) {
            let outer = self.outer_roots.len();
            let plan = self.plan;
            for &v in plan.roots.get(&inst).into_iter().flatten() {
                let v = self.val(v);
                self.outer_roots.push(v);
            }
            self.expanding.push((self.f, loc));
            let result = self.inline_call(callee, &args);
            self.expanding.pop();
            self.outer_roots.truncate(outer);
            return result;
        }
        // The call's code range stands for `loc` (the range may take in
        // the instructions around the call; only the return address counts).
        self.mark_site(loc);
        let emit = |t: &mut Self| match t.env.linking {
            Linking::Program { functions, .. } => t.call_rt_inst(functions[func as usize], &args),
            Linking::Session { function_slots, .. } => {
                let ptr = t.module.target_config().pointer_type();
                let slot = t.b.ins().iconst(ptr, function_slots[func as usize] as i64);
                let code = t.b.ins().load(ptr, mem(), slot, 0);
                let sig = t.call_signature(&args, result);
                let sig = t.b.import_signature(sig);
                t.b.ins().call_indirect(sig, code, &args)
            }
        };
        let result = self.safepoint_call(inst, emit);
        self.b.set_srcloc(cl::SourceLoc::default());
        self.poll_pending();
        result
    }

    /// Translates the body of the one-block function `g` here, its
    /// parameters bound to `args`; returns its result.
    pub(super) fn inline_call(
        &mut self,
        callee: &'a Inlinable<'a>,
        args: &[cl::Value],
    ) -> Option<cl::Value> {
        let g = callee.body;
        let here = self.current_block;
        let into_loop = self.env.plan.hoist_float_constants
            && callee.has_float_constants
            && self.plan.loops.in_loop(here);
        let was_into_loop = self.inlining_into_loop.replace(into_loop);
        let caller = std::mem::replace(&mut self.f, g);
        let values = std::mem::replace(&mut self.values, SecondaryMap::with_default(None));
        let loaded_lengths = std::mem::take(&mut self.loaded_lengths);
        let plan = std::mem::replace(&mut self.plan, &callee.plan);
        let rotated = self.rotated.take();
        let block = std::mem::replace(&mut self.current_block, g.entry());
        for (&p, &a) in g.params.iter().zip(args) {
            self.values[p] = Some(a);
        }
        let entry = g.entry();
        for &inst in &g.blocks[entry].insts {
            self.inst(inst);
        }
        let result = match g.blocks[entry].term {
            Some(ir::Terminator::Return(v)) => v.map(|v| self.val(v)),
            _ => unreachable!("is_small_leaf: ends in a return"),
        };
        self.f = caller;
        self.values = values;
        self.loaded_lengths = loaded_lengths;
        self.plan = plan;
        self.inlining_into_loop = was_into_loop;
        self.rotated = rotated;
        self.current_block = block;
        result
    }

    pub(super) fn call_signature(&self, args: &[cl::Value], result: Option<Ty>) -> cl::Signature {
        let mut sig = self.module.make_signature();
        for &a in args {
            sig.params
                .push(cl::AbiParam::new(self.b.func.dfg.value_type(a)));
        }
        sig.returns
            .extend(result.map(|t| cl::AbiParam::new(cl_type(t))));
        sig
    }

    pub(super) fn print(&mut self, item: &PrintItem) {
        let rt = self.env.runtime;
        match item {
            PrintItem::Int(v) => {
                let v = self.val(*v);
                self.call_rt(rt.print_int, &[v]);
            }
            PrintItem::Float(v) => {
                let v = self.val(*v);
                self.call_rt(rt.print_float, &[v]);
            }
            PrintItem::Bool(v) => {
                let v = self.val(*v);
                let wide = self.b.ins().uextend(types::I64, v);
                self.call_rt(rt.print_bool, &[wide]);
            }
            PrintItem::Array(v, code) => {
                let v = self.val(*v);
                let code = self.b.ins().iconst(types::I64, *code);
                self.call_rt(rt.print_array, &[v, code]);
            }
            PrintItem::Str(s) => {
                let (data, len) = self.env.strings[*s as usize];
                let ptr = self.data_addr(data);
                let len = self.b.ins().iconst(types::I64, len as i64);
                self.call_rt(rt.print_str, &[ptr, len]);
            }
            PrintItem::Space => {
                self.call_rt(rt.print_space, &[]);
            }
            PrintItem::Newline => {
                self.call_rt(rt.print_newline, &[]);
            }
        }
    }
}
