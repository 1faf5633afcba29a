//! A REPL session: the state entries share, and the passes each entry
//! goes through ([`Session::eval`], the REPL's counterpart of
//! `driver::compile`).
//!
//! Functions and globals persist between entries (LANGUAGE.md §8). An
//! entry is checked against the session's [`check::Env`], lowered to SSA
//! and compiled into a JIT module of its own ([`codegen::compile_entry`]);
//! its code reaches the session through absolute addresses: a table with
//! one slot per function (calls are indirect, so redefining a function is
//! one store into its slot and code compiled earlier calls the new body)
//! and one cell per global. Nothing of the session changes until the
//! entry has compiled, so a compile error changes nothing.

use crate::check::{self, tast};
use crate::codegen::{self, CodegenOptions, Compiled, SessionLinks};
use crate::diag::{self, LineIndex};
use crate::driver::CompileError;
use crate::entity::EntityRef;
use crate::ir;
use crate::passes::{self, OptLevel, Scope, Watch};
use crate::ssa::lower::{self, SsaOptions};
use crate::syntax::{self, SyntaxError};
use cranelift_codegen::isa::OwnedTargetIsa;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Settings of a session.
#[derive(Clone, Debug)]
pub struct SessionOptions {
    pub opt_level: OptLevel,
    /// Run our IR verifier and Cranelift's on every entry.
    pub verify: bool,
}

/// What became of an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Compiled and ran to its end.
    Done,
    /// Not compiled (errors reported); the session is unchanged.
    CompileError,
    /// Stopped by a runtime error (reported); what ran before it stays.
    RuntimeError,
    /// Stopped by Ctrl-C.
    Interrupted,
}

/// How long an entry took, for `:time`.
#[derive(Clone, Copy, Debug, Default)]
pub struct EntryTimes {
    pub compile: Duration,
    pub run: Duration,
}

/// Fixed-address 8-byte cells, allocated in chunks that never move:
/// compiled code holds their addresses.
#[derive(Default)]
struct Cells {
    chunks: Vec<Box<[AtomicU64]>>,
}

const CELLS_PER_CHUNK: usize = 1024;

impl Cells {
    fn cell(&mut self, index: usize) -> &AtomicU64 {
        let (chunk, i) = (index / CELLS_PER_CHUNK, index % CELLS_PER_CHUNK);
        while self.chunks.len() <= chunk {
            self.chunks
                .push((0..CELLS_PER_CHUNK).map(|_| AtomicU64::new(0)).collect());
        }
        &self.chunks[chunk][i]
    }

    fn addresses(&mut self, count: usize) -> Vec<usize> {
        (0..count)
            .map(|i| self.cell(i) as *const AtomicU64 as usize)
            .collect()
    }
}

/// An entry compiled, not yet part of the session.
struct Entry {
    /// The session's declarations with the entry's.
    env: check::Env,
    ssa: ir::Module,
    /// The id of each of `ssa.functions`.
    function_ids: Vec<tast::FuncId>,
    code: Compiled,
}

/// A function as it is currently defined: its SSA for `:emit`, and the
/// module its code lives in.
struct Definition {
    ssa: ir::Function,
    /// The string literals of the entry that defined it.
    strings: Vec<String>,
    /// The index in `Session::kept` of the module holding its code.
    module: usize,
}

pub struct Session {
    opts: SessionOptions,
    isa: OwnedTargetIsa,
    env: check::Env,
    /// By function id: the address of its current code.
    slots: Cells,
    /// By global id: its value.
    globals: Cells,
    /// By function id.
    definitions: Vec<Option<Definition>>,
    /// Modules with a function in some slot, and how many: their code
    /// must live. A module whose functions were all redefined is freed.
    kept: Vec<Option<(Compiled, usize)>>,
    /// Entries are numbered on from each other's lines, so that a runtime
    /// error in code of any earlier entry names the right source.
    next_line: u32,
    /// The cells registered with the collector as roots: the array
    /// globals code can still reach ([`Session::update_roots`]).
    roots: Vec<usize>,
}

