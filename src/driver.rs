//! The driver: the passes of jitrun, in order, in one function
//! ([`compile`]). Everything else in the crate is a stage it calls.

use crate::check::{self, CheckError};
use crate::codegen::{self, CodegenError, CodegenOptions, Compiled};
use crate::diag::{self, Diagnostic, LineIndex};
use crate::ir::{self, verify::VerifyError};
use crate::passes::{self, Pass, PassError, PrintAfter, Watch};
pub use crate::passes::{OptLevel, Scope};
use crate::ssa::builder::SsaMode;
use crate::ssa::lower::{FunctionStats, SsaOptions};
use crate::ssa::{self};
use crate::stats::{self, StatsFormat};
use crate::syntax::{self, SyntaxError};
use std::time::{Duration, Instant};

/// What to print instead of running the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Emit {
    Ast,
    Ssa,
    Clif,
    Asm,
    /// The SSA CFG as Graphviz.
    Dot,
}

#[derive(Clone, Debug)]
pub struct Options {
    /// What to optimize; `passes::pipeline` and `OptLevel::plan` say how.
    pub opt_level: OptLevel,
    /// The IR passes to run instead of the level's (`--passes`).
    pub passes: Option<Vec<&'static Pass>>,
    /// Print the IR after these passes, then stop (`--print-after`).
    pub print_after: Option<PrintAfter>,
    pub emit: Option<Emit>,
    pub target: Option<String>,
    /// Run our IR verifier and Cranelift's verifier.
    pub verify: bool,
    /// Print construction statistics and phase times on stderr.
    pub stats: Option<StatsFormat>,
    /// Run the SSA IR with the reference interpreter instead of compiling it.
    pub interp: bool,
    /// How SSA construction places phis.
    pub ssa_mode: SsaMode,
    /// Leave out the on-the-fly optimizations of §3.1 even at `-O1` and
    /// up (to measure what they buy: the paper's Table 3).
    pub no_ssa_opt: bool,
    /// Print a table of phase times and sizes on stderr after the run.
    pub time: bool,
}

impl Options {
    /// Whether [`compile`] goes on to Cranelift: not when it stops at
    /// the IR (`--print-after`, `--emit ast|ssa|dot`) or interprets it.
    pub fn generates_code(&self) -> bool {
        let stops_at_ir = self.print_after.is_some()
            || matches!(self.emit, Some(Emit::Ast | Emit::Ssa | Emit::Dot));
        let interprets = self.interp && self.emit.is_none();
        !stops_at_ir && !interprets
    }

