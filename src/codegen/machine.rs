//! Cranelift IR to machine code, the functions of a module compiled side
//! by side: each is compiled on its own (Cranelift needs nothing of the
//! others), so on a machine with several cores the module's compile time
//! is nearer that of its largest function than that of their sum, and the
//! translation of one function overlaps the compilation of another. The
//! code is then defined in the module in program order, so that where
//! each function lands does not depend on which thread compiled it.

use super::{call_ranges, FrameInfo};
use cranelift_codegen::control::ControlPlane;
use cranelift_codegen::ir as cl;
use cranelift_codegen::isa::{OwnedTargetIsa, TargetIsa};
use cranelift_codegen::{CodegenError, Context};
use cranelift_module::{FuncId, ModuleReloc};
use std::sync::{mpsc, Arc, Condvar, Mutex, OnceLock};

/// A function's machine code and what jitrun keeps of its compilation.
pub(super) struct MachineCode {
    pub bytes: Vec<u8>,
    pub alignment: u64,
    pub relocs: Vec<ModuleReloc>,
    /// The code ranges of the call sites (see `call_ranges`).
    pub call_ranges: Vec<(u32, u32, u32)>,
    pub frame: FrameInfo,
    /// The disassembly, when asked for.
    pub asm: Option<String>,
}

/// Threads that compile, the caller's included, at most. (Only two cores
/// were here to measure on; a Toy program has few functions, and each
/// helper beyond `main`'s thread is a thread started per process.)
const MAX_THREADS: usize = 4;

/// A module is compiled on the caller's thread alone unless the functions
/// other than its largest, which the caller compiles itself, hold at least
/// this many of our IR's instructions (about 50 Cranelift instructions):
/// that is the work a helper can take over, and it must outweigh handing
/// it over. Measured on two cores when each compile started its helper
/// thread (about 0.1 ms; min of 11 cold compiles, 44 kernels, sizes in
/// Cranelift instructions): a largest function of 101 instructions beside
/// one of 5 compiled 0.11 ms slower on two threads, 234 beside 26 0.08 ms
/// slower, 170 beside 55 broke even, and 165 beside 82 gained 0.07 ms.
/// The helpers are now started ahead ([`Helpers`]); the bound was not
/// measured again.
const MIN_MOVABLE_INSTS: usize = 20;

