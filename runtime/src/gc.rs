//! The collector: precise, non-moving mark-sweep over the arrays of Toy
//! programs (LANGUAGE.md §2: "the memory of arrays it can no longer reach
//! is reused").
//!
//! Every array is one block laid out as `[header][len][elements…]`. A
//! small array (at most [`SMALL_MAX`] bytes) takes a slot of its size
//! class: slots are carved from 64 KiB chunks, and each class keeps a
//! free list that the sweep rebuilds (segregated fits, as in Boehm's
//! collector); chunks the sweep leaves empty go back to the system, but
//! for [`MIN_BUDGET`] bytes of them, kept listed for the allocations
//! before the next collection (which allocate at least that much). A
//! larger array is a block of its own from the system allocator. Compiled
//! code and the interpreter hold a pointer to the length word, so the
//! header sits just before it and nothing that compiled code reads moves.
//! The header says what the tracer needs: whether the elements are arrays
//! (traced) or scalars (never scanned), the mark bit, and a tag that tells
//! a live array from a freed or foreign block.
//!
//! Arrays never move, so element addresses, hoisted lengths and vector
//! loops stay valid across a collection; a collection only frees.
//!
//! The heap belongs to the thread that runs the program (compiled code
//! and the interpreter run on one thread), so that allocating takes no
//! lock.
//!
//! A collection runs only inside [`allocate`], the one safepoint, when the
//! bytes allocated since the last collection pass a budget proportional to
//! the live heap. Roots are found precisely:
//! - the cells of globals that hold arrays ([`add_global_roots`]);
//! - the frames of compiled code, walked by frame pointer from the
//!   allocating call up to the first return address outside compiled code,
//!   each frame's live arrays read from the stack map of its call
//!   ([`add_code`]);
//! - the frames of the reference interpreter ([`set_external_roots`]);
//! - the array the runtime is filling a new array with.
//!
//! `JITRUN_GC=stress` collects at every allocation; `JITRUN_GC=verify`
//! also never reuses freed memory, poisons it and tags its header, so that
//! a freed array reached again is reported as an internal error.

use std::alloc::Layout;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Bytes before the length word: the header.
pub const HEADER_BYTES: usize = 8;

/// What the elements of an array are, as compiled code passes it to the
/// allocator.
#[repr(i64)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElemKind {
    /// Eight-byte ints or float bits: never scanned.
    Words = 0,
    /// One-byte bools: never scanned.
    Bytes = 1,
    /// Eight-byte pointers to arrays: traced.
    Arrays = 2,
}

impl ElemKind {
    pub fn from_code(code: i64) -> ElemKind {
        match code {
            1 => ElemKind::Bytes,
            2 => ElemKind::Arrays,
            _ => ElemKind::Words,
        }
    }

    pub fn elem_size(self) -> usize {
        match self {
            ElemKind::Bytes => 1,
            _ => 8,
        }
    }
}

// Header layout: bits 0–1 the element kind, bit 2 the mark, bit 3
// `RENEWABLE`, bits 48–63 a tag saying what the block is.
const KIND_MASK: u64 = 0b11;
const MARK: u64 = 0b100;
/// The array was made by compiled code's `renew` (the compiler's
/// `ir::renew`), which may overwrite it in place later. The collector
/// keeps the bit as it is.
const RENEWABLE: u64 = 0b1000;
const TAG_SHIFT: u32 = 48;
const TAG_LIVE: u64 = 0x7A11;
const TAG_STATIC: u64 = 0x57A7;
const TAG_FREED: u64 = 0xDEAD;
/// What freed elements are filled with in verify mode.
const POISON: u8 = 0xDB;

fn header_word(kind: ElemKind, tag: u64) -> u64 {
    (tag << TAG_SHIFT) | kind as u64
}

/// The header of a live array of `kind`, as compiled code writes it.
pub fn live_header(kind: ElemKind) -> u64 {
    header_word(kind, TAG_LIVE)
}

/// The header of a live array of `kind` that a `renew` made.
pub fn renewable_header(kind: ElemKind) -> u64 {
    live_header(kind) | RENEWABLE
}

/// How collections are scheduled (`JITRUN_GC`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// When the heap would pass its budget.
    Normal,
    /// At every allocation.
    Stress,
    /// At every allocation; freed arrays are poisoned and never reused.
    Verify,
}

/// Counts for `--stats` and `--time`.
#[derive(Clone, Copy, Debug, Default)]
pub struct GcStats {
    pub collections: u64,
    pub time: Duration,
    /// Most bytes of arrays allocated at once.
    pub peak_bytes: usize,
    /// Bytes of arrays now allocated.
    pub heap_bytes: usize,
    pub arrays_allocated: u64,
    pub arrays_freed: u64,
}

/// The smallest budget between collections: a program with little live
/// data still allocates this much before the first collection.
const MIN_BUDGET: usize = 8 << 20;

