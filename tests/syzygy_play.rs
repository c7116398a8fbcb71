//! Syzygy tables in play: the options and their messages, the tables' verdict in `d`, `tbhits`,
//! won positions kept won and drawn ones drawn (judged by the tables after sanqi's move), and
//! KBNvK and KQvKR won inside the fifty-move rule against the tables' longest defence at 100 ms
//! a move. The defender and the judge use sanqi's prober, which `tests/syzygy_probe.rs` checks
//! against python-chess on every table.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::time::Duration;

use sanqi::game::chess::syzygy::{Tablebases, Wdl};
use sanqi::game::chess::{Chess, ChessConfig};
use sanqi::game::prelude::*;
use sanqi::game::Outcome;
use support::driver::Engine;
use support::{legal, test_data, Rng};

const WAIT: Duration = Duration::from_secs(20);

fn tables() -> Option<(std::path::PathBuf, Tablebases)> {
    let dir = test_data("syzygy")?;
    let (tb, problems) = Tablebases::open(&dir.display().to_string());
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(tb.max_pieces(), 4);
    Some((dir, tb))
}

fn engine_with_tables(dir: &std::path::Path) -> Engine {
    let mut e = Engine::uci();
    e.send(&format!(
        "setoption name SyzygyPath value {}",
        dir.display()
    ));
    let (line, _) = e.expect_prefix("info string found", WAIT);
    assert!(
        line.contains("35 WDL and 35 DTZ") && line.contains("up to 4 pieces"),
        "{line}"
    );
    e
}

/// A random legal position with `pieces` (white's then black's, kings implied), no castling,
/// the side not to move not in check.
fn random_position(rng: &mut Rng, white: &str, black: &str) -> Chess {
    let config = ChessConfig::default();
    loop {
        let mut board = ['.'; 64];
        let mut ok = true;
        for c in format!("K{white}")
            .chars()
            .chain(format!("k{}", black.to_lowercase()).chars())
        {
            let sq = rng.below(64);
            let pawn_rank = c.eq_ignore_ascii_case(&'p') && !(8..56).contains(&sq);
            if board[sq] != '.' || pawn_rank {
                ok = false;
                break;
            }
            board[sq] = c;
        }
        if !ok {
            continue;
        }
        let mut fen = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let c = board[rank * 8 + file];
                if c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(c);
                }
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        let side = if rng.below(2) == 0 { "w" } else { "b" };
        let Ok(pos) = Chess::from_fen(&format!("{fen} {side} - - 0 1"), &config) else {
            continue;
        };
        // The side not to move must not be in check.
        let them = pos.side() ^ 1;
        let other_in_check = pos.attacked_by(pos.king_square(them), pos.side(), pos.occupied());
        if !other_in_check && !legal(&pos).is_empty() {
            return pos;
        }
    }
}

/// sanqi's move (`go movetime 100`) in `pos`, or after `moves` from `pos` (the game so far, as
/// GUIs send it, so that the engine sees repetitions).
fn engine_move(e: &mut Engine, pos: &Chess) -> String {
    engine_move_after(e, pos, "")
}

fn engine_move_after(e: &mut Engine, pos: &Chess, moves: &str) -> String {
    if moves.is_empty() {
        e.send(&format!("position fen {}", pos.to_fen()));
    } else {
        e.send(&format!("position fen {} moves {moves}", pos.to_fen()));
    }
    e.send("go movetime 100");
    let (best, _) = e.expect_prefix("bestmove", WAIT);
    best.split_whitespace().nth(1).unwrap().to_owned()
}

