//! Our SSA IR to Cranelift IR, one function at a time, with
//! `FunctionBuilder` but none of its `Variable` machinery: the IR is already
//! in SSA form. Each of our blocks becomes a Cranelift block, our phis its
//! block parameters, and the phi operands the arguments of the branches
//! from each predecessor.
//!
//! Operations that can fail become explicit checks branching to cold blocks
//! that call `toy_rt_error` (never a CPU trap): division by zero and index
//! out of bounds. Functions that call Toy functions check the stack limit
//! on entry; the runtime names the call that overflowed from the return
//! address, so each call carries its index in the returned list of call
//! sites as Cranelift source location; so do the calls of the runtime's
//! error reports and allocator, whose sites give a runtime error's call
//! stack (each site lists the Toy frames it stands for, expanded leaf
//! functions and `ir::inline`'s copies included).
//! Nothing here depends on the target beyond the pointer type.
//!
//! Code for a REPL entry ([`Linking::Session`]) differs in three ways: it
//! calls through the session's function table and addresses globals in
//! session cells; a failed check returns from the function instead of
//! trapping; and after every call that can fail and on every loop back
//! edge it polls `toy_rt_pending`, returning at once when a runtime error
//! or Ctrl-C is pending — so control always comes back to the REPL.

use super::plan::{def_kind, remainder_test, FunctionPlan, RemainderTest};
use super::Runtime;
use crate::entity::SecondaryMap;
use crate::ir::bounds::{EntryCheck, GroupedAccess};
use crate::ir::loops::Loops;
use crate::ir::rotate::RotatedLoop;
use crate::ir::semantics::Const;
use crate::ir::vector::VectorLoop;
use crate::ir::{self, BinaryOp, Cmp, InstKind, PrintItem, SrcLoc, Ty, UnaryOp, ValueDef};
use crate::passes::Plan;
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{self as cl, types, InstBuilder, MemFlagsData, UserStackMapEntry};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_module::{DataDescription, DataId, FuncId, Module};
use jitrun_runtime::{pack_loc, ErrorKind, ARRAY_HEADER, MAX_GROUP_ARRAYS};
use rustc_hash::FxHashMap;

pub fn cl_type(ty: Ty) -> cl::Type {
    match ty {
        Ty::Int | Ty::Array => types::I64,
        Ty::Float => types::F64,
        Ty::Bool => types::I8,
    }
}

/// What a function translation refers to outside itself.
pub struct Env<'a> {
    pub runtime: &'a Runtime,
    pub strings: &'a [(cranelift_module::DataId, usize)],
    pub linking: Linking<'a>,
    /// What to do beyond lowering (`passes::Plan`).
    pub plan: Plan,
}

/// How compiled code reaches user functions and globals.
pub enum Linking<'a> {
    /// A whole program in one module: direct calls, globals in one data
    /// object, runtime errors end the process.
    Program {
        /// The declared id of every user function, by `FuncRef`.
        functions: &'a [FuncId],
        globals: cranelift_module::DataId,
        /// By `FuncRef`: the functions whose calls are expanded in place
        /// ([`ir::inline::is_small_leaf`]; in the top-level code only on
        /// its loops).
        inline: &'a [Option<Inlinable<'a>>],
    },
    /// A REPL entry (see the module docs).
    Session {
        function_slots: &'a [usize],
        global_cells: &'a [usize],
    },
}

/// A function expanded at its call sites, with its plan made once rather
/// than at every call.
pub struct Inlinable<'a> {
    body: &'a ir::Function,
    plan: FunctionPlan,
    has_float_constants: bool,
}

/// Whether calls of small leaf functions in `block` are expanded in
/// place: everywhere in functions, in top-level code (whose `loops` these
/// are) only inside its loops, where a call costs per iteration; the rest
/// of it runs once, where an expansion would cost only compile time.
pub fn expands_calls_in(is_main: bool, loops: &Loops, block: ir::Block) -> bool {
    !is_main || loops.in_loop(block)
}

impl<'a> Inlinable<'a> {
    pub fn new(body: &'a ir::Function, plan: &Plan) -> Self {
        // A leaf: no calls to step over, and only its allocations collect.
        let allocates: &dyn Fn(&InstKind) -> bool = &ir::safepoints::allocates;
        Inlinable {
            body,
            plan: FunctionPlan::new(body, plan, &[], Some(allocates)),
            has_float_constants: (body.blocks[body.entry()].insts.iter())
                .any(|&i| matches!(body.insts[i].kind, InstKind::FConst(_))),
        }
    }
}

/// The Toy frames a call in compiled code stands for, innermost first
/// (function name and location; more than one where calls were expanded
/// in place), the call's location first.
pub type SiteFrames<'a> = Box<[(&'a str, SrcLoc)]>;

/// Translates `f` into `func` as its `plan` says; returns the frames of
/// each call of a Toy function, of the runtime's error reports and of its
/// allocator, indexed by the Cranelift source location the call carries.
/// `is_main`: the top-level code, entered from Rust with the whole stack
/// budget (its return address is no Toy call). Where a collection can run
/// while `f` is active (`plan.may_collect`), each call that may collect
/// first stores the arrays live across it (the plan's roots) into stack
/// slots, which its stack map lists for the collector.
pub fn translate_function<'a, M: Module>(
    module: &mut M,
    env: &'a Env<'a>,
    f: &'a ir::Function,
    plan: &FunctionPlan,
    is_main: bool,
    func: &mut cl::Function,
    fctx: &mut FunctionBuilderContext,
) -> Vec<SiteFrames<'a>> {
    // Global cells and the elements of each element type never overlap: a
    // Toy array holds elements of one type for its whole life, and its
    // memory is reused only after a collection, inside a call, which
    // Cranelift assumes writes everything anyway. Telling Cranelift so
    // lets it keep a loaded value (a row of a `[[float]]`, say) across
    // stores to memory of another kind.
    let mut region = |user_id, description: &'static str| {
        let region = func.dfg.alias_regions.insert(cl::AliasRegionData {
            user_id,
            description: description.into(),
        });
        mem().with_alias_region(Some(region))
    };
    let elements = ElementFlags {
        int: region(0, "int elements"),
        float: region(2, "float elements"),
        bool: region(3, "bool elements"),
        array: region(4, "array elements"),
    };
    let global_cells = region(1, "global cells");
    let builder = FunctionBuilder::new(func, fctx);
    let mut t = Translator {
        elements,
        global_cells,
        f,
        env,
        module,
        b: builder,
        blocks: SecondaryMap::with_default(None),
        values: SecondaryMap::with_default(None),
        imported: FxHashMap::default(),
        imported_data: FxHashMap::default(),
        plan,
        inlining_into_loop: None,
        sites: Vec::new(),
        expanding: Vec::new(),
        current_block: f.entry(),
        globals_base: None,
        rotated: RotatedLoops::of(&plan.rotations),
        is_main,
        may_collect: plan.may_collect,
        outer_roots: Vec::new(),
        root_slots: Vec::new(),
    };
    t.run();
    let config = t.module.target_config();
    t.b.finalize(config);
    t.sites
}

