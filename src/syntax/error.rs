//! The error type of the chumsky parser.
//!
//! chumsky creates an error for every alternative that fails, and almost
//! all of them are thrown away. Its `Simple` error keeps expected tokens in
//! a `HashSet`, which made hashing most of the front end's time; a `Vec`
//! still cost an allocation per failed alternative (an eighth of nbody's
//! parse). The grammar only ever expects keywords and symbols, so this
//! type keeps them as bits of an [`Expected`] set.

use super::ast::Span;
use super::lexer::{Token, KEYWORDS, SYMBOLS};
use std::sync::OnceLock;

/// Messages list at most this many expected tokens.
pub const MAX_LISTED: usize = 8;

#[derive(Clone, Debug)]
pub struct ParseError<I> {
    pub span: Span,
    pub found: Option<I>,
    pub expected: Expected,
    pub label: Option<&'static str>,
    /// Rarely present, so boxed: errors are created (and mostly dropped)
    /// for every failing alternative.
    pub note: Option<Box<Note<I>>>,
}

/// A set of keywords and symbols: bit `k` for entry `k` of [`table`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Expected(u128);

impl Expected {
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

    /// The texts of the tokens in the set.
    pub fn texts(self) -> impl Iterator<Item = &'static str> {
        table()
            .iter()
            .enumerate()
            .filter(move |&(k, _)| self.0 & (1 << k) != 0)
            .map(|(_, &(_, text))| text)
    }

    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
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
        assert!(table.len() <= 128, "one bit per token");
        table
    })
}

#[derive(Clone, Debug)]
pub enum Note<I> {
    /// A message of our own, replacing "unexpected …".
    Custom(String),
    /// The opening delimiter left unclosed.
    Unclosed(I),
}

impl<I> ParseError<I> {
    pub fn custom(span: Span, message: impl Into<String>) -> Self {
        ParseError {
            span,
            found: None,
            expected: Expected::default(),
            label: None,
            note: Some(Box::new(Note::Custom(message.into()))),
        }
    }
}

impl chumsky::Error<Token> for ParseError<Token> {
    type Span = Span;
    type Label = &'static str;

    fn expected_input_found<Iter: IntoIterator<Item = Option<Token>>>(
        span: Span,
        expected: Iter,
        found: Option<Token>,
    ) -> Self {
        let mut set = Expected::default();
        // The end of input is never listed as expected.
        for token in expected.into_iter().flatten() {
            set.insert(&token);
        }
        ParseError {
            span,
            found,
            expected: set,
            label: None,
            note: None,
        }
    }

    fn unclosed_delimiter(
        _unclosed_span: Span,
        unclosed: Token,
        span: Span,
        expected: Token,
        found: Option<Token>,
    ) -> Self {
        let mut e = Self::expected_input_found(span, Some(Some(expected)), found);
        e.note = Some(Box::new(Note::Unclosed(unclosed)));
        e
    }

    fn with_label(mut self, label: &'static str) -> Self {
        self.label.get_or_insert(label);
        self
    }

    fn merge(mut self, other: Self) -> Self {
        self.label = match (self.label, other.label) {
            (Some(a), Some(b)) if a != b => None,
            (a, b) => a.or(b),
        };
        if self.note.is_none() {
            self.note = other.note;
        }
        self.expected.0 |= other.expected.0;
        self
    }
}
