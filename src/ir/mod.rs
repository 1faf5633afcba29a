//! jitrun's own SSA IR: functions of basic blocks, instructions and values
//! held in arenas and named by small index types.
//!
//! Phis live at the head of their block and carry one operand per
//! predecessor, in the order of `BlockData::preds`; the translator turns
//! them into Cranelift block parameters. The IR knows nothing of Cranelift
//! and nothing of the AST.

pub mod alias;
pub mod analyses;
pub mod arguments;
pub mod bounds;
pub mod carry;
pub mod constants;
pub mod dom;
pub mod dot;
pub mod globals;
pub mod gvn;
pub mod inline;
pub mod inliner;
pub mod lengths;
pub mod licm;
pub mod loops;
pub mod print;
pub mod ranges;
pub mod reassoc;
pub mod renew;
pub mod reuse;
pub mod rotate;
pub mod safepoints;
pub mod scalars;
pub mod select;
pub mod semantics;
pub mod sink;
pub mod sizes;
pub mod switch;
pub mod tailrec;
pub mod thread;
pub mod tidy;
pub mod unroll;
pub mod vector;
pub mod verify;
pub mod version;

use crate::entity::Arena;
use rustc_hash::FxHashMap;
use smallvec::{smallvec, SmallVec};

crate::entity!(
    /// An SSA value: a parameter, an instruction result or a phi.
    Value,
    "v"
);
crate::entity!(
    /// An instruction.
    Inst,
    "i"
);
crate::entity!(
    /// A basic block.
    Block,
    "b"
);
crate::entity!(
    /// A phi's operands and block, kept apart from its value's
    /// [`ValueData`] so that every value stays small (most values are not
    /// phis, and construction writes hundreds of thousands of them).
    Phi,
    "phi"
);

/// Types of SSA values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Int,
    Float,
    Bool,
    /// A pointer to an array.
    Array,
}

impl std::fmt::Display for Ty {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Ty::Int => "int",
            Ty::Float => "float",
            Ty::Bool => "bool",
            Ty::Array => "arr",
        })
    }
}

impl Ty {
    /// How the runtime's collector sees an array of elements of this type:
    /// arrays of arrays are traced, all others never scanned.
    pub fn elem_kind(self) -> jitrun_runtime::gc::ElemKind {
        use jitrun_runtime::gc::ElemKind;
        match self {
            Ty::Bool => ElemKind::Bytes,
            Ty::Array => ElemKind::Arrays,
            Ty::Int | Ty::Float => ElemKind::Words,
        }
    }

    /// Bytes per element of an array of this type (one for `bool`, as in C).
    pub fn elem_size(self) -> i64 {
        self.elem_kind().elem_size() as i64
    }
}

/// A source position for instructions that can fail at run time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SrcLoc {
    pub line: u32,
    pub col: u32,
    /// Where the instruction was expanded in place: 0 when it is the
    /// function's own; `k` when it belongs to a copy of a callee made at
    /// `Function::inline_sites[k - 1]` (by `ir::inline`).
    pub inlined: u32,
}

impl SrcLoc {
    pub fn new(line: u32, col: u32) -> Self {
        SrcLoc {
            line,
            col,
            inlined: 0,
        }
    }
}

