//! The abstract syntax tree produced by the parser: names are still
//! strings and nothing is typed yet. Every node keeps its source span
//! (character offsets into the source text).

use crate::types::Type;

pub type Span = std::ops::Range<usize>;

#[derive(Clone, Debug)]
pub struct Program {
    pub items: Vec<Item>,
}

#[derive(Clone, Debug)]
pub enum Item {
    Func(FuncDecl),
    Stmt(Stmt),
    /// A declaration the parser recovered from; its error is already reported.
    Error,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// A type as written in a declaration, with where it is written (the
/// checker points there to explain a type mismatch).
#[derive(Clone, Debug, PartialEq)]
pub struct TypeAnn {
    pub ty: Type,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct FuncDecl {
    pub name: Ident,
    pub params: Vec<(Ident, TypeAnn)>,
    pub ret: Option<TypeAnn>,
    pub body: Block,
}

#[derive(Clone, Debug)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    Let {
        name: Ident,
        ty: Option<TypeAnn>,
        init: Expr,
    },
    /// `target = value` or, with `op`, `target op= value`; the target is a
    /// variable or an index expression (checked later).
    Assign {
        target: Expr,
        op: Option<BinOp>,
        value: Expr,
    },
    Expr(Expr),
    /// `if c1 { … } else if c2 { … } else { … }`: the arms in order, flat,
    /// so that long `else if` chains never nest.
    If {
        arms: Vec<(Expr, Block)>,
        els: Option<Block>,
    },
    While {
        cond: Expr,
        body: Block,
    },
    For {
        var: Ident,
        start: Expr,
        end: Expr,
        body: Block,
    },
    Break,
    Continue,
    Return(Option<Expr>),
    Block(Block),
    /// A statement the parser recovered from; its error is already reported.
    Error,
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    /// An integer literal; range-checked by the checker, which knows
    /// whether it stands directly under unary minus.
    Int(u64),
    Float(f64),
    Bool(bool),
    Str(String),
    Var(String),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Call(Ident, Vec<Expr>),
    Index(Box<Expr>, Box<Expr>),
    /// `[e1, e2, …]`
    Array(Vec<Expr>),
    /// `[value; count]`
    Repeat(Box<Expr>, Box<Expr>),
    /// An expression the parser recovered from; its error is already reported.
    Error,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    Neg,
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
        }
    }

    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        )
    }
}

impl Program {
    /// Number of items, statements and expressions (for `--time`).
    pub fn node_count(&self) -> usize {
        self.items
            .iter()
            .map(|item| match item {
                Item::Func(f) => 1 + block_nodes(&f.body),
                Item::Stmt(s) => stmt_nodes(s),
                Item::Error => 1,
            })
            .sum()
    }
}

fn block_nodes(b: &Block) -> usize {
    b.stmts.iter().map(stmt_nodes).sum()
}

fn stmt_nodes(s: &Stmt) -> usize {
    1 + match &s.kind {
        StmtKind::Let { init, .. } => expr_nodes(init),
        StmtKind::Assign { target, value, .. } => expr_nodes(target) + expr_nodes(value),
        StmtKind::Expr(e) => expr_nodes(e),
        StmtKind::If { arms, els } => {
            arms.iter()
                .map(|(c, b)| expr_nodes(c) + block_nodes(b))
                .sum::<usize>()
                + els.as_ref().map_or(0, block_nodes)
        }
        StmtKind::While { cond, body } => expr_nodes(cond) + block_nodes(body),
        StmtKind::For {
            start, end, body, ..
        } => expr_nodes(start) + expr_nodes(end) + block_nodes(body),
        StmtKind::Return(e) => e.as_ref().map_or(0, expr_nodes),
        StmtKind::Block(b) => block_nodes(b),
        StmtKind::Break | StmtKind::Continue | StmtKind::Error => 0,
    }
}

/// Counts with an explicit stack: expressions can be thousands deep.
fn expr_nodes(e: &Expr) -> usize {
    let mut count = 0;
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        count += 1;
        match &e.kind {
            ExprKind::Unary(_, a) => stack.push(a),
            ExprKind::Binary(_, a, b)
            | ExprKind::And(a, b)
            | ExprKind::Or(a, b)
            | ExprKind::Index(a, b)
            | ExprKind::Repeat(a, b) => {
                stack.push(a);
                stack.push(b);
            }
            ExprKind::Call(_, args) | ExprKind::Array(args) => stack.extend(args.iter()),
            _ => {}
        }
    }
    count
}
