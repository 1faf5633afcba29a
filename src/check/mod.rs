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
//!
//! Errors are said once, where they are, and only when true. An error is
//! reported where it is found, and the expression it is about gets the
//! error type: checking returns [`Reported`] instead of its tree, and every
//! check that depends on its type is skipped. Above it, an expression
//! whose type does not depend on the part with the error (a call's
//! result, an element read with a bad index, `&&`) keeps its type and is
//! checked on, with a [`stand_in`] for the part; one whose type does
//! (`x + bad`) gets the error type too. A `let` whose initializer has an
//! error still declares its variable, with its annotation's type or the
//! error type ([`Origin::Error`]), so that its uses are neither unknown
//! nor mismatched. Where a name has two declarations (two parameters, two
//! functions, a function named like a builtin), which one a use means is
//! unknown, and uses are not checked against either. Statements with an
//! error keep their control flow (a `return` of a bad value still
//! returns), so that a missing `return` is never invented. Independent
//! parts — both operands, every argument, every arm — are all checked,
//! and the errors come out in source order.

pub mod tast;

use crate::entity::EntityRef;
use crate::syntax::ast::{self, BinOp, Span, UnOp};
use crate::types::Type;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use tast::{Builtin, Expr, ExprKind, FuncId, GlobalId, LocalId, Place, Stmt};

/// The name of the function holding the top-level statements; no Toy
/// identifier can spell it.
pub const TOP_LEVEL: &str = "<top>";

/// How a runtime error's call stack names a function: top-level code is
/// `the top level`.
pub fn frame_name(function: &str) -> &str {
    if function == TOP_LEVEL {
        "the top level"
    } else {
        function
    }
}

/// How deeply expressions may nest; deeper input gets an error instead of
/// exhausting the stack of the recursive stages.
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
    #[error(
        "function `{name}` can reach the end of its body without returning {}",
        with_article(ty)
    )]
    MissingReturn { name: String, ty: Type },
    #[error("expression nests too deeply (more than {MAX_EXPR_DEPTH} levels)")]
    TooDeep,
    #[error("`{name}` is called by `{caller}`, so a new definition must keep its parameter and return types (or redefine `{caller}` in the same entry)")]
    SignatureChanged { name: String, caller: String },
}

/// "1 argument", "2 arguments".
fn arguments(n: usize) -> String {
    format!("{n} argument{}", plural(n))
}

