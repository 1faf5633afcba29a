//! File tests: every `.toy` file under `tests/files/` is a test, and its
//! comments say what to run and what to expect — one place to add a test
//! program (drop a file in a topic's directory), in the spirit of
//! Cranelift's filetests, LLVM's FileCheck and clox's `// expect:`.
//! Directives sit in `//` comments anywhere in the file (a line may hold
//! code and then a directive); line and column numbers in expectations are
//! those of the file as it is, directives included. For example:
//!
//! ```toy
//! // A loop tested at its bottom at -O2: the body branches back to itself.
//! // run: -O2 --emit clif
//! // check-label: ; toy.f
//! // check-count: 2 icmp slt
//! // check: icmp slt
//! // check-next: brif v{{\d+}}, [[BODY:block\d+]]{{[(,]}}
//! // check: {{^}}[[BODY]]{{[(:]}}
//! // check-not: {{^block}}
//! // check: brif v{{\d+}}, [[BODY]]{{[(,]}}
//! // check-label: ; toy.<top>
//! // expect: 10
//! fn f(n: int) -> int { let s = 0; let i = 0; while i < n { s += i; i += 1; } return s; }
//! print(f(5));
//! ```
//!
//! - `// run: FLAGS` — one run of `jitrun --verify FLAGS FILE` (flags split
//!   on whitespace), from the file's directory, so that messages name the
//!   file as `name.toy:LINE:COL`. Several lines, several runs. A run whose
//!   flags contain `--emit` prints IR instead of running the program
//!   ([`RunSpec::prints_ir`], the one place to teach about other flags
//!   that print IR). If no `// run:` line runs the program, it also runs
//!   at `-O0`, `-O1`, `-O2` and under `--interp`.
//! - `// expect: TEXT` — the next line of stdout, exactly (all of them, in
//!   order, are the whole of stdout) for every run that runs the program.
//! - `// expect runtime error: PATTERN` — the program stops with status 2;
//!   the lines match lines of stderr, in order (the first line of the
//!   report is `name.toy:LINE:COL: runtime error: MESSAGE`).
//! - `// expect compile error: PATTERN` — compiling fails with status 1 and
//!   nothing on stdout, in every run; one line per report, in order: the
//!   reports (stderr lines starting `name.toy:`) are exactly as many as
//!   these lines, each contains its pattern, and each report's message is
//!   said once (appears on stderr only in the reports' first lines, not
//!   again in an excerpt). A pattern that ends in `{{$}}` pins the whole
//!   line, since a report starts with the file name.
//! - Without an error expected, every run must exit with status 0.
//!   All runs that run the program must print the same stderr (up to the
//!   depth a stack overflow reached, see `common::without_recursion_depth`).
//! - `// check: PATTERN` and friends, FileCheck style, match the IR that the
//!   `--emit` runs print. They belong to the `// run:` lines just before
//!   them (consecutive run lines form a group sharing the checks that
//!   follow, up to the next run line). Matching goes line by line:
//!   - `check:` the first line matching, after the previous match;
//!   - `check-next:` the line right after the previous match;
//!   - `check-not:` no line between the previous match and the next one
//!     (or the end of the region) matches;
//!   - `check-label:` splits the output into regions, each from its label's
//!     line to the next label's (or the end; checks before the first label
//!     have the lines before it): labels are found first, in order, and the
//!     checks after a label match inside its region only (typically
//!     `// check-label: ; toy.f` for function `f` in CLIF, `fn f(` in SSA,
//!     followed by a label for the next function);
//!   - `check-count: N PATTERN` (or `>=N`, `<=N`): the pattern occurs
//!     exactly (at least, at most) N times in the region — unlike
//!     FileCheck's CHECK-COUNT, a count of all occurrences; it does not
//!     move the position.
//! - `// target: ARCH…` — run the file only when the jitrun under test is
//!   for one of these architectures (`x86_64`, `aarch64`; see
//!   `common::target_arch`), for checks of machine-specific text. Checks
//!   of another machine's code can instead pass `--target TRIPLE` in their
//!   run line and run everywhere. (`--emit clif` and `--emit ssa` are the
//!   same on both.)
//!
//! Patterns (in checks and error expectations) are literal text, trimmed
//! (`{{ slt }}` keeps the spaces); `{{REGEX}}` embeds a regular expression
//! (the `regex` crate's syntax, matched within one line: `{{^}}` and
//! `{{$}}` pin a line's ends); in checks, `[[NAME:REGEX]]` binds what the
//! regex matched to NAME (upper case letters, digits, `_`; `[[int]]` is
//! text) and a later `[[NAME]]` matches that text again (bound by `check`
//! and `check-next` only).
//!
//! A file must assert something: one of `expect`, an error expectation, or
//! a check. Malformed directives (an unknown `// check-…:`, a check before
//! any run line, a run printing IR with no check after it) fail the test.
//! All files run, in parallel; the test fails at the end listing every
//! failed run with its file, run line and a diff. `JITRUN_FILETESTS=TEXT`
//! runs only the files whose path (under `tests/files/`) contains TEXT;
//! `--nocapture` shows the count of files and runs and the slowest files.

mod common;

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use regex::Regex;

/// The runs of a file none of whose `// run:` lines runs its program.
const DEFAULT_RUNS: [&str; 4] = ["-O0", "-O1", "-O2", "--interp"];

