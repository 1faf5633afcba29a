//! The error type of the chumsky parser.
//!
//! chumsky creates an error for every alternative that fails, and almost
//! all of them are thrown away, so an error must be cheap to make and to
//! merge: a set of expected tokens that allocates (chumsky's `Rich` keeps
//! a `Vec`; 0.9's `Simple` kept a `HashSet`, which was most of the front
//! end's time) costs an allocation per failed alternative. The grammar
//! only ever expects keywords and symbols, so this type keeps them as bits
//! of an [`Expected`] set.

use super::ast::Span;
use super::lexer::{Token, KEYWORDS, SYMBOLS};
use chumsky::label::LabelError;
use chumsky::util::MaybeRef;
use chumsky::DefaultExpected;
use std::sync::OnceLock;

/// Messages list at most this many expected tokens.
pub const MAX_LISTED: usize = 8;

#[derive(Clone, Debug)]
pub struct ParseError {
    pub span: Span,
    /// `None`: the end of input.
    pub found: Option<Token>,
    pub expected: Expected,
    pub label: Option<&'static str>,
    /// A message of our own, replacing "unexpected …", and the label of
    /// its excerpt. Rarely present, so boxed: errors are created (and
    /// mostly dropped) for every failing alternative.
    pub custom: Option<Box<(String, &'static str)>>,
}

/// A set of keywords and symbols: bit `k` for entry `k` of [`table`];
/// the top bit stands for any binary or assignment operator (listing them
/// all would drown the rest).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Expected(u128);

impl Expected {
    pub const OPERATOR: Expected = Expected(1 << 127);

    fn insert(&mut self, token: &Token) {
        let text = match token {
            Token::Kw(s) | Token::Sym(s) => s,
            _ => return,
        };
        let key = pack(text);
        if let Ok(k) = table().binary_search_by_key(&key, |&(key, _)| key) {
            self.0 |= 1 << k;
        }
    }

    /// What the set holds, as a message lists it: the tokens in backticks,
    /// sorted, then "an operator".
    pub fn descriptions(self) -> Vec<String> {
        let mut listed: Vec<String> = table()
            .iter()
            .enumerate()
            .filter(|&(k, _)| self.0 & (1 << k) != 0)
            .map(|(_, &(_, text))| format!("`{text}`"))
            .collect();
        listed.sort();
        if self.0 & Self::OPERATOR.0 != 0 {
            listed.push("an operator".to_string());
        }
        listed
    }
}

/// A keyword's or symbol's bytes as one number (none is longer than 8).
fn pack(text: &str) -> u64 {
    text.bytes().fold(0, |key, b| (key << 8) | u64::from(b))
}

/// Every keyword and symbol with its [`pack`]ed key, sorted by key.
fn table() -> &'static [(u64, &'static str)] {
    static TABLE: OnceLock<Vec<(u64, &'static str)>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table: Vec<(u64, &'static str)> = KEYWORDS
            .iter()
            .chain(SYMBOLS)
            .map(|&text| (pack(text), text))
            .collect();
        table.sort_unstable();
        assert!(
            table.len() < 128,
            "one bit per token, and one for operators"
        );
        table
    })
}

impl ParseError {
    /// An unexpected `found` (`None`: the end of input).
    pub fn unexpected(span: Span, found: Option<Token>, expected: Expected) -> Self {
        ParseError {
            span,
            found,
            expected,
            label: None,
            custom: None,
        }
    }

    /// An error with a message of its own and what its excerpt says at
    /// `span`.
    pub fn custom(span: Span, message: impl Into<String>, label: &'static str) -> Self {
        let mut e = Self::unexpected(span, None, Expected::default());
        e.custom = Some(Box::new((message.into(), label)));
        e
    }
}

impl<'a, I> chumsky::error::Error<'a, I> for ParseError
where
    I: chumsky::input::Input<'a, Token = Token, Span = Span>,
{
    fn merge(mut self, other: Self) -> Self {
        self.label = match (self.label, other.label) {
            (Some(a), Some(b)) if a != b => None,
            (a, b) => a.or(b),
        };
        if self.custom.is_none() {
            self.custom = other.custom;
        }
        self.expected.0 |= other.expected.0;
        self
    }
}

impl<'a, I> LabelError<'a, I, DefaultExpected<'a, Token>> for ParseError
where
    I: chumsky::input::Input<'a, Token = Token, Span = Span>,
{
    fn expected_found<E: IntoIterator<Item = DefaultExpected<'a, Token>>>(
        expected: E,
        found: Option<MaybeRef<'a, Token>>,
        span: Span,
    ) -> Self {
        let mut set = Expected::default();
        // The end of input is never listed as expected.
        for e in expected {
            if let DefaultExpected::Token(token) = e {
                set.insert(&token);
            }
        }
        Self::unexpected(span, found.map(|t| *t), set)
    }
}

/// Labels name what a parser reads ("an expression"); a message shows the
/// innermost one in place of the tokens expected.
impl<'a, I> LabelError<'a, I, &'static str> for ParseError
where
    I: chumsky::input::Input<'a, Token = Token, Span = Span>,
{
    fn expected_found<E: IntoIterator<Item = &'static str>>(
        expected: E,
        found: Option<MaybeRef<'a, Token>>,
        span: Span,
    ) -> Self {
        let mut e = Self::unexpected(span, found.map(|t| *t), Expected::default());
        e.label = expected.into_iter().next();
        e
    }

    fn label_with(&mut self, label: &'static str) {
        self.label.get_or_insert(label);
    }
}
