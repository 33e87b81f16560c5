//! Free memory handed back to the system once the snapshot is read, and
//! after each large job's report is written.
//!
//! glibc keeps what a thread frees in that thread's arena for its next
//! allocation. The reader's threads free their temporaries (parsed element
//! buffers, the job texts' table, the shared parts' table) at the read's
//! end and allocate nothing more, so the pages those leave free would stay
//! resident through the replay, where the peak is. A large job replayed on
//! one thread and written on another leaves its memory free in the first
//! one's arena, and with more threads than jobs in flight each arena would
//! keep the largest job its thread replayed. `malloc_trim(0)` walks every
//! arena and returns its whole free pages: about 10 MB of a 226 MB peak on
//! the many-jobs 200k snapshot, in 3 to 4 ms, after the read; on big 1M at
//! 8 threads, 807 to 666 MB after each large job (docs/performance.md,
//! "Free pages handed back after the read", "Held reports"). Other
//! allocators return free memory themselves and have no such call.

/// Returns the allocator's free pages to the system.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
pub fn release_free_pages() {
    // SAFETY: `malloc_trim` takes no pointer and locks each arena while it
    // walks it, so it is sound with any other allocation in flight.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Returns the allocator's free pages to the system (a no-op here).
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn release_free_pages() {}