/// Architectures `// target:` may name.
const ARCHES: [&str; 2] = ["x86_64", "aarch64"];

// ---------------------------------------------------------------------
// Patterns

#[derive(Debug, Clone, PartialEq)]
enum Piece {
    Lit(String),
    Re(String),
    Def(String, String),
    Use(String),
}

/// A check's or an error expectation's pattern (see the module doc).
#[derive(Debug, Clone)]
struct Pattern {
    text: String,
    pieces: Vec<Piece>,
}

fn is_var_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_uppercase() || c == '_')
        && chars.all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// The end of a `[[NAME:REGEX]]`'s regex starting at `from`: the first
/// `]]` outside brackets of the regex itself.
fn def_end(s: &str, from: usize) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut depth = 0usize;
    let mut i = from;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b'[' => depth += 1,
            b']' if depth > 0 => depth -= 1,
            b']' if bytes.get(i + 1) == Some(&b']') => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

impl Pattern {
    /// Parses `text`; `vars`: whether `[[NAME]]` and `[[NAME:REGEX]]` are
    /// variables (in checks) or literal text (in error expectations, where
    /// `[[int]]` is a type).
    fn parse(text: &str, vars: bool) -> Result<Pattern, String> {
        let text = text.trim();
        if text.is_empty() {
            return Err("empty pattern".into());
        }
        let mut pieces = Vec::new();
        let mut lit = String::new();
        let mut rest = text;
        while !rest.is_empty() {
            if let Some(after) = rest.strip_prefix("{{") {
                let end = after
                    .find("}}")
                    .ok_or_else(|| format!("`{{{{` without `}}}}` in `{text}`"))?;
                if !lit.is_empty() {
                    pieces.push(Piece::Lit(std::mem::take(&mut lit)));
                }
                pieces.push(Piece::Re(after[..end].to_string()));
                rest = &after[end + 2..];
                continue;
            }
            if vars && rest.starts_with("[[") {
                let after = &rest[2..];
                let name_end = after
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(after.len());
                let name = &after[..name_end];
                if is_var_name(name) {
                    let tail = &after[name_end..];
                    if let Some(r) = tail.strip_prefix("]]") {
                        if !lit.is_empty() {
                            pieces.push(Piece::Lit(std::mem::take(&mut lit)));
                        }
                        pieces.push(Piece::Use(name.to_string()));
                        rest = r;
                        continue;
                    }
                    if let Some(re) = tail.strip_prefix(':') {
                        let end = def_end(re, 0)
                            .ok_or_else(|| format!("`[[{name}:` without `]]` in `{text}`"))?;
                        if !lit.is_empty() {
                            pieces.push(Piece::Lit(std::mem::take(&mut lit)));
                        }
                        pieces.push(Piece::Def(name.to_string(), re[..end].to_string()));
                        rest = &re[end + 2..];
                        continue;
                    }
                }
            }
            let c = rest.chars().next().unwrap();
            lit.push(c);
            rest = &rest[c.len_utf8()..];
        }
        if !lit.is_empty() {
            pieces.push(Piece::Lit(lit));
        }
        let pattern = Pattern {
            text: text.to_string(),
            pieces,
        };
        // Every regex must compile (uses stand for some text).
        let placeholders = pattern
            .uses()
            .map(|n| (n.to_string(), "x".to_string()))
            .collect();
        pattern.regex(&placeholders)?;
        Ok(pattern)
    }

    fn defs(&self) -> impl Iterator<Item = &str> {
        self.pieces.iter().filter_map(|p| match p {
            Piece::Def(n, _) => Some(n.as_str()),
            _ => None,
        })
    }

    fn uses(&self) -> impl Iterator<Item = &str> {
        self.pieces.iter().filter_map(|p| match p {
            Piece::Use(n) => Some(n.as_str()),
            _ => None,
        })
    }

    /// The pattern as a regex, variables replaced by their values.
    fn regex(&self, vars: &HashMap<String, String>) -> Result<Regex, String> {
        let mut re = String::new();
        for piece in &self.pieces {
            match piece {
                Piece::Lit(s) => re.push_str(&regex::escape(s)),
                Piece::Re(r) => write!(re, "(?:{r})").unwrap(),
                Piece::Def(n, r) => write!(re, "(?P<{n}>{r})").unwrap(),
                Piece::Use(n) => {
                    let value = vars.get(n).ok_or_else(|| {
                        format!(
                            "`[[{n}]]` used before a match defined it, in `{}`",
                            self.text
                        )
                    })?;
                    re.push_str(&regex::escape(value));
                }
            }
        }
        Regex::new(&re).map_err(|e| format!("bad regex in `{}`: {e}", self.text))
    }
}

// ---------------------------------------------------------------------
// The file format

#[derive(Debug, Clone, Copy, PartialEq)]
enum Count {
    Exactly(usize),
    AtLeast(usize),
    AtMost(usize),
}

impl Count {
    fn holds(self, n: usize) -> bool {
        match self {
            Count::Exactly(k) => n == k,
            Count::AtLeast(k) => n >= k,
            Count::AtMost(k) => n <= k,
        }
    }
}