#[test]
fn options_messages_d_and_tbhits() {
    let Some((dir, tb)) = tables() else {
        return;
    };
    let mut e = Engine::uci();
    // A missing folder: one message naming it; the folder that exists still works.
    e.send(&format!(
        "setoption name SyzygyPath value /nonexistent/syzygy:{}",
        dir.display()
    ));
    let (found, before) = e.expect_prefix("info string found", WAIT);
    assert!(found.contains("35 WDL and 35 DTZ"), "{found}");
    assert_eq!(
        before
            .iter()
            .filter(|l| l.contains("/nonexistent/syzygy"))
            .count(),
        1,
        "{before:?}"
    );
    // `d` shows the tables' verdict, as sanqi's prober gives it.
    let fen = "8/8/8/8/8/2k5/8/KQ6 w - - 0 1";
    let mut pos = Chess::from_fen(fen, &ChessConfig::default()).unwrap();
    let wdl = tb.probe_wdl(&mut pos).unwrap();
    let dtz = tb.probe_dtz(&mut pos).unwrap();
    e.send(&format!("position fen {fen}"));
    e.send("d");
    let (line, _) = e.expect_prefix("Tablebase:", WAIT);
    assert_eq!(
        line,
        format!("Tablebase: WDL {} ({wdl:?}), DTZ {dtz}", wdl as i32)
    );
    // A search of a 4-piece position reports table hits and a table win (cp 20000 - ply).
    e.send("position fen 8/8/8/4k3/8/8/3QK3/7r w - - 0 1");
    e.send("go depth 8");
    let (_, infos) = e.expect_prefix("bestmove", WAIT);
    let last = infos.iter().rev().find(|l| l.contains(" pv ")).unwrap();
    let hits: u64 = last
        .split_whitespace()
        .skip_while(|w| *w != "tbhits")
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert!(hits > 0, "{last}");
    // An empty path turns them off: no more tbhits.
    e.send("setoption name SyzygyPath value");
    e.expect_prefix("info string Syzygy tables off", WAIT);
    e.send("position fen 8/8/8/4k3/8/8/3QK3/7r w - - 0 1");
    e.send("go depth 4");
    let (_, infos) = e.expect_prefix("bestmove", WAIT);
    assert!(infos.iter().all(|l| !l.contains("tbhits")), "{infos:?}");
    e.send("quit");
    e.wait();
}

/// From random 3- and 4-piece positions, sanqi's move keeps a won position won and a drawn one
/// drawn, by the tables.
#[test]
fn won_positions_stay_won_and_drawn_ones_drawn() {
    let Some((dir, tb)) = tables() else {
        return;
    };
    let mut e = engine_with_tables(&dir);
    let config = ChessConfig::default();
    let materials = [
        ("Q", ""),
        ("R", ""),
        ("P", ""),
        ("Q", "R"),
        ("R", "B"),
        ("R", "N"),
        ("P", "P"),
        ("B", "P"),
        ("N", "P"),
        ("BN", ""),
        ("Q", "P"),
        ("R", "P"),
        ("PP", ""),
        ("BP", ""),
    ];
    let mut rng = Rng(0x7ab1e5);
    let (mut won, mut drawn) = (0, 0);
    for (white, black) in materials {
        for _ in 0..3 {
            let mut pos = random_position(&mut rng, white, black);
            let before = tb.probe_wdl(&mut pos).unwrap();
            if !matches!(before, Wdl::Win | Wdl::Draw) {
                continue;
            }
            let text = engine_move(&mut e, &pos);
            let m = pos.parse_move(&text, &config).unwrap();
            pos.make_move(m);
            let after = if pos.outcome().is_some() {
                None
            } else {
                Some(tb.probe_wdl(&mut pos).unwrap())
            };
            match before {
                Wdl::Win => {
                    won += 1;
                    let mated = legal(&pos).is_empty() && pos.in_check();
                    assert!(
                        mated || after == Some(Wdl::Loss),
                        "won position {} left with {text}: {after:?}",
                        pos.to_fen()
                    );
                }
                _ => {
                    drawn += 1;
                    assert!(
                        after.is_none_or(|w| w <= Wdl::Draw),
                        "drawn position lost with {text}: {after:?} {}",
                        pos.to_fen()
                    );
                }
            }
        }
    }
    assert!(won >= 10 && drawn >= 5, "{won} won, {drawn} drawn");
    eprintln!("{won} won positions kept won, {drawn} drawn kept drawn");
    e.send("quit");
    e.wait();
}

/// The defender's move: the one the tables say holds out longest (largest DTZ for the winner
/// after it); a move that lets the win slip is taken at once.
fn longest_defence(tb: &Tablebases, pos: &mut Chess) -> <Chess as Rules>::Move {
    let mut best = None;
    let mut best_dtz = i32::MIN;
    for m in legal(pos) {
        pos.make_move(m);
        let wdl = tb.probe_wdl(pos).unwrap();
        let dtz = tb.probe_dtz(pos).unwrap();
        pos.undo_move(m);
        if wdl != Wdl::Win {
            return m;
        }
        if dtz > best_dtz {
            best_dtz = dtz;
            best = Some(m);
        }
    }
    best.unwrap()
}

/// Plays `fen` (the winner to move) to the end: sanqi against the longest defence.
fn play_out(e: &mut Engine, tb: &Tablebases, fen: &str) -> (bool, usize, String) {
    let config = ChessConfig::default();
    let start = Chess::from_fen(fen, &config).unwrap();
    let mut pos = start.clone();
    let winner = pos.side_to_move();
    let mut plies = 0;
    let mut moves = String::new();
    while pos.outcome().is_none() && plies < 300 {
        let m = if pos.side_to_move() == winner {
            let text = engine_move_after(e, &start, moves.trim_end());
            pos.parse_move(&text, &config).unwrap()
        } else {
            longest_defence(tb, &mut pos)
        };
        moves.push_str(&pos.format_move(m, &config));
        moves.push(' ');
        pos.make_move(m);
        plies += 1;
    }
    let won = pos.outcome() == Some(Outcome::Win(winner));
    let end = format!("{moves}-> {:?} {}", pos.outcome(), pos.to_fen());
    (won, plies, end)
}

