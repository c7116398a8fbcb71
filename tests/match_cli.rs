//! `sanqi match` command line, openings and PGN pieces.

use std::time::Duration;

mod support;

use sanqi::game::chess::{Chess, ChessConfig};
use sanqi::game::prelude::*;
use sanqi::game::xiangqi::Xiangqi;
use sanqi::game::GameKind;
use sanqi::tournament::args::{parse, Parsed};
use sanqi::tournament::config::{DrawAdjudication, ResignAdjudication};
use sanqi::tournament::openings::{load_openings, random_opening, Rng};
use sanqi::tournament::proto::Proto;
use sanqi::tournament::stats::Sprt;
use sanqi::tournament::timecontrol::{go_command, Clock, TimeControl};
use sanqi::tournament::{MatchConfig, OpeningSource};

/// The `go` line for seat `mover` in the dialect of `proto`.
fn go_line(proto: Proto, clocks: &[Clock], mover: usize, ucci_millis: bool) -> String {
    go_command(proto, clocks, mover, ucci_millis)
        .display(proto.dialect())
        .to_string()
}

fn words(line: &str) -> Vec<String> {
    line.split_whitespace().map(str::to_owned).collect()
}

fn config(line: &str) -> MatchConfig {
    match parse(&words(line)) {
        Ok(Parsed::Run(c)) => *c,
        other => panic!("{line}: {other:?}"),
    }
}

fn error(line: &str) -> String {
    match parse(&words(line)) {
        Err(e) => e,
        other => panic!("{line} parsed: {other:?}"),
    }
}

#[test]
fn full_command_line() {
    let c = config(
        "--game xiangqi --engine cmd=/usr/bin/sanqi name=Sanqi option.Hash=16 option.Threads=1 \
         --engine cmd=/usr/games/fairy-stockfish proto=uci-fsf tc=5+0.05 \
         --engine cmd=eleeye proto=ucci movetime=200 arg=-x dir=/tmp \
         --each option.Hash=32 --tc 40/60+0.6 --rounds 10 --games-per-opening 2 --concurrency 2 \
         --random-plies 8 --random-balance 80 --seed 7 --pgn out.pgn --movelist ml.txt \
         --unclocked-timeout 9000 --margin 250 --hang-grace 3000 \
         --max-plies 300 --draw movenumber=30 movecount=6 score=5 --resign movecount=4 score=700 \
         --sprt elo0=0 elo1=5 alpha=0.05 beta=0.1 --quiet",
    );
    assert_eq!(c.game, GameKind::Xiangqi);
    assert_eq!(c.engines.len(), 3);
    let [a, b, e] = &c.engines[..] else {
        unreachable!()
    };
    assert_eq!(
        (a.name.as_str(), a.cmd.as_str(), a.proto),
        ("Sanqi", "/usr/bin/sanqi", Proto::Uci)
    );
    // --each comes first, so an engine's own value replaces it.
    assert_eq!(
        a.options,
        [
            ("Hash".to_owned(), "16".to_owned()),
            ("Threads".to_owned(), "1".to_owned())
        ]
    );
    assert_eq!(b.name, "fairy-stockfish");
    // Fairy-Stockfish writes xiangqi ranks 1-10: its own setup.
    assert_eq!(
        (b.proto, b.setup.clone()),
        (Proto::UciFsf, vec![("ranks".to_owned(), "1-10".to_owned())])
    );
    assert!(a.setup.is_empty());
    assert_eq!(b.options, [("Hash".to_owned(), "32".to_owned())]);
    assert_eq!(
        b.tc,
        Some(TimeControl::Clock {
            moves: None,
            base_ms: 5000,
            inc_ms: 50
        })
    );
    assert_eq!(
        (e.proto, e.tc),
        (Proto::Ucci, Some(TimeControl::MoveTime(200)))
    );
    assert_eq!(e.args, ["-x"]);
    assert_eq!(e.dir.as_deref(), Some(std::path::Path::new("/tmp")));
    assert_eq!(
        c.tc,
        TimeControl::Clock {
            moves: Some(40),
            base_ms: 60_000,
            inc_ms: 600
        }
    );
    assert_eq!(
        (c.rounds, c.games_per_opening, c.concurrency),
        (10, Some(2), 2)
    );
    assert_eq!(c.openings, OpeningSource::Random(8));
    assert_eq!((c.random_balance, c.seed), (Some(80), 7));
    assert_eq!(c.pgn.as_deref(), Some(std::path::Path::new("out.pgn")));
    assert_eq!(c.movelist.as_deref(), Some(std::path::Path::new("ml.txt")));
    assert_eq!(c.referee.unclocked_timeout, Duration::from_millis(9000));
    assert_eq!(c.referee.margin, Duration::from_millis(250));
    assert_eq!(c.referee.hang_grace, Duration::from_millis(3000));
    assert_eq!(c.referee.max_plies, Some(300));
    assert_eq!(
        c.referee.draw,
        Some(DrawAdjudication {
            move_number: 30,
            move_count: 6,
            score: 5
        })
    );
    assert_eq!(
        c.referee.resign,
        Some(ResignAdjudication {
            move_count: 4,
            score: 700
        })
    );
    assert_eq!(
        c.sprt,
        Some(Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.1
        })
    );
    assert!(c.quiet);

    // Chinese checkers: players, default ply cap 200 per seat; equal names get numbered.
    let c = config(
        "--game chinesecheckers --players 6 --engine cmd=sanqi --engine cmd=sanqi --nodes 1000",
    );
    assert_eq!(
        (c.setup.chinese_checkers.players, c.referee.max_plies),
        (6, Some(1200))
    );
    assert_eq!(c.referee.stall_plies, Some(240));
    assert_eq!(c.engines[0].name, "sanqi-1");
    assert_eq!(c.engines[1].name, "sanqi-2");
    assert_eq!(c.tc, TimeControl::Nodes(1000));
}