impl std::fmt::Display for Count {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Count::Exactly(k) => write!(f, "{k}"),
            Count::AtLeast(k) => write!(f, ">={k}"),
            Count::AtMost(k) => write!(f, "<={k}"),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum CheckKind {
    Check,
    Next,
    Not,
    Label,
    Count(Count),
}

#[derive(Debug, Clone)]
struct Check {
    kind: CheckKind,
    pattern: Pattern,
    /// Its line in the test file.
    line: usize,
}

impl Check {
    fn describe(&self, file: &str) -> String {
        let name = match self.kind {
            CheckKind::Check => "check".to_string(),
            CheckKind::Next => "check-next".to_string(),
            CheckKind::Not => "check-not".to_string(),
            CheckKind::Label => "check-label".to_string(),
            CheckKind::Count(c) => format!("check-count: {c}"),
        };
        let sep = if matches!(self.kind, CheckKind::Count(_)) {
            " "
        } else {
            ": "
        };
        format!("{file}:{}: {name}{sep}{}", self.line, self.pattern.text)
    }
}

#[derive(Debug, Clone)]
struct RunSpec {
    flags: Vec<String>,
    /// Its `// run:` line, or none for a default run.
    line: Option<usize>,
    /// Index into `TestFile::groups`.
    group: usize,
}

impl RunSpec {
    fn prints_ir(&self) -> bool {
        self.flags
            .iter()
            .any(|f| f == "--emit" || f.starts_with("--emit=") || f.starts_with("--print-after"))
    }

    fn describe(&self, file: &str) -> String {
        match self.line {
            Some(line) => format!("{file}:{line}: run: {}", self.flags.join(" ")),
            None => format!("{file}: default run {}", self.flags.join(" ")),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum ErrorKind {
    Compile,
    Runtime,
}

#[derive(Debug)]
struct TestFile {
    /// The path under `tests/files/`, for messages.
    name: String,
    runs: Vec<RunSpec>,
    /// The checks of each group of run lines.
    groups: Vec<Vec<Check>>,
    stdout: String,
    error: Option<ErrorKind>,
    errors: Vec<Pattern>,
    targets: Vec<String>,
}

/// The directives: `// NAME: VALUE`, longer names first.
fn directive_re() -> &'static Regex {
    static RE: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"//\s*(expect runtime error|expect compile error|expect|run|check-next|check-not|check-label|check-count|check|target):(.*)$",
        )
        .unwrap()
    })
}

/// Comments that look like a directive but are none (`// checks:`,
/// `// check-nxt:`, `// expect runtime eror:`): an error, not a comment,
/// so that a typo cannot silently drop an assertion.
fn near_miss_re() -> &'static Regex {
    static RE: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"//\s*(expect|check|run|target)[a-z-]*( (runtime|compile) [a-z]*)?\s*:")
            .unwrap()
    })
}

