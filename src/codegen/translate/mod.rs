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
//!
//! This file walks the blocks and instructions; the lowering is split by
//! concern: `arith` (operations), `memory` (arrays and globals), `calls`,
//! `checks` (runtime errors), `control` (terminators, rotated loops, the
//! REPL's polling) and `lanes` (vector loops).

use super::plan::{
    constant_divisor, power_of_two_divisor, remainder_test, FunctionPlan, RemainderTest,
};
use super::Runtime;
use crate::entity::SecondaryMap;
use crate::ir::bounds::{EntryCheck, GroupedAccess};
use crate::ir::loops::{Loop, Loops};
use crate::ir::rotate::RotatedLoop;
use crate::ir::semantics::Const;
use crate::ir::vector::VectorLoop;
use crate::ir::{self, BinaryOp, Cmp, InstKind, PrintItem, SrcLoc, Ty, UnaryOp, ValueDef};
use crate::passes::Plan;
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{self as cl, types, InstBuilder, MemFlagsData, UserStackMapEntry};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Switch};
use cranelift_module::{DataDescription, DataId, FuncId, Module};
use jitrun_runtime::{pack_loc, ErrorKind, ARRAY_HEADER, MAX_GROUP_ARRAYS};
use rustc_hash::FxHashMap;

mod arith;
mod calls;
mod checks;
mod control;
mod lanes;
mod memory;

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
    /// Its plan, also for its own code when it needs some.
    pub plan: FunctionPlan,
    /// Its code has float constants or sign masks (`abs`, negation),
    /// which an expansion in a loop places where Cranelift hoists them.
    has_float_constants: bool,
}

/// Whether calls of small leaf functions in `block` are expanded in
/// place: inside loops (`loops` are the function's), where a call costs
/// per iteration, and elsewhere only in functions whose plan says so
/// (`plan::expands_outside_loops`: not the top-level code, which runs
/// once, nor functions made mostly of such calls).
pub fn expands_calls_in(outside_loops: bool, loops: &Loops, block: ir::Block) -> bool {
    outside_loops || loops.in_loop(block)
}

impl<'a> Inlinable<'a> {
    /// `body` with its plan (a leaf makes no calls, so only its
    /// allocations may collect).
    pub fn new(body: &'a ir::Function, plan: FunctionPlan) -> Self {
        Inlinable {
            body,
            plan,
            has_float_constants: (body.blocks[body.entry()].insts.iter()).any(|&i| {
                matches!(
                    body.insts[i].kind,
                    InstKind::FConst(_) | InstKind::Unary(UnaryOp::FAbs | UnaryOp::FNeg, _)
                )
            }),
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
        loaded_lengths: FxHashMap::default(),
        reports: FxHashMap::default(),
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
    /// The lengths loaded before loops (`ir::lengths`), by array and the
    /// loop they serve.
    loaded_lengths: FxHashMap<(ir::Value, Loop), cl::Value>,
    /// The block reporting a failed check, one per chain of call-stack
    /// frames (the innermost frame's location aside, which the report is
    /// passed): see [`check`](Self::check).
    reports: FxHashMap<SiteFrames<'a>, cl::Block>,
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
                self.load_lengths_before_loop(block);
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

    fn inst(&mut self, inst: ir::Inst) {
        let data = &self.f.insts[inst];
        let result_ty = data.result.map(|r| self.f.value_ty(r));
        let value = match &data.kind {
            InstKind::Copy(v) => Some(self.val(*v)),
            InstKind::IConst(n) => Some(self.b.ins().iconst(types::I64, *n)),
            InstKind::FConst(bits) => {
                let in_loop = *bits != 0 && data.result.is_some_and(|r| self.float_used_in_loop(r));
                Some(self.float_constant(*bits, in_loop))
            }
            InstKind::BConst(v) => Some(self.b.ins().iconst(types::I8, *v as i64)),
            InstKind::Unary(op, a) => Some(self.unary(*op, *a, data.result)),
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
                let elem = self.f.value_ty(*fill);
                let known = self.f.int_constant(*len);
                let (len, fill) = (self.val(*len), self.val(*fill));
                Some(self.new_array(inst, elem, len, known, Some(fill), data.loc))
            }
            InstKind::ArrayLit(elems) => Some(self.array_literal(inst, elems, data.loc)),
            InstKind::Renew { old, elems } => Some(self.renew(inst, *old, elems, data.loc)),
            InstKind::EmptyArray => self.call_rt(self.env.runtime.empty_array, &[]),
            InstKind::ArrayLen(a) => Some(self.array_len(*a)),
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
            InstKind::CheckDepth(depth) => {
                self.check_depth(*depth, data.loc);
                None
            }
            InstKind::Select {
                cond,
                if_true,
                if_false,
            } => Some(self.select(*cond, *if_true, *if_false)),
        };
        if let (Some(r), Some(v)) = (data.result, value) {
            self.values[r] = Some(v);
        }
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

/// A float comparison as Cranelift's condition, and whether its operands
/// swap: `a > b` is `b < a` (the same on NaNs, and the form of
/// Cranelift's `select` lowerings to `minsd`/`maxsd`).
fn float_cc(c: Cmp) -> (FloatCC, bool) {
    match c {
        Cmp::Eq => (FloatCC::Equal, false),
        Cmp::Ne => (FloatCC::NotEqual, false),
        Cmp::Lt => (FloatCC::LessThan, false),
        Cmp::Le => (FloatCC::LessThanOrEqual, false),
        Cmp::Gt => (FloatCC::LessThan, true),
        Cmp::Ge => (FloatCC::LessThanOrEqual, true),
    }
}
