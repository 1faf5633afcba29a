//! The `jitrun` command line.

use clap::builder::TypedValueParser;
use clap::{CommandFactory, Parser, ValueEnum};
use jitrun::driver::{self, Emit, Options};
use jitrun::passes::{self, OptLevel, Pass, PrintAfter, Scope};
use jitrun::repl::session::SessionOptions;
use jitrun::ssa::builder::SsaMode;
use jitrun::stats::StatsFormat;
use jitrun_runtime::gc;
use std::io::Read;

#[derive(Clone, Copy, Debug, ValueEnum)]
enum EmitArg {
    /// The syntax tree
    Ast,
    /// Our SSA IR, as built by Braun et al.'s algorithm
    Ssa,
    /// Cranelift IR
    Clif,
    /// Machine code
    Asm,
    /// The SSA CFG as Graphviz, phis and instructions in the blocks
    Dot,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum SsaArg {
    /// Algorithm 2: a phi before recursing, removed if trivial
    Braun,
    /// The marker algorithm of §3.3: no temporary phis in acyclic regions (default)
    Marker,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum StatsArg {
    /// A readable table
    Table,
    /// One JSON object per line
    Json,
}

/// A just-in-time compiler for the Toy language.
#[derive(Parser, Debug)]
#[command(name = "jitrun", version, about)]
struct Cli {
    /// The program to run (`-` reads it from standard input); without
    /// one, jitrun starts a REPL
    file: Option<String>,

    /// Print a stage's output instead of running the program
    #[arg(long, value_enum)]
    emit: Option<EmitArg>,

    /// Optimization level: 0 none, 1 on-the-fly SSA optimizations,
    /// 2 (default) also Cranelift's optimizer
    #[arg(
        short = 'O',
        value_parser = clap::value_parser!(u8)
            .range(0..=2)
            .map(|n| OptLevel::from_number(n).expect("in range")),
        default_value = "2"
    )]
    opt_level: OptLevel,

    /// Compile for this target triple (e.g. aarch64-unknown-linux-gnu);
    /// code for another machine can be printed, not run
    #[arg(long, value_parser = parse_target)]
    target: Option<String>,

    /// Run the IR verifiers (ours and Cranelift's); always on in debug builds
    #[arg(long)]
    verify: bool,

    /// How SSA construction places phis at joins
    #[arg(long, value_enum, default_value = "marker")]
    ssa: SsaArg,

    /// Build SSA without the on-the-fly optimizations of Braun et al. §3.1
    /// (folding, simplification, CSE), whatever the -O level
    #[arg(long)]
    no_ssa_opt: bool,

    /// Run the program with the reference interpreter of our SSA IR
    /// instead of compiling it
    #[arg(long, conflicts_with_all = ["emit", "target"])]
    interp: bool,

    /// Print our SSA IR after the IR pass PASS (`all`: after each), each
    /// printout headed by `; after PASS`, then stop as --emit does
    #[arg(
        long,
        value_name = "PASS",
        value_parser = PrintAfter::parse,
        requires = "file",
        conflicts_with_all = ["emit", "interp"]
    )]
    print_after: Option<PrintAfter>,

    /// Run exactly these IR passes, in this order, instead of the -O
    /// level's (comma-separated; empty for none)
    #[arg(long, value_name = "PASS,...", value_parser = parse_passes, requires = "file")]
    passes: Option<PassList>,

    /// After the run, print phase times and program sizes on stderr
    #[arg(long)]
    time: bool,

    /// After the run, print SSA construction statistics and phase times on
    /// stderr (`--stats=json`: one JSON object per line)
    #[arg(long, value_enum, num_args = 0..=1, require_equals = true, default_missing_value = "table")]
    stats: Option<StatsArg>,

    /// Most memory the program's arrays may take (e.g. 512M, 2G, 100000;
    /// default: three quarters of physical memory); past it an allocation
    /// is a runtime error `out of memory`
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    max_heap: Option<usize>,

    /// Write /tmp/perf-PID.map, naming compiled Toy functions for `perf`
    #[arg(long)]
    perf_map: bool,
}

/// The IR passes `--passes` names.
#[derive(Clone, Debug)]
struct PassList(Vec<&'static Pass>);

fn parse_passes(text: &str) -> Result<PassList, String> {
    passes::parse_list(text).map(PassList)
}

/// A target triple Cranelift can compile for: a wrong one is a usage
/// error, told before anything is compiled.
fn parse_target(text: &str) -> Result<String, String> {
    jitrun::codegen::check_target(text)?;
    Ok(text.to_string())
}

/// A size in bytes, with an optional K, M or G (powers of 1024; a trailing
/// B or iB is allowed).
fn parse_size(text: &str) -> Result<usize, String> {
    let t = text.trim();
    let t = t
        .strip_suffix("iB")
        .or_else(|| t.strip_suffix('B'))
        .unwrap_or(t);
    let (digits, shift) = match t.chars().last().map(|c| c.to_ascii_uppercase()) {
        Some('K') => (&t[..t.len() - 1], 10),
        Some('M') => (&t[..t.len() - 1], 20),
        Some('G') => (&t[..t.len() - 1], 30),
        _ => (t, 0),
    };
    digits
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_mul(1 << shift))
        .ok_or_else(|| format!("`{text}` is not a size (e.g. 512M, 2G, 100000)"))
}

/// Compilation and the program run on a thread with a large stack: the
/// front end recurses over deep (but bounded) syntax trees, and compiled
/// code gets a fixed budget of it (`codegen::JIT_STACK_BUDGET`).
const THREAD_STACK: usize = 1 << 30;

