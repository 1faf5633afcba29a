//! The lexer: source characters to tokens with spans (LANGUAGE.md §1).
//!
//! Hand-written, unlike the parser: a lexer is one loop over characters,
//! and chumsky's character-level combinators spent about a microsecond per
//! token on failed alternatives and their errors — half the front end's
//! time. Spans count characters, not bytes, as ariadne's do.
//!
//! Errors, each reported once and lexing goes on:
//! - a character that starts no token (a run of them is one error);
//! - an unknown escape in a string;
//! - a string or block comment still open at the end of the input, which
//!   swallows the rest (so its contents cause no further errors; see
//!   [`Lexer::open_at_end`]).

use super::ast::Span;
use super::SyntaxError;
use rustc_hash::FxHashMap;

/// Tokens are `Copy` — the parser copies them at every look — so names
/// and string contents live in [`Texts`] and tokens hold their index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Token {
    /// Saturates at `u64::MAX`; the checker rejects values out of range.
    Int(u64),
    /// The bits of an `f64` (tokens must be `Eq + Hash`).
    Float(u64),
    /// Index into [`Texts::strings`].
    Str(u32),
    /// Index into [`Texts::names`]; equal names have equal indices.
    Ident(u32),
    Kw(&'static str),
    Sym(&'static str),
}

/// The texts that tokens refer to.
#[derive(Debug, Default)]
pub struct Texts {
    pub names: Vec<String>,
    /// String literals with their escapes resolved.
    pub strings: Vec<String>,
}

impl Texts {
    pub fn name(&self, id: u32) -> &str {
        &self.names[id as usize]
    }

    pub fn string(&self, id: u32) -> &str {
        &self.strings[id as usize]
    }

    /// A token as the source spells it (strings with their escapes).
    pub fn show(&self, token: Token) -> String {
        match token {
            Token::Int(n) => n.to_string(),
            Token::Float(bits) => format!("{:?}", f64::from_bits(bits)),
            Token::Str(id) => format!("{:?}", self.string(id)),
            Token::Ident(id) => self.name(id).to_string(),
            Token::Kw(s) | Token::Sym(s) => s.to_string(),
        }
    }
}

fn keyword(word: &str) -> Option<&'static str> {
    Some(match word {
        "fn" => "fn",
        "let" => "let",
        "if" => "if",
        "else" => "else",
        "while" => "while",
        "for" => "for",
        "in" => "in",
        "break" => "break",
        "continue" => "continue",
        "return" => "return",
        "true" => "true",
        "false" => "false",
        _ => return None,
    })
}

/// Every keyword (LANGUAGE.md §1), as [`keyword`] knows them.
pub const KEYWORDS: &[&str] = &[
    "fn", "let", "if", "else", "while", "for", "in", "break", "continue", "return", "true", "false",
];

/// Every symbol (LANGUAGE.md §1), as [`longest_symbol`] knows them.
pub const SYMBOLS: &[&str] = &[
    "<<=", ">>=", "..", "->", "&&", "||", "==", "!=", "<=", ">=", "<<", ">>", "+=", "-=", "*=",
    "/=", "%=", "&=", "|=", "^=", "+", "-", "*", "/", "%", "&", "|", "^", "!", "<", ">", "=", "(",
    ")", "{", "}", "[", "]", ",", ";", ":",
];

pub type Spanned = (Token, Span);

/// All tokens of `src` (errors left out: for counting brackets).
pub fn lex(src: &str) -> Vec<Spanned> {
    Lexer::new(src).collect()
}

/// The tokens of a source text, one at a time. Names and strings go into
/// [`Lexer::texts`] as they are met.
pub struct Lexer<'s> {
    src: &'s str,
    /// Byte offset of the next character.
    byte: usize,
    /// Character offset of the next character (what spans count).
    at: usize,
    name_ids: FxHashMap<&'s str, u32>,
    pub texts: Texts,
    pub errors: Vec<SyntaxError>,
    /// A string or block comment is still open at the end of the input.
    pub open_at_end: bool,
    /// The previous character started no token: a run of such characters
    /// (and the blanks between them) is reported once.
    in_bad_run: bool,
}

