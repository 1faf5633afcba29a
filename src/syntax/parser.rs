//! The chumsky parser: tokens to [`Program`] (LANGUAGE.md §3–§5).

use super::ast::*;
use super::error::{Expected, ParseError};
use super::lexer::{Spanned, Texts, Token};
use super::SyntaxError;
use crate::types::Type;
use chumsky::input::{Input as _, MappedInput};
use chumsky::prelude::*;

/// The parser's input: the lexer's tokens, each with its span.
type Tokens<'a> = MappedInput<'a, Token, Span, &'a [Spanned]>;
type Extra = extra::Err<ParseError>;

/// Parses the tokens; `end` is the offset just past the source.
pub fn parse_tokens(
    tokens: &[Spanned],
    texts: &Texts,
    end: usize,
) -> (Option<Program>, Vec<SyntaxError>) {
    let input = tokens.split_token_span(end..end + 1);
    let (program, mut errors) = program(texts).parse(input).into_output_errors();
    // One error per position: recovery may stop at the token that made a
    // construct fail, and whatever fails on it next would only repeat that.
    let mut seen = rustc_hash::FxHashSet::default();
    errors.retain(|e| seen.insert(e.span.start));
    let errors = errors
        .into_iter()
        .map(|e| SyntaxError::from_token_error(e, texts))
        .collect();
    (program, errors)
}

fn sym<'a>(s: &'static str) -> impl Parser<'a, Tokens<'a>, Token, Extra> + Clone {
    just(Token::Sym(s))
}

fn kw<'a>(s: &'static str) -> impl Parser<'a, Tokens<'a>, Token, Extra> + Clone {
    just(Token::Kw(s))
}

/// Statements between braces. The end of input stands for a missing `}`
/// (and is reported as such): a block left open at the end of the file
/// keeps its statements, and the errors found in them (recovering the
/// whole block would drop those).
fn braced<'a>(
    stmt: impl Parser<'a, Tokens<'a>, Stmt, Extra> + Clone,
) -> impl Parser<'a, Tokens<'a>, Block, Extra> + Clone {
    let closing = sym("}").recover_with(via_parser(end().to(Token::Sym("}"))));
    stmt.repeated()
        .collect::<Vec<_>>()
        .delimited_by(sym("{"), closing)
        .map_with(|stmts, e| Block {
            stmts,
            span: e.span(),
        })
}

fn ident<'a>(t: &'a Texts) -> impl Parser<'a, Tokens<'a>, Ident, Extra> + Clone {
    select! { Token::Ident(id) = e => Ident {
        name: t.name(id).to_string(),
        span: e.span(),
    } }
}

/// A type annotation: a type name and its span.
fn type_ann<'a>(t: &'a Texts) -> impl Parser<'a, Tokens<'a>, TypeAnn, Extra> + Clone {
    type_name(t).map_with(|ty, e| TypeAnn { ty, span: e.span() })
}

fn type_name<'a>(t: &'a Texts) -> impl Parser<'a, Tokens<'a>, Type, Extra> + Clone {
    recursive(move |ty| {
        let base = select! { Token::Ident(id) => id }.try_map(move |id, span| match t.name(id) {
            "int" => Ok(Type::Int),
            "float" => Ok(Type::Float),
            "bool" => Ok(Type::Bool),
            name => Err(ParseError::custom(
                span,
                format!("unknown type `{name}`"),
                "Toy's types are `int`, `float`, `bool` and arrays `[T]`",
            )),
        });
        base.or(ty.delimited_by(sym("["), sym("]")).map(Type::array_of))
    })
}

fn expr_node(kind: ExprKind, span: Span) -> Expr {
    Expr { kind, span }
}

fn error_expr(span: Span) -> Expr {
    expr_node(ExprKind::Error, span)
}

/// Recovery for a bracketed construct: skips to its matching closing
/// bracket, respecting nesting.
fn recover_brackets<'a, O: 'a>(
    open: &'static str,
    close: &'static str,
    fallback: impl Fn(Span) -> O + Clone + 'a,
) -> impl Parser<'a, Tokens<'a>, O, Extra> + Clone {
    let pairs = [("(", ")"), ("[", "]"), ("{", "}")];
    let others = pairs
        .into_iter()
        .filter(|(o, _)| *o != open)
        .map(|(o, c)| (Token::Sym(o), Token::Sym(c)));
    let others: [(Token, Token); 2] = others.collect::<Vec<_>>().try_into().unwrap();
    nested_delimiters(Token::Sym(open), Token::Sym(close), others, fallback)
}

