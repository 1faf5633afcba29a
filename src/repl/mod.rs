//! `jitrun` with no file: the REPL (LANGUAGE.md §8).
//!
//! This module reads entries — lines until the brackets balance — and
//! commands; [`session::Session`] compiles and runs them. On a terminal,
//! rustyline edits lines (arrows, Ctrl-R, history kept in the user's data
//! directory) and shows `>>> ` and, while brackets are open, `..( `,
//! `..[ ` or `..{ ` for the innermost one; [`editor`] adds tab completion
//! and highlighting. From a pipe the same entries are read without prompts.
//!
//! Ctrl-C while an entry runs asks its code to stop (compiled REPL code
//! polls for that at every loop back edge and after every call); at the
//! prompt it clears the line. Ctrl-D (end of input) leaves with status 0.

pub mod editor;
pub mod session;

use rustyline::error::ReadlineError;
use session::{Outcome, Session, SessionOptions};
use std::io::{BufRead, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// The name runtime errors and compile errors give entries.
pub const ENTRY_NAME: &str = "<repl>";

const PROMPT: &str = ">>> ";

const HELP: &str = "\
Enter Toy statements, expressions and functions; an entry ends at the end of
a line where its brackets balance. An expression prints its value.
Functions and globals persist; declaring a function again replaces it.

  :help                 this text
  :quit                 leave (as does Ctrl-D)
  :load FILE            run a file's items into the session
  :emit ssa|clif|asm F  show function F's code at that stage
  :time                 toggle printing compile and run time of each entry
  :reset                forget every function and global

Ctrl-C stops a running entry, or clears the line at the prompt.
";

/// One read from the user.
enum Input {
    Line(String),
    /// Ctrl-C at the prompt.
    Interrupted,
    /// Ctrl-D or the end of piped input.
    End,
}

/// Where lines come from: a terminal (with line editing) or a pipe.
trait LineSource {
    /// The next line of `entry` (empty for a new entry).
    fn read(&mut self, entry: &str) -> Input;
    fn remember(&mut self, _entry: &str) {}
    /// After each entry: what completion offers may have changed.
    fn session_changed(&mut self, _session: &Session) {}
}

struct Terminal {
    editor: rustyline::Editor<editor::ReplHelper, rustyline::history::DefaultHistory>,
    history: Option<std::path::PathBuf>,
}

impl LineSource for Terminal {
    fn read(&mut self, entry: &str) -> Input {
        let prompt = if entry.is_empty() {
            PROMPT
        } else {
            editor::continuation_prompt(entry)
        };
        match self.editor.readline(prompt) {
            Ok(line) => Input::Line(line),
            Err(ReadlineError::Interrupted) => Input::Interrupted,
            Err(_) => Input::End,
        }
    }

    fn remember(&mut self, entry: &str) {
        let _ = self.editor.add_history_entry(entry);
        if let Some(path) = &self.history {
            let _ = self.editor.append_history(path);
        }
    }

    fn session_changed(&mut self, session: &Session) {
        if let Some(helper) = self.editor.helper_mut() {
            helper.names = editor::Names {
                functions: session.function_names(),
                globals: session.global_names(),
            };
        }
    }
}

struct Piped {
    stdin: std::io::StdinLock<'static>,
}

impl LineSource for Piped {
    fn read(&mut self, _entry: &str) -> Input {
        let mut bytes = Vec::new();
        match self.stdin.read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => Input::End,
            Ok(_) => {
                // Invalid UTF-8 becomes U+FFFD, which the lexer reports
                // as an unexpected character: an error, not the end.
                let line = String::from_utf8_lossy(&bytes);
                let line = line.strip_suffix('\n').unwrap_or(&line);
                Input::Line(line.strip_suffix('\r').unwrap_or(line).to_string())
            }
        }
    }
}

/// Where the history lives between sessions: `$JITRUN_HISTORY`, else
/// `jitrun/history` in the user's data directory.
fn history_path() -> Option<std::path::PathBuf> {
    if let Some(path) = std::env::var_os("JITRUN_HISTORY") {
        return (!path.is_empty()).then(|| path.into());
    }
    let dir = dirs::data_dir()?.join("jitrun");
    std::fs::create_dir_all(&dir).ok()?;
    Some(dir.join("history"))
}

fn line_source() -> Box<dyn LineSource> {
    if std::io::stdin().is_terminal() {
        let config = rustyline::Config::builder()
            .completion_type(rustyline::CompletionType::List)
            .color_mode(editor::color_mode())
            .build();
        if let Ok(mut editor) = rustyline::Editor::with_config(config) {
            editor.set_helper(Some(editor::ReplHelper::default()));
            let history = history_path();
            if let Some(path) = &history {
                let _ = editor.load_history(path);
            }
            return Box::new(Terminal { editor, history });
        }
    }
    Box::new(Piped {
        stdin: std::io::stdin().lock(),
    })
}

