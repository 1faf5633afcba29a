//! The error type of the chumsky parser.
//!
//! chumsky creates an error for every alternative that fails, and almost
//! all of them are thrown away. Its `Simple` error keeps expected tokens in
//! a `HashSet`, which made hashing most of the front end's time; this type
//! keeps them in a small `Vec`, deduplicated only when errors merge.

use super::ast::Span;

/// Messages list at most 8 expected tokens; keeping one more tells "many".
const MAX_EXPECTED: usize = 9;

#[derive(Clone, Debug)]
pub struct ParseError<I> {
    pub span: Span,
    pub found: Option<I>,
    pub expected: Vec<Option<I>>,
    pub label: Option<&'static str>,
    /// Rarely present, so boxed: errors are created (and mostly dropped)
    /// for every failing alternative.
    pub note: Option<Box<Note<I>>>,
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
            expected: Vec::new(),
            label: None,
            note: Some(Box::new(Note::Custom(message.into()))),
        }
    }
}

impl<I: Clone + PartialEq> chumsky::Error<I> for ParseError<I> {
    type Span = Span;
    type Label = &'static str;

    fn expected_input_found<Iter: IntoIterator<Item = Option<I>>>(
        span: Span,
        expected: Iter,
        found: Option<I>,
    ) -> Self {
        ParseError {
            span,
            found,
            expected: expected.into_iter().take(MAX_EXPECTED).collect(),
            label: None,
            note: None,
        }
    }

    fn unclosed_delimiter(
        _unclosed_span: Span,
        unclosed: I,
        span: Span,
        expected: I,
        found: Option<I>,
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
        for e in other.expected {
            if self.expected.len() >= MAX_EXPECTED {
                break;
            }
            if !self.expected.contains(&e) {
                self.expected.push(e);
            }
        }
        self
    }
}
