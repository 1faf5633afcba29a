//! The runtime of jitrun: every function that JIT-compiled Toy code calls.
//!
//! Everything here is `extern "C"` and never panics across a JIT frame:
//! cranelift-jit registers no unwind information, so an unwinding panic
//! would abort the process. Failures are reported by [`toy_rt_error`], which
//! flushes standard output, prints `file:line:col: runtime error: …` on
//! standard error and exits with status 2 — or, in recoverable mode (the
//! REPL, [`set_recoverable`]), records the failure in [`toy_rt_pending`]
//! and returns: code compiled for the REPL checks that word after every
//! call that can fail and at every loop back edge, and returns at once
//! when it is set. Ctrl-C sets the same word ([`request_interrupt`]).
//!
//! Arrays are heap blocks `[len: i64][elem0][elem1]…`; the pointer handed
//! to compiled code points at the length word. Elements of `[bool]` take one
//! byte (0 or 1, as C's `bool`); all others eight (ints, float bits, array
//! pointers). A header word before the length belongs to the collector
//! ([`gc`]), which frees arrays no program can reach any more.

pub mod gc;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::sync::Mutex;
use std::time::Instant;

/// Bytes from an array pointer (its length word) to its first element;
/// the bytes per element are [`gc::ElemKind::elem_size`].
pub const ARRAY_HEADER: i64 = 8;

/// Runtime error kinds, passed by compiled code to [`toy_rt_error`].
#[repr(i64)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    DivisionByZero = 0,
    IndexOutOfBounds = 1,
    StackOverflow = 2,
    NegativeLength = 3,
    OutOfMemory = 4,
}

impl ErrorKind {
    fn from_code(code: i64) -> Self {
        match code {
            0 => Self::DivisionByZero,
            1 => Self::IndexOutOfBounds,
            2 => Self::StackOverflow,
            3 => Self::NegativeLength,
            _ => Self::OutOfMemory,
        }
    }

    /// The message, with the operands `a` and `b` the error concerns
    /// (index and length, or the requested length).
    fn message(self, a: i64, b: i64) -> String {
        match self {
            Self::DivisionByZero => "division by zero".into(),
            Self::IndexOutOfBounds => {
                format!("index out of bounds: the length is {b} but the index is {a}")
            }
            Self::StackOverflow => "stack overflow".into(),
            Self::NegativeLength => format!("negative array length {a}"),
            Self::OutOfMemory => format!("out of memory allocating an array of length {a}"),
        }
    }
}

/// A source location packed into one integer for compiled code:
/// `line << 32 | column`, both 1-based.
pub fn pack_loc(line: u32, col: u32) -> i64 {
    ((line as i64) << 32) | col as i64
}

fn unpack_loc(loc: i64) -> (u32, u32) {
    ((loc >> 32) as u32, loc as u32)
}

/// Type codes describing what `toy_rt_print_array` prints: `depth * 4 + base`,
/// where base is 0 int, 1 float, 2 bool and depth the number of `[…]` around it.
pub mod typecode {
    pub const INT: i64 = 0;
    pub const FLOAT: i64 = 1;
    pub const BOOL: i64 = 2;
    pub fn array_of(elem: i64) -> i64 {
        elem + 4
    }
}

// ---------------------------------------------------------------- output

const FLUSH_AT: usize = 1 << 16;

static OUT: Mutex<Vec<u8>> = Mutex::new(Vec::new());
static SOURCE_NAME: Mutex<String> = Mutex::new(String::new());

fn with_out(f: impl FnOnce(&mut Vec<u8>)) {
    let mut out = OUT.lock().unwrap_or_else(|e| e.into_inner());
    f(&mut out);
    if out.len() >= FLUSH_AT {
        write_stdout(&mut out);
    }
}

fn write_stdout(buf: &mut Vec<u8>) {
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    // A closed pipe (`jitrun prog.toy | head`) is not an error of the program.
    let _ = lock.write_all(buf).and_then(|_| lock.flush());
    buf.clear();
}

/// Writes everything `print` has buffered to standard output.
pub fn flush_stdout() {
    let mut out = OUT.lock().unwrap_or_else(|e| e.into_inner());
    write_stdout(&mut out);
}

/// Sets the file name that runtime errors name.
pub fn set_source_name(name: &str) {
    *SOURCE_NAME.lock().unwrap_or_else(|e| e.into_inner()) = name.to_string();
}

/// One frame of a Toy call stack: the function as the report names it
/// (`the top level` for top-level code) and the packed location
/// ([`pack_loc`]) in it of the failed operation or of the call that is
/// still running.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    pub function: Arc<str>,
    pub loc: i64,
}

/// Reports a runtime error at `loc`, with the call stack `frames`
/// (innermost first), and ends the process with status 2. For code that
/// is not compiled Toy code (the interpreter), which knows its own stack.
pub fn runtime_error(kind: ErrorKind, loc: i64, a: i64, b: i64, frames: &[Frame]) -> ! {
    print_error(kind, loc, a, b, frames);
    std::process::exit(2)
}

fn print_error(kind: ErrorKind, loc: i64, a: i64, b: i64, frames: &[Frame]) {
    flush_stdout();
    let mut text = format!("{}: runtime error: {}\n", position(loc), kind.message(a, b));
    write_stack(&mut text, &runs(frames, virtual_frames(kind, a)));
    let stderr = std::io::stderr();
    let _ = stderr.lock().write_all(text.as_bytes());
}

