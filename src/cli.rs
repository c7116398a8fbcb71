//! Command-line entry: `sanqi` (protocol loop), `sanqi bench [depth]`, `sanqi perft <depth> [fen]`.

use std::process::ExitCode;
use std::time::Instant;

use crate::game::{GameConfig, GameKind};
use crate::search::Searcher;

const USAGE: &str = "usage:
  sanqi                                   run the UCI/UCCI protocol loop on stdin/stdout
  sanqi bench [depth]                     fixed search benchmark: node-count signature and speed
  sanqi perft <depth> [options] [fen...]  count leaf nodes, divided by root move
      --game chess|xiangqi|chinesecheckers  (default chess)
      --chess960                            write castling as king-takes-rook
      --players 2|3|4|6                     Chinese-checkers start position
      --goal-lock --no-foreign-stop         Chinese-checkers rule variants
  sanqi match --game <game> --engine cmd=... --engine cmd=... [options]
                                          engine-vs-engine tournaments (sanqi match --help)
  sanqi --version | --help";

/// Runs the command line; returns the process exit code.
pub fn main(args: &[String]) -> ExitCode {
    match args.first().map(String::as_str) {
        None => {
            crate::engine::run_stdio();
            ExitCode::SUCCESS
        }
        Some("bench") => {
            let depth = match args.get(1).map(|d| d.parse::<u32>()) {
                None => None,
                Some(Ok(d)) if d > 0 => Some(d),
                Some(_) => return usage_error("bench depth must be a positive integer"),
            };
            let mut searcher = Searcher::new(16);
            print!("{}", crate::bench::run(depth, &mut searcher));
            ExitCode::SUCCESS
        }
        Some("perft") => perft(&args[1..]),
        Some("match") => crate::tournament::main(&args[1..]),
        Some("--version") | Some("-V") => {
            println!("{}", crate::engine::NAME);
            ExitCode::SUCCESS
        }
        Some("--help") | Some("-h") | Some("help") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some(other) => usage_error(&format!("unknown command '{other}'")),
    }
}

fn usage_error(msg: &str) -> ExitCode {
    eprintln!("sanqi: {msg}\n{USAGE}");
    ExitCode::from(2)
}

fn perft(args: &[String]) -> ExitCode {
    let Some(depth) = args.first().and_then(|d| d.parse::<u32>().ok()) else {
        return usage_error("perft needs a depth");
    };
    let mut kind = GameKind::Chess;
    let mut config = GameConfig::default();
    let mut fen_words = Vec::new();
    let mut i = 1;
    while i < args.len() {
        match args[i].as_str() {
            "--game" | "--variant" => {
                let Some(k) = args.get(i + 1).and_then(|n| GameKind::from_name(n)) else {
                    return usage_error("--game takes chess, xiangqi or chinesecheckers");
                };
                kind = k;
                i += 1;
            }
            "--chess960" => config.chess960 = true,
            "--goal-lock" => config.cc_goal_lock = true,
            "--no-foreign-stop" => config.cc_no_foreign_stop = true,
            "--players" => {
                match args.get(i + 1).and_then(|n| n.parse::<u8>().ok()) {
                    Some(n @ (2 | 3 | 4 | 6)) => config.cc_players = n,
                    _ => return usage_error("--players takes 2, 3, 4 or 6"),
                }
                i += 1;
            }
            word => fen_words.push(word.to_string()),
        }
        i += 1;
    }
    let game = if fen_words.is_empty() {
        Ok(kind.startpos(&config))
    } else {
        kind.from_fen(&fen_words.join(" "), &config)
    };
    let mut game = match game {
        Ok(g) => g,
        Err(e) => {
            eprintln!("sanqi: bad position: {e}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let (lines, total) = game.perft_divide(depth, &config);
    let secs = start.elapsed().as_secs_f64();
    for (m, n) in lines {
        println!("{m}: {n}");
    }
    println!();
    println!("Nodes searched: {total}");
    println!(
        "Time: {:.3} s, {:.1} million nodes per second",
        secs,
        total as f64 / secs.max(1e-9) / 1e6
    );
    ExitCode::SUCCESS
}
