//! The optimizer's pipeline, in one place (as QBE's `main.c`): for each
//! [`OptLevel`] and [`Scope`], the ordered IR-to-IR passes ([`pipeline`])
//! and what the translator is told to do ([`Plan`]: which analyses
//! `codegen::plan::FunctionPlan::new` runs for each function, and how the
//! translator lowers).
//!
//! ```text
//! level  scope    SSA construction    IR passes (in order)                     translator (Plan)
//! -O0    any      Algorithms 1-5      -                                        bounds plan, lengths, roots; opt_level=none
//! -O1    any      + §3.1 folding      load-once                                as -O0
//! -O2    entry    + §3.1 folding      load-once, unroll-small, scalars,        + rotate, invert, float consts; speed
//!                                     thread, gvn, licm,
//!                                     reuse, version, sink, carry, reassoc,
//!                                     select, switch
//! -O2    program  + §3.1 folding      constant-globals, constant-args,         + leaf expansion, vector loops
//!                                     array-lengths, load-once, tail-calls,
//!                                     unroll-recursion, unroll-loops, inline,
//!                                     unroll-small, scalars, thread, gvn,
//!                                     alias-classes, licm, reuse,
//!                                     version, sink, carry, reassoc, select,
//!                                     switch, renew
//! ```
//!
//! [`run`] runs a list of passes over a module, verifying the IR after
//! each one when asked (`--verify`, debug builds) and printing it after
//! the passes `--print-after` names. `--passes=a,b` replaces the level's
//! list (programs only), so that a test can run one pass alone.
//!
//! A new IR-to-IR pass: write it in `src/ir/`, as a function pass
//! (`fn(&mut ir::Function, &ir::Facts)`: one function at a time, knowing
//! of the others only the module's facts; [`Run::Function`]) if it can,
//! else as a module pass (`fn(&mut ir::Module)`), add a [`Pass`] with its
//! command-line name to the lists of [`pipeline`] where it runs: the list
//! of whole programs at `-O2` has every pass ([`all`]). The verifier,
//! `--print-after` and `--passes` then know it.

use crate::ir::{self, verify::VerifyError};
use std::time::{Duration, Instant};

/// An optimization level: `-O0`, `-O1`, `-O2` (the default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum OptLevel {
    /// No optimization: SSA as Braun et al.'s algorithm builds it (with
    /// the trivial-phi and redundant-SCC removal that are part of it).
    O0,
    /// The on-the-fly optimizations of §3.1 and the cheap IR passes.
    O1,
    /// Everything, Cranelift's `speed` optimizer included.
    #[default]
    O2,
}

impl OptLevel {
    pub const ALL: [OptLevel; 3] = [OptLevel::O0, OptLevel::O1, OptLevel::O2];

    /// The level of `-O<n>`.
    pub fn from_number(n: u8) -> Option<OptLevel> {
        OptLevel::ALL.get(usize::from(n)).copied()
    }

    /// The `n` of `-O<n>`.
    pub fn number(self) -> u8 {
        match self {
            OptLevel::O0 => 0,
            OptLevel::O1 => 1,
            OptLevel::O2 => 2,
        }
    }

    /// SSA construction folds constants, simplifies arithmetic and
    /// hash-conses per block (Braun et al. §3.1).
    pub fn ssa_folding(self) -> bool {
        !matches!(self, OptLevel::O0)
    }

    /// SSA construction makes the scalar globals only the top-level code uses
    /// SSA variables of it (in whole programs).
    pub fn promotes_globals(self) -> bool {
        matches!(self, OptLevel::O2)
    }

    /// Cranelift compiles with `opt_level=speed` (else `none`).
    pub fn cranelift_speed(self) -> bool {
        matches!(self, OptLevel::O2)
    }

    /// What the translator is told to do at this level in `scope`.
    pub fn plan(self, scope: Scope) -> Plan {
        let o2 = self == OptLevel::O2;
        let program = scope == Scope::Program;
        Plan {
            cranelift_speed: self.cranelift_speed(),
            expand_small_leaves: o2 && program,
            vector_loops: o2 && program,
            rotate_loops: o2,
            invert_loop_tests: o2,
            hoist_float_constants: o2,
            split_loop_indices: o2,
        }
    }
}