impl Iterator for Lexer<'_> {
    type Item = Spanned;

    fn next(&mut self) -> Option<Spanned> {
        loop {
            self.skip_blanks();
            let c = self.peek()?;
            let start = self.at;
            let token = match c {
                'a'..='z' | 'A'..='Z' | '_' => Some(self.word()),
                '0'..='9' => Some(self.number()),
                '"' => self.string(),
                '/' if matches!(self.peek_second(), Some('/' | '*')) => {
                    self.comment();
                    self.in_bad_run = false;
                    continue;
                }
                _ => self.symbol(),
            };
            match token {
                Some(token) => {
                    self.in_bad_run = false;
                    return Some((token, start..self.at));
                }
                None if self.open_at_end => {}
                None => {
                    if !self.in_bad_run {
                        let message = format!("unexpected character `{}`", c.escape_debug());
                        self.error(
                            start..start + 1,
                            message,
                            "no token of Toy has this character",
                        );
                    }
                    self.in_bad_run = true;
                    self.bump();
                }
            }
        }
    }
}

impl<'s> Lexer<'s> {
    pub fn new(src: &'s str) -> Self {
        Lexer {
            src,
            byte: 0,
            at: 0,
            name_ids: FxHashMap::default(),
            texts: Texts::default(),
            errors: Vec::new(),
            open_at_end: false,
            in_bad_run: false,
        }
    }

    fn peek(&self) -> Option<char> {
        match self.src.as_bytes().get(self.byte) {
            Some(&b) if b.is_ascii() => Some(b as char),
            Some(_) => self.src[self.byte..].chars().next(),
            None => None,
        }
    }

    fn peek_second(&self) -> Option<char> {
        let mut rest = self.src[self.byte..].chars();
        rest.next();
        rest.next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.byte += c.len_utf8();
        self.at += 1;
        Some(c)
    }

    fn eat(&mut self, c: char) -> bool {
        let found = self.peek() == Some(c);
        if found {
            self.bump();
        }
        found
    }

    /// Consumes characters while `pred` holds; returns the text consumed.
    fn take_while(&mut self, pred: impl Fn(char) -> bool) -> &'s str {
        let start = self.byte;
        while self.peek().is_some_and(&pred) {
            self.bump();
        }
        &self.src[start..self.byte]
    }

    fn error(&mut self, span: Span, message: impl Into<String>, label: &str) {
        self.errors.push(SyntaxError::new(span, message, label));
    }

    fn skip_blanks(&mut self) {
        self.take_while(char::is_whitespace);
    }

    /// `// …` to the end of the line, or `/* … */` (not nested).
    fn comment(&mut self) {
        let start = self.at;
        self.bump();
        if self.bump() == Some('/') {
            self.take_while(|c| c != '\n');
            return;
        }
        while let Some(c) = self.bump() {
            if c == '*' && self.eat('/') {
                return;
            }
        }
        // At its `/*`: the rest of the file is the comment.
        self.error(
            start..start + 2,
            "unterminated block comment",
            "this comment has no `*/`",
        );
        self.open_at_end = true;
    }

    fn word(&mut self) -> Token {
        let word = self.take_while(|c| c.is_ascii_alphanumeric() || c == '_');
        match keyword(word) {
            Some(kw) => Token::Kw(kw),
            None => Token::Ident(self.name_id(word)),
        }
    }

    fn name_id(&mut self, name: &'s str) -> u32 {
        let names = &mut self.texts.names;
        *self.name_ids.entry(name).or_insert_with(|| {
            names.push(name.to_string());
            (names.len() - 1) as u32
        })
    }

    /// Digits of `radix` with `_` between and after them; the first
    /// character must be a digit.
    fn digits(&mut self, radix: u32) -> &'s str {
        if !self.peek().is_some_and(|c| c.is_digit(radix)) {
            return "";
        }
        self.take_while(|c| c.is_digit(radix) || c == '_')
    }

    fn number(&mut self) -> Token {
        let rest = &self.src.as_bytes()[self.byte..];
        // `0x` or `0b` count as a prefix only when a digit of the radix
        // follows; otherwise `0` is a decimal literal (and `x…` a name).
        let radix = match rest {
            [b'0', b'x' | b'X', d, ..] if d.is_ascii_hexdigit() => 16,
            [b'0', b'b' | b'B', b'0' | b'1', ..] => 2,
            _ => 10,
        };
        if radix != 10 {
            self.bump();
            self.bump();
            return Token::Int(digits_value(self.digits(radix), radix));
        }
        let start = self.byte;
        self.digits(10);
        let mut is_float = false;
        if self.peek() == Some('.') && self.peek_second().is_some_and(|c| c.is_ascii_digit()) {
            self.bump();
            self.digits(10);
            is_float = true;
        }
        if let Some('e' | 'E') = self.peek() {
            if self.exponent_follows() {
                self.bump();
                if let Some('+' | '-') = self.peek() {
                    self.bump();
                }
                self.digits(10);
                is_float = true;
            }
        }
        let text = &self.src[start..self.byte];
        if !is_float {
            return Token::Int(digits_value(text, 10));
        }
        let text: String = text.chars().filter(|&c| c != '_').collect();
        // Digits, `.` and an exponent as LANGUAGE.md allows are always a
        // valid Rust float (out of range saturates to infinity).
        Token::Float(text.parse::<f64>().unwrap_or(f64::INFINITY).to_bits())
    }

    /// Whether the `e` at the cursor begins an exponent: `e`, an optional
    /// sign, then a digit. (`1e` alone is `1` followed by the name `e`.)
    fn exponent_follows(&self) -> bool {
        let mut rest = self.src[self.byte + 1..].bytes();
        match rest.next() {
            Some(b'+' | b'-') => rest.next().is_some_and(|b| b.is_ascii_digit()),
            Some(b) => b.is_ascii_digit(),
            None => false,
        }
    }

    /// A string literal, or `None` if it never closes.
    fn string(&mut self) -> Option<Token> {
        let start = self.at;
        self.bump();
        let mut text = String::new();
        loop {
            let Some(c) = self.bump() else {
                // At its `"`: the rest of the file is the string.
                self.error(
                    start..start + 1,
                    "unterminated string literal",
                    "this string has no closing `\"`",
                );
                self.open_at_end = true;
                return None;
            };
            match c {
                '"' => {
                    let strings = &mut self.texts.strings;
                    strings.push(text);
                    return Some(Token::Str((strings.len() - 1) as u32));
                }
                '\\' => {
                    let escape_at = self.at - 1;
                    let Some(e) = self.bump() else { continue };
                    text.push(match e {
                        'n' => '\n',
                        't' => '\t',
                        'r' => '\r',
                        '\\' => '\\',
                        '"' => '"',
                        '0' => '\0',
                        other => {
                            // Reported as itself; the string still ends
                            // where it should.
                            let message = format!("unknown escape sequence `\\{other}`");
                            let label =
                                "the escapes are `\\n`, `\\t`, `\\r`, `\\\\`, `\\\"` and `\\0`";
                            self.error(escape_at..self.at, message, label);
                            other
                        }
                    });
                }
                c => text.push(c),
            }
        }
    }

    /// The longest symbol at the cursor, or `None` for a character that
    /// starts no token.
    fn symbol(&mut self) -> Option<Token> {
        let rest = &self.src.as_bytes()[self.byte..];
        let sym = longest_symbol(rest)?;
        // Symbols are ASCII: bytes and characters coincide.
        self.byte += sym.len();
        self.at += sym.len();
        Some(Token::Sym(sym))
    }
}