/// The memory flags of array elements, one alias region per element type.
#[derive(Clone, Copy)]
struct ElementFlags {
    int: MemFlagsData,
    float: MemFlagsData,
    bool: MemFlagsData,
    array: MemFlagsData,
}

impl ElementFlags {
    fn of(&self, elem: Ty) -> MemFlagsData {
        match elem {
            Ty::Int => self.int,
            Ty::Float => self.float,
            Ty::Bool => self.bool,
            Ty::Array => self.array,
        }
    }
}

struct Translator<'a, 'p, 'b, M: Module> {
    f: &'a ir::Function,
    env: &'a Env<'a>,
    module: &'b mut M,
    b: FunctionBuilder<'b>,
    blocks: SecondaryMap<ir::Block, Option<cl::Block>>,
    values: SecondaryMap<ir::Value, Option<cl::Value>>,
    imported: FxHashMap<FuncId, cl::FuncRef>,
    /// One global value per data object: a fresh one per access would hide
    /// from Cranelift's GVN that the addresses are equal (and its egraph
    /// slows down sharply with tens of thousands of them in one function).
    imported_data: FxHashMap<cranelift_module::DataId, cl::GlobalValue>,
    /// What the analyses say of `f` (of the callee, while a call is
    /// expanded in place).
    plan: &'p FunctionPlan,
    /// While a call is expanded in place: whether the call is in a loop
    /// (then so is every use of the callee's constants).
    inlining_into_loop: Option<bool>,
    /// Flags of array element accesses and of global cell accesses.
    elements: ElementFlags,
    global_cells: MemFlagsData,
    /// The frames of each call, by its Cranelift source location.
    sites: Vec<SiteFrames<'a>>,
    /// The calls being expanded in place (outermost first): the caller
    /// and the call's location.
    expanding: Vec<(&'a ir::Function, SrcLoc)>,
    /// The block of our IR being translated.
    current_block: ir::Block,
    /// The address of the program's globals, from the entry block.
    globals_base: Option<cl::Value>,
    /// The plan's rotated loops, and their header values' parameters.
    rotated: Option<RotatedLoops>,
    /// Translating the top-level code.
    is_main: bool,
    /// A collection can run while the function is active (the
    /// translated function's: an expanded call's body runs in its frame).
    may_collect: bool,
    /// While a call is expanded in place: the callers' arrays live across
    /// it, which every collecting call of the callee must keep too.
    outer_roots: Vec<cl::Value>,
    /// The stack slots roots are stored in before a call, reused by every
    /// call (the i-th root of a call goes to the i-th slot).
    root_slots: Vec<cl::StackSlot>,
}

/// Where the header values of a function's rotated loops are read.
struct RotatedLoops {
    /// Index in the plan's rotations, by header.
    by_header: FxHashMap<ir::Block, usize>,
    /// By header value: its loop and its parameter in the loop's body and
    /// exit (where it is used there).
    params: SecondaryMap<ir::Value, Option<HeaderValue>>,
}

#[derive(Clone, Copy, Debug)]
struct HeaderValue {
    in_loop: u32,
    in_body: Option<cl::Value>,
    in_exit: Option<cl::Value>,
}

impl RotatedLoops {
    /// `None` when no loop is rotated.
    fn of(rotations: &[RotatedLoop]) -> Option<Self> {
        if rotations.is_empty() {
            return None;
        }
        let by_header = (rotations.iter().enumerate())
            .map(|(i, l)| (l.header, i))
            .collect();
        Some(RotatedLoops {
            by_header,
            params: SecondaryMap::with_default(None),
        })
    }

    /// `v`'s parameter in `block`, if `v` is a header value of one of
    /// `plan`'s rotated loops and `block` lies in that loop's body or exit.
    fn param_in(&self, plan: &FunctionPlan, v: ir::Value, block: ir::Block) -> Option<cl::Value> {
        let hv = self.params[v]?;
        let l = &plan.rotations[hv.in_loop as usize];
        let param = if plan.dom.dominates(l.body, block) {
            hv.in_body
        } else if plan.dom.dominates(l.exit, block) {
            hv.in_exit
        } else {
            return None;
        };
        Some(param.expect("ir::rotate collected every use beyond the header"))
    }
}

/// How far `known_multiple` looks up a chain of single-predecessor blocks.
const MAX_GUARD_WALK: usize = 8;

/// Memory accesses of compiled code: aligned, and never trapping (indices
/// are checked before).
fn mem() -> MemFlagsData {
    MemFlagsData::trusted()
}

/// Memory that never changes while compiled code runs — the stack limit,
/// and array lengths (fixed at allocation) while no collection can free
/// the array: Cranelift may merge and hoist these loads, and also sink
/// them to their uses.
fn fixed() -> MemFlagsData {
    mem().with_readonly().with_can_move()
}