impl std::fmt::Display for OptLevel {
    /// As on the command line: `-O2`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "-O{}", self.number())
    }
}

/// What a module of our IR holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// A whole program: every function it calls is in it.
    Program,
    /// A REPL entry, whose calls may reach functions of earlier entries
    /// (through slots: a function may be redefined).
    Entry,
}

/// An IR-to-IR pass.
#[derive(Debug)]
pub struct Pass {
    /// Its name for `--print-after` and `--passes`.
    pub name: &'static str,
    /// What it does, in a line.
    pub about: &'static str,
    /// It needs every callee's body at hand: whole programs only.
    pub program_only: bool,
    pub run: Run,
}

/// How a pass changes a module.
#[derive(Clone, Copy, Debug)]
pub enum Run {
    /// As a whole: it reads or changes several functions (the call graph,
    /// copies of callees, facts over the whole program).
    Module(fn(&mut ir::Module)),
    /// One function at a time, reading nothing of the others but the
    /// module's [`ir::Facts`].
    ///
    /// Architecture Invariant: a function pass changes one function and
    /// reads only it and the facts taken before a run of such passes
    /// began; its signature allows nothing else, so functions could be
    /// optimized in any order, or side by side.
    Function(fn(&mut ir::Function, &ir::Facts)),
}

impl PartialEq for Pass {
    fn eq(&self, other: &Pass) -> bool {
        self.name == other.name
    }
}

/// One load per global in functions that cannot change it (`ir::globals`).
pub static LOAD_ONCE: Pass = Pass {
    name: "load-once",
    about: "one load per global in each function that cannot change it (ir::globals)",
    program_only: false,
    run: Run::Function(|f, _| ir::globals::load_once(f)),
};

/// Globals stored once, with a constant, before any function runs,
/// read as that constant (`ir::constants`).
pub static CONSTANT_GLOBALS: Pass = Pass {
    name: "constant-globals",
    about: "globals stored once, with a constant, before any call, read as that constant; tables (arrays of constants only indexed) read at constant indices as their elements; an array global's empty array before its let not stored when nothing reads it (ir::constants)",
    program_only: true,
    run: Run::Module(ir::constants::fold_constant_globals),
};

/// Parameters every call passes the same constant for, made that
/// constant in the callee (`ir::arguments`).
pub static CONSTANT_ARGS: Pass = Pass {
    name: "constant-args",
    about:
        "parameters that every call passes one constant for become that constant (ir::arguments)",
    program_only: true,
    run: Run::Module(ir::arguments::propagate_constant_arguments),
};

/// `len` of parameters every call passes arrays of one constant length
/// for, and of results of functions that return such, made that constant
/// (`ir::sizes`).
pub static ARRAY_LENGTHS: Pass = Pass {
    name: "array-lengths",
    about: "len of a parameter every call passes arrays of one constant length for (or of a call whose function returns such) becomes that constant (ir::sizes)",
    program_only: true,
    run: Run::Module(ir::sizes::fold_lengths),
};

/// Small counted loops with constant bounds replaced by their iterations
/// (`ir::unroll`).
pub static UNROLL_LOOPS: Pass = Pass {
    name: "unroll-loops",
    about: "innermost loops from a constant to a constant, at most 8 trips, fully unrolled where that makes arrays constant-indexed: straight-line ones indexing a small array by the counter (128 copied instructions), any that read a table by it and call no recursive function (400) (ir::unroll)",
    program_only: false,
    run: Run::Function(ir::unroll::unroll_loops),
};

/// [`UNROLL_LOOPS`], and small loops for their own sake: after inlining.
pub static UNROLL_SMALL: Pass = Pass {
    name: "unroll-small",
    about: "as unroll-loops, and innermost loops from a constant to a constant of at most 8 trips without calls (128 copied instructions) fully unrolled for their own sake (ir::unroll)",
    program_only: false,
    run: Run::Function(ir::unroll::unroll_small_loops),
};