/// What compiled code allocates small arrays of a constant length with,
/// without calling the runtime (the allocation fast path of `codegen`):
/// the free list of each size class and an allowance of bytes. Compiled
/// code takes the first slot of its array's class when the allowance
/// covers the slot and the list is not empty, and calls [`allocate`]
/// otherwise. The runtime takes back what the fast path used ([`reclaim`])
/// whenever it is entered, and hands out a new allowance when it leaves
/// ([`lend`]): the bytes left before the next collection is due (or the
/// heap limit is reached); none in the stress modes, where every
/// allocation must reach the collector. The free lists are the size
/// classes' own: this is where they are kept.
#[repr(C)]
pub struct FastAlloc {
    /// By size class: the first free slot, or null.
    pub free: [*mut u64; CLASSES],
    /// Bytes compiled code may still take from the free lists.
    pub credit: i64,
    /// Arrays compiled code allocated since the runtime last counted.
    pub count: u64,
}

/// Offsets into [`FastAlloc`] for compiled code.
pub const FAST_FREE_OFFSET: i32 = std::mem::offset_of!(FastAlloc, free) as i32;
pub const FAST_CREDIT_OFFSET: i32 = std::mem::offset_of!(FastAlloc, credit) as i32;
pub const FAST_COUNT_OFFSET: i32 = std::mem::offset_of!(FastAlloc, count) as i32;

impl FastAlloc {
    const fn new() -> FastAlloc {
        FastAlloc {
            free: [std::ptr::null_mut(); CLASSES],
            credit: 0,
            count: 0,
        }
    }
}

/// The [`FastAlloc`] of the thread that runs compiled code
/// ([`enter_compiled_code`]); until then one whose allowance is zero, so
/// that compiled code always calls the runtime.
#[no_mangle]
pub static toy_rt_alloc: AtomicPtr<FastAlloc> =
    AtomicPtr::new(std::ptr::addr_of!(NO_FAST_PATH.0) as *mut FastAlloc);

struct NoFastPath(FastAlloc);
// SAFETY: never written: its allowance is zero, so compiled code never
// takes a slot from it.
unsafe impl Sync for NoFastPath {}
static NO_FAST_PATH: NoFastPath = NoFastPath(FastAlloc::new());

/// Points compiled code's allocation fast path at this thread's heap.
/// Compiled code runs on one thread at a time (it also shares one stack
/// limit, `toy_rt_stack_limit`).
pub fn enter_compiled_code() {
    let heap = HEAP.with(|cell| cell.as_ptr());
    with_heap(|_| ());
    // SAFETY: the thread's heap lives as long as the thread; compiled
    // code writes through this pointer only while no borrow of it is held
    // (it runs between calls into the runtime).
    let fast = unsafe { std::ptr::addr_of_mut!((*heap).fast) };
    toy_rt_alloc.store(fast, Ordering::Relaxed);
}

/// Counts what the fast path allocated since the runtime was last
/// entered: its bytes, its arrays, the peak.
fn reclaim(h: &mut Heap) {
    let used = h.lent - h.fast.credit;
    h.bytes += used as usize;
    h.lent = h.fast.credit;
    h.stats.arrays_allocated += std::mem::take(&mut h.fast.count);
    h.stats.peak_bytes = h.stats.peak_bytes.max(h.bytes);
}

/// Hands the fast path the bytes it may take before the runtime must be
/// called: up to the next collection or the heap limit; none in the
/// stress modes.
fn lend(h: &mut Heap) {
    let room = match h.mode {
        Mode::Normal => {
            let cap = h.limit.map_or(h.threshold, |limit| limit.min(h.threshold));
            cap.saturating_sub(h.bytes).min(i64::MAX as usize) as i64
        }
        Mode::Stress | Mode::Verify => 0,
    };
    h.fast.credit = room;
    h.lent = room;
}

struct Heap {
    /// The small arrays, by size class (their free lists are in `fast`).
    classes: [SizeClass; CLASSES],
    /// The free lists and the fast path's allowance.
    fast: FastAlloc,
    /// The allowance last lent to the fast path.
    lent: i64,
    /// Every large array: its header and its size in bytes.
    large: Vec<(*mut u64, usize)>,
    /// Bytes of live arrays (a small array counts its slot).
    bytes: usize,
    /// Collect when `bytes` would pass this.
    threshold: usize,
    /// `--max-heap`, if set.
    limit: Option<usize>,
    mode: Mode,
    stats: GcStats,
    /// The mark stack, kept between collections.
    gray: Vec<*mut u64>,
}

impl Heap {
    const fn new() -> Heap {
        Heap {
            classes: [const { SizeClass::new() }; CLASSES],
            fast: FastAlloc::new(),
            lent: 0,
            large: Vec::new(),
            bytes: 0,
            threshold: MIN_BUDGET,
            limit: None,
            mode: Mode::Normal,
            stats: GcStats {
                collections: 0,
                time: Duration::ZERO,
                peak_bytes: 0,
                heap_bytes: 0,
                arrays_allocated: 0,
                arrays_freed: 0,
            },
            gray: Vec::new(),
        }
    }
}

thread_local! {
    static HEAP: RefCell<Heap> = const { RefCell::new(Heap::new()) };
}

/// Runs `f` on this thread's heap, with what the allocation fast path
/// took since the runtime was last entered counted first, and a new
/// allowance lent to it after.
fn with_heap<R>(f: impl FnOnce(&mut Heap) -> R) -> R {
    HEAP.with_borrow_mut(|h| {
        reclaim(h);
        let r = f(h);
        lend(h);
        r
    })
}