impl<'a: 'p, 'p, M: Module> Translator<'a, 'p, '_, M> {
    fn run(&mut self) {
        for &block in &self.f.layout {
            if self.continues_its_predecessor(block) {
                continue;
            }
            let cb = self.b.create_block();
            self.blocks[block] = Some(cb);
            for &phi in &self.f.blocks[block].phis {
                let ty = self.f.value_ty(phi);
                let v = self.b.append_block_param(cb, cl_type(ty));
                self.values[phi] = Some(v);
            }
        }
        self.append_rotated_params();
        let entry = self.block(self.f.entry());
        self.b.append_block_params_for_function_params(entry);
        for (i, &p) in self.f.params.iter().enumerate() {
            let v = self.b.block_params(entry)[i];
            self.values[p] = Some(v);
        }
        // Reverse post-order: every definition is translated before its uses.
        let plan = self.plan;
        for &block in &plan.dom.rpo {
            if self.continues_its_predecessor(block) {
                continue;
            }
            self.b.switch_to_block(self.block(block));
            if block == self.f.entry() {
                if !self.is_main {
                    self.stack_check_on_entry();
                }
                self.globals_base = self.globals_base_on_entry();
            }
            let mut block = block;
            loop {
                self.current_block = block;
                for &inst in &self.f.blocks[block].insts {
                    self.inst(inst);
                }
                self.check_on_loop_entry(block);
                match self.f.blocks[block].term {
                    Some(ir::Terminator::Jump(next)) if self.continues_its_predecessor(next) => {
                        block = next;
                    }
                    _ => break,
                }
            }
            self.terminator(block);
        }
        self.b.seal_all_blocks();
    }

    /// In the entry block of a program's function that reads or writes
    /// globals: the globals' base address, computed once for all accesses
    /// (one instruction per access less for Cranelift to merge).
    fn globals_base_on_entry(&mut self) -> Option<cl::Value> {
        let Linking::Program { globals, .. } = self.env.linking else {
            return None;
        };
        let f = self.f;
        let touches_globals = f.layout.iter().flat_map(|&b| &f.blocks[b].insts).any(|&i| {
            matches!(
                f.insts[i].kind,
                InstKind::LoadGlobal(_) | InstKind::StoreGlobal(..)
            )
        });
        touches_globals.then(|| self.data_addr(globals))
    }

    /// Whether `block` is translated at the end of its predecessor's
    /// Cranelift block: its only predecessor jumps to it, and it has no
    /// phis. Our IR keeps such blocks (a loop's latch after its body, the
    /// block after an `if`'s join); each costs Cranelift's lowering and
    /// register allocator a block of their own.
    fn continues_its_predecessor(&self, block: ir::Block) -> bool {
        let data = &self.f.blocks[block];
        let [pred] = data.preds[..] else {
            return false;
        };
        data.phis.is_empty()
            && block != self.f.entry()
            && matches!(self.f.blocks[pred].term, Some(ir::Terminator::Jump(to)) if to == block)
    }

    fn block(&self, b: ir::Block) -> cl::Block {
        self.blocks[b].expect("laid-out block")
    }

    /// The Cranelift value of an operand; `Undef` becomes zero.
    fn val(&mut self, v: ir::Value) -> cl::Value {
        let rotated = self.rotated.as_ref();
        if let Some(p) = rotated.and_then(|r| r.param_in(self.plan, v, self.current_block)) {
            return p;
        }
        if let Some(cv) = self.values[v] {
            return cv;
        }
        match self.f.values[v].def {
            ValueDef::Undef => self.zero(self.f.value_ty(v)),
            _ => panic!("{v} used before its definition was translated"),
        }
    }

    fn zero(&mut self, ty: Ty) -> cl::Value {
        match ty {
            Ty::Float => self.b.ins().f64const(0.0),
            other => self.b.ins().iconst(cl_type(other), 0),
        }
    }

    fn func_ref(&mut self, id: FuncId) -> cl::FuncRef {
        let (module, func) = (&mut self.module, &mut *self.b.func);
        *self
            .imported
            .entry(id)
            .or_insert_with(|| module.declare_func_in_func(id, func))
    }

    fn call_rt(&mut self, id: FuncId, args: &[cl::Value]) -> Option<cl::Value> {
        let call = self.call_rt_inst(id, args);
        self.b.inst_results(call).first().copied()
    }

    fn call_rt_inst(&mut self, id: FuncId, args: &[cl::Value]) -> cl::Inst {
        let r = self.func_ref(id);
        self.b.ins().call(r, args)
    }

    fn data_addr(&mut self, id: cranelift_module::DataId) -> cl::Value {
        let (module, func) = (&mut self.module, &mut *self.b.func);
        let gv = *self
            .imported_data
            .entry(id)
            .or_insert_with(|| module.declare_data_in_func(id, func));
        let ptr = self.module.target_config().pointer_type();
        self.b.ins().symbol_value(ptr, gv)
    }

    /// Branches to a cold block reporting `kind` at `loc` when `failed`;
    /// `details` are the operands the message names (index and length).
    fn check(&mut self, failed: cl::Value, kind: ErrorKind, loc: SrcLoc, details: [cl::Value; 2]) {
        self.fail_if(failed, |t| {
            let code = t.b.ins().iconst(types::I64, kind as i64);
            let packed = t.b.ins().iconst(types::I64, pack_loc(loc.line, loc.col));
            t.report(
                loc,
                t.env.runtime.error,
                &[code, packed, details[0], details[1]],
            );
        });
    }

    /// Calls the runtime's error report `id` with `args`, the call marked
    /// with the frames of `loc`, so that the runtime (which notes where it
    /// was called from) names the (possibly expanded) function and its
    /// callers.
    fn report(&mut self, loc: SrcLoc, id: FuncId, args: &[cl::Value]) {
        self.mark_site(loc);
        self.call_rt(id, args);
        self.b.set_srcloc(cl::SourceLoc::default());
    }

    /// Marks the instructions built from here on (until the source
    /// location is reset) as a call site with the frames of `loc`: the
    /// function being translated (or expanded) and the calls expanded to
    /// get here.
    fn mark_site(&mut self, loc: SrcLoc) {
        let mut frames = Vec::new();
        self.f.frames_at(loc, &mut frames);
        for &(caller, call) in self.expanding.iter().rev() {
            caller.frames_at(call, &mut frames);
        }
        self.b
            .set_srcloc(cl::SourceLoc::new(self.sites.len() as u32));
        self.sites.push(frames.into_boxed_slice());
    }

    /// When `failed`, runs `report` in a cold block, which then ends the
    /// program (or returns, in REPL code).
    fn fail_if(&mut self, failed: cl::Value, report: impl FnOnce(&mut Self)) {
        let error = self.b.create_block();
        let ok = self.b.create_block();
        self.b.set_cold_block(error);
        self.b.ins().brif(failed, error, &[], ok, &[]);
        self.b.switch_to_block(error);
        report(self);
        if self.in_session() {
            self.return_early();
        } else {
            self.b.ins().trap(cl::TrapCode::unwrap_user(1));
        }
        self.b.switch_to_block(ok);
    }