/// Calls of a function by itself in tail position (their result
/// returned, or added to or multiplied with a value) made jumps
/// (`ir::tailrec`).
pub static TAIL_CALLS: Pass = Pass {
    name: "tail-calls",
    about: "a function whose every call of itself returns its result (or that plus or times a value computed before), and that cannot otherwise fail or call another function, becomes a loop with an accumulator; each jump counts a frame for stack overflow (ir::tailrec)",
    program_only: true,
    run: Run::Module(ir::tailrec::eliminate_tail_recursion),
};

/// Small recursive functions unrolled, the calls left guarded by the
/// entry tests (`ir::inline`).
pub static UNROLL_RECURSION: Pass = Pass {
    name: "unroll-recursion",
    about: "small recursive functions unrolled two levels (three when they touch no array and all copies fit), calls guarded by the entry tests that return at once (ir::inline)",
    program_only: true,
    run: Run::Module(ir::inline::unroll_recursion),
};

/// Calls of small non-recursive functions copied into their callers by a
/// cost model, callees first (`ir::inliner`).
pub static INLINE: Pass = Pass {
    name: "inline",
    about:
        "calls of small non-recursive functions inlined by a cost model, bottom-up (ir::inliner)",
    program_only: true,
    run: Run::Module(ir::inliner::inline_calls),
};

/// Small arrays only read and written at constant indices, made
/// variables (`ir::scalars`).
pub static SCALARS: Pass = Pass {
    name: "scalars",
    about: "arrays of at most 8 elements only read and written at constant indices become one variable per element (ir::scalars)",
    program_only: false,
    run: Run::Function(|f, _| ir::scalars::replace_arrays(f)),
};

/// A loop's exit test on a short-circuit condition threaded
/// (`ir::thread`).
pub static THREAD: Pass = Pass {
    name: "thread",
    about: "a loop's exit test on a short-circuit condition (while i < n && a[i] != x) threaded (ir::thread)",
    program_only: false,
    run: Run::Function(|f, _| ir::thread::thread_branches(f)),
};

/// Short circuits whose first test is predicted to decide, threaded
/// rather than combined by `ir::select` (`ir::thread`).
pub static THREAD_LATE: Pass = Pass {
    name: "thread-late",
    about: "a short circuit whose first test is predicted to decide (it guards a call or a store; its second test compares with zero or a constant) threaded, not combined (ir::thread)",
    program_only: false,
    run: Run::Function(|f, _| ir::thread::thread_late(f)),
};

/// Reads of elements and globals that nothing changed since the last
/// read or store of them reuse its value (`ir::reuse`).
pub static REUSE: Pass = Pass {
    name: "reuse",
    about: "element and global reads nothing can have changed take the value read or stored before (ir::reuse)",
    program_only: false,
    run: Run::Function(|f, facts| ir::reuse::reuse_loads(f, &facts.effects)),
};

/// Pure instructions a dominating one already computed, replaced by its
/// value (`ir::gvn`).
pub static GVN: Pass = Pass {
    name: "gvn",
    about: "pure instructions folded and simplified as SSA construction does (§3.1), then a dominating one that computes the same gives its value; conditions the branches into a block decided are constants there, and branches on them jumps (ir::gvn)",
    program_only: false,
    run: Run::Function(|f, _| ir::gvn::number_values(f)),
};

/// Which arrays may be the same array, recorded for the passes after it
/// (`ir::alias`).
pub static ALIAS_CLASSES: Pass = Pass {
    name: "alias-classes",
    about: "array values that may be the same array joined into classes over the whole program (Steensgaard), for licm and version (ir::alias)",
    program_only: true,
    run: Run::Module(ir::alias::classify_arrays),
};

/// Element loads the loop cannot change and that need no check, run
/// once before the loop (`ir::licm`).
pub static LICM: Pass = Pass {
    name: "licm",
    about: "invariant element loads proven in bounds hoisted to their loop's preheader (ir::licm)",
    program_only: false,
    run: Run::Function(|f, facts| ir::licm::hoist_loads(f, &facts.effects)),
};