// ---------------------------------------------------------------- size classes

/// The largest block, header and length included, that takes a slot.
pub const SMALL_MAX: usize = 512;
/// Bytes of a chunk that slots are carved from.
const CHUNK_BYTES: usize = 64 << 10;
/// The slot sizes: every 16 bytes up to 256, then every 64. A slot has
/// room for a free-list link after the header and length.
const SLOT_BYTES: [usize; CLASSES] = [
    32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256, 320, 384, 448, 512,
];
pub const CLASSES: usize = 19;

/// The class of a block, by its size in 16-byte units rounded up: the
/// smallest slot that holds it, found once from [`SLOT_BYTES`].
const CLASS_BY_UNITS: [u8; SMALL_MAX / 16 + 1] = {
    let mut table = [0u8; SMALL_MAX / 16 + 1];
    let (mut units, mut class) = (0, 0);
    while units < table.len() {
        while SLOT_BYTES[class] < units * 16 {
            class += 1;
        }
        table[units] = class as u8;
        units += 1;
    }
    table
};

/// The size class of an array of `len` elements of `kind` and its slot's
/// bytes, if the array takes a slot: what compiled code allocates in line.
pub fn slot_of(len: usize, kind: ElemKind) -> Option<(usize, usize)> {
    let bytes = HEADER_BYTES + 8 + len.checked_mul(kind.elem_size())?;
    let class = (bytes <= SMALL_MAX).then(|| class_of(bytes))?;
    Some((class, SLOT_BYTES[class]))
}

/// The class of a block of `bytes` bytes (at most [`SMALL_MAX`]).
fn class_of(bytes: usize) -> usize {
    CLASS_BY_UNITS[bytes.div_ceil(16)] as usize
}

/// The slots of one size: the chunks they are carved from. The free ones
/// are linked through their first element word, from the class's entry
/// of [`FastAlloc::free`] (`free` below). A free slot has the header of a
/// freed array of length 0.
struct SizeClass {
    chunks: Vec<*mut u64>,
}

/// Marks `slot` free and puts it first on the free list `free`.
///
/// # Safety
/// `slot` is a slot of the list's class that nothing reaches.
unsafe fn push(free: &mut *mut u64, slot: *mut u64) {
    *slot = header_word(ElemKind::Words, TAG_FREED);
    *slot.add(1) = 0;
    *slot.add(2) = *free as u64;
    *free = slot;
}

/// A free slot, taken off the list `free`.
fn pop(free: &mut *mut u64) -> Option<*mut u64> {
    let slot = *free;
    if slot.is_null() {
        return None;
    }
    // SAFETY: a free slot holds the next one's address after its header
    // and length.
    *free = unsafe { *slot.add(2) } as *mut u64;
    Some(slot)
}

impl SizeClass {
    const fn new() -> SizeClass {
        SizeClass { chunks: Vec::new() }
    }

    /// Carves a new chunk into free slots of `slot_bytes` on the list
    /// `free`, lowest address first. False when the system has no memory
    /// for it.
    fn grow(&mut self, free: &mut *mut u64, slot_bytes: usize) -> bool {
        // SAFETY: a non-zero size.
        let chunk = unsafe { std::alloc::alloc(chunk_layout()) } as *mut u64;
        if chunk.is_null() {
            return false;
        }
        self.chunks.push(chunk);
        let slots = CHUNK_BYTES / slot_bytes;
        for i in (0..slots).rev() {
            // SAFETY: slot `i` lies inside the new chunk.
            unsafe { push(free, chunk.byte_add(i * slot_bytes)) };
        }
        true
    }
}

fn chunk_layout() -> Layout {
    Layout::from_size_align(CHUNK_BYTES, 16).expect("a valid chunk layout")
}

/// Sets the collection mode and the heap limit (`--max-heap`).
pub fn configure(mode: Mode, limit: Option<usize>) {
    with_heap(|h| {
        h.mode = mode;
        h.limit = limit;
    })
}

pub fn stats() -> GcStats {
    with_heap(|h| GcStats {
        heap_bytes: h.bytes,
        ..h.stats
    })
}

// ---------------------------------------------------------------- roots

/// What the collector knows about compiled code: the code ranges of its
/// functions and, by return address, the stack map of each call.
struct Code {
    /// Function code `start → end`.
    functions: BTreeMap<usize, usize>,
    /// By return address: the frame's size (frame pointer minus stack
    /// pointer at the call) and the stack-pointer offsets of live arrays.
    stack_maps: BTreeMap<usize, (u32, Box<[u32]>)>,
    /// Addresses of global cells that hold arrays, with how many
    /// registrations each has.
    globals: BTreeMap<usize, usize>,
}

static CODE: Mutex<Code> = Mutex::new(Code {
    functions: BTreeMap::new(),
    stack_maps: BTreeMap::new(),
    globals: BTreeMap::new(),
});

fn code() -> std::sync::MutexGuard<'static, Code> {
    CODE.lock().unwrap_or_else(|e| e.into_inner())
}