/// Matches one of the symbols of `table` and yields its value, in one
/// attempt (a `choice` of `just`s fails once per entry); a failure
/// expects `expected`.
fn sym_op<'a, T: Copy + 'static>(
    table: &'static [(&'static str, T)],
    expected: Expected,
) -> impl Parser<'a, Tokens<'a>, T, Extra> + Clone {
    any().try_map(move |tok: Token, span| {
        let found = match tok {
            Token::Sym(s) => table.iter().find(|(t, _)| *t == s).map(|(_, v)| *v),
            _ => None,
        };
        found.ok_or_else(|| ParseError::unexpected(span, Some(tok), expected))
    })
}

/// A binary operator: `&&` and `||` build nodes of their own.
#[derive(Clone, Copy, PartialEq)]
enum Infix {
    Bin(BinOp),
    And,
    Or,
}

const INFIX: &[(&str, Infix)] = {
    use BinOp::*;
    use Infix::*;
    &[
        ("*", Bin(Mul)),
        ("/", Bin(Div)),
        ("%", Bin(Rem)),
        ("+", Bin(Add)),
        ("-", Bin(Sub)),
        ("<<", Bin(Shl)),
        (">>", Bin(Shr)),
        ("&", Bin(BitAnd)),
        ("^", Bin(BitXor)),
        ("|", Bin(BitOr)),
        ("==", Bin(Eq)),
        ("!=", Bin(Ne)),
        ("<=", Bin(Le)),
        (">=", Bin(Ge)),
        ("<", Bin(Lt)),
        (">", Bin(Gt)),
        ("&&", And),
        ("||", Or),
    ]
};

/// Binding strength, loosest first (LANGUAGE.md §5); all left-associative
/// except comparisons, which do not chain.
fn precedence(op: Infix) -> u8 {
    use BinOp::*;
    match op {
        Infix::Or => 1,
        Infix::And => 2,
        Infix::Bin(Eq | Ne | Lt | Le | Gt | Ge) => 3,
        Infix::Bin(BitOr) => 4,
        Infix::Bin(BitXor) => 5,
        Infix::Bin(BitAnd) => 6,
        Infix::Bin(Shl | Shr) => 7,
        Infix::Bin(Add | Sub) => 8,
        Infix::Bin(Mul | Div | Rem) => 9,
    }
}

const COMPARISON: u8 = 3;

fn infix_node(op: Infix, l: Expr, r: Expr) -> Expr {
    let span = l.span.start..r.span.end;
    let (l, r) = (Box::new(l), Box::new(r));
    let kind = match op {
        Infix::Bin(op) => ExprKind::Binary(op, l, r),
        Infix::And => ExprKind::And(l, r),
        Infix::Or => ExprKind::Or(l, r),
    };
    expr_node(kind, span)
}

/// Builds the tree of `first (op operand)*` by precedence climbing. The
/// parser reads operators and operands in one flat loop — one failed
/// attempt to find an operator per operand instead of one per precedence
/// level — and this shapes the tree afterwards.
struct Climb<I: Iterator<Item = (Infix, Expr)>> {
    rest: std::iter::Peekable<I>,
    /// Spans of comparison chains such as `a < b < c`.
    chained: Vec<Span>,
}

impl<I: Iterator<Item = (Infix, Expr)>> Climb<I> {
    /// Combines `lhs` with the operators that bind at least as tightly as
    /// `min`.
    fn climb(&mut self, mut lhs: Expr, min: u8) -> Expr {
        // Consecutive comparisons at this level: (count, start of the first).
        let mut chain = (0, 0);
        while let Some(&(op, _)) = self.rest.peek() {
            let level = precedence(op);
            if level < min {
                break;
            }
            let (_, rhs) = self.rest.next().expect("peeked");
            let rhs = self.climb(rhs, level + 1);
            if level == COMPARISON {
                if chain.0 == 0 {
                    chain.1 = lhs.span.start;
                }
                chain.0 += 1;
            } else {
                self.end_chain(&mut chain, &lhs);
            }
            lhs = infix_node(op, lhs, rhs);
        }
        self.end_chain(&mut chain, &lhs);
        lhs
    }

    fn end_chain(&mut self, chain: &mut (usize, usize), last: &Expr) {
        if chain.0 > 1 {
            self.chained.push(chain.1..last.span.end);
        }
        chain.0 = 0;
    }
}

enum ArrayTail {
    Repeat(Expr),
    List(Vec<Expr>),
}

