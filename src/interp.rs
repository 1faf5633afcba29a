//! A reference interpreter of our SSA IR (`jitrun --interp`): the second
//! back end, against which the JIT is tested differentially.
//!
//! It shares with compiled code only what must be shared for identical
//! output: the runtime crate (printing, arrays, error reports) and
//! `ir::semantics` (the meaning of every pure operation). Everything else —
//! control flow, phis, calls, checks — is interpreted here directly from the
//! IR, so a bug in the translator or in Cranelift shows up as a difference.

use crate::entity::EntityRef;
use crate::ir::semantics::{eval_binary, eval_unary, Const};
use crate::ir::*;
use jitrun_runtime as rt;
use rt::ErrorKind;

/// How deep Toy calls may nest under the interpreter: deep enough for the
/// programs the JIT runs (100 000 frames), shallow enough that runaway
/// recursion reports `stack overflow` as it does there.
pub const MAX_CALL_DEPTH: usize = 200_000;

/// Runs the top-level statements of `module`. Runtime errors end the
/// process from inside the runtime, as they do under the JIT.
pub fn run(module: &Module) {
    let mut interp = Interp {
        module,
        globals: vec![0; module.globals.len()],
        stack: Vec::new(),
    };
    ROOTS.with_borrow_mut(|r| {
        r.globals = (interp.globals.as_ptr(), module.globals.clone());
    });
    rt::gc::set_external_roots(Some(scan_roots));
    interp.call(&module.main, &[]);
    rt::gc::set_external_roots(None);
    ROOTS.with_borrow_mut(|r| *r = Roots::default());
    rt::flush_stdout();
}

/// Where the collector finds the interpreter's arrays: the values of
/// every active call and the globals. Each frame's values stay at one
/// address for the call's life (`Interp::call` never grows them).
#[derive(Default)]
struct Roots {
    frames: Vec<(*const u64, *const Function)>,
    globals: (*const u64, Vec<Ty>),
}

thread_local! {
    static ROOTS: std::cell::RefCell<Roots> = std::cell::RefCell::new(Roots::default());
}

/// Hands every array value of the active calls and globals to `visit`.
/// Values not yet computed in a frame are 0, which the collector skips;
/// values computed earlier keep their arrays alive until overwritten.
fn scan_roots(visit: &mut dyn FnMut(u64)) {
    ROOTS.with_borrow(|r| {
        let (globals, types) = &r.globals;
        for (g, &ty) in types.iter().enumerate() {
            if ty == Ty::Array {
                // SAFETY: `Interp::globals` has one word per global and
                // lives while the program runs.
                visit(unsafe { *globals.add(g) });
            }
        }
        for &(vals, f) in &r.frames {
            // SAFETY: the frame is active: its function and values live.
            let f = unsafe { &*f };
            for (v, data) in f.values.iter() {
                if data.ty == Ty::Array {
                    // SAFETY: one word per value of `f`.
                    visit(unsafe { *vals.add(v.index()) });
                }
            }
        }
    });
}

struct Interp<'a> {
    module: &'a Module,
    /// Every value is kept as its 8 bytes: ints, float bits, bools as 0/1,
    /// array pointers.
    globals: Vec<u64>,
    /// The calls running, outermost first: the calling function and the
    /// call's location, for the call stacks of runtime errors.
    stack: Vec<(&'a Function, SrcLoc)>,
}

fn pack(loc: SrcLoc) -> i64 {
    rt::pack_loc(loc.line, loc.col)
}

fn to_const(ty: Ty, bits: u64) -> Const {
    match ty {
        Ty::Float => Const::Float(f64::from_bits(bits)),
        Ty::Bool => Const::Bool(bits != 0),
        Ty::Int | Ty::Array => Const::Int(bits as i64),
    }
}

fn from_const(c: Const) -> u64 {
    match c {
        Const::Int(n) => n as u64,
        Const::Float(x) => x.to_bits(),
        Const::Bool(b) => b as u64,
    }
}

/// Reads the element of type `elem` at `slot`.
///
/// # Safety
/// `slot` comes from [`element`] for the same type.
unsafe fn read_element(slot: *const u8, elem: Ty) -> u64 {
    match elem {
        Ty::Bool => (*slot != 0) as u64,
        _ => *(slot as *const u64),
    }
}

/// Writes `bits` as an element of type `elem` at `slot`.
///
/// # Safety
/// `slot` comes from [`element`] for the same type.
unsafe fn write_element(slot: *mut u8, elem: Ty, bits: u64) {
    match elem {
        Ty::Bool => *slot = bits as u8,
        _ => *(slot as *mut u64) = bits,
    }
}