/// Innermost loops copied without the bounds checks (and with the
/// invariant loads) that tests before the loop can decide (`ir::version`).
pub static VERSION: Pass = Pass {
    name: "version",
    about: "innermost loops get a copy without the bounds checks guards before them decide, carrying the counter's remainders (ir::version)",
    program_only: false,
    run: Run::Function(|f, _| ir::version::version_loops(f)),
};

/// Stores to one element ending both predecessors of a join, made once
/// in the join (`ir::sink`).
pub static SINK: Pass = Pass {
    name: "sink",
    about:
        "unchecked stores to one element ending both predecessors of a join sunk into it (ir::sink)",
    program_only: false,
    run: Run::Function(|f, _| ir::sink::sink_stores(f)),
};

/// A read of the element a loop stored on the iteration before, carried
/// in a phi (`ir::carry`).
pub static CARRY: Pass = Pass {
    name: "carry",
    about:
        "a[j + c - s] read where the iteration before stored a[j + c], carried in a phi (ir::carry)",
    program_only: false,
    run: Run::Function(|f, _| ir::carry::carry_stored_values(f)),
};

/// Trees of one associative operation on a loop's recurrence combine
/// the carried operand last (`ir::reassoc`).
pub static REASSOC: Pass = Pass {
    name: "reassoc",
    about: "in a loop, a tree of + * & | ^ min max on ints combines the operand carried from the iteration before last (ir::reassoc)",
    program_only: false,
    run: Run::Function(|f, _| ir::reassoc::reassociate_loops(f)),
};

/// Branches whose arms only compute, replaced by selects (`ir::select`).
pub static SELECT: Pass = Pass {
    name: "select",
    about: "branches whose arms only compute become selects of their joins' phis, not where they would lengthen a loop's recurrence (ir::select)",
    program_only: false,
    run: Run::Function(|f, _| ir::select::form_selects(f)),
};

/// An `if`/`else` chain testing one value against constants, made one
/// switch (`ir::switch`).
pub static SWITCH: Pass = Pass {
    name: "switch",
    about: "an if/else chain comparing one int with eight or more dense constants becomes a jump table (ir::switch)",
    program_only: false,
    run: Run::Function(|f, _| ir::switch::form_switches(f)),
};

/// Small arrays stored into elements of arrays nothing else holds,
/// overwriting the array there when a store like it made that one
/// (`ir::renew`). Last: nothing may read an overwritten array after it.
pub static RENEW: Pass = Pass {
    name: "renew",
    about: "a[i] = [x, y] overwrites the array a[i] holds when such a store made it and nothing else can see it (ir::renew)",
    program_only: true,
    run: Run::Module(ir::renew::renew_arrays),
};

// Unrolling runs on both sides of `inline`: before (`unroll-loops`), so
// that a helper filling a small array in a loop and returning it is seen
// to return one made at constant indices (its callers then weigh the copy
// without that array); after (`unroll-small`), for loops over the arrays
// that copies now make in their callers, and for small loops for their
// own sake, which unrolled before would make their functions too large to
// inline.
/// Whole programs at `-O2`: every pass, in order.
static O2_PROGRAM: [&Pass; 23] = [
    &CONSTANT_GLOBALS,
    &CONSTANT_ARGS,
    &ARRAY_LENGTHS,
    &LOAD_ONCE,
    &TAIL_CALLS,
    &UNROLL_RECURSION,
    &UNROLL_LOOPS,
    &INLINE,
    &UNROLL_SMALL,
    &SCALARS,
    &THREAD,
    &GVN,
    &ALIAS_CLASSES,
    &LICM,
    &REUSE,
    &VERSION,
    &SINK,
    &CARRY,
    &REASSOC,
    &THREAD_LATE,
    &SELECT,
    &SWITCH,
    &RENEW,
];

/// Every IR pass, each once, in the order it first runs (whole programs
/// at `-O2` run them all).
pub fn all() -> Vec<&'static Pass> {
    let mut all: Vec<&'static Pass> = Vec::new();
    for &p in &O2_PROGRAM {
        if !all.contains(&p) {
            all.push(p);
        }
    }
    all
}