/// Threads to compile with: `JITRUN_COMPILE_THREADS` if set (1 compiles
/// on the caller's thread alone), else one per core. (Asked only when a
/// module could use more than one: counting the cores reads three files
/// of the cgroup file system.)
fn default_threads() -> usize {
    std::env::var("JITRUN_COMPILE_THREADS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Compiles the functions `translate` makes (job `k` of `sizes.len()`,
/// whose size in our IR is about `sizes[k]`) on up to `threads` threads
/// (`None`: [`default_threads`]); the results are in the order of the jobs.
///
/// The caller's thread translates the functions one at a time (translation
/// reads the module's declarations), the largest by `sizes` first, and
/// offers each to the process's compile helpers ([`Helpers`]) as soon as
/// it is made: they compile one function while the next is translated.
/// Each thread takes the largest function translated and not yet taken
/// (by its Cranelift instructions: `sizes` only guesses), so that none
/// starts a large function last; once all are translated, the caller
/// compiles too, then waits for the functions helpers took (not for a
/// helper still busy elsewhere, which then finds nothing left). A function
/// larger than the others together stays with the caller: a helper
/// compiling it would end last anyway.
pub(super) fn compile_all(
    isa: &OwnedTargetIsa,
    sizes: &[usize],
    disasm: bool,
    threads: Option<usize>,
    mut translate: impl FnMut(usize) -> (FuncId, cl::Function),
) -> Vec<Result<MachineCode, CodegenError>> {
    let movable = sizes.iter().sum::<usize>() - sizes.iter().max().copied().unwrap_or(0);
    let alone = movable < MIN_MOVABLE_INSTS;
    let threads = if alone {
        1
    } else {
        let threads = threads.unwrap_or_else(default_threads);
        threads.clamp(1, MAX_THREADS).min(sizes.len())
    };
    let helpers = match threads {
        1 => &[][..],
        _ => Helpers::get().first(threads - 1),
    };
    if helpers.is_empty() {
        let mut ctx = Context::new();
        return (0..sizes.len())
            .map(|k| {
                let (id, f) = translate(k);
                compile_one(&**isa, &mut ctx, id, f, disasm)
            })
            .collect();
    }
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    order.sort_by_key(|&k| std::cmp::Reverse(sizes[k]));
    let batch = Arc::new(Batch {
        isa: isa.clone(),
        disasm,
        state: Mutex::default(),
        changed: Condvar::new(),
    });
    for helper in helpers {
        // A helper gone (it cannot be) only leaves more to the caller.
        let _ = helper.send(batch.clone());
    }
    // Closed however this returns (a helper waits for the batch to
    // close), and at once when all are translated.
    let close = CloseOnDrop(&batch);
    let (largest, rest) = order.split_first().expect("two functions or more");
    let dominant = sizes[*largest] >= rest.iter().map(|&k| sizes[k]).sum();
    let mut kept = None;
    for &k in &order {
        let (id, f) = translate(k);
        if dominant && k == *largest {
            kept = Some((k, id, f));
        } else {
            batch.put((k, id, f));
        }
    }
    drop(close);
    let mut ctx = Context::new();
    if let Some((k, id, f)) = kept {
        let code = compile_one(&**isa, &mut ctx, id, f, disasm);
        batch.lock().compiled.push(Some((k, code)));
    }
    batch.work(&mut ctx);
    let mut results: Vec<Option<Result<MachineCode, CodegenError>>> =
        (0..sizes.len()).map(|_| None).collect();
    for (k, result) in batch.wait_for_all() {
        results[k] = Some(result);
    }
    (results.into_iter())
        .map(|r| r.expect("every function was compiled"))
        .collect()
}

/// A translated function: its job, its id, its Cranelift IR.
type Job = (usize, FuncId, cl::Function);

/// A function's job and its machine code.
type Compiled = (usize, Result<MachineCode, CodegenError>);

/// One module's functions, compiled by the caller's thread and helpers.
struct Batch {
    isa: OwnedTargetIsa,
    disasm: bool,
    state: Mutex<BatchState>,
    /// Signalled when a function is translated or compiled, or the batch
    /// closes.
    changed: Condvar,
}

#[derive(Default)]
struct BatchState {
    /// Translated, not yet taken.
    waiting: Vec<Job>,
    /// No more functions will come.
    closed: bool,
    /// Functions taken and not yet compiled.
    compiling: usize,
    /// Compiled; `None` where a helper panicked.
    compiled: Vec<Option<Compiled>>,
}

/// Closes a batch when dropped.
struct CloseOnDrop<'a>(&'a Batch);

impl Drop for CloseOnDrop<'_> {
    fn drop(&mut self) {
        self.0.close();
    }
}

