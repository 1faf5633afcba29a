//! Diagnostics: source positions and the rendering of every stage's errors
//! with ariadne. Stages return typed errors; only this module (at the edge)
//! turns them into text.

use ariadne::{Config, Label, Report, ReportKind, Source};
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

/// One error to show: where, what, and optionally a note at the span.
pub struct Diagnostic {
    pub span: Range<usize>,
    pub message: String,
}

/// Prints `file:line:col: error: message` followed by ariadne's rendering
/// of the source around it, on standard error.
pub fn emit(name: &str, src: &str, lines: &LineIndex, diag: &Diagnostic) {
    let start = diag.span.start.min(lines.len());
    let end = diag.span.end.clamp(start, lines.len());
    let (line, col) = lines.line_col(start);
    eprintln!("{name}:{line}:{col}: error: {}", diag.message);
    // Lines of a megabyte help nobody: the location line above says it all.
    if src.len() > 1 << 20 {
        return;
    }
    let color = std::io::stderr().is_terminal();
    let report = Report::build(ReportKind::Error, name, start)
        .with_config(Config::default().with_color(color))
        .with_message(&diag.message)
        .with_label(Label::new((name, start..end.max(start))).with_message("here"))
        .finish();
    let _ = report.eprint((name, Source::from(src)));
}