impl<'a> Interp<'a> {
    /// Reports a runtime error of an instruction of `f` at `loc`, with
    /// the call stack as compiled code reports it.
    fn fail(&self, f: &'a Function, loc: SrcLoc, kind: ErrorKind, a: i64, b: i64) -> ! {
        let mut frames = Vec::new();
        f.frames_at(loc, &mut frames);
        for &(caller, call) in self.stack.iter().rev() {
            caller.frames_at(call, &mut frames);
        }
        let mut names: rustc_hash::FxHashMap<&str, std::sync::Arc<str>> = Default::default();
        let frames: Vec<rt::Frame> = frames
            .into_iter()
            .map(|(name, loc)| rt::Frame {
                function: (names.entry(name))
                    .or_insert_with(|| crate::check::frame_name(name).into())
                    .clone(),
                loc: pack(loc),
            })
            .collect();
        rt::runtime_error(kind, pack(loc), a, b, &frames)
    }

    /// The address of element `index` of an array of `elem`s, after the
    /// bounds check.
    fn element(&self, f: &'a Function, array: u64, index: u64, elem: Ty, loc: SrcLoc) -> *mut u8 {
        let ptr = array as *mut i64;
        // SAFETY: arrays come from the runtime's allocator and start with their length.
        let len = unsafe { *ptr };
        if index >= len as u64 {
            self.fail(f, loc, ErrorKind::IndexOutOfBounds, index as i64, len);
        }
        let offset = rt::ARRAY_HEADER as usize + index as usize * elem.elem_size() as usize;
        // SAFETY: index < len, and the elements follow the length word.
        unsafe { (ptr as *mut u8).add(offset) }
    }

    fn new_array(&self, f: &'a Function, len: i64, fill: u64, elem: Ty, loc: SrcLoc) -> *mut i64 {
        // Not from compiled code: no compiled frames to walk for roots.
        let caller = rt::gc::CallerFrame::NONE;
        rt::gc::allocate(len, fill as i64, elem.elem_kind(), caller)
            .unwrap_or_else(|e| self.fail(f, loc, e.kind(), len, 0))
    }

    fn call(&mut self, f: &'a Function, args: &[u64]) -> Option<u64> {
        let mut vals = vec![0u64; f.values.len()];
        for (&p, &a) in f.params.iter().zip(args) {
            vals[p.index()] = a;
        }
        ROOTS.with_borrow_mut(|r| r.frames.push((vals.as_ptr(), f as *const Function)));
        let result = self.run_body(f, &mut vals);
        ROOTS.with_borrow_mut(|r| r.frames.pop());
        result
    }

    fn run_body(&mut self, f: &'a Function, vals: &mut [u64]) -> Option<u64> {
        let mut block = f.entry();
        let mut pred: Option<Block> = None;
        loop {
            if let Some(p) = pred {
                self.enter_block(f, block, p, vals);
            }
            for &inst in &f.blocks[block].insts {
                self.inst(f, inst, vals);
            }
            let get = |v: Value| vals[v.index()];
            match f.blocks[block].term.as_ref().expect("verified: terminated") {
                Terminator::Jump(to) => {
                    pred = Some(block);
                    block = *to;
                }
                Terminator::Branch {
                    cond,
                    then_block,
                    else_block,
                } => {
                    pred = Some(block);
                    block = if get(*cond) != 0 {
                        *then_block
                    } else {
                        *else_block
                    };
                }
                Terminator::Switch {
                    value,
                    cases,
                    default,
                } => {
                    pred = Some(block);
                    let n = get(*value) as i64;
                    block = (cases.iter().find(|&&(k, _)| k == n)).map_or(*default, |&(_, b)| b);
                }
                Terminator::Return(v) => return v.map(get),
                Terminator::Unreachable => unreachable!("the checker proved this unreachable"),
            }
        }
    }

    /// Phis take their operand for the edge from `pred`, all at once.
    fn enter_block(&self, f: &Function, block: Block, pred: Block, vals: &mut [u64]) {
        let data = &f.blocks[block];
        if data.phis.is_empty() {
            return;
        }
        let k = data
            .preds
            .iter()
            .position(|&p| p == pred)
            .expect("edge recorded in preds");
        let incoming: Vec<u64> = data
            .phis
            .iter()
            .map(|&phi| vals[f.phi_args(phi)[k].index()])
            .collect();
        for (&phi, v) in data.phis.iter().zip(incoming) {
            vals[phi.index()] = v;
        }
    }