#[test]
fn setup_flags_of_every_game_are_read_once() {
    // Match-wide setup flags in any order (before `--game` too), read by the game's own table.
    let c = config(
        "--goal-lock --game chinesecheckers --players 3 --no-foreign-stop \
         --engine cmd=a --engine cmd=b --max-plies 50",
    );
    let cc = c.setup.chinese_checkers;
    assert_eq!(cc.players, 3);
    assert!(cc.rules.goal_lock && cc.rules.no_foreign_stop);
    assert_eq!(c.referee.max_plies, Some(50));
    assert_eq!(c.referee.stall_plies, Some(120));
    assert_eq!(c.setup.non_default(GameKind::ChineseCheckers).len(), 3);

    let c = config("--game chess --chess960 --engine cmd=a --engine cmd=b");
    assert!(c.setup.chess.chess960);
    // Chess has no progress measure: no default ply cap or stall window.
    assert_eq!((c.referee.max_plies, c.referee.stall_plies), (None, None));

    // Per-engine setup: `ranks=1-10` for one engine; `proto=uci-fsf` implies it, and an explicit
    // `ranks=0-9` after it wins.
    let c = config(
        "--game xiangqi --engine cmd=a ranks=1-10 --engine cmd=b proto=uci-fsf ranks=0-9 \
         --engine cmd=c",
    );
    let setups: Vec<_> = c.engines.iter().map(|e| e.setup.clone()).collect();
    assert_eq!(
        setups,
        [
            vec![("ranks".to_owned(), "1-10".to_owned())],
            vec![("ranks".to_owned(), "0-9".to_owned())],
            vec![]
        ]
    );
    assert_eq!(c.setup, sanqi::game::GameConfigs::default());
}

#[test]
fn bad_command_lines_are_refused_with_a_reason() {
    assert!(error("--engine cmd=a --engine cmd=b").contains("--game"));
    assert!(error("--game chess --engine cmd=a").contains("two"));
    assert!(error("--game go --engine cmd=a --engine cmd=b").contains("unknown game"));
    assert!(error("--game chess --engine cmd=a --engine cmd=b --tc 10+x").contains("`x`"));
    assert!(error("--game chess --engine cmd=a --engine cmd=b --tc 0").contains("no time"));
    assert!(error("--game chess --engine cmd=a proto=xboard --engine cmd=b").contains("proto"));
    assert!(error("--game chess --engine name=x --engine cmd=b").contains("no cmd"));
    assert!(error("--game chess --engine cmd=a colour=red --engine cmd=b").contains("colour"));
    assert!(error("--game chess --players 3 --engine cmd=a --engine cmd=b").contains("players"));
    assert!(error("--game xiangqi --chess960 --engine cmd=a --engine cmd=b").contains("chess"));
    assert!(
        error("--game chinesecheckers --players 5 --engine cmd=a --engine cmd=b")
            .contains("players")
    );
    assert!(
        error("--game chinesecheckers --players --engine cmd=a --engine cmd=b").contains("value")
    );
    assert!(
        error("--game chess --chess960 yes --engine cmd=a --engine cmd=b").contains("no value")
    );
    assert!(error("--game xiangqi --engine cmd=a ranks=2-11 --engine cmd=b").contains("ranks"));
    assert!(error("--game chess --engine cmd=a ranks=1-10 --engine cmd=b").contains("ranks"));
    assert!(
        error("--game chess --engine cmd=a --engine cmd=b --sprt elo0=5 elo1=0").contains("elo1")
    );
    assert!(error("--game chess --engine cmd=a --engine cmd=b --rounds").contains("one value"));
    assert!(error("--game chess --engine cmd=a --engine cmd=b --whatever").contains("--whatever"));
    assert!(matches!(parse(&words("--help")), Ok(Parsed::Help)));
}

