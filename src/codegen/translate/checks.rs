//! Checks that stop the program: the bounds and division checks, each
//! branching to a cold block that calls the runtime's report (marked with
//! the check's call-stack frames), the stack check on entry, and the
//! checks `ir::bounds` plans ahead of their accesses (a group's, a loop
//! entry's).

use super::*;
use smallvec::SmallVec;

impl<'a: 'p, 'p, M: Module> Translator<'a, 'p, '_, M> {
    /// Branches to a cold block reporting `kind` at `loc` when `failed`;
    /// `details` are the operands the message names (index and length).
    /// The cold block stores the details and jumps, with the kind and
    /// location, to the report block its frames share
    /// ([`report_block`](Self::report_block)): a call per check, with its
    /// argument and clobber constraints, cost the register allocator more
    /// than the branch to it, and so did the details as the report
    /// block's parameters (each edge had to bring them in its registers).
    pub(super) fn check(
        &mut self,
        failed: cl::Value,
        kind: ErrorKind,
        loc: SrcLoc,
        details: [cl::Value; 2],
    ) {
        let error = self.b.create_block();
        let ok = self.b.create_block();
        self.b.set_cold_block(error);
        self.b.ins().brif(failed, error, &[], ok, &[]);
        self.b.switch_to_block(error);
        let report = self.report_block(loc);
        self.store_details(&details);
        let code = self.b.ins().iconst(types::I64, kind as i64);
        let packed = self.b.ins().iconst(types::I64, pack_loc(loc.line, loc.col));
        let args = [code, packed].map(cl::BlockArg::Value);
        self.b.ins().jump(report, &args);
        self.b.switch_to_block(ok);
    }

    /// The cold block that reports an error with the frames of `loc` (its
    /// line and column aside: the runtime is passed those): its parameters
    /// are the error's kind and its packed location; the details are in
    /// `toy_rt_error_details`.
    /// Built on first use, while the current block is still empty.
    fn report_block(&mut self, loc: SrcLoc) -> cl::Block {
        let mut frames = self.frames_at(loc);
        frames[0].1 = SrcLoc::default();
        if let Some(&block) = self.reports.get(&frames) {
            return block;
        }
        let here = self.b.current_block().expect("in a block");
        let block = self.b.create_block();
        self.b.set_cold_block(block);
        let params = [(); 2].map(|_| self.b.append_block_param(block, types::I64));
        self.b.switch_to_block(block);
        let error = self.env.runtime.error;
        self.report_details(frames.clone(), error, &params, &[]);
        self.end_after_report();
        self.b.switch_to_block(here);
        self.reports.insert(frames, block);
        block
    }

    /// Calls the runtime's error report `id` with `args` and then the
    /// address of `details`, stored in the runtime's
    /// `toy_rt_error_details`, the call marked with `frames` (see
    /// [`report`](Self::report)). In memory, the values a check compares need no particular
    /// registers: passed as arguments, Cranelift's register allocator
    /// copied them into the argument registers on the hot path, before the
    /// compare, at every check. (A stack slot would give every function
    /// with a check a frame to set up.)
    pub(super) fn report_details(
        &mut self,
        frames: SiteFrames<'a>,
        id: FuncId,
        args: &[cl::Value],
        details: &[cl::Value],
    ) {
        let addr = self.store_details(details);
        let args: SmallVec<[cl::Value; 4]> = args.iter().copied().chain([addr]).collect();
        self.report(frames, id, &args);
    }

    /// Stores `details` in the runtime's `toy_rt_error_details`; returns
    /// its address.
    fn store_details(&mut self, details: &[cl::Value]) -> cl::Value {
        let addr = self.data_addr(self.env.runtime.error_details);
        for (k, &v) in details.iter().enumerate() {
            self.b.ins().store(mem(), v, addr, 8 * k as i32);
        }
        addr
    }

    /// Calls the runtime's error report `id` with `args`, the call marked
    /// with `frames`, so that the runtime (which notes where it was called
    /// from) names the (possibly expanded) function and its callers.
    fn report(&mut self, frames: SiteFrames<'a>, id: FuncId, args: &[cl::Value]) {
        self.mark_frames(frames);
        self.call_rt(id, args);
        self.b.set_srcloc(cl::SourceLoc::default());
    }

    /// Marks the instructions built from here on (until the source
    /// location is reset) as a call site with the frames of `loc`: the
    /// function being translated (or expanded) and the calls expanded to
    /// get here.
    pub(super) fn mark_site(&mut self, loc: SrcLoc) {
        let frames = self.frames_at(loc);
        self.mark_frames(frames);
    }

