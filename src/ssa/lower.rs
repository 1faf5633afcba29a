//! The Toy client of the SSA builder: checked AST straight to SSA, with no
//! intermediate non-SSA CFG. Each construct creates, fills and seals its
//! blocks in the order of Braun et al. §2.3 and Fig. 3: a block is sealed
//! as soon as no further predecessor can reach it (loop headers after the
//! back edge, loop exits after the body's `break`s).
//!
//! Locals are SSA variables; globals are loads and stores of memory (as in
//! the tinylang chapter), never SSA values.

use super::builder::{BuildStats, SsaBuilder, SsaMode, Var};
use crate::check::tast::{self, Builtin, ExprKind, Place, Stmt};
use crate::diag::LineIndex;
use crate::entity::EntityRef;
use crate::ir::semantics::Const;
use crate::ir::*;
use crate::syntax::ast::{BinOp, Span, UnOp};
use crate::types::Type;
use jitrun_runtime::typecode;

pub fn ir_ty(t: &Type) -> Ty {
    match t {
        Type::Int => Ty::Int,
        Type::Float => Ty::Float,
        Type::Bool => Ty::Bool,
        Type::Array(_) => Ty::Array,
    }
}

/// The runtime's type code for printing values of type `t`.
pub fn print_code(t: &Type) -> i64 {
    match t {
        Type::Int => typecode::INT,
        Type::Float => typecode::FLOAT,
        Type::Bool => typecode::BOOL,
        Type::Array(elem) => typecode::array_of(print_code(elem)),
    }
}

/// Statistics of one function's construction.
#[derive(Clone, Debug)]
pub struct FunctionStats {
    pub name: String,
    pub build: BuildStats,
}

/// Builds SSA for every function of the program.
/// How to build SSA.
#[derive(Clone, Copy, Debug, Default)]
pub struct SsaOptions {
    /// The on-the-fly optimizations of §3.1 (`-O1` and up).
    pub optimize: bool,
    pub mode: SsaMode,
    /// Scalar globals no function reads or writes are SSA variables of the
    /// top-level code (whole programs at `-O2`).
    pub promote_globals: bool,
}

pub fn lower_program(
    program: &tast::Program,
    lines: &LineIndex,
    opts: SsaOptions,
) -> (Module, Vec<FunctionStats>) {
    let mut strings = Vec::new();
    let mut stats = Vec::new();
    let mut lower = |f: &tast::Function, promoted: Option<&[bool]>| {
        let mut cx = FnLower::new(program, f, lines, opts, &mut strings);
        if let Some(promoted) = promoted {
            cx.promote(promoted);
            cx.init_array_globals();
        }
        cx.stmts(&f.body);
        let (func, build) = cx.finish();
        stats.push(FunctionStats {
            name: f.name.clone(),
            build,
        });
        func
    };
    let functions: Vec<Function> = program.functions.iter().map(|f| lower(f, None)).collect();
    let promoted = if opts.promote_globals {
        only_top_level(&functions, program.globals.len())
    } else {
        vec![false; program.globals.len()]
    };
    let main = lower(&program.main, Some(&promoted));
    let module = Module {
        functions,
        main,
        globals: program.globals.iter().map(|g| ir_ty(&g.ty)).collect(),
        strings,
        effects: Vec::new(),
        tables: Default::default(),
    };
    (module, stats)
}

/// By global: whether no function of `functions` reads or writes it.
fn only_top_level(functions: &[Function], globals: usize) -> Vec<bool> {
    let mut only = vec![true; globals];
    for f in functions {
        for &b in &f.layout {
            for &i in &f.blocks[b].insts {
                if let InstKind::LoadGlobal(g) | InstKind::StoreGlobal(g, _) = f.insts[i].kind {
                    only[g as usize] = false;
                }
            }
        }
    }
    only
}

