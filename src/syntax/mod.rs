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
    /// The one-line message.
    pub message: String,
    /// What the excerpt under the message says at `span`.
    pub label: String,
}

impl SyntaxError {
    pub fn new(span: Span, message: impl Into<String>, label: impl Into<String>) -> Self {
        SyntaxError {
            span,
            message: message.into(),
            label: label.into(),
        }
    }

    pub fn from_token_error(err: ParseError, texts: &lexer::Texts) -> Self {
        if let Some(custom) = err.custom {
            let (message, label) = *custom;
            return SyntaxError::new(err.span, message, label);
        }
        let found = match err.found {
            Some(t) => format!("unexpected token `{}`", shortened(&texts.show(t))),
            None => "unexpected end of input".to_string(),
        };
        let mut expected = err.expected.descriptions();
        let expected = if let Some(label) = err.label {
            Some(label.to_string())
        } else if expected.is_empty() || expected.len() > error::MAX_LISTED {
            None
        } else {
            let last = expected.pop().expect("not empty");
            if expected.is_empty() {
                Some(last)
            } else {
                Some(format!("{} or {last}", expected.join(", ")))
            }
        };
        match (expected, err.found) {
            (Some(expected), _) => SyntaxError::new(
                err.span,
                format!("{found}, expected {expected}"),
                format!("expected {expected}"),
            ),
            (None, Some(_)) => SyntaxError::new(err.span, found, "cannot come here"),
            (None, None) => SyntaxError::new(err.span, found, "the input ends here"),
        }
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
        let lexical = errors.len();
        for e in parse_errors {
            if !follows_lexical_error(&e, &errors[..lexical], &tokens) {
                errors.push(e);
            }
        }
    }
    match program {
        Some(program) if errors.is_empty() => Ok(program),
        _ => {
            if errors.is_empty() {
                let message = "could not parse the program";
                errors.push(SyntaxError::new(end..end, message, "the input ends here"));
            }
            // The lexer's errors come first; report all in source order.
            errors.sort_by_key(|e| e.span.start);
            Err(errors)
        }
    }
}

/// Whether parse error `e` is at the first token after characters the
/// lexer rejected: then it is about the gap they left (`1 @ 2` reads as
/// `1 2`), not news.
fn follows_lexical_error(
    e: &SyntaxError,
    lexical: &[SyntaxError],
    tokens: &[lexer::Spanned],
) -> bool {
    if lexical.is_empty() {
        return false;
    }
    let at = e.span.start;
    let before = tokens.partition_point(|(_, span)| span.start < at);
    let gap_start = before.checked_sub(1).map_or(0, |i| tokens[i].1.end);
    lexical
        .iter()
        .any(|l| gap_start <= l.span.start && l.span.start < at)
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
                        format!("opens level {}", MAX_NESTING + 1),
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