impl TestFile {
    /// Reads the directives of `src` (the file `name`); every malformed
    /// one is an error.
    fn parse(name: &str, src: &str) -> Result<TestFile, Vec<String>> {
        let mut errors = Vec::new();
        let mut file = TestFile {
            name: name.to_string(),
            runs: Vec::new(),
            groups: Vec::new(),
            stdout: String::new(),
            error: None,
            errors: Vec::new(),
            targets: Vec::new(),
        };
        let mut expects = 0;
        // Whether the last run or check directive was a run line.
        let mut in_run_lines = false;
        for (i, text) in src.lines().enumerate() {
            let line = i + 1;
            let mut err = |msg: String| errors.push(format!("{name}:{line}: {msg}"));
            let Some(caps) = directive_re().captures(text) else {
                if let Some(m) = near_miss_re().find(text) {
                    err(format!("unknown directive `{}`", m.as_str()));
                }
                continue;
            };
            let directive = caps.get(1).unwrap().as_str();
            let raw = caps.get(2).unwrap().as_str();
            let value = raw.trim();
            match directive {
                "run" => {
                    if !in_run_lines {
                        file.groups.push(Vec::new());
                    }
                    in_run_lines = true;
                    file.runs.push(RunSpec {
                        flags: value.split_whitespace().map(str::to_string).collect(),
                        line: Some(line),
                        group: file.groups.len() - 1,
                    });
                }
                "expect" => {
                    expects += 1;
                    file.stdout.push_str(raw.strip_prefix(' ').unwrap_or(raw));
                    file.stdout.push('\n');
                }
                "expect runtime error" | "expect compile error" => {
                    let kind = if directive == "expect runtime error" {
                        ErrorKind::Runtime
                    } else {
                        ErrorKind::Compile
                    };
                    if file.error.is_some_and(|k| k != kind) {
                        err("both a compile error and a runtime error expected".into());
                    }
                    file.error = Some(kind);
                    match Pattern::parse(value, false) {
                        Ok(p) => file.errors.push(p),
                        Err(e) => err(e),
                    }
                }
                "target" => {
                    for arch in value.split_whitespace() {
                        if !ARCHES.contains(&arch) {
                            err(format!("unknown target `{arch}` (known: {ARCHES:?})"));
                        }
                        file.targets.push(arch.to_string());
                    }
                    if value.is_empty() {
                        err("`target:` names no architecture".into());
                    }
                }
                _ => {
                    in_run_lines = false;
                    let (kind, pattern) = match directive {
                        "check" => (CheckKind::Check, value),
                        "check-next" => (CheckKind::Next, value),
                        "check-not" => (CheckKind::Not, value),
                        "check-label" => (CheckKind::Label, value),
                        "check-count" => {
                            let (n, rest) =
                                value.split_once(char::is_whitespace).unwrap_or((value, ""));
                            let count = if let Some(k) = n.strip_prefix(">=") {
                                k.parse().map(Count::AtLeast)
                            } else if let Some(k) = n.strip_prefix("<=") {
                                k.parse().map(Count::AtMost)
                            } else {
                                n.parse().map(Count::Exactly)
                            };
                            match count {
                                Ok(c) => (CheckKind::Count(c), rest),
                                Err(_) => {
                                    err(format!(
                                        "`check-count:` wants N, >=N or <=N first, not `{n}`"
                                    ));
                                    continue;
                                }
                            }
                        }
                        _ => unreachable!("{directive}"),
                    };
                    let pattern = match Pattern::parse(pattern, true) {
                        Ok(p) => p,
                        Err(e) => {
                            err(e);
                            continue;
                        }
                    };
                    if pattern.defs().next().is_some()
                        && matches!(
                            kind,
                            CheckKind::Not | CheckKind::Count(_) | CheckKind::Label
                        )
                    {
                        err("only `check` and `check-next` may define variables".into());
                    }
                    let Some(group) = file.groups.last_mut() else {
                        err(format!("`{directive}:` before any `// run:` line"));
                        continue;
                    };
                    let follows_a_match = group
                        .iter()
                        .rev()
                        .find(|c| {
                            matches!(
                                c.kind,
                                CheckKind::Check | CheckKind::Next | CheckKind::Label
                            )
                        })
                        .is_some();
                    if kind == CheckKind::Next && !follows_a_match {
                        err("`check-next:` with no `check:` or `check-label:` before it".into());
                    }
                    group.push(Check {
                        kind,
                        pattern,
                        line,
                    });
                }
            }
        }
        if file.error == Some(ErrorKind::Compile) && expects > 0 {
            errors.push(format!(
                "{name}: `expect:` lines and a compile error (which prints nothing)"
            ));
        }
        if file.error == Some(ErrorKind::Compile) && file.groups.iter().any(|g| !g.is_empty()) {
            errors.push(format!(
                "{name}: checks and a compile error (which prints no IR)"
            ));
        }
        if !file.runs.iter().any(|r| !r.prints_ir()) {
            // The default runs form a group of their own, without checks.
            file.groups.push(Vec::new());
            let group = file.groups.len() - 1;
            for flag in DEFAULT_RUNS {
                file.runs.push(RunSpec {
                    flags: vec![flag.to_string()],
                    line: None,
                    group,
                });
            }
        }
        for (g, checks) in file.groups.iter().enumerate() {
            let runs: Vec<&RunSpec> = file.runs.iter().filter(|r| r.group == g).collect();
            let ir = runs.iter().any(|r| r.prints_ir());
            if !checks.is_empty() && !ir {
                errors.push(format!(
                    "{name}:{}: checks after run lines that print no IR (no `--emit`)",
                    checks[0].line
                ));
            }
            if checks.is_empty() && ir && file.error != Some(ErrorKind::Compile) {
                let run = runs.iter().find(|r| r.prints_ir()).unwrap();
                errors.push(format!(
                    "{}: prints IR, but no check follows",
                    run.describe(name)
                ));
            }
        }
        if expects == 0 && file.errors.is_empty() && file.groups.iter().all(Vec::is_empty) {
            errors.push(format!(
                "{name}: asserts nothing: a test needs `// expect:`, `// expect … error:` or `// check:` lines"
            ));
        }
        if errors.is_empty() {
            Ok(file)
        } else {
            Err(errors)
        }
    }
}

// ---------------------------------------------------------------------
// FileCheck

/// `output`'s lines `from..to`, numbered (1-based), for messages.
fn numbered(lines: &[&str], from: usize, to: usize) -> String {
    const MAX: usize = 80;
    let mut s = String::new();
    let shown = to.min(from + MAX);
    for (i, line) in lines.iter().enumerate().take(shown).skip(from) {
        writeln!(s, "{:>5} | {line}", i + 1).unwrap();
    }
    if to > shown {
        writeln!(s, "      … {} more lines", to - shown).unwrap();
    }
    s
}