    /// In a function that calls Toy functions (only those can recurse):
    /// stops with `stack overflow` when the stack pointer is below the
    /// limit. The runtime finds the call that got here from the return
    /// address; the function's first call stands in should it not.
    fn stack_check_on_entry(&mut self) {
        let Some(first_call) = self.first_toy_call() else {
            return;
        };
        let ptr = self.module.target_config().pointer_type();
        let sp = self.b.ins().get_stack_pointer(ptr);
        let limit_addr = self.data_addr(self.env.runtime.stack_limit);
        let limit = self.b.ins().load(ptr, fixed(), limit_addr, 0);
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

    /// The location of the first call of a Toy function that is not
    /// expanded in place.
    fn first_toy_call(&self) -> Option<SrcLoc> {
        let f = self.f;
        f.layout
            .iter()
            .flat_map(|&b| f.blocks[b].insts.iter().map(move |&i| (b, i)))
            .find_map(|(b, i)| match f.insts[i].kind {
                InstKind::Call(func, _) if self.inlined(func, b).is_none() => Some(f.insts[i].loc),
                _ => None,
            })
    }

    /// The body to expand in place of a call of `func` in `block`, if any.
    fn inlined(&self, func: ir::FuncRef, block: ir::Block) -> Option<&'a Inlinable<'a>> {
        match self.env.linking {
            Linking::Program { inline, .. }
                if expands_calls_in(self.is_main, &self.plan.loops, block) =>
            {
                inline[func as usize].as_ref()
            }
            _ => None,
        }
    }

    fn in_session(&self) -> bool {
        matches!(self.env.linking, Linking::Session { .. })
    }

    /// Returns zero values: the caller polls `toy_rt_pending` and returns
    /// too, up to the REPL.
    fn return_early(&mut self) {
        let vals: Vec<cl::Value> = self.f.ret.map(|t| self.zero(t)).into_iter().collect();
        self.b.ins().return_(&vals);
    }

    /// In REPL code: returns at once when a runtime error or an interrupt
    /// is pending.
    fn poll_pending(&mut self) {
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

    /// The base address and offset of global `g`'s slot.
    fn global_addr(&mut self, g: u32) -> (cl::Value, i32) {
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

    fn inst(&mut self, inst: ir::Inst) {
        let data = &self.f.insts[inst];
        let result_ty = data.result.map(|r| self.f.value_ty(r));
        let value = match &data.kind {
            InstKind::Copy(v) => Some(self.val(*v)),
            InstKind::IConst(n) => Some(self.b.ins().iconst(types::I64, *n)),
            InstKind::FConst(bits) => {
                let in_loop = self.env.plan.hoist_float_constants
                    && *bits != 0
                    && data.result.is_some_and(|r| self.float_used_in_loop(r));
                Some(self.float_constant(*bits, in_loop))
            }
            InstKind::BConst(v) => Some(self.b.ins().iconst(types::I8, *v as i64)),
            InstKind::Unary(op, a) => Some(self.unary(*op, *a)),
            InstKind::Binary(BinaryOp::IRem, ..)
                if data.result.is_some_and(|r| self.is_tested_remainder(r)) =>
            {
                None
            }
            InstKind::Binary(op, a, b) => Some(self.binary(*op, *a, *b, data.loc)),
            InstKind::Call(func, args) => self.call(inst, *func, args, result_ty, data.loc),
            InstKind::LoadGlobal(g) => {
                let (addr, offset) = self.global_addr(*g);
                Some(self.load_global(result_ty.expect("load has a type"), addr, offset))
            }
            InstKind::StoreGlobal(g, v) => {
                let (addr, offset) = self.global_addr(*g);
                let v = self.val(*v);
                let ty = self.f.value_ty(data.kind.operands()[0]);
                self.store_global(ty, v, addr, offset);
                None
            }
            InstKind::NewArray { len, fill } => {
                let fill_ty = self.f.value_ty(*fill);
                let fill = self.val(*fill);
                let bits = self.slot_bits(fill_ty, fill);
                let len = self.val(*len);
                let loc = self
                    .b
                    .ins()
                    .iconst(types::I64, pack_loc(data.loc.line, data.loc.col));
                let kind = self.b.ins().iconst(types::I64, fill_ty.elem_kind() as i64);
                self.mark_site(data.loc);
                let array = self.safepoint_call(inst, |t| {
                    t.call_rt_inst(t.env.runtime.array_new, &[len, bits, kind, loc])
                });
                self.b.set_srcloc(cl::SourceLoc::default());
                self.poll_pending();
                array
            }
            InstKind::ArrayLit(elems) => Some(self.array_literal(inst, elems, data.loc)),
            InstKind::EmptyArray => self.call_rt(self.env.runtime.empty_array, &[]),
            InstKind::ArrayLen(a) => {
                let a = self.val(*a);
                Some(self.load_len(a))
            }
            InstKind::ArrayGet { array, index, .. } => {
                let ty = result_ty.expect("get has a type");
                let (addr, offset) = self.element_addr(*array, *index, ty, inst, data.loc);
                Some(self.load_element(ty, addr, offset))
            }
            InstKind::ArraySet {
                array,
                index,
                value,
                ..
            } => {
                let ty = self.f.value_ty(*value);
                let (addr, offset) = self.element_addr(*array, *index, ty, inst, data.loc);
                let v = self.val(*value);
                self.store_element(ty, v, addr, offset);
                None
            }
            InstKind::Print(item) => {
                self.print(item);
                None
            }
            InstKind::Clock => self.call_rt(self.env.runtime.clock, &[]),
        };
        if let (Some(r), Some(v)) = (data.result, value) {
            self.values[r] = Some(v);
        }
    }

    /// The length of `array`. Where a collection can run (`may_collect`)
    /// the load stays where it is: sunk past a call (as `can_move` lets
    /// Cranelift do), it would read an array the collector freed in the
    /// call, the array being dead there (and so in no stack map).
    fn load_len(&mut self, array: cl::Value) -> cl::Value {
        let flags = if self.may_collect {
            mem().with_readonly()
        } else {
            fixed()
        };
        self.b.ins().load(types::I64, flags, array, 0)
    }

    /// Before the call of `inst` that may collect: stores the arrays live
    /// across it (and across the calls being expanded around it) into the
    /// root slots; returns the stack map entries naming them. Nothing is
    /// reloaded after the call: the heap does not move.
    fn store_roots(&mut self, inst: ir::Inst) -> Vec<UserStackMapEntry> {
        let mut values = self.outer_roots.clone();
        if let Some(live) = self.plan.roots.get(&inst).cloned() {
            values.extend(live.into_iter().map(|v| self.val(v)));
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

    fn root_slot(&mut self, i: usize) -> cl::StackSlot {
        while self.root_slots.len() <= i {
            let data = cl::StackSlotData::new(cl::StackSlotKind::ExplicitSlot, 8, 3);
            let slot = self.b.create_sized_stack_slot(data);
            self.root_slots.push(slot);
        }
        self.root_slots[i]
    }

    /// Emits `emit`'s call for IR instruction `inst`, its stack map naming
    /// the arrays live across it (none where `inst` cannot collect).
    fn safepoint_call(
        &mut self,
        inst: ir::Inst,
        emit: impl FnOnce(&mut Self) -> cl::Inst,
    ) -> Option<cl::Value> {
        let entries = self.store_roots(inst);
        let call = emit(self);
        self.b.func.dfg.append_user_stack_map_entries(call, entries);
        self.b.inst_results(call).first().copied()
    }

    /// A float constant. Cranelift rematerializes `f64const` in every
    /// block that uses it — two instructions (`movabs`, `movq`) in a loop
    /// body at each iteration, where C compilers keep the constant in a
    /// register; the same bits through a `bitcast` are an ordinary value,
    /// which the egraph hoists out of loops. That costs the egraph two
    /// values instead of one, so constants used only outside loops (and
    /// zero: one `xorpd` wherever it is used) stay `f64const`.
    fn float_constant(&mut self, bits: u64, used_in_loop: bool) -> cl::Value {
        if !used_in_loop {
            return self.b.ins().f64const(f64::from_bits(bits));
        }
        let k = self.b.ins().iconst(types::I64, bits as i64);
        self.b.ins().bitcast(types::F64, MemFlagsData::new(), k)
    }

    fn is_tested_remainder(&self, v: ir::Value) -> bool {
        self.plan.tested_remainders.contains(&v)
    }

    fn float_used_in_loop(&self, v: ir::Value) -> bool {
        if let Some(into_loop) = self.inlining_into_loop {
            return into_loop;
        }
        self.plan.loop_floats.contains(&v)
    }

    fn unary(&mut self, op: UnaryOp, a: ir::Value) -> cl::Value {
        let a = self.val(a);
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

    fn binary(&mut self, op: BinaryOp, a: ir::Value, b: ir::Value, loc: SrcLoc) -> cl::Value {
        let cheaper = self
            .divisibility_test(op, a, b)
            .or_else(|| self.exact_halving(op, a, b))
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
            BinaryOp::FCmp(c) => ins.fcmp(float_cc(c), a, b),
            BinaryOp::IMin => ins.smin(a, b),
            BinaryOp::IMax => ins.smax(a, b),
            BinaryOp::FMin | BinaryOp::FMax => self.float_min_max(op, a, b),
        }
    }

    /// `x % 2^k == 0` (or `!= 0`) as a test of the low bits: the truncated
    /// remainder is zero exactly when they are, for negative `x` too.
    /// (`n % 2 == 0` is the hot test of many loops; Cranelift computes the
    /// remainder in full.)
    fn divisibility_test(&mut self, op: BinaryOp, a: ir::Value, b: ir::Value) -> Option<cl::Value> {
        let t = remainder_test(self.f, op, a, b).filter(RemainderTest::of_low_bits)?;
        let x = self.val(t.x);
        let low = self.b.ins().band_imm_s(x, t.m - 1);
        Some(self.b.ins().icmp_imm_s(int_cc(t.cmp), low, 0))
    }

    /// `x / 2^k` where a dominating branch established `x % 2^j == 0` for
    /// some `j >= k`: the division is exact, so an arithmetic shift (the
    /// rounding fix-up of signed division is not needed). Collatz's
    /// `if n % 2 == 0 { n = n / 2; }`.
    fn exact_halving(&mut self, op: BinaryOp, a: ir::Value, b: ir::Value) -> Option<cl::Value> {
        let (BinaryOp::IDiv, Some(Const::Int(d))) = (op, self.f.constant(b)) else {
            return None;
        };
        if d <= 1 || !(d as u64).is_power_of_two() || !self.known_multiple(a, d) {
            return None;
        }
        let x = self.val(a);
        Some(self.b.ins().sshr_imm_u(x, d.trailing_zeros() as i64))
    }

    /// Whether `x` is a multiple of `d`, by how it is computed or by a
    /// test guarding the current block.
    fn known_multiple(&self, x: ir::Value, d: i64) -> bool {
        self.multiple_by_definition(x, d) || self.guarded_multiple(x, d)
    }

    /// `x = a * b` with a constant factor that `d` divides, or a product
    /// of consecutive integers `a * (a ± 1)` when `d` is 2 (as in
    /// `n * (n + 1) / 2`). Wrapping keeps both: it takes a multiple of
    /// 2^64, which every power of two divides.
    fn multiple_by_definition(&self, x: ir::Value, d: i64) -> bool {
        let Some(&InstKind::Binary(BinaryOp::IMul, a, b)) = self.def_kind(x) else {
            return false;
        };
        let divides =
            |v: ir::Value| matches!(self.f.constant(v), Some(Const::Int(c)) if c % d == 0);
        let is_one = |v: ir::Value| self.f.constant(v) == Some(Const::Int(1));
        let next_to = |u: ir::Value, v: ir::Value| match self.def_kind(u) {
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
    fn guarded_multiple(&self, x: ir::Value, d: i64) -> bool {
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
    fn remainder_test(&self, cond: ir::Value) -> Option<RemainderTest> {
        let InstKind::Binary(op, a, b) = *self.def_kind(cond)? else {
            return None;
        };
        remainder_test(self.f, op, a, b)
    }

    fn def_kind(&self, v: ir::Value) -> Option<&'a InstKind> {
        def_kind(self.f, v)
    }

    /// `x * 3`, `x * 5`, `x * 9` as `x + (x << k)`: x86-64 computes that
    /// in one `lea` (with a following `+ c` folded in), where `imul`
    /// takes three cycles — on the critical path of loops like Collatz's
    /// `n = 3 * n + 1`.
    fn multiply_by_shift_and_add(
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
    fn checked_division(
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

    /// `semantics::fmin`/`fmax`: a NaN operand yields the other one;
    /// otherwise Cranelift's `fmin`/`fmax` (which order `-0.0 < 0.0`).
    fn float_min_max(&mut self, op: BinaryOp, a: cl::Value, b: cl::Value) -> cl::Value {
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

    /// A call of a Toy function (the callee checks the stack limit),
    /// marked with its location for stack overflow reports.
    fn call(
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
            let live = self.plan.roots.get(&inst).cloned().unwrap_or_default();
            for v in live {
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
    fn inline_call(&mut self, callee: &'a Inlinable<'a>, args: &[cl::Value]) -> Option<cl::Value> {
        let g = callee.body;
        let here = self.current_block;
        let into_loop = callee.has_float_constants && self.plan.loops.in_loop(here);
        let was_into_loop = self.inlining_into_loop.replace(into_loop);
        let caller = std::mem::replace(&mut self.f, g);
        let values = std::mem::replace(&mut self.values, SecondaryMap::with_default(None));
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
        self.plan = plan;
        self.inlining_into_loop = was_into_loop;
        self.rotated = rotated;
        self.current_block = block;
        result
    }

    fn call_signature(&self, args: &[cl::Value], result: Option<Ty>) -> cl::Signature {
        let mut sig = self.module.make_signature();
        for &a in args {
            sig.params
                .push(cl::AbiParam::new(self.b.func.dfg.value_type(a)));
        }
        sig.returns
            .extend(result.map(|t| cl::AbiParam::new(cl_type(t))));
        sig
    }

    /// The address of `array[index]` minus the header size, for elements
    /// of type `elem`, as an address and a byte offset from it; after the
    /// bounds check (an unsigned compare also catches negative indices)
    /// unless `ir::bounds` proved it redundant or its group checked it.
    fn element_addr(
        &mut self,
        array: ir::Value,
        index: ir::Value,
        elem: Ty,
        inst: ir::Inst,
        loc: SrcLoc,
    ) -> (cl::Value, i64) {
        let ahead = self.checks_ahead();
        if ahead {
            if let Some(group) = self.plan.checks.groups.get(&inst) {
                self.check_group(&group.clone());
            }
        }
        let a = self.val(array);
        let i = self.val(index);
        let checks = &self.plan.checks;
        let checked_already = checks.proven[inst] || (ahead && checks.covered[inst]);
        if !checked_already {
            let len = self.load_len(a);
            let out = self.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, i, len);
            self.check(out, ErrorKind::IndexOutOfBounds, loc, [i, len]);
        }
        let size = elem.elem_size();
        if let Some(offset) = self.constant_offset(index, size) {
            return (a, offset);
        }
        let offset = match size {
            1 => i,
            size => self.b.ins().ishl_imm_u(i, size.trailing_zeros() as i64),
        };
        (self.b.ins().iadd(a, offset), 0)
    }

    /// The byte offset of element `index` when the index is a constant
    /// (nbody's `b[0]` … `b[6]`): the access then addresses the array
    /// directly, instead of giving Cranelift a shift and an add to fold
    /// for every field (a sixth of nbody's instructions).
    fn constant_offset(&self, index: ir::Value, size: i64) -> Option<i64> {
        let Some(Const::Int(k)) = self.f.constant(index) else {
            return None;
        };
        let offset = k.checked_mul(size)?;
        let fits = (0..=i64::from(i32::MAX) - ARRAY_HEADER).contains(&offset);
        fits.then_some(offset)
    }

    /// Whether bounds checks run ahead of their accesses (in groups, on
    /// loop entry). Not in REPL code: arrays outlive a failed entry, so
    /// the stores skipped by an early failure would be seen.
    fn checks_ahead(&self) -> bool {
        !self.in_session()
    }

    /// At the end of a loop's preheader: the bounds checks of the loop's
    /// first iteration (`ir::bounds` rule 4), which apply if it runs.
    fn check_on_loop_entry(&mut self, preheader: ir::Block) {
        if !self.checks_ahead() {
            return;
        }
        let Some(checks) = self.plan.checks.entry_checks.get(&preheader).cloned() else {
            return;
        };
        for check in checks {
            let (a, cmp, b) = check.enters;
            let (a, b) = (self.val(a), self.val(b));
            let enters = self.b.ins().icmp(int_cc(cmp), a, b);
            if !check.others.is_empty() {
                self.check_walk(&check, enters);
                continue;
            }
            let array = self.val(check.array);
            let mut index = self.val(check.index);
            let len = self.load_len(array);
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
    fn check_walk(&mut self, check: &EntryCheck, enters: cl::Value) {
        let start = self.val(check.index);
        let end = self.val(check.runs_to.expect("a walk has an end"));
        let accesses: Vec<(ir::Value, ir::Inst)> = std::iter::once((check.array, check.inst))
            .chain(check.others.iter().copied())
            .collect();
        let mut lens = Vec::new();
        let mut out = None;
        for &(array, _) in &accesses {
            let a = self.val(array);
            let len = self.load_len(a);
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
            let mut args = vec![table, start, end];
            args.extend(padded_lens(&lens));
            t.report(site, t.env.runtime.walk_error, &args);
        });
    }

    /// Checks a group of constant-index accesses at once: each array's
    /// length against the group's largest index into it. The cold path
    /// reports the access that fails first in program order, as the
    /// accesses' own checks would have.
    fn check_group(&mut self, group: &[GroupedAccess]) {
        let mut lens: Vec<(ir::Value, cl::Value)> = Vec::new();
        let mut failed = None;
        for access in group {
            if lens.iter().any(|&(a, _)| a == access.array) {
                continue;
            }
            let largest = group
                .iter()
                .filter(|g| g.array == access.array)
                .map(|g| g.index as u64)
                .max()
                .expect("the access itself");
            let a = self.val(access.array);
            let len = self.load_len(a);
            lens.push((access.array, len));
            let fails =
                self.b
                    .ins()
                    .icmp_imm_u(IntCC::UnsignedLessThanOrEqual, len, largest as i64);
            failed = Some(match failed {
                Some(f) => self.b.ins().bor(f, fails),
                None => fails,
            });
        }
        let failed = failed.expect("a group has accesses");
        // All in one function: the frames of the first stand for all.
        let site = self.f.insts[group[0].inst].loc;
        let table = self.group_table(group, &lens);
        let lens: Vec<cl::Value> = lens.iter().map(|&(_, len)| len).collect();
        self.fail_if(failed, |t| {
            let table = t.data_addr(table);
            let mut args = vec![table];
            args.extend(padded_lens(&lens));
            t.report(site, t.env.runtime.group_error, &args);
        });
    }

    /// The table `toy_rt_group_error` reads when a group's check fails:
    /// `[n, (loc, index, array)…]` for the accesses that can fail first,
    /// in program order; `array` says which of the lengths passed along
    /// is the access's. A data object, not code: a chain of selects
    /// choosing among the accesses made the cold paths a tenth of
    /// nbody's compile time.
    fn group_table(&mut self, group: &[GroupedAccess], lens: &[(ir::Value, cl::Value)]) -> DataId {
        let candidates = first_failure_candidates(group);
        let mut words = vec![candidates.len() as i64];
        for access in &candidates {
            let loc = self.f.insts[access.inst].loc;
            let array = lens.iter().position(|&(a, _)| a == access.array);
            words.extend([
                pack_loc(loc.line, loc.col),
                access.index,
                array.expect("loaded") as i64,
            ]);
        }
        self.constant_table(&words)
    }

    /// A read-only data object holding `words`.
    fn constant_table(&mut self, words: &[i64]) -> DataId {
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

    fn array_literal(&mut self, inst: ir::Inst, elems: &[ir::Value], loc: SrcLoc) -> cl::Value {
        let elem = self.f.value_ty(elems[0]);
        let len = self.b.ins().iconst(types::I64, elems.len() as i64);
        let zero = self.b.ins().iconst(types::I64, 0);
        let kind = self.b.ins().iconst(types::I64, elem.elem_kind() as i64);
        let packed = self.b.ins().iconst(types::I64, pack_loc(loc.line, loc.col));
        self.mark_site(loc);
        let arr = self
            .safepoint_call(inst, |t| {
                t.call_rt_inst(t.env.runtime.array_new, &[len, zero, kind, packed])
            })
            .expect("array_new returns the array");
        self.b.set_srcloc(cl::SourceLoc::default());
        self.poll_pending();
        for (i, &e) in elems.iter().enumerate() {
            let v = self.val(e);
            self.store_element(elem, v, arr, elem.elem_size() * i as i64);
        }
        arr
    }

    /// Loads the element of type `ty` at `addr + offset` past the header.
    fn load_element(&mut self, ty: Ty, addr: cl::Value, offset: i64) -> cl::Value {
        let offset = (ARRAY_HEADER + offset) as i32;
        self.b
            .ins()
            .load(cl_type(ty), self.elements.of(ty), addr, offset)
    }

    fn store_element(&mut self, ty: Ty, v: cl::Value, addr: cl::Value, offset: i64) {
        debug_assert_eq!(self.b.func.dfg.value_type(v), cl_type(ty));
        let offset = (ARRAY_HEADER + offset) as i32;
        self.b.ins().store(self.elements.of(ty), v, addr, offset);
    }

    /// Every global takes an 8-byte cell; bools are stored widened to 0/1
    /// so that the layout is endian-independent.
    fn load_global(&mut self, ty: Ty, addr: cl::Value, offset: i32) -> cl::Value {
        let flags = self.global_cells;
        match ty {
            Ty::Bool => {
                let wide = self.b.ins().load(types::I64, flags, addr, offset);
                self.b.ins().ireduce(types::I8, wide)
            }
            other => self.b.ins().load(cl_type(other), flags, addr, offset),
        }
    }

    fn store_global(&mut self, ty: Ty, v: cl::Value, addr: cl::Value, offset: i32) {
        let v = match ty {
            Ty::Bool => self.b.ins().uextend(types::I64, v),
            _ => v,
        };
        self.b.ins().store(self.global_cells, v, addr, offset);
    }

    /// A fill value as `toy_rt_array_new` takes it: an element's bits as an
    /// i64 (bools as 0/1).
    fn slot_bits(&mut self, ty: Ty, v: cl::Value) -> cl::Value {
        match ty {
            Ty::Bool => self.b.ins().uextend(types::I64, v),
            Ty::Float => self.b.ins().bitcast(types::I64, MemFlagsData::new(), v),
            Ty::Int | Ty::Array => v,
        }
    }

    fn print(&mut self, item: &PrintItem) {
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

    /// The arguments a jump from `from` passes to `to`'s phis.
    fn edge_args(&mut self, from: ir::Block, to: ir::Block) -> Vec<cl::BlockArg> {
        let index = self.f.blocks[to]
            .preds
            .iter()
            .position(|&p| p == from)
            .expect("edge recorded in preds");
        let phis = self.f.blocks[to].phis.clone();
        phis.iter()
            .map(|&phi| {
                let arg = self.f.phi_args(phi)[index];
                cl::BlockArg::Value(self.val(arg))
            })
            .collect()
    }

    fn terminator(&mut self, block: ir::Block) {
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
        }
    }

    fn branch(
        &mut self,
        block: ir::Block,
        cond: ir::Value,
        then_block: ir::Block,
        else_block: ir::Block,
    ) {
        // `br !x, a, b` is `br x, b, a`: no `xor` to compute the negation.
        let (cond, then_block, else_block) = match self.def_kind(cond) {
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
    fn branch_args(&mut self, from: ir::Block, to: ir::Block) -> Vec<cl::BlockArg> {
        let mut args = self.edge_args(from, to);
        let Some(l) = self.rotated_loop(from) else {
            return args;
        };
        let values = if to == l.body {
            l.body_values.clone()
        } else {
            l.exit_values.clone()
        };
        args.extend(values.iter().map(|&v| cl::BlockArg::Value(self.val(v))));
        args
    }

    /// Appends to each rotated loop's body and exit a parameter per header
    /// value used there.
    fn append_rotated_params(&mut self) {
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
    fn rotated_loop(&self, header: ir::Block) -> Option<&'p RotatedLoop> {
        let plan = self.plan;
        let i = *self.rotated.as_ref()?.by_header.get(&header)?;
        Some(&plan.rotations[i])
    }

    fn is_rotated_header(&self, block: ir::Block) -> bool {
        self.rotated_loop(block).is_some()
    }

    fn is_rotated_latch(&self, block: ir::Block, header: ir::Block) -> bool {
        self.plan.loops.is_back_edge(block, header) && self.is_rotated_header(header)
    }

    /// Ends a rotated loop's latch with a copy of its header: the header's
    /// instructions on the values the latch passes to its phis, then its
    /// branch (`ir::rotate`).
    fn repeat_header_test(&mut self, latch: ir::Block, header: ir::Block) {
        let f = self.f;
        let incoming = self.edge_args(latch, header);
        let h = &f.blocks[header];
        let results = h.insts.iter().filter_map(|&i| f.insts[i].result);
        let defined: Vec<ir::Value> = h.phis.iter().copied().chain(results).collect();
        let saved: Vec<Option<cl::Value>> = defined.iter().map(|&v| self.values[v]).collect();
        for (&phi, arg) in h.phis.iter().zip(&incoming) {
            self.values[phi] = arg.as_value();
        }
        let latch_block = std::mem::replace(&mut self.current_block, header);
        for &inst in &h.insts {
            self.inst(inst);
        }
        let Some(ir::Terminator::Branch {
            cond,
            then_block,
            else_block,
        }) = h.term
        else {
            unreachable!("ir::rotate: a rotated header branches");
        };
        self.branch(header, cond, then_block, else_block);
        self.current_block = latch_block;
        for (v, cv) in defined.into_iter().zip(saved) {
            self.values[v] = cv;
        }
    }

    /// Runs the pairs of iterations of `l` from counter `start` in two
    /// vector lanes (`ir::vector`); returns the counter the loop itself
    /// continues from, at most one iteration before its end.
    fn run_in_lanes(&mut self, l: &VectorLoop, start: cl::Value) -> cl::Value {
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
        let done = self.b.ins().icmp(IntCC::Equal, next, end);
        self.b.ins().brif(done, exit, &arg(next), body, &arg(next));
        self.b.switch_to_block(exit);
        rest
    }

    /// The body of `l` on two lanes: iterations `counter` and `counter + 1`.
    fn lanes(&mut self, l: &VectorLoop, counter: cl::Value) {
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
    fn lane(&mut self, lanes: &FxHashMap<ir::Value, cl::Value>, v: ir::Value) -> cl::Value {
        match lanes.get(&v) {
            Some(&lane) => lane,
            None => self.splat(v),
        }
    }

    fn splat(&mut self, v: ir::Value) -> cl::Value {
        let ty = lane_type(self.f.value_ty(v));
        let scalar = match self.f.constant(v) {
            Some(Const::Int(n)) => self.b.ins().iconst(types::I64, n),
            Some(Const::Float(x)) => self.b.ins().f64const(x),
            _ => self.val(v),
        };
        self.b.ins().splat(ty, scalar)
    }

    /// The address of element `counter` of `array`, minus the header.
    fn lane_addr(&mut self, array: ir::Value, counter: cl::Value) -> cl::Value {
        let a = self.val(array);
        let offset = self.b.ins().ishl_imm_u(counter, 3);
        self.b.ins().iadd(a, offset)
    }

    /// The negation of `c` when `c` is an integer comparison and Cranelift
    /// optimizes: a loop header branching on it with the targets swapped
    /// puts the loop body first in Cranelift's block order (its reverse
    /// post-order places a branch's second target first), so the body
    /// falls through from its test instead of being jumped to.
    /// The egraph folds `icmp eq (icmp cc x y), 0` into `icmp !cc x y`;
    /// without it the negation would cost an instruction, so not at -O0/-O1.
    fn inverted_comparison(&mut self, c: cl::Value) -> Option<cl::Value> {
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

fn int_cc(c: Cmp) -> IntCC {
    match c {
        Cmp::Eq => IntCC::Equal,
        Cmp::Ne => IntCC::NotEqual,
        Cmp::Lt => IntCC::SignedLessThan,
        Cmp::Le => IntCC::SignedLessThanOrEqual,
        Cmp::Gt => IntCC::SignedGreaterThan,
        Cmp::Ge => IntCC::SignedGreaterThanOrEqual,
    }
}

fn float_cc(c: Cmp) -> FloatCC {
    match c {
        Cmp::Eq => FloatCC::Equal,
        Cmp::Ne => FloatCC::NotEqual,
        Cmp::Lt => FloatCC::LessThan,
        Cmp::Le => FloatCC::LessThanOrEqual,
        Cmp::Gt => FloatCC::GreaterThan,
        Cmp::Ge => FloatCC::GreaterThanOrEqual,
    }
}

/// The lengths a failed group or walk hands the runtime: one argument
/// per array it may span, the unused ones repeating the first.
fn padded_lens(lens: &[cl::Value]) -> [cl::Value; MAX_GROUP_ARRAYS] {
    std::array::from_fn(|k| lens.get(k).copied().unwrap_or(lens[0]))
}

/// The vector of two lanes of an `int` or `float`.
fn lane_type(ty: Ty) -> cl::Type {
    match ty {
        Ty::Float => types::F64X2,
        _ => types::I64X2,
    }
}

/// The accesses of a group that can be the first to fail: one whose index
/// exceeds every earlier index into the same array (an access at or below
/// an earlier one fails only if that one failed first), compared
/// unsigned as the checks do. nbody's
/// `b[0] b[3] b[1] b[4] b[2] b[5]` leaves `b[0] b[3] b[4] b[5]`.
fn first_failure_candidates(group: &[GroupedAccess]) -> Vec<GroupedAccess> {
    // Unsigned, as the checks compare: a negative index is above all.
    let mut highest: Vec<(ir::Value, u64)> = Vec::new();
    let mut candidates = Vec::new();
    for access in group {
        let index = access.index as u64;
        match highest.iter_mut().find(|(a, _)| *a == access.array) {
            Some((_, top)) if index <= *top => continue,
            Some((_, top)) => *top = index,
            None => highest.push((access.array, index)),
        }
        candidates.push(*access);
    }
    candidates
}