struct FnLower<'a> {
    b: SsaBuilder,
    program: &'a tast::Program,
    /// The SSA variable of each local.
    vars: Vec<Var>,
    /// The SSA variable of each global promoted to one (top-level code).
    globals: Vec<Option<Var>>,
    /// `(break target, continue target)` of the enclosing loops.
    loops: Vec<(Block, Block)>,
    lines: &'a LineIndex,
    strings: &'a mut Vec<String>,
    returns_value: bool,
}

impl<'a> FnLower<'a> {
    fn new(
        program: &'a tast::Program,
        f: &tast::Function,
        lines: &'a LineIndex,
        opts: SsaOptions,
        strings: &'a mut Vec<String>,
    ) -> Self {
        let params: Vec<Ty> = f
            .params
            .iter()
            .map(|p| ir_ty(&f.locals[p.index()].ty))
            .collect();
        let ret = f.ret.as_ref().map(ir_ty);
        let mut b = SsaBuilder::new(&f.name, &params, ret, opts.optimize);
        b.set_mode(opts.mode);
        b.reserve(f.size.blocks, f.size.insts);
        let vars: Vec<Var> = f
            .locals
            .iter()
            .map(|l| b.declare_var(ir_ty(&l.ty)))
            .collect();
        for (i, p) in f.params.iter().enumerate() {
            let v = b.params()[i];
            b.write_variable(vars[p.index()], v);
        }
        FnLower {
            b,
            program,
            vars,
            globals: vec![None; program.globals.len()],
            loops: Vec::new(),
            lines,
            strings,
            returns_value: f.ret.is_some(),
        }
    }

    fn finish(mut self) -> (Function, BuildStats) {
        if !self.b.is_unreachable() {
            if self.returns_value {
                // The checker proved the end unreachable (e.g. after
                // `while true` at -O0, where the exit edge still exists).
                self.b.unreachable();
            } else {
                self.b.ret(None);
            }
        }
        self.b.finish()
    }

    /// Makes the `promoted` globals of scalar type SSA variables of this
    /// (top-level) code: no function sees them, so their values need no
    /// memory — a loop at the top level keeps its counters and sums in
    /// registers (mem2reg, by the same algorithm as locals). Arrays stay
    /// globals: reading one is a load of a pointer that does not change
    /// in the loop, while as a value it would be a collector root live
    /// across every call, spilled and in every stack map.
    fn promote(&mut self, promoted: &[bool]) {
        for (g, _) in promoted.iter().enumerate().filter(|(_, p)| **p) {
            let ty = ir_ty(&self.program.globals[g].ty);
            if ty != Ty::Array {
                self.globals[g] = Some(self.b.declare_var(ty));
            }
        }
    }

    /// Array globals start as the shared empty array, so that reading one
    /// before its `let` has run is safe (LANGUAGE.md is silent; see README).
    fn init_array_globals(&mut self) {
        let first = self.program.first_global;
        for (i, g) in self.program.globals.iter().enumerate().skip(first) {
            if let Type::Array(_) = g.ty {
                let empty = self.ins(InstKind::EmptyArray, Some(Ty::Array), None);
                self.store_global(i, empty.unwrap());
            }
        }
    }

    fn store_global(&mut self, g: usize, v: Value) {
        match self.globals[g] {
            Some(var) => self.b.write_variable(var, v),
            None => {
                self.ins(InstKind::StoreGlobal(g as u32, v), None, None);
            }
        }
    }

    fn loc(&self, span: &Span) -> SrcLoc {
        let (line, col) = self.lines.line_col(span.start);
        SrcLoc::new(line, col)
    }

    fn ins(&mut self, kind: InstKind, ty: Option<Ty>, span: Option<&Span>) -> Option<Value> {
        let loc = span.map(|s| self.loc(s)).unwrap_or_default();
        self.b.ins(kind, ty, loc)
    }

    fn value(&mut self, kind: InstKind, ty: Ty, span: Option<&Span>) -> Value {
        self.ins(kind, Some(ty), span)
            .expect("typed instruction has a result")
    }

    // ------------------------------------------------------------ statements

    fn stmts(&mut self, stmts: &[Stmt]) {
        for s in stmts {
            if self.b.is_unreachable() {
                // Code after `return`, `break` or `continue` is never built.
                break;
            }
            self.stmt(s);
        }
    }