impl Session {
    pub fn new(opts: SessionOptions) -> Result<Session, CompileError> {
        let isa = codegen::make_isa(&codegen_options(&opts))?;
        jitrun_runtime::set_recoverable(true);
        Ok(Session {
            opts,
            isa,
            env: check::Env::default(),
            slots: Cells::default(),
            globals: Cells::default(),
            definitions: Vec::new(),
            kept: Vec::new(),
            next_line: 1,
            roots: Vec::new(),
        })
    }

    /// Compiles and runs one entry. `name` is what messages call its
    /// source; with `echo`, the value of each top-level expression
    /// statement is printed as `print` would.
    pub fn eval(&mut self, name: &str, src: &str, echo: bool) -> (Outcome, EntryTimes) {
        let mut times = EntryTimes::default();
        let start = Instant::now();
        let first_line = self.next_line;
        let lines = LineIndex::starting_at(src, first_line);
        let compiled = match self.compile(src, &lines, echo) {
            Ok(c) => c,
            Err(e) => {
                report(name, src, &e);
                return (Outcome::CompileError, times);
            }
        };
        times.compile = start.elapsed();
        self.next_line += lines.line_count();
        jitrun_runtime::add_source(first_line, name);
        let defined = compiled.function_ids.len();
        let globals_before = self.env.globals().len();
        let compiled = self.commit(compiled);
        // While the entry runs, its top-level code also reaches the
        // globals it declares and then shadows itself.
        self.update_roots(globals_before);

        let start = Instant::now();
        // Ctrl-C while the entry compiled: it stops before its first
        // statement, as it would have at its first check.
        let interrupted = jitrun_runtime::take_pending() == jitrun_runtime::PENDING_INTERRUPT;
        let ran = if interrupted {
            jitrun_runtime::request_interrupt();
            Ok(())
        } else {
            compiled.run()
        };
        times.run = start.elapsed();
        let outcome = match (ran, jitrun_runtime::take_pending()) {
            (Err(e), _) => {
                eprintln!("jitrun: {e}");
                Outcome::RuntimeError
            }
            (Ok(()), jitrun_runtime::PENDING_ERROR) => Outcome::RuntimeError,
            (Ok(()), jitrun_runtime::PENDING_INTERRUPT) => {
                jitrun_runtime::flush_stdout();
                eprintln!("interrupted");
                Outcome::Interrupted
            }
            (Ok(()), _) => Outcome::Done,
        };
        self.keep_or_free(compiled, defined);
        self.update_roots(self.env.globals().len());
        (outcome, times)
    }

    /// Registers as the collector's roots the cells of the array globals
    /// that code can still reach — the first and the newest of each name —
    /// and of those from `from_global` on (an entry's own, while it runs).
    /// A cell of a name declared again in between is no root: the arrays
    /// it held are freed.
    fn update_roots(&mut self, from_global: usize) {
        let globals = self.env.globals();
        let mut ids: Vec<usize> = self
            .env
            .reachable_globals()
            .iter()
            .map(|g| g.index())
            .collect();
        ids.extend(from_global..globals.len());
        ids.retain(|&g| matches!(globals[g].ty, crate::types::Type::Array(_)));
        ids.sort_unstable();
        ids.dedup();
        let cells: Vec<usize> = (ids.iter())
            .map(|&g| self.globals.cell(g) as *const AtomicU64 as usize)
            .collect();
        jitrun_runtime::gc::add_global_roots(&cells);
        jitrun_runtime::gc::remove_global_roots(&self.roots);
        self.roots = cells;
    }

    /// Keeps the module of an entry that has run if it defined functions
    /// (now in their slots; `commit` gave them this module's index), else
    /// frees it.
    fn keep_or_free(&mut self, compiled: Compiled, defined: usize) {
        if defined == 0 {
            // SAFETY: the entry defined no function, so no slot holds an
            // address into this module and its code has finished running.
            unsafe { compiled.free() };
        } else {
            self.kept.push(Some((compiled, defined)));
        }
    }