/// "1 parameter", "2 parameters".
fn parameters(n: usize) -> String {
    format!("{n} parameter{}", plural(n))
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// A type as a message says it, with its article: "an `int`", "a `float`",
/// "a `[int]`".
fn with_article(ty: &Type) -> String {
    let article = if *ty == Type::Int { "an" } else { "a" };
    format!("{article} `{ty}`")
}

/// An error in the program: where, what, and what the excerpt under the
/// message says where.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{kind}")]
pub struct CheckError {
    pub span: Span,
    pub kind: CheckErrorKind,
    /// Places and what to say there: first about the error itself (`this
    /// is `[int]``, within `span`), then what explains it (`expected
    /// `float` because of this annotation`). Always in the checked source,
    /// never in an earlier REPL entry.
    pub labels: Vec<(Span, String)>,
}

/// The error type: an error has been reported about this expression (or
/// the part of a statement it stands for), and nothing that depends on its
/// type is checked.
#[derive(Clone, Copy, Debug)]
struct Reported;

/// What checking an expression gives: its checked tree, or the error type.
type Checked<T> = std::result::Result<T, Reported>;

/// Stands in for a part with an error (already reported) of an expression
/// or statement whose type and control flow do not depend on it, so that
/// checking goes on. A tree with errors is never lowered ([`check_entry`]
/// returns the errors instead); as the condition of a `while`, a stand-in
/// reads as `true`, a loop that may not end, so that no missing `return`
/// is reported after it.
fn stand_in(span: &Span, ty: Option<Type>) -> Expr {
    Expr {
        kind: ExprKind::Bool(true),
        ty,
        span: span.clone(),
    }
}

/// Why an expression must have the type it is checked against: where the
/// note of a mismatch points.
enum Why {
    /// A rule of the language that the message says all of: conditions
    /// are `bool`, indices and bounds `int`.
    Rule,
    /// A type annotation (of a `let` or a parameter).
    Annotation(Span),
    /// The return type of the function.
    ReturnType(Span),
    /// Parameter `.1` of function `.0`.
    Parameter(FuncId, usize),
    /// The type of the variable assigned to.
    Variable(Place),
    /// The first element of an array literal.
    FirstElement(Span),
    /// The array an element is assigned into.
    Array(Span),
}

/// Where a variable's type comes from, for the note of a mismatch in an
/// assignment to it.
#[derive(Clone, Debug)]
enum Origin {
    /// A type annotation.
    Annotation(Span),
    /// The initializer of a `let` without an annotation.
    Initializer(Span),
    /// The variable of a `for` loop, an `int`.
    ForVariable(Span),
    /// A global of an earlier REPL entry: in another source.
    Elsewhere,
    /// The variable has the error type, and its uses report nothing: its
    /// initializer has an error and there is no annotation, or it is the
    /// second parameter of its name.
    Error,
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

/// Checks a whole program, reporting every error found, in source order.
pub fn check(program: &ast::Program) -> std::result::Result<tast::Program, Vec<CheckError>> {
    check_entry(&Env::default(), program).map(|(checked, _)| checked)
}

/// Checks `program` as the continuation of everything `env` holds: its
/// functions may be called and redefined, its globals read and written.
/// Returns the checked program and `env` extended by its declarations,
/// or every error, in source order.
pub fn check_entry(
    env: &Env,
    program: &ast::Program,
) -> std::result::Result<(tast::Program, Env), Vec<CheckError>> {
    let first_global = env.globals.len();
    let mut checker = Checker {
        env: env.clone(),
        first_global,
        ..Checker::default()
    };
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
        let mut errors = checker.errors;
        // Function bodies are checked after the top-level statements.
        errors.sort_by_key(|e| e.span.start);
        return Err(errors);
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
struct Checker<'a> {
    errors: Vec<CheckError>,
    env: Env,
    /// State of the function being checked.
    fun: FunctionState,
    /// The declaration of each function this program declares, for notes
    /// (a function of an earlier REPL entry is in another source).
    decls: HashMap<FuncId, &'a ast::FuncDecl>,
    /// The first global this program declares.
    first_global: usize,
    /// By [`GlobalId`] from `first_global`: where each global's type
    /// comes from.
    global_origins: Vec<Origin>,
    /// Names of functions declared twice, or declared and builtin: which
    /// one a call means is unknown, so calls of them are not checked
    /// (their arguments' own errors are).
    ambiguous: HashSet<String>,
}

#[derive(Default)]
struct FunctionState {
    name: String,
    /// `None` while checking top-level statements.
    ret: Option<Option<Type>>,
    /// Where the return type is written.
    ret_span: Option<Span>,
    /// Where the function's name is written (`None` at the top level).
    name_span: Option<Span>,
    locals: Vec<tast::Local>,
    /// By [`LocalId`]: where each local's type comes from.
    origins: Vec<Origin>,
    scopes: Vec<HashMap<String, LocalId>>,
    loop_depth: usize,
    expr_depth: usize,
    /// The user functions this body calls.
    callees: Vec<FuncId>,
    size: tast::SizeHint,
}

impl<'a> Checker<'a> {
    /// Gives every function declaration of `program` an id, in order: a
    /// new one, or in the REPL the id of the function it replaces (so that
    /// code compiled earlier calls the new body).
    fn declare_functions(&mut self, program: &'a ast::Program) -> Vec<FuncId> {
        let mut ids = Vec::new();
        // The first declaration of each name in this program.
        let mut declared_here: HashMap<&str, &Span> = HashMap::default();
        let mut changed = Vec::new();
        for item in &program.items {
            let ast::Item::Func(f) = item else { continue };
            let name = &f.name.name;
            let sig = Signature {
                params: f.params.iter().map(|(_, ann)| ann.ty.clone()).collect(),
                ret: f.ret.as_ref().map(|ann| ann.ty.clone()),
            };
            let first = declared_here.get(name.as_str()).copied();
            // A function named like a builtin is an error, and calls of
            // the name still reach the builtin.
            let builtin = Builtin::from_name(name).is_some();
            if builtin || first.is_some() {
                self.ambiguous.insert(name.clone());
            }
            if builtin {
                let kind = CheckErrorKind::BuiltinRedefined(name.clone());
                let label = (f.name.span.clone(), "the name of a builtin".to_string());
                self.report(&f.name.span, kind, vec![label]);
            } else if let Some(first) = first {
                let kind = CheckErrorKind::DuplicateFunction(name.clone());
                let labels = vec![
                    (f.name.span.clone(), "defined again here".to_string()),
                    (first.clone(), "first defined here".to_string()),
                ];
                self.report(&f.name.span, kind, labels);
            }
            let earlier = self.env.func_ids.get(name).copied();
            let id = match earlier.filter(|_| !builtin) {
                Some(id) if first.is_none() => {
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
                    if !builtin {
                        self.env.func_ids.entry(name.clone()).or_insert(id);
                    }
                    id
                }
            };
            declared_here.entry(name).or_insert(&f.name.span);
            self.decls.insert(id, f);
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
            let label = (name.span.clone(), "redefined with other types".to_string());
            self.report(&name.span, kind, vec![label]);
        }
    }

    /// Reports an error at `span` with the labels of its excerpt; what it
    /// is about gets the error type.
    fn report(
        &mut self,
        span: &Span,
        kind: CheckErrorKind,
        labels: Vec<(Span, String)>,
    ) -> Reported {
        self.errors.push(CheckError {
            span: span.clone(),
            kind,
            labels,
        });
        Reported
    }

    /// Reports an error with one label, at its place.
    fn report_at(&mut self, span: &Span, kind: CheckErrorKind, label: &str) -> Reported {
        self.report(span, kind, vec![(span.clone(), label.to_string())])
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
                ast::StmtKind::Let { name, ty, init } => {
                    self.declare_global(name, ty.as_ref(), init)
                }
                _ => self.stmt(stmt),
            };
            // A statement with an error is left out (it is reported).
            if let Ok(s) = checked {
                body.push(s);
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
        ann: Option<&ast::TypeAnn>,
        init: &ast::Expr,
    ) -> Checked<Stmt> {
        let (init, ty, origin) = self.let_init(ann, init);
        // The store; lowering also gives an array global an empty array
        // up front.
        self.fun.size.insts += if matches!(ty, Type::Array(_)) { 3 } else { 1 };
        let id = GlobalId::new(self.env.globals.len());
        self.env.globals.push(tast::Global {
            name: name.name.clone(),
            ty,
        });
        self.global_origins.push(origin);
        self.env.global_names.insert(name.name.clone(), id);
        self.env
            .function_globals
            .entry(name.name.clone())
            .or_insert(id);
        Ok(Stmt::Assign(Place::Global(id), init?))
    }

    /// Checks the initializer of a `let`; returns it, the type the
    /// variable gets (the annotation's, else the initializer's) and where
    /// that comes from. When the initializer has an error and there is no
    /// annotation, the variable gets the error type ([`Origin::Error`];
    /// its `Type` is then never read).
    fn let_init(
        &mut self,
        ann: Option<&ast::TypeAnn>,
        init: &ast::Expr,
    ) -> (Checked<Expr>, Type, Origin) {
        match ann {
            Some(ann) => {
                let init = self.typed_expr(init, &ann.ty, Why::Annotation(ann.span.clone()));
                (init, ann.ty.clone(), Origin::Annotation(ann.span.clone()))
            }
            None => match self.value_expr(init) {
                Ok(init) => {
                    let (ty, span) = (init.ty().clone(), init.span.clone());
                    (Ok(init), ty, Origin::Initializer(span))
                }
                Err(r) => (Err(r), Type::Int, Origin::Error),
            },
        }
    }

    fn check_function(&mut self, f: &ast::FuncDecl, id: FuncId) -> tast::Function {
        self.fun = FunctionState {
            name: f.name.name.clone(),
            ret: Some(f.ret.as_ref().map(|ann| ann.ty.clone())),
            ret_span: f.ret.as_ref().map(|ann| ann.span.clone()),
            name_span: Some(f.name.span.clone()),
            scopes: vec![HashMap::default()],
            ..FunctionState::default()
        };
        let mut params = Vec::new();
        for (i, (name, ann)) in f.params.iter().enumerate() {
            if self.fun.scopes[0].contains_key(&name.name) {
                let mut labels = vec![(name.span.clone(), "declared again here".to_string())];
                labels.extend(
                    f.params[..i]
                        .iter()
                        .find(|(p, _)| p.name == name.name)
                        .map(|(p, _)| (p.span.clone(), "first declared here".to_string())),
                );
                let kind = CheckErrorKind::DuplicateParameter(name.name.clone());
                self.report(&name.span, kind, labels);
            }
            // Which of two parameters of a name a use means is unknown:
            // the second has the error type, and uses report nothing.
            let origin = if self.fun.scopes[0].contains_key(&name.name) {
                Origin::Error
            } else {
                Origin::Annotation(ann.span.clone())
            };
            params.push(self.declare_local(&name.name, ann.ty.clone(), origin));
        }
        let body = self.stmts(&f.body.stmts);
        if let Some(ret) = &f.ret {
            if !stmts_diverge(&body) {
                let end = f.body.span.end.saturating_sub(1);
                let kind = CheckErrorKind::MissingReturn {
                    name: f.name.name.clone(),
                    ty: ret.ty.clone(),
                };
                let labels = vec![
                    (
                        end..f.body.span.end,
                        "the body can end here without `return`".to_string(),
                    ),
                    (
                        ret.span.clone(),
                        format!(
                            "`{}` is declared to return {}",
                            f.name.name,
                            with_article(&ret.ty)
                        ),
                    ),
                ];
                self.report(&(end..f.body.span.end), kind, labels);
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
            ret: f.ret.as_ref().map(|ann| ann.ty.clone()),
            body,
            size: state.size,
        }
    }

    fn declare_local(&mut self, name: &str, ty: Type, origin: Origin) -> LocalId {
        let id = LocalId::new(self.fun.locals.len());
        self.fun.locals.push(tast::Local {
            name: name.to_string(),
            ty,
        });
        self.fun.origins.push(origin);
        self.fun
            .scopes
            .last_mut()
            .expect("a scope is open")
            .insert(name.to_string(), id);
        id
    }

    /// Where the type of the variable at `place` comes from.
    fn origin(&self, place: Place) -> &Origin {
        match place {
            Place::Local(id) => &self.fun.origins[id.index()],
            Place::Global(id) => id
                .index()
                .checked_sub(self.first_global)
                .and_then(|i| self.global_origins.get(i))
                .unwrap_or(&Origin::Elsewhere),
        }
    }

    fn lookup(&mut self, name: &str, span: &Span) -> Checked<(Place, Type)> {
        let local = self.fun.scopes.iter().rev().find_map(|s| s.get(name));
        let place = match local {
            Some(&id) => Some(Place::Local(id)),
            None => {
                let globals = match self.fun.ret {
                    Some(_) => &self.env.function_globals,
                    None => &self.env.global_names,
                };
                globals.get(name).map(|&id| Place::Global(id))
            }
        };
        let Some(place) = place else {
            let kind = CheckErrorKind::UnknownVariable(name.to_string());
            return Err(self.report_at(span, kind, "no variable of this name is in scope here"));
        };
        if let Origin::Error = self.origin(place) {
            // Its declaration's error is reported.
            return Err(Reported);
        }
        let ty = match place {
            Place::Local(id) => self.fun.locals[id.index()].ty.clone(),
            Place::Global(id) => self.env.globals[id.index()].ty.clone(),
        };
        Ok((place, ty))
    }

    /// Checks statements, reporting errors and leaving out the statements
    /// they occur in (those that change control flow are kept).
    fn stmts(&mut self, stmts: &[ast::Stmt]) -> Vec<Stmt> {
        let mut out = Vec::with_capacity(stmts.len());
        for stmt in stmts {
            if let Ok(s) = self.stmt(stmt) {
                out.push(s);
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

    /// Checks a statement. `if`, `while` and `return` are kept even with
    /// an error in them (with stand-ins), for the missing-`return` check;
    /// other statements with an error are `Err`.
    fn stmt(&mut self, stmt: &ast::Stmt) -> Checked<Stmt> {
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
                let (init, ty, origin) = self.let_init(ty.as_ref(), init);
                let id = self.declare_local(&name.name, ty, origin);
                Stmt::Assign(Place::Local(id), init?)
            }
            S::Assign { target, op, value } => self.assign(target, *op, value, &stmt.span)?,
            S::Expr(e) => {
                // A call may produce no value here, but a string may not
                // stand on its own (found by fuzzing: `("x");`).
                let checked = self.expr(e)?;
                if let ExprKind::Str(_) = checked.kind {
                    return Err(self.str_outside_print(&e.span));
                }
                Stmt::Expr(checked)
            }
            S::If { arms, els } => {
                let mut checked = Vec::with_capacity(arms.len());
                for (cond, body) in arms {
                    let cond = self
                        .condition(cond)
                        .unwrap_or_else(|_| stand_in(&cond.span, Some(Type::Bool)));
                    checked.push((cond, self.scoped_block(body)));
                }
                let els = els
                    .as_ref()
                    .map(|b| self.scoped_block(b))
                    .unwrap_or_default();
                Stmt::If(checked, els)
            }
            S::While { cond, body } => {
                let cond = self
                    .condition(cond)
                    .unwrap_or_else(|_| stand_in(&cond.span, Some(Type::Bool)));
                let body = self.loop_body(body);
                Stmt::While(cond, body)
            }
            S::For {
                var,
                start,
                end,
                body,
            } => {
                let start = self.typed_expr(start, &Type::Int, Why::Rule);
                let end = self.typed_expr(end, &Type::Int, Why::Rule);
                self.fun.scopes.push(HashMap::default());
                let origin = Origin::ForVariable(var.span.clone());
                let var = self.declare_local(&var.name, Type::Int, origin);
                let body = self.loop_body(body);
                self.fun.scopes.pop();
                // A `for` never ends its function: it can be left out.
                Stmt::For {
                    var,
                    start: start?,
                    end: end?,
                    body,
                }
            }
            S::Break | S::Continue if self.fun.loop_depth == 0 => {
                let word = if matches!(stmt.kind, S::Break) {
                    "break"
                } else {
                    "continue"
                };
                let kind = CheckErrorKind::OutsideLoop(word);
                return Err(self.report_at(&stmt.span, kind, "not inside a `while` or `for`"));
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

    /// A `return` inside a function is kept, whatever its errors: it still
    /// ends the function.
    fn return_stmt(&mut self, value: Option<&ast::Expr>, span: &Span) -> Checked<Stmt> {
        let Some(ret) = self.fun.ret.clone() else {
            let kind = CheckErrorKind::ReturnOutsideFunction;
            return Err(self.report_at(span, kind, "at the top level"));
        };
        match (ret, value) {
            (None, None) => {}
            (None, Some(v)) => {
                let name = self.fun.name.clone();
                let mut labels = vec![(v.span.clone(), format!("`{name}` cannot return this"))];
                labels.extend(
                    self.fun
                        .name_span
                        .clone()
                        .map(|span| (span, "declared without a return type".to_string())),
                );
                let kind = CheckErrorKind::UnexpectedReturnValue(name);
                self.report(&v.span, kind, labels);
                // The value's own errors.
                let _ = self.expr(v);
            }
            (Some(ty), None) => {
                let mut labels = vec![(span.clone(), "returns no value".to_string())];
                labels.extend(self.why_note(self.ret_why(), &ty));
                let kind = CheckErrorKind::MissingReturnValue(ty);
                self.report(span, kind, labels);
            }
            (Some(ty), Some(v)) => {
                let value = self.typed_expr(v, &ty, self.ret_why());
                return Ok(Stmt::Return(value.ok()));
            }
        }
        Ok(Stmt::Return(None))
    }

    fn ret_why(&self) -> Why {
        match &self.fun.ret_span {
            Some(span) => Why::ReturnType(span.clone()),
            None => Why::Rule,
        }
    }

    fn assign(
        &mut self,
        target: &ast::Expr,
        op: Option<BinOp>,
        value: &ast::Expr,
        span: &Span,
    ) -> Checked<Stmt> {
        match &target.kind {
            ast::ExprKind::Var(name) => {
                let Ok((place, ty)) = self.lookup(name, &target.span) else {
                    // The value's own errors.
                    let _ = self.value_expr(value);
                    return Err(Reported);
                };
                let value = self.typed_expr(value, &ty, Why::Variable(place))?;
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
                let array = self.value_expr(array);
                let elem = match &array {
                    Ok(array) => self.element_type(array),
                    Err(r) => Err(*r),
                };
                let index = self.typed_expr(index, &Type::Int, Why::Rule);
                let value = match (&elem, &array) {
                    (Ok(elem), Ok(array)) => {
                        self.typed_expr(value, elem, Why::Array(array.span.clone()))
                    }
                    _ => self.value_expr(value),
                };
                let (array, elem, index, value) = (array?, elem?, index?, value?);
                if let Some(op) = op {
                    let elem_expr = Expr {
                        kind: ExprKind::Int(0),
                        ty: Some(elem),
                        span: target.span.clone(),
                    };
                    self.binary_type(op, &elem_expr, &value, span)?;
                }
                Ok(Stmt::SetIndex {
                    array,
                    index,
                    op,
                    value,
                    span: target.span.clone(),
                })
            }
            _ => {
                let kind = CheckErrorKind::BadAssignTarget;
                let label = "neither a variable nor an array element";
                let r = self.report_at(&target.span, kind, label);
                // The own errors of both sides.
                let _ = self.expr(target);
                let _ = self.value_expr(value);
                Err(r)
            }
        }
    }

    fn condition(&mut self, cond: &ast::Expr) -> Checked<Expr> {
        self.typed_expr(cond, &Type::Bool, Why::Rule)
    }

    /// An expression that must have type `expected`, for the reason `why`.
    fn typed_expr(&mut self, e: &ast::Expr, expected: &Type, why: Why) -> Checked<Expr> {
        let checked = self.value_expr(e)?;
        if checked.ty() != expected {
            let kind = CheckErrorKind::Mismatch {
                expected: expected.clone(),
                found: checked.ty().clone(),
            };
            let mut labels = vec![(e.span.clone(), format!("this is `{}`", checked.ty()))];
            labels.extend(self.why_note(why, expected));
            return Err(self.report(&e.span, kind, labels));
        }
        Ok(checked)
    }

    /// The note explaining why `expected` was expected, if the source has
    /// a place to point at.
    fn why_note(&self, why: Why, expected: &Type) -> Option<(Span, String)> {
        let because =
            |span: Span, of: &str| Some((span, format!("expected `{expected}` because of {of}")));
        match why {
            Why::Rule => None,
            Why::Annotation(span) => because(span, "this annotation"),
            Why::ReturnType(span) => because(span, "this return type"),
            Why::FirstElement(span) => because(span, "the first element"),
            Why::Array(span) => Some((
                span,
                format!("this is `{}`", Type::array_of(expected.clone())),
            )),
            Why::Parameter(f, i) => {
                let (name, ann) = &self.decls.get(&f)?.params[i];
                because(name.span.start..ann.span.end, "this parameter")
            }
            Why::Variable(place) => {
                let name = match place {
                    Place::Local(id) => &self.fun.locals[id.index()].name,
                    Place::Global(id) => &self.env.globals[id.index()].name,
                };
                match self.origin(place) {
                    Origin::Annotation(span) => because(span.clone(), "this annotation"),
                    Origin::Initializer(span) => Some((
                        span.clone(),
                        format!("expected `{expected}` because `{name}` is initialized with this"),
                    )),
                    Origin::ForVariable(span) => Some((
                        span.clone(),
                        format!("expected `{expected}` because `{name}` is a `for` variable"),
                    )),
                    Origin::Elsewhere | Origin::Error => None,
                }
            }
        }
    }

    /// An expression that must produce a value.
    fn value_expr(&mut self, e: &ast::Expr) -> Checked<Expr> {
        let checked = self.expr(e)?;
        if let ExprKind::Str(_) = checked.kind {
            return Err(self.str_outside_print(&e.span));
        }
        if checked.ty.is_none() {
            let what = match &e.kind {
                ast::ExprKind::Call(name, _) => format!("{}(…)", name.name),
                _ => "this expression".into(),
            };
            let decl = match checked.kind {
                ExprKind::Call(id, _) => self.decls.get(&id),
                _ => None,
            };
            let mut labels = vec![(e.span.clone(), "this call has no value".to_string())];
            labels.extend(decl.map(|d| {
                (
                    d.name.span.clone(),
                    "declared without a return type".to_string(),
                )
            }));
            return Err(self.report(&e.span, CheckErrorKind::NoValue(what), labels));
        }
        Ok(checked)
    }

    fn expr(&mut self, e: &ast::Expr) -> Checked<Expr> {
        if self.fun.expr_depth >= MAX_EXPR_DEPTH {
            let label = format!("{MAX_EXPR_DEPTH} levels deep");
            return Err(self.report_at(&e.span, CheckErrorKind::TooDeep, &label));
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

    fn expr_inner(&mut self, e: &ast::Expr) -> Checked<Expr> {
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
                Err(_) => {
                    let label = format!("the largest `int` is {}", i64::MAX);
                    Err(self.report_at(&span, CheckErrorKind::IntTooLarge, &label))
                }
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
                    let kind = CheckErrorKind::BadOperands(format!(
                        "unary `{sym}` cannot be applied to `{ty}`"
                    ));
                    let labels = vec![(inner.span.clone(), format!("this is `{ty}`"))];
                    return Err(self.report(&span, kind, labels));
                }
                typed(ExprKind::Unary(*op, Box::new(inner)), ty)
            }
            K::Binary(op, l, r) => {
                let l = self.value_expr(l);
                let r = self.value_expr(r);
                self.binary_of(*op, l?, r?, span)
            }
            K::And(l, r) | K::Or(l, r) => {
                // `bool` whatever the operands' errors.
                let l = self
                    .condition(l)
                    .unwrap_or_else(|_| stand_in(&l.span, Some(Type::Bool)));
                let r = self
                    .condition(r)
                    .unwrap_or_else(|_| stand_in(&r.span, Some(Type::Bool)));
                let kind = if matches!(e.kind, K::And(..)) {
                    ExprKind::And(Box::new(l), Box::new(r))
                } else {
                    ExprKind::Or(Box::new(l), Box::new(r))
                };
                typed(kind, Type::Bool)
            }
            K::Call(name, args) => self.call(name, args, span),
            K::Index(array, index) => {
                let array = self.value_expr(array);
                let index_span = &index.span;
                let index = self
                    .typed_expr(index, &Type::Int, Why::Rule)
                    .unwrap_or_else(|_| stand_in(index_span, Some(Type::Int)));
                let array = array?;
                let elem = self.element_type(&array)?;
                typed(ExprKind::Index(Box::new(array), Box::new(index)), elem)
            }
            K::Array(elems) => {
                let first = self.value_expr(&elems[0]);
                let Ok(first) = first else {
                    // The other elements' own errors.
                    for elem in &elems[1..] {
                        let _ = self.value_expr(elem);
                    }
                    return Err(Reported);
                };
                let ty = first.ty().clone();
                let first_span = first.span.clone();
                let mut checked = vec![first];
                for elem in &elems[1..] {
                    let why = Why::FirstElement(first_span.clone());
                    let elem = self
                        .typed_expr(elem, &ty, why)
                        .unwrap_or_else(|_| stand_in(&elem.span, Some(ty.clone())));
                    checked.push(elem);
                }
                typed(ExprKind::Array(checked), Type::array_of(ty))
            }
            K::Repeat(value, count) => {
                let value = self.value_expr(value);
                let count_span = &count.span;
                let count = self
                    .typed_expr(count, &Type::Int, Why::Rule)
                    .unwrap_or_else(|_| stand_in(count_span, Some(Type::Int)));
                let value = value?;
                let ty = Type::array_of(value.ty().clone());
                typed(ExprKind::Repeat(Box::new(value), Box::new(count)), ty)
            }
            K::Error => unreachable!("the parser reports errors before checking"),
        }
    }

    fn binary_of(&mut self, op: BinOp, l: Expr, r: Expr, span: Span) -> Checked<Expr> {
        let ty = self.binary_type(op, &l, &r, &span)?;
        Ok(Expr {
            kind: ExprKind::Binary(op, Box::new(l), Box::new(r)),
            ty: Some(ty),
            span,
        })
    }

    /// The result type of `l op r` (LANGUAGE.md §5).
    fn binary_type(&mut self, op: BinOp, l: &Expr, r: &Expr, span: &Span) -> Checked<Type> {
        let (lt, rt) = (l.ty(), r.ty());
        use BinOp::*;
        let message = if lt != rt {
            format!(
                "`{}` needs operands of the same type, found `{lt}` and `{rt}`",
                op.symbol()
            )
        } else {
            match op {
                Add | Sub | Mul | Div | Rem if lt.is_numeric() => return Ok(lt.clone()),
                BitAnd | BitOr | BitXor | Shl | Shr if *lt == Type::Int => return Ok(Type::Int),
                Eq | Ne if !matches!(lt, Type::Array(_)) => return Ok(Type::Bool),
                Lt | Le | Gt | Ge if lt.is_numeric() => return Ok(Type::Bool),
                Eq | Ne | Lt | Le | Gt | Ge if matches!(lt, Type::Array(_)) => {
                    "arrays cannot be compared".to_string()
                }
                _ => format!("`{}` cannot be applied to `{lt}`", op.symbol()),
            }
        };
        let labels = vec![
            (l.span.clone(), format!("this is `{lt}`")),
            (r.span.clone(), format!("this is `{rt}`")),
        ];
        Err(self.report(span, CheckErrorKind::BadOperands(message), labels))
    }

    /// The element type of an indexed expression, which must be an array.
    fn element_type(&mut self, array: &Expr) -> Checked<Type> {
        match array.ty().element() {
            Some(elem) => Ok(elem.clone()),
            None => {
                let ty = array.ty();
                let kind =
                    CheckErrorKind::BadOperands(format!("cannot index a value of type `{ty}`"));
                let label = format!("this is `{ty}`, not an array");
                Err(self.report_at(&array.span, kind, &label))
            }
        }
    }

    /// Reports a call `span` of `name` with `args` where `expected`
    /// arguments are wanted, pointing at `decl` if it is in this program.
    fn arg_count(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: &Span,
        expected: usize,
        decl: Option<FuncId>,
    ) -> Reported {
        let found = args.len();
        let label = match (args.get(expected), args.last()) {
            (Some(extra), Some(last)) => (
                extra.span.start..last.span.end,
                format!("{} too many", arguments(found - expected)),
            ),
            _ => (
                span.clone(),
                format!("{} missing", arguments(expected - found)),
            ),
        };
        let mut labels = vec![label];
        labels.extend(decl.and_then(|id| self.decls.get(&id)).map(|d| {
            let span = d.name.span.start
                ..d.params
                    .last()
                    .map_or(d.name.span.end, |(_, ann)| ann.span.end);
            (
                span,
                format!("`{}` is declared with {}", name.name, parameters(expected)),
            )
        }));
        let kind = CheckErrorKind::ArgCount {
            name: name.name.clone(),
            expected,
            found,
        };
        self.report(&name.span, kind, labels)
    }

    fn str_outside_print(&mut self, span: &Span) -> Reported {
        let kind = CheckErrorKind::StrOutsidePrint;
        self.report_at(span, kind, "not an argument of `print`")
    }

    fn call(&mut self, name: &ast::Ident, args: &[ast::Expr], span: Span) -> Checked<Expr> {
        if !self.ambiguous.is_empty() && self.ambiguous.contains(&name.name) {
            // Its declarations' error is reported; the arguments' own
            // errors are news.
            for arg in args {
                let _ = self.expr(arg);
            }
            return Err(Reported);
        }
        if let Some(&id) = self.env.func_ids.get(&name.name) {
            self.fun.callees.push(id);
            let sig = &self.env.signatures[id.index()];
            let (params, ret) = (sig.params.clone(), sig.ret.clone());
            if params.len() != args.len() {
                let r = self.arg_count(name, args, &span, params.len(), Some(id));
                for arg in args {
                    let _ = self.value_expr(arg);
                }
                return Err(r);
            }
            // The call's type is its function's, whatever the arguments'
            // errors.
            let mut checked = Vec::with_capacity(args.len());
            for (i, (arg, ty)) in args.iter().zip(&params).enumerate() {
                let arg = self
                    .typed_expr(arg, ty, Why::Parameter(id, i))
                    .unwrap_or_else(|_| stand_in(&arg.span, Some(ty.clone())));
                checked.push(arg);
            }
            return Ok(Expr {
                kind: ExprKind::Call(id, checked),
                ty: ret,
                span,
            });
        }
        let Some(builtin) = Builtin::from_name(&name.name) else {
            let kind = CheckErrorKind::UnknownFunction(name.name.clone());
            let r = self.report_at(&name.span, kind, "no function of this name is declared");
            // The arguments' own errors.
            for arg in args {
                let _ = self.expr(arg);
            }
            return Err(r);
        };
        self.builtin_call(builtin, name, args, span)
    }

    fn builtin_call(
        &mut self,
        builtin: Builtin,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Checked<Expr> {
        let arity = match builtin {
            Builtin::Print => None,
            Builtin::Clock => Some(0),
            Builtin::Min | Builtin::Max => Some(2),
            _ => Some(1),
        };
        if let Some(n) = arity.filter(|&n| n != args.len()) {
            let r = self.arg_count(name, args, &span, n, None);
            for arg in args {
                let _ = self.value_expr(arg);
            }
            return Err(r);
        }
        if builtin == Builtin::Print {
            // A value, then a space or the newline, per argument.
            self.fun.size.insts += 2 * args.len();
        }
        let mut checked = Vec::with_capacity(args.len());
        let mut errors = false;
        for arg in args {
            // `print` takes string literals and values of any type.
            let a = match (builtin, &arg.kind) {
                (Builtin::Print, ast::ExprKind::Str(_)) => self.expr(arg),
                _ => self.value_expr(arg),
            };
            match a {
                Ok(a) => checked.push(a),
                Err(_) => errors = true,
            }
        }
        if errors {
            // `print` has no value whatever its arguments; the other
            // builtins' types depend on their arguments' or are not
            // checked without them.
            return match builtin {
                Builtin::Print => Ok(stand_in(&span, None)),
                _ => Err(Reported),
            };
        }
        let arg_ty = |i: usize| checked[i].ty().clone();
        let ty = match builtin {
            Builtin::Print => None,
            Builtin::Clock => Some(Type::Float),
            Builtin::Len => match arg_ty(0) {
                Type::Array(_) => Some(Type::Int),
                _ => return Err(self.bad_builtin_args(name, &checked, &span, "takes an array")),
            },
            Builtin::Sqrt => match arg_ty(0) {
                Type::Float => Some(Type::Float),
                _ => return Err(self.bad_builtin_args(name, &checked, &span, "takes a `float`")),
            },
            Builtin::Abs => match arg_ty(0) {
                t @ (Type::Int | Type::Float) => Some(t),
                _ => {
                    let what = "takes an `int` or a `float`";
                    return Err(self.bad_builtin_args(name, &checked, &span, what));
                }
            },
            Builtin::Int | Builtin::Float => match arg_ty(0) {
                Type::Int | Type::Float if builtin == Builtin::Int => Some(Type::Int),
                Type::Int | Type::Float => Some(Type::Float),
                _ => {
                    let what = "takes an `int` or a `float`";
                    return Err(self.bad_builtin_args(name, &checked, &span, what));
                }
            },
            Builtin::Min | Builtin::Max => match (arg_ty(0), arg_ty(1)) {
                (a, b) if a == b && a.is_numeric() => Some(a),
                _ => {
                    let what = "takes two `int`s or two `float`s";
                    return Err(self.bad_builtin_args(name, &checked, &span, what));
                }
            },
        };
        Ok(Expr {
            kind: ExprKind::Builtin(builtin, checked),
            ty,
            span,
        })
    }

    /// Reports a builtin called with arguments of types it does not take,
    /// saying each argument's type.
    fn bad_builtin_args(
        &mut self,
        name: &ast::Ident,
        args: &[Expr],
        span: &Span,
        what: &str,
    ) -> Reported {
        let kind = CheckErrorKind::BadOperands(format!("`{}` {what}", name.name));
        let labels = args
            .iter()
            .map(|a| (a.span.clone(), format!("this is `{}`", a.ty())))
            .collect();
        self.report(span, kind, labels)
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