/// Matches `checks` against `output` (the module doc says how).
fn run_checks(file: &str, checks: &[Check], output: &str) -> Result<(), String> {
    let lines: Vec<&str> = output.lines().collect();
    let n = lines.len();
    let mut vars: HashMap<String, String> = HashMap::new();
    let fail = |check: &Check, msg: String, from: usize, to: usize| {
        Err(format!(
            "{}\n  {msg}\n  output lines {}–{}:\n{}",
            check.describe(file),
            from + 1,
            to,
            numbered(&lines, from, to)
        ))
    };

    // Labels first: each on a line after the previous one.
    let mut label_lines = Vec::new();
    let mut from = 0;
    for check in checks.iter().filter(|c| c.kind == CheckKind::Label) {
        let re = check.pattern.regex(&vars)?;
        match (from..n).find(|&l| re.is_match(lines[l])) {
            Some(l) => {
                label_lines.push(l);
                from = l + 1;
            }
            None => return fail(check, "label not found".into(), from, n),
        }
    }

    // Then each region: before the first label, and from each label on.
    let mut segments: Vec<(&[Check], usize, usize, Option<usize>)> = Vec::new();
    let mut start = 0;
    let mut region_start = 0;
    let mut label: Option<usize> = None;
    let mut label_index = 0;
    for (i, check) in checks.iter().enumerate() {
        if check.kind == CheckKind::Label {
            let at = label_lines[label_index];
            segments.push((&checks[start..i], region_start, at, label));
            label_index += 1;
            start = i + 1;
            region_start = at;
            label = Some(at);
        }
    }
    segments.push((&checks[start..], region_start, n, label));
    for (segment, region_start, end, label) in segments {
        let mut next = label.map_or(region_start, |l| l + 1);
        let mut last = label;
        let mut nots: Vec<&Check> = Vec::new();
        let check_nots =
            |nots: &mut Vec<&Check>, vars: &HashMap<String, String>, from: usize, to: usize| {
                for not in nots.drain(..) {
                    let re = not.pattern.regex(vars)?;
                    if let Some(l) = (from..to).find(|&l| re.is_match(lines[l])) {
                        return fail(not, format!("matched output line {}", l + 1), from, to);
                    }
                }
                Ok(())
            };
        for check in segment {
            match check.kind {
                CheckKind::Check | CheckKind::Next => {
                    let re = check.pattern.regex(&vars)?;
                    let found = if check.kind == CheckKind::Check {
                        (next..end).find(|&l| re.is_match(lines[l]))
                    } else {
                        let l = last.expect("check-next follows a match (parse)") + 1;
                        (l < end && re.is_match(lines[l])).then_some(l)
                    };
                    let Some(l) = found else {
                        let msg = if check.kind == CheckKind::Check {
                            "no match".to_string()
                        } else {
                            "the next line does not match".to_string()
                        };
                        return fail(check, msg, next.min(end), end);
                    };
                    check_nots(&mut nots, &vars, next, l)?;
                    let caps = re.captures(lines[l]).unwrap();
                    for name in check.pattern.defs() {
                        vars.insert(name.to_string(), caps[name].to_string());
                    }
                    last = Some(l);
                    next = l + 1;
                }
                CheckKind::Not => nots.push(check),
                CheckKind::Count(count) => {
                    let re = check.pattern.regex(&vars)?;
                    let found: usize = lines[region_start..end]
                        .iter()
                        .map(|l| re.find_iter(l).count())
                        .sum();
                    if !count.holds(found) {
                        return fail(
                            check,
                            format!("found {found} occurrences"),
                            region_start,
                            end,
                        );
                    }
                }
                CheckKind::Label => unreachable!("labels split the segments"),
            }
        }
        check_nots(&mut nots, &vars, next.min(end), end)?;
    }
    Ok(())
}

// ---------------------------------------------------------------------
// Running a file

/// A line diff of `want` against `got`: ` ` both, `-` only wanted, `+`
/// only got.
fn diff(want: &str, got: &str) -> String {
    let a: Vec<&str> = want.lines().collect();
    let b: Vec<&str> = got.lines().collect();
    if a.len() * b.len() > 4_000_000 {
        return format!("--- want\n{want}--- got\n{got}");
    }
    // Longest common subsequence, then walk it.
    let mut lcs = vec![vec![0u32; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let mut out = String::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            writeln!(out, "   {}", a[i]).unwrap();
            i += 1;
            j += 1;
        } else if i < a.len() && (j == b.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            writeln!(out, " - {}", a[i]).unwrap();
            i += 1;
        } else {
            writeln!(out, " + {}", b[j]).unwrap();
            j += 1;
        }
    }
    if want.ends_with('\n') != got.ends_with('\n') && !want.is_empty() && !got.is_empty() {
        out.push_str(" (the last line ends differently)\n");
    }
    out
}

fn indent(s: &str) -> String {
    s.lines().map(|l| format!("    {l}\n")).collect()
}

/// The errors `run` reported, against the file's error expectations:
/// problems found, if any.
fn check_errors(file: &TestFile, file_name: &str, run: &common::Run) -> Vec<String> {
    let mut problems = Vec::new();
    let regexes: Vec<Regex> = match file
        .errors
        .iter()
        .map(|p| p.regex(&HashMap::new()))
        .collect()
    {
        Ok(r) => r,
        Err(e) => return vec![e],
    };
    match file.error {
        None => {}
        Some(ErrorKind::Compile) => {
            let prefix = format!("{file_name}:");
            let reports: Vec<&str> = run
                .stderr
                .lines()
                .filter(|l| l.starts_with(&prefix))
                .collect();
            let matched = reports.len() == regexes.len()
                && reports.iter().zip(&regexes).all(|(r, re)| re.is_match(r));
            if !matched {
                let want: String = file
                    .errors
                    .iter()
                    .map(|p| format!("{}\n", p.text))
                    .collect();
                let got: String = reports.iter().map(|r| format!("{r}\n")).collect();
                problems.push(format!(
                    "the compile errors differ (each wanted line must be part of its report's):\n{}",
                    diff(&want, &got)
                ));
            }
            // Each message is said once: on stderr only as often as
            // in the reports' first lines (not again in an excerpt).
            for report in &reports {
                if let Some((_, message)) = report.split_once(": error: ") {
                    let times = run.stderr.matches(message).count();
                    let in_reports: usize =
                        reports.iter().map(|r| r.matches(message).count()).sum();
                    if times != in_reports {
                        problems.push(format!(
                            "`{message}` said {times} times on stderr, in {in_reports} reports"
                        ));
                    }
                }
            }
        }
        Some(ErrorKind::Runtime) => {
            let lines: Vec<&str> = run.stderr.lines().collect();
            let mut next = 0;
            for (pattern, re) in file.errors.iter().zip(&regexes) {
                match (next..lines.len()).find(|&l| re.is_match(lines[l])) {
                    Some(l) => next = l + 1,
                    None => {
                        problems.push(format!(
                            "no line of stderr (after the previous expectation's) contains `{}`",
                            pattern.text
                        ));
                        break;
                    }
                }
            }
        }
    }
    problems
}