/// A call's stack map: its return address, the frame size at the call
/// (frame pointer minus stack pointer), and the stack-pointer offsets of
/// the arrays live across it.
pub struct StackMap {
    pub return_address: usize,
    pub frame_size: u32,
    pub offsets: Box<[u32]>,
}

/// Registers compiled functions (`[start, end)` code ranges) and the stack
/// maps of their calls.
pub fn add_code(functions: &[(usize, usize)], maps: Vec<StackMap>) {
    let mut c = code();
    c.functions.extend(functions.iter().copied());
    for m in maps {
        c.stack_maps
            .insert(m.return_address, (m.frame_size, m.offsets));
    }
}

/// Forgets code registered with [`add_code`], before it is freed.
pub fn remove_code(functions: &[(usize, usize)]) {
    let mut c = code();
    for &(start, end) in functions {
        c.functions.remove(&start);
        let stale: Vec<usize> = c.stack_maps.range(start..end).map(|(&a, _)| a).collect();
        for a in stale {
            c.stack_maps.remove(&a);
        }
    }
}

/// Registers cells (8-byte words) that hold array pointers (or 0) as roots.
pub fn add_global_roots(cells: &[usize]) {
    let mut c = code();
    for &cell in cells {
        *c.globals.entry(cell).or_insert(0) += 1;
    }
}

/// Undoes one [`add_global_roots`] of each cell.
pub fn remove_global_roots(cells: &[usize]) {
    let mut c = code();
    for cell in cells {
        if let Some(n) = c.globals.get_mut(cell) {
            *n -= 1;
            if *n == 0 {
                c.globals.remove(cell);
            }
        }
    }
}

/// A function that hands every array its owner holds to `visit` (the
/// interpreter's frames and globals).
pub type ExternalRoots = fn(&mut dyn FnMut(u64));

static EXTERNAL_ROOTS: Mutex<Option<ExternalRoots>> = Mutex::new(None);

/// Sets (or clears) the scanner of roots held outside compiled code.
pub fn set_external_roots(scan: Option<ExternalRoots>) {
    *EXTERNAL_ROOTS.lock().unwrap_or_else(|e| e.into_inner()) = scan;
}

/// Where the walk of compiled frames starts: the frame pointer of the
/// compiled function that called the allocator, and the return address of
/// that call. Zero when the allocator was not called from compiled code.
#[derive(Clone, Copy, Debug)]
pub struct CallerFrame {
    pub fp: usize,
    pub return_address: usize,
}

impl CallerFrame {
    /// Not called from compiled code: no compiled frame to walk.
    pub const NONE: CallerFrame = CallerFrame {
        fp: 0,
        return_address: 0,
    };
}

/// Hands every array stored in a live frame of compiled code to `visit`,
/// from the allocating call up to the first return address outside
/// compiled code.
///
/// Every compiled frame keeps a frame pointer (Cranelift's
/// `preserve_frame_pointers`), and on both x86-64 and aarch64 a frame
/// record is `[fp] = caller's fp, [fp + 8] = return address`; the stack
/// pointer at a call is `fp - frame_size` of that call's stack map.
fn scan_frames(start: CallerFrame, code: &Code, visit: &mut dyn FnMut(u64)) {
    let (mut fp, mut ra) = (start.fp, start.return_address);
    while fp != 0 && in_compiled_code(code, ra) {
        if let Some((frame_size, offsets)) = code.stack_maps.get(&ra) {
            let sp = fp - *frame_size as usize;
            for &off in offsets.iter() {
                // SAFETY: the stack map says this slot of the live frame
                // holds an array pointer at this call.
                visit(unsafe { *((sp + off as usize) as *const u64) });
            }
        }
        // SAFETY: `fp` is the frame pointer of a live compiled frame.
        unsafe {
            ra = *((fp + 8) as *const usize);
            fp = *(fp as *const usize);
        }
    }
}

fn in_compiled_code(code: &Code, address: usize) -> bool {
    code.functions
        .range(..address)
        .next_back()
        .is_some_and(|(_, &end)| address <= end)
}

// ---------------------------------------------------------------- allocation

/// Why an allocation failed.
pub enum AllocError {
    NegativeLength,
    OutOfMemory,
}

/// Allocates a zeroed array of `len` elements of `kind`, each set to
/// `fill` when it is not zero. May collect first: `caller` says where
/// compiled code called from, and `fill` is kept alive (it may be an
/// array that only this call still holds).
pub fn allocate(
    len: i64,
    fill: i64,
    kind: ElemKind,
    caller: CallerFrame,
) -> Result<*mut i64, AllocError> {
    if len < 0 {
        return Err(AllocError::NegativeLength);
    }
    let bytes = block_bytes(len, kind).ok_or(AllocError::OutOfMemory)?;
    with_heap(|h| allocate_in(h, len, fill, kind, bytes, caller))
}

/// The bytes of the block of an array of `len` (not negative) elements of
/// `kind`, header and length included; `None` past what can be allocated.
fn block_bytes(len: i64, kind: ElemKind) -> Option<usize> {
    (len as u64)
        .checked_mul(kind.elem_size() as u64)
        .and_then(|b| b.checked_add((HEADER_BYTES + 8) as u64))
        .filter(|&b| b <= isize::MAX as u64 / 2)
        .map(|b| b as usize)
}