/// The frames a stack overflow reported by a `CheckDepth` check stands
/// for beyond those on the stack: its detail `a` counts the calls of the
/// innermost function that became jumps (zero for other reports).
fn virtual_frames(kind: ErrorKind, a: i64) -> usize {
    match kind {
        ErrorKind::StackOverflow => usize::try_from(a).unwrap_or(0),
        _ => 0,
    }
}

/// `frames` as runs of one frame repeated, the first repeated `extra`
/// more times.
fn runs(frames: &[Frame], extra: usize) -> Vec<(&Frame, usize)> {
    let mut runs: Vec<(&Frame, usize)> = Vec::new();
    for frame in frames {
        match runs.last_mut() {
            Some((f, n)) if *f == frame => *n += 1,
            _ => runs.push((frame, 1)),
        }
    }
    if let Some((_, n)) = runs.first_mut() {
        *n += extra;
    }
    runs
}

/// `file:line:col` of a packed location.
fn position(loc: i64) -> String {
    let (line, col) = unpack_loc(loc);
    let (name, line) = source_position(line);
    format!("{name}:{line}:{col}")
}

/// Runs of one frame repeated (the same function at the same location,
/// as recursion makes them) longer than this are collapsed: their first
/// and last [`RUN_KEPT`] frames are printed, with one line counting the
/// rest between them.
const RUN_IN_FULL: usize = 2 * RUN_KEPT + 1;
const RUN_KEPT: usize = 3;
/// After collapsing runs, a stack of more lines than this (mutual
/// recursion) prints only its first and last [`STACK_KEPT`] lines.
const STACK_LINES: usize = 2 * STACK_KEPT + 1;
const STACK_KEPT: usize = 20;

/// The call stack under the first line of a runtime error report:
/// `  in F at LOC`, then `  called from G at LOC` for each caller (`F`
/// a function's name or `the top level`), repetitions collapsed into
/// `  … N more calls of F at LOC`.
fn write_stack(out: &mut String, runs: &[(&Frame, usize)]) {
    // Lines: a frame (with its index) or a count of left-out frames.
    enum Line<'a> {
        Frame(usize, &'a Frame),
        More(usize, Option<&'a Frame>),
    }
    let mut lines = Vec::new();
    let mut i = 0;
    for &(frame, run) in runs {
        if run > RUN_IN_FULL {
            lines.extend((i..i + RUN_KEPT).map(|k| Line::Frame(k, frame)));
            lines.push(Line::More(run - 2 * RUN_KEPT, Some(frame)));
            lines.extend((i + run - RUN_KEPT..i + run).map(|k| Line::Frame(k, frame)));
        } else {
            lines.extend((i..i + run).map(|k| Line::Frame(k, frame)));
        }
        i += run;
    }
    if lines.len() > STACK_LINES {
        let frames_in = |lines: &[Line]| -> usize {
            lines
                .iter()
                .map(|l| match l {
                    Line::Frame(..) => 1,
                    Line::More(n, _) => *n,
                })
                .sum()
        };
        let left_out = frames_in(&lines[STACK_KEPT..lines.len() - STACK_KEPT]);
        lines.splice(
            STACK_KEPT..lines.len() - STACK_KEPT,
            std::iter::once(Line::More(left_out, None)),
        );
    }
    for line in lines {
        match line {
            Line::Frame(k, f) => {
                let how = if k == 0 { "in" } else { "called from" };
                let _ = writeln!(out, "  {how} {} at {}", f.function, position(f.loc));
            }
            Line::More(n, Some(f)) => {
                let calls = if n == 1 { "call" } else { "calls" };
                let n = group_thousands(n);
                let _ = writeln!(
                    out,
                    "  … {n} more {calls} of {} at {}",
                    f.function,
                    position(f.loc)
                );
            }
            Line::More(n, None) => {
                let calls = if n == 1 { "call" } else { "calls" };
                let _ = writeln!(out, "  … {} more {calls}", group_thousands(n));
            }
        }
    }
}

/// `99990` as `99 990`.
fn group_thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// Sources of the REPL: `(first line, name)`, ascending. Code of every
/// entry carries session-wide line numbers; this maps them back.
static SOURCES: Mutex<Vec<(u32, String)>> = Mutex::new(Vec::new());

/// Registers a source whose lines compiled code numbers from `first_line`
/// on (REPL entries and loaded files); runtime errors in its code then
/// name it and count lines from its start.
pub fn add_source(first_line: u32, name: &str) {
    let mut sources = SOURCES.lock().unwrap_or_else(|e| e.into_inner());
    sources.push((first_line, name.to_string()));
}

fn source_position(line: u32) -> (String, u32) {
    let sources = SOURCES.lock().unwrap_or_else(|e| e.into_inner());
    let i = sources.partition_point(|&(first, _)| first <= line);
    if i > 0 {
        let (first, name) = &sources[i - 1];
        return (name.clone(), line - first + 1);
    }
    let name = SOURCE_NAME.lock().unwrap_or_else(|e| e.into_inner());
    (name.clone(), line)
}

/// Reports a runtime error of compiled code, with the stack walked from
/// `caller` (see [`compiled_stack`]): ends the process, or in recoverable
/// mode marks it pending so that compiled code returns to the REPL.
fn report_error(kind: ErrorKind, loc: i64, a: i64, b: i64, caller: gc::CallerFrame) {
    let mut frames = compiled_stack(caller);
    // The innermost frame is the call of the runtime; the location is
    // the operation's (one of several, for a group of checks).
    if let Some(first) = frames.first_mut() {
        first.loc = loc;
    }
    if !RECOVERABLE.load(Ordering::Relaxed) {
        runtime_error(kind, loc, a, b, &frames);
    }
    print_error(kind, loc, a, b, &frames);
    toy_rt_pending.store(PENDING_ERROR, Ordering::SeqCst);
}

// ---------------------------------------------------------------- recoverable mode

static RECOVERABLE: AtomicBool = AtomicBool::new(false);

/// Nonzero when compiled code must stop and return: [`PENDING_ERROR`] after
/// a runtime error was reported, [`PENDING_INTERRUPT`] after Ctrl-C.
/// Only code compiled for the REPL reads it.
#[no_mangle]
pub static toy_rt_pending: AtomicU64 = AtomicU64::new(0);
pub const PENDING_ERROR: u64 = 1;
pub const PENDING_INTERRUPT: u64 = 2;

/// In recoverable mode runtime errors return to the caller of compiled
/// code instead of ending the process.
pub fn set_recoverable(on: bool) {
    RECOVERABLE.store(on, Ordering::Relaxed);
}

/// Asks running compiled code to stop at its next check (safe to call from
/// a signal handler's thread). An error already pending wins.
pub fn request_interrupt() {
    let _ =
        toy_rt_pending.compare_exchange(0, PENDING_INTERRUPT, Ordering::SeqCst, Ordering::SeqCst);
}

/// Why compiled code stopped early, if it did; clears the state for the
/// next run.
pub fn take_pending() -> u64 {
    toy_rt_pending.swap(0, Ordering::SeqCst)
}

fn format_float(out: &mut Vec<u8>, x: f64) {
    let _ = write!(out, "{x:?}");
}

#[no_mangle]
pub extern "C" fn toy_rt_print_int(x: i64) {
    with_out(|o| {
        let _ = write!(o, "{x}");
    });
}

#[no_mangle]
pub extern "C" fn toy_rt_print_float(x: f64) {
    with_out(|o| format_float(o, x));
}

#[no_mangle]
pub extern "C" fn toy_rt_print_bool(b: i64) {
    with_out(|o| o.extend_from_slice(if b != 0 { b"true" } else { b"false" }));
}

/// # Safety
/// `ptr` must point to `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn toy_rt_print_str(ptr: *const u8, len: i64) {
    let bytes = std::slice::from_raw_parts(ptr, len as usize);
    with_out(|o| o.extend_from_slice(bytes));
}

