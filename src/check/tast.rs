//! The checked AST: every name resolved to an id, every expression typed.
//! This is what SSA construction reads; it never sees a string name again.

use crate::syntax::ast::{BinOp, Span, UnOp};
use crate::types::Type;

crate::entity!(
    /// A local variable (a parameter, a `let` inside a function or block,
    /// or a `for` variable); each declaration gets its own id.
    LocalId,
    "local"
);
crate::entity!(
    /// A global variable: a top-level `let`, living in memory.
    GlobalId,
    "global"
);
crate::entity!(
    /// A user function.
    FuncId,
    "fn"
);

#[derive(Clone, Debug)]
pub struct Program {
    pub functions: Vec<Function>,
    /// The id of each of `functions` (in a file, its position; in the
    /// REPL, a redefinition keeps the id of the function it replaces).
    pub function_ids: Vec<FuncId>,
    /// The top-level statements, run in order.
    pub main: Function,
    /// Every global in scope, by [`GlobalId`]: in the REPL, those of
    /// earlier entries too.
    pub globals: Vec<Global>,
    /// The first global this program declares (0 for a file).
    pub first_global: usize,
}

#[derive(Clone, Debug)]
pub struct Global {
    pub name: String,
    pub ty: Type,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    pub span: Span,
    pub params: Vec<LocalId>,
    pub locals: Vec<Local>,
    pub ret: Option<Type>,
    pub body: Vec<Stmt>,
    pub size: SizeHint,
}

/// An upper estimate of the size of a function's SSA form, counted while
/// checking it, so that construction sizes its arenas once: growing them
/// by doubling copied about 36 MB for Ullrich's 100 000 `if`s, a quarter
/// of the construction time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SizeHint {
    /// One per statement and per expression other than a variable.
    pub insts: usize,
    /// The blocks each `if` arm, loop and `&&`/`||` opens.
    pub blocks: usize,
}

#[derive(Clone, Debug)]
pub struct Local {
    pub name: String,
    pub ty: Type,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Local(LocalId),
    Global(GlobalId),
}

#[derive(Clone, Debug)]
pub enum Stmt {
    /// A declaration or assignment; compound assignments are desugared
    /// into `place = place op value`.
    Assign(Place, Expr),
    /// `array[index] = value`, or with `op`, `array[index] op= value`:
    /// `array` and `index` are evaluated once, before `value`.
    SetIndex {
        array: Expr,
        index: Expr,
        op: Option<BinOp>,
        value: Expr,
        span: Span,
    },
    Expr(Expr),
    /// The arms `(condition, body)` in order, then the `else` body.
    If(Vec<(Expr, Vec<Stmt>)>, Vec<Stmt>),
    While(Expr, Vec<Stmt>),
    For {
        var: LocalId,
        start: Expr,
        end: Expr,
        body: Vec<Stmt>,
    },
    Break,
    Continue,
    Return(Option<Expr>),
    Block(Vec<Stmt>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    Print,
    Len,
    Sqrt,
    Abs,
    Min,
    Max,
    Int,
    Float,
    Clock,
}

impl Builtin {
    pub fn from_name(name: &str) -> Option<Builtin> {
        Some(match name {
            "print" => Builtin::Print,
            "len" => Builtin::Len,
            "sqrt" => Builtin::Sqrt,
            "abs" => Builtin::Abs,
            "min" => Builtin::Min,
            "max" => Builtin::Max,
            "int" => Builtin::Int,
            "float" => Builtin::Float,
            "clock" => Builtin::Clock,
            _ => return None,
        })
    }
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    /// `None` for calls that produce no value (functions without a return
    /// type, `print`); those only stand as expression statements.
    pub ty: Option<Type>,
    pub span: Span,
}

impl Expr {
    /// The type of an expression the checker has proven to have a value.
    pub fn ty(&self) -> &Type {
        self.ty.as_ref().expect("checked expression has a value")
    }
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Int(i64),
    Float(f64),
    Bool(bool),
    /// Only as an argument of `print`.
    Str(String),
    Read(Place),
    Unary(UnOp, Box<Expr>),
    /// Operands have the same type; comparisons yield bool.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Call(FuncId, Vec<Expr>),
    Builtin(Builtin, Vec<Expr>),
    Index(Box<Expr>, Box<Expr>),
    Array(Vec<Expr>),
    Repeat(Box<Expr>, Box<Expr>),
}
