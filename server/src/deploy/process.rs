//! The processes of a run on this host: the driver started detached (a
//! process group of its own, a clean environment, so that it outlives a
//! restart of the server and sees no secret of the server's), whether one
//! is alive, and every process of a run killed. Each process of a run
//! carries `MOSAIC_RUN_ID=<run>@<data directory>` in its environment,
//! which every process it starts inherits: that marker, read from
//! `/proc`, finds them all (and only them: another server, with another
//! data directory, numbers its runs from 1 too).

use std::path::Path;

use rustix::process::{Pid, Signal, kill_process};

/// The environment variable every process of a run carries.
pub const RUN_MARKER: &str = "MOSAIC_RUN_ID";

/// This host's name (where a run's runner runs).
pub fn host_name() -> String {
    rustix::system::uname()
        .nodename()
        .to_string_lossy()
        .into_owned()
}

/// The value of [`RUN_MARKER`] for run `run` of the server whose data
/// directory is `data_dir`.
pub fn run_marker(run: i64, data_dir: &Path) -> String {
    format!("{run}@{}", data_dir.display())
}

/// The marker as `/proc/PID/environ` holds it.
fn environ_entry(marker: &str) -> Vec<u8> {
    format!("{RUN_MARKER}={marker}").into_bytes()
}

/// Whether process `pid` is alive and carries `marker` (a zombie has no
/// environment; a process id used again carries no marker of the run).
pub fn is_runs(pid: i64, marker: &str) -> bool {
    environ_has(&format!("/proc/{pid}/environ"), &environ_entry(marker))
}

fn environ_has(path: &str, wanted: &[u8]) -> bool {
    std::fs::read(path).is_ok_and(|environ| environ.split(|b| *b == 0).any(|var| var == wanted))
}

/// Sends `signal` to process `pid` (nothing when it is gone).
pub fn signal(pid: i64, signal: Signal) {
    if let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) {
        let _ = kill_process(pid, signal);
    }
}

/// Kills every process carrying `marker` on this host; how many there
/// were.
pub fn kill_all(marker: &str) -> usize {
    let wanted = environ_entry(marker);
    let mut killed = 0;
    for _ in 0..10 {
        let found = processes_with(&wanted);
        if found.is_empty() {
            break;
        }
        for pid in &found {
            signal(*pid, Signal::KILL);
        }
        killed += found.len();
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    killed
}

/// The processes carrying `marker` on this host.
pub fn processes_of(marker: &str) -> Vec<i64> {
    processes_with(&environ_entry(marker))
}

fn processes_with(wanted: &[u8]) -> Vec<i64> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let me = i64::from(std::process::id());
    entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<i64>().ok())
        .filter(|pid| *pid != me)
        .filter(|pid| environ_has(&format!("/proc/{pid}/environ"), wanted))
        .collect()
}

/// Whether process `pid` exists at all.
pub fn exists(pid: i64) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_marked_process_is_found_and_killed() {
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .env(RUN_MARKER, "42@/test")
            .spawn()
            .unwrap();
        let pid = i64::from(child.id());
        // Until `sleep` is executed, the child has the test's environment.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while !is_runs(pid, "42@/test") && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert!(is_runs(pid, "42@/test"));
        assert!(!is_runs(pid, "42@/other"));
        assert_eq!(processes_of("42@/test"), [pid]);
        assert_eq!(kill_all("42@/test"), 1);
        child.wait().unwrap();
        assert!(processes_of("42@/test").is_empty());
    }
}