/// A call that `ir::inline` replaced by a copy of its callee: the callee's
/// name and the call's location (whose own `inlined` says where the call
/// itself was expanded). A runtime error in the copy names the callee
/// and this call, as it would have without the copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InlineSite {
    pub callee: String,
    pub call: SrcLoc,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    INeg,
    FNeg,
    Not,
    IAbs,
    FAbs,
    Sqrt,
    FloatToInt,
    IntToFloat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    /// The comparison with its operands swapped: `a < b` is `b > a`.
    pub fn swapped(self) -> Cmp {
        match self {
            Cmp::Eq | Cmp::Ne => self,
            Cmp::Lt => Cmp::Gt,
            Cmp::Le => Cmp::Ge,
            Cmp::Gt => Cmp::Lt,
            Cmp::Ge => Cmp::Le,
        }
    }

    /// The comparison that holds where this one does not (on ints).
    pub fn negated(self) -> Cmp {
        match self {
            Cmp::Eq => Cmp::Ne,
            Cmp::Ne => Cmp::Eq,
            Cmp::Lt => Cmp::Ge,
            Cmp::Le => Cmp::Gt,
            Cmp::Gt => Cmp::Le,
            Cmp::Ge => Cmp::Lt,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    IAdd,
    ISub,
    IMul,
    /// Checked: division by zero is a runtime error; `MIN / -1` wraps.
    IDiv,
    IRem,
    FAdd,
    FSub,
    FMul,
    FDiv,
    FRem,
    And,
    Or,
    Xor,
    /// Shift amounts are masked to 6 bits.
    Shl,
    Shr,
    ICmp(Cmp),
    FCmp(Cmp),
    /// `==`/`!=` on bools.
    BCmp(Cmp),
    IMin,
    IMax,
    FMin,
    FMax,
}

impl BinaryOp {
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinaryOp::ICmp(_) | BinaryOp::FCmp(_) | BinaryOp::BCmp(_)
        )
    }

    /// Whether `a op b == b op a`.
    pub fn is_commutative(self) -> bool {
        use BinaryOp::*;
        matches!(
            self,
            IAdd | IMul
                | FAdd
                | FMul
                | And
                | Or
                | Xor
                | IMin
                | IMax
                | ICmp(Cmp::Eq | Cmp::Ne)
                | BCmp(Cmp::Eq | Cmp::Ne)
        )
    }

    /// Whether the operation can stop the program (division by zero).
    pub fn can_fail(self) -> bool {
        matches!(self, BinaryOp::IDiv | BinaryOp::IRem)
    }
}

/// One piece of a `print` statement.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PrintItem {
    Int(Value),
    Float(Value),
    Bool(Value),
    /// An array and the runtime type code of its elements.
    Array(Value, i64),
    Str(u32),
    Space,
    Newline,
}

/// Identifies a user function of the module (the index into `Module::functions`).
pub type FuncRef = u32;
/// Identifies a global variable of the module (an index into `Module::globals`).
pub type GlobalRef = u32;