    /// Marks the instructions built from here on (until the source
    /// location is reset) as a call site with `frames`.
    fn mark_frames(&mut self, frames: SiteFrames<'a>) {
        self.b
            .set_srcloc(cl::SourceLoc::new(self.sites.len() as u32));
        self.sites.push(frames);
    }

    /// The call-stack frames of `loc`, innermost first: the function being
    /// translated (or expanded) and the calls expanded to get here.
    fn frames_at(&self, loc: SrcLoc) -> SiteFrames<'a> {
        let mut frames = Vec::new();
        self.f.frames_at(loc, &mut frames);
        for &(caller, call) in self.expanding.iter().rev() {
            caller.frames_at(call, &mut frames);
        }
        frames.into_boxed_slice()
    }

    /// When `failed`, runs `report` in a cold block, which then ends the
    /// program (or returns, in REPL code).
    pub(super) fn fail_if(&mut self, failed: cl::Value, report: impl FnOnce(&mut Self)) {
        let error = self.b.create_block();
        let ok = self.b.create_block();
        self.b.set_cold_block(error);
        self.b.ins().brif(failed, error, &[], ok, &[]);
        self.b.switch_to_block(error);
        report(self);
        self.end_after_report();
        self.b.switch_to_block(ok);
    }

    /// Ends a block that reported an error: the program ends (REPL code
    /// returns instead, and its caller polls).
    fn end_after_report(&mut self) {
        if self.in_session() {
            self.return_early();
        } else {
            self.b.ins().trap(cl::TrapCode::unwrap_user(1));
        }
    }

    /// In a function that calls Toy functions (only those can recurse):
    /// stops with `stack overflow` when the stack pointer is below the
    /// limit. The runtime finds the call that got here from the return
    /// address; the function's first call stands in should it not.
    pub(super) fn stack_check_on_entry(&mut self) {
        let Some(first_call) = self.first_toy_call() else {
            return;
        };
        let ptr = self.module.target_config().pointer_type();
        let (sp, limit) = self.stack_pointer_and_limit();
        let overflow = self.b.ins().icmp(IntCC::UnsignedLessThan, sp, limit);
        self.fail_if(overflow, |t| {
            let return_address = t.b.ins().get_return_address(ptr);
            let fp = t.b.ins().get_frame_pointer(ptr);
            let fallback = pack_loc(first_call.line, first_call.col);
            let fallback = t.b.ins().iconst(types::I64, fallback);
            t.call_rt(
                t.env.runtime.stack_overflow,
                &[return_address, fallback, fp],
            );
        });
    }

    /// `ir::InstKind::CheckDepth`: stops with `stack overflow` at `loc`
    /// when `depth` bytes would reach below the stack limit; the report
    /// counts them as calls.
    pub(super) fn check_depth(&mut self, depth: ir::Value, loc: SrcLoc) {
        let depth = self.val(depth);
        let (sp, limit) = self.stack_pointer_and_limit();
        let low = self.b.ins().isub(sp, depth);
        let overflow = self.b.ins().icmp(IntCC::SignedLessThan, low, limit);
        let zero = self.b.ins().iconst(types::I64, 0);
        self.check(overflow, ErrorKind::StackOverflow, loc, [depth, zero]);
    }

    /// The stack pointer and the runtime's stack limit
    /// (`toy_rt_stack_limit`, loaded as a value that does not change).
    fn stack_pointer_and_limit(&mut self) -> (cl::Value, cl::Value) {
        let ptr = self.module.target_config().pointer_type();
        let sp = self.b.ins().get_stack_pointer(ptr);
        let limit_addr = self.data_addr(self.env.runtime.stack_limit);
        (sp, self.b.ins().load(ptr, fixed(), limit_addr, 0))
    }

    /// The location of the first call of a Toy function that is not
    /// expanded in place.
    pub(super) fn first_toy_call(&self) -> Option<SrcLoc> {
        let f = self.f;
        f.layout
            .iter()
            .flat_map(|&b| f.blocks[b].insts.iter().map(move |&i| (b, i)))
            .find_map(|(b, i)| match f.insts[i].kind {
                InstKind::Call(func, _) if self.inlined(func, b).is_none() => Some(f.insts[i].loc),
                _ => None,
            })
    }

    /// Whether bounds checks run ahead of their accesses (in groups, on
    /// loop entry). Not in REPL code: arrays outlive a failed entry, so
    /// the stores skipped by an early failure would be seen.
    pub(super) fn checks_ahead(&self) -> bool {
        !self.in_session()
    }

    /// At the end of a loop's preheader: the bounds checks of the loop's
    /// first iteration (`ir::bounds` rule 4), which apply if it runs.
    pub(super) fn check_on_loop_entry(&mut self, preheader: ir::Block) {
        if !self.checks_ahead() {
            return;
        }
        let plan = self.plan;
        let Some(checks) = plan.checks.entry_checks.get(&preheader) else {
            return;
        };
        for check in checks {
            let (a, cmp, b) = check.enters;
            let (a, b) = (self.val(a), self.val(b));
            let enters = self.b.ins().icmp(int_cc(cmp), a, b);
            if !check.others.is_empty() {
                self.check_walk(check, enters);
                continue;
            }
            let mut index = self.val(check.index);
            let len = self.array_len(check.array);
            let mut out = self
                .b
                .ins()
                .icmp(IntCC::UnsignedGreaterThanOrEqual, index, len);
            if let Some(end) = check.runs_to {
                // The walk from `index` to `end` leaves the array at its
                // start, or else at `len` if it gets that far.
                let end = self.val(end);
                let overruns = self.b.ins().icmp(IntCC::SignedGreaterThan, end, len);
                index = self.b.ins().select(out, index, len);
                out = self.b.ins().bor(out, overruns);
            }
            let failed = self.b.ins().band(enters, out);
            let loc = self.f.insts[check.inst].loc;
            self.check(failed, ErrorKind::IndexOutOfBounds, loc, [index, len]);
        }
    }

    /// Rule 6 over several arrays (`ir::bounds`): the loop walks each from
    /// `check.index` up to `check.runs_to` unless one ends first. The cold
    /// path hands the runtime the walk, the lengths and a table of the
    /// arrays' first accesses (`[n, loc…]`, in the order an iteration runs
    /// them); `toy_rt_walk_error` reports the access that fails first.
    pub(super) fn check_walk(&mut self, check: &EntryCheck, enters: cl::Value) {
        let start = self.val(check.index);
        let end = self.val(check.runs_to.expect("a walk has an end"));
        let accesses: Vec<(ir::Value, ir::Inst)> = std::iter::once((check.array, check.inst))
            .chain(check.others.iter().copied())
            .collect();
        let mut lens = Vec::new();
        let mut out = None;
        for &(array, _) in &accesses {
            let len = self.array_len(array);
            let starts_out = self
                .b
                .ins()
                .icmp(IntCC::UnsignedGreaterThanOrEqual, start, len);
            let overruns = self.b.ins().icmp(IntCC::SignedGreaterThan, end, len);
            let fails = self.b.ins().bor(starts_out, overruns);
            out = Some(match out {
                Some(o) => self.b.ins().bor(o, fails),
                None => fails,
            });
            lens.push(len);
        }
        let failed = self.b.ins().band(enters, out.expect("a walk has arrays"));
        // All in one function: the frames of the first stand for all.
        let site = self.f.insts[accesses[0].1].loc;
        let mut words = vec![accesses.len() as i64];
        words.extend(accesses.iter().map(|&(_, inst)| {
            let loc = self.f.insts[inst].loc;
            pack_loc(loc.line, loc.col)
        }));
        let table = self.constant_table(&words);
        self.fail_if(failed, |t| {
            let table = t.data_addr(table);
            let mut details = vec![start, end];
            details.extend(padded_lens(&lens));
            let frames = t.frames_at(site);
            t.report_details(frames, t.env.runtime.walk_error, &[table], &details);
        });
    }

    /// Checks a group of accesses at once: each array's length against the
    /// group's largest constant index into it, or, for offsets from a
    /// base, the base plus the smallest offset against the length less the
    /// offsets' span (every index between them is in bounds exactly when
    /// both ends are, as each access's own unsigned compare would find).
    /// The cold path reports the access that fails first in program
    /// order, as the accesses' own checks would have.
    pub(super) fn check_group(&mut self, group: &[GroupedAccess]) {
        let mut lens: Vec<(ir::Value, cl::Value)> = Vec::new();
        let mut failed = None;
        for access in group {
            if lens.iter().any(|&(a, _)| a == access.array) {
                continue;
            }
            let offsets = || {
                group
                    .iter()
                    .filter(|g| g.array == access.array)
                    .map(|g| g.offset)
            };
            let len = self.array_len(access.array);
            lens.push((access.array, len));
            let fails = match access.base {
                None => {
                    let largest = offsets()
                        .map(|k| k as u64)
                        .max()
                        .expect("the access itself");
                    (self.b.ins()).icmp_imm_u(IntCC::UnsignedLessThanOrEqual, len, largest as i64)
                }
                Some(base) => {
                    let [low, high] =
                        [offsets().min(), offsets().max()].map(|k| k.expect("the access itself"));
                    let base = self.val(base);
                    let first = self.b.ins().iadd_imm_s(base, low);
                    // `first .. first + span` lies in `0..len` exactly when
                    // `first <u max(len - span, 0)`: one compare, against
                    // a limit that depends on the array alone (hoisted
                    // with its length).
                    let span = high - low;
                    let limit = match span {
                        0 => len,
                        _ => {
                            let limit = self.b.ins().iadd_imm_s(len, -span);
                            let zero = self.b.ins().iconst(types::I64, 0);
                            self.b.ins().smax(limit, zero)
                        }
                    };
                    (self.b.ins()).icmp(IntCC::UnsignedGreaterThanOrEqual, first, limit)
                }
            };
            failed = Some(match failed {
                Some(f) => self.b.ins().bor(f, fails),
                None => fails,
            });
        }
        let failed = failed.expect("a group has accesses");
        // All in one function: the frames of the first stand for all.
        let site = self.f.insts[group[0].inst].loc;
        let table = self.group_table(group, &lens);
        let base = group[0].base.map(|b| self.val(b));
        let lens: Vec<cl::Value> = lens.iter().map(|&(_, len)| len).collect();
        self.fail_if(failed, |t| {
            let table = t.data_addr(table);
            let base = base.unwrap_or_else(|| t.b.ins().iconst(types::I64, 0));
            let details: Vec<cl::Value> = padded_lens(&lens).into_iter().chain([base]).collect();
            let frames = t.frames_at(site);
            t.report_details(frames, t.env.runtime.group_error, &[table], &details);
        });
    }

    /// The table `toy_rt_group_error` reads when a group's check fails:
    /// `[n, (loc, offset, array)…]` for the accesses that can fail first,
    /// in program order (all of a group of offsets from a base, whose
    /// order unsigned depends on the base); `array` says which of the
    /// lengths passed along is the access's. A data object, not code: a chain of selects
    /// choosing among the accesses made the cold paths a tenth of the
    /// compile time of code that reads records field by field.
    pub(super) fn group_table(
        &mut self,
        group: &[GroupedAccess],
        lens: &[(ir::Value, cl::Value)],
    ) -> DataId {
        let candidates = match group[0].base {
            None => first_failure_candidates(group),
            Some(_) => group.to_vec(),
        };
        let mut words = vec![candidates.len() as i64];
        for access in &candidates {
            let loc = self.f.insts[access.inst].loc;
            let array = lens.iter().position(|&(a, _)| a == access.array);
            words.extend([
                pack_loc(loc.line, loc.col),
                access.offset,
                array.expect("loaded") as i64,
            ]);
        }
        self.constant_table(&words)
    }

    /// A read-only data object holding `words`.
    pub(super) fn constant_table(&mut self, words: &[i64]) -> DataId {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_ne_bytes()).collect();
        let mut desc = DataDescription::new();
        desc.define(bytes.into_boxed_slice());
        desc.set_align(8);
        // Neither can fail for a fresh anonymous object.
        let id = self
            .module
            .declare_anonymous_data(false, false)
            .expect("anonymous data is always declarable");
        self.module
            .define_data(id, &desc)
            .expect("a fresh data object is defined once");
        id
    }
}

/// The lengths a failed group or walk hands the runtime: one word per
/// array it may span, the unused ones repeating the first.
fn padded_lens(lens: &[cl::Value]) -> [cl::Value; MAX_GROUP_ARRAYS] {
    std::array::from_fn(|k| lens.get(k).copied().unwrap_or(lens[0]))
}

/// The accesses of a group that can be the first to fail: one whose index
/// exceeds every earlier index into the same array (an access at or below
/// an earlier one fails only if that one failed first), compared
/// unsigned as the checks do.
/// `b[0] b[3] b[1] b[4] b[2] b[5]` leaves `b[0] b[3] b[4] b[5]`.
fn first_failure_candidates(group: &[GroupedAccess]) -> Vec<GroupedAccess> {
    // Unsigned, as the checks compare: a negative index is above all.
    let mut highest: Vec<(ir::Value, u64)> = Vec::new();
    let mut candidates = Vec::new();
    for access in group {
        let index = access.offset as u64;
        match highest.iter_mut().find(|(a, _)| *a == access.array) {
            Some((_, top)) if index <= *top => continue,
            Some((_, top)) => *top = index,
            None => highest.push((access.array, index)),
        }
        candidates.push(*access);
    }
    candidates
}
