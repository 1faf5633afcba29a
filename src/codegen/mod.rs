//! Stage 4: SSA IR to machine code with Cranelift, and running it.
//!
//! The ISA is the host's (`cranelift-native`) or one named by a
//! `target-lexicon` triple; code for a foreign target is compiled and
//! printed, never run. Toy functions get mangled local symbols
//! (`toy.NAME`); the runtime's functions are registered explicitly under
//! their own names, so no Toy name can bind to a C library symbol.
//!
//! A file is one JIT module with direct calls ([`compile`]). A REPL entry
//! ([`compile_entry`]) is a module of its own that reaches the session
//! through absolute addresses ([`SessionLinks`]): calls go through the
//! session's table of function pointers, so redefining a function is one
//! store into its slot, and globals live in session-owned cells.

mod machine;
pub mod plan;
pub mod translate;

use crate::ir;
pub use crate::passes::Plan;
use cranelift_codegen::ir as cl;
use cranelift_codegen::isa::OwnedTargetIsa;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::FunctionBuilderContext;
use cranelift_jit::{ArenaMemoryProvider, JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, DataDescription, DataId, FuncId, Linkage, Module};
use jitrun_runtime::pack_loc;
use std::str::FromStr;

#[derive(Debug, thiserror::Error)]
pub enum CodegenError {
    #[error("unknown target `{0}`")]
    UnknownTarget(String),
    #[error("target `{target}` is not supported: {reason}")]
    UnsupportedTarget { target: String, reason: String },
    #[error("Cranelift rejected `{function}`: {message}")]
    Compile { function: String, message: String },
    #[error("cannot run code compiled for `{0}` on this machine")]
    ForeignTarget(String),
}

#[derive(Clone, Debug)]
pub struct CodegenOptions {
    /// What to do beyond lowering, from the level and scope
    /// (`passes::OptLevel::plan`).
    pub plan: Plan,
    /// Run Cranelift's IR verifier on every function.
    pub verify: bool,
    /// A target triple; `None` for the host.
    pub target: Option<String>,
    /// Keep the Cranelift IR text of every function.
    pub keep_clif: bool,
    /// Keep the disassembly of every function.
    pub keep_asm: bool,
    /// Threads that compile the functions of a module (1: the caller's
    /// thread alone); `None`: `JITRUN_COMPILE_THREADS`, or one per core.
    pub threads: Option<usize>,
}

impl CodegenOptions {
    /// Code for the host as `plan` says, nothing kept, on the default
    /// threads.
    pub fn host(plan: Plan, verify: bool) -> CodegenOptions {
        CodegenOptions {
            plan,
            verify,
            target: None,
            keep_clif: false,
            keep_asm: false,
            threads: None,
        }
    }
}

/// Whether Cranelift can compile for `name`; the reason why not.
pub fn check_target(name: &str) -> Result<(), String> {
    let triple = target_lexicon::Triple::from_str(name)
        .map_err(|_| format!("unknown target triple `{name}`"))?;
    cranelift_codegen::isa::lookup(triple)
        .map(drop)
        .map_err(|e| format!("target `{name}` is not supported: {e}"))
}

/// The target to compile for, `None` meaning this machine: a triple that
/// names the host's architecture and operating system is the host (its code
/// can run, with the host's CPU features), whatever vendor or spelling.
pub fn foreign_target(name: Option<&str>) -> Option<String> {
    let name = name?;
    let host = target_lexicon::Triple::host();
    match target_lexicon::Triple::from_str(name) {
        Ok(t)
            if t.architecture == host.architecture
                && t.operating_system == host.operating_system =>
        {
            None
        }
        _ => Some(name.to_string()),
    }
}

/// The host's ISA with the settings `opts` asks for, built once per
/// process: by the first call here or of [`prepare_host_codegen`] (a call
/// that comes while another thread builds it waits for that one).
pub fn make_isa(opts: &CodegenOptions) -> Result<OwnedTargetIsa, CodegenError> {
    if opts.target.is_none() {
        let settings = (opts.plan.cranelift_speed, opts.verify);
        let (built_for, isa) = HOST_ISA.get_or_init(|| (settings, build_isa(opts).ok()));
        if let (true, Some(isa)) = (*built_for == settings, isa) {
            return Ok(isa.clone());
        }
    }
    build_isa(opts)
}

/// The host ISA [`make_isa`] builds once, and the settings it has
/// (`cranelift_speed`, `verify`): `None` if it could not be built (the
/// caller then builds it again, for the error).
static HOST_ISA: std::sync::OnceLock<((bool, bool), Option<OwnedTargetIsa>)> =
    std::sync::OnceLock::new();