/// Set while an entry compiles or runs: Ctrl-C then stops the entry
/// instead of the REPL.
static BUSY: AtomicBool = AtomicBool::new(false);

fn install_interrupt_handler() {
    let interactive = std::io::stdin().is_terminal();
    let _ = ctrlc::set_handler(move || {
        if BUSY.load(Ordering::SeqCst) {
            jitrun_runtime::request_interrupt();
        } else if !interactive {
            // Reading from a pipe: Ctrl-C ends the REPL as it would any
            // filter. (On a terminal, rustyline reads Ctrl-C as a key.)
            std::process::exit(130);
        }
    });
}

/// Runs the REPL until `:quit` or the end of input; returns the exit status.
pub fn run(opts: SessionOptions) -> i32 {
    let mut session = match Session::new(opts.clone()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("jitrun: {e}");
            return crate::driver::EXIT_INTERNAL_ERROR;
        }
    };
    let mut input = line_source();
    // After rustyline, which installs a SIGINT handler of its own.
    install_interrupt_handler();
    let mut repl = Repl {
        opts,
        time: false,
        quit: false,
    };
    let mut entry = String::new();
    while !repl.quit {
        match input.read(&entry) {
            Input::Line(line) => {
                entry.push_str(&line);
                entry.push('\n');
                if crate::syntax::brackets_open(&entry) {
                    continue;
                }
                let text = std::mem::take(&mut entry);
                if !text.trim().is_empty() {
                    input.remember(text.trim_end());
                }
                repl.handle(&mut session, &text);
                input.session_changed(&session);
            }
            Input::Interrupted => entry.clear(),
            Input::End => {
                // An entry cut off by the end of input still gets its errors.
                if !entry.trim().is_empty() {
                    repl.handle(&mut session, &entry);
                }
                break;
            }
        }
    }
    jitrun_runtime::flush_stdout();
    crate::driver::EXIT_OK
}

struct Repl {
    opts: SessionOptions,
    time: bool,
    quit: bool,
}

impl Repl {
    fn handle(&mut self, session: &mut Session, text: &str) {
        let trimmed = text.trim();
        if let Some(command) = trimmed.strip_prefix(':') {
            self.command(session, command);
        } else if !trimmed.is_empty() {
            // Without the final newline, "unexpected end of input" points
            // at the end of the last line, not at an empty line after it.
            self.eval(session, ENTRY_NAME, text.trim_end_matches('\n'), true);
        }
        let _ = std::io::stdout().flush();
    }

    fn eval(&mut self, session: &mut Session, name: &str, src: &str, echo: bool) -> Outcome {
        BUSY.store(true, Ordering::SeqCst);
        let (outcome, times) = session.eval(name, src, echo);
        BUSY.store(false, Ordering::SeqCst);
        if self.time && outcome != Outcome::CompileError {
            eprintln!(
                "compile {:.3} ms, run {:.3} ms",
                times.compile.as_secs_f64() * 1e3,
                times.run.as_secs_f64() * 1e3
            );
        }
        outcome
    }

    fn command(&mut self, session: &mut Session, command: &str) {
        let mut words = command.split_whitespace();
        let name = words.next().unwrap_or("");
        let args: Vec<&str> = words.collect();
        match (name, args.as_slice()) {
            ("help" | "h" | "?", []) => print!("{HELP}"),
            ("quit" | "q", []) => self.quit = true,
            ("time", []) => {
                self.time = !self.time;
                println!("timing {}", if self.time { "on" } else { "off" });
            }
            ("reset", []) => match Session::new(self.opts.clone()) {
                Ok(fresh) => {
                    *session = fresh;
                    println!("session reset");
                }
                Err(e) => eprintln!("jitrun: {e}"),
            },
            ("load", [file]) => self.load(session, file),
            ("emit", [stage, function]) => match session.emit(stage, function) {
                Ok(text) => print!("{text}"),
                Err(message) => eprintln!("error: {message}"),
            },
            ("load", _) => eprintln!("error: usage: :load FILE"),
            ("emit", _) => eprintln!("error: usage: :emit ssa|clif|asm FUNCTION"),
            _ => eprintln!("error: unknown command `:{command}` (:help lists them)"),
        }
    }

    fn load(&mut self, session: &mut Session, file: &str) {
        let bytes = match std::fs::read(file) {
            Ok(bytes) => bytes,
            Err(e) => {
                eprintln!("error: cannot read `{file}`: {e}");
                return;
            }
        };
        if let Ok(src) = crate::driver::decode_source(file, bytes) {
            self.eval(session, file, &src, false);
        }
    }
}