    fn stmt(&mut self, stmt: &Stmt) {
        match stmt {
            Stmt::Assign(Place::Local(id), e) => {
                let mut v = self.expr_value(e);
                if !self.b.optimizing() && matches!(e.kind, ExprKind::Read(_)) {
                    // Without copy propagation, `x = y` is a real copy.
                    v = self.value(InstKind::Copy(v), ir_ty(e.ty()), None);
                }
                self.b.write_variable(self.vars[id.index()], v);
            }
            Stmt::Assign(Place::Global(g), e) => {
                let v = self.expr_value(e);
                self.store_global(g.index(), v);
            }
            Stmt::SetIndex {
                array,
                index,
                op,
                value,
                span,
            } => self.set_index(array, index, *op, value, span),
            Stmt::Expr(e) => {
                self.expr(e);
            }
            Stmt::If(arms, els) => self.if_stmt(arms, els),
            Stmt::While(cond, body) => self.while_stmt(cond, body),
            Stmt::For {
                var,
                start,
                end,
                body,
            } => self.for_stmt(self.vars[var.index()], start, end, body),
            Stmt::Break => {
                let (exit, _) = *self.loops.last().expect("checker: break in loop");
                self.b.jump(exit);
            }
            Stmt::Continue => {
                let (_, next) = *self.loops.last().expect("checker: continue in loop");
                self.b.jump(next);
            }
            Stmt::Return(value) => {
                let v = value.as_ref().map(|e| self.expr_value(e));
                self.b.ret(v);
            }
            Stmt::Block(body) => self.stmts(body),
        }
    }

    fn set_index(
        &mut self,
        array: &tast::Expr,
        index: &tast::Expr,
        op: Option<BinOp>,
        value: &tast::Expr,
        span: &Span,
    ) {
        let a = self.expr_value(array);
        let i = self.expr_value(index);
        let elem_ty = array
            .ty()
            .element()
            .expect("checker: indexed array")
            .clone();
        let old = op.map(|_| {
            self.value(
                InstKind::ArrayGet {
                    array: a,
                    index: i,
                    checked: true,
                },
                ir_ty(&elem_ty),
                Some(span),
            )
        });
        let mut v = self.expr_value(value);
        if let (Some(op), Some(old)) = (op, old) {
            v = self.binary(op, &elem_ty, old, v, span);
        }
        let set = InstKind::ArraySet {
            array: a,
            index: i,
            value: v,
            checked: true,
        };
        self.ins(set, None, Some(span));
    }

    /// Fig. 3b, once per arm of an `if`/`else if` chain: the condition's
    /// block is filled, the arm and the rest of the chain are sealed at
    /// once, the shared join is sealed after every arm is filled. A
    /// constant condition builds only the live arm (§3.1, Fig. 4).
    fn if_stmt(&mut self, arms: &[(tast::Expr, Vec<Stmt>)], els: &[Stmt]) {
        let mut join: Option<Block> = None;
        for (i, (cond, body)) in arms.iter().enumerate() {
            let c = self.expr_value(cond);
            if self.b.optimizing() {
                match self.b.const_value(c) {
                    Some(Const::Bool(false)) => continue,
                    Some(Const::Bool(true)) => return self.finish_if(body, join),
                    _ => {}
                }
            }
            let join = *join.get_or_insert_with(|| self.b.create_block());
            let then_block = self.b.create_block();
            // Without an `else`, the last condition's false edge goes
            // straight to the join.
            let last = i + 1 == arms.len() && els.is_empty();
            let next = if last { join } else { self.b.create_block() };
            self.b.branch(c, then_block, next);
            self.b.seal_block(then_block);
            self.arm(then_block, body, join);
            if last {
                self.b.seal_block(join);
                self.b.switch_to_block(join);
                return;
            }
            self.b.seal_block(next);
            self.b.switch_to_block(next);
        }
        self.finish_if(els, join);
    }

