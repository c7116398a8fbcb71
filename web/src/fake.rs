//! Test support: a fake engine as a small shell script that speaks just enough of the protocol
//! (`uci`, `isready`, `d`, `moves`, `go`, `position`), and can crash or hang once on `go`.
#![cfg(all(test, unix))]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

static COUNTER: AtomicU32 = AtomicU32::new(0);

/// What the fake does on its first `go`: answer, exit (a crash), or sleep (a hang); or, with
/// `PassOnly`, a position whose only legal move is the forced pass.
#[derive(Clone, Copy)]
pub enum Fault {
    None,
    CrashOnGo,
    HangOnGo,
    PassOnly,
    /// Every start takes 300 ms before `uciok` (requests at once overlap).
    SlowStart,
}

/// A fresh folder with the script `engine` and the marker file of a one-time fault.
pub fn fake_engine(fault: Fault) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "sanqi-web-fake-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::SeqCst)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let marker = dir.join("fault");
    let on_go = match fault {
        Fault::None | Fault::PassOnly | Fault::SlowStart => ":",
        Fault::CrashOnGo => "exit 3",
        Fault::HangOnGo => "exec sleep 20",
    };
    if matches!(fault, Fault::CrashOnGo | Fault::HangOnGo) {
        std::fs::write(&marker, "").unwrap();
    }
    let moves = if matches!(fault, Fault::PassOnly) {
        r#"echo "info string move 0000 path ""#
    } else {
        r#"echo "info string move k3k5 path k3 k5"; echo "info string move m1m1 path m1 k3 m1""#
    };
    let on_uci = if matches!(fault, Fault::SlowStart) {
        "sleep 0.3"
    } else {
        ":"
    };
    let script = format!(
        r#"#!/bin/sh
moves=""
while read -r line; do
  case "$line" in
    uci) {on_uci}; echo "id name fake"; echo "option name Skill Level type spin default 20 min 0 max 20"; echo uciok;;
    isready) echo readyok;;
    "position startpos moves "*) moves="${{line#position startpos moves }}";;
    "position startpos") moves="";;
    "moves"*) {moves}; echo "info string end of moves";;
    d) echo " 17 D"; echo "Fen: D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/A AD A 0"
       echo "Players: AD  To move: A  Rules: standard"; echo "Winner: none";;
    go*) if [ -e "{marker}" ]; then rm -f "{marker}"; {on_go}; fi
         echo "info depth 1 score cp 1 pv e15e13"; echo "info string path e15 e13"; echo "bestmove e15e13";;
    quit) exit 0;;
    *) ;;
  esac
done
"#,
        marker = marker.display()
    );
    let path = dir.join("engine");
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}
