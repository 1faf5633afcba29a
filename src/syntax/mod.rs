//! Stage 1: source text to [`ast::Program`]: a hand-written lexer, then a
//! chumsky parser.
//!
//! Lexing and parsing both recover from errors, so one run reports several
//! independent syntax errors. While parsing, [`Nesting`] bounds the
//! bracket depth: chumsky parsers recurse on the native stack, and a bound
//! turns pathological input (100 000 nested parentheses) into a clear error.

pub mod ast;
pub mod error;
pub mod lexer;
pub mod parser;

use ast::Span;
use error::ParseError;
use lexer::Token;

/// How deeply brackets `( [ {` may nest.
pub const MAX_NESTING: usize = 256;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct SyntaxError {
    pub span: Span,
    pub message: String,
}

impl SyntaxError {
    pub fn new(span: Span, message: impl Into<String>) -> Self {
        SyntaxError {
            span,
            message: message.into(),
        }
    }

    pub fn from_token_error(err: ParseError, texts: &lexer::Texts) -> Self {
        let message = if let Some(custom) = err.custom {
            *custom
        } else {
            let found = match err.found {
                Some(t) => format!("unexpected token `{}`", shortened(&texts.show(t))),
                None => "unexpected end of input".to_string(),
            };
            let mut expected = err.expected.descriptions();
            if let Some(label) = err.label {
                format!("{found}, expected {label}")
            } else if expected.is_empty() || expected.len() > error::MAX_LISTED {
                found
            } else {
                let last = expected.pop().expect("not empty");
                if expected.is_empty() {
                    format!("{found}, expected {last}")
                } else {
                    format!("{found}, expected {} or {last}", expected.join(", "))
                }
            }
        };
        SyntaxError::new(err.span, message)
    }
}

/// The most characters of a token a message shows (a string literal left
/// open may run on for the rest of the file).
const MAX_SHOWN: usize = 40;

fn shortened(token: &str) -> String {
    let shown: String = token.chars().take(MAX_SHOWN).collect();
    let shown = shown.escape_debug().to_string();
    match token.chars().nth(MAX_SHOWN) {
        Some(_) => format!("{shown}…"),
        None => shown,
    }
}

/// Whether `src` leaves brackets `( [ {` open (brackets in strings and
/// comments do not count): a REPL entry is complete when they balance.
pub fn brackets_open(src: &str) -> bool {
    let mut depth: i64 = 0;
    for (token, _) in &lexer::lex(src) {
        match token {
            Token::Sym("(" | "[" | "{") => depth += 1,
            Token::Sym(")" | "]" | "}") => depth -= 1,
            _ => {}
        }
    }
    depth > 0
}

/// Parses a whole program. Returns the AST only when there was no error.
pub fn parse(src: &str) -> Result<ast::Program, Vec<SyntaxError>> {
    let mut lexer = lexer::Lexer::new(src);
    let mut nesting = Nesting::default();
    // Tokens stop at the first bracket past the limit: chumsky's parsers
    // recurse on the native stack, so they must never see deeper nesting.
    let tokens: Vec<lexer::Spanned> = lexer.by_ref().map_while(|t| nesting.admit(t)).collect();
    let end = src.chars().count();
    let (program, parse_errors) = parser::parse_tokens(&tokens, &lexer.texts, end);
    let mut errors = std::mem::take(&mut lexer.errors);
    if let Some(err) = nesting.too_deep {
        errors.push(err);
        return Err(errors);
    }
    // With an unclosed string or comment the parser sees the input end
    // early, and what it reports (even before the string, as its recovery
    // unwinds) is a consequence of the lexer's error, not news.
    if !lexer.open_at_end {
        errors.extend(parse_errors);
    }
    match program {
        Some(program) if errors.is_empty() => Ok(program),
        _ => {
            if errors.is_empty() {
                errors.push(SyntaxError::new(end..end, "could not parse the program"));
            }
            Err(errors)
        }
    }
}

/// Bracket depth of the tokens so far, bounded by [`MAX_NESTING`].
#[derive(Default)]
struct Nesting {
    depth: usize,
    too_deep: Option<SyntaxError>,
}

impl Nesting {
    /// Passes `token` on, or records the error at the first bracket past
    /// the limit and ends the tokens there.
    fn admit(&mut self, token: lexer::Spanned) -> Option<lexer::Spanned> {
        match token.0 {
            Token::Sym("(" | "[" | "{") => {
                self.depth += 1;
                if self.depth > MAX_NESTING {
                    self.too_deep = Some(SyntaxError::new(
                        token.1,
                        format!("brackets nest too deeply (more than {MAX_NESTING} levels)"),
                    ));
                    return None;
                }
            }
            Token::Sym(")" | "]" | "}") => self.depth = self.depth.saturating_sub(1),
            _ => {}
        }
        Some(token)
    }
}