#[no_mangle]
pub extern "C" fn toy_rt_print_space() {
    with_out(|o| o.push(b' '));
}

#[no_mangle]
pub extern "C" fn toy_rt_print_newline() {
    with_out(|o| o.push(b'\n'));
}

/// # Safety
/// `arr` must be an array allocated by this runtime whose element type is
/// described by `elem_code` (see [`typecode`]).
#[no_mangle]
pub unsafe extern "C" fn toy_rt_print_array(arr: *const i64, elem_code: i64) {
    with_out(|o| write_array(o, arr, elem_code));
}

unsafe fn write_array(out: &mut Vec<u8>, arr: *const i64, elem_code: i64) {
    if !gc::is_live(arr) {
        internal_error(&format!("printing a freed array ({arr:p})"));
    }
    let len = *arr;
    out.push(b'[');
    for i in 0..len {
        if i > 0 {
            out.extend_from_slice(b", ");
        }
        if elem_code == typecode::BOOL {
            let byte = *(arr.add(1) as *const u8).add(i as usize);
            out.extend_from_slice(if byte != 0 { b"true" } else { b"false" });
            continue;
        }
        let slot = *arr.add(1 + i as usize);
        match elem_code {
            typecode::INT => {
                let _ = write!(out, "{slot}");
            }
            typecode::FLOAT => format_float(out, f64::from_bits(slot as u64)),
            nested => write_array(out, slot as *const i64, nested - 4),
        }
    }
    out.push(b']');
}

// ---------------------------------------------------------------- arrays

/// Reports why an allocation failed; null for compiled code to return on.
fn allocation_failed(e: gc::AllocError, len: i64, loc: i64, caller: gc::CallerFrame) -> *mut i64 {
    report_error(e.kind(), loc, len, 0, caller);
    std::ptr::null_mut()
}

impl gc::AllocError {
    /// The runtime error a failed allocation is.
    pub fn kind(&self) -> ErrorKind {
        match self {
            gc::AllocError::NegativeLength => ErrorKind::NegativeLength,
            gc::AllocError::OutOfMemory => ErrorKind::OutOfMemory,
        }
    }
}

/// Allocates an array of `len` elements of kind `kind` ([`gc::ElemKind`]
/// as a code), each holding `fill` (an int, float bits or an array
/// pointer; a bool as 0/1), for Rust callers (tests, benchmarks): no
/// compiled frames are walked for roots.
pub fn array_new(len: i64, fill: i64, kind: i64, loc: i64) -> *mut i64 {
    let caller = gc::CallerFrame::NONE;
    gc::allocate(len, fill, gc::ElemKind::from_code(kind), caller)
        .unwrap_or_else(|e| allocation_failed(e, len, loc, caller))
}