/// Builds the host ISA that [`make_isa`] will be asked for at `level`,
/// ahead of time, and on a machine of several cores makes the calling
/// thread a compile helper, which first compiles a small function with it
/// ([`machine::serve_as_helper`]): `main`'s thread, idle while the
/// compiler's thread parses and optimizes, calls this, so that building
/// the ISA and the first touch of Cranelift's code and data (page faults,
/// the shared cache) are off the compile's path, and a warm thread helps
/// compile. On such a machine it returns only if a compile had already
/// started the helpers; else the thread serves until the process exits.
pub fn prepare_host_codegen(level: crate::passes::OptLevel, verify: bool) {
    let plan = level.plan(crate::passes::Scope::Program);
    let isa = make_isa(&CodegenOptions::host(plan, verify));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if let (Ok(isa), true) = (isa, cores > 1) {
        machine::serve_as_helper(&isa);
    }
}

/// Cranelift's ISA for `opts.target` (the host's if none), with jitrun's
/// settings.
fn build_isa(opts: &CodegenOptions) -> Result<OwnedTargetIsa, CodegenError> {
    let mut flags = settings::builder();
    let set = |flags: &mut settings::Builder, k: &str, v: &str| {
        flags.set(k, v).expect("known Cranelift setting");
    };
    set(
        &mut flags,
        "opt_level",
        if opts.plan.cranelift_speed {
            "speed"
        } else {
            "none"
        },
    );
    set(
        &mut flags,
        "enable_verifier",
        if opts.verify { "true" } else { "false" },
    );
    // The stack check on entry reads the function's return address, which
    // needs a frame pointer.
    set(&mut flags, "preserve_frame_pointers", "true");
    set(&mut flags, "is_pic", "false");
    set(&mut flags, "use_colocated_libcalls", "false");
    // Functions start on 32-byte boundaries (Cranelift's default is 16):
    // then a function's loops sit in the same 32-byte windows of the
    // instruction fetch and micro-op cache whatever code comes before it,
    // and a change to one function no longer moves another's hot loop
    // across such a boundary (a 25% swing in one loop-bound program's run
    // time, with its code unchanged; none of 56 programs slower by more
    // than 4%).
    set(&mut flags, "log2_min_function_alignment", "5");
    let flags = settings::Flags::new(flags);
    let isa_builder = match &opts.target {
        None => cranelift_native::builder().map_err(|reason| CodegenError::UnsupportedTarget {
            target: "host".into(),
            reason: reason.to_string(),
        })?,
        Some(name) => {
            let triple = target_lexicon::Triple::from_str(name)
                .map_err(|_| CodegenError::UnknownTarget(name.clone()))?;
            cranelift_codegen::isa::lookup(triple).map_err(|e| CodegenError::UnsupportedTarget {
                target: name.clone(),
                reason: e.to_string(),
            })?
        }
    };
    isa_builder
        .finish(flags)
        .map_err(|e| CodegenError::UnsupportedTarget {
            target: opts.target.clone().unwrap_or_else(|| "host".into()),
            reason: e.to_string(),
        })
}

/// The runtime functions and data compiled code refers to.
pub struct Runtime {
    pub print_int: FuncId,
    pub print_float: FuncId,
    pub print_bool: FuncId,
    pub print_str: FuncId,
    pub print_space: FuncId,
    pub print_newline: FuncId,
    pub print_array: FuncId,
    pub array_new: FuncId,
    /// `toy_rt_array_new_preserving`: the allocator for the rare slow path
    /// of an allocation made in line, called with Cranelift's
    /// `preserve_all` convention; the array is then in `alloc_result`.
    pub array_new_preserving: FuncId,
    pub empty_array: FuncId,
    pub error: FuncId,
    pub group_error: FuncId,
    pub walk_error: FuncId,
    pub stack_overflow: FuncId,
    pub fmod: FuncId,
    pub clock: FuncId,
    pub stack_limit: DataId,
    /// `toy_rt_pending`: nonzero when REPL code must return at once.
    pub pending: DataId,
    /// `toy_rt_alloc`: the allocation fast path's free lists and allowance
    /// (`jitrun_runtime::gc::FastAlloc`).
    pub alloc: DataId,
    /// `toy_rt_alloc_result`: where `array_new` leaves the array.
    pub alloc_result: DataId,
    /// `toy_rt_error_details`: where a failed check stores the values its
    /// report names.
    pub error_details: DataId,
}