struct Outcome {
    runs: usize,
    skipped: bool,
    failures: Vec<String>,
}

/// Runs every run of `file` (at `path`) and checks what it printed.
fn run_test(file: &TestFile, path: &Path) -> Outcome {
    if !file.targets.is_empty() && !file.targets.iter().any(|t| t == common::target_arch()) {
        return Outcome {
            runs: 0,
            skipped: true,
            failures: Vec::new(),
        };
    }
    let dir = path.parent().expect("a file in a directory");
    let file_name = path.file_name().unwrap().to_str().expect("a UTF-8 name");
    let mut failures = Vec::new();
    // The first run of the program, for the others to agree with.
    let mut reference: Option<(&RunSpec, String)> = None;
    for spec in &file.runs {
        let run = common::run_command(
            common::jitrun()
                .current_dir(dir)
                .arg("--verify")
                .args(&spec.flags)
                .arg(file_name),
        );
        let mut problems = Vec::new();
        let want_status = match file.error {
            Some(ErrorKind::Compile) => 1,
            Some(ErrorKind::Runtime) if !spec.prints_ir() => 2,
            _ => 0,
        };
        if run.status != want_status {
            problems.push(format!(
                "exit status {}, expected {want_status}",
                run.status
            ));
        }
        if file.error == Some(ErrorKind::Compile) || !spec.prints_ir() {
            if run.stdout != file.stdout {
                problems.push(format!(
                    "stdout differs (- expected, + printed):\n{}",
                    diff(&file.stdout, &run.stdout)
                ));
            }
            problems.extend(check_errors(file, file_name, &run));
        } else if run.status == 0 {
            if let Err(e) = run_checks(&file.name, &file.groups[spec.group], &run.stdout) {
                problems.push(e);
            }
        }
        if !spec.prints_ir() {
            let stderr = common::without_recursion_depth(&run.stderr);
            match &reference {
                None => reference = Some((spec, stderr)),
                Some((first, want)) if *want != stderr => problems.push(format!(
                    "stderr differs from that of {} (- there, + here):\n{}",
                    first.describe(&file.name),
                    diff(want, &stderr)
                )),
                Some(_) => {}
            }
        }
        if !problems.is_empty() {
            let mut msg = format!("{}\n", spec.describe(&file.name));
            for p in problems {
                msg.push_str(&indent(&p));
            }
            if !run.stderr.is_empty() {
                write!(msg, "  stderr:\n{}", indent(&run.stderr)).unwrap();
            }
            failures.push(msg);
        }
    }
    Outcome {
        runs: file.runs.len(),
        skipped: false,
        failures,
    }
}

// ---------------------------------------------------------------------
// The tests

fn files_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/files")
}

/// Every `.toy` file under `dir`, sorted.
fn discover(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "toy") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// What running a set of files came to.
struct Summary {
    failures: Vec<String>,
    runs: usize,
    skipped: usize,
    /// Each file's name and how long its runs took, slowest first.
    times: Vec<(String, f64)>,
}

/// Parses and runs the files at `paths` on all cores.
fn run_files(root: &Path, paths: &[PathBuf]) -> Summary {
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    let jobs = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..jobs.min(paths.len()) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(path) = paths.get(i) else { break };
                let name = path
                    .strip_prefix(root)
                    .unwrap_or(path)
                    .display()
                    .to_string();
                let start = Instant::now();
                let bytes = std::fs::read(path).unwrap();
                let src = String::from_utf8_lossy(&bytes);
                let outcome = match TestFile::parse(&name, &src) {
                    Ok(file) => run_test(&file, path),
                    Err(errors) => Outcome {
                        runs: 0,
                        skipped: false,
                        failures: vec![format!(
                            "{name}: bad test file\n{}",
                            indent(&errors.join("\n"))
                        )],
                    },
                };
                let time = start.elapsed().as_secs_f64();
                results.lock().unwrap().push((i, name, time, outcome));
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|(i, ..)| *i);
    let mut summary = Summary {
        failures: Vec::new(),
        runs: 0,
        skipped: 0,
        times: Vec::new(),
    };
    for (_, name, time, outcome) in results {
        summary.failures.extend(outcome.failures);
        summary.runs += outcome.runs;
        summary.skipped += usize::from(outcome.skipped);
        summary.times.push((name, time));
    }
    summary.times.sort_by(|a, b| b.1.total_cmp(&a.1));
    summary
}

