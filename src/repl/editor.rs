//! What the REPL adds to rustyline on a terminal: tab completion, syntax
//! highlighting of the line being edited, and the continuation prompt that
//! names the bracket still open. Each is a rustyline trait of
//! [`ReplHelper`] over a pure function of the line ([`completions`],
//! [`classify`], [`continuation_prompt`]), which the unit tests below call.
//!
//! Completion: after `:` at the start of a line, the commands; after
//! `:load `, file names (rustyline's [`FilenameCompleter`]); after
//! `:emit `, the stages and then the session's functions; elsewhere the
//! keywords, builtins, `bool` and the functions and globals the session has
//! declared (not inside a string or comment). Tab with only blanks before
//! the cursor indents by four spaces.
//!
//! Highlighting: keywords, builtins and type names, numbers, strings and
//! comments, each in a colour of its own (ANSI SGR codes, which take no
//! room on screen). rustyline calls the highlighter only when its output
//! is a terminal; `NO_COLOR` turns it off ([`color_mode`]).

use crate::syntax::lexer::{self, Lexer, Token, KEYWORDS};
use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::hint::Hinter;
use rustyline::validate::Validator;
use rustyline::{ColorMode, Context, Helper};
use std::borrow::Cow;
use std::ops::Range;

/// The REPL's commands, as `:help` lists them.
pub const COMMANDS: &[&str] = &[":help", ":quit", ":load", ":emit", ":time", ":reset"];

/// The builtin functions (LANGUAGE.md §6; `check::tast::Builtin`).
pub const BUILTINS: &[&str] = &[
    "print", "len", "sqrt", "abs", "min", "max", "int", "float", "clock",
];

/// Type names that are no builtin function (`int` and `float` are both).
const TYPE_NAMES: &[&str] = &["bool"];

/// The stages `:emit` shows.
const STAGES: &[&str] = &["ssa", "clif", "asm"];

/// What Tab inserts with only blanks before the cursor.
const INDENT: &str = "    ";

/// The prompt for a further line of an entry whose brackets are still
/// open: `..(`, `..[` or `..{` for the innermost open bracket, as wide as
/// `>>> `.
pub fn continuation_prompt(entry: &str) -> &'static str {
    match open_bracket(entry) {
        Some('(') => "..( ",
        Some('[') => "..[ ",
        Some('{') => "..{ ",
        _ => "... ",
    }
}

/// The innermost bracket still open at the end of `src`, when its
/// brackets do not balance yet (as `syntax::brackets_open` counts them:
/// brackets in strings and comments do not count, and any closing bracket
/// closes the innermost open one).
pub fn open_bracket(src: &str) -> Option<char> {
    let mut open: Vec<char> = Vec::new();
    let mut depth: i64 = 0;
    for (token, _) in lexer::lex(src) {
        match token {
            Token::Sym(s @ ("(" | "[" | "{")) => {
                depth += 1;
                open.extend(s.chars());
            }
            Token::Sym(")" | "]" | "}") => {
                depth -= 1;
                open.pop();
            }
            _ => {}
        }
    }
    if depth > 0 {
        open.last().copied()
    } else {
        None
    }
}

/// What a stretch of a line is, for its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Keyword,
    /// A builtin function or a type name.
    Builtin,
    Number,
    Str,
    Comment,
    /// A `:` command's name.
    Command,
}

impl Class {
    fn color(self) -> &'static str {
        match self {
            Class::Keyword => "\x1b[35m",
            Class::Builtin => "\x1b[36m",
            Class::Number => "\x1b[33m",
            Class::Str => "\x1b[32m",
            Class::Comment => "\x1b[90m",
            Class::Command => "\x1b[1m",
        }
    }
}

const RESET: &str = "\x1b[0m";