fn expr<'a>(t: &'a Texts) -> impl Parser<'a, Tokens<'a>, Expr, Extra> + Clone {
    recursive(move |expr| {
        let literal = select! {
            Token::Int(n) => ExprKind::Int(n),
            Token::Float(bits) => ExprKind::Float(f64::from_bits(bits)),
            Token::Str(id) => ExprKind::Str(t.string(id).to_string()),
            Token::Kw("true") => ExprKind::Bool(true),
            Token::Kw("false") => ExprKind::Bool(false),
        }
        .map_with(|kind, e| expr_node(kind, e.span()));

        let args = expr
            .clone()
            .separated_by(sym(","))
            .allow_trailing()
            .collect::<Vec<_>>()
            .delimited_by(sym("("), sym(")"))
            .recover_with(via_parser(recover_brackets("(", ")", |_| Vec::new())));
        let name = ident(t)
            .then(args.or_not())
            .map_with(|(id, args), e| match args {
                Some(args) => expr_node(ExprKind::Call(id, args), e.span()),
                None => expr_node(ExprKind::Var(id.name), e.span()),
            });

        let empty_array = sym("[").then(sym("]")).validate(|_, e, emitter| {
            emitter.emit(ParseError::custom(
                e.span(),
                "an array literal needs at least one element (write `[x; 0]` for an empty array)",
                "no elements",
            ));
            error_expr(e.span())
        });
        let array = sym("[")
            .ignore_then(expr.clone())
            .then(choice((
                sym(";").ignore_then(expr.clone()).map(ArrayTail::Repeat),
                sym(",")
                    .ignore_then(expr.clone())
                    .repeated()
                    .collect::<Vec<_>>()
                    .then_ignore(sym(",").or_not())
                    .map(ArrayTail::List),
            )))
            .then_ignore(sym("]"))
            .map_with(|(first, tail), e| match tail {
                ArrayTail::Repeat(count) => {
                    expr_node(ExprKind::Repeat(Box::new(first), Box::new(count)), e.span())
                }
                ArrayTail::List(rest) => {
                    let mut elems = vec![first];
                    elems.extend(rest);
                    expr_node(ExprKind::Array(elems), e.span())
                }
            });

        let paren = expr
            .clone()
            .delimited_by(sym("("), sym(")"))
            .recover_with(via_parser(recover_brackets("(", ")", error_expr)));

        let atom = literal
            .or(name)
            .or(empty_array)
            .or(array)
            .or(paren)
            .labelled("an expression")
            .boxed();

        let index = expr
            .clone()
            .delimited_by(sym("["), sym("]"))
            .map_with(|i, e| (i, e.span()));
        let postfix = atom
            .foldl(index.repeated(), |arr, (idx, span): (Expr, Span)| {
                let span = arr.span.start..span.end;
                expr_node(ExprKind::Index(Box::new(arr), Box::new(idx)), span)
            })
            .boxed();

        // Not listed when missing: an expression was expected.
        let unary = sym_op(&[("-", UnOp::Neg), ("!", UnOp::Not)], Expected::default())
            .map_with(|op, e| (op, e.span()))
            .repeated()
            .foldr(postfix, |(op, span): (UnOp, Span), e| {
                let span = span.start..e.span.end;
                expr_node(ExprKind::Unary(op, Box::new(e)), span)
            })
            .boxed();

        unary
            .clone()
            .then(
                sym_op(INFIX, Expected::OPERATOR)
                    .then(unary)
                    .repeated()
                    .collect::<Vec<_>>(),
            )
            .validate(|(first, rest), _, emitter| {
                let mut climb = Climb {
                    rest: rest.into_iter().peekable(),
                    chained: Vec::new(),
                };
                let tree = climb.climb(first, 0);
                for span in climb.chained {
                    emitter.emit(ParseError::custom(
                        span,
                        "comparison operators cannot be chained (write `a < b && b < c`)",
                        "compares the result of a comparison",
                    ));
                }
                tree
            })
    })
}

fn stmt_node(kind: StmtKind, span: Span) -> Stmt {
    Stmt { kind, span }
}

fn assign_op<'a>() -> impl Parser<'a, Tokens<'a>, Option<BinOp>, Extra> + Clone {
    use BinOp::*;
    sym_op(
        &[
            ("=", None),
            ("+=", Some(Add)),
            ("-=", Some(Sub)),
            ("*=", Some(Mul)),
            ("/=", Some(Div)),
            ("%=", Some(Rem)),
            ("&=", Some(BitAnd)),
            ("|=", Some(BitOr)),
            ("^=", Some(BitXor)),
            ("<<=", Some(Shl)),
            (">>=", Some(Shr)),
        ],
        Expected::OPERATOR,
    )
}