#[test]
fn time_controls_and_go_lines() {
    assert_eq!(
        TimeControl::parse_tc("1:30+1").unwrap(),
        TimeControl::Clock {
            moves: None,
            base_ms: 90_000,
            inc_ms: 1000
        }
    );
    assert!(TimeControl::parse_tc("x/10").is_err());
    assert!(TimeControl::parse_tc("-5").is_err());
    assert!(TimeControl::parse_tc("1e400").is_err());
    let tc = TimeControl::Clock {
        moves: Some(2),
        base_ms: 1000,
        inc_ms: 0,
    };
    let mut clocks = [Clock::new(tc), Clock::new(tc)];
    assert_eq!(
        go_line(Proto::Uci, &clocks, 0, false),
        "go wtime 1000 btime 1000 winc 0 binc 0 movestogo 2"
    );
    // 300 ms used: 700 left, one move to go; after the 2nd move the period's 1000 ms are added.
    assert!(clocks[0].charge(Duration::from_millis(300), Duration::ZERO));
    assert_eq!(clocks[0].left_ms, 700);
    assert_eq!(clocks[0].moves_to_go(), Some(1));
    assert!(clocks[0].charge(Duration::from_millis(200), Duration::ZERO));
    assert_eq!(clocks[0].left_ms, 1500);
    // More than the clock holds (plus margin) is a time loss.
    assert!(!clocks[1].charge(Duration::from_millis(1200), Duration::from_millis(100)));
    assert!(clocks[1].charge(Duration::ZERO, Duration::ZERO));
    let tc = TimeControl::Clock {
        moves: None,
        base_ms: 3500,
        inc_ms: 1500,
    };
    let clocks = [Clock::new(tc), Clock::new(tc), Clock::new(tc)];
    // UCCI without usemillisec: whole seconds.
    assert_eq!(
        go_line(Proto::Ucci, &clocks[..2], 1, false),
        "go time 3 increment 1 opptime 3 oppincrement 1"
    );
    assert_eq!(
        go_line(Proto::Uci, &clocks, 2, false),
        "go time 3500 inc 1500"
    );
    assert_eq!(
        go_line(
            Proto::Ucci,
            &[Clock::new(TimeControl::MoveTime(250))],
            0,
            true
        ),
        "go time 250 movestogo 1"
    );
    assert_eq!(
        go_line(Proto::Uci, &[Clock::new(TimeControl::Depth(7))], 0, false),
        "go depth 7"
    );
}