/// The IR passes at `level` in `scope`, in the order they run.
pub fn pipeline(level: OptLevel, scope: Scope) -> &'static [&'static Pass] {
    static O1: [&Pass; 1] = [&LOAD_ONCE];
    static O2_ENTRY: [&Pass; 14] = [
        &LOAD_ONCE,
        &UNROLL_SMALL,
        &SCALARS,
        &THREAD,
        &GVN,
        &LICM,
        &REUSE,
        &VERSION,
        &SINK,
        &CARRY,
        &REASSOC,
        &THREAD_LATE,
        &SELECT,
        &SWITCH,
    ];
    match (level, scope) {
        (OptLevel::O0, _) => &[],
        (OptLevel::O1, _) => &O1,
        (OptLevel::O2, Scope::Entry) => &O2_ENTRY,
        // Every pass, in order.
        (OptLevel::O2, Scope::Program) => &O2_PROGRAM,
    }
}

/// The pass named `name`.
pub fn by_name(name: &str) -> Option<&'static Pass> {
    all().into_iter().find(|p| p.name == name)
}

/// The names of all passes, for messages: `load-once, unroll-recursion, inline`.
pub fn names() -> String {
    all().iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
}

/// After which passes to print the IR (`--print-after`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrintAfter {
    All,
    Pass(&'static str),
}

impl PrintAfter {
    /// `all` or a pass's name.
    pub fn parse(text: &str) -> Result<PrintAfter, String> {
        match text {
            "all" => Ok(PrintAfter::All),
            _ => by_name(text)
                .map(|p| PrintAfter::Pass(p.name))
                .ok_or_else(|| format!("unknown pass `{text}`; the passes are: all, {}", names())),
        }
    }

    fn selects(self, pass: &Pass) -> bool {
        match self {
            PrintAfter::All => true,
            PrintAfter::Pass(name) => name == pass.name,
        }
    }
}

/// A comma-separated list of pass names (`--passes=load-once,...`; empty
/// for none).
pub fn parse_list(text: &str) -> Result<Vec<&'static Pass>, String> {
    text.split(',')
        .filter(|name| !name.is_empty())
        .map(|name| {
            by_name(name)
                .ok_or_else(|| format!("unknown pass `{name}`; the passes are: {}", names()))
        })
        .collect()
}

/// How [`run`] checks and shows its work.
#[derive(Clone, Copy, Debug, Default)]
pub struct Watch {
    /// Run our IR verifier after every pass.
    pub verify: bool,
    pub print_after: Option<PrintAfter>,
}

impl Watch {
    /// Adds `m` to `printed` if it is to be printed after `pass`.
    fn print(self, m: &ir::Module, pass: &Pass, printed: &mut String) {
        if self.print_after.is_some_and(|p| p.selects(pass)) {
            printed.push_str(&format!("; after {}\n", pass.name));
            printed.push_str(&ir::print::module_to_string(m));
        }
    }
}

