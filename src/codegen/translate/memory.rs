//! Memory: array lengths, element addresses (with their bounds checks),
//! element and global loads and stores, and array literals.

use super::*;
use jitrun_runtime::gc;

/// Elements of an array made in line, at most: each is a store.
const FAST_MAX_ELEMENTS: i64 = 16;

impl<'a: 'p, 'p, M: Module> Translator<'a, 'p, '_, M> {
    /// The base address and offset of global `g`'s slot.
    pub(super) fn global_addr(&mut self, g: u32) -> (cl::Value, i32) {
        match self.env.linking {
            Linking::Program { globals, .. } => {
                let base = match self.globals_base {
                    Some(base) => base,
                    None => self.data_addr(globals),
                };
                (base, 8 * g as i32)
            }
            Linking::Session { global_cells, .. } => {
                let ptr = self.module.target_config().pointer_type();
                let cell = global_cells[g as usize] as i64;
                (self.b.ins().iconst(ptr, cell), 0)
            }
        }
    }

    /// The length of `array`. Where a collection can run (`may_collect`)
    /// the load stays where it is: sunk past a call (as `can_move` lets
    /// Cranelift do), it would read an array the collector freed in the
    /// call, the array being dead there (and so in no stack map).
    pub(super) fn load_len(&mut self, array: cl::Value) -> cl::Value {
        let flags = if self.may_collect {
            mem().with_readonly()
        } else {
            fixed()
        };
        self.b.ins().load(types::I64, flags, array, 0)
    }

    /// The length of `array`, an array of the function being translated,
    /// where a check or `len` needs it: a constant where `ir::lengths`
    /// knows it, the value loaded before the loop where it loaded one,
    /// else a load here.
    pub(super) fn array_len(&mut self, array: ir::Value) -> cl::Value {
        if let Some(&n) = self.plan.lengths.known.get(&array) {
            return self.b.ins().iconst(types::I64, n);
        }
        if !self.loaded_lengths.is_empty() {
            let loops = &self.plan.loops;
            let mut at = loops.innermost(self.current_block);
            while let Some(l) = at {
                if let Some(&len) = self.loaded_lengths.get(&(array, l)) {
                    return len;
                }
                at = loops.loops[l].parent;
            }
        }
        let a = self.val(array);
        self.load_len(a)
    }

    /// At the end of a loop's preheader: the lengths `ir::lengths` says
    /// the loop's checks read, loaded once.
    pub(super) fn load_lengths_before_loop(&mut self, preheader: ir::Block) {
        let plan = self.plan;
        let arrays = plan.lengths.loaded_before.get(&preheader);
        for &(array, l) in arrays.into_iter().flatten() {
            let a = self.val(array);
            let len = self.load_len(a);
            self.loaded_lengths.insert((array, l), len);
        }
    }