    /// Builds the last reachable arm in the current block and continues
    /// after the chain.
    fn finish_if(&mut self, body: &[Stmt], join: Option<Block>) {
        self.stmts(body);
        if let Some(join) = join {
            if !self.b.is_unreachable() {
                self.b.jump(join);
            }
            self.b.seal_block(join);
            self.b.switch_to_block(join);
        }
    }

    fn arm(&mut self, block: Block, body: &[Stmt], join: Block) {
        self.b.switch_to_block(block);
        self.stmts(body);
        if !self.b.is_unreachable() {
            self.b.jump(join);
        }
    }

    /// Fig. 3a: the header stays unsealed until the back edge exists; the
    /// exit stays unsealed until every `break` is built.
    fn while_stmt(&mut self, cond: &tast::Expr, body: &[Stmt]) {
        let header = self.b.create_block();
        self.b.jump(header);
        self.b.switch_to_block(header);
        let c = self.expr_value(cond);
        let body_block = self.b.create_block();
        let exit = self.b.create_block();
        self.b.branch(c, body_block, exit);
        self.b.seal_block(body_block);
        self.loop_body(body_block, body, exit, header, header);
        self.b.seal_block(header);
        self.b.seal_block(exit);
        self.b.switch_to_block(exit);
    }

    fn loop_body(&mut self, block: Block, body: &[Stmt], exit: Block, next: Block, back: Block) {
        self.loops.push((exit, next));
        self.arm(block, body, back);
        self.loops.pop();
    }

    /// `for var in start..end`: a hidden counter variable carries the loop;
    /// `var` is a fresh copy of it in each iteration, so assigning `var`
    /// never changes the next iteration. `continue` goes to the latch.
    fn for_stmt(&mut self, var: Var, start: &tast::Expr, end: &tast::Expr, body: &[Stmt]) {
        let start = self.expr_value(start);
        let end = self.expr_value(end);
        let counter = self.b.declare_var(Ty::Int);
        self.b.write_variable(counter, start);
        let header = self.b.create_block();
        self.b.jump(header);
        self.b.switch_to_block(header);
        let current = self.b.read_variable(counter);
        let in_range = self.value(
            InstKind::Binary(BinaryOp::ICmp(Cmp::Lt), current, end),
            Ty::Bool,
            None,
        );
        let body_block = self.b.create_block();
        let latch = self.b.create_block();
        let exit = self.b.create_block();
        self.b.branch(in_range, body_block, exit);
        self.b.seal_block(body_block);
        self.b.switch_to_block(body_block);
        let i = self.b.read_variable(counter);
        self.b.write_variable(var, i);
        self.loop_body(body_block, body, exit, latch, latch);
        self.b.seal_block(latch);
        self.b.switch_to_block(latch);
        if !self.b.is_unreachable() {
            let i = self.b.read_variable(counter);
            let one = self.b.constant(Const::Int(1));
            let next = self.value(InstKind::Binary(BinaryOp::IAdd, i, one), Ty::Int, None);
            self.b.write_variable(counter, next);
            self.b.jump(header);
        }
        self.b.seal_block(header);
        self.b.seal_block(exit);
        self.b.switch_to_block(exit);
    }

    // ------------------------------------------------------------ expressions

    fn expr_value(&mut self, e: &tast::Expr) -> Value {
        self.expr(e).expect("checker: expression has a value")
    }

