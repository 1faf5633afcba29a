//! Diagnostics: source positions and the rendering of every stage's errors
//! with ariadne. Stages return typed errors; only this module (at the edge)
//! turns them into text.

use ariadne::{Color, Config, Label, Report, ReportKind, Source};
use std::io::IsTerminal;
use std::ops::Range;

/// Maps character offsets to 1-based line and column numbers.
pub struct LineIndex {
    /// Character offset of the first character of each line.
    starts: Vec<usize>,
    len: usize,
    /// The number of the first line (1, except for REPL entries, whose
    /// lines are numbered on from the entries before them).
    first_line: u32,
}

impl LineIndex {
    pub fn new(src: &str) -> Self {
        Self::starting_at(src, 1)
    }

    /// Numbers the lines of `src` from `first_line`.
    pub fn starting_at(src: &str, first_line: u32) -> Self {
        let mut starts = vec![0];
        let mut len = 0;
        for (i, c) in src.chars().enumerate() {
            if c == '\n' {
                starts.push(i + 1);
            }
            len = i + 1;
        }
        LineIndex {
            starts,
            len,
            first_line,
        }
    }

    pub fn line_col(&self, offset: usize) -> (u32, u32) {
        let offset = offset.min(self.len);
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        (
            self.first_line + line as u32,
            (offset - self.starts[line] + 1) as u32,
        )
    }

    /// How many lines the source has.
    pub fn line_count(&self) -> u32 {
        self.starts.len() as u32
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// One error to show: where, what, and what the excerpt says where.
pub struct Diagnostic {
    pub span: Range<usize>,
    /// The one-line message.
    pub message: String,
    /// Places to point at and what to say there: the first, and any
    /// within `span`, about the error itself (drawn as the error); the
    /// others explain it.
    pub labels: Vec<(Range<usize>, String)>,
}

/// Lines of a megabyte help nobody: above this size the location line
/// says it all.
const MAX_EXCERPT_SOURCE: usize = 1 << 20;

/// Prints one report on standard error: `file:line:col: error: message`
/// (the line LANGUAGE.md §7 asks for), then ariadne's excerpt of the
/// source with the diagnostic's labels, which does not repeat the message.
pub fn emit(name: &str, src: &str, lines: &LineIndex, diag: &Diagnostic) {
    eprint!("{}", render(name, src, lines, diag, color_wanted()));
}

/// Colors on a terminal, unless `NO_COLOR` is set.
fn color_wanted() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// The text [`emit`] prints.
fn render(name: &str, src: &str, lines: &LineIndex, diag: &Diagnostic, color: bool) -> String {
    let span = clamp(&diag.span, lines);
    let (line, col) = lines.line_col(span.start);
    let mut text = format!("{name}:{line}:{col}: error: {}\n", diag.message);
    if src.len() <= MAX_EXCERPT_SOURCE {
        text.push_str(&excerpt(name, src, lines, diag, color));
    }
    text
}

/// A span within the source (parser spans at the end of input may reach
/// past it).
fn clamp(span: &Range<usize>, lines: &LineIndex) -> Range<usize> {
    let start = span.start.min(lines.len());
    start..span.end.clamp(start, lines.len())
}

/// Ariadne's rendering of the source around the labels, without its
/// header line (`Error: …`): the location line above says that.
fn excerpt(name: &str, src: &str, lines: &LineIndex, diag: &Diagnostic, color: bool) -> String {
    let span = clamp(&diag.span, lines);
    let labels = diag.labels.iter().enumerate().map(|(i, (at, text))| {
        let at = clamp(at, lines);
        let about_the_error = i == 0 || (span.start <= at.start && at.end <= span.end);
        let label = Label::new((name, at)).with_message(text);
        match (color, about_the_error) {
            (false, _) => label,
            (true, true) => label.with_color(Color::Red),
            (true, false) => label.with_color(Color::Blue),
        }
    });
    let report = Report::build(ReportKind::Error, name, span.start)
        .with_config(Config::default().with_color(color))
        .with_labels(labels)
        .finish();
    let mut out = Vec::new();
    if report.write((name, Source::from(src)), &mut out).is_err() {
        return String::new();
    }
    let out = String::from_utf8_lossy(&out);
    // Ariadne always writes the header; it is the first line.
    out.split_once('\n')
        .map(|(_, excerpt)| excerpt.to_string())
        .unwrap_or_default()
}