/// What compiled code's `toy_rt_array_new(len, fill, kind, loc)` runs,
/// with its caller's frame pointer and return address added by the
/// trampoline, so that the collector can walk compiled frames.
extern "C" fn array_new_from_compiled_code(
    len: i64,
    fill: i64,
    kind: i64,
    loc: i64,
    fp: usize,
    return_address: usize,
) -> *mut i64 {
    let kind = gc::ElemKind::from_code(kind);
    // SAFETY: called by compiled code, on the thread that runs it, with
    // no borrow of the heap held.
    if let Some(array) = unsafe { gc::allocate_lent(len, fill, kind) } {
        return array;
    }
    let caller = gc::CallerFrame { fp, return_address };
    gc::allocate(len, fill, kind, caller).unwrap_or_else(|e| allocation_failed(e, len, loc, caller))
}

/// Defines `extern "C" fn $name($args…) -> $ret`, a naked trampoline
/// that passes its arguments on to `$inner` with two more after them: the
/// caller's frame pointer and the call's return address (x86-64: `rbp`
/// and the word on top of the stack; aarch64: `x29` and `x30`), in the
/// argument registers `$fp`/`$ra` (x86-64) and `$fp64`/`$ra64` (aarch64).
/// It jumps, so `$inner` returns straight to compiled code.
macro_rules! caller_frame_trampoline {
    ($(#[$doc:meta])* $name:ident($($arg:ident: $ty:ty),*) $(-> $ret:ty)?, $inner:path,
     x86_64: $fp:literal, $ra:literal, aarch64: $fp64:literal, $ra64:literal) => {
        $(#[$doc])*
        #[unsafe(naked)]
        #[no_mangle]
        pub extern "C" fn $name($($arg: $ty),*) $(-> $ret)? {
            #[cfg(target_arch = "x86_64")]
            core::arch::naked_asm!(
                concat!("mov ", $fp, ", rbp"),
                concat!("mov ", $ra, ", [rsp]"),
                "jmp {inner}",
                inner = sym $inner,
            );
            #[cfg(target_arch = "aarch64")]
            core::arch::naked_asm!(
                concat!("mov ", $fp64, ", x29"),
                concat!("mov ", $ra64, ", x30"),
                "b {inner}",
                inner = sym $inner,
            );
        }
    };
}

/// Defines `extern "C" fn $name($args…)`, a naked trampoline for the
/// error reports of compiled code: it notes the caller's frame pointer
/// and the call's return address ([`error_site`]) and jumps to `$inner`
/// with the arguments untouched, however many there are. So a failed
/// check costs compiled code one call, marked with the check's frames.
macro_rules! error_entry {
    ($(#[$doc:meta])* $name:ident($($arg:ident: $ty:ty),*), $inner:path) => {
        $(#[$doc])*
        #[unsafe(naked)]
        #[no_mangle]
        pub extern "C" fn $name($($arg: $ty),*) {
            #[cfg(target_arch = "x86_64")]
            core::arch::naked_asm!(
                "mov qword ptr [rip + {fp}], rbp",
                "mov rax, qword ptr [rsp]",
                "mov qword ptr [rip + {ra}], rax",
                "jmp {inner}",
                fp = sym ERROR_FP,
                ra = sym ERROR_RETURN_ADDRESS,
                inner = sym $inner,
            );
            #[cfg(target_arch = "aarch64")]
            core::arch::naked_asm!(
                "adrp x9, {fp}",
                "str x29, [x9, :lo12:{fp}]",
                "adrp x9, {ra}",
                "str x30, [x9, :lo12:{ra}]",
                "b {inner}",
                fp = sym ERROR_FP,
                ra = sym ERROR_RETURN_ADDRESS,
                inner = sym $inner,
            );
        }
    };
}

caller_frame_trampoline!(
    /// `toy_rt_array_new(len, fill, kind, loc) -> array`, the allocator's
    /// entry from compiled code: the collector walks compiled frames from
    /// the caller's frame.
    toy_rt_array_new(_len: i64, _fill: i64, _kind: i64, _loc: i64) -> *mut i64,
    array_new_from_compiled_code,
    x86_64: "r8", "r9", aarch64: "x4", "x5"
);

/// Where [`toy_rt_array_new_preserving`] leaves the array it made.
#[no_mangle]
pub static toy_rt_alloc_result: AtomicUsize = AtomicUsize::new(0);

/// `toy_rt_array_new_preserving(len, fill, kind, loc)`: `toy_rt_array_new`
/// for Cranelift's `preserve_all` convention. Every register survives the
/// call, so that compiled code keeps its values in registers across the
/// slow path of an allocation in a loop instead of spilling them around
/// the loop; the array is left in [`toy_rt_alloc_result`]. It saves the
/// caller-saved registers (x86-64: the general ones and `xmm0`–`xmm15`;
/// aarch64: `x0`–`x18` and `q0`–`q31`), calls the allocator with the
/// caller's frame pointer and return address (as `toy_rt_array_new`'s
/// trampoline passes them), and restores them.
#[unsafe(naked)]
#[no_mangle]
pub extern "C" fn toy_rt_array_new_preserving(_len: i64, _fill: i64, _kind: i64, _loc: i64) {
    #[cfg(target_arch = "x86_64")]
    core::arch::naked_asm!(
        "push rbp",
        "mov rbp, rsp",
        "push rax",
        "push rcx",
        "push rdx",
        "push rsi",
        "push rdi",
        "push r8",
        "push r9",
        "push r10",
        "push r11",
        // 16 xmm registers, and 8 bytes to align the stack for the call.
        "sub rsp, 264",
        "movdqu xmmword ptr [rsp + 0], xmm0",
        "movdqu xmmword ptr [rsp + 16], xmm1",
        "movdqu xmmword ptr [rsp + 32], xmm2",
        "movdqu xmmword ptr [rsp + 48], xmm3",
        "movdqu xmmword ptr [rsp + 64], xmm4",
        "movdqu xmmword ptr [rsp + 80], xmm5",
        "movdqu xmmword ptr [rsp + 96], xmm6",
        "movdqu xmmword ptr [rsp + 112], xmm7",
        "movdqu xmmword ptr [rsp + 128], xmm8",
        "movdqu xmmword ptr [rsp + 144], xmm9",
        "movdqu xmmword ptr [rsp + 160], xmm10",
        "movdqu xmmword ptr [rsp + 176], xmm11",
        "movdqu xmmword ptr [rsp + 192], xmm12",
        "movdqu xmmword ptr [rsp + 208], xmm13",
        "movdqu xmmword ptr [rsp + 224], xmm14",
        "movdqu xmmword ptr [rsp + 240], xmm15",
        "mov r8, qword ptr [rbp]",
        "mov r9, qword ptr [rbp + 8]",
        "call {inner}",
        "mov qword ptr [rip + {result}], rax",
        "movdqu xmm0, xmmword ptr [rsp + 0]",
        "movdqu xmm1, xmmword ptr [rsp + 16]",
        "movdqu xmm2, xmmword ptr [rsp + 32]",
        "movdqu xmm3, xmmword ptr [rsp + 48]",
        "movdqu xmm4, xmmword ptr [rsp + 64]",
        "movdqu xmm5, xmmword ptr [rsp + 80]",
        "movdqu xmm6, xmmword ptr [rsp + 96]",
        "movdqu xmm7, xmmword ptr [rsp + 112]",
        "movdqu xmm8, xmmword ptr [rsp + 128]",
        "movdqu xmm9, xmmword ptr [rsp + 144]",
        "movdqu xmm10, xmmword ptr [rsp + 160]",
        "movdqu xmm11, xmmword ptr [rsp + 176]",
        "movdqu xmm12, xmmword ptr [rsp + 192]",
        "movdqu xmm13, xmmword ptr [rsp + 208]",
        "movdqu xmm14, xmmword ptr [rsp + 224]",
        "movdqu xmm15, xmmword ptr [rsp + 240]",
        "add rsp, 264",
        "pop r11",
        "pop r10",
        "pop r9",
        "pop r8",
        "pop rdi",
        "pop rsi",
        "pop rdx",
        "pop rcx",
        "pop rax",
        "pop rbp",
        "ret",
        inner = sym array_new_from_compiled_code,
        result = sym toy_rt_alloc_result,
    );
    #[cfg(target_arch = "aarch64")]
    core::arch::naked_asm!(
        "stp x29, x30, [sp, #-16]!",
        "mov x29, sp",
        // x0-x18 (160 bytes with padding), q0-q31 (512 bytes).
        "sub sp, sp, #672",
        "stp x0, x1, [sp, #0]",
        "stp x2, x3, [sp, #16]",
        "stp x4, x5, [sp, #32]",
        "stp x6, x7, [sp, #48]",
        "stp x8, x9, [sp, #64]",
        "stp x10, x11, [sp, #80]",
        "stp x12, x13, [sp, #96]",
        "stp x14, x15, [sp, #112]",
        "stp x16, x17, [sp, #128]",
        "str x18, [sp, #144]",
        "stp q0, q1, [sp, #160]",
        "stp q2, q3, [sp, #192]",
        "stp q4, q5, [sp, #224]",
        "stp q6, q7, [sp, #256]",
        "stp q8, q9, [sp, #288]",
        "stp q10, q11, [sp, #320]",
        "stp q12, q13, [sp, #352]",
        "stp q14, q15, [sp, #384]",
        "stp q16, q17, [sp, #416]",
        "stp q18, q19, [sp, #448]",
        "stp q20, q21, [sp, #480]",
        "stp q22, q23, [sp, #512]",
        "stp q24, q25, [sp, #544]",
        "stp q26, q27, [sp, #576]",
        "stp q28, q29, [sp, #608]",
        "stp q30, q31, [sp, #640]",
        "ldr x4, [x29]",
        "ldr x5, [x29, #8]",
        "bl {inner}",
        "adrp x9, {result}",
        "str x0, [x9, :lo12:{result}]",
        "ldp q0, q1, [sp, #160]",
        "ldp q2, q3, [sp, #192]",
        "ldp q4, q5, [sp, #224]",
        "ldp q6, q7, [sp, #256]",
        "ldp q8, q9, [sp, #288]",
        "ldp q10, q11, [sp, #320]",
        "ldp q12, q13, [sp, #352]",
        "ldp q14, q15, [sp, #384]",
        "ldp q16, q17, [sp, #416]",
        "ldp q18, q19, [sp, #448]",
        "ldp q20, q21, [sp, #480]",
        "ldp q22, q23, [sp, #512]",
        "ldp q24, q25, [sp, #544]",
        "ldp q26, q27, [sp, #576]",
        "ldp q28, q29, [sp, #608]",
        "ldp q30, q31, [sp, #640]",
        "ldr x18, [sp, #144]",
        "ldp x0, x1, [sp, #0]",
        "ldp x2, x3, [sp, #16]",
        "ldp x4, x5, [sp, #32]",
        "ldp x6, x7, [sp, #48]",
        "ldp x8, x9, [sp, #64]",
        "ldp x10, x11, [sp, #80]",
        "ldp x12, x13, [sp, #96]",
        "ldp x14, x15, [sp, #112]",
        "ldp x16, x17, [sp, #128]",
        "add sp, sp, #672",
        "ldp x29, x30, [sp], #16",
        "ret",
        inner = sym array_new_from_compiled_code,
        result = sym toy_rt_alloc_result,
    );
}

/// A shared array of length 0, outside the collected heap: the value of
/// an array global read before its `let` has run.
#[no_mangle]
pub extern "C" fn toy_rt_empty_array() -> *mut i64 {
    static EMPTY: AtomicUsize = AtomicUsize::new(0);
    let p = EMPTY.load(Ordering::Relaxed);
    if p != 0 {
        return p as *mut i64;
    }
    let p = gc::allocate_static(0);
    EMPTY.store(p as usize, Ordering::Relaxed);
    p
}

/// Reports a bug of jitrun itself (a broken invariant found at run time)
/// and ends the process with status 3.
pub fn internal_error(message: &str) -> ! {
    flush_stdout();
    eprintln!("internal error: {message}");
    std::process::exit(3)
}

// ---------------------------------------------------------------- errors, math, clock

error_entry!(
    /// `toy_rt_error(code, loc, details)`: called by compiled code when a
    /// check fails; `details` points at the two operands the error
    /// concerns (see [`ErrorKind`]). Returns only in recoverable mode.
    toy_rt_error(_code: i64, _loc: i64, _details: *const i64),
    check_failed
);

/// # Safety
/// See [`toy_rt_error`].
unsafe extern "C" fn check_failed(code: i64, loc: i64, details: *const i64) {
    let [a, b] = *(details as *const [i64; 2]);
    report_error(ErrorKind::from_code(code), loc, a, b, error_site())
}

/// Most arrays a group of checks spans: `toy_rt_group_error` and
/// `toy_rt_walk_error` are handed one length each.
pub const MAX_GROUP_ARRAYS: usize = 3;

/// The most words a failed check hands its report in memory (a walk's
/// start, end and lengths).
pub const MAX_ERROR_DETAILS: usize = 2 + MAX_GROUP_ARRAYS;

/// Where a failed check stores the values its report names, passing the
/// address: in registers, the values the checks compare were copied into
/// argument registers before every compare.
#[no_mangle]
pub static toy_rt_error_details: [AtomicI64; MAX_ERROR_DETAILS] =
    [const { AtomicI64::new(0) }; MAX_ERROR_DETAILS];

error_entry!(
    /// `toy_rt_group_error(table, details)`: called by compiled code when
    /// the check of a group of accesses fails. `table` is `[n, (loc,
    /// offset, array)…]`: the accesses that can fail first, in program
    /// order, each at index `base + offset` (wrapping; `base` is zero for
    /// a group of constant indices) and with which of the
    /// `MAX_GROUP_ARRAYS` lengths is its array's. `details` is those
    /// lengths, then `base`. Reports the first that is out of bounds, as
    /// its own check would have. Returns only in recoverable mode. `table`
    /// must point at such a table (the translator's `group_table`).
    toy_rt_group_error(_table: *const i64, _details: *const i64),
    group_check_failed
);

/// # Safety
/// See [`toy_rt_group_error`].
unsafe extern "C" fn group_check_failed(table: *const i64, details: *const i64) {
    let lens = *(details as *const [i64; MAX_GROUP_ARRAYS]);
    let base = *details.add(MAX_GROUP_ARRAYS);
    let n = *table as usize;
    let entries = std::slice::from_raw_parts(table.add(1), 3 * n);
    let len_of = |entry: &[i64]| lens.get(entry[2] as usize).copied().unwrap_or(lens[0]);
    let index_of = |entry: &[i64]| base.wrapping_add(entry[1]);
    // Compared unsigned, as the checks do: a negative index fails.
    let failed = entries
        .chunks_exact(3)
        .find(|entry| index_of(entry) as u64 >= len_of(entry) as u64)
        .unwrap_or(&entries[..3]);
    report_error(
        ErrorKind::IndexOutOfBounds,
        failed[0],
        index_of(failed),
        len_of(failed),
        error_site(),
    )
}

error_entry!(
    /// `toy_rt_walk_error(table, details)`: called by compiled code when
    /// the entry check of a loop that walks several arrays in step fails
    /// (rule 6 of `ir::bounds`): the loop runs `u` from `start` while
    /// `u < end`, accessing every array at `u` in every iteration.
    /// `details` is `[start, end, len…]`, a length for each of the
    /// `MAX_GROUP_ARRAYS` arrays. `table` is `[n, loc…]`: each array's
    /// first access in the order an iteration runs them. Reports what the
    /// loop would have: at the first `u` outside some array, the first
    /// access in the iteration whose array that is. Returns only in
    /// recoverable mode. `table` must point at such a table (the
    /// translator's `check_walk`).
    toy_rt_walk_error(_table: *const i64, _details: *const i64),
    walk_check_failed
);

/// # Safety
/// See [`toy_rt_walk_error`].
unsafe extern "C" fn walk_check_failed(table: *const i64, details: *const i64) {
    let details = *(details as *const [i64; MAX_ERROR_DETAILS]);
    let (start, end) = (details[0], details[1]);
    let lens: [i64; MAX_GROUP_ARRAYS] = std::array::from_fn(|k| details[2 + k]);
    let n = (*table as usize).min(MAX_GROUP_ARRAYS);
    let locs = std::slice::from_raw_parts(table.add(1), n);
    // Where each array stops the walk: at once, or at its end.
    let stop = |len: i64| {
        if start as u64 >= len as u64 {
            Some(start)
        } else {
            (end > len).then_some(len)
        }
    };
    // The check failed, so some array stops it; the first to fail at the
    // earliest stop is reported.
    let first_stop = lens[..n].iter().filter_map(|&len| stop(len)).min();
    let k = (0..n).find(|&k| stop(lens[k]) == first_stop).unwrap_or(0);
    report_error(
        ErrorKind::IndexOutOfBounds,
        locs.get(k).copied().unwrap_or(0),
        first_stop.unwrap_or(start),
        lens[k],
        error_site(),
    )
}

/// Float remainder, truncated like C's `fmod` (Rust's `%` on `f64`).
#[no_mangle]
pub extern "C" fn toy_rt_fmod(a: f64, b: f64) -> f64 {
    a % b
}

/// Seconds from a monotonic clock, counted from the first call.
#[no_mangle]
pub extern "C" fn toy_rt_clock() -> f64 {
    static START: Mutex<Option<Instant>> = Mutex::new(None);
    let mut start = START.lock().unwrap_or_else(|e| e.into_inner());
    start
        .get_or_insert_with(Instant::now)
        .elapsed()
        .as_secs_f64()
}

/// The lowest stack address compiled code may reach: a function that calls
/// Toy functions checks on entry that the stack pointer is above it, and
/// reports `stack overflow` ([`toy_rt_stack_overflow`]) otherwise.
/// Compiled code loads it through the symbol
/// `toy_rt_stack_limit`; [`set_stack_limit`] sets it on the running thread.
#[no_mangle]
pub static toy_rt_stack_limit: AtomicU64 = AtomicU64::new(0);

/// Allows compiled code running on the current thread `budget` bytes of
/// stack below the caller's frame.
#[inline(never)]
pub fn set_stack_limit(budget: usize) {
    let marker = 0u8;
    let here = std::ptr::addr_of!(marker) as u64;
    toy_rt_stack_limit.store(here.saturating_sub(budget as u64), Ordering::Relaxed);
}

/// The machine code of each call of a Toy function, of each call that
/// reports a runtime error and of each allocation, `start → (end,
/// frames)`: the Toy frames the call stands for, innermost first (more
/// than one where calls were expanded in place); the first frame's
/// location is the call's. A stack overflow is detected on entry to the
/// callee, and the return address says which call it came from; the
/// walk of a runtime error's stack maps each return address to its frames.
static CALL_SITES: Mutex<CallSites> = Mutex::new(BTreeMap::new());

/// Call sites by start: their end and frames.
type CallSites = BTreeMap<usize, (usize, Box<[Frame]>)>;

/// The code range `[start, end)` of a call in compiled code and the Toy
/// frames it stands for (see [`add_call_sites`]).
pub struct CallSite {
    pub start: usize,
    pub end: usize,
    pub frames: Box<[Frame]>,
}

/// Registers the code ranges of calls and the frames they stand for.
pub fn add_call_sites(sites: Vec<CallSite>) {
    let mut map = CALL_SITES.lock().unwrap_or_else(|e| e.into_inner());
    map.extend(sites.into_iter().map(|s| (s.start, (s.end, s.frames))));
}

/// Forgets call sites registered with [`add_call_sites`], by their
/// starts (before their code is freed, as the address range may be used
/// again).
pub fn remove_call_sites(starts: &[usize]) {
    let mut map = CALL_SITES.lock().unwrap_or_else(|e| e.into_inner());
    for start in starts {
        map.remove(start);
    }
}

/// The frames of the call whose code contains `address`.
fn call_site_at(map: &BTreeMap<usize, (usize, Box<[Frame]>)>, address: usize) -> Option<&[Frame]> {
    let (_, (end, frames)) = map.range(..=address).next_back()?;
    (address < *end).then_some(&frames[..])
}

/// The Toy call stack of compiled code, innermost first: the frames of
/// the call that returns to `caller.return_address` (in the function
/// whose frame pointer is `caller.fp`), then of each call below it,
/// following the frame records (`[fp]` the caller's frame pointer,
/// `[fp + 8]` the return address, on x86-64 and aarch64 alike) until a
/// return address is no registered call: the Rust code that ran the
/// program.
fn compiled_stack(caller: gc::CallerFrame) -> Vec<Frame> {
    let map = CALL_SITES.lock().unwrap_or_else(|e| e.into_inner());
    let (mut fp, mut ra) = (caller.fp, caller.return_address);
    let mut frames = Vec::new();
    while fp != 0 {
        // The call instruction ends where the return address begins.
        let Some(site) = call_site_at(&map, ra.wrapping_sub(1)) else {
            break;
        };
        frames.extend_from_slice(site);
        // SAFETY: `fp` is the frame pointer of a live compiled frame:
        // every compiled function keeps a frame record.
        unsafe {
            ra = *((fp + 8) as *const usize);
            fp = *(fp as *const usize);
        }
    }
    frames
}

/// Called on entry to a function when the stack limit is reached, with the
/// function's return address and frame pointer; reports the overflow at
/// the call the address returns to (or at `fallback`, a location in the
/// function), with the stack from there.
///
/// # Safety
/// `fp` must be the calling compiled function's frame pointer.
#[no_mangle]
pub unsafe extern "C" fn toy_rt_stack_overflow(return_address: i64, fallback: i64, fp: usize) {
    let return_address = return_address as usize;
    let caller = gc::CallerFrame {
        fp: *(fp as *const usize),
        return_address,
    };
    let loc = {
        let map = CALL_SITES.lock().unwrap_or_else(|e| e.into_inner());
        call_site_at(&map, return_address.wrapping_sub(1)).map(|frames| frames[0].loc)
    };
    report_error(
        ErrorKind::StackOverflow,
        loc.unwrap_or(fallback),
        0,
        0,
        caller,
    )
}

/// Where the error being reported was called from, noted by the
/// [`error_entry!`] trampoline: the caller's frame pointer and the call's
/// return address. One pair for the process: compiled code runs on one
/// thread at a time, and the report reads the pair right after the
/// trampoline wrote it.
static ERROR_FP: AtomicUsize = AtomicUsize::new(0);
static ERROR_RETURN_ADDRESS: AtomicUsize = AtomicUsize::new(0);

/// Where the runtime error being reported was called from.
fn error_site() -> gc::CallerFrame {
    gc::CallerFrame {
        fp: ERROR_FP.swap(0, Ordering::Relaxed),
        return_address: ERROR_RETURN_ADDRESS.swap(0, Ordering::Relaxed),
    }
}

/// Every runtime function with the symbol name compiled code imports it by.
pub fn symbols() -> Vec<(&'static str, *const u8)> {
    vec![
        ("toy_rt_print_int", toy_rt_print_int as *const u8),
        ("toy_rt_print_float", toy_rt_print_float as *const u8),
        ("toy_rt_print_bool", toy_rt_print_bool as *const u8),
        ("toy_rt_print_str", toy_rt_print_str as *const u8),
        ("toy_rt_print_space", toy_rt_print_space as *const u8),
        ("toy_rt_print_newline", toy_rt_print_newline as *const u8),
        ("toy_rt_print_array", toy_rt_print_array as *const u8),
        ("toy_rt_array_new", toy_rt_array_new as *const u8),
        (
            "toy_rt_array_new_preserving",
            toy_rt_array_new_preserving as *const u8,
        ),
        ("toy_rt_empty_array", toy_rt_empty_array as *const u8),
        ("toy_rt_error", toy_rt_error as *const u8),
        ("toy_rt_group_error", toy_rt_group_error as *const u8),
        ("toy_rt_walk_error", toy_rt_walk_error as *const u8),
        ("toy_rt_stack_overflow", toy_rt_stack_overflow as *const u8),
        ("toy_rt_fmod", toy_rt_fmod as *const u8),
        ("toy_rt_clock", toy_rt_clock as *const u8),
        (
            "toy_rt_stack_limit",
            std::ptr::addr_of!(toy_rt_stack_limit) as *const u8,
        ),
        (
            "toy_rt_pending",
            std::ptr::addr_of!(toy_rt_pending) as *const u8,
        ),
        (
            "toy_rt_error_details",
            std::ptr::addr_of!(toy_rt_error_details) as *const u8,
        ),
        (
            "toy_rt_alloc",
            std::ptr::addr_of!(gc::toy_rt_alloc) as *const u8,
        ),
        (
            "toy_rt_alloc_result",
            std::ptr::addr_of!(toy_rt_alloc_result) as *const u8,
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tests that allocate hold this. Each test thread has a heap of its
    /// own, but registered code and global roots are the process's: a
    /// collection in one test would mark the arrays of another's heap.
    pub static HEAP_TESTS: Mutex<()> = Mutex::new(());

    #[test]
    fn arrays_print_nested_with_floats_as_rust_debug() {
        let _alone = HEAP_TESTS.lock().unwrap_or_else(|e| e.into_inner());
        let inner = array_new(2, 1.0f64.to_bits() as i64, gc::ElemKind::Words as i64, 0);
        let outer = array_new(2, inner as i64, gc::ElemKind::Arrays as i64, 0);
        let mut out = Vec::new();
        unsafe { write_array(&mut out, outer, typecode::array_of(typecode::FLOAT)) };
        assert_eq!(String::from_utf8(out).unwrap(), "[[1.0, 1.0], [1.0, 1.0]]");
    }

    #[test]
    fn loc_packing_round_trips() {
        assert_eq!(unpack_loc(pack_loc(12, 7)), (12, 7));
    }
}