/// What [`run`] leaves besides the changed module.
#[derive(Clone, Debug, Default)]
pub struct Ran {
    /// The IR text `print_after` asked for.
    pub printed: String,
    /// How long each pass took, in the order they ran (`--time`).
    pub times: Vec<(&'static str, Duration)>,
}

/// The IR failed verification after a pass.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("after pass `{pass}`: {error}")]
pub struct PassError {
    pub pass: &'static str,
    pub error: VerifyError,
}

/// Runs `passes` over `m` in order. With `watch.verify`, verifies the IR
/// after each pass; returns the IR text `watch.print_after` asks for, each
/// printout headed by `; after PASS`, and the time each pass took
/// (verification not included).
pub fn run(m: &mut ir::Module, passes: &[&Pass], watch: Watch) -> Result<Ran, PassError> {
    let mut ran = Ran::default();
    // Each module pass on its own, each run of function passes together.
    let both_function_passes =
        |a: &&Pass, b: &&Pass| matches!((a.run, b.run), (Run::Function(_), Run::Function(_)));
    for passes in passes.chunk_by(both_function_passes) {
        let Run::Module(run) = passes[0].run else {
            run_function_passes(m, passes, watch, &mut ran)?;
            continue;
        };
        let start = Instant::now();
        run(m);
        ran.times.push((passes[0].name, start.elapsed()));
        if watch.verify {
            ir::verify::verify_module(m).map_err(|error| PassError {
                pass: passes[0].name,
                error,
            })?;
        }
        watch.print(m, passes[0], &mut ran.printed);
    }
    Ok(ran)
}

/// Runs consecutive function passes ([`Run::Function`]) over every
/// function of `m`, all reading the [`ir::Facts`] as they were before the
/// first: taken out of the module for the run, so that no function pass
/// can read what another leaves in it, and put back after.
fn run_function_passes(
    m: &mut ir::Module,
    passes: &[&Pass],
    watch: Watch,
    ran: &mut Ran,
) -> Result<(), PassError> {
    let facts = m.take_facts();
    let result = passes.iter().try_for_each(|pass| {
        let Run::Function(run) = pass.run else {
            unreachable!("a run of function passes")
        };
        let mut took = Duration::ZERO;
        for f in m.all_functions_mut() {
            let start = Instant::now();
            run(f, &facts);
            took += start.elapsed();
            if watch.verify {
                ir::verify::verify_function(f).map_err(|error| PassError {
                    pass: pass.name,
                    error,
                })?;
            }
        }
        ran.times.push((pass.name, took));
        watch.print(m, pass, &mut ran.printed);
        Ok(())
    });
    m.put_facts(facts);
    result
}

/// What the translator is told to do, from the level and scope
/// ([`OptLevel::plan`]). These decisions are analyses, not IR passes:
/// `codegen::plan::FunctionPlan::new` runs them for each function before
/// it is translated, with one dominator tree and one loop forest
/// (`ir::loops`), and the translator reads their results from that
/// `FunctionPlan`:
///
/// - at every level: the bounds-check plan (`ir::bounds::plan_checks`:
///   checks proved redundant left out, grouped ones checked at once,
///   loop-entry ones in the preheader), where checks find lengths
///   (`ir::lengths`: constants, loads before loops), the collector's roots
///   (`ir::safepoints`), the remainders tested only for divisibility;
/// - the flags below, each at -O2 only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Cranelift's `opt_level=speed` (else `none`).
    pub cranelift_speed: bool,
    /// Calls of small leaf functions expanded in place
    /// (`ir::inline::is_small_leaf`; in top-level code only inside
    /// loops). Programs only: REPL code calls through slots.
    pub expand_small_leaves: bool,
    /// The loops `ir::vector` finds run pairs of iterations on
    /// `f64x2`/`i64x2`. Programs only.
    pub vector_loops: bool,
    /// The loops `ir::rotate` picks repeat their header's test at the end
    /// of the latch.
    pub rotate_loops: bool,
    /// Other loop headers branch on the negated comparison, so that the
    /// body follows the test (free only with Cranelift's egraph).
    pub invert_loop_tests: bool,
    /// Float constants used in loops (the plan's `loop_floats`) are
    /// materialized where Cranelift can hoist them.
    pub hoist_float_constants: bool,
    /// Unchecked accesses in a loop whose index adds a loop-invariant part
    /// to a varying one address from the array plus the invariant part
    /// (the plan's `split_indices`), which Cranelift hoists.
    pub split_loop_indices: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_round_trip_through_their_numbers() {
        for level in OptLevel::ALL {
            assert_eq!(OptLevel::from_number(level.number()), Some(level));
        }
        assert_eq!(OptLevel::from_number(3), None);
        assert_eq!(OptLevel::O1.to_string(), "-O1");
        assert_eq!(OptLevel::default(), OptLevel::O2);
    }

    #[test]
    fn entries_run_no_program_only_pass() {
        for level in OptLevel::ALL {
            assert!(pipeline(level, Scope::Entry)
                .iter()
                .all(|p| !p.program_only));
            assert!(!level.plan(Scope::Entry).vector_loops);
            assert!(!level.plan(Scope::Entry).expand_small_leaves);
        }
    }