fn main() {
    jitrun::memory::keep_freed_memory();
    let cli = Cli::parse();
    check_print_after(&cli);
    let options = options(&cli);
    // A REPL compiles every entry for the host.
    let compiles_for_host = cli.file.is_none() || options.generates_host_code();
    let (level, verify) = (options.opt_level, options.verify);
    // The compiler's thread ends the process itself (with the program's
    // status, or the internal error's if it panics), so that nothing here
    // delays the exit.
    let worker = std::thread::Builder::new()
        .name("jitrun".into())
        .stack_size(THREAD_STACK)
        .spawn(move || {
            let run = std::panic::AssertUnwindSafe(|| run(cli, options));
            let status = std::panic::catch_unwind(run).unwrap_or_else(|_| internal_error());
            std::process::exit(status)
        })
        .expect("spawn the compiler thread");
    // Meanwhile this thread, which would only wait, builds the ISA the
    // compiler's thread will need once it has parsed and optimized the
    // program, and on a machine of several cores becomes a warm compile
    // helper: then it serves until the compiler's thread ends the process.
    if compiles_for_host {
        jitrun::codegen::prepare_host_codegen(level, verify);
    }
    // The compiler's thread does not return.
    let _ = worker.join();
    std::process::exit(internal_error());
}

/// Reports a panic of the compiler; the status to exit with.
fn internal_error() -> i32 {
    eprintln!("jitrun: internal compiler error (panic); please report this program");
    driver::EXIT_INTERNAL_ERROR
}

/// `--print-after=PASS` names a pass that runs: a usage error otherwise
/// (status 2, as clap's).
fn check_print_after(cli: &Cli) {
    let Some(PrintAfter::Pass(name)) = cli.print_after else {
        return;
    };
    let running: &[&Pass] = match &cli.passes {
        Some(list) => &list.0,
        None => passes::pipeline(cli.opt_level, Scope::Program),
    };
    if running.iter().any(|p| p.name == name) {
        return;
    }
    let names: Vec<&str> = running.iter().map(|p| p.name).collect();
    let message = match &cli.passes {
        Some(_) => format!("pass `{name}` is not in --passes"),
        None => format!("pass `{name}` does not run at {}", cli.opt_level),
    };
    let list = if names.is_empty() {
        "none".to_string()
    } else {
        names.join(", ")
    };
    Cli::command()
        .error(
            clap::error::ErrorKind::ArgumentConflict,
            format!("--print-after={name}: {message} (the passes that run: {list})"),
        )
        .exit();
}

fn run(cli: Cli, opts: Options) -> i32 {
    let gc_mode = match std::env::var("JITRUN_GC").as_deref() {
        Err(_) | Ok("") => gc::Mode::Normal,
        Ok("stress") => gc::Mode::Stress,
        Ok("verify") => gc::Mode::Verify,
        Ok(other) => {
            eprintln!("jitrun: JITRUN_GC is `{other}`; it can be `stress` or `verify`");
            return driver::EXIT_COMPILE_ERROR;
        }
    };
    if cli.perf_map {
        // `perf record` sets this, and cranelift-jit then writes the map
        // too, under the mangled symbols (`toy.fib`): one writer is enough.
        // Nothing else reads the environment while this thread starts up.
        std::env::remove_var("PERF_BUILDID_DIR");
        if let Err(e) = jitrun::codegen::perf_map::enable() {
            eprintln!("jitrun: cannot write the perf map: {e}");
            return driver::EXIT_COMPILE_ERROR;
        }
    }
    gc::configure(
        gc_mode,
        cli.max_heap.or_else(jitrun::memory::default_heap_limit),
    );
    let Some(file) = cli.file else {
        return jitrun::repl::run(SessionOptions {
            opt_level: opts.opt_level,
            verify: opts.verify,
        });
    };
    let (name, bytes) = if file == "-" {
        let mut buf = Vec::new();
        if let Err(e) = std::io::stdin().read_to_end(&mut buf) {
            eprintln!("jitrun: cannot read standard input: {e}");
            return driver::EXIT_COMPILE_ERROR;
        }
        ("<stdin>".to_string(), buf)
    } else {
        match std::fs::read(&file) {
            Ok(bytes) => (file.clone(), bytes),
            Err(e) => {
                eprintln!("jitrun: cannot read `{file}`: {e}");
                return driver::EXIT_COMPILE_ERROR;
            }
        }
    };
    let src = match driver::decode_source(&name, bytes) {
        Ok(src) => src,
        Err(code) => return code,
    };
    driver::run_source(&name, &src, &opts)
}

/// The driver's options, from the command line.
fn options(cli: &Cli) -> Options {
    Options {
        opt_level: cli.opt_level,
        passes: cli.passes.as_ref().map(|list| list.0.clone()),
        print_after: cli.print_after,
        emit: cli.emit.map(|e| match e {
            EmitArg::Ast => Emit::Ast,
            EmitArg::Ssa => Emit::Ssa,
            EmitArg::Clif => Emit::Clif,
            EmitArg::Asm => Emit::Asm,
            EmitArg::Dot => Emit::Dot,
        }),
        target: cli.target.clone(),
        verify: cli.verify || cfg!(debug_assertions),
        stats: cli.stats.map(|s| match s {
            StatsArg::Table => StatsFormat::Table,
            StatsArg::Json => StatsFormat::Json,
        }),
        interp: cli.interp,
        time: cli.time,
        no_ssa_opt: cli.no_ssa_opt,
        ssa_mode: match cli.ssa {
            SsaArg::Braun => SsaMode::Braun,
            SsaArg::Marker => SsaMode::Marker,
        },
    }
}
