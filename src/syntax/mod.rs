//! Stage 1: source text to [`ast::Program`], with chumsky.
//!
//! Lexing and parsing both recover from errors, so one run reports several
//! independent syntax errors. Before parsing, [`check_nesting`] bounds the
//! bracket depth: chumsky parsers recurse on the native stack, and a bound
//! turns pathological input (100 000 nested parentheses) into a clear error.

pub mod ast;
pub mod error;
pub mod lexer;
pub mod parser;

use ast::Span;
use error::{Note, ParseError};
use lexer::Token;
use std::fmt::Display;

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

    fn from_parse_error<T: Display>(err: ParseError<T>, what: &str) -> Self {
        let message = if let Some(note) = err.note {
            match *note {
                Note::Custom(msg) => msg,
                Note::Unclosed(open) => format!("unclosed `{open}`"),
            }
        } else {
            let found = match &err.found {
                Some(t) => format!("unexpected {what} `{}`", escape_for_message(t)),
                None => "unexpected end of input".to_string(),
            };
            let mut expected: Vec<String> = err
                .expected
                .iter()
                .filter_map(|e| e.as_ref().map(|t| format!("`{t}`")))
                .collect();
            expected.sort();
            expected.dedup();
            if let Some(label) = err.label {
                format!("{found}, expected {label}")
            } else if expected.is_empty() || expected.len() > 8 {
                found
            } else {
                format!("{found}, expected {}", expected.join(", "))
            }
        };
        SyntaxError::new(err.span, message)
    }

    pub fn from_char_error(err: ParseError<char>) -> Self {
        Self::from_parse_error(err, "character")
    }

    pub fn from_token_error(err: ParseError<Token>) -> Self {
        Self::from_parse_error(err, "token")
    }
}

fn escape_for_message(t: &impl Display) -> String {
    t.to_string().escape_debug().to_string()
}

/// Parses a whole program. Returns the AST only when there was no error.
/// Whether `src` leaves brackets `( [ {` open (brackets in strings and
/// comments do not count): a REPL entry is complete when they balance.
pub fn brackets_open(src: &str) -> bool {
    let (tokens, _) = lexer::lex(src);
    let mut depth: i64 = 0;
    for (token, _) in &tokens {
        match token {
            Token::Sym("(" | "[" | "{") => depth += 1,
            Token::Sym(")" | "]" | "}") => depth -= 1,
            _ => {}
        }
    }
    depth > 0
}

pub fn parse(src: &str) -> Result<ast::Program, Vec<SyntaxError>> {
    let (tokens, mut errors) = lexer::lex(src);
    if let Err(err) = check_nesting(&tokens) {
        errors.push(err);
        return Err(errors);
    }
    let end = src.chars().count();
    let (program, parse_errors) = parser::parse_tokens(tokens, end);
    errors.extend(parse_errors);
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

/// Rejects bracket nesting deeper than [`MAX_NESTING`], at the first
/// bracket past the limit.
pub fn check_nesting(tokens: &[lexer::Spanned]) -> Result<(), SyntaxError> {
    let mut depth = 0usize;
    for (tok, span) in tokens {
        match tok {
            Token::Sym("(" | "[" | "{") => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(SyntaxError::new(
                        span.clone(),
                        format!("brackets nest too deeply (more than {MAX_NESTING} levels)"),
                    ));
                }
            }
            Token::Sym(")" | "]" | "}") => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}