    /// One function of module `m` was replaced in its slot: frees the
    /// module when none of its functions is left.
    fn release(&mut self, m: usize) {
        let Some((_, live)) = &mut self.kept[m] else {
            return;
        };
        *live -= 1;
        if *live == 0 {
            let (old, _) = self.kept[m].take().expect("just seen");
            // SAFETY: every function of `old` has been replaced in its
            // slot, and no compiled code is running between entries.
            unsafe { old.free() };
        }
    }

    /// The passes of an entry: parse → check against the session →
    /// SSA construction → verify → the IR passes of
    /// `passes::pipeline(level, Scope::Entry)`, each verified → Cranelift.
    /// Changes nothing.
    fn compile(&mut self, src: &str, lines: &LineIndex, echo: bool) -> Result<Entry, CompileError> {
        let ast = parse_entry(src).map_err(CompileError::Syntax)?;
        let (mut checked, env) =
            check::check_entry(&self.env, &ast).map_err(CompileError::Check)?;
        if echo {
            echo_values(&mut checked.main);
        }
        // Globals outlive the entry: they stay in memory.
        let ssa_opts = SsaOptions {
            optimize: self.opts.opt_level.ssa_folding(),
            mode: Default::default(),
            promote_globals: false,
        };
        let (mut ssa, _) = lower::lower_program(&checked, lines, ssa_opts);
        let watch = Watch {
            verify: self.opts.verify,
            print_after: None,
        };
        if watch.verify {
            ir::verify::verify_module(&ssa)?;
        }
        passes::run(
            &mut ssa,
            passes::pipeline(self.opts.opt_level, Scope::Entry),
            watch,
        )?;
        let code = self.compile_linked(&ssa, env.function_count(), checked.globals.len())?;
        Ok(Entry {
            env,
            ssa,
            function_ids: checked.function_ids,
            code,
        })
    }

    fn compile_linked(
        &mut self,
        ssa: &ir::Module,
        functions: usize,
        globals: usize,
    ) -> Result<Compiled, CompileError> {
        let function_slots = self.slots.addresses(functions);
        let global_cells = self.globals.addresses(globals);
        let links = SessionLinks {
            function_slots: &function_slots,
            global_cells: &global_cells,
        };
        let cg = codegen_options(&self.opts);
        Ok(codegen::compile_entry(ssa, self.isa.clone(), &cg, &links)?)
    }

    /// Makes a compiled entry part of the session: its declarations, and
    /// its functions in their slots (replacing earlier definitions).
    fn commit(&mut self, entry: Entry) -> Compiled {
        self.env = entry.env;
        // Where `keep_or_free` will keep this entry's module.
        let module = self.kept.len();
        let addresses = entry.code.function_addresses();
        let functions = entry.ssa.functions.iter().zip(&entry.function_ids);
        for ((f, id), address) in functions.zip(addresses) {
            let id = id.index();
            self.slots.cell(id).store(address as u64, Ordering::SeqCst);
            if self.definitions.len() <= id {
                self.definitions.resize_with(id + 1, || None);
            }
            let replaced = self.definitions[id].replace(Definition {
                ssa: f.clone(),
                strings: entry.ssa.strings.clone(),
                module,
            });
            if let Some(old) = replaced {
                self.release(old.module);
            }
        }
        entry.code
    }

    /// The functions currently declared, by name (for completion).
    pub fn function_names(&self) -> Vec<String> {
        (self.definitions.iter().flatten())
            .map(|d| d.ssa.name.clone())
            .filter(|name| self.env.function(name).is_some())
            .collect()
    }

    /// The globals declared so far, by name (for completion).
    pub fn global_names(&self) -> Vec<String> {
        (self.env.globals().iter())
            .map(|g| g.name.clone())
            .collect()
    }

