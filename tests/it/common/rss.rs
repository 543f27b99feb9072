//! The peak memory of a running program as Linux counts it: the high-water mark of its resident
//! set (`VmHWM` in `/proc/PID/status`). Tests of unbounded growth compare it with a bound.

use std::process::{Child, ExitStatus};
use std::thread;
use std::time::Duration;

/// How often [`wait_with_peak`] reads the peak.
const POLL: Duration = Duration::from_millis(2);

/// The peak resident set of the running process `pid` so far, in KiB; `None` once it has
/// exited.
pub fn peak_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?;
    line.trim().strip_suffix("kB")?.trim().parse().ok()
}

/// Waits for `child` to exit, reading its peak resident set every few milliseconds; returns its
/// exit status and the highest peak read. The peak is a high-water mark, so only growth in the
/// last few milliseconds before the exit could be missed.
pub fn wait_with_peak(child: &mut Child) -> (ExitStatus, u64) {
    let mut peak = 0;
    loop {
        // Read before reaping: once reaped, the number may be another process's.
        if let Some(kib) = peak_kib(child.id()) {
            peak = peak.max(kib);
        }
        if let Some(status) = child.try_wait().unwrap() {
            return (status, peak);
        }
        thread::sleep(POLL);
    }
}