fn declare_import<M: Module>(
    module: &mut M,
    name: &str,
    params: &[cl::Type],
    ret: Option<cl::Type>,
) -> Result<FuncId, CodegenError> {
    let mut sig = module.make_signature();
    sig.params
        .extend(params.iter().map(|&t| cl::AbiParam::new(t)));
    sig.returns.extend(ret.map(cl::AbiParam::new));
    declare_signature(module, name, sig)
}

/// A runtime function of `params` int arguments that preserves every
/// register and returns nothing (`preserve_all`).
fn declare_preserving_import<M: Module>(
    module: &mut M,
    name: &str,
    params: usize,
) -> Result<FuncId, CodegenError> {
    let mut sig = module.make_signature();
    sig.call_conv = cranelift_codegen::isa::CallConv::PreserveAll;
    sig.params
        .extend((0..params).map(|_| cl::AbiParam::new(cl::types::I64)));
    declare_signature(module, name, sig)
}

fn declare_signature<M: Module>(
    module: &mut M,
    name: &str,
    sig: cl::Signature,
) -> Result<FuncId, CodegenError> {
    module
        .declare_function(name, Linkage::Import, &sig)
        .map_err(|e| module_error(name, e))
}

fn declare_data_import<M: Module>(module: &mut M, name: &str) -> Result<DataId, CodegenError> {
    module
        .declare_data(name, Linkage::Import, true, false)
        .map_err(|e| module_error(name, e))
}

fn module_error(function: &str, e: cranelift_module::ModuleError) -> CodegenError {
    let message = match e {
        cranelift_module::ModuleError::Compilation(cranelift_codegen::CodegenError::Verifier(
            errors,
        )) => errors.to_string(),
        other => other.to_string(),
    };
    CodegenError::Compile {
        function: function.to_string(),
        message,
    }
}

impl Runtime {
    fn declare<M: Module>(module: &mut M) -> Result<Runtime, CodegenError> {
        use cl::types::{F64, I64};
        let ptr = module.target_config().pointer_type();
        let array_new_preserving =
            declare_preserving_import(module, "toy_rt_array_new_preserving", 4)?;
        let mut f = |name, params: &[cl::Type], ret| declare_import(module, name, params, ret);
        let rt = Runtime {
            print_int: f("toy_rt_print_int", &[I64], None)?,
            print_float: f("toy_rt_print_float", &[F64], None)?,
            print_bool: f("toy_rt_print_bool", &[I64], None)?,
            print_str: f("toy_rt_print_str", &[ptr, I64], None)?,
            print_space: f("toy_rt_print_space", &[], None)?,
            print_newline: f("toy_rt_print_newline", &[], None)?,
            print_array: f("toy_rt_print_array", &[ptr, I64], None)?,
            array_new: f("toy_rt_array_new", &[I64, I64, I64, I64], Some(ptr))?,
            array_new_preserving,
            empty_array: f("toy_rt_empty_array", &[], Some(ptr))?,
            error: f("toy_rt_error", &[I64, I64, ptr], None)?,
            group_error: f("toy_rt_group_error", &[ptr, ptr], None)?,
            walk_error: f("toy_rt_walk_error", &[ptr, ptr], None)?,
            stack_overflow: f("toy_rt_stack_overflow", &[ptr, I64, ptr], None)?,
            fmod: f("toy_rt_fmod", &[F64, F64], Some(F64))?,
            clock: f("toy_rt_clock", &[], Some(F64))?,
            stack_limit: declare_data_import(module, "toy_rt_stack_limit")?,
            pending: declare_data_import(module, "toy_rt_pending")?,
            alloc: declare_data_import(module, "toy_rt_alloc")?,
            alloc_result: declare_data_import(module, "toy_rt_alloc_result")?,
            error_details: declare_data_import(module, "toy_rt_error_details")?,
        };
        Ok(rt)
    }
}

/// Machine code for a whole program or a REPL entry, in a JIT module.
pub struct Compiled {
    module: JITModule,
    main: FuncId,
    /// The ids of the program's functions (not `main`), in order.
    functions: Vec<FuncId>,
    host: bool,
    target: String,
    /// Cranelift IR text, when asked for.
    pub clif: String,
    /// Disassembly, when asked for.
    pub asm: String,
    /// Machine-code bytes of all functions.
    pub code_size: usize,
    /// Cranelift instructions of all functions, before Cranelift's passes.
    pub cl_insts: usize,
    /// Time spent finalizing (relocating, making code executable).
    pub finalize: std::time::Duration,
    /// Starts of the code ranges of calls registered with the runtime,
    /// with the Toy frames they stand for, for the call stacks of runtime
    /// errors (host code only).
    call_sites: Vec<usize>,
    /// What the collector was told of this module (host code only).
    gc_roots: GcRoots,
}