    #[test]
    fn every_pass_in_a_pipeline_has_a_unique_name() {
        let all = all();
        for (i, p) in all.iter().enumerate() {
            assert_eq!(by_name(p.name), Some(*p));
            assert!(all[..i].iter().all(|q| q.name != p.name));
        }
        assert!(pipeline(OptLevel::O0, Scope::Program).is_empty());
    }

    #[test]
    fn names_are_parsed_and_unknown_ones_rejected() {
        assert_eq!(parse_list("").unwrap(), Vec::<&Pass>::new());
        assert_eq!(
            parse_list("unroll-recursion,load-once").unwrap(),
            [&UNROLL_RECURSION, &LOAD_ONCE]
        );
        let e = parse_list("load-once,gcm").unwrap_err();
        assert!(
            e.contains("`gcm`") && e.contains("load-once, tail-calls, unroll-recursion"),
            "{e}"
        );
        assert_eq!(PrintAfter::parse("all"), Ok(PrintAfter::All));
        assert!(PrintAfter::parse("sccp")
            .unwrap_err()
            .contains("all, constant-globals, constant-args, array-lengths, load-once"));
    }

    /// A pass that leaves the IR broken is named in the verifier's error.
    #[test]
    fn the_verifier_names_the_pass_that_broke_the_ir() {
        static BREAK: Pass = Pass {
            name: "break",
            about: "drops the top level's terminator",
            program_only: false,
            run: Run::Module(|m| {
                let entry = m.main.entry();
                m.main.blocks[entry].term = None;
            }),
        };
        let opts = crate::driver::Options {
            emit: Some(crate::driver::Emit::Ssa),
            passes: Some(Vec::new()),
            ..Default::default()
        };
        let src = "let x = 1; print(x);";
        let mut m = crate::driver::compile(src, &opts).expect("compiles").ssa;
        let watch = Watch {
            verify: true,
            print_after: None,
        };
        let ran = run(&mut m, &[&LOAD_ONCE], watch).expect("verifies");
        assert_eq!(ran.printed, "");
        assert_eq!(
            ran.times.iter().map(|t| t.0).collect::<Vec<_>>(),
            ["load-once"]
        );
        let e = run(&mut m, &[&LOAD_ONCE, &BREAK], watch).unwrap_err();
        assert_eq!(e.pass, "break");
        assert!(
            e.to_string()
                .starts_with("after pass `break`: IR verifier:"),
            "{e}"
        );
        // Unwatched, nothing is checked.
        let mut m = crate::driver::compile(src, &opts).expect("compiles").ssa;
        assert!(run(&mut m, &[&BREAK], Watch::default()).is_ok());
    }

    /// A function pass that breaks the IR is named too, with the first
    /// function it broke in the module's order.
    #[test]
    fn the_verifier_names_the_function_pass_and_the_first_function_it_broke() {
        static BREAK_BUT_F0: Pass = Pass {
            name: "break-but-f0",
            about: "drops the entry's terminator of every function but f0",
            program_only: false,
            run: Run::Function(|f, _| {
                if f.name != "f0" {
                    let entry = f.entry();
                    f.blocks[entry].term = None;
                }
            }),
        };
        let functions: String = (0..3)
            .map(|k| format!("fn f{k}(n: int) -> int {{ let s = 0; for i in 0..n {{ s += i * {k}; }} return s; }}\n"))
            .collect();
        let src = functions + "print(f0(3) + f2(2));";
        let opts = crate::driver::Options {
            emit: Some(crate::driver::Emit::Ssa),
            passes: Some(Vec::new()),
            ..Default::default()
        };
        let watch = Watch {
            verify: true,
            print_after: None,
        };
        let mut m = crate::driver::compile(&src, &opts).expect("compiles").ssa;
        let e = run(&mut m, &[&GVN, &BREAK_BUT_F0, &LICM], watch).unwrap_err();
        assert_eq!((e.pass, e.error.function.as_str()), ("break-but-f0", "f1"));
    }
}