#[test]
fn openings_from_epd_and_random_balanced() {
    let gc = ChessConfig::default();
    let text = "# test\n\
        rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 bm e5; id \"x\";\n\
        rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e4 e7e5\n";
    let ops = load_openings::<Chess>(text, &gc).unwrap();
    assert_eq!(ops.len(), 2);
    assert_eq!(
        ops[0].fen,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    assert_eq!(ops[1].moves, ["e2e4", "e7e5"]);
    let err = load_openings::<Chess>("8/8/8 w - - 0 1\n", &gc).unwrap_err();
    assert!(err.starts_with("line 1:"), "{err}");
    let err = load_openings::<Chess>(
        &format!("{} moves e2e5\n", Chess::startpos(&gc).to_fen()),
        &gc,
    )
    .unwrap_err();
    assert!(err.contains("e2e5"), "{err}");

    let start = Chess::startpos(&gc);
    let mut rng = Rng::new(42);
    for _ in 0..5 {
        let o = random_opening(&start, 8, Some(50), &mut rng, &gc);
        assert_eq!(o.moves.len(), 8);
        let mut pos = Chess::from_fen(&o.fen, &gc).unwrap();
        for m in &o.moves {
            let mv = pos.parse_move(m, &gc).unwrap();
            pos.make_move(mv);
        }
        assert!(pos.evaluate().abs() <= 50);
        assert!(pos.outcome().is_none());
    }
    // The same seed gives the same openings.
    let a = random_opening(&start, 6, None, &mut Rng::new(3), &gc);
    let b = random_opening(&start, 6, None, &mut Rng::new(3), &gc);
    assert_eq!(a, b);
}

#[test]
fn chess_san_matches_python_chess() {
    // Expected values from python-chess 1.11.2 (`Board.san`).
    let cases = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "g1f3",
            "Nf3",
        ),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "O-O"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", "O-O-O"),
        ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "a8a1", "Rxa1+"),
        ("7k/P7/8/8/8/8/8/K7 w - - 0 1", "a7a8q", "a8=Q+"),
        ("7k/8/8/8/8/8/8/KN3N2 w - - 0 1", "b1d2", "Nbd2"),
        ("7k/8/8/8/8/1N6/8/KN6 w - - 0 1", "b1d2", "N1d2"),
        ("7k/8/8/8/8/1N6/8/KN6 w - - 0 1", "b3d2", "N3d2"),
        ("k7/8/8/8/8/8/8/K5Q1 w - - 0 1", "g1g8", "Qg8+"),
        ("k7/8/1K6/8/8/8/8/6Q1 w - - 0 1", "g1g8", "Qg8#"),
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", "exd6"),
        ("2k5/8/8/Q7/8/8/8/QK5Q w - - 0 1", "a1e5", "Q1e5"),
        ("2k5/8/8/Q7/8/8/8/QK5Q w - - 0 1", "h1e4", "Qe4"),
        ("2k5/8/8/Q7/8/8/8/QK5Q w - - 0 1", "a5c7", "Qc7+"),
    ];
    let gc = ChessConfig::default();
    for (fen, uci, san) in cases {
        let pos = Chess::from_fen(fen, &gc).unwrap();
        let m = pos.parse_move(uci, &gc).unwrap();
        assert_eq!(pos.record_move(m, &gc), san, "{fen} {uci}");
    }
    let xc = Default::default();
    let x = Xiangqi::startpos(&xc);
    let m = x.parse_move("h2e2", &xc).unwrap();
    assert_eq!(x.record_move(m, &xc), "H2-E2");
}

#[test]
fn main_plays_a_short_match_from_the_command_line() {
    let dir = std::env::temp_dir().join(format!("sanqi-match-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("cli.pgn");
    let _ = std::fs::remove_file(&pgn);
    let line = format!(
        "--game chess --engine cmd={exe} name=a option.Hash=4 --engine cmd={exe} name=b \
         --each option.Hash=8 --nodes 400 --max-plies 12 --random-plies 4 --pgn {} --quiet",
        pgn.display(),
        exe = env!("CARGO_BIN_EXE_sanqi"),
    );
    let code = sanqi::tournament::main(&words(&line));
    assert_eq!(code, std::process::ExitCode::SUCCESS);
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(
        text.matches("[Result \"1/2-1/2\"]").count()
            + text.matches("[Result \"1-0\"]").count()
            + text.matches("[Result \"0-1\"]").count(),
        2,
        "{text}"
    );
    assert!(
        text.contains("[White \"a\"]") && text.contains("[White \"b\"]"),
        "{text}"
    );
    assert_eq!(
        sanqi::tournament::main(&words("--game chess")),
        std::process::ExitCode::from(2)
    );
}

#[test]
fn chess960_start_positions_match_python_chess() {
    use sanqi::game::chess::chess960_fen;
    assert_eq!(
        chess960_fen(518),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
    );
    let gc = ChessConfig { chess960: true };
    for n in 0..960 {
        Chess::from_fen(&chess960_fen(n), &gc).unwrap();
    }
    // The back ranks of all 960 against python-chess's `Board.from_chess960_pos` (same numbering).
    let out = std::process::Command::new(support::python())
        .args([
            "-c",
            "import chess\nfor n in range(960): print(chess.Board.from_chess960_pos(n).board_fen().split('/')[0])",
        ])
        .output();
    match out {
        Ok(o) if o.status.success() => {
            let theirs = String::from_utf8(o.stdout).unwrap();
            let ours: Vec<String> = (0..960)
                .map(|n| chess960_fen(n).split('/').next().unwrap().to_owned())
                .collect();
            assert_eq!(theirs.lines().collect::<Vec<_>>(), ours);
        }
        _ => eprintln!("note: python3 with python-chess missing, Chess960 table not compared"),
    }
}