    /// The code of function `name` at a stage: `ssa`, `clif` or `asm`.
    pub fn emit(&mut self, stage: &str, name: &str) -> Result<String, String> {
        let id = self
            .env
            .function(name)
            .ok_or_else(|| format!("no function `{name}` is defined"))?;
        let def = self.definitions[id.index()]
            .as_ref()
            .expect("a declared function has a definition");
        if stage == "ssa" {
            return Ok(ir::print::function_to_string(&def.ssa));
        }
        let keep_clif = stage == "clif";
        let keep_asm = stage == "asm";
        if !keep_clif && !keep_asm {
            return Err(format!("unknown stage `{stage}` (ssa, clif or asm)"));
        }
        let module = ir::Module {
            functions: vec![def.ssa.clone()],
            main: empty_main(),
            globals: Vec::new(),
            strings: def.strings.clone(),
            effects: Vec::new(),
            tables: Default::default(),
        };
        let cg = CodegenOptions {
            keep_clif,
            keep_asm,
            ..codegen_options(&self.opts)
        };
        let function_slots = self.slots.addresses(self.env.function_count());
        let global_cells = self.globals.addresses(self.env.globals().len());
        let links = SessionLinks {
            function_slots: &function_slots,
            global_cells: &global_cells,
        };
        let compiled = codegen::compile_entry(&module, self.isa.clone(), &cg, &links)
            .map_err(|e| e.to_string())?;
        let text = if keep_clif {
            compiled.clif.clone()
        } else {
            compiled.asm.clone()
        };
        // SAFETY: nothing of this module was stored or run.
        unsafe { compiled.free() };
        // Only the function, not the empty top level compiled with it.
        let main = codegen::mangle(check::TOP_LEVEL);
        let main_starts = text
            .find(&format!("; {main}\n"))
            .or_else(|| text.find(&format!("{main}:\n")));
        Ok(text[..main_starts.unwrap_or(text.len())].to_string())
    }
}

fn codegen_options(opts: &SessionOptions) -> CodegenOptions {
    CodegenOptions::host(opts.opt_level.plan(Scope::Entry), opts.verify)
}

/// A top-level statement that does nothing, for compiling one function.
fn empty_main() -> ir::Function {
    let mut b = crate::ssa::builder::SsaBuilder::new(check::TOP_LEVEL, &[], None, false);
    b.ret(None);
    b.finish().0
}

/// Parses an entry. An entry that is an expression may omit its `;`
/// (`1 + 2`): when the entry does not parse, it is tried again with one.
fn parse_entry(src: &str) -> Result<syntax::ast::Program, Vec<SyntaxError>> {
    match syntax::parse(src) {
        Ok(program) => Ok(program),
        Err(errors) => {
            let end = src.trim_end();
            if end.ends_with(';') || end.ends_with('}') || end.is_empty() {
                return Err(errors);
            }
            syntax::parse(&format!("{end};")).map_err(|_| errors)
        }
    }
}

/// Turns each top-level expression statement that has a value into a
/// `print` of it: what the REPL shows for `1 + 2` or `f(3)`.
fn echo_values(main: &mut tast::Function) {
    for stmt in &mut main.body {
        if let tast::Stmt::Expr(e) = stmt {
            if e.ty.is_some() {
                let span = e.span.clone();
                let value = std::mem::replace(
                    e,
                    tast::Expr {
                        kind: tast::ExprKind::Bool(false),
                        ty: None,
                        span: span.clone(),
                    },
                );
                *e = tast::Expr {
                    kind: tast::ExprKind::Builtin(tast::Builtin::Print, vec![value]),
                    ty: None,
                    span,
                };
            }
        }
    }
}

/// Prints compile errors as `name:line:col: error: …` with an excerpt.
fn report(name: &str, src: &str, e: &CompileError) {
    if !e.is_user_error() {
        eprintln!("jitrun: internal compiler error: {e}");
        return;
    }
    // Compile errors are about the entry just typed: its own line numbers.
    let lines = LineIndex::new(src);
    for d in e.diagnostics() {
        diag::emit(name, src, &lines, &d);
    }
}