/// The position of `white` against `black` with the largest DTZ among random ones that are
/// wins for White to move.
fn hardest(tb: &Tablebases, white: &str, black: &str, samples: usize) -> (String, i32) {
    let mut rng = Rng(0x4b424e);
    let mut best = (String::new(), 0);
    let mut n = 0;
    while n < samples {
        let mut pos = random_position(&mut rng, white, black);
        if pos.side_to_move() != 0 || pos.in_check() {
            continue;
        }
        n += 1;
        if tb.probe_wdl(&mut pos).unwrap() == Wdl::Win {
            let dtz = tb.probe_dtz(&mut pos).unwrap();
            if dtz > best.1 {
                best = (pos.to_fen(), dtz);
            }
        }
    }
    best
}

#[test]
fn kbnvk_and_kqvkr_won_against_the_longest_defence() {
    let Some((dir, tb)) = tables() else {
        return;
    };
    let mut e = engine_with_tables(&dir);
    for (white, black) in [("BN", ""), ("Q", "R")] {
        let (fen, dtz) = hardest(&tb, white, black, 3000);
        assert!(dtz >= 40, "K{white}vK{black}: longest DTZ found {dtz}");
        let (won, plies, game) = play_out(&mut e, &tb, &fen);
        assert!(
            won,
            "K{white}vK{black} from {fen} (DTZ {dtz}) not won in {plies} plies: {game}"
        );
        eprintln!("K{white}vK{black}: {fen} (DTZ {dtz}) won in {plies} plies");
    }
    e.send("quit");
    e.wait();
}

/// `sanqi match --tb`: games in positions the tables know end at once with their result,
/// recorded as a tablebase adjudication; `--tb` is refused for xiangqi and without tables.
#[test]
fn match_adjudicates_by_the_tables() {
    let Some((dir, tb)) = tables() else {
        return;
    };
    let out = std::env::temp_dir().join(format!("sanqi-tb-match-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    let fens = [
        "8/8/8/4k3/8/8/3QK3/8 w - - 0 1",
        "8/8/8/4k3/8/8/3RK3/7r w - - 0 1",
        "8/8/8/4k3/8/8/3QK3/8 b - - 0 1",
    ];
    let epd = out.join("tb.epd");
    std::fs::write(&epd, fens.join("\n") + "\n").unwrap();
    let pgn = out.join("tb.pgn");
    let _ = std::fs::remove_file(&pgn);
    let exe = env!("CARGO_BIN_EXE_sanqi");
    let line = format!(
        "--game chess --engine cmd={exe} name=a --engine cmd={exe} name=b --nodes 500 \
         --rounds 3 --openings {} --tb {} --pgn {} --quiet",
        epd.display(),
        dir.display(),
        pgn.display()
    );
    let words: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
    assert_eq!(
        sanqi::tournament::main(&words),
        std::process::ExitCode::SUCCESS
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    let games: Vec<&str> = text.split("[Event ").skip(1).collect();
    assert_eq!(games.len(), 6);
    for game in games {
        let fen = game
            .split("[FEN \"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        let mut pos = Chess::from_fen(fen, &ChessConfig::default()).unwrap();
        let want = match (tb.probe_wdl(&mut pos).unwrap(), pos.side_to_move()) {
            (Wdl::Win, 0) | (Wdl::Loss, 1) => "1-0",
            (Wdl::Win, 1) | (Wdl::Loss, 0) => "0-1",
            _ => "1/2-1/2",
        };
        assert!(game.contains(&format!("[Result \"{want}\"]")), "{game}");
        assert!(game.contains("[Termination \"adjudication\"]"), "{game}");
        assert!(game.contains("tablebase"), "{game}");
        assert!(game.contains("[PlyCount \"0\"]"), "{game}");
    }
    for bad in [
        format!(
            "--game xiangqi --engine cmd={exe} --engine cmd={exe} --tb {}",
            dir.display()
        ),
        format!("--game chess --engine cmd={exe} --engine cmd={exe} --tb /nonexistent"),
        format!("--game chess --engine cmd={exe} --engine cmd={exe} --tb-pieces 4"),
    ] {
        let words: Vec<String> = bad.split_whitespace().map(str::to_owned).collect();
        assert_ne!(
            sanqi::tournament::main(&words),
            std::process::ExitCode::SUCCESS,
            "{bad}"
        );
    }
}