/// The operands of an instruction, in order, for `visit` (`&Value`) and
/// `visit_mut` (`&mut Value`) alike: match ergonomics give the bindings the
/// mutability of `$inst`.
macro_rules! visit_operands {
    ($inst:expr, $f:expr, $iter:ident) => {{
        use InstKind::*;
        let f = $f;
        match $inst {
            IConst(_) | FConst(_) | BConst(_) | LoadGlobal(_) | EmptyArray | Clock => {}
            Copy(a) | Unary(_, a) | StoreGlobal(_, a) | ArrayLen(a) | CheckDepth(a) => f(a),
            Binary(_, a, b)
            | NewArray { len: a, fill: b }
            | ArrayGet {
                array: a, index: b, ..
            } => {
                f(a);
                f(b)
            }
            Call(_, args) | ArrayLit(args) => args.$iter().for_each(f),
            Renew { old, elems } => {
                f(old);
                elems.$iter().for_each(f)
            }
            ArraySet {
                array,
                index,
                value,
                ..
            } => {
                f(array);
                f(index);
                f(value)
            }
            Select {
                cond,
                if_true,
                if_false,
            } => {
                f(cond);
                f(if_true);
                f(if_false)
            }
            Print(item) => match item {
                PrintItem::Int(v)
                | PrintItem::Float(v)
                | PrintItem::Bool(v)
                | PrintItem::Array(v, _) => f(v),
                PrintItem::Str(_) | PrintItem::Space | PrintItem::Newline => {}
            },
        }
    }};
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum InstKind {
    /// A copy of a value; only built at `-O0`, where copy propagation is off.
    Copy(Value),
    IConst(i64),
    /// The bits of an `f64` (so that instructions hash).
    FConst(u64),
    BConst(bool),
    Unary(UnaryOp, Value),
    Binary(BinaryOp, Value, Value),
    Call(FuncRef, Vec<Value>),
    LoadGlobal(GlobalRef),
    StoreGlobal(GlobalRef, Value),
    /// `[fill; len]`; a negative length is a runtime error.
    NewArray {
        len: Value,
        fill: Value,
    },
    /// `[e1, e2, …]`.
    ArrayLit(Vec<Value>),
    /// `[e1, e2, …]` stored where `old` is, made by `ir::renew`: `old`
    /// itself, its elements overwritten, when an earlier `renew` made it
    /// (the collector's header says so) and it has this length; otherwise
    /// a new array, marked as made by a `renew`. `ir::renew` proves that
    /// nothing else holds `old` and nothing reads it afterwards.
    Renew {
        old: Value,
        elems: Vec<Value>,
    },
    /// The shared empty array (the value of an array global before its `let`).
    EmptyArray,
    ArrayLen(Value),
    /// Element read, bounds-checked unless `checked` is false: a pass
    /// proved the index in bounds (`ir::licm`'s hoisted loads,
    /// `ir::version`'s fast loops).
    ArrayGet {
        array: Value,
        index: Value,
        checked: bool,
    },
    /// Element write, bounds-checked unless `checked` is false.
    ArraySet {
        array: Value,
        index: Value,
        value: Value,
        checked: bool,
    },
    Print(PrintItem),
    Clock,
    /// Where `ir::tailrec` made a call of the function itself a jump back
    /// to its start: `depth` such jumps have been taken in this frame, and
    /// the program stops with `stack overflow` (at the call's location)
    /// once they are as many as the stack has bytes left, so that
    /// recursion without end still ends, and never sooner than the calls
    /// would have (a call takes more than a byte).
    CheckDepth(Value),
    /// `cond ? if_true : if_false`, both operands evaluated: `ir::select`'s
    /// replacement for a phi whose branch arms it ran unconditionally.
    Select {
        cond: Value,
        if_true: Value,
        if_false: Value,
    },
}

impl InstKind {
    /// The instruction that makes constant `c`.
    pub fn constant(c: semantics::Const) -> InstKind {
        match c {
            semantics::Const::Int(n) => InstKind::IConst(n),
            semantics::Const::Float(x) => InstKind::FConst(x.to_bits()),
            semantics::Const::Bool(b) => InstKind::BConst(b),
        }
    }

    /// Pure instructions may be folded, simplified and shared by CSE. An
    /// array's length is fixed when it is made, so `len` is one too.
    pub fn is_pure(&self) -> bool {
        matches!(
            self,
            InstKind::IConst(_)
                | InstKind::FConst(_)
                | InstKind::BConst(_)
                | InstKind::Unary(..)
                | InstKind::Binary(..)
                | InstKind::ArrayLen(_)
                | InstKind::Select { .. }
        )
    }

    /// For an array access, whether it checks its index (`false` once a
    /// pass proved it in bounds, as `ir::licm` and `ir::version` do); `None` for other
    /// instructions.
    pub fn bounds_check(&self) -> Option<bool> {
        match self {
            InstKind::ArrayGet { checked, .. } | InstKind::ArraySet { checked, .. } => {
                Some(*checked)
            }
            _ => None,
        }
    }

    /// Whether it reads an element or a global (what `ir::reuse` and
    /// `ir::licm` work on).
    pub fn is_read(&self) -> bool {
        matches!(self, InstKind::ArrayGet { .. } | InstKind::LoadGlobal(_))
    }

    /// Whether an unused result lets the instruction go: pure, and unable
    /// to stop the program (an unused `x / 0` must still fail).
    pub fn is_removable_if_unused(&self) -> bool {
        match self {
            InstKind::Binary(op, ..) => !op.can_fail(),
            other => other.is_pure(),
        }
    }

    /// Every value operand, in order.
    pub fn operands(&self) -> Vec<Value> {
        let mut out = Vec::new();
        self.for_each_operand(|v| out.push(v));
        out
    }

    pub fn for_each_operand(&self, mut f: impl FnMut(Value)) {
        let mut g = |v: &Value| f(*v);
        self.visit(&mut g);
    }

    pub fn map_operands(&mut self, mut f: impl FnMut(Value) -> Value) {
        self.visit_mut(&mut |v: &mut Value| *v = f(*v));
    }

    fn visit(&self, f: &mut impl FnMut(&Value)) {
        visit_operands!(self, f, iter)
    }

    fn visit_mut(&mut self, f: &mut impl FnMut(&mut Value)) {
        visit_operands!(self, f, iter_mut)
    }
}

#[derive(Clone, Debug)]
pub struct InstData {
    pub kind: InstKind,
    pub result: Option<Value>,
    pub loc: SrcLoc,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Terminator {
    Jump(Block),
    Branch {
        cond: Value,
        then_block: Block,
        else_block: Block,
    },
    Return(Option<Value>),
    /// Control never gets here (the checker proved it); becomes a trap.
    Unreachable,
    /// To the block of the case whose constant `value` equals, else to
    /// `default` (an `if`/`else` chain over one value, as `ir::switch`
    /// forms it). Architecture Invariant: the cases' constants are
    /// distinct and dense (their range at most [`switch::MAX_SPREAD`]
    /// times their number: the translator makes one jump table of it),
    /// every target (the default too) is a different block, and no target
    /// has phis, so that the translator passes no arguments.
    Switch {
        value: Value,
        cases: Vec<(i64, Block)>,
        default: Block,
    },
}

impl Terminator {
    /// The successors, without allocating for up to two (walks over the
    /// CFG ask for them at every step); a switch's cases, then its default.
    pub fn successors(&self) -> SmallVec<[Block; 2]> {
        (0..).map_while(|k| self.successor(k)).collect()
    }

    /// The same terminator with every target `b` replaced by `to(b)`.
    pub fn map_blocks(&self, mut to: impl FnMut(Block) -> Block) -> Terminator {
        let mut term = self.clone();
        term.for_each_target(|b| *b = to(*b));
        term
    }

    /// The `k`th of [`Terminator::successors`], without collecting them.
    pub fn successor(&self, k: usize) -> Option<Block> {
        match *self {
            Terminator::Jump(b) => (k == 0).then_some(b),
            Terminator::Branch {
                then_block,
                else_block,
                ..
            } => [then_block, else_block].get(k).copied(),
            Terminator::Return(_) | Terminator::Unreachable => None,
            Terminator::Switch {
                ref cases, default, ..
            } => match cases.get(k) {
                Some(&(_, b)) => Some(b),
                None => (k == cases.len()).then_some(default),
            },
        }
    }

    fn for_each_target(&mut self, mut f: impl FnMut(&mut Block)) {
        match self {
            Terminator::Jump(b) => f(b),
            Terminator::Branch {
                then_block,
                else_block,
                ..
            } => {
                f(then_block);
                f(else_block);
            }
            Terminator::Return(_) | Terminator::Unreachable => {}
            Terminator::Switch { cases, default, .. } => {
                cases.iter_mut().for_each(|(_, b)| f(b));
                f(default);
            }
        }
    }

    /// Sends the edges to `from` to `to` instead.
    pub fn retarget(&mut self, from: Block, to: Block) {
        self.for_each_target(|b| {
            if *b == from {
                *b = to;
            }
        });
    }

    pub fn map_operands(&mut self, f: impl FnOnce(Value) -> Value) {
        match self {
            Terminator::Branch { cond: v, .. }
            | Terminator::Switch { value: v, .. }
            | Terminator::Return(Some(v)) => *v = f(*v),
            _ => {}
        }
    }

    pub fn operand(&self) -> Option<Value> {
        match self {
            Terminator::Branch { cond: v, .. } | Terminator::Switch { value: v, .. } => Some(*v),
            Terminator::Return(v) => *v,
            _ => None,
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct BlockData {
    // Small vectors inline (no larger than a `Vec`): most blocks have one
    // or two predecessors, few phis and a handful of instructions, and a
    // heap vector each was a large part of construction time.
    pub preds: SmallVec<[Block; 2]>,
    pub phis: SmallVec<[Value; 2]>,
    pub insts: SmallVec<[Inst; 4]>,
    pub term: Option<Terminator>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ValueDef {
    Param(u32),
    Inst(Inst),
    /// A phi; its block and operands are in [`Function::phis`].
    Phi(Phi),
    /// A value that is never defined on any path (Braun et al. Alg. 3's
    /// `Undef`); becomes zero.
    Undef,
    /// A removed phi, replaced by another value. Gone after construction.
    Alias(Value),
}

/// A phi's block and its operands, one per predecessor of `block`, in the
/// order of `BlockData::preds`.
#[derive(Clone, Debug, PartialEq)]
pub struct PhiData {
    pub block: Block,
    pub args: SmallVec<[Value; 2]>,
}

#[derive(Clone, Debug)]
pub struct ValueData {
    pub ty: Ty,
    pub def: ValueDef,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    pub params: Vec<Value>,
    pub ret: Option<Ty>,
    pub blocks: Arena<Block, BlockData>,
    pub insts: Arena<Inst, InstData>,
    pub values: Arena<Value, ValueData>,
    /// Every phi ever placed, removed ones included (their values are
    /// `Alias`es then).
    pub phis: Arena<Phi, PhiData>,
    /// The blocks that hold code, in creation order; the first is the entry.
    pub layout: Vec<Block>,
    /// The calls expanded in place, which `SrcLoc::inlined` refers to.
    pub inline_sites: Vec<InlineSite>,
    /// By value: its alias class, as `ir::alias` recorded it for whole
    /// programs ([`alias::UNCLASSIFIED`], or beyond the end, for values
    /// it did not see and those that are no arrays).
    pub array_classes: Vec<u32>,
    /// By value: the length of every array of its class, as `ir::alias`
    /// recorded it (negative, or beyond the end: not known).
    pub class_lengths: Vec<i64>,
    /// The dominator tree and loop forest last asked for, with the CFG
    /// they are of ([`Function::dom_and_loops`]).
    pub analyses: analyses::Cached,
}

/// The value `v` stands for in `values`, following the replacements of
/// removed phis.
fn resolve_in(values: &Arena<Value, ValueData>, mut v: Value) -> Value {
    while let ValueDef::Alias(to) = values[v].def {
        v = to;
    }
    v
}

impl Function {
    pub fn new(name: impl Into<String>, ret: Option<Ty>) -> Self {
        Function {
            name: name.into(),
            params: Vec::new(),
            ret,
            blocks: Arena::new(),
            insts: Arena::new(),
            values: Arena::new(),
            phis: Arena::new(),
            layout: Vec::new(),
            inline_sites: Vec::new(),
            array_classes: Vec::new(),
            class_lengths: Vec::new(),
            analyses: analyses::Cached::default(),
        }
    }

    /// The length of array `v` when `ir::alias` found that every array of
    /// its class has that one.
    pub fn known_length(&self, v: Value) -> Option<i64> {
        let n = self.class_lengths.get(crate::entity::EntityRef::index(v));
        n.copied().filter(|&n| n >= 0)
    }

    /// Gives `copy`, a copy of `v` a pass made (the same array), the class
    /// and the known length `ir::alias` recorded for `v`.
    pub fn copy_class(&mut self, v: Value, copy: Value) {
        use crate::entity::EntityRef;
        let Some(class) = self.array_class(v) else {
            return;
        };
        let at = copy.index();
        if self.array_classes.len() <= at {
            self.array_classes.resize(at + 1, alias::UNCLASSIFIED);
        }
        self.array_classes[at] = class;
        if let Some(len) = self.known_length(v) {
            if self.class_lengths.len() <= at {
                self.class_lengths.resize(at + 1, -1);
            }
            self.class_lengths[at] = len;
        }
    }

    /// The alias class `ir::alias` recorded for array `v`, if any.
    pub fn array_class(&self, v: Value) -> Option<u32> {
        let c = (self.array_classes)
            .get(crate::entity::EntityRef::index(v))
            .copied();
        c.filter(|&c| c != alias::UNCLASSIFIED)
    }

    /// Whether arrays `a` and `b` may be the same array: unless `ir::alias`
    /// put them in different classes.
    pub fn may_alias(&self, a: Value, b: Value) -> bool {
        match (self.array_class(a), self.array_class(b)) {
            (Some(x), Some(y)) => x == y,
            _ => true,
        }
    }

    /// The Toy frames an instruction at `loc` stands for, innermost
    /// first, appended to `out`: the function the instruction was written
    /// in, with `loc`, then each call that was expanded in place to bring
    /// it here, with the function that made that call — ending with this
    /// function.
    pub fn frames_at<'a>(&'a self, loc: SrcLoc, out: &mut Vec<(&'a str, SrcLoc)>) {
        let mut loc = loc;
        loop {
            let Some(site) = loc.inlined.checked_sub(1) else {
                out.push((&self.name, loc));
                return;
            };
            let site = &self.inline_sites[site as usize];
            out.push((&site.callee, loc));
            loc = site.call;
        }
    }

    pub fn entry(&self) -> Block {
        self.layout[0]
    }

    pub fn value_ty(&self, v: Value) -> Ty {
        self.values[v].ty
    }

    /// The blocks `b`'s terminator goes to (none before it has one).
    pub fn successors(&self, b: Block) -> SmallVec<[Block; 2]> {
        (self.blocks[b].term.as_ref())
            .map(Terminator::successors)
            .unwrap_or_default()
    }

    /// The instruction that defines `v`, if an instruction does.
    pub fn def_kind(&self, v: Value) -> Option<&InstKind> {
        match self.values[v].def {
            ValueDef::Inst(inst) => Some(&self.insts[inst].kind),
            _ => None,
        }
    }

    /// The constant `v` holds, if it is the result of a constant instruction.
    pub fn constant(&self, v: Value) -> Option<semantics::Const> {
        Some(match *self.def_kind(v)? {
            InstKind::IConst(n) => semantics::Const::Int(n),
            InstKind::FConst(bits) => semantics::Const::Float(f64::from_bits(bits)),
            InstKind::BConst(b) => semantics::Const::Bool(b),
            _ => return None,
        })
    }

    /// The int constant `v` holds, if it is the result of an `iconst`.
    pub fn int_constant(&self, v: Value) -> Option<i64> {
        match self.def_kind(v)? {
            InstKind::IConst(n) => Some(*n),
            _ => None,
        }
    }

    pub fn phi_args(&self, phi: Value) -> &[Value] {
        match self.values[phi].def {
            ValueDef::Phi(p) => &self.phis[p].args,
            _ => &[],
        }
    }

    /// The operands of phi `v`, to change them; `None` if `v` is not a
    /// (live) phi.
    pub fn phi_args_mut(&mut self, v: Value) -> Option<&mut SmallVec<[Value; 2]>> {
        match self.values[v].def {
            ValueDef::Phi(p) => Some(&mut self.phis[p].args),
            _ => None,
        }
    }

    /// Places a new phi of type `ty` at the end of `block`'s phis.
    pub fn add_phi(&mut self, block: Block, ty: Ty, args: SmallVec<[Value; 2]>) -> Value {
        let p = self.phis.push(PhiData { block, args });
        let phi = self.values.push(ValueData {
            ty,
            def: ValueDef::Phi(p),
        });
        self.blocks[block].phis.push(phi);
        phi
    }

    /// Appends an instruction computing `kind` of type `ty` to `block`;
    /// its result.
    pub fn push_inst(&mut self, block: Block, kind: InstKind, ty: Ty) -> Value {
        let (inst, v) = self.new_inst(kind, ty);
        self.blocks[block].insts.push(inst);
        v
    }

    /// A new instruction computing a value of type `ty`, in no block yet.
    pub fn new_inst(&mut self, kind: InstKind, ty: Ty) -> (Inst, Value) {
        let inst = self.insts.push(InstData {
            kind,
            result: None,
            loc: SrcLoc::default(),
        });
        let v = self.values.push(ValueData {
            ty,
            def: ValueDef::Inst(inst),
        });
        self.insts[inst].result = Some(v);
        (inst, v)
    }

    /// Inserts an instruction computing `kind` of type `ty` at position
    /// `at` of `block`'s instructions; its result.
    pub fn insert_inst(&mut self, block: Block, at: usize, kind: InstKind, ty: Ty) -> Value {
        let v = self.push_inst(block, kind, ty);
        let inst = self.blocks[block].insts.pop().expect("just pushed");
        self.blocks[block].insts.insert(at, inst);
        v
    }

    /// `kind` as `x + c` for a constant `c`: `x + c`, `c + x` or `x - c`
    /// (not `x - i64::MIN`, whose `c` has no `i64`).
    pub fn constant_offset(&self, kind: &InstKind) -> Option<(Value, i64)> {
        let int = |v: Value| self.int_constant(v);
        match *kind {
            InstKind::Binary(BinaryOp::IAdd, a, b) => match (int(a), int(b)) {
                (_, Some(c)) => Some((a, c)),
                (Some(c), _) => Some((b, c)),
                _ => None,
            },
            InstKind::Binary(BinaryOp::ISub, a, b) => Some((a, int(b)?.checked_neg()?)),
            _ => None,
        }
    }

    /// `kind` as `x + k`, when it adds or subtracts a constant to `x ± c`
    /// (`(c + n) - 1` once `n` is known): the constants combined,
    /// wrapping as Toy's arithmetic does, so that the result is exact.
    pub fn combined_offset(&self, kind: &InstKind) -> Option<(Value, i64)> {
        let (inner, outer) = self.constant_offset(kind)?;
        let (x, c) = self.constant_offset(self.def_kind(inner)?)?;
        // `x` itself a constant is folding's business.
        (self.int_constant(x).is_none()).then(|| (x, c.wrapping_add(outer)))
    }

    /// The block of phi `v`, if `v` is a (live) phi.
    pub fn phi_block(&self, v: Value) -> Option<Block> {
        match self.values[v].def {
            ValueDef::Phi(p) => Some(self.phis[p].block),
            _ => None,
        }
    }

    pub fn is_phi(&self, v: Value) -> bool {
        matches!(self.values[v].def, ValueDef::Phi(_))
    }

    /// The value `v` stands for, following the replacements of removed phis.
    pub fn resolve(&self, v: Value) -> Value {
        resolve_in(&self.values, v)
    }

    /// Takes `phi` out of its block and makes it an alias of `by`; its
    /// uses name `by` once [`Function::resolve_aliases`] has run (or
    /// whenever they are [resolved](Function::resolve)).
    pub fn remove_phi(&mut self, phi: Value, by: Value) {
        if let Some(block) = self.phi_block(phi) {
            self.blocks[block].phis.retain(|p| *p != phi);
        }
        self.values[phi].def = ValueDef::Alias(by);
    }

    /// Rewrites every operand that names a removed phi to the value that
    /// replaced it.
    pub fn resolve_aliases(&mut self) {
        self.map_operands(resolve_in);
    }

    /// Rewrites every operand of the laid-out code (instructions, phis,
    /// terminators) `v` to `map(values, v)`.
    pub fn map_operands(&mut self, map: impl Fn(&Arena<Value, ValueData>, Value) -> Value) {
        let Function {
            layout,
            blocks,
            insts,
            values,
            phis,
            ..
        } = self;
        for &b in layout.iter() {
            let data = &mut blocks[b];
            for &inst in &data.insts {
                insts[inst].kind.map_operands(|v| map(values, v));
            }
            for &phi in &data.phis {
                if let ValueDef::Phi(p) = values[phi].def {
                    for a in phis[p].args.iter_mut() {
                        *a = map(values, *a);
                    }
                }
            }
            if let Some(term) = data.term.as_mut() {
                term.map_operands(|v| map(values, v));
            }
        }
    }

    /// Every call in the laid-out blocks, in order: its block, its
    /// instruction and the function it calls.
    pub fn calls(&self) -> impl Iterator<Item = (Block, Inst, FuncRef)> + '_ {
        self.layout.iter().flat_map(move |&b| {
            self.blocks[b]
                .insts
                .iter()
                .filter_map(move |&i| match self.insts[i].kind {
                    InstKind::Call(g, _) => Some((b, i, g)),
                    _ => None,
                })
        })
    }

    /// `to`'s predecessor `from` becomes `by`, in place (the phis'
    /// operands for that edge stay where they are).
    pub fn replace_pred(&mut self, to: Block, from: Block, by: Block) {
        for p in self.blocks[to].preds.iter_mut().filter(|p| **p == from) {
            *p = by;
        }
    }

    /// `block`'s terminator goes to `to` wherever it went to `from` (the
    /// other side of [`Function::replace_pred`]).
    pub fn retarget(&mut self, block: Block, from: Block, to: Block) {
        if let Some(term) = self.blocks[block].term.as_mut() {
            term.retarget(from, to);
        }
    }

    /// How many times each value is used (instructions, phis, terminators).
    pub fn use_counts(&self) -> FxHashMap<Value, usize> {
        let mut uses = FxHashMap::default();
        self.for_each_use(|_, v| *uses.entry(self.resolve(v)).or_insert(0) += 1);
        uses
    }

    /// Every use of a value, with the block it happens in: instruction and
    /// terminator operands where they stand, a phi's argument at the end of
    /// its predecessor.
    pub fn for_each_use(&self, mut visit: impl FnMut(Block, Value)) {
        for &block in &self.layout {
            let data = &self.blocks[block];
            for &inst in &data.insts {
                self.insts[inst].kind.for_each_operand(|v| visit(block, v));
            }
            if let Some(v) = data.term.as_ref().and_then(Terminator::operand) {
                visit(block, v);
            }
            for &phi in &data.phis {
                for (&pred, &arg) in data.preds.iter().zip(self.phi_args(phi)) {
                    visit(pred, arg);
                }
            }
        }
    }

    /// Whether some laid-out instruction is one that `pred` picks.
    pub fn any_inst(&self, pred: impl Fn(&InstKind) -> bool) -> bool {
        (self.layout.iter())
            .flat_map(|&b| &self.blocks[b].insts)
            .any(|&i| pred(&self.insts[i].kind))
    }

    /// Number of phis and of other instructions in the laid-out blocks.
    pub fn counts(&self) -> (usize, usize) {
        self.layout.iter().fold((0, 0), |(p, i), &b| {
            (
                p + self.blocks[b].phis.len(),
                i + self.blocks[b].insts.len(),
            )
        })
    }
}

/// A whole program in SSA form.
#[derive(Clone, Debug)]
pub struct Module {
    /// User functions, indexed by [`FuncRef`].
    pub functions: Vec<Function>,
    /// The top-level statements.
    pub main: Function,
    pub globals: Vec<Ty>,
    /// String literals of `print`, indexed by `PrintItem::Str`.
    pub strings: Vec<String>,
    /// By function: what a call of it may change, as `ir::alias` found in
    /// a whole program (empty: not known, anything).
    pub effects: Vec<alias::Effects>,
    /// Array globals that hold one array of constants nothing changes,
    /// and its elements, as `ir::constants` found in a whole program.
    pub tables: FxHashMap<GlobalRef, Vec<semantics::Const>>,
}

/// What module passes found of the whole program that a function pass
/// (`passes::Run::Function`) may read: taken out of the module while a
/// run of function passes works ([`Module::take_facts`]) and put back
/// after, so that each function is changed knowing nothing of the others'
/// bodies.
#[derive(Debug, Default)]
pub struct Facts {
    /// [`Module::tables`].
    pub tables: FxHashMap<GlobalRef, Vec<semantics::Const>>,
    /// [`Module::effects`].
    pub effects: Vec<alias::Effects>,
    /// By function: it is on a cycle of the call graph, so a call of it
    /// stays a call (the inliner copies none); so does a call of a
    /// function not in the module (a REPL entry's call of an earlier one).
    pub recursive: Vec<bool>,
}

impl Module {
    /// The [`Facts`] of the module as it is, its tables and effects taken
    /// out of it until [`Module::put_facts`].
    pub fn take_facts(&mut self) -> Facts {
        let graph = inliner::call_graph(self);
        Facts {
            tables: std::mem::take(&mut self.tables),
            effects: std::mem::take(&mut self.effects),
            recursive: (inliner::bottom_up(&graph).1.iter())
                .map(Option::is_some)
                .collect(),
        }
    }

    /// Gives back what [`Module::take_facts`] took.
    pub fn put_facts(&mut self, facts: Facts) {
        self.tables = facts.tables;
        self.effects = facts.effects;
    }

    /// Every function, the top-level code last.
    pub fn all_functions(&self) -> impl Iterator<Item = &Function> {
        self.functions.iter().chain(std::iter::once(&self.main))
    }

    /// Function `k`: a user function, or (`k == functions.len()`) the
    /// top-level code, for passes that number every function so.
    pub fn function(&self, k: usize) -> &Function {
        self.functions.get(k).unwrap_or(&self.main)
    }

    /// [`Module::function`], to change.
    pub fn function_mut(&mut self, k: usize) -> &mut Function {
        if k < self.functions.len() {
            &mut self.functions[k]
        } else {
            &mut self.main
        }
    }

    /// Every function, the top-level code last, to change.
    pub fn all_functions_mut(&mut self) -> impl Iterator<Item = &mut Function> {
        self.functions
            .iter_mut()
            .chain(std::iter::once(&mut self.main))
    }
}