/// [`allocate`] on heap `h`.
fn allocate_in(
    h: &mut Heap,
    len: i64,
    fill: i64,
    kind: ElemKind,
    bytes: usize,
    caller: CallerFrame,
) -> Result<*mut i64, AllocError> {
    let extra = (kind == ElemKind::Arrays && fill != 0).then_some(fill as u64);
    let small = bytes <= SMALL_MAX;
    let (block, size) = if small {
        allocate_slot(h, bytes, caller, extra)?
    } else {
        (allocate_large(h, bytes, fill, caller, extra)?, bytes)
    };
    // SAFETY: the block has room for the header, the length and `len`
    // elements of `kind`. A slot's elements may hold anything; a large
    // block's are zero.
    let array = unsafe { make_array(block, len, fill, kind, small || fill != 0) };
    h.bytes += size;
    h.stats.arrays_allocated += 1;
    h.stats.peak_bytes = h.stats.peak_bytes.max(h.bytes);
    Ok(array)
}

/// Writes a live array of `len` elements of `kind` into `block`: its
/// header, its length and, when `write_fill`, `fill` in every element.
///
/// # Safety
/// `block` has room for the header, the length and `len` elements.
unsafe fn make_array(
    block: *mut u64,
    len: i64,
    fill: i64,
    kind: ElemKind,
    write_fill: bool,
) -> *mut i64 {
    *block = header_word(kind, TAG_LIVE);
    let array = block.add(1) as *mut i64;
    *array = len;
    let elems = array.add(1);
    match kind {
        _ if !write_fill => {}
        ElemKind::Bytes => {
            std::slice::from_raw_parts_mut(elems as *mut u8, len as usize).fill(fill as u8)
        }
        _ => std::slice::from_raw_parts_mut(elems, len as usize).fill(fill),
    }
    array
}

/// What compiled code's allocation fast path does, for the runtime entries
/// compiled code calls when it cannot take that path itself (an array
/// whose length is not known when compiled, a `renew`'s new array): a
/// small array taken from the first slot of its class out of the
/// allowance lent to compiled code ([`FastAlloc`]), without entering the
/// heap. `None` when the array is not small or the allowance or the list
/// runs out; [`allocate`] then does it all (in the stress modes the
/// allowance is always zero).
///
/// # Safety
/// Only from calls of compiled code, on the thread that runs it: no
/// borrow of the heap is held, and `toy_rt_alloc` points at this
/// thread's heap (or at none, whose allowance is zero).
pub unsafe fn allocate_lent(len: i64, fill: i64, kind: ElemKind) -> Option<*mut i64> {
    if len < 0 {
        return None;
    }
    let bytes = block_bytes(len, kind)?;
    if bytes > SMALL_MAX {
        return None;
    }
    let class = class_of(bytes);
    let size = SLOT_BYTES[class] as i64;
    let fast = toy_rt_alloc.load(Ordering::Relaxed);
    let head = (*fast).free[class];
    if (*fast).credit - size < 0 || head.is_null() {
        return None;
    }
    (*fast).free[class] = *head.add(2) as *mut u64;
    (*fast).credit -= size;
    (*fast).count += 1;
    Some(make_array(head, len, fill, kind, true))
}

/// Collects first if the heap would pass its budget (or at every
/// allocation in the stress modes); fails if it would pass its limit even
/// after. Returns whether it collected.
fn collect_if_due(
    h: &mut Heap,
    bytes: usize,
    caller: CallerFrame,
    extra: Option<u64>,
) -> Result<bool, AllocError> {
    let over_limit = |h: &Heap| h.limit.is_some_and(|limit| h.bytes + bytes > limit);
    let due = h.mode != Mode::Normal || h.bytes + bytes > h.threshold || over_limit(h);
    if due {
        collect(h, caller, extra);
    }
    if over_limit(h) {
        return Err(AllocError::OutOfMemory);
    }
    Ok(due)
}

/// A slot for a small array of `bytes` bytes, and the slot's size.
fn allocate_slot(
    h: &mut Heap,
    bytes: usize,
    caller: CallerFrame,
    extra: Option<u64>,
) -> Result<(*mut u64, usize), AllocError> {
    let class = class_of(bytes);
    let size = SLOT_BYTES[class];
    let collected = collect_if_due(h, size, caller, extra)?;
    if let Some(slot) = pop(&mut h.fast.free[class]) {
        return Ok((slot, size));
    }
    if !h.classes[class].grow(&mut h.fast.free[class], size) && !collected {
        // The system is out of memory: free what can be freed and retry.
        collect(h, caller, extra);
    }
    let slot = pop(&mut h.fast.free[class]).ok_or(AllocError::OutOfMemory)?;
    Ok((slot, size))
}