    fn expr(&mut self, e: &tast::Expr) -> Option<Value> {
        let span = &e.span;
        Some(match &e.kind {
            ExprKind::Int(n) => self.b.constant(Const::Int(*n)),
            ExprKind::Float(x) => self.b.constant(Const::Float(*x)),
            ExprKind::Bool(v) => self.b.constant(Const::Bool(*v)),
            ExprKind::Str(_) => unreachable!("checker: strings only in print"),
            ExprKind::Read(Place::Local(id)) => self.b.read_variable(self.vars[id.index()]),
            ExprKind::Read(Place::Global(g)) => match self.globals[g.index()] {
                Some(var) => self.b.read_variable(var),
                None => self.value(InstKind::LoadGlobal(g.index() as u32), ir_ty(e.ty()), None),
            },
            ExprKind::Unary(op, inner) => {
                let v = self.expr_value(inner);
                let op = match (op, inner.ty()) {
                    (UnOp::Neg, Type::Int) => UnaryOp::INeg,
                    (UnOp::Neg, _) => UnaryOp::FNeg,
                    (UnOp::Not, _) => UnaryOp::Not,
                };
                self.value(InstKind::Unary(op, v), ir_ty(e.ty()), None)
            }
            ExprKind::Binary(op, l, r) => {
                let lv = self.expr_value(l);
                let rv = self.expr_value(r);
                self.binary(*op, l.ty(), lv, rv, span)
            }
            ExprKind::And(l, r) => self.short_circuit(l, r, true),
            ExprKind::Or(l, r) => self.short_circuit(l, r, false),
            ExprKind::Call(id, args) => {
                let args: Vec<Value> = args.iter().map(|a| self.expr_value(a)).collect();
                let ty = e.ty.as_ref().map(ir_ty);
                return self.ins(InstKind::Call(id.index() as u32, args), ty, Some(span));
            }
            ExprKind::Builtin(builtin, args) => return self.builtin(*builtin, args, e),
            ExprKind::Index(array, index) => {
                let a = self.expr_value(array);
                let i = self.expr_value(index);
                self.value(
                    InstKind::ArrayGet {
                        array: a,
                        index: i,
                        checked: true,
                    },
                    ir_ty(e.ty()),
                    Some(span),
                )
            }
            ExprKind::Array(elems) => {
                let vals: Vec<Value> = elems.iter().map(|x| self.expr_value(x)).collect();
                self.value(InstKind::ArrayLit(vals), Ty::Array, Some(span))
            }
            ExprKind::Repeat(fill, len) => {
                let fill = self.expr_value(fill);
                let len = self.expr_value(len);
                self.value(InstKind::NewArray { len, fill }, Ty::Array, Some(span))
            }
        })
    }

    fn binary(&mut self, op: BinOp, operand_ty: &Type, l: Value, r: Value, span: &Span) -> Value {
        use BinaryOp as B;
        let float = *operand_ty == Type::Float;
        let cmp = |c| match operand_ty {
            Type::Int => B::ICmp(c),
            Type::Float => B::FCmp(c),
            _ => B::BCmp(c),
        };
        let (ir_op, ty) = match op {
            BinOp::Add => (if float { B::FAdd } else { B::IAdd }, ir_ty(operand_ty)),
            BinOp::Sub => (if float { B::FSub } else { B::ISub }, ir_ty(operand_ty)),
            BinOp::Mul => (if float { B::FMul } else { B::IMul }, ir_ty(operand_ty)),
            BinOp::Div => (if float { B::FDiv } else { B::IDiv }, ir_ty(operand_ty)),
            BinOp::Rem => (if float { B::FRem } else { B::IRem }, ir_ty(operand_ty)),
            BinOp::BitAnd => (B::And, Ty::Int),
            BinOp::BitOr => (B::Or, Ty::Int),
            BinOp::BitXor => (B::Xor, Ty::Int),
            BinOp::Shl => (B::Shl, Ty::Int),
            BinOp::Shr => (B::Shr, Ty::Int),
            BinOp::Eq => (cmp(Cmp::Eq), Ty::Bool),
            BinOp::Ne => (cmp(Cmp::Ne), Ty::Bool),
            BinOp::Lt => (cmp(Cmp::Lt), Ty::Bool),
            BinOp::Le => (cmp(Cmp::Le), Ty::Bool),
            BinOp::Gt => (cmp(Cmp::Gt), Ty::Bool),
            BinOp::Ge => (cmp(Cmp::Ge), Ty::Bool),
        };
        let loc = ir_op.can_fail().then_some(span);
        self.value(InstKind::Binary(ir_op, l, r), ty, loc)
    }