    /// Whether the code it generates is for this machine (no `--target`,
    /// or the host's own).
    pub fn generates_host_code(&self) -> bool {
        self.generates_code() && codegen::foreign_target(self.target.as_deref()).is_none()
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            opt_level: OptLevel::O2,
            passes: None,
            print_after: None,
            emit: None,
            target: None,
            verify: cfg!(debug_assertions),
            stats: None,
            interp: false,
            ssa_mode: SsaMode::default(),
            no_ssa_opt: false,
            time: false,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum CompileError {
    #[error("syntax errors")]
    Syntax(Vec<SyntaxError>),
    #[error("type errors")]
    Check(Vec<CheckError>),
    #[error(transparent)]
    Verify(#[from] VerifyError),
    #[error(transparent)]
    Pass(#[from] PassError),
    #[error(transparent)]
    Codegen(#[from] CodegenError),
}

impl CompileError {
    /// Errors in the user's program (as opposed to errors of jitrun).
    pub fn is_user_error(&self) -> bool {
        matches!(self, CompileError::Syntax(_) | CompileError::Check(_))
    }

    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        match self {
            CompileError::Syntax(errors) => errors
                .iter()
                .map(|e| Diagnostic {
                    span: e.span.clone(),
                    message: e.message.clone(),
                    labels: vec![(e.span.clone(), e.label.clone())],
                })
                .collect(),
            CompileError::Check(errors) => errors
                .iter()
                .map(|e| Diagnostic {
                    span: e.span.clone(),
                    message: e.to_string(),
                    labels: e.labels.clone(),
                })
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// Time spent in each phase.
#[derive(Clone, Debug, Default)]
pub struct Timings {
    pub parse: Duration,
    pub check: Duration,
    /// SSA construction and the IR passes.
    pub ssa: Duration,
    /// Each IR pass, in the order they ran (part of `ssa`).
    pub passes: Vec<(&'static str, Duration)>,
    /// Cranelift compilation, finalization included.
    pub codegen: Duration,
    pub run: Duration,
}

/// The products of compilation.
pub struct Artifacts {
    pub ast: Option<syntax::ast::Program>,
    pub ast_nodes: usize,
    pub ssa: ir::Module,
    /// The IR text `--print-after` asked for.
    pub printed: String,
    pub stats: Vec<FunctionStats>,
    /// `None` when `--emit ast` or `--emit ssa` stopped before code generation.
    pub compiled: Option<Compiled>,
    pub timings: Timings,
}

fn timed<T>(slot: &mut Duration, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    *slot = start.elapsed();
    out
}

/// Compiles a program: parse → check → SSA construction (Braun et al.)
/// → verify → the IR passes of [`Options::passes`] or
/// [`passes::pipeline`], each verified (timed with SSA construction) →
/// Cranelift code generation, as [`OptLevel::plan`] says.
pub fn compile(src: &str, opts: &Options) -> Result<Artifacts, CompileError> {
    let mut t = Timings::default();
    let ast = timed(&mut t.parse, || syntax::parse(src)).map_err(CompileError::Syntax)?;
    let checked = match timed(&mut t.check, || check::check(&ast)) {
        Ok(checked) => checked,
        Err(errors) => {
            // Only a tree that failed the depth checks can be too deep to
            // drop recursively; leak that one (the caller reports and ends).
            std::mem::forget(ast);
            return Err(CompileError::Check(errors));
        }
    };
    let ast_nodes = ast.node_count();
    // Each tree is dropped once the next stage has been built from it, so
    // that big programs never hold all of them at once.
    let ast = (opts.emit == Some(Emit::Ast)).then_some(ast);
    let lines = LineIndex::new(src);
    let ir_passes = match &opts.passes {
        Some(list) => &list[..],
        None => passes::pipeline(opts.opt_level, Scope::Program),
    };
    let watch = Watch {
        verify: opts.verify,
        print_after: opts.print_after,
    };
    let (ssa, stats, ran) = timed(&mut t.ssa, || {
        let ssa_opts = SsaOptions {
            optimize: opts.opt_level.ssa_folding() && !opts.no_ssa_opt,
            mode: opts.ssa_mode,
            promote_globals: opts.opt_level.promotes_globals() && !opts.no_ssa_opt,
        };
        let (mut ssa, stats) = ssa::lower::lower_program(&checked, &lines, ssa_opts);
        if opts.verify {
            ir::verify::verify_module(&ssa)?;
        }
        let ran = passes::run(&mut ssa, ir_passes, watch)?;
        Ok::<_, CompileError>((ssa, stats, ran))
    })?;
    t.passes = ran.times;
    drop(checked);
    let compiled = if opts.generates_code() {
        let cg = CodegenOptions {
            target: codegen::foreign_target(opts.target.as_deref()),
            keep_clif: opts.emit == Some(Emit::Clif),
            keep_asm: opts.emit == Some(Emit::Asm),
            ..CodegenOptions::host(opts.opt_level.plan(Scope::Program), opts.verify)
        };
        Some(timed(&mut t.codegen, || codegen::compile(&ssa, &cg))?)
    } else {
        None
    };
    Ok(Artifacts {
        ast,
        ast_nodes,
        ssa,
        printed: ran.printed,
        stats,
        compiled,
        timings: t,
    })
}

/// Exit status of a run that compiled and ran to its end.
pub const EXIT_OK: i32 = 0;
/// Exit status for errors in the program (LANGUAGE.md §7).
pub const EXIT_COMPILE_ERROR: i32 = 1;
/// Exit status for errors of jitrun itself.
pub const EXIT_INTERNAL_ERROR: i32 = 3;

/// Compiles `src` (named `name` in messages) and runs it or prints what
/// `--emit` asks for. Returns the process exit status; runtime errors end
/// the process from inside the runtime with status 2.
pub fn run_source(name: &str, src: &str, opts: &Options) -> i32 {
    jitrun_runtime::set_source_name(name);
    let artifacts = match compile(src, opts) {
        Ok(a) => a,
        Err(e) => return report_compile_error(name, src, &e),
    };
    let mut artifacts = artifacts;
    let (out, code) = match opts.emit {
        // `--print-after` stops after the passes, as `--emit ssa` does.
        _ if opts.print_after.is_some() => (std::mem::take(&mut artifacts.printed), EXIT_OK),
        Some(Emit::Ast) => (
            format!("{:#?}\n", artifacts.ast.as_ref().expect("kept for emit")),
            EXIT_OK,
        ),
        Some(Emit::Ssa) => (ir::print::module_to_string(&artifacts.ssa), EXIT_OK),
        Some(Emit::Dot) => (ir::dot::module_to_dot(&artifacts.ssa), EXIT_OK),
        Some(Emit::Clif) => (compiled_text(&artifacts, |c| &c.clif), EXIT_OK),
        Some(Emit::Asm) => (compiled_text(&artifacts, |c| &c.asm), EXIT_OK),
        None if opts.interp => {
            let start = Instant::now();
            crate::interp::run(&artifacts.ssa);
            artifacts.timings.run = start.elapsed();
            (String::new(), EXIT_OK)
        }
        None => {
            let compiled = artifacts.compiled.as_ref().expect("compiled for running");
            let start = Instant::now();
            let result = compiled.run();
            artifacts.timings.run = start.elapsed();
            match result {
                Ok(()) => (String::new(), EXIT_OK),
                Err(e) => {
                    eprintln!("jitrun: {e}");
                    (String::new(), EXIT_INTERNAL_ERROR)
                }
            }
        }
    };
    print_all(&out);
    if let Some(format) = opts.stats {
        let reports = stats::function_reports(&artifacts.ssa, &artifacts.stats);
        eprint!("{}", stats::render(format, &reports, &artifacts.timings));
    }
    if opts.time {
        eprint!("{}", stats::time_table(&artifacts));
    }
    code
}

fn compiled_text(artifacts: &Artifacts, pick: impl Fn(&Compiled) -> &String) -> String {
    artifacts
        .compiled
        .as_ref()
        .map(pick)
        .cloned()
        .unwrap_or_default()
}

fn print_all(text: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    let _ = stdout
        .write_all(text.as_bytes())
        .and_then(|_| stdout.flush());
}

pub fn report_compile_error(name: &str, src: &str, e: &CompileError) -> i32 {
    if !e.is_user_error() {
        eprintln!("jitrun: internal compiler error: {e}");
        return EXIT_INTERNAL_ERROR;
    }
    let lines = LineIndex::new(src);
    for d in e.diagnostics() {
        diag::emit(name, src, &lines, &d);
    }
    EXIT_COMPILE_ERROR
}

/// Decodes a source file; invalid UTF-8 is a compile error at the position
/// of the first bad byte.
pub fn decode_source(name: &str, bytes: Vec<u8>) -> Result<String, i32> {
    String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let valid = std::str::from_utf8(valid).expect("prefix is valid");
        let (line, col) = LineIndex::new(valid).line_col(valid.chars().count());
        eprintln!("{name}:{line}:{col}: error: the file is not valid UTF-8");
        EXIT_COMPILE_ERROR
    })
}