/// The symbol of a Toy function: a prefix no C library symbol uses.
pub fn mangle(name: &str) -> String {
    format!("toy.{name}")
}

/// Where a REPL entry finds the session: absolute addresses that stay
/// valid for the session's life.
pub struct SessionLinks<'a> {
    /// By [`ir::FuncRef`]: the address of the cell holding the function's
    /// current code address.
    pub function_slots: &'a [usize],
    /// By global index: the address of the global's 8-byte cell.
    pub global_cells: &'a [usize],
}

/// Address space to reserve for a module's code and data, so that all of
/// it lies in one region: aarch64 reaches data from code with `adrp`
/// (±4 GB) and x86-64 with RIP-relative operands (±2 GB), and the system
/// allocator may place separate mappings further apart than that (qemu-user
/// does). Only what is used gets committed, so the bound is generous: 1 KiB
/// per IR instruction, value and block covers unrolled, vectorized and
/// expanded copies of the code and its check tables many times over.
fn arena_reservation(program: &ir::Module) -> usize {
    const FLOOR: usize = 16 << 20;
    const PER_ITEM: usize = 1 << 10;
    let items: usize = (program.all_functions())
        .map(|f| f.insts.len() + f.values.len() + f.blocks.len())
        .sum();
    let data: usize =
        program.strings.iter().map(|s| s.len() + 1).sum::<usize>() + 8 * program.globals.len();
    FLOOR
        .saturating_add(items.saturating_mul(PER_ITEM))
        .saturating_add(data)
}

/// Compiles a whole program.
pub fn compile(program: &ir::Module, opts: &CodegenOptions) -> Result<Compiled, CodegenError> {
    let isa = make_isa(opts)?;
    compile_module(program, isa, opts, None)
}

/// Compiles a REPL entry: its functions (whose addresses the session
/// stores in their slots, [`Compiled::function_addresses`]) and its
/// top-level statements, linked to the session through `links`. Runtime
/// errors and Ctrl-C make this code return instead of ending the process.
pub fn compile_entry(
    program: &ir::Module,
    isa: OwnedTargetIsa,
    opts: &CodegenOptions,
    links: &SessionLinks,
) -> Result<Compiled, CodegenError> {
    compile_module(program, isa, opts, Some(links))
}

