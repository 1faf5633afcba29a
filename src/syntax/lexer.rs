//! The chumsky lexer: source characters to tokens with spans
//! (LANGUAGE.md §1).

use super::ast::Span;
use super::error::ParseError;
use super::SyntaxError;
use chumsky::prelude::*;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Token {
    /// Saturates at `u64::MAX`; the checker rejects values out of range.
    Int(u64),
    /// The bits of an `f64` (tokens must be `Eq + Hash`).
    Float(u64),
    Str(String),
    Ident(String),
    Kw(&'static str),
    Sym(&'static str),
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Int(n) => write!(f, "{n}"),
            Token::Float(bits) => write!(f, "{:?}", f64::from_bits(*bits)),
            Token::Str(s) => write!(f, "{s:?}"),
            Token::Ident(s) => write!(f, "{s}"),
            Token::Kw(s) | Token::Sym(s) => write!(f, "{s}"),
        }
    }
}

const KEYWORDS: &[&str] = &[
    "fn", "let", "if", "else", "while", "for", "in", "break", "continue", "return", "true", "false",
];

const SYMBOLS: &[&str] = &[
    "<<=", ">>=", "..", "->", "&&", "||", "==", "!=", "<=", ">=", "<<", ">>", "+=", "-=", "*=",
    "/=", "%=", "&=", "|=", "^=", "+", "-", "*", "/", "%", "&", "|", "^", "!", "<", ">", "=", "(",
    ")", "{", "}", "[", "]", ",", ";", ":",
];

pub type Spanned = (Token, Span);

/// Splits `src` into tokens, reporting every lexical error it can recover from.
pub fn lex(src: &str) -> (Vec<Spanned>, Vec<SyntaxError>) {
    let (tokens, errors) = lexer().parse_recovery(src);
    let errors = errors
        .into_iter()
        .map(SyntaxError::from_char_error)
        .collect();
    (tokens.unwrap_or_default(), errors)
}

fn digits(radix: u32) -> impl Parser<char, String, Error = ParseError<char>> + Clone {
    filter(move |c: &char| c.is_digit(radix))
        .chain(filter(move |c: &char| c.is_digit(radix) || *c == '_').repeated())
        .collect::<String>()
}

fn digits_value(digits: &str, radix: u32) -> u64 {
    digits
        .chars()
        .filter(|c| *c != '_')
        .try_fold(0u64, |acc, c| {
            acc.checked_mul(radix as u64)?
                .checked_add(c.to_digit(radix)? as u64)
        })
        .unwrap_or(u64::MAX)
}

fn number() -> impl Parser<char, Token, Error = ParseError<char>> + Clone {
    let radix = |prefix: &'static str, upper: &'static str, radix: u32| {
        just(prefix)
            .or(just(upper))
            .ignore_then(digits(radix))
            .map(move |d| Token::Int(digits_value(&d, radix)))
    };
    let frac = just('.').chain(digits(10));
    let exp = one_of("eE")
        .chain(one_of("+-").or_not())
        .chain::<char, _, _>(digits(10));
    let decimal =
        digits(10)
            .then(frac.or_not())
            .then(exp.or_not())
            .try_map(|((int, frac), exp), span| {
                if frac.is_none() && exp.is_none() {
                    return Ok(Token::Int(digits_value(&int, 10)));
                }
                let mut text: String = int;
                text.extend(frac.unwrap_or_default());
                text.extend(exp.unwrap_or_default());
                text.retain(|c| c != '_');
                text.parse::<f64>()
                    .map(|f| Token::Float(f.to_bits()))
                    .map_err(|_| ParseError::custom(span, "malformed float literal"))
            });
    radix("0x", "0X", 16).or(radix("0b", "0B", 2)).or(decimal)
}

fn string() -> impl Parser<char, Token, Error = ParseError<char>> + Clone {
    // Any escaped character is consumed, so that a bad escape is reported
    // as itself and the string still ends where it should.
    let escape = just('\\')
        .ignore_then(any())
        .validate(|c: char, span: Span, emit| match c {
            'n' => '\n',
            't' => '\t',
            'r' => '\r',
            '\\' => '\\',
            '"' => '"',
            '0' => '\0',
            other => {
                emit(ParseError::custom(
                    span,
                    format!("unknown escape sequence `\\{other}`"),
                ));
                other
            }
        });
    let body = filter(|c: &char| *c != '\\' && *c != '"')
        .or(escape)
        .repeated()
        .collect::<String>();
    just('"')
        .ignore_then(body)
        .then(just('"').or_not())
        .try_map(|(s, close), span: Span| match close {
            Some(_) => Ok(Token::Str(s)),
            None => Err(ParseError::custom(span, "unterminated string literal")),
        })
}

fn word() -> impl Parser<char, Token, Error = ParseError<char>> + Clone {
    text::ident().map(|id: String| match KEYWORDS.iter().find(|k| **k == id) {
        Some(kw) => Token::Kw(kw),
        None => Token::Ident(id),
    })
}

fn symbol() -> impl Parser<char, Token, Error = ParseError<char>> + Clone {
    // Longest match by table lookup: a 3-, then 2-, then 1-character symbol.
    // (One attempt per length instead of one per symbol: failing chumsky
    // alternatives are what lexing time goes to.)
    let lookup = |text: String, span: Span| {
        SYMBOLS
            .iter()
            .find(|s| **s == text)
            .map(|s| Token::Sym(s))
            .ok_or_else(|| ParseError::expected_input_found(span, None, text.chars().next()))
    };
    let sym_of = move |len: usize| {
        any()
            .repeated()
            .exactly(len)
            .collect::<String>()
            .try_map(lookup)
    };
    // Only characters that begin a longer symbol try the longer lengths
    // (a failed attempt past the input's end would outrank the real error).
    let starts_longer = |c: &char| "<>=!&|+-*/%^.".contains(*c);
    filter(starts_longer)
        .rewind()
        .ignore_then(sym_of(3).or(sym_of(2)))
        .or(sym_of(1))
}

fn comment() -> impl Parser<char, (), Error = ParseError<char>> + Clone {
    let line = just("//")
        .then(filter(|c: &char| *c != '\n').repeated())
        .ignored();
    // An unterminated comment swallows the rest of the file (so that its
    // contents cause no further errors) and reports itself.
    let block = just("/*")
        .ignore_then(
            take_until(just("*/"))
                .to(true)
                .or(any().repeated().to(false)),
        )
        .validate(|closed, span: Span, emit| {
            if !closed {
                emit(ParseError::custom(span, "unterminated block comment"));
            }
        });
    line.or(block)
}

fn lexer() -> impl Parser<char, Vec<Spanned>, Error = ParseError<char>> {
    // Each kind of token is guarded by its first character, so that a
    // token costs one or two failed alternatives, not a dozen.
    let skip = filter(|c: &char| *c == '/')
        .rewind()
        .ignore_then(comment())
        .padded()
        .repeated()
        .ignored();
    let token = filter(|c: &char| c.is_ascii_alphabetic() || *c == '_')
        .rewind()
        .ignore_then(word())
        .or(filter(char::is_ascii_digit).rewind().ignore_then(number()))
        .or(filter(|c: &char| *c == '"').rewind().ignore_then(string()))
        .or(symbol())
        .map_with_span(|t, span| (t, span))
        .recover_with(skip_then_retry_until([]));
    skip.clone()
        .ignore_then(token.then_ignore(skip).padded().repeated())
        .padded()
        .then_ignore(end())
}