/// The stretches of `line` to colour, as byte ranges in order; the rest
/// (names, symbols, blanks, characters of no token) stays plain. A string
/// or block comment still open runs to the end of the line.
pub fn classify(line: &str) -> Vec<(Range<usize>, Class)> {
    let mut out = Vec::new();
    let trimmed = line.trim_start();
    if trimmed.starts_with(':') {
        let start = line.len() - trimmed.len();
        let end = trimmed
            .find(char::is_whitespace)
            .map_or(line.len(), |n| start + n);
        out.push((start..end, Class::Command));
        return out;
    }
    // The lexer's spans count characters.
    let mut bytes: Vec<usize> = line.char_indices().map(|(b, _)| b).collect();
    bytes.push(line.len());
    let mut done = 0;
    for (token, span) in lexer::lex(line) {
        let range = bytes[span.start]..bytes[span.end];
        skipped(line, done..range.start, &mut out);
        done = range.end;
        let class = match token {
            Token::Kw(_) => Class::Keyword,
            Token::Int(_) | Token::Float(_) => Class::Number,
            Token::Str(_) => Class::Str,
            Token::Ident(_) if is_builtin_or_type(&line[range.clone()]) => Class::Builtin,
            Token::Ident(_) | Token::Sym(_) => continue,
        };
        out.push((range, class));
    }
    skipped(line, done..line.len(), &mut out);
    out
}

fn is_builtin_or_type(name: &str) -> bool {
    BUILTINS.contains(&name) || TYPE_NAMES.contains(&name)
}

/// The comments in what the lexer skipped between two tokens: blanks,
/// comments, characters of no token, and a string or block comment that
/// never closes (which takes the rest of the line).
fn skipped(line: &str, range: Range<usize>, out: &mut Vec<(Range<usize>, Class)>) {
    let text = &line[range.clone()];
    let at = |i: usize| range.start + i;
    let mut i = 0;
    while i < text.len() {
        let rest = &text[i..];
        if rest.starts_with("//") {
            let end = rest.find('\n').map_or(text.len(), |n| i + n);
            out.push((at(i)..at(end), Class::Comment));
            i = end;
        } else if let Some(body) = rest.strip_prefix("/*") {
            let end = body.find("*/").map_or(text.len(), |n| i + 2 + n + 2);
            out.push((at(i)..at(end), Class::Comment));
            i = end;
        } else if rest.starts_with('"') {
            out.push((at(i)..range.end, Class::Str));
            return;
        } else {
            i += rest.chars().next().map_or(1, char::len_utf8);
        }
    }
}

/// `line` with ANSI colours around its [`classify`] stretches.
pub fn highlight(line: &str) -> String {
    let mut out = String::with_capacity(line.len() * 2);
    let mut done = 0;
    for (range, class) in classify(line) {
        out.push_str(&line[done..range.start]);
        out.push_str(class.color());
        out.push_str(&line[range.clone()]);
        out.push_str(RESET);
        done = range.end;
    }
    out.push_str(&line[done..]);
    out
}

/// The names the session has declared, for completion.
#[derive(Clone, Debug, Default)]
pub struct Names {
    pub functions: Vec<String>,
    pub globals: Vec<String>,
}

/// What Tab completes at a position.
#[derive(Debug, PartialEq, Eq)]
pub enum Completion {
    /// Replace `line[start..pos]` by one of the words.
    Words(usize, Vec<String>),
    /// A file name (the argument of `:load`).
    FileName,
}

/// What Tab offers at byte `pos` of `line`: words sorted, each starting
/// with what is typed before `pos`.
pub fn completions(line: &str, pos: usize, names: &Names) -> Completion {
    let before = &line[..pos];
    let typed = before.trim_start();
    if typed.is_empty() {
        return Completion::Words(pos, vec![INDENT.to_string()]);
    }
    if typed.starts_with(':') {
        return command_completions(before, names);
    }
    let start = before
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |i| i + 1);
    let prefix = &before[start..];
    if prefix.starts_with(|c: char| c.is_ascii_digit()) || in_string_or_comment(&before[..start]) {
        return Completion::Words(start, Vec::new());
    }
    let words = (KEYWORDS.iter().chain(BUILTINS).chain(TYPE_NAMES))
        .map(|s| s.to_string())
        .chain(names.functions.iter().cloned())
        .chain(names.globals.iter().cloned());
    Completion::Words(start, matching(words, prefix))
}

/// Completions in a `:` command line.
fn command_completions(before: &str, names: &Names) -> Completion {
    let typed = before.trim_start();
    let start = before
        .rfind(char::is_whitespace)
        .map_or(0, |i| i + 1)
        .max(before.len() - typed.len());
    let prefix = &before[start..];
    let words: Vec<&str> = typed.split_whitespace().collect();
    // How many words come before the one being typed.
    let index = words.len() - usize::from(!prefix.is_empty());
    let words = match (words[0], index) {
        (_, 0) => COMMANDS.iter().map(|s| s.to_string()).collect(),
        (":load", 1) => return Completion::FileName,
        (":emit", 1) => STAGES.iter().map(|s| s.to_string()).collect(),
        (":emit", 2) => names.functions.clone(),
        _ => Vec::new(),
    };
    Completion::Words(start, matching(words, prefix))
}