    fn inst(&mut self, f: &'a Function, inst: Inst, vals: &mut [u64]) {
        let data = &f.insts[inst];
        let get = |v: Value| vals[v.index()];
        let typed = |v: Value| to_const(f.value_ty(v), vals[v.index()]);
        let result: Option<u64> = match &data.kind {
            InstKind::Copy(v) => Some(get(*v)),
            InstKind::IConst(n) => Some(*n as u64),
            InstKind::FConst(bits) => Some(*bits),
            InstKind::BConst(b) => Some(*b as u64),
            InstKind::Unary(op, a) => {
                let c = eval_unary(*op, typed(*a)).expect("well-typed unary");
                Some(from_const(c))
            }
            InstKind::Binary(op, a, b) => match eval_binary(*op, typed(*a), typed(*b)) {
                Some(c) => Some(from_const(c)),
                None => self.fail(f, data.loc, ErrorKind::DivisionByZero, get(*a) as i64, 0),
            },
            InstKind::Call(func, args) => {
                if self.stack.len() >= MAX_CALL_DEPTH {
                    self.fail(f, data.loc, ErrorKind::StackOverflow, 0, 0);
                }
                let args: Vec<u64> = args.iter().map(|&a| get(a)).collect();
                let module = self.module;
                self.stack.push((f, data.loc));
                let r = self.call(&module.functions[*func as usize], &args);
                self.stack.pop();
                r
            }
            InstKind::LoadGlobal(g) => Some(self.globals[*g as usize]),
            InstKind::StoreGlobal(g, v) => {
                self.globals[*g as usize] = get(*v);
                None
            }
            InstKind::NewArray { len, fill } => {
                let elem = f.value_ty(*fill);
                Some(self.new_array(f, get(*len) as i64, get(*fill), elem, data.loc) as u64)
            }
            // A new array every time: the reference semantics `ir::renew`
            // must keep, which differential runs compare the JIT's reuse with.
            InstKind::ArrayLit(elems) | InstKind::Renew { elems, .. } => {
                let elem = f.value_ty(elems[0]);
                let arr = self.new_array(f, elems.len() as i64, 0, elem, data.loc) as u64;
                for (i, &e) in elems.iter().enumerate() {
                    let slot = self.element(f, arr, i as u64, elem, data.loc);
                    // SAFETY: a slot of this array, for this type.
                    unsafe { write_element(slot, elem, get(e)) };
                }
                Some(arr)
            }
            InstKind::EmptyArray => Some(rt::toy_rt_empty_array() as u64),
            // SAFETY: arrays start with their length.
            InstKind::ArrayLen(a) => Some(unsafe { *(get(*a) as *const i64) } as u64),
            InstKind::ArrayGet { array, index, .. } => {
                let elem = f.value_ty(data.result.expect("get has a result"));
                let slot = self.element(f, get(*array), get(*index), elem, data.loc);
                // SAFETY: `element` checked the bounds.
                Some(unsafe { read_element(slot, elem) })
            }
            InstKind::ArraySet {
                array,
                index,
                value,
                ..
            } => {
                let elem = f.value_ty(*value);
                let slot = self.element(f, get(*array), get(*index), elem, data.loc);
                // SAFETY: `element` checked the bounds.
                unsafe { write_element(slot, elem, get(*value)) };
                None
            }
            InstKind::Print(item) => {
                self.print(item, get);
                None
            }
            InstKind::Clock => Some(rt::toy_rt_clock().to_bits()),
            InstKind::CheckDepth(depth) => {
                // As deep as the calls it stands for would have nested.
                let depth = get(*depth) as usize;
                if self.stack.len().saturating_add(depth) >= MAX_CALL_DEPTH {
                    self.fail(f, data.loc, ErrorKind::StackOverflow, depth as i64, 0);
                }
                None
            }
            InstKind::Select {
                cond,
                if_true,
                if_false,
            } => Some(get(if get(*cond) != 0 { *if_true } else { *if_false })),
        };
        if let (Some(r), Some(v)) = (data.result, result) {
            vals[r.index()] = v;
        }
    }

    fn print(&self, item: &PrintItem, get: impl Fn(Value) -> u64) {
        match item {
            PrintItem::Int(v) => rt::toy_rt_print_int(get(*v) as i64),
            PrintItem::Float(v) => rt::toy_rt_print_float(f64::from_bits(get(*v))),
            PrintItem::Bool(v) => rt::toy_rt_print_bool(get(*v) as i64),
            // SAFETY: the runtime allocated the array with this element type.
            PrintItem::Array(v, code) => unsafe {
                rt::toy_rt_print_array(get(*v) as *const i64, *code)
            },
            PrintItem::Str(s) => {
                let s = &self.module.strings[*s as usize];
                // SAFETY: a live `&str`.
                unsafe { rt::toy_rt_print_str(s.as_ptr(), s.len() as i64) }
            }
            PrintItem::Space => rt::toy_rt_print_space(),
            PrintItem::Newline => rt::toy_rt_print_newline(),
        }
    }
}
