//! Stage 2: name resolution and type checking, [`ast::Program`] to the
//! checked [`tast::Program`] (LANGUAGE.md §2–§7).
//!
//! Order of work: collect every function signature (functions may be
//! called before their declaration), check the top-level statements in
//! order (which declares the globals), then check each function body with
//! every global of the file visible.
//!
//! The REPL checks each entry against an [`Env`] holding what earlier
//! entries declared ([`check_entry`]): a session is checked like one file
//! that grows by an entry at a time.

pub mod tast;

use crate::entity::EntityRef;
use crate::syntax::ast::{self, BinOp, Span, UnOp};
use crate::types::Type;
use rustc_hash::FxHashMap as HashMap;
use tast::{Builtin, Expr, ExprKind, FuncId, GlobalId, LocalId, Place, Stmt};

/// How deeply expressions may nest; deeper input gets an error instead of
/// exhausting the stack of the recursive stages.
/// The name of the function holding the top-level statements; no Toy
/// identifier can spell it.
pub const TOP_LEVEL: &str = "<top>";

pub const MAX_EXPR_DEPTH: usize = 5_000;

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum CheckErrorKind {
    #[error("unknown variable `{0}`")]
    UnknownVariable(String),
    #[error("unknown function `{0}`")]
    UnknownFunction(String),
    #[error("function `{0}` is already defined")]
    DuplicateFunction(String),
    #[error("`{0}` is a builtin function and cannot be redefined")]
    BuiltinRedefined(String),
    #[error("parameter `{0}` is declared twice")]
    DuplicateParameter(String),
    #[error("expected `{expected}`, found `{found}`")]
    Mismatch { expected: Type, found: Type },
    #[error("`{0}` produces no value")]
    NoValue(String),
    #[error("{0}")]
    BadOperands(String),
    #[error("`{name}` takes {expected} argument{}, but {found} {} given", plural(*.expected), if *.found == 1 { "was" } else { "were" })]
    ArgCount {
        name: String,
        expected: usize,
        found: usize,
    },
    #[error("integer literal is too large for `int`")]
    IntTooLarge,
    #[error("string literals can only be arguments of `print`")]
    StrOutsidePrint,
    #[error("only variables and array elements can be assigned to")]
    BadAssignTarget,
    #[error("`{0}` outside of a loop")]
    OutsideLoop(&'static str),
    #[error("`return` outside of a function")]
    ReturnOutsideFunction,
    #[error("`return;` in a function that returns `{0}`")]
    MissingReturnValue(Type),
    #[error("function `{0}` returns no value, but `return` has one")]
    UnexpectedReturnValue(String),
    #[error("function `{name}` can reach the end of its body without returning a `{ty}`")]
    MissingReturn { name: String, ty: Type },
    #[error("expression nests too deeply (more than {MAX_EXPR_DEPTH} levels)")]
    TooDeep,
    #[error("`{name}` is called by `{caller}`, so a new definition must keep its parameter and return types (or redefine `{caller}` in the same entry)")]
    SignatureChanged { name: String, caller: String },
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{kind}")]
pub struct CheckError {
    pub span: Span,
    pub kind: CheckErrorKind,
}

type Result<T> = std::result::Result<T, CheckError>;

fn err<T>(span: &Span, kind: CheckErrorKind) -> Result<T> {
    Err(CheckError {
        span: span.clone(),
        kind,
    })
}

#[derive(Clone, Debug, PartialEq)]
struct Signature {
    params: Vec<Type>,
    ret: Option<Type>,
}

/// Every name a checked program declared, for the programs checked after
/// it: the REPL's memory of earlier entries. A file starts from an empty
/// `Env`.
#[derive(Clone, Debug, Default)]
pub struct Env {
    func_ids: HashMap<String, FuncId>,
    /// By [`FuncId`].
    signatures: Vec<Signature>,
    /// By [`FuncId`]: the functions the current body calls.
    callees: Vec<Vec<FuncId>>,
    globals: Vec<tast::Global>,
    /// The newest global of each name: what top-level statements see.
    global_names: HashMap<String, GlobalId>,
    /// The first global of each name: what function bodies see (a later
    /// top-level `let` of the name shadows it for top-level code only).
    function_globals: HashMap<String, GlobalId>,
}

impl Env {
    /// The function currently declared under `name`.
    pub fn function(&self, name: &str) -> Option<FuncId> {
        self.func_ids.get(name).copied()
    }

    /// How many function ids exist (every id is below this).
    pub fn function_count(&self) -> usize {
        self.signatures.len()
    }

    /// Every global declared so far, by [`GlobalId`].
    pub fn globals(&self) -> &[tast::Global] {
        &self.globals
    }

    /// The globals code checked against this `Env` can still name: the
    /// first of each name (function bodies) and the newest (top-level
    /// statements). A global shadowed in between is out of reach.
    pub fn reachable_globals(&self) -> Vec<GlobalId> {
        let mut ids: Vec<GlobalId> = (self.function_globals.values())
            .chain(self.global_names.values())
            .copied()
            .collect();
        ids.sort_by_key(|g| g.index());
        ids.dedup();
        ids
    }
}

/// Checks a whole program, reporting every error found (one per
/// statement at most: an error inside a statement abandons that statement).
pub fn check(program: &ast::Program) -> std::result::Result<tast::Program, Vec<CheckError>> {
    check_entry(&Env::default(), program).map(|(checked, _)| checked)
}

/// Checks `program` as the continuation of everything `env` holds: its
/// functions may be called and redefined, its globals read and written.
/// Returns the checked program and `env` extended by its declarations.
pub fn check_entry(
    env: &Env,
    program: &ast::Program,
) -> std::result::Result<(tast::Program, Env), Vec<CheckError>> {
    let mut checker = Checker {
        env: env.clone(),
        ..Checker::default()
    };
    let first_global = env.globals.len();
    let function_ids = checker.declare_functions(program);
    let main = checker.check_main(program);
    let functions: Vec<tast::Function> = program
        .items
        .iter()
        .filter_map(|item| match item {
            ast::Item::Func(f) => Some(f),
            ast::Item::Stmt(_) | ast::Item::Error => None,
        })
        .zip(&function_ids)
        .map(|(f, &id)| checker.check_function(f, id))
        .collect();
    if !checker.errors.is_empty() {
        return Err(checker.errors);
    }
    let checked = tast::Program {
        functions,
        function_ids,
        main,
        globals: checker.env.globals.clone(),
        first_global,
    };
    Ok((checked, checker.env))
}

#[derive(Default)]
struct Checker {
    errors: Vec<CheckError>,
    env: Env,
    /// State of the function being checked.
    fun: FunctionState,
}

#[derive(Default)]
struct FunctionState {
    name: String,
    /// `None` while checking top-level statements.
    ret: Option<Option<Type>>,
    locals: Vec<tast::Local>,
    scopes: Vec<HashMap<String, LocalId>>,
    loop_depth: usize,
    expr_depth: usize,
    /// The user functions this body calls.
    callees: Vec<FuncId>,
    size: tast::SizeHint,
}

impl Checker {
    /// Gives every function declaration of `program` an id, in order: a
    /// new one, or in the REPL the id of the function it replaces (so that
    /// code compiled earlier calls the new body).
    fn declare_functions(&mut self, program: &ast::Program) -> Vec<FuncId> {
        let mut ids = Vec::new();
        let mut declared_here = HashMap::default();
        let mut changed = Vec::new();
        for item in &program.items {
            let ast::Item::Func(f) = item else { continue };
            let name = &f.name.name;
            let sig = Signature {
                params: f.params.iter().map(|(_, ty)| ty.clone()).collect(),
                ret: f.ret.clone(),
            };
            if Builtin::from_name(name).is_some() {
                self.report(&f.name.span, CheckErrorKind::BuiltinRedefined(name.clone()));
            } else if declared_here.contains_key(name) {
                self.report(
                    &f.name.span,
                    CheckErrorKind::DuplicateFunction(name.clone()),
                );
            }
            let earlier = self.env.func_ids.get(name).copied();
            let id = match earlier {
                Some(id) if !declared_here.contains_key(name) => {
                    if self.env.signatures[id.index()] != sig {
                        changed.push((id, f.name.clone()));
                    }
                    self.env.signatures[id.index()] = sig;
                    id
                }
                // Every declaration gets an id, so bodies line up with `functions`.
                _ => {
                    let id = FuncId::new(self.env.signatures.len());
                    self.env.signatures.push(sig);
                    self.env.callees.push(Vec::new());
                    self.env.func_ids.entry(name.clone()).or_insert(id);
                    id
                }
            };
            declared_here.entry(name.clone()).or_insert(id);
            ids.push(id);
        }
        for (id, name) in changed {
            self.check_no_old_callers(id, &name, &ids);
        }
        ids
    }

    /// Code compiled earlier calls a redefined function with the types it
    /// had: a redefinition may change them only if no function outside
    /// this program calls it.
    fn check_no_old_callers(&mut self, id: FuncId, name: &ast::Ident, redefined: &[FuncId]) {
        let caller = self.env.func_ids.iter().find(|(_, &g)| {
            g != id && !redefined.contains(&g) && self.env.callees[g.index()].contains(&id)
        });
        if let Some((caller, _)) = caller {
            let kind = CheckErrorKind::SignatureChanged {
                name: name.name.clone(),
                caller: caller.clone(),
            };
            self.report(&name.span, kind);
        }
    }

    fn report(&mut self, span: &Span, kind: CheckErrorKind) {
        self.errors.push(CheckError {
            span: span.clone(),
            kind,
        });
    }

    fn check_main(&mut self, program: &ast::Program) -> tast::Function {
        self.fun = FunctionState {
            name: TOP_LEVEL.into(),
            scopes: vec![HashMap::default()],
            ..FunctionState::default()
        };
        let mut body = Vec::new();
        for item in &program.items {
            let ast::Item::Stmt(stmt) = item else {
                continue;
            };
            let checked = match &stmt.kind {
                ast::StmtKind::Let { name, ty, init } => self.declare_global(name, ty, init),
                _ => self.stmt(stmt),
            };
            match checked {
                Ok(s) => body.push(s),
                Err(e) => self.errors.push(e),
            }
        }
        let state = std::mem::take(&mut self.fun);
        tast::Function {
            name: TOP_LEVEL.into(),
            span: 0..0,
            params: Vec::new(),
            locals: state.locals,
            ret: None,
            body,
            size: state.size,
        }
    }

    fn declare_global(
        &mut self,
        name: &ast::Ident,
        ty: &Option<Type>,
        init: &ast::Expr,
    ) -> Result<Stmt> {
        let init = self.value_expr(init)?;
        let ty = self.declared_type(ty, &init)?;
        // The store; lowering also gives an array global an empty array
        // up front.
        self.fun.size.insts += if matches!(ty, Type::Array(_)) { 3 } else { 1 };
        let id = GlobalId::new(self.env.globals.len());
        self.env.globals.push(tast::Global {
            name: name.name.clone(),
            ty,
        });
        self.env.global_names.insert(name.name.clone(), id);
        self.env
            .function_globals
            .entry(name.name.clone())
            .or_insert(id);
        Ok(Stmt::Assign(Place::Global(id), init))
    }

    fn declared_type(&self, declared: &Option<Type>, init: &Expr) -> Result<Type> {
        let found = init.ty().clone();
        match declared {
            Some(expected) if *expected != found => err(
                &init.span,
                CheckErrorKind::Mismatch {
                    expected: expected.clone(),
                    found,
                },
            ),
            _ => Ok(found),
        }
    }

    fn check_function(&mut self, f: &ast::FuncDecl, id: FuncId) -> tast::Function {
        self.fun = FunctionState {
            name: f.name.name.clone(),
            ret: Some(f.ret.clone()),
            scopes: vec![HashMap::default()],
            ..FunctionState::default()
        };
        let mut params = Vec::new();
        for (name, ty) in &f.params {
            if self.fun.scopes[0].contains_key(&name.name) {
                self.report(
                    &name.span,
                    CheckErrorKind::DuplicateParameter(name.name.clone()),
                );
            }
            params.push(self.declare_local(&name.name, ty.clone()));
        }
        let body = self.stmts(&f.body.stmts);
        if let Some(ty) = &f.ret {
            if !stmts_diverge(&body) {
                let end = f.body.span.end.saturating_sub(1);
                self.report(
                    &(end..f.body.span.end),
                    CheckErrorKind::MissingReturn {
                        name: f.name.name.clone(),
                        ty: ty.clone(),
                    },
                );
            }
        }
        let mut state = std::mem::take(&mut self.fun);
        state.callees.sort_unstable();
        state.callees.dedup();
        self.env.callees[id.index()] = state.callees;
        tast::Function {
            name: f.name.name.clone(),
            span: f.name.span.clone(),
            params,
            locals: state.locals,
            ret: f.ret.clone(),
            body,
            size: state.size,
        }
    }

    fn declare_local(&mut self, name: &str, ty: Type) -> LocalId {
        let id = LocalId::new(self.fun.locals.len());
        self.fun.locals.push(tast::Local {
            name: name.to_string(),
            ty,
        });
        self.fun
            .scopes
            .last_mut()
            .expect("a scope is open")
            .insert(name.to_string(), id);
        id
    }

    fn lookup(&self, name: &str, span: &Span) -> Result<(Place, Type)> {
        for scope in self.fun.scopes.iter().rev() {
            if let Some(&id) = scope.get(name) {
                return Ok((Place::Local(id), self.fun.locals[id.index()].ty.clone()));
            }
        }
        let globals = match self.fun.ret {
            Some(_) => &self.env.function_globals,
            None => &self.env.global_names,
        };
        match globals.get(name) {
            Some(&id) => Ok((Place::Global(id), self.env.globals[id.index()].ty.clone())),
            None => err(span, CheckErrorKind::UnknownVariable(name.to_string())),
        }
    }

    /// Checks statements, reporting errors and dropping the statements
    /// they occur in.
    fn stmts(&mut self, stmts: &[ast::Stmt]) -> Vec<Stmt> {
        let mut out = Vec::with_capacity(stmts.len());
        for stmt in stmts {
            match self.stmt(stmt) {
                Ok(s) => out.push(s),
                Err(e) => self.errors.push(e),
            }
        }
        out
    }

    fn scoped_block(&mut self, block: &ast::Block) -> Vec<Stmt> {
        self.fun.scopes.push(HashMap::default());
        let out = self.stmts(&block.stmts);
        self.fun.scopes.pop();
        out
    }

    fn stmt(&mut self, stmt: &ast::Stmt) -> Result<Stmt> {
        use ast::StmtKind as S;
        // (instructions, blocks) lowering adds beyond the expressions':
        // a `for` adds its test and the step's constant and addition, a
        // compound assignment reads its target and operates.
        let (insts, blocks) = match &stmt.kind {
            S::If { arms, .. } => (1, 2 * arms.len() + 1),
            S::While { .. } => (1, 3),
            S::For { .. } => (4, 4),
            S::Assign { op: Some(_), .. } => (3, 0),
            _ => (1, 0),
        };
        self.fun.size.insts += insts;
        self.fun.size.blocks += blocks;
        Ok(match &stmt.kind {
            S::Let { name, ty, init } => {
                // The initializer is checked before the new name exists.
                let init = self.value_expr(init)?;
                let ty = self.declared_type(ty, &init)?;
                let id = self.declare_local(&name.name, ty);
                Stmt::Assign(Place::Local(id), init)
            }
            S::Assign { target, op, value } => self.assign(target, *op, value, &stmt.span)?,
            S::Expr(e) => {
                // A call may produce no value here, but a string may not
                // stand on its own (found by fuzzing: `("x");`).
                let checked = self.expr(e)?;
                if let ExprKind::Str(_) = checked.kind {
                    return err(&e.span, CheckErrorKind::StrOutsidePrint);
                }
                Stmt::Expr(checked)
            }
            S::If { arms, els } => {
                let mut checked = Vec::with_capacity(arms.len());
                for (cond, body) in arms {
                    let cond = self.condition(cond)?;
                    checked.push((cond, self.scoped_block(body)));
                }
                let els = els
                    .as_ref()
                    .map(|b| self.scoped_block(b))
                    .unwrap_or_default();
                Stmt::If(checked, els)
            }
            S::While { cond, body } => {
                let cond = self.condition(cond)?;
                let body = self.loop_body(body);
                Stmt::While(cond, body)
            }
            S::For {
                var,
                start,
                end,
                body,
            } => {
                let start = self.typed_expr(start, &Type::Int)?;
                let end = self.typed_expr(end, &Type::Int)?;
                self.fun.scopes.push(HashMap::default());
                let var = self.declare_local(&var.name, Type::Int);
                let body = self.loop_body(body);
                self.fun.scopes.pop();
                Stmt::For {
                    var,
                    start,
                    end,
                    body,
                }
            }
            S::Break | S::Continue if self.fun.loop_depth == 0 => {
                let word = if matches!(stmt.kind, S::Break) {
                    "break"
                } else {
                    "continue"
                };
                return err(&stmt.span, CheckErrorKind::OutsideLoop(word));
            }
            S::Break => Stmt::Break,
            S::Continue => Stmt::Continue,
            S::Return(value) => self.return_stmt(value.as_ref(), &stmt.span)?,
            S::Block(block) => Stmt::Block(self.scoped_block(block)),
            S::Error => Stmt::Block(Vec::new()),
        })
    }

    fn loop_body(&mut self, body: &ast::Block) -> Vec<Stmt> {
        self.fun.loop_depth += 1;
        let body = self.scoped_block(body);
        self.fun.loop_depth -= 1;
        body
    }

    fn return_stmt(&mut self, value: Option<&ast::Expr>, span: &Span) -> Result<Stmt> {
        let Some(ret) = self.fun.ret.clone() else {
            return err(span, CheckErrorKind::ReturnOutsideFunction);
        };
        match (ret, value) {
            (None, None) => Ok(Stmt::Return(None)),
            (None, Some(v)) => err(
                &v.span,
                CheckErrorKind::UnexpectedReturnValue(self.fun.name.clone()),
            ),
            (Some(ty), None) => err(span, CheckErrorKind::MissingReturnValue(ty)),
            (Some(ty), Some(v)) => Ok(Stmt::Return(Some(self.typed_expr(v, &ty)?))),
        }
    }

    fn assign(
        &mut self,
        target: &ast::Expr,
        op: Option<BinOp>,
        value: &ast::Expr,
        span: &Span,
    ) -> Result<Stmt> {
        match &target.kind {
            ast::ExprKind::Var(name) => {
                let (place, ty) = self.lookup(name, &target.span)?;
                let value = self.typed_expr(value, &ty)?;
                let value = match op {
                    None => value,
                    Some(op) => {
                        let current = Expr {
                            kind: ExprKind::Read(place),
                            ty: Some(ty),
                            span: target.span.clone(),
                        };
                        self.binary_of(op, current, value, span.clone())?
                    }
                };
                Ok(Stmt::Assign(place, value))
            }
            ast::ExprKind::Index(array, index) => {
                let array = self.value_expr(array)?;
                let elem = element_type(&array)?;
                let index = self.typed_expr(index, &Type::Int)?;
                let value = self.typed_expr(value, &elem)?;
                if let Some(op) = op {
                    let elem_expr = Expr {
                        kind: ExprKind::Int(0),
                        ty: Some(elem.clone()),
                        span: target.span.clone(),
                    };
                    binary_type(op, &elem_expr, &value, span)?;
                }
                Ok(Stmt::SetIndex {
                    array,
                    index,
                    op,
                    value,
                    span: target.span.clone(),
                })
            }
            _ => err(&target.span, CheckErrorKind::BadAssignTarget),
        }
    }

    fn condition(&mut self, cond: &ast::Expr) -> Result<Expr> {
        self.typed_expr(cond, &Type::Bool)
    }

    fn typed_expr(&mut self, e: &ast::Expr, expected: &Type) -> Result<Expr> {
        let checked = self.value_expr(e)?;
        if checked.ty() != expected {
            return err(
                &e.span,
                CheckErrorKind::Mismatch {
                    expected: expected.clone(),
                    found: checked.ty().clone(),
                },
            );
        }
        Ok(checked)
    }

    /// An expression that must produce a value.
    fn value_expr(&mut self, e: &ast::Expr) -> Result<Expr> {
        let checked = self.expr(e)?;
        if let ExprKind::Str(_) = checked.kind {
            return err(&e.span, CheckErrorKind::StrOutsidePrint);
        }
        if checked.ty.is_none() {
            let what = match &e.kind {
                ast::ExprKind::Call(name, _) => format!("{}(…)", name.name),
                _ => "this expression".into(),
            };
            return err(&e.span, CheckErrorKind::NoValue(what));
        }
        Ok(checked)
    }

    fn expr(&mut self, e: &ast::Expr) -> Result<Expr> {
        if self.fun.expr_depth >= MAX_EXPR_DEPTH {
            return err(&e.span, CheckErrorKind::TooDeep);
        }
        self.fun.expr_depth += 1;
        match e.kind {
            // A local's read is an SSA value, not an instruction (a
            // global's is counted once it is resolved).
            ast::ExprKind::Var(_) => {}
            ast::ExprKind::And(..) | ast::ExprKind::Or(..) => {
                self.fun.size.insts += 1;
                self.fun.size.blocks += 2;
            }
            _ => self.fun.size.insts += 1,
        }
        let result = self.expr_inner(e);
        self.fun.expr_depth -= 1;
        result
    }

    fn expr_inner(&mut self, e: &ast::Expr) -> Result<Expr> {
        use ast::ExprKind as K;
        let span = e.span.clone();
        let typed = |kind, ty| {
            Ok(Expr {
                kind,
                ty: Some(ty),
                span: e.span.clone(),
            })
        };
        match &e.kind {
            K::Int(n) => match i64::try_from(*n) {
                Ok(n) => typed(ExprKind::Int(n), Type::Int),
                Err(_) => err(&span, CheckErrorKind::IntTooLarge),
            },
            K::Float(x) => typed(ExprKind::Float(*x), Type::Float),
            K::Bool(b) => typed(ExprKind::Bool(*b), Type::Bool),
            K::Str(s) => Ok(Expr {
                kind: ExprKind::Str(s.clone()),
                ty: None,
                span,
            }),
            K::Var(name) => {
                let (place, ty) = self.lookup(name, &span)?;
                if let Place::Global(_) = place {
                    self.fun.size.insts += 1;
                }
                typed(ExprKind::Read(place), ty)
            }
            // `-9223372036854775808`: the literal 2^63 directly under minus.
            K::Unary(UnOp::Neg, inner) if matches!(inner.kind, K::Int(n) if n == 1 << 63) => {
                typed(ExprKind::Int(i64::MIN), Type::Int)
            }
            K::Unary(op, inner) => {
                let inner = self.value_expr(inner)?;
                let ty = inner.ty().clone();
                let ok = match op {
                    UnOp::Neg => ty.is_numeric(),
                    UnOp::Not => ty == Type::Bool,
                };
                if !ok {
                    let sym = if *op == UnOp::Neg { "-" } else { "!" };
                    return err(
                        &span,
                        CheckErrorKind::BadOperands(format!(
                            "unary `{sym}` cannot be applied to `{ty}`"
                        )),
                    );
                }
                typed(ExprKind::Unary(*op, Box::new(inner)), ty)
            }
            K::Binary(op, l, r) => {
                let l = self.value_expr(l)?;
                let r = self.value_expr(r)?;
                self.binary_of(*op, l, r, span)
            }
            K::And(l, r) | K::Or(l, r) => {
                let l = self.condition(l)?;
                let r = self.condition(r)?;
                let kind = if matches!(e.kind, K::And(..)) {
                    ExprKind::And(Box::new(l), Box::new(r))
                } else {
                    ExprKind::Or(Box::new(l), Box::new(r))
                };
                typed(kind, Type::Bool)
            }
            K::Call(name, args) => self.call(name, args, span),
            K::Index(array, index) => {
                let array = self.value_expr(array)?;
                let elem = element_type(&array)?;
                let index = self.typed_expr(index, &Type::Int)?;
                typed(ExprKind::Index(Box::new(array), Box::new(index)), elem)
            }
            K::Array(elems) => {
                let first = self.value_expr(&elems[0])?;
                let ty = first.ty().clone();
                let mut checked = vec![first];
                for elem in &elems[1..] {
                    checked.push(self.typed_expr(elem, &ty)?);
                }
                typed(ExprKind::Array(checked), Type::array_of(ty))
            }
            K::Repeat(value, count) => {
                let value = self.value_expr(value)?;
                let count = self.typed_expr(count, &Type::Int)?;
                let ty = Type::array_of(value.ty().clone());
                typed(ExprKind::Repeat(Box::new(value), Box::new(count)), ty)
            }
            K::Error => unreachable!("the parser reports errors before checking"),
        }
    }

    fn binary_of(&mut self, op: BinOp, l: Expr, r: Expr, span: Span) -> Result<Expr> {
        let ty = binary_type(op, &l, &r, &span)?;
        Ok(Expr {
            kind: ExprKind::Binary(op, Box::new(l), Box::new(r)),
            ty: Some(ty),
            span,
        })
    }

    fn call(&mut self, name: &ast::Ident, args: &[ast::Expr], span: Span) -> Result<Expr> {
        if let Some(&id) = self.env.func_ids.get(&name.name) {
            self.fun.callees.push(id);
            let sig = &self.env.signatures[id.index()];
            let (params, ret) = (sig.params.clone(), sig.ret.clone());
            check_arg_count(name, params.len(), args.len())?;
            let mut checked = Vec::with_capacity(args.len());
            for (arg, ty) in args.iter().zip(&params) {
                checked.push(self.typed_expr(arg, ty)?);
            }
            return Ok(Expr {
                kind: ExprKind::Call(id, checked),
                ty: ret,
                span,
            });
        }
        let Some(builtin) = Builtin::from_name(&name.name) else {
            return err(
                &name.span,
                CheckErrorKind::UnknownFunction(name.name.clone()),
            );
        };
        self.builtin_call(builtin, name, args, span)
    }

    fn builtin_call(
        &mut self,
        builtin: Builtin,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Result<Expr> {
        let arity = match builtin {
            Builtin::Print => None,
            Builtin::Clock => Some(0),
            Builtin::Min | Builtin::Max => Some(2),
            _ => Some(1),
        };
        if let Some(n) = arity {
            check_arg_count(name, n, args.len())?;
        }
        if builtin == Builtin::Print {
            // A value, then a space or the newline, per argument.
            self.fun.size.insts += 2 * args.len();
        }
        let mut checked = Vec::with_capacity(args.len());
        for arg in args {
            // `print` takes string literals and values of any type.
            let a = match (builtin, &arg.kind) {
                (Builtin::Print, ast::ExprKind::Str(_)) => self.expr(arg)?,
                _ => self.value_expr(arg)?,
            };
            checked.push(a);
        }
        let arg_ty = |i: usize| checked[i].ty().clone();
        let bad = |what: &str| {
            err(
                &span,
                CheckErrorKind::BadOperands(format!("`{}` {what}", name.name)),
            )
        };
        let ty = match builtin {
            Builtin::Print => None,
            Builtin::Clock => Some(Type::Float),
            Builtin::Len => match arg_ty(0) {
                Type::Array(_) => Some(Type::Int),
                _ => return bad("takes an array"),
            },
            Builtin::Sqrt => match arg_ty(0) {
                Type::Float => Some(Type::Float),
                _ => return bad("takes a `float`"),
            },
            Builtin::Abs => match arg_ty(0) {
                t @ (Type::Int | Type::Float) => Some(t),
                _ => return bad("takes an `int` or a `float`"),
            },
            Builtin::Int | Builtin::Float => match arg_ty(0) {
                Type::Int | Type::Float if builtin == Builtin::Int => Some(Type::Int),
                Type::Int | Type::Float => Some(Type::Float),
                _ => return bad("takes an `int` or a `float`"),
            },
            Builtin::Min | Builtin::Max => match (arg_ty(0), arg_ty(1)) {
                (a, b) if a == b && a.is_numeric() => Some(a),
                _ => return bad("takes two `int`s or two `float`s"),
            },
        };
        Ok(Expr {
            kind: ExprKind::Builtin(builtin, checked),
            ty,
            span,
        })
    }
}

/// The element type of an indexed expression, which must be an array.
fn element_type(array: &Expr) -> Result<Type> {
    match array.ty().element() {
        Some(elem) => Ok(elem.clone()),
        None => err(
            &array.span,
            CheckErrorKind::BadOperands(format!("cannot index a value of type `{}`", array.ty())),
        ),
    }
}

fn check_arg_count(name: &ast::Ident, expected: usize, found: usize) -> Result<()> {
    if expected == found {
        return Ok(());
    }
    err(
        &name.span,
        CheckErrorKind::ArgCount {
            name: name.name.clone(),
            expected,
            found,
        },
    )
}

/// The result type of `l op r` (LANGUAGE.md §5).
fn binary_type(op: BinOp, l: &Expr, r: &Expr, span: &Span) -> Result<Type> {
    let (lt, rt) = (l.ty(), r.ty());
    let bad = |msg: String| err(span, CheckErrorKind::BadOperands(msg));
    if lt != rt {
        return bad(format!(
            "`{}` needs operands of the same type, found `{lt}` and `{rt}`",
            op.symbol()
        ));
    }
    use BinOp::*;
    match op {
        Add | Sub | Mul | Div | Rem if lt.is_numeric() => Ok(lt.clone()),
        BitAnd | BitOr | BitXor | Shl | Shr if *lt == Type::Int => Ok(Type::Int),
        Eq | Ne if !matches!(lt, Type::Array(_)) => Ok(Type::Bool),
        Lt | Le | Gt | Ge if lt.is_numeric() => Ok(Type::Bool),
        Eq | Ne | Lt | Le | Gt | Ge if matches!(lt, Type::Array(_)) => {
            bad("arrays cannot be compared".to_string())
        }
        _ => bad(format!("`{}` cannot be applied to `{lt}`", op.symbol())),
    }
}

/// Whether control can never run past the end of `stmts` (LANGUAGE.md §4:
/// `while true` without a `break` never ends).
pub fn stmts_diverge(stmts: &[Stmt]) -> bool {
    stmts.iter().any(stmt_diverges)
}

fn stmt_diverges(stmt: &Stmt) -> bool {
    match stmt {
        Stmt::Return(_) => true,
        Stmt::If(arms, els) => {
            arms.iter().all(|(_, body)| stmts_diverge(body)) && stmts_diverge(els)
        }
        Stmt::While(cond, body) => matches!(cond.kind, ExprKind::Bool(true)) && !breaks_out(body),
        Stmt::Block(body) => stmts_diverge(body),
        _ => false,
    }
}

/// Whether `stmts` contain a `break` of the loop they are the body of.
fn breaks_out(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match s {
        Stmt::Break => true,
        Stmt::If(arms, els) => arms.iter().any(|(_, body)| breaks_out(body)) || breaks_out(els),
        Stmt::Block(body) => breaks_out(body),
        _ => false,
    })
}