fn stmt<'a>(t: &'a Texts) -> impl Parser<'a, Tokens<'a>, Stmt, Extra> + Clone {
    recursive(move |stmt| {
        let expr = expr(t).boxed();
        let block = braced(stmt)
            .recover_with(via_parser(recover_brackets("{", "}", |span| Block {
                stmts: Vec::new(),
                span,
            })))
            .boxed();

        let let_ = kw("let")
            .ignore_then(ident(t))
            .then(sym(":").ignore_then(type_ann(t)).or_not())
            .then_ignore(sym("="))
            .then(expr.clone())
            .then_ignore(sym(";"))
            .map(|((name, ty), init)| StmtKind::Let { name, ty, init });

        let if_ = kw("if")
            .ignore_then(expr.clone())
            .then(block.clone())
            .then(
                kw("else")
                    .ignore_then(kw("if"))
                    .ignore_then(expr.clone())
                    .then(block.clone())
                    .repeated()
                    .collect::<Vec<_>>(),
            )
            .then(kw("else").ignore_then(block.clone()).or_not())
            .map(|((first, mut rest), els)| {
                rest.insert(0, first);
                StmtKind::If { arms: rest, els }
            });

        let while_ = kw("while")
            .ignore_then(expr.clone())
            .then(block.clone())
            .map(|(cond, body)| StmtKind::While { cond, body });

        let for_ = kw("for")
            .ignore_then(ident(t))
            .then_ignore(kw("in"))
            .then(expr.clone())
            .then_ignore(sym(".."))
            .then(expr.clone())
            .then(block.clone())
            .map(|(((var, start), end), body)| StmtKind::For {
                var,
                start,
                end,
                body,
            });

        let simple = choice((
            kw("break").to(StmtKind::Break),
            kw("continue").to(StmtKind::Continue),
            kw("return")
                .ignore_then(expr.clone().or_not())
                .map(StmtKind::Return),
            expr.clone()
                .then(assign_op().then(expr.clone()).or_not())
                .map(|(lhs, rhs)| match rhs {
                    Some((op, value)) => StmtKind::Assign {
                        target: lhs,
                        op,
                        value,
                    },
                    None => StmtKind::Expr(lhs),
                }),
        ))
        .then_ignore(sym(";"));

        let statement = choice((
            if_.map_with(|kind, e| stmt_node(kind, e.span())),
            let_.or(while_)
                .or(for_)
                .or(block.map(StmtKind::Block))
                .or(simple)
                // A lone `;` is an empty statement, as in C.
                .or(sym(";").to(StmtKind::Block(Block {
                    stmts: Vec::new(),
                    span: 0..0,
                })))
                .map_with(|kind, e| stmt_node(kind, e.span())),
        ));
        // Recovery engages only inside a statement (never at the `}` that
        // closes a block): skip to the next `;` or `}` and carry on, so one
        // run reports several independent syntax errors.
        let skipped = none_of([Token::Sym(";"), Token::Sym("}")])
            .repeated()
            .at_least(1)
            .map_with(|_, e| stmt_node(StmtKind::Error, e.span()));
        none_of([Token::Sym("}")])
            .rewind()
            .ignore_then(statement.recover_with(via_parser(skipped)))
            .boxed()
    })
}

fn func_decl<'a>(t: &'a Texts) -> impl Parser<'a, Tokens<'a>, FuncDecl, Extra> + Clone {
    let param = ident(t).then_ignore(sym(":")).then(type_ann(t));
    let params = param
        .separated_by(sym(","))
        .allow_trailing()
        .collect::<Vec<_>>()
        .delimited_by(sym("("), sym(")"));
    let body = braced(stmt(t));
    kw("fn")
        .ignore_then(ident(t))
        .then(params)
        .then(sym("->").ignore_then(type_ann(t)).or_not())
        .then(body)
        .map(|(((name, params), ret), body)| FuncDecl {
            name,
            params,
            ret,
            body,
        })
}

fn program<'a>(t: &'a Texts) -> impl Parser<'a, Tokens<'a>, Program, Extra> {
    // A broken declaration is skipped up to the next `fn`.
    // (Guarded by the keyword: recovery scans ahead, which must not happen
    // for every top-level statement.)
    let skipped = kw("fn")
        .then(none_of([Token::Kw("fn")]).repeated())
        .to(Item::Error);
    let func = kw("fn").rewind().ignore_then(
        func_decl(t)
            .map(Item::Func)
            .recover_with(via_parser(skipped)),
    );
    func.or(none_of([Token::Kw("fn")])
        .rewind()
        .ignore_then(stmt(t))
        .map(Item::Stmt))
        .repeated()
        .collect::<Vec<_>>()
        .then_ignore(end())
        .map(|items| Program { items })
}