fn compile_module(
    program: &ir::Module,
    isa: OwnedTargetIsa,
    opts: &CodegenOptions,
    session: Option<&SessionLinks>,
) -> Result<Compiled, CodegenError> {
    let target = isa.triple().to_string();
    // Compile threads share the ISA while the caller's thread translates.
    let compile_isa = isa.clone();
    let mut builder = JITBuilder::with_isa(isa, default_libcall_names());
    builder.symbols(jitrun_runtime::symbols());
    if let Ok(arena) = ArenaMemoryProvider::new_with_size(arena_reservation(program)) {
        builder.memory_provider(Box::new(arena));
    }
    let mut module = JITModule::new(builder);
    let runtime = Runtime::declare(&mut module)?;

    let all: Vec<&ir::Function> = program.all_functions().collect();
    let mut ids = Vec::with_capacity(all.len());
    for f in &all {
        let sig = signature(&module, f);
        let name = mangle(&f.name);
        let id = module
            .declare_function(&name, Linkage::Local, &sig)
            .map_err(|e| module_error(&name, e))?;
        ids.push(id);
    }
    let strings = declare_strings(&mut module, &program.strings)?;
    // REPL code calls functions of earlier entries, which may change:
    // no call is quiet, and every call may collect.
    let quiet: Vec<bool> = match session {
        None => program.functions.iter().map(ir::bounds::is_quiet).collect(),
        Some(_) => Vec::new(),
    };
    let may_collect = ir::safepoints::may_collect(program, session.is_some());
    let callees_collecting = session.is_none().then_some(&may_collect[..]);
    let collects = |k: &ir::InstKind| ir::safepoints::collects(k, callees_collecting);
    let is_leaf: Vec<bool> = (program.functions.iter())
        .map(|f| opts.plan.expand_small_leaves && ir::inline::is_small_leaf(f))
        .collect();
    let outside_loops: Vec<bool> = (program.functions.iter())
        .map(|f| plan::expands_outside_loops(program, f, &is_leaf))
        .collect();
    let plan_of = |i: usize, f: &ir::Function| {
        let collects: &dyn Fn(&ir::InstKind) -> bool = &collects;
        // The top-level code (the last index) expands only in loops.
        let outside = outside_loops.get(i).copied().unwrap_or(false);
        let collects = may_collect[i].then_some(collects);
        plan::FunctionPlan::new(f, &opts.plan, &quiet, collects, outside)
    };
    // At -O2, whole programs expand calls of small leaf functions in place
    // (REPL code must call through slots: a function may be redefined).
    // A leaf's plan serves both its expansions and its own code.
    let inline: Vec<Option<translate::Inlinable>> = (program.functions.iter().enumerate())
        .map(|(i, f)| is_leaf[i].then(|| translate::Inlinable::new(f, plan_of(i, f))))
        .collect();
    let main_index = all.len() - 1;
    // The top-level code's plan first: its loops say where it expands
    // calls, and so which functions need code. (A REPL entry expands no
    // calls; its top-level code also calls functions of the session,
    // which are not in `program`.)
    let main_plan = plan_of(main_index, &program.main);
    let needs_code = match session {
        None => needs_code(program, &inline, &outside_loops, &main_plan.loops),
        Some(_) => Vec::new(),
    };
    let linking_globals = match session {
        None => Some(declare_globals(&mut module, program.globals.len())?),
        Some(_) => None,
    };
    let linking = match session {
        None => translate::Linking::Program {
            functions: &ids,
            globals: linking_globals.expect("a program has its globals"),
            inline: &inline,
        },
        Some(links) => translate::Linking::Session {
            function_slots: links.function_slots,
            global_cells: links.global_cells,
        },
    };
    let env = translate::Env {
        runtime: &runtime,
        strings: &strings,
        linking,
        plan: opts.plan,
    };

    // In a whole program, a function that compiled code never calls
    // (inlined or expanded at every call) needs no code (REPL code calls
    // every function through slots).
    let jobs: Vec<usize> = (0..all.len())
        .filter(|&i| session.is_some() || i == main_index || needs_code[i])
        .collect();
    let leaf_sizes: Vec<usize> = (program.functions.iter().zip(&inline))
        .map(|(f, leaf)| leaf.as_ref().map_or(0, |_| ir_size(f)))
        .collect();
    let sizes: Vec<usize> = (jobs.iter())
        .map(|&i| estimated_size(all[i], &leaf_sizes))
        .collect();
    let mut fctx = FunctionBuilderContext::new();
    let (mut asm, mut code_size, mut cl_insts) = (String::new(), 0, 0);
    // By job: the function's Cranelift IR as text (when asked for) and the
    // frames of its calls.
    let mut clif_of: Vec<String> = vec![String::new(); jobs.len()];
    let mut frames_of: Vec<Option<Vec<translate::SiteFrames>>> =
        (jobs.iter()).map(|_| None).collect();
    let translate_job = |k: usize| {
        let i = jobs[k];
        let (f, id) = (all[i], ids[i]);
        let mut func = cl::Function::with_name_signature(
            cl::UserFuncName::user(0, id.as_u32()),
            signature(&module, f),
        );
        let own_plan;
        let plan = match inline.get(i) {
            _ if i == main_index => &main_plan,
            Some(Some(leaf)) => &leaf.plan,
            _ => {
                own_plan = plan_of(i, f);
                &own_plan
            }
        };
        let frames = translate::translate_function(
            &mut module,
            &env,
            f,
            plan,
            i == main_index,
            &mut func,
            &mut fctx,
        );
        cl_insts += func.dfg.num_insts();
        if opts.keep_clif {
            clif_of[k] = format!("; {}\n{}\n", mangle(&f.name), func.display());
        }
        frames_of[k] = Some(frames);
        (id, func)
    };
    let machine_code = machine::compile_all(
        &compile_isa,
        &sizes,
        opts.keep_asm,
        opts.threads,
        translate_job,
    );
    let clif = clif_of.concat();
    let site_frames = (jobs.iter().copied()).zip(
        frames_of
            .into_iter()
            .map(|f| f.expect("every job was translated")),
    );
    // By function: (code offset, end, index in the frames) of each call
    // range, and the frames of each call.
    let mut calls: Vec<CallRanges> = (0..all.len()).map(|_| Default::default()).collect();
    // By function: its code size and the stack maps of its calls.
    let mut frames: Vec<Option<FrameInfo>> = (0..all.len()).map(|_| None).collect();
    for ((i, sites), code) in site_frames.into_iter().zip(machine_code) {
        let name = &all[i].name;
        let code =
            code.map_err(|e| module_error(name, cranelift_module::ModuleError::Compilation(e)))?;
        module
            .define_function_bytes(ids[i], code.alignment, &code.bytes, &code.relocs)
            .map_err(|e| module_error(name, e))?;
        code_size += code.bytes.len();
        calls[i] = (code.call_ranges, sites);
        frames[i] = Some(code.frame);
        if let Some(vcode) = &code.asm {
            asm.push_str(&format!("{}:\n{vcode}\n", mangle(name)));
        }
    }
    let host = opts.target.is_none();
    let finalize_start = std::time::Instant::now();
    if host {
        module
            .finalize_definitions()
            .map_err(|e| module_error("<module>", e))?;
    }
    let finalize = finalize_start.elapsed();
    let mut call_sites = Vec::new();
    if host {
        let sites = runtime_call_sites(&module, &ids, &calls);
        call_sites = sites.iter().map(|site| site.start).collect();
        jitrun_runtime::add_call_sites(sites);
    }
    let mut gc_roots = GcRoots::default();
    if host {
        // Code compiled to be printed is freed at once: not for profiles.
        if !opts.keep_clif && !opts.keep_asm {
            perf_map::record(&module, &ids, &all, &frames);
        }
        gc_roots = GcRoots::register(&module, &ids, frames, &program.globals, linking_globals);
    }
    let main = ids.pop().expect("main is always compiled");
    Ok(Compiled {
        module,
        main,
        functions: ids,
        host,
        target,
        clif,
        asm,
        code_size,
        cl_insts,
        finalize,
        call_sites,
        gc_roots,
    })
}

