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
use cranelift_codegen::isa::TargetIsa;
use cranelift_codegen::{CodegenError, Context};
use cranelift_module::{FuncId, ModuleReloc};
use std::sync::{Condvar, Mutex};

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
/// thread costs about 0.1 ms to start.)
const MAX_THREADS: usize = 4;

/// A module is compiled on the caller's thread alone unless the functions
/// other than its largest, which the caller compiles itself, hold at least
/// this many of our IR's instructions (about 50 Cranelift instructions):
/// that is the work a helper can take over, and it must outweigh starting
/// and joining one (about 0.1 ms). Measured on two cores (min of 11 cold
/// compiles, 44 kernels, sizes in Cranelift instructions): a largest
/// function of 101 instructions beside one of 5 compiled 0.11 ms slower on
/// two threads, 234 beside 26 0.08 ms slower, 170 beside 55 broke even,
/// and 165 beside 82 gained 0.07 ms.
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
/// hands each to the helpers as soon as it is made: they compile one
/// function while the next is translated. Each thread takes the largest
/// function translated and not yet taken (by its Cranelift instructions:
/// `sizes` only guesses), so that none starts a large function last; once
/// all are translated, the caller compiles too. A helper's first function
/// compiles slower than the caller's (its caches and allocator are cold):
/// a function larger than the others together stays with the caller.
pub(super) fn compile_all(
    isa: &dyn TargetIsa,
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
    if threads <= 1 {
        let mut ctx = Context::new();
        return (0..sizes.len())
            .map(|k| {
                let (id, f) = translate(k);
                compile_one(isa, &mut ctx, id, f, disasm)
            })
            .collect();
    }
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    order.sort_by_key(|&k| std::cmp::Reverse(sizes[k]));
    let queue = Queue::default();
    // Compiles the queue's functions until it is empty and closed.
    let work = |ctx: &mut Context| {
        let mut done = Vec::new();
        while let Some((k, id, f)) = queue.take_largest() {
            done.push((k, compile_one(isa, ctx, id, f, disasm)));
        }
        done
    };
    let mut results: Vec<Option<Result<MachineCode, CodegenError>>> =
        (0..sizes.len()).map(|_| None).collect();
    std::thread::scope(|s| {
        let helpers: Vec<_> = (1..threads)
            .filter_map(|_| {
                // Cranelift's passes are iterative; a helper needs no more
                // stack than a default thread's. If no thread can be
                // started, the caller compiles everything.
                std::thread::Builder::new()
                    .name("jitrun-compile".into())
                    .spawn_scoped(s, || work(&mut Context::new()))
                    .ok()
            })
            .collect();
        // A function larger than all the others together is compiled by
        // the caller, whose caches are warm, after it has handed the
        // others out: a helper compiling it would end last anyway.
        let (largest, rest) = order.split_first().expect("two functions or more");
        let dominant = sizes[*largest] >= rest.iter().map(|&k| sizes[k]).sum();
        let mut kept = None;
        for &k in &order {
            let (id, f) = translate(k);
            if dominant && k == *largest {
                kept = Some((k, id, f));
            } else {
                queue.put(k, id, f);
            }
        }
        queue.close();
        let mut ctx = Context::new();
        let mut all = Vec::new();
        if let Some((k, id, f)) = kept {
            all.push((k, compile_one(isa, &mut ctx, id, f, disasm)));
        }
        all.extend(work(&mut ctx));
        for helper in helpers {
            all.extend(helper.join().expect("a compile thread panicked"));
        }
        for (k, result) in all {
            results[k] = Some(result);
        }
    });
    (results.into_iter())
        .map(|r| r.expect("every function was compiled"))
        .collect()
}

/// A translated function: its job, its id, its Cranelift IR.
type Job = (usize, FuncId, cl::Function);

/// Translated functions waiting for a compile thread, and whether no more
/// will come.
#[derive(Default)]
struct Queue {
    waiting: Mutex<(Vec<Job>, bool)>,
    changed: Condvar,
}

impl Queue {
    fn put(&self, k: usize, id: FuncId, f: cl::Function) {
        self.lock().0.push((k, id, f));
        self.changed.notify_one();
    }

    /// No more functions will come.
    fn close(&self) {
        self.lock().1 = true;
        self.changed.notify_all();
    }

    /// The waiting function of the most Cranelift instructions, once there
    /// is one; `None` once the queue is closed and empty.
    fn take_largest(&self) -> Option<Job> {
        let mut waiting = self.lock();
        loop {
            let (functions, closed) = &mut *waiting;
            let largest = (0..functions.len()).max_by_key(|&j| functions[j].2.dfg.num_insts());
            match largest {
                Some(j) => return Some(functions.swap_remove(j)),
                None if *closed => return None,
                None => waiting = (self.changed.wait(waiting)).expect("no compile thread panics"),
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, (Vec<Job>, bool)> {
        self.waiting.lock().expect("no compile thread panics")
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
