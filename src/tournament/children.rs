//! Every engine process `sanqi match` started, so that all of them end however the runner ends.
//!
//! Engines run in their own process groups (a hung wrapper script is killed with what it
//! started), so a Ctrl-C in the terminal does not reach them, and an engine that ignores the end
//! of its input would outlive a runner stopped by SIGINT, SIGTERM or SIGHUP, or by a closed
//! stdout. Each engine is registered here while it runs; [`end_all`] kills every registered
//! group, and refuses new engines after it.

use std::process::Stdio;
use std::sync::Once;

use parking_lot::Mutex;

struct Registry {
    /// Process (and group) ids of the running engines.
    live: Vec<u32>,
    /// Set by [`end_all`]: an engine started later is killed at once.
    ending: bool,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    live: Vec::new(),
    ending: false,
});

/// Records a started engine; false if the runner is ending (the caller kills it).
pub fn register(pid: u32) -> bool {
    let mut r = REGISTRY.lock();
    if r.ending {
        return false;
    }
    r.live.push(pid);
    true
}

/// Forgets an engine that has been waited for.
pub fn unregister(pid: u32) {
    // One entry only: a new engine may already have the id again.
    let mut r = REGISTRY.lock();
    if let Some(i) = r.live.iter().position(|&p| p == pid) {
        r.live.swap_remove(i);
    }
}

/// Whether [`end_all`] ran: the runner is being ended (by a signal or a closed stdout).
pub fn ending() -> bool {
    REGISTRY.lock().ending
}

/// Waits for [`end_runner`] to exit the process when it is ending: killing the engines ends
/// the games in progress, and the match must not finish normally (exit status 0) meanwhile.
pub fn wait_if_ending() {
    while ending() {
        std::thread::park();
    }
}

/// The engines running now.
pub fn live() -> usize {
    REGISTRY.lock().live.len()
}

/// Kills every registered engine with its process group and refuses new ones; returns how many
/// were killed.
pub fn end_all() -> usize {
    let pids = {
        let mut r = REGISTRY.lock();
        r.ending = true;
        std::mem::take(&mut r.live)
    };
    if !pids.is_empty() {
        kill_groups(&pids);
    }
    pids.len()
}

#[cfg(unix)]
fn kill_groups(pids: &[u32]) {
    let mut args = vec!["-KILL".to_string(), "--".to_string()];
    for &p in pids {
        // The group (its id is the engine's pid), then the engine itself in case it left it.
        args.push(format!("-{p}"));
        args.push(p.to_string());
    }
    let _ = std::process::Command::new("kill")
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

#[cfg(not(unix))]
fn kill_groups(_pids: &[u32]) {}

/// Ends the runner now: every engine killed, a line on stderr, exit with `code`. Finished games
/// are already in the PGN and move-list files (each is written when it ends).
pub fn end_runner(why: &str, code: i32) -> ! {
    let n = end_all();
    eprintln!("sanqi match: {why}: {n} engine process(es) ended; the finished games are saved");
    std::process::exit(code)
}

/// Makes SIGINT, SIGTERM and SIGHUP end the runner through [`end_runner`] (exit status 128 +
/// the signal, as the shell reports a process killed by it). Installed once per process.
pub fn install_signal_handlers() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        #[cfg(unix)]
        {
            use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
            let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
            else {
                eprintln!("sanqi match: cannot watch for signals; engines may outlive a kill");
                return;
            };
            let spawned = std::thread::Builder::new()
                .name("signals".into())
                .spawn(move || {
                    if let Some(sig) = signals.forever().next() {
                        let name = match sig {
                            SIGINT => "SIGINT",
                            SIGTERM => "SIGTERM",
                            _ => "SIGHUP",
                        };
                        end_runner(&format!("stopped by {name}"), 128 + sig);
                    }
                });
            if spawned.is_err() {
                eprintln!("sanqi match: cannot watch for signals; engines may outlive a kill");
            }
        }
    });
}