/// `--perf-map`: the code range and name of every compiled function, in
/// the file `perf` reads for code it finds no symbols for.
pub mod perf_map {
    use super::{FrameInfo, FuncId, JITModule};
    use crate::ir;
    use std::io::Write;
    use std::sync::Mutex;

    static FILE: Mutex<Option<std::fs::File>> = Mutex::new(None);

    /// Starts writing `/tmp/perf-PID.map` (appending, as REPL entries and
    /// redefinitions are compiled); returns its path.
    pub fn enable() -> std::io::Result<std::path::PathBuf> {
        let path = std::path::PathBuf::from(format!("/tmp/perf-{}.map", std::process::id()));
        let file = (std::fs::OpenOptions::new().create(true).append(true)).open(&path)?;
        *FILE.lock().unwrap_or_else(|e| e.into_inner()) = Some(file);
        Ok(path)
    }

    /// One line `START SIZE NAME` (hexadecimal start and size) per
    /// function with code of its own, named as the program names it.
    /// `perf` skips a line whose name has fewer than three characters, so
    /// shorter names are padded with spaces (`a  `).
    pub(super) fn record(
        module: &JITModule,
        ids: &[FuncId],
        functions: &[&ir::Function],
        frames: &[Option<FrameInfo>],
    ) {
        let mut file = FILE.lock().unwrap_or_else(|e| e.into_inner());
        let Some(file) = file.as_mut() else { return };
        let mut lines = String::new();
        for ((&id, f), info) in ids.iter().zip(functions).zip(frames) {
            let Some(info) = info else { continue };
            let start = module.get_finalized_function(id) as usize;
            lines.push_str(&format!("{start:x} {:x} {:<3}\n", info.code_size, f.name));
        }
        // A profile without names is still a profile: errors are ignored.
        let _ = file.write_all(lines.as_bytes()).and_then(|_| file.flush());
    }
}

/// What the collector needs of one compiled function: its code size and,
/// for each call that has arrays live across it, the return address's
/// offset, the frame size there and the stack offsets of the arrays.
struct FrameInfo {
    code_size: usize,
    stack_maps: Vec<(u32, u32, Box<[u32]>)>,
}

impl FrameInfo {
    fn of(compiled: &cranelift_codegen::CompiledCode) -> FrameInfo {
        let stack_maps = (compiled.buffer.user_stack_maps().iter())
            .map(|(offset, frame_size, map)| {
                let offsets = map.entries().map(|(_, sp_offset)| sp_offset).collect();
                (*offset, *frame_size, offsets)
            })
            .collect();
        FrameInfo {
            code_size: compiled.code_buffer().len(),
            stack_maps,
        }
    }
}

/// The roots a module registered with the collector: its functions'
/// code ranges (whose stack maps go with them) and its array globals.
#[derive(Default)]
struct GcRoots {
    functions: Vec<(usize, usize)>,
    globals: Vec<usize>,
}