fn matching(words: impl IntoIterator<Item = String>, prefix: &str) -> Vec<String> {
    let mut words: Vec<String> = (words.into_iter())
        .filter(|w| w.starts_with(prefix) && is_name_or_command(w))
        .collect();
    words.sort();
    words.dedup();
    words
}

fn is_name_or_command(word: &str) -> bool {
    let name = word.strip_prefix(':').unwrap_or(word);
    name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Whether the end of `text` is inside a string or a comment.
fn in_string_or_comment(text: &str) -> bool {
    let mut lexer = Lexer::new(text);
    lexer.by_ref().for_each(drop);
    if lexer.open_at_end {
        return true;
    }
    // A line comment is open to the end of the line.
    classify(text).last().is_some_and(|(range, class)| {
        *class == Class::Comment && range.end == text.len() && text[range.clone()].starts_with("//")
    })
}

/// Whether to colour the line: not when `NO_COLOR` is set to anything
/// (<https://no-color.org>). rustyline itself colours only a terminal.
pub fn color_mode() -> ColorMode {
    match std::env::var_os("NO_COLOR") {
        Some(value) if !value.is_empty() => ColorMode::Disabled,
        _ => ColorMode::Enabled,
    }
}

/// rustyline's helper for the REPL.
#[derive(Default)]
pub struct ReplHelper {
    /// The session's names, refreshed after every entry.
    pub names: Names,
    files: FilenameCompleter,
}

impl Completer for ReplHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        match completions(line, pos, &self.names) {
            Completion::FileName => self.files.complete(line, pos, ctx),
            Completion::Words(start, words) => {
                let pairs = (words.into_iter())
                    .map(|w| Pair {
                        display: w.clone(),
                        replacement: w,
                    })
                    .collect();
                Ok((start, pairs))
            }
        }
    }
}

impl Highlighter for ReplHelper {
    fn highlight<'l>(&self, line: &'l str, _pos: usize) -> Cow<'l, str> {
        Cow::Owned(highlight(line))
    }

    /// Every edit may change the colours (a `"` typed recolours the rest of
    /// the line); moving the cursor changes none.
    fn highlight_char(&self, line: &str, _pos: usize, kind: CmdKind) -> bool {
        kind == CmdKind::Other && !line.is_empty()
    }
}

impl Hinter for ReplHelper {
    type Hint = String;
}

impl Validator for ReplHelper {}