/// The longest entry of [`SYMBOLS`] that `rest` starts with.
fn longest_symbol(rest: &[u8]) -> Option<&'static str> {
    let longer: &[&'static str] = match rest.first()? {
        b'<' => &["<<=", "<<", "<=", "<"],
        b'>' => &[">>=", ">>", ">=", ">"],
        b'.' => &[".."],
        b'-' => &["->", "-=", "-"],
        b'&' => &["&&", "&=", "&"],
        b'|' => &["||", "|=", "|"],
        b'=' => &["==", "="],
        b'!' => &["!=", "!"],
        b'+' => &["+=", "+"],
        b'*' => &["*=", "*"],
        b'/' => &["/=", "/"],
        b'%' => &["%=", "%"],
        b'^' => &["^=", "^"],
        b'(' => &["("],
        b')' => &[")"],
        b'{' => &["{"],
        b'}' => &["}"],
        b'[' => &["["],
        b']' => &["]"],
        b',' => &[","],
        b';' => &[";"],
        b':' => &[":"],
        _ => return None,
    };
    longer
        .iter()
        .copied()
        .find(|s| rest.starts_with(s.as_bytes()))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_symbol_lexes_as_itself_and_longest_first() {
        for sym in SYMBOLS {
            assert_eq!(longest_symbol(sym.as_bytes()), Some(*sym));
            let tokens = lex(&format!("{sym} x"));
            assert_eq!(tokens[0].0, Token::Sym(sym), "{sym}");
        }
        let kinds: Vec<Token> = lex("<<=>>=..->").into_iter().map(|t| t.0).collect();
        assert_eq!(kinds, ["<<=", ">>=", "..", "->"].map(Token::Sym).to_vec());
    }

    /// The parser's error messages name expected tokens from these lists.
    #[test]
    fn every_keyword_lexes_as_a_keyword_and_nothing_else_does() {
        for kw in KEYWORDS {
            assert_eq!(lex(kw)[0].0, Token::Kw(kw), "{kw}");
        }
        for word in ["int", "print", "len", "Fn", "iff"] {
            assert!(matches!(lex(word)[0].0, Token::Ident(_)), "{word}");
        }
    }
}