#[test]
fn files() {
    let root = files_dir();
    let filter = std::env::var("JITRUN_FILETESTS").unwrap_or_default();
    let all = discover(&root);
    assert!(!all.is_empty(), "no test files under {}", root.display());
    let paths: Vec<PathBuf> = all
        .into_iter()
        .filter(|p| {
            p.strip_prefix(&root)
                .unwrap()
                .display()
                .to_string()
                .contains(&filter)
        })
        .collect();
    assert!(
        !paths.is_empty(),
        "no test file matches JITRUN_FILETESTS={filter}"
    );
    let start = Instant::now();
    let summary = run_files(&root, &paths);
    let line = format!(
        "{} files ({} skipped for another target), {} runs, {} failed runs, {:.1} s",
        paths.len(),
        summary.skipped,
        summary.runs,
        summary.failures.len(),
        start.elapsed().as_secs_f64()
    );
    let slowest: Vec<String> = summary
        .times
        .iter()
        .take(5)
        .map(|(name, t)| format!("{name} {t:.2} s"))
        .collect();
    eprintln!("filetests: {line}\nslowest: {}", slowest.join(", "));
    assert!(
        summary.failures.is_empty(),
        "\n{}\nfiletests: {line}",
        summary.failures.join("\n")
    );
}

// ---------------------------------------------------------------------
// The harness's own tests

/// The checks of `lines` (check directives, without `// `) after an
/// `--emit` run line.
fn parse_checks(lines: &str) -> Vec<Check> {
    let src: String = std::iter::once("// run: --emit clif\n".to_string())
        .chain(lines.lines().map(|l| format!("// {l}\n")))
        .collect();
    let file = TestFile::parse("t.toy", &src).unwrap_or_else(|e| panic!("{e:?}"));
    file.groups[0].clone()
}

const IR: &str = "function f:
block0(v0: i64):
    v1 = iconst.i64 1
    brif v1, block1, block2
block1:
    jump block0(v1)
block2:
    return v0
function g:
block0:
    v0: [[int]]
    return
";

#[track_caller]
fn passes(checks: &str) {
    if let Err(e) = run_checks("t.toy", &parse_checks(checks), IR) {
        panic!("`{checks}` should pass:\n{e}");
    }
}

#[track_caller]
fn fails(checks: &str, message: &str) {
    match run_checks("t.toy", &parse_checks(checks), IR) {
        Ok(()) => panic!("`{checks}` should fail"),
        Err(e) => assert!(e.contains(message), "`{checks}`: want `{message}` in\n{e}"),
    }
}

#[test]
fn checks_match_in_order_filecheck_style() {
    passes("check: block0\ncheck-next: iconst\ncheck: brif\ncheck: return v0");
    fails(
        "check: brif\ncheck: iconst",
        "t.toy:3: check: iconst\n  no match",
    );
    fails(
        "check: block0\ncheck-next: brif",
        "the next line does not match",
    );
    // Regexes, anchored to a line.
    passes("check: {{^}}block1:{{$}}\ncheck: {{^ +}}return v{{[0-9]+$}}");
    fails("check: {{^}}v1 = iconst", "no match");
    // Variables: bound by one match, the same text in later ones.
    passes("check: brif v1, [[T:block\\d+]], [[E:block\\d+]]\ncheck: [[E]]:\ncheck-next: return");
    fails(
        "check: brif v1, [[T:block\\d+]]\ncheck: jump [[T]]",
        "no match",
    );
    // `[[int]]` (not upper case) is text, not a variable.
    passes("check: v0: [[int]]");
    // check-not between two matches, or to the end.
    passes("check: brif\ncheck-not: iconst\ncheck: jump");
    fails(
        "check: block0\ncheck-not: brif\ncheck: jump",
        "matched output line 4",
    );
    fails("check: jump\ncheck-not: return", "matched output line 8");
    // Labels: the checks after one stay in its region.
    passes("check-label: function f\ncheck: return v0\ncheck-label: function g\ncheck-not: iconst");
    fails(
        "check-label: function f\ncheck-label: function g\ncheck: jump",
        "no match",
    );
    fails(
        "check-label: function g\ncheck-label: function f",
        "label not found",
    );
    // Counts: every occurrence in the region, the position unmoved.
    passes("check-count: 2 {{^block0}}\ncheck-count: 7 block\ncheck-count: >=3 block\ncheck-count: <=1 iconst");
    // A label's region ends at the next label, or at the end.
    passes("check-label: function f\ncheck-count: 1 return\ncheck-count: 1 {{^block0}}\ncheck-next: block0\ncheck-label: function g");
    fails(
        "check-label: function f\ncheck-count: 1 return",
        "found 2 occurrences",
    );
    fails("check-count: 3 return", "found 2 occurrences");
    fails("check-count: >=3 return", "found 2 occurrences");
    fails("check-count: <=1 return", "found 2 occurrences");
}

#[track_caller]
fn bad_file(src: &str, message: &str) {
    match TestFile::parse("t.toy", src) {
        Ok(_) => panic!("{src:?} should be rejected"),
        Err(e) => assert!(
            e.iter().any(|e| e.contains(message)),
            "{src:?}: want `{message}` in {e:?}"
        ),
    }
}