impl Helper for ReplHelper {}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Names {
        Names {
            functions: vec!["fib".into(), "fill".into(), "sq".into()],
            globals: vec!["total".into(), "fib_calls".into()],
        }
    }

    fn words(line: &str) -> (usize, Vec<String>) {
        match completions(line, line.len(), &names()) {
            Completion::Words(start, words) => (start, words),
            Completion::FileName => panic!("{line:?} completes a file name"),
        }
    }

    #[test]
    fn builtins_are_those_the_checker_knows() {
        for name in BUILTINS {
            assert!(
                crate::check::tast::Builtin::from_name(name).is_some(),
                "{name}"
            );
        }
    }

    #[test]
    fn names_complete_from_keywords_builtins_and_the_session() {
        assert_eq!(
            words("fi"),
            (0, vec!["fib".into(), "fib_calls".into(), "fill".into()])
        );
        assert_eq!(words("let x = pri"), (8, vec!["print".into()]));
        assert_eq!(words("print(to"), (6, vec!["total".into()]));
        assert_eq!(words("wh"), (0, vec!["while".into()]), "keywords complete");
        assert_eq!(words("let b: bo"), (7, vec!["bool".into()]));
        assert_eq!(
            words("f"),
            (
                0,
                ["false", "fib", "fib_calls", "fill", "float", "fn", "for"]
                    .map(String::from)
                    .to_vec()
            )
        );
        assert_eq!(words("x = 1 + nothing"), (8, vec![]));
    }

    #[test]
    fn nothing_completes_in_strings_comments_or_numbers() {
        assert_eq!(words("print(\"fi").1, Vec::<String>::new());
        assert_eq!(words("1 // fi").1, Vec::<String>::new());
        assert_eq!(words("1 /* fi").1, Vec::<String>::new());
        assert_eq!(words("12f").1, Vec::<String>::new());
        // After a string or comment that closed, names complete again.
        assert_eq!(words("print(\"a\", fi").1.len(), 3);
        assert_eq!(words("/* a */ sq").1, ["sq", "sqrt"]);
    }

    #[test]
    fn tab_on_a_blank_line_indents() {
        assert_eq!(words(""), (0, vec![INDENT.to_string()]));
        assert_eq!(words("    "), (4, vec![INDENT.to_string()]));
    }

    #[test]
    fn commands_and_their_arguments_complete() {
        assert_eq!(words(":lo"), (0, vec![":load".into()]));
        assert_eq!(words("  :r"), (2, vec![":reset".into()]));
        assert_eq!(words(":").1.len(), COMMANDS.len());
        assert_eq!(words(":emit c"), (6, vec!["clif".into()]));
        assert_eq!(
            words(":emit asm f"),
            (10, vec!["fib".into(), "fill".into()])
        );
        assert_eq!(words(":emit asm fib x").1, Vec::<String>::new());
        assert_eq!(words(":quit x").1, Vec::<String>::new());
        for line in [":load ", ":load sam", "  :load  dir/fi"] {
            assert_eq!(
                completions(line, line.len(), &names()),
                Completion::FileName,
                "{line:?}"
            );
        }
    }

    #[test]
    fn the_continuation_prompt_names_the_innermost_open_bracket() {
        assert_eq!(continuation_prompt("fn f() {\n"), "..{ ");
        assert_eq!(continuation_prompt("print(\n"), "..( ");
        assert_eq!(continuation_prompt("fn f() {\n  return [\n"), "..[ ");
        assert_eq!(continuation_prompt("fn f() {\n  return [1][\n0]\n"), "..{ ");
        assert_eq!(continuation_prompt("f(\"(\", // {\n"), "..( ");
        assert_eq!(open_bracket("f(1)\n"), None);
        // As `brackets_open` counts: balanced overall, so no bracket is open.
        assert_eq!(open_bracket(") (\n"), None);
        assert_eq!(open_bracket("({)\n"), Some('('));
        for src in [
            "fn f() {\n",
            "f(\n",
            ") (\n",
            "[(])\n",
            "{{}\n",
            "1\n",
            "/* ( */\n",
        ] {
            assert_eq!(
                open_bracket(src).is_some(),
                crate::syntax::brackets_open(src),
                "{src:?}"
            );
        }
    }

    fn classes(line: &str) -> Vec<(&str, Class)> {
        (classify(line).into_iter())
            .map(|(range, class)| (&line[range], class))
            .collect()
    }

    #[test]
    fn lines_are_classified_for_colour() {
        assert_eq!(
            classes("let x = sqrt(2.5) + 0xff; // done"),
            [
                ("let", Class::Keyword),
                ("sqrt", Class::Builtin),
                ("2.5", Class::Number),
                ("0xff", Class::Number),
                ("// done", Class::Comment),
            ]
        );
        assert_eq!(
            classes("print(\"é \\\" {\", x) /* c */ true"),
            [
                ("print", Class::Builtin),
                ("\"é \\\" {\"", Class::Str),
                ("/* c */", Class::Comment),
                ("true", Class::Keyword),
            ]
        );
        // Open to the end of the line.
        assert_eq!(
            classes("print(\"abc, 1"),
            [("print", Class::Builtin), ("\"abc, 1", Class::Str)]
        );
        assert_eq!(
            classes("1 /* x"),
            [("1", Class::Number), ("/* x", Class::Comment)]
        );
        assert_eq!(classes("  :load  f.toy"), [(":load", Class::Command)]);
        assert_eq!(classes("a @ b"), []);
    }

    #[test]
    fn highlighting_adds_only_colour_codes() {
        let line = "fn f(x: bool) -> int { return 1; } // é";
        let coloured = highlight(line);
        assert!(coloured.contains("\x1b[35mfn\x1b[0m"), "{coloured:?}");
        let mut plain = coloured.clone();
        for class in [
            Class::Keyword,
            Class::Builtin,
            Class::Number,
            Class::Str,
            Class::Comment,
            Class::Command,
        ] {
            plain = plain.replace(class.color(), "");
        }
        assert_eq!(plain.replace(RESET, ""), line);
        assert_eq!(highlight("x + y"), "x + y");
    }
}