impl Batch {
    fn lock(&self) -> std::sync::MutexGuard<'_, BatchState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn put(&self, job: Job) {
        self.lock().waiting.push(job);
        self.changed.notify_one();
    }

    fn close(&self) {
        self.lock().closed = true;
        self.changed.notify_all();
    }

    /// The waiting function of the most Cranelift instructions, once there
    /// is one (counted as compiling); `None` once the batch is closed and
    /// none is left.
    fn take_largest(&self) -> Option<Job> {
        let mut state = self.lock();
        loop {
            let waiting = &state.waiting;
            let largest = (0..waiting.len()).max_by_key(|&j| waiting[j].2.dfg.num_insts());
            match largest {
                Some(j) => {
                    state.compiling += 1;
                    return Some(state.waiting.swap_remove(j));
                }
                None if state.closed => return None,
                None => state = (self.changed.wait(state)).unwrap_or_else(|e| e.into_inner()),
            }
        }
    }

    /// Compiles the batch's functions until it is closed and none is left.
    /// A panic (in a helper) is recorded for the caller to raise again.
    fn work(&self, ctx: &mut Context) {
        while let Some((k, id, f)) = self.take_largest() {
            let compile = || compile_one(&*self.isa, ctx, id, f, self.disasm);
            let code = std::panic::catch_unwind(std::panic::AssertUnwindSafe(compile));
            let mut state = self.lock();
            state.compiling -= 1;
            state.compiled.push(code.ok().map(|code| (k, code)));
            drop(state);
            self.changed.notify_all();
        }
    }

    /// Every compiled function, once none is being compiled (the batch
    /// closed and drained).
    fn wait_for_all(&self) -> Vec<Compiled> {
        let mut state = self.lock();
        while state.compiling > 0 {
            state = (self.changed.wait(state)).unwrap_or_else(|e| e.into_inner());
        }
        (std::mem::take(&mut state.compiled).into_iter())
            .map(|c| c.expect("a compile thread panicked"))
            .collect()
    }
}

/// The process's compile helpers: threads that keep their Cranelift
/// `Context` from batch to batch and wait for the next one. On a host
/// that runs programs, `main`'s thread, idle while the compiler's thread
/// works, is one of them ([`serve_as_helper`]); it and any other helper
/// first compile a small function ([`warm_up`]), so that their caches and
/// allocators are warm when the first real function comes. Otherwise the
/// first compile that needs helpers starts them.
struct Helpers {
    threads: Vec<mpsc::Sender<Arc<Batch>>>,
}

static HELPERS: OnceLock<Helpers> = OnceLock::new();

/// Makes the calling thread a compile helper, with one more thread per
/// core beyond two (at most [`MAX_THREADS`] threads compile), all warmed
/// up with `isa`: returns only if the helpers had already been started
/// (a compile came first); otherwise this thread serves until the process
/// exits.
pub(super) fn serve_as_helper(isa: &OwnedTargetIsa) {
    let (send, batches) = mpsc::channel();
    let mut this_thread = Some(send);
    HELPERS.get_or_init(|| Helpers::start(this_thread.take(), Some(isa)));
    if this_thread.is_none() {
        serve(batches, Some(isa));
    }
}

/// Serves `batches` (after warming up with `isa`) until no one can send
/// one.
fn serve(batches: mpsc::Receiver<Arc<Batch>>, warm_up_with: Option<&OwnedTargetIsa>) {
    if let Some(isa) = warm_up_with {
        // Nothing is lost if it fails: its only product is warm caches.
        let _ = warm_up(&**isa);
    }
    let mut ctx = Context::new();
    for batch in batches {
        batch.work(&mut ctx);
    }
}

impl Helpers {
    fn get() -> &'static Helpers {
        HELPERS.get_or_init(|| Helpers::start(None, None))
    }

    /// `this_thread` (if given) and new threads, one helper per core but
    /// the compiler's (at most [`MAX_THREADS`] compile); fewer if no more
    /// threads can be started.
    fn start(
        this_thread: Option<mpsc::Sender<Arc<Batch>>>,
        warm_up_with: Option<&OwnedTargetIsa>,
    ) -> Helpers {
        let count = default_threads().clamp(1, MAX_THREADS) - 1;
        let mut threads: Vec<_> = this_thread.into_iter().collect();
        while threads.len() < count {
            let (send, batches) = mpsc::channel();
            let isa = warm_up_with.cloned();
            // Cranelift's passes are iterative; a helper needs no more
            // stack than a default thread's.
            let thread = std::thread::Builder::new().name("jitrun-compile".into());
            if thread.spawn(move || serve(batches, isa.as_ref())).is_err() {
                break;
            }
            threads.push(send);
        }
        Helpers { threads }
    }

    /// The first `n` helpers (fewer if fewer were started).
    fn first(&self, n: usize) -> &[mpsc::Sender<Arc<Batch>>] {
        &self.threads[..n.min(self.threads.len())]
    }
}

