//! How the process's allocator treats the compiler's memory.
//!
//! Compiling a function builds arenas of tens of megabytes for large
//! functions (Ullrich's 100 000 `if`s: 45 MB of IR), then frees them. glibc
//! hands freed chunks above its mmap threshold back to the kernel, so the
//! next compilation — the next function, REPL entry or benchmark
//! iteration — faults the same memory in again, one page at a time: about
//! 11 000 page faults, a third of that construction's time. Raising the
//! thresholds keeps such memory in the heap for reuse.

/// Keeps chunks of up to 32 MB in the heap (glibc's largest mmap
/// threshold) and up to 256 MB of free memory at its top (64 MB was not
/// enough: constructing Ullrich's program still faulted 15 000 pages each
/// time; from 128 MB on, none). Call once, early in `main`; a no-op where
/// the allocator is not glibc's.
pub fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets allocator parameters; both are in the
    // ranges glibc documents.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 256 << 20);
    }
}

/// The heap limit when `--max-heap` is not given: three quarters of the
/// machine's physical memory. Past it, an allocation is reported as
/// `out of memory` by the runtime, before the kernel's OOM killer would
/// end the process without a word (large arrays are mapped lazily, so
/// the system's allocator alone says yes to more than there is). `None`
/// where the size of physical memory is not known.
pub fn default_heap_limit() -> Option<usize> {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: `sysconf` only reads system parameters.
        let (pages, page_size) = unsafe {
            (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        if pages > 0 && page_size > 0 {
            return Some((pages as usize).saturating_mul(page_size as usize) / 4 * 3);
        }
    }
    None
}