/// A block of its own for a large array, its elements zeroed when `fill`
/// is zero (a fill other than zero writes every element).
fn allocate_large(
    h: &mut Heap,
    bytes: usize,
    fill: i64,
    caller: CallerFrame,
    extra: Option<u64>,
) -> Result<*mut u64, AllocError> {
    let collected = collect_if_due(h, bytes, caller, extra)?;
    let layout = Layout::from_size_align(bytes, 8).map_err(|_| AllocError::OutOfMemory)?;
    let system_alloc = || {
        // SAFETY: the layout has a non-zero size (header and length).
        (unsafe {
            if fill == 0 {
                std::alloc::alloc_zeroed(layout)
            } else {
                std::alloc::alloc(layout)
            }
        }) as *mut u64
    };
    let mut block = system_alloc();
    if block.is_null() && !collected {
        // The system is out of memory: free what can be freed and retry.
        collect(h, caller, extra);
        block = system_alloc();
    }
    if block.is_null() {
        return Err(AllocError::OutOfMemory);
    }
    h.large.push((block, bytes));
    Ok(block)
}

/// A block outside the heap, never freed, with the header of an array of
/// `len` scalar words (the shared empty array).
pub fn allocate_static(len: usize) -> *mut i64 {
    let words = 2 + len;
    let block: &'static mut [u64] = Box::leak(vec![0u64; words].into_boxed_slice());
    block[0] = header_word(ElemKind::Words, TAG_STATIC);
    block[1] = len as u64;
    // SAFETY: the block has two words and more.
    unsafe { block.as_mut_ptr().add(1) as *mut i64 }
}

/// Whether `array` is an array this runtime made that has not been freed
/// (always true outside verify mode for arrays a correct program holds).
///
/// # Safety
/// `array` must point just past a readable word.
pub unsafe fn is_live(array: *const i64) -> bool {
    let tag = *(array as *const u64).sub(1) >> TAG_SHIFT;
    tag == TAG_LIVE || tag == TAG_STATIC
}

// ---------------------------------------------------------------- collection

/// Frees every array no root reaches.
fn collect(h: &mut Heap, caller: CallerFrame, extra: Option<u64>) {
    let start = Instant::now();
    let mut gray = std::mem::take(&mut h.gray);
    {
        let code = code();
        let mut visit = |p: u64| shade(p, &mut gray);
        for &cell in code.globals.keys() {
            // SAFETY: registered cells stay valid until removed.
            visit(unsafe { *(cell as *const u64) });
        }
        scan_frames(caller, &code, &mut visit);
        if let Some(p) = extra {
            visit(p);
        }
        let external = *EXTERNAL_ROOTS.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(scan) = external {
            scan(&mut visit);
        }
    }
    trace(&mut gray);
    h.gray = gray;
    sweep(h);
    h.threshold = (2 * h.bytes).max(h.bytes + MIN_BUDGET);
    h.stats.collections += 1;
    h.stats.time += start.elapsed();
}

/// Marks the array `p` points to, if it is not marked yet, and queues it
/// for scanning when its elements are arrays.
fn shade(p: u64, gray: &mut Vec<*mut u64>) {
    if p == 0 {
        return;
    }
    let header = (p as *mut u64).wrapping_sub(1);
    // SAFETY: every root and every element of an array of arrays is an
    // array pointer (or 0); the tag check catches a broken invariant.
    let word = unsafe { *header };
    match word >> TAG_SHIFT {
        TAG_LIVE => {}
        TAG_STATIC => return,
        TAG_FREED => crate::internal_error(&format!(
            "the collector freed an array that is still reachable (at {p:#x})"
        )),
        _ => crate::internal_error(&format!("a root is not an array ({p:#x})")),
    }
    if word & MARK != 0 {
        return;
    }
    // SAFETY: a live header of this heap.
    unsafe { *header = word | MARK };
    if word & KIND_MASK == ElemKind::Arrays as u64 {
        gray.push(header);
    }
}

/// Marks everything reachable from the arrays on the mark stack.
fn trace(gray: &mut Vec<*mut u64>) {
    while let Some(header) = gray.pop() {
        // SAFETY: a marked live array of arrays: length, then elements.
        unsafe {
            let array = header.add(1);
            let len = *array as usize;
            for i in 0..len {
                shade(*array.add(1 + i), gray);
            }
        }
    }
}

/// Frees the unmarked arrays and clears the marks of the others.
fn sweep(h: &mut Heap) {
    let verify = h.mode == Mode::Verify;
    let (mut freed_bytes, mut freed) = (0, 0);
    // Returning a chunk and taking a new one for the next allocations
    // costs the system's bookkeeping and a page fault per page touched
    // again: a program that allocates and drops small arrays at a steady
    // rate would pay it for every chunk, every collection.
    let mut reserve = MIN_BUDGET;
    let lists = h.classes.iter_mut().zip(&mut h.fast.free);
    for ((class, free), &size) in lists.zip(&SLOT_BYTES) {
        let (bytes, count) = class.sweep(free, size, verify, &mut reserve);
        freed_bytes += bytes;
        freed += count;
    }
    h.large.retain(|&(header, bytes)| {
        // SAFETY: every large array is a live block of `bytes` bytes.
        unsafe {
            if *header & MARK != 0 {
                *header &= !MARK;
                return true;
            }
            freed_bytes += bytes;
            freed += 1;
            if verify {
                poison(header, bytes);
            } else {
                std::alloc::dealloc(
                    header as *mut u8,
                    Layout::from_size_align_unchecked(bytes, 8),
                );
            }
        }
        false
    });
    h.bytes -= freed_bytes;
    h.stats.arrays_freed += freed;
}