    /// `l && r` / `l || r`: a hidden variable holds `l` on the short-cut
    /// edge and `r` on the other; reading it in the join places the phi.
    fn short_circuit(&mut self, l: &tast::Expr, r: &tast::Expr, is_and: bool) -> Value {
        let lv = self.expr_value(l);
        if self.b.optimizing() {
            if let Some(Const::Bool(k)) = self.b.const_value(lv) {
                return if k == is_and { self.expr_value(r) } else { lv };
            }
        }
        let result = self.b.declare_var(Ty::Bool);
        self.b.write_variable(result, lv);
        let rhs = self.b.create_block();
        let join = self.b.create_block();
        if is_and {
            self.b.branch(lv, rhs, join);
        } else {
            self.b.branch(lv, join, rhs);
        }
        self.b.seal_block(rhs);
        self.b.switch_to_block(rhs);
        let rv = self.expr_value(r);
        self.b.write_variable(result, rv);
        self.b.jump(join);
        self.b.seal_block(join);
        self.b.switch_to_block(join);
        self.b.read_variable(result)
    }

    fn builtin(&mut self, builtin: Builtin, args: &[tast::Expr], e: &tast::Expr) -> Option<Value> {
        let ty = e.ty.as_ref().map(ir_ty);
        let arg_float = args.first().is_some_and(|a| a.ty == Some(Type::Float));
        let mut vals = Vec::new();
        if builtin != Builtin::Print {
            vals = args.iter().map(|a| self.expr_value(a)).collect();
        }
        let unary = |op| InstKind::Unary(op, vals[0]);
        let kind = match builtin {
            Builtin::Print => {
                self.print(args);
                return None;
            }
            Builtin::Len => InstKind::ArrayLen(vals[0]),
            Builtin::Sqrt => unary(UnaryOp::Sqrt),
            Builtin::Abs if arg_float => unary(UnaryOp::FAbs),
            Builtin::Abs => unary(UnaryOp::IAbs),
            // Conversions are the identity on their own type.
            Builtin::Int if !arg_float => return Some(vals[0]),
            Builtin::Float if arg_float => return Some(vals[0]),
            Builtin::Int => unary(UnaryOp::FloatToInt),
            Builtin::Float => unary(UnaryOp::IntToFloat),
            Builtin::Min => {
                let op = if arg_float {
                    BinaryOp::FMin
                } else {
                    BinaryOp::IMin
                };
                InstKind::Binary(op, vals[0], vals[1])
            }
            Builtin::Max => {
                let op = if arg_float {
                    BinaryOp::FMax
                } else {
                    BinaryOp::IMax
                };
                InstKind::Binary(op, vals[0], vals[1])
            }
            Builtin::Clock => InstKind::Clock,
        };
        self.ins(kind, ty, None)
    }

    /// `print(a, b, …)`: every argument is evaluated first (left to right),
    /// then the pieces are printed, separated by spaces, and a newline.
    fn print(&mut self, args: &[tast::Expr]) {
        let items: Vec<PrintItem> = args
            .iter()
            .map(|arg| match &arg.kind {
                ExprKind::Str(s) => PrintItem::Str(self.intern(s)),
                _ => {
                    let v = self.expr_value(arg);
                    match arg.ty() {
                        Type::Int => PrintItem::Int(v),
                        Type::Float => PrintItem::Float(v),
                        Type::Bool => PrintItem::Bool(v),
                        Type::Array(elem) => PrintItem::Array(v, print_code(elem)),
                    }
                }
            })
            .collect();
        for (i, item) in items.into_iter().enumerate() {
            if i > 0 {
                self.ins(InstKind::Print(PrintItem::Space), None, None);
            }
            self.ins(InstKind::Print(item), None, None);
        }
        self.ins(InstKind::Print(PrintItem::Newline), None, None);
    }

    fn intern(&mut self, s: &str) -> u32 {
        match self.strings.iter().position(|x| x == s) {
            Some(i) => i as u32,
            None => {
                self.strings.push(s.to_string());
                (self.strings.len() - 1) as u32
            }
        }
    }
}