impl GcRoots {
    fn register(
        module: &JITModule,
        ids: &[FuncId],
        frames: Vec<Option<FrameInfo>>,
        global_types: &[ir::Ty],
        globals: Option<DataId>,
    ) -> GcRoots {
        let mut functions = Vec::new();
        let mut maps = Vec::new();
        for (&id, info) in ids.iter().zip(frames) {
            let Some(info) = info else { continue };
            let base = module.get_finalized_function(id) as usize;
            functions.push((base, base + info.code_size));
            maps.extend(
                info.stack_maps
                    .into_iter()
                    .map(
                        |(offset, frame_size, offsets)| jitrun_runtime::gc::StackMap {
                            return_address: base + offset as usize,
                            frame_size,
                            offsets,
                        },
                    ),
            );
        }
        jitrun_runtime::gc::add_code(&functions, maps);
        // A REPL entry's globals are the session's cells: it registers them.
        let globals: Vec<usize> = match globals {
            Some(data) => {
                let (base, _) = module.get_finalized_data(data);
                (global_types.iter().enumerate())
                    .filter(|(_, &ty)| ty == ir::Ty::Array)
                    .map(|(g, _)| base as usize + 8 * g)
                    .collect()
            }
            None => Vec::new(),
        };
        jitrun_runtime::gc::add_global_roots(&globals);
        GcRoots { functions, globals }
    }

    fn unregister(&self) {
        jitrun_runtime::gc::remove_code(&self.functions);
        jitrun_runtime::gc::remove_global_roots(&self.globals);
    }
}

/// A function's phis and instructions.
fn ir_size(f: &ir::Function) -> usize {
    let (phis, insts) = f.counts();
    phis + insts
}

/// About how large `f`'s code will be, to translate the largest first: its
/// phis and instructions, an array literal's elements (a store each), and
/// the small leaves its calls may expand (`leaf_sizes`, by `FuncRef`: zero
/// for a function not expanded; the top-level code expands only the calls
/// in its loops, which hold most of its calls when it calls much).
fn estimated_size(f: &ir::Function, leaf_sizes: &[usize]) -> usize {
    let insts = (f.layout.iter()).flat_map(|&b| &f.blocks[b].insts);
    let expansions: usize = insts
        .map(|&i| match f.insts[i].kind {
            ir::InstKind::Call(g, _) => leaf_sizes.get(g as usize).copied().unwrap_or(0),
            ir::InstKind::ArrayLit(ref elements) => elements.len(),
            _ => 0,
        })
        .sum();
    ir_size(f) + expansions
}

/// A function's call ranges (code offset, end, index of the call's
/// frames) and the frames of its calls.
type CallRanges<'a> = (Vec<(u32, u32, u32)>, Vec<translate::SiteFrames<'a>>);

/// By `FuncRef`: whether compiled code calls the function — reachable
/// from the top-level code through calls that are not expanded in place
/// (`inline`: the small leaf functions the translator expands, in the
/// top-level code only in its loops, `main_loops`: its loop forest). The
/// others, inlined by `ir::inliner` or expanded at every call, or never
/// called, get no code.
fn needs_code(
    program: &ir::Module,
    inline: &[Option<translate::Inlinable>],
    outside_loops: &[bool],
    main_loops: &ir::loops::Loops,
) -> Vec<bool> {
    let mut needed = vec![false; program.functions.len()];
    // `None`: the top-level code.
    let mut work: Vec<Option<usize>> = vec![None];
    while let Some(at) = work.pop() {
        let (f, outside) = match at {
            None => (&program.main, false),
            Some(i) => (&program.functions[i], outside_loops[i]),
        };
        // A function that calls leaves and expands them only in loops
        // needs its own loops, found again here (its plan is made when it
        // is translated).
        let calls_leaves = f.calls().any(|(_, _, g)| inline[g as usize].is_some());
        let own_loops =
            (at.is_some() && !outside && calls_leaves).then(|| f.current_dom_and_loops().1);
        let loops = own_loops.as_ref().unwrap_or(main_loops);
        for (b, _, g) in f.calls() {
            let g = g as usize;
            let expanded = inline[g].is_some() && translate::expands_calls_in(outside, loops, b);
            if !expanded && !needed[g] {
                needed[g] = true;
                work.push(Some(g));
            }
        }
    }
    needed
}

/// The code ranges of a function's calls: the translator marks each call
/// with the index of its frames as Cranelift source location.
fn call_ranges(compiled: &cranelift_codegen::CompiledCode) -> Vec<(u32, u32, u32)> {
    compiled
        .buffer
        .get_srclocs_sorted()
        .iter()
        .filter(|s| !s.loc.is_default())
        .map(|s| (s.start, s.end, s.loc.bits()))
        .collect()
}