    /// The address of `array[index]` minus the header size, for elements
    /// of type `elem`, as an address and a byte offset from it; after the
    /// bounds check (an unsigned compare also catches negative indices)
    /// unless `ir::bounds` proved it redundant or its group checked it.
    pub(super) fn element_addr(
        &mut self,
        array: ir::Value,
        index: ir::Value,
        elem: Ty,
        inst: ir::Inst,
        loc: SrcLoc,
    ) -> (cl::Value, i64) {
        let ahead = self.checks_ahead();
        if ahead {
            let plan = self.plan;
            if let Some(group) = plan.checks.groups.get(&inst) {
                self.check_group(group);
            }
        }
        let a = self.val(array);
        let i = self.val(index);
        let checks = &self.plan.checks;
        let checked_already = checks.proven[inst] || (ahead && checks.covered[inst]);
        if !checked_already {
            let len = self.array_len(array);
            let out = self.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, i, len);
            self.check(out, ErrorKind::IndexOutOfBounds, loc, [i, len]);
        }
        let size = elem.elem_size();
        if let Some(offset) = self.constant_offset(index, size) {
            return (a, offset);
        }
        if let Some(&split) = self.plan.split_indices.get(&inst) {
            let invariant = self.val(split.invariant);
            let base = self.scaled_add(a, invariant, size);
            let varying = self.val(split.varying);
            return (self.scaled_add(base, varying, size), split.offset * size);
        }
        (self.scaled_add(a, i, size), 0)
    }

    /// `base + index * size` (`size` a power of two).
    fn scaled_add(&mut self, base: cl::Value, index: cl::Value, size: i64) -> cl::Value {
        let offset = match size {
            1 => index,
            size => self.b.ins().ishl_imm_u(index, size.trailing_zeros() as i64),
        };
        self.b.ins().iadd(base, offset)
    }

    /// The byte offset of element `index` when the index is a constant
    /// (record fields `b[0]` … `b[6]`): the access then addresses the
    /// array directly, instead of giving Cranelift a shift and an add to
    /// fold for every field (a sixth of the instructions of code that
    /// reads records).
    pub(super) fn constant_offset(&self, index: ir::Value, size: i64) -> Option<i64> {
        let Some(Const::Int(k)) = self.f.constant(index) else {
            return None;
        };
        let offset = k.checked_mul(size)?;
        let fits = (0..=i64::from(i32::MAX) - ARRAY_HEADER).contains(&offset);
        fits.then_some(offset)
    }

    pub(super) fn array_literal(
        &mut self,
        inst: ir::Inst,
        elems: &[ir::Value],
        loc: SrcLoc,
    ) -> cl::Value {
        let elem = self.f.value_ty(elems[0]);
        let n = elems.len() as i64;
        let len = self.b.ins().iconst(types::I64, n);
        let arr = self.new_array(inst, elem, len, Some(n), None, loc);
        let values: Vec<cl::Value> = elems.iter().map(|&e| self.val(e)).collect();
        self.store_elements(elem, &values, arr);
        arr
    }

    fn store_elements(&mut self, elem: Ty, elems: &[cl::Value], arr: cl::Value) {
        for (i, &v) in elems.iter().enumerate() {
            self.store_element(elem, v, arr, elem.elem_size() * i as i64);
        }
    }

    /// `ir::InstKind::Renew`: `old` itself, overwritten with `elems`, when
    /// its header says a renew made it and its length is theirs; otherwise
    /// a new array whose header says so, from the runtime.
    pub(super) fn renew(
        &mut self,
        inst: ir::Inst,
        old: ir::Value,
        elems: &[ir::Value],
        loc: SrcLoc,
    ) -> cl::Value {
        let elem = self.f.value_ty(elems[0]);
        let n = elems.len() as i64;
        let renewable = gc::renewable_header(elem.elem_kind()) as i64;
        let old = self.val(old);
        let header = (self.b.ins()).load(types::I64, mem(), old, -(gc::HEADER_BYTES as i32));
        let len = self.b.ins().load(types::I64, mem(), old, 0);
        let made_so = self.b.ins().icmp_imm_s(IntCC::Equal, header, renewable);
        let fits = self.b.ins().icmp_imm_s(IntCC::Equal, len, n);
        let reusable = self.b.ins().band(made_so, fits);
        let fresh = self.b.create_block();
        let join = self.b.create_block();
        let arr = self.b.append_block_param(join, types::I64);
        self.b.set_cold_block(fresh);
        (self.b.ins()).brif(reusable, join, &[cl::BlockArg::Value(old)], fresh, &[]);
        self.b.switch_to_block(fresh);
        // Rare once the program runs (the first store to an element), so
        // a call of the runtime, without the in-line fast path's code.
        let len = self.b.ins().iconst(types::I64, n);
        let made = self.call_array_new(inst, elem, len, None, loc, true);
        let header = self.b.ins().iconst(types::I64, renewable);
        (self.b.ins()).store(mem(), header, made, -(gc::HEADER_BYTES as i32));
        self.b.ins().jump(join, &[cl::BlockArg::Value(made)]);
        self.b.switch_to_block(join);
        let values: Vec<cl::Value> = elems.iter().map(|&e| self.val(e)).collect();
        self.store_elements(elem, &values, arr);
        arr
    }

    /// A new array of `len` elements of type `elem`, each `fill` (or left
    /// for the caller to store, when `fill` is `None`: an array literal).
    /// When the length is a constant `known` whose array takes a slot, the
    /// slot is taken in line from the free list of its class, if the
    /// allocation fast path's allowance covers it and the list is not
    /// empty (`jitrun_runtime::gc::FastAlloc`); otherwise — and for any
    /// other length — the runtime makes the array, a safepoint where the
    /// collector may run.
    pub(super) fn new_array(
        &mut self,
        inst: ir::Inst,
        elem: Ty,
        len: cl::Value,
        known: Option<i64>,
        fill: Option<cl::Value>,
        loc: SrcLoc,
    ) -> cl::Value {
        let header = gc::live_header(elem.elem_kind());
        let slot = known
            .filter(|&n| (0..=FAST_MAX_ELEMENTS).contains(&n))
            .and_then(|n| Some((n, gc::slot_of(n as usize, elem.elem_kind())?)));
        let Some((n, (class, slot_bytes))) = slot else {
            return self.call_array_new(inst, elem, len, fill, loc, false);
        };
        let fast = self.b.create_block();
        let slow = self.b.create_block();
        let join = self.b.create_block();
        let arr = self.b.append_block_param(join, types::I64);
        self.b.set_cold_block(slow);
        // The allowance and the first free slot of the class.
        let cell = self.data_addr(self.env.runtime.alloc);
        let ctx = self.b.ins().load(types::I64, mem(), cell, 0);
        let free_at = gc::FAST_FREE_OFFSET + 8 * class as i32;
        let credit = (self.b.ins()).load(types::I64, mem(), ctx, gc::FAST_CREDIT_OFFSET);
        let left = (self.b.ins()).iadd_imm_s(credit, -(slot_bytes as i64));
        let covered = self
            .b
            .ins()
            .icmp_imm_s(IntCC::SignedGreaterThanOrEqual, left, 0);
        let head = self.b.ins().load(types::I64, mem(), ctx, free_at);
        let listed = self.b.ins().icmp_imm_s(IntCC::NotEqual, head, 0);
        let ok = self.b.ins().band(covered, listed);
        self.b.ins().brif(ok, fast, &[], slow, &[]);

        self.b.switch_to_block(fast);
        let next = self.b.ins().load(types::I64, mem(), head, 16);
        self.b.ins().store(mem(), next, ctx, free_at);
        (self.b.ins()).store(mem(), left, ctx, gc::FAST_CREDIT_OFFSET);
        let count = (self.b.ins()).load(types::I64, mem(), ctx, gc::FAST_COUNT_OFFSET);
        let count = self.b.ins().iadd_imm_s(count, 1);
        (self.b.ins()).store(mem(), count, ctx, gc::FAST_COUNT_OFFSET);
        let word = self.b.ins().iconst(types::I64, header as i64);
        self.b.ins().store(mem(), word, head, 0);
        let made = self.b.ins().iadd_imm_s(head, 8);
        self.b.ins().store(mem(), len, made, 0);
        if let Some(fill) = fill {
            for i in 0..n {
                self.store_element(elem, fill, made, elem.elem_size() * i);
            }
        }
        self.b.ins().jump(join, &[cl::BlockArg::Value(made)]);

        self.b.switch_to_block(slow);
        let called = self.call_array_new(inst, elem, len, fill, loc, true);
        self.b.ins().jump(join, &[cl::BlockArg::Value(called)]);
        self.b.switch_to_block(join);
        arr
    }

    /// The runtime's `array_new`, at a safepoint. The `preserving` entry
    /// keeps every register, for the slow path of an allocation made in
    /// line: otherwise that rarely taken call would make a loop around it
    /// spill what it holds (regalloc2 does not weigh the call's block as
    /// cold).
    fn call_array_new(
        &mut self,
        inst: ir::Inst,
        elem: Ty,
        len: cl::Value,
        fill: Option<cl::Value>,
        loc: SrcLoc,
        preserving: bool,
    ) -> cl::Value {
        let bits = match fill {
            Some(fill) => self.slot_bits(elem, fill),
            None => self.b.ins().iconst(types::I64, 0),
        };
        let kind = self.b.ins().iconst(types::I64, elem.elem_kind() as i64);
        let packed = self.b.ins().iconst(types::I64, pack_loc(loc.line, loc.col));
        self.mark_site(loc);
        let args = [len, bits, kind, packed];
        let arr = if preserving {
            let entry = self.env.runtime.array_new_preserving;
            self.safepoint_call(inst, |t| t.call_rt_inst(entry, &args));
            let cell = self.data_addr(self.env.runtime.alloc_result);
            self.b.ins().load(types::I64, mem(), cell, 0)
        } else {
            let entry = self.env.runtime.array_new;
            let made = self.safepoint_call(inst, |t| t.call_rt_inst(entry, &args));
            made.expect("array_new returns the array")
        };
        self.b.set_srcloc(cl::SourceLoc::default());
        self.poll_pending();
        arr
    }

    /// Loads the element of type `ty` at `addr + offset` past the header.
    pub(super) fn load_element(&mut self, ty: Ty, addr: cl::Value, offset: i64) -> cl::Value {
        let offset = (ARRAY_HEADER + offset) as i32;
        self.b
            .ins()
            .load(cl_type(ty), self.elements.of(ty), addr, offset)
    }

    pub(super) fn store_element(&mut self, ty: Ty, v: cl::Value, addr: cl::Value, offset: i64) {
        debug_assert_eq!(self.b.func.dfg.value_type(v), cl_type(ty));
        let offset = (ARRAY_HEADER + offset) as i32;
        self.b.ins().store(self.elements.of(ty), v, addr, offset);
    }

    /// Every global takes an 8-byte cell; bools are stored widened to 0/1
    /// so that the layout is endian-independent.
    pub(super) fn load_global(&mut self, ty: Ty, addr: cl::Value, offset: i32) -> cl::Value {
        let flags = self.global_cells;
        match ty {
            Ty::Bool => {
                let wide = self.b.ins().load(types::I64, flags, addr, offset);
                self.b.ins().ireduce(types::I8, wide)
            }
            other => self.b.ins().load(cl_type(other), flags, addr, offset),
        }
    }

    pub(super) fn store_global(&mut self, ty: Ty, v: cl::Value, addr: cl::Value, offset: i32) {
        let v = match ty {
            Ty::Bool => self.b.ins().uextend(types::I64, v),
            _ => v,
        };
        self.b.ins().store(self.global_cells, v, addr, offset);
    }

    /// A fill value as `toy_rt_array_new` takes it: an element's bits as an
    /// i64 (bools as 0/1).
    pub(super) fn slot_bits(&mut self, ty: Ty, v: cl::Value) -> cl::Value {
        match ty {
            Ty::Bool => self.b.ins().uextend(types::I64, v),
            Ty::Float => self.b.ins().bitcast(types::I64, MemFlagsData::new(), v),
            Ty::Int | Ty::Array => v,
        }
    }
}
