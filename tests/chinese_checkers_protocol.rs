//! Chinese checkers through the protocol (our UCI extension, ../shared/briefs/protocol.md):
//! three copies of the engine play a whole 3-player game to a win, each seeing only
//! `position startpos moves ...` and answering `bestmove`; the referee is the rules code.

mod support;

use sanqi::game::chinese_checkers::{ChineseCheckers, ChineseCheckersConfig};
use sanqi::game::prelude::*;
use sanqi::game::Outcome;
use std::time::Duration;
use support::driver::{Engine, PROMPT};

fn cc_engine(players: u8) -> Engine {
    let mut e = Engine::uci();
    e.send("setoption name UCI_Variant value chinesecheckers");
    e.send(&format!("setoption name CC Players value {players}"));
    e.send("ucinewgame");
    e.sync();
    e
}

#[test]
fn three_engines_play_a_three_player_game_to_a_win() {
    let config = ChineseCheckersConfig {
        players: 3,
        ..ChineseCheckersConfig::default()
    };
    let mut referee = ChineseCheckers::startpos(&config);
    let mut engines: Vec<Engine> = (0..3).map(|_| cc_engine(3)).collect();
    let mut moves: Vec<String> = Vec::new();
    let mut winner = None;
    for _ply in 0..900 {
        if let Some(Outcome::Win(w)) = referee.rule_outcome() {
            winner = Some(w);
            break;
        }
        let side = referee.side_to_move();
        let e = &mut engines[side];
        let list = if moves.is_empty() {
            String::new()
        } else {
            format!(" moves {}", moves.join(" "))
        };
        e.send(&format!("position startpos{list}"));
        e.send("go nodes 3000");
        let (best, before) = e.expect_prefix("bestmove", Duration::from_secs(20));
        let mv = best.split_whitespace().nth(1).unwrap().to_string();
        let m = referee
            .parse_move(&mv, &config)
            .unwrap_or_else(|err| panic!("engine {side} played illegal {mv}: {err}"));
        // A jump chain comes with its witness path, which must start and end on the move's cells.
        if let Some(path) = before
            .iter()
            .rev()
            .find_map(|l| l.strip_prefix("info string path "))
        {
            let cells: Vec<&str> = path.split_whitespace().collect();
            assert!(
                mv.starts_with(cells[0]) && mv.ends_with(cells[cells.len() - 1]),
                "{mv} {path}"
            );
        }
        referee.make_move(m);
        moves.push(mv);
    }
    let w = winner.unwrap_or_else(|| {
        panic!(
            "no winner after {} plies: {}",
            moves.len(),
            referee.to_fen()
        )
    });
    assert!(w < 3);
    eprintln!("winner {w} after {} plies", moves.len());
    // The won position has no moves: every engine answers `bestmove (none)`.
    let e = &mut engines[referee.side_to_move()];
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    e.send("go depth 2");
    let (best, _) = e.expect_prefix("bestmove", Duration::from_secs(10));
    assert_eq!(best, "bestmove (none)");
}

#[test]
fn malformed_position_strings_and_moves_are_rejected_with_reasons() {
    let mut e = cc_engine(2);
    let cases = [
        (
            "position fen D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA AD A 0",
            "rank",
        ),
        (
            "position fen D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/A AD X 0",
            "X",
        ),
        (
            "position fen D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/Z AD A 0",
            "Z",
        ),
        ("position startpos moves m1m5", "m1m5"),
        ("position startpos moves z9z9", "z9z9"),
    ];
    for (line, needle) in cases {
        e.send(line);
        let (err, _) = e.expect_prefix("info string error: ", PROMPT);
        assert!(err.contains(needle), "{line} -> {err}");
        assert!(err.contains("previous position is kept"), "{err}");
    }
    // The start position is still in force: 14 moves for A.
    e.expect_perft(1, 14);
    // `moves <cell>` lists a piece's moves with paths; a bad cell is an error.
    e.send("moves k3");
    let (_, lines) = e.expect("end of moves", PROMPT, |l| l.contains("end of moves"));
    assert!(
        lines.iter().all(|l| l.starts_with("info string move k3")),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.contains(" path k3 ")), "{lines:?}");
    e.send("moves z99");
    e.expect_prefix("info string error: ", PROMPT);
}

#[test]
fn clocks_follow_the_brief_for_every_player_count() {
    // 3 players: `go time <ms> [inc <ms>]` is the clock of the side to move.
    let mut e = cc_engine(3);
    e.send("position startpos moves k3k5");
    e.send("go time 300 inc 0");
    let (best, _) = e.expect_prefix("bestmove", Duration::from_secs(3));
    assert!(best.len() > "bestmove ".len(), "{best}");
    // 2 players: wtime/winc belong to the first player (A), btime/binc to the second (D).
    let mut e = cc_engine(2);
    e.send("position startpos");
    e.send("go wtime 300 btime 10000000 winc 0 binc 0");
    e.expect_prefix("bestmove", Duration::from_secs(3));
    e.send("position startpos moves k3k5");
    e.send("go wtime 10000000 btime 300 winc 0 binc 0");
    e.expect_prefix("bestmove", Duration::from_secs(3));
    e.send("go time 300");
    e.expect_prefix("bestmove", Duration::from_secs(3));
}

/// `CC Player` rule players (greedy, rear, jump, shallow) answer `go` through the protocol with
/// exactly the library rule's move for their `CC Greedy Seed`, at once, even under a long
/// `movetime`; six copies of a mix of them play a six-player game to its end without a stall.
#[test]
fn rule_players_answer_go_with_their_rule_move() {
    use sanqi::game::chinese_checkers::greedy::Player;
    let config = ChineseCheckersConfig {
        players: 6,
        ..ChineseCheckersConfig::default()
    };
    let rules = [Player::Greedy, Player::Rear, Player::Jump, Player::Shallow];
    let mut engines: Vec<(Engine, Player, u64)> = (0..6)
        .map(|i| {
            let player = rules[i % rules.len()];
            let seed = 11 + i as u64;
            let mut e = cc_engine(6);
            e.send(&format!("setoption name CC Player value {}", player.name()));
            e.send(&format!("setoption name CC Greedy Seed value {seed}"));
            e.sync();
            (e, player, seed)
        })
        .collect();
    let mut referee = ChineseCheckers::startpos(&config);
    let mut moves: Vec<String> = Vec::new();
    let mut finished = false;
    for _ply in 0..1200 {
        if referee.rule_outcome().is_some() {
            finished = true;
            break;
        }
        let side = referee.side_to_move();
        let (e, player, seed) = &mut engines[side];
        let expected = player.choice(&referee, *seed).expect("a move").to_string();
        let list = if moves.is_empty() {
            String::new()
        } else {
            format!(" moves {}", moves.join(" "))
        };
        e.send(&format!("position startpos{list}"));
        let started = std::time::Instant::now();
        e.send("go movetime 60000");
        let (best, _) = e.expect_prefix("bestmove", Duration::from_secs(20));
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{} searched",
            player.name()
        );
        let mv = best.split_whitespace().nth(1).unwrap().to_string();
        assert_eq!(mv, expected, "{} seat {side}", player.name());
        let m = referee.parse_move(&mv, &config).expect("legal");
        referee.make_move(m);
        moves.push(mv);
    }
    assert!(finished, "no winner after {} plies", moves.len());
}