/// Compiles `f` with `ctx` (reused from function to function, as
/// Cranelift recommends) and copies out what the module and jitrun need.
fn compile_one(
    isa: &dyn TargetIsa,
    ctx: &mut Context,
    id: FuncId,
    f: cl::Function,
    disasm: bool,
) -> Result<MachineCode, CodegenError> {
    ctx.clear();
    ctx.func = f;
    ctx.set_disasm(disasm);
    (ctx.compile(isa, &mut ControlPlane::default())).map_err(|e| e.inner)?;
    let compiled = ctx.compiled_code().expect("just compiled");
    Ok(MachineCode {
        bytes: compiled.code_buffer().to_vec(),
        alignment: u64::from(compiled.buffer.alignment),
        relocs: (compiled.buffer.relocs().iter())
            .map(|r| ModuleReloc::from_mach_reloc(r, &ctx.func, id))
            .collect(),
        call_ranges: call_ranges(compiled),
        frame: FrameInfo::of(compiled),
        asm: compiled.vcode.clone(),
    })
}

/// Compiles a small function of the shapes translated code is made of (a
/// counted loop over memory, a call, a return) and throws it away: run on
/// an idle core before the first real compile, it takes Cranelift's first
/// page faults and cache misses off that compile's path (some 0.05 ms of
/// a cold compile on the machine it was measured on).
pub(super) fn warm_up(isa: &dyn TargetIsa) -> Result<(), CodegenError> {
    use cl::{condcodes::IntCC, types::I64, InstBuilder, MemFlagsData};
    let mut sig = cl::Signature::new(isa.default_call_conv());
    sig.params
        .extend([cl::AbiParam::new(I64), cl::AbiParam::new(I64)]);
    sig.returns.push(cl::AbiParam::new(I64));
    let mut func = cl::Function::with_name_signature(cl::UserFuncName::user(0, 0), sig.clone());
    let mut fctx = cranelift_frontend::FunctionBuilderContext::new();
    let mut b = cranelift_frontend::FunctionBuilder::new(&mut func, &mut fctx);
    let [entry, header, body, exit] = [(); 4].map(|_| b.create_block());
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let (array, n) = (b.block_params(entry)[0], b.block_params(entry)[1]);
    let zero = b.ins().iconst(I64, 0);
    b.ins().jump(header, &[zero.into(), zero.into()]);
    b.switch_to_block(header);
    let i = b.append_block_param(header, I64);
    let sum = b.append_block_param(header, I64);
    let more = b.ins().icmp(IntCC::SignedLessThan, i, n);
    b.ins().brif(more, body, &[], exit, &[]);
    b.switch_to_block(body);
    let offset = b.ins().ishl_imm_u(i, 3);
    let addr = b.ins().iadd(array, offset);
    let x = b.ins().load(I64, MemFlagsData::trusted(), addr, 8);
    let product = b.ins().imul(x, sum);
    let next_sum = b.ins().iadd(sum, product);
    b.ins().store(MemFlagsData::trusted(), next_sum, addr, 8);
    let next = b.ins().iadd_imm_s(i, 1);
    b.ins().jump(header, &[next.into(), next_sum.into()]);
    b.switch_to_block(exit);
    let callee = b.import_signature(sig);
    let call = b.ins().call_indirect(callee, array, &[sum, n]);
    let result = b.inst_results(call)[0];
    b.ins().return_(&[result]);
    b.seal_all_blocks();
    b.finalize(isa.frontend_config());
    let mut ctx = Context::for_function(func);
    ctx.compile(isa, &mut ControlPlane::default())
        .map(|_| ())
        .map_err(|e| e.inner)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_warm_up_function_verifies_and_compiles() {
        use crate::passes::{OptLevel, Scope};
        let options = super::super::CodegenOptions::host(OptLevel::O2.plan(Scope::Program), true);
        let isa = super::super::make_isa(&options).expect("the host is supported");
        super::warm_up(&*isa).expect("compiles, verifier on");
    }
}