#[test]
fn malformed_test_files_are_errors() {
    bad_file("print(1);\n", "asserts nothing");
    bad_file("// run: -O2\nprint(1);\n", "asserts nothing");
    bad_file(
        "// expect: 1\n// expects: 2\n",
        "unknown directive `// expects:`",
    );
    bad_file("// expect: 1\n// check-nxt: x\n", "unknown directive");
    bad_file("// expect runtime eror: x\n", "unknown directive");
    bad_file(
        "// check: x\n// run: --emit ssa\n// check: y\n",
        "`check:` before any `// run:` line",
    );
    bad_file(
        "// run: -O2 --emit clif\n// expect: 1\n",
        "prints IR, but no check follows",
    );
    bad_file("// run: -O2\n// check: x\n", "no `--emit`");
    bad_file("// run: --emit ssa\n// check-next: x\n", "with no `check:`");
    bad_file(
        "// run: --emit ssa\n// check-not: [[X:v\\d]]\n",
        "may define variables",
    );
    bad_file("// run: --emit ssa\n// check: {{(}}\n", "bad regex");
    bad_file("// run: --emit ssa\n// check: {{x\n", "without `}}`");
    bad_file("// run: --emit ssa\n// check-count: x y\n", "wants N");
    bad_file("// run: --emit ssa\n// check:\n", "empty pattern");
    bad_file("// target: sparc\n// expect: 1\n", "unknown target");
    bad_file(
        "// expect: 1\n// expect compile error: x\n",
        "a compile error (which prints nothing)",
    );
    bad_file(
        "// expect runtime error: x\n// expect compile error: y\n",
        "both a compile error and a runtime error",
    );
    // Comments that only mention the words are comments.
    let file = TestFile::parse("t.toy", "// check that it runs: it does\n// expect: 1\n").unwrap();
    assert_eq!(file.stdout, "1\n");
    assert_eq!(file.runs.len(), DEFAULT_RUNS.len());
}

#[test]
fn run_lines_group_with_the_checks_after_them() {
    let file = TestFile::parse(
        "t.toy",
        "// run: -O1 --emit clif\n// run: -O2 --emit clif\n// check: a\n// run: -O2 --emit ssa\n// check-not: b\n// run: -O0\n// expect:  two spaces\nprint(1); // expect: 1\n",
    )
    .unwrap();
    let groups: Vec<usize> = file.runs.iter().map(|r| r.group).collect();
    assert_eq!(groups, [0, 0, 1, 2]);
    assert_eq!(file.groups[0].len(), 1);
    assert_eq!(file.groups[1][0].kind, CheckKind::Not);
    assert!(file.groups[2].is_empty());
    assert_eq!(file.stdout, " two spaces\n1\n");
    // Only IR runs: the program also runs at every level.
    let file = TestFile::parse("t.toy", "// run: --emit ssa\n// check: x\n").unwrap();
    let flags: Vec<String> = file.runs.iter().map(|r| r.flags.join(" ")).collect();
    assert_eq!(flags, ["--emit ssa", "-O0", "-O1", "-O2", "--interp"]);
}

/// The experiment every harness needs: a wrong expectation of each kind
/// fails the file, through the real binary, with a message naming the
/// run and the difference; the right ones pass.
#[test]
fn a_wrong_expectation_fails_the_file() {
    let outcome = |name: &str, src: &str| {
        let path = common::scratch_file(name, src.as_bytes());
        let file = TestFile::parse(name, src).unwrap_or_else(|e| panic!("{e:?}"));
        run_test(&file, &path)
    };
    let program = "fn f(n: int) -> int {\n    return n * 2;\n}\nprint(f(1));\nprint(f(2) / 0);\n";
    let right = format!(
        "// run: -O1 --emit ssa\n// check: fn f(\n// check: imul\n// expect: 2\n// expect runtime error: ft_right.toy:10:7: runtime error: division by zero\n{program}"
    );
    let good = outcome("ft_right.toy", &right);
    assert!(good.failures.is_empty(), "{}", good.failures.join("\n"));
    assert_eq!(good.runs, 5);
    for (wrong, want) in [
        ("// expect: 2", "// expect: 3"),
        ("10:7: runtime", "10:8: runtime"),
        ("division by zero", "division by one"),
        ("check: imul", "check: isub"),
        ("check: fn f(", "check-not: fn f("),
    ] {
        let src = right.replace(wrong, want);
        let bad = outcome("ft_wrong.toy", &src.replace("ft_right", "ft_wrong"));
        let all = bad.failures.join("\n");
        assert!(!bad.failures.is_empty(), "`{want}` passed");
        assert!(
            all.contains("ft_wrong.toy:") && all.contains("run"),
            "{all}"
        );
        if want.starts_with("// expect:") {
            assert!(
                all.contains(" - 3\n") && all.contains(" + 2\n"),
                "no diff:\n{all}"
            );
            assert_eq!(
                bad.failures.len(),
                4,
                "every run that runs the program:\n{all}"
            );
        }
    }
    let compile = outcome(
        "ft_compile.toy",
        "// expect compile error: ft_compile.toy:2:7: error: unknown variable `x`\nprint(x);\n",
    );
    assert!(
        compile.failures.is_empty(),
        "{}",
        compile.failures.join("\n")
    );
    for src in [
        "// expect compile error: ft_compile.toy:2:8: error: unknown variable `x`\nprint(x);\n",
        "// expect compile error: ft_compile.toy:2:7: error: unknown variable\n// expect compile error: ft_compile.toy:2:7: error: unknown variable\nprint(x);\n",
        "// expect compile error: ft_compile.toy:2:7: error: unknown variable{{$}}\nprint(x);\n",
        "// expect: 1\nprint(x);\n",
    ] {
        let bad = outcome("ft_compile.toy", src);
        assert!(!bad.failures.is_empty(), "{src:?} passed");
    }
}