impl SizeClass {
    /// Frees the unmarked arrays of this class and clears the marks of
    /// the others; returns the bytes and the arrays freed. The free list
    /// is built anew, lowest address first, and a chunk left without a
    /// live array goes back to the system unless `reserve` bytes are left
    /// to keep it (its slots listed). In verify mode a freed slot is
    /// poisoned and never reused, so the list only keeps slots never used.
    fn sweep(
        &mut self,
        free: &mut *mut u64,
        size: usize,
        verify: bool,
        reserve: &mut usize,
    ) -> (usize, u64) {
        let (mut freed_bytes, mut freed) = (0, 0);
        if !verify {
            *free = std::ptr::null_mut();
        }
        let slots = CHUNK_BYTES / size;
        let chunks = std::mem::take(&mut self.chunks);
        let mut kept = Vec::with_capacity(chunks.len());
        for &chunk in chunks.iter().rev() {
            let list_before = *free;
            let mut live = 0;
            for i in (0..slots).rev() {
                // SAFETY: slot `i` lies inside the chunk, and every slot
                // holds a header: a live array's or a free slot's.
                unsafe {
                    let slot = chunk.byte_add(i * size);
                    let word = *slot;
                    if word >> TAG_SHIFT == TAG_LIVE {
                        if word & MARK != 0 {
                            *slot = word & !MARK;
                            live += 1;
                            continue;
                        }
                        freed_bytes += size;
                        freed += 1;
                        if verify {
                            poison(slot, size);
                            continue;
                        }
                    }
                    if !verify {
                        push(free, slot);
                    }
                }
            }
            let empty = live == 0 && !verify;
            if empty && *reserve >= CHUNK_BYTES {
                *reserve -= CHUNK_BYTES;
                kept.push(chunk);
            } else if empty {
                *free = list_before;
                // SAFETY: the chunk came from `grow` with this layout and
                // no slot of it is live or listed.
                unsafe { std::alloc::dealloc(chunk as *mut u8, chunk_layout()) };
            } else {
                kept.push(chunk);
            }
        }
        kept.reverse();
        self.chunks = kept;
        (freed_bytes, freed)
    }
}

/// Verify mode: the freed block keeps its memory, tagged freed, with
/// length 0 (so that an access through a dangling pointer fails its bounds
/// check instead of reading on) and its elements poisoned.
///
/// # Safety
/// `header` starts a block of `bytes` bytes that nothing will free.
unsafe fn poison(header: *mut u64, bytes: usize) {
    *header = header_word(ElemKind::Words, TAG_FREED);
    *header.add(1) = 0;
    std::ptr::write_bytes((header as *mut u8).add(16), POISON, bytes - 16);
}