/// The call sites of a finalized module as the runtime takes them: code
/// addresses, and frames named as runtime errors name them.
fn runtime_call_sites(
    module: &JITModule,
    ids: &[FuncId],
    calls: &[CallRanges],
) -> Vec<jitrun_runtime::CallSite> {
    let mut names: rustc_hash::FxHashMap<&str, std::sync::Arc<str>> = Default::default();
    let mut sites = Vec::new();
    for (&id, (ranges, frames)) in ids.iter().zip(calls) {
        if ranges.is_empty() {
            continue;
        }
        let base = module.get_finalized_function(id) as usize;
        for &(start, end, k) in ranges {
            let frames = frames[k as usize].iter().map(|&(name, loc)| {
                let function = names
                    .entry(name)
                    .or_insert_with(|| crate::check::frame_name(name).into());
                jitrun_runtime::Frame {
                    function: function.clone(),
                    loc: pack_loc(loc.line, loc.col),
                }
            });
            sites.push(jitrun_runtime::CallSite {
                start: base + start as usize,
                end: base + end as usize,
                frames: frames.collect(),
            });
        }
    }
    sites
}

fn signature(module: &JITModule, f: &ir::Function) -> cl::Signature {
    let mut sig = module.make_signature();
    for &p in &f.params {
        sig.params
            .push(cl::AbiParam::new(translate::cl_type(f.value_ty(p))));
    }
    if let Some(ret) = f.ret {
        sig.returns.push(cl::AbiParam::new(translate::cl_type(ret)));
    }
    sig
}

fn declare_strings(
    module: &mut JITModule,
    strings: &[String],
) -> Result<Vec<(DataId, usize)>, CodegenError> {
    strings
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let name = format!("toy.str.{i}");
            let id = module
                .declare_data(&name, Linkage::Local, false, false)
                .map_err(|e| module_error(&name, e))?;
            let mut desc = DataDescription::new();
            // Never empty: a zero-sized data object has no address.
            let mut bytes = s.as_bytes().to_vec();
            bytes.push(0);
            desc.define(bytes.into_boxed_slice());
            module
                .define_data(id, &desc)
                .map_err(|e| module_error(&name, e))?;
            Ok((id, s.len()))
        })
        .collect()
}

fn declare_globals(module: &mut JITModule, count: usize) -> Result<DataId, CodegenError> {
    let name = "toy.globals";
    let id = module
        .declare_data(name, Linkage::Local, true, false)
        .map_err(|e| module_error(name, e))?;
    let mut desc = DataDescription::new();
    desc.define_zeroinit(8 * count.max(1));
    desc.set_align(8);
    module
        .define_data(id, &desc)
        .map_err(|e| module_error(name, e))?;
    Ok(id)
}

/// The stack compiled code may use, below the frame that calls it. Deep
/// enough for recursion a C programmer expects to work (100 000 frames of
/// a small function), small enough that runaway recursion stops quickly.
pub const JIT_STACK_BUDGET: usize = 8 << 20;

impl Compiled {
    /// Runs the top-level statements. The calling thread must have
    /// [`JIT_STACK_BUDGET`] plus some margin of stack left.
    pub fn run(&self) -> Result<(), CodegenError> {
        if !self.host {
            return Err(CodegenError::ForeignTarget(self.target.clone()));
        }
        let code = self.module.get_finalized_function(self.main);
        jitrun_runtime::set_stack_limit(JIT_STACK_BUDGET);
        jitrun_runtime::gc::enter_compiled_code();
        // SAFETY: `main` was compiled for this host with the signature
        // `fn()` and the default (C) calling convention; it calls only
        // functions of this module and the runtime, which never unwind.
        let main: extern "C" fn() = unsafe { std::mem::transmute(code) };
        main();
        jitrun_runtime::flush_stdout();
        Ok(())
    }

    /// The code address of each of the program's functions, in order.
    pub fn function_addresses(&self) -> Vec<usize> {
        self.functions
            .iter()
            .map(|&id| self.module.get_finalized_function(id) as usize)
            .collect()
    }

    /// Releases the machine code.
    ///
    /// # Safety
    /// No code of this module may run again: no function address taken
    /// from it may still be stored where compiled code calls it.
    pub unsafe fn free(self) {
        jitrun_runtime::remove_call_sites(&self.call_sites);
        self.gc_roots.unregister();
        self.module.free_memory();
    }
}