/// Collects now, with only registered roots (globals, external roots):
/// for tests and benchmarks.
pub fn collect_now() {
    with_heap(|h| collect(h, CallerFrame::NONE, None));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_small_size_takes_the_smallest_slot_that_holds_it() {
        for bytes in 16..=SMALL_MAX {
            let class = class_of(bytes);
            assert!(
                SLOT_BYTES[class] >= bytes,
                "{bytes} bytes in a slot of {}",
                SLOT_BYTES[class]
            );
            assert!(
                class == 0 || SLOT_BYTES[class - 1] < bytes,
                "{bytes} bytes: a smaller slot holds them"
            );
        }
        assert!(SLOT_BYTES.windows(2).all(|w| w[0] < w[1] && w[1] % 16 == 0));
        assert_eq!(SLOT_BYTES[CLASSES - 1], SMALL_MAX);
    }

    /// What compiled code does on the allocation fast path, as the
    /// runtime's entries do it too ([`allocate_lent`]): an array of two
    /// words from the first slot of its class, out of the allowance.
    fn take_slot_as_compiled_code(class: usize) -> Option<*mut u64> {
        assert_eq!(class, class_of(32), "an array of two words");
        // SAFETY: `enter_compiled_code` pointed `toy_rt_alloc` at this
        // thread's heap, which no borrow holds now.
        let array = unsafe { allocate_lent(2, 0, ElemKind::Words) }?;
        Some(array.wrapping_sub(1) as *mut u64)
    }

    #[test]
    fn the_fast_path_allocates_from_the_free_lists_and_is_counted() {
        let _alone = crate::tests::HEAP_TESTS
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        configure(Mode::Normal, None);
        collect_now();
        let class = class_of(32);
        // A slot of the class exists once the runtime made one array of it.
        allocate(2, 0, ElemKind::Words, CallerFrame::NONE)
            .ok()
            .unwrap();
        enter_compiled_code();
        let before = stats();
        let taken: Vec<_> = (0..10)
            .map_while(|_| take_slot_as_compiled_code(class))
            .collect();
        assert_eq!(taken.len(), 10);
        let after = stats();
        assert_eq!(after.arrays_allocated, before.arrays_allocated + 10);
        assert_eq!(after.heap_bytes, before.heap_bytes + 10 * SLOT_BYTES[class]);
        // Unreached, they are freed like the runtime's own arrays, and
        // their slots listed again.
        collect_now();
        let swept = stats();
        assert!(swept.arrays_freed >= after.arrays_freed + 10);
        assert!(swept.heap_bytes < after.heap_bytes);
        // In the stress modes every allocation must reach the collector:
        // the fast path gets no allowance.
        configure(Mode::Stress, None);
        enter_compiled_code();
        assert_eq!(take_slot_as_compiled_code(class), None);
        configure(Mode::Normal, None);
        // Nor beyond the heap limit.
        configure(Mode::Normal, Some(stats().heap_bytes));
        assert_eq!(take_slot_as_compiled_code(class), None);
        configure(Mode::Normal, None);
    }

    #[test]
    fn swept_slots_are_reused_and_empty_chunks_beyond_the_reserve_released() {
        let _alone = crate::tests::HEAP_TESTS
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let small = || {
            allocate(2, 5, ElemKind::Words, CallerFrame::NONE)
                .ok()
                .unwrap()
        };
        collect_now();
        let class = class_of(32);
        let chunks_before = with_heap(|h| h.classes[class].chunks.len());
        // More than a chunk of garbage: the class grows.
        let first = small();
        for _ in 0..2 * CHUNK_BYTES / 32 {
            small();
        }
        let grown = with_heap(|h| h.classes[class].chunks.len());
        assert!(grown > chunks_before + 1);
        collect_now();
        // Nothing was rooted: the chunks are empty, and kept (the reserve
        // holds them) with their slots listed: taking as many slots as
        // they hold does not grow the class.
        let kept = with_heap(|h| h.classes[class].chunks.len());
        assert_eq!(kept, grown);
        for _ in 0..kept * (CHUNK_BYTES / SLOT_BYTES[class]) {
            small();
        }
        assert_eq!(with_heap(|h| h.classes[class].chunks.len()), kept);
        collect_now();
        // A rooted array keeps its chunk; the slot after it, freed, is
        // the first one listed and is handed out zeroed.
        use std::sync::atomic::{AtomicU64, Ordering};
        static CELL: AtomicU64 = AtomicU64::new(0);
        let cell = &CELL as *const _ as usize;
        let kept = small();
        CELL.store(kept as u64, Ordering::SeqCst);
        add_global_roots(&[cell]);
        let garbage = small();
        collect_now();
        let zeroed = allocate(2, 0, ElemKind::Words, CallerFrame::NONE)
            .ok()
            .unwrap();
        remove_global_roots(&[cell]);
        let _ = first;
        assert_eq!(zeroed, garbage);
        // SAFETY: both were allocated with two elements; `kept` is rooted.
        unsafe {
            assert_eq!((*zeroed, *zeroed.add(1), *zeroed.add(2)), (2, 0, 0));
            assert_eq!((*kept, *kept.add(1), *kept.add(2)), (2, 5, 5));
        }
    }

    #[test]
    fn empty_chunks_beyond_the_reserve_go_back() {
        let size = SLOT_BYTES[class_of(32)];
        let mut class = SizeClass::new();
        let mut free = std::ptr::null_mut();
        for _ in 0..5 {
            assert!(class.grow(&mut free, size));
        }
        let mut reserve = 2 * CHUNK_BYTES + CHUNK_BYTES / 2;
        let (bytes, freed) = class.sweep(&mut free, size, false, &mut reserve);
        // Nothing was live in them: nothing freed, two chunks kept.
        assert_eq!((bytes, freed), (0, 0));
        assert_eq!(class.chunks.len(), 2);
        assert_eq!(reserve, CHUNK_BYTES / 2);
        // Exactly the kept chunks' slots are listed.
        let mut listed = 0;
        while let Some(slot) = pop(&mut free) {
            let in_chunk =
                |&c: &*mut u64| (c as usize..c as usize + CHUNK_BYTES).contains(&(slot as usize));
            assert!(class.chunks.iter().any(in_chunk));
            listed += 1;
        }
        assert_eq!(listed, 2 * (CHUNK_BYTES / size));
        // With no reserve left, the sweep gives them back.
        let mut none = 0;
        class.sweep(&mut free, size, false, &mut none);
        assert!(class.chunks.is_empty());
    }

    #[test]
    fn unreachable_arrays_are_freed_and_rooted_ones_kept() {
        use std::sync::atomic::{AtomicU64, Ordering};
        let _alone = crate::tests::HEAP_TESTS
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        static CELL: AtomicU64 = AtomicU64::new(0);
        let cell = &CELL as *const _ as usize;
        let inner = allocate(3, 7, ElemKind::Words, CallerFrame::NONE)
            .ok()
            .unwrap();
        let outer = allocate(2, inner as i64, ElemKind::Arrays, CallerFrame::NONE)
            .ok()
            .unwrap();
        CELL.store(outer as u64, Ordering::SeqCst);
        add_global_roots(&[cell]);
        let garbage = allocate(1000, 0, ElemKind::Bytes, CallerFrame::NONE)
            .ok()
            .unwrap();
        let before = stats().arrays_freed;
        collect_now();
        // SAFETY: reachable through the registered cell.
        unsafe {
            assert!(is_live(outer));
            assert!(is_live(inner));
            assert_eq!(*inner.add(2), 7);
        }
        assert!(stats().arrays_freed > before);
        let _ = garbage;
        remove_global_roots(&[cell]);
    }
}
