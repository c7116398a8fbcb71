//! Every command form of both dialects, and round trips (display then parse gives the same value).

use sanqi_protocol::{
    parse_command, parse_command_bytes, Command, Dialect, GoParams, PositionStart, ProtocolError,
    Register,
};

const UCI: Dialect = Dialect::Uci;
const UCCI: Dialect = Dialect::Ucci;

fn uci(line: &str) -> Command {
    parse_command(line, UCI).unwrap_or_else(|e| panic!("{line:?}: {e}"))
}

fn ucci(line: &str) -> Command {
    parse_command(line, UCCI).unwrap_or_else(|e| panic!("{line:?}: {e}"))
}

fn moves(list: &str) -> Vec<String> {
    list.split_whitespace().map(str::to_owned).collect()
}

fn round_trip(cmd: &Command, dialect: Dialect) {
    let line = cmd.display(dialect).to_string();
    let back = parse_command(&line, dialect).unwrap_or_else(|e| panic!("{line:?}: {e}"));
    assert_eq!(&back, cmd, "round trip of {line:?} in {dialect:?}");
}

#[test]
fn simple_commands() {
    for (line, cmd) in [
        ("uci", Command::Uci),
        ("ucci", Command::Ucci),
        ("isready", Command::IsReady),
        ("ucinewgame", Command::UciNewGame),
        ("stop", Command::Stop),
        ("quit", Command::Quit),
        ("d", Command::Display),
        ("eval", Command::Eval),
        ("spsa", Command::Spsa { game: None }),
        (
            "spsa xiangqi",
            Command::Spsa {
                game: Some("xiangqi".into()),
            },
        ),
        ("ponderhit", Command::PonderHit { draw: false }),
        ("ponderhit draw", Command::PonderHit { draw: true }),
        ("debug", Command::Debug(true)),
        ("debug on", Command::Debug(true)),
        ("debug off", Command::Debug(false)),
        ("bench", Command::Bench { depth: None }),
        ("bench 13", Command::Bench { depth: Some(13) }),
        ("moves", Command::ListMoves { piece: None }),
        (
            "moves e3",
            Command::ListMoves {
                piece: Some("e3".into()),
            },
        ),
        ("perft 5", Command::Perft { depth: 5 }),
        ("go perft 5", Command::Perft { depth: 5 }),
    ] {
        assert_eq!(uci(line), cmd, "{line}");
        assert_eq!(ucci(line), cmd, "{line}");
    }
}

#[test]
fn blank_lines_comments_and_line_endings() {
    for line in [
        "",
        "   ",
        "\t \t",
        "\r\n",
        "\n",
        "# a comment",
        "   #go depth 3",
        "#",
    ] {
        assert_eq!(uci(line), Command::Empty, "{line:?}");
    }
    assert_eq!(uci("isready\r\n"), Command::IsReady);
    assert_eq!(uci("  \t isready \t\r"), Command::IsReady);
    // Trailing words after a command without arguments are ignored (UCI: skip unknown tokens).
    assert_eq!(uci("isready now"), Command::IsReady);
    // Keywords are case-sensitive lower case, like Stockfish.
    assert!(matches!(
        parse_command("ISREADY", UCI),
        Err(ProtocolError::UnknownCommand { .. })
    ));
}

#[test]
fn setoption_uci() {
    assert_eq!(
        uci("setoption name Hash value 128"),
        Command::SetOption {
            name: "Hash".into(),
            value: Some("128".into())
        }
    );
    // Names with spaces, runs of separators, split at the first standalone `value`.
    assert_eq!(
        uci("setoption   name  Move\tOverhead   value  30 \r\n"),
        Command::SetOption {
            name: "Move Overhead".into(),
            value: Some("30".into())
        }
    );
    assert_eq!(
        uci("setoption name Clear Hash"),
        Command::SetOption {
            name: "Clear Hash".into(),
            value: None
        }
    );
    // The value is the rest of the line with inner spacing kept (paths with spaces).
    assert_eq!(
        uci("setoption name SyzygyPath value /tb/my  dir value x"),
        Command::SetOption {
            name: "SyzygyPath".into(),
            value: Some("/tb/my  dir value x".into())
        }
    );
    // A name word that merely contains `value` does not split.
    assert_eq!(
        uci("setoption name valueless values value 1"),
        Command::SetOption {
            name: "valueless values".into(),
            value: Some("1".into())
        }
    );
    assert_eq!(
        uci("setoption name UCI_Variant value chinesecheckers"),
        Command::SetOption {
            name: "UCI_Variant".into(),
            value: Some("chinesecheckers".into())
        }
    );
    assert_eq!(
        uci("setoption name SyzygyPath value"),
        Command::SetOption {
            name: "SyzygyPath".into(),
            value: Some(String::new())
        }
    );
}

#[test]
fn setoption_ucci() {
    assert_eq!(
        ucci("setoption usemillisec true"),
        Command::SetOption {
            name: "usemillisec".into(),
            value: Some("true".into())
        }
    );
    assert_eq!(
        ucci("setoption newgame"),
        Command::SetOption {
            name: "newgame".into(),
            value: None
        }
    );
    assert_eq!(
        ucci("setoption bookfiles C:\\My Books\\book.obk \r\n"),
        Command::SetOption {
            name: "bookfiles".into(),
            value: Some("C:\\My Books\\book.obk".into())
        }
    );
}

#[test]
fn register() {
    assert_eq!(
        uci("register later"),
        Command::Register(Register {
            later: true,
            ..Register::default()
        })
    );
    assert_eq!(
        uci("register name Stefan MK code 4359874324"),
        Command::Register(Register {
            later: false,
            name: Some("Stefan MK".into()),
            code: Some("4359874324".into()),
        })
    );
}

#[test]
fn position() {
    assert_eq!(
        uci("position startpos"),
        Command::Position {
            start: PositionStart::StartPos,
            moves: vec![]
        }
    );
    assert_eq!(
        uci("position startpos moves"),
        Command::Position {
            start: PositionStart::StartPos,
            moves: vec![]
        }
    );
    assert_eq!(
        uci("position startpos moves e2e4 e7e5  g1f3\r\n"),
        Command::Position {
            start: PositionStart::StartPos,
            moves: moves("e2e4 e7e5 g1f3")
        }
    );
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    assert_eq!(
        ucci(&format!("position fen {fen} moves h2e2 h9g7")),
        Command::Position {
            start: PositionStart::Fen(fen.into()),
            moves: moves("h2e2 h9g7")
        }
    );
    // FEN tokens are joined by single spaces; content is not validated here.
    assert_eq!(
        uci("position fen  8/8/8  w   -\t- 0 1"),
        Command::Position {
            start: PositionStart::Fen("8/8/8 w - - 0 1".into()),
            moves: vec![]
        }
    );
    assert_eq!(
        ucci("probe startpos moves h2e2"),
        Command::Probe {
            start: PositionStart::StartPos,
            moves: moves("h2e2")
        }
    );
    assert_eq!(
        ucci("banmoves h2e2 b2e2"),
        Command::BanMoves(moves("h2e2 b2e2"))
    );
    assert_eq!(ucci("banmoves"), Command::BanMoves(vec![]));
}

#[test]
fn go_uci_any_order() {
    let expected = GoParams {
        wtime: Some(300_000),
        btime: Some(299_000),
        winc: Some(2000),
        binc: Some(2000),
        movestogo: Some(40),
        ..GoParams::default()
    };
    assert_eq!(
        uci("go wtime 300000 btime 299000 winc 2000 binc 2000 movestogo 40"),
        Command::Go(expected.clone())
    );
    assert_eq!(
        uci("go movestogo 40 binc 2000 winc 2000 btime 299000 wtime 300000"),
        Command::Go(expected)
    );
    assert_eq!(
        uci("go infinite"),
        Command::Go(GoParams {
            infinite: true,
            ..GoParams::default()
        })
    );
    assert_eq!(uci("go"), Command::Go(GoParams::default()));
    assert_eq!(
        uci("go depth 12 nodes 1000000 mate 3 movetime 5000 ponder"),
        Command::Go(GoParams {
            depth: Some(12),
            nodes: Some(1_000_000),
            mate: Some(3),
            movetime: Some(5000),
            ponder: true,
            ..GoParams::default()
        })
    );
    // searchmoves ends at the next keyword; unknown tokens are skipped; the last repeat wins.
    assert_eq!(
        uci("go searchmoves e2e4 d2d4 depth 5 frobnicate 7 depth 6"),
        Command::Go(GoParams {
            searchmoves: moves("e2e4 d2d4"),
            depth: Some(6),
            ..GoParams::default()
        })
    );
    // Negative clocks (a flagged side) are kept as given.
    assert_eq!(
        uci("go wtime -5 btime 100"),
        Command::Go(GoParams {
            wtime: Some(-5),
            btime: Some(100),
            ..GoParams::default()
        })
    );
    // Chinese checkers: the clock of the side to move.
    assert_eq!(
        uci("go time 60000 inc 500 movestogo 20"),
        Command::Go(GoParams {
            time: Some(60_000),
            increment: Some(500),
            movestogo: Some(20),
            ..GoParams::default()
        })
    );
    assert_eq!(
        uci("go nodes 18446744073709551615"),
        Command::Go(GoParams {
            nodes: Some(u64::MAX),
            ..GoParams::default()
        })
    );
}

#[test]
fn go_ucci() {
    assert_eq!(
        ucci("go time 300 increment 5 opptime 280 oppincrement 5"),
        Command::Go(GoParams {
            time: Some(300),
            increment: Some(5),
            opptime: Some(280),
            oppincrement: Some(5),
            ..GoParams::default()
        })
    );
    assert_eq!(
        ucci("go ponder time 60000 movestogo 30 opptime 59000 oppmovestogo 29"),
        Command::Go(GoParams {
            ponder: true,
            time: Some(60_000),
            movestogo: Some(30),
            opptime: Some(59_000),
            oppmovestogo: Some(29),
            ..GoParams::default()
        })
    );
    assert_eq!(
        ucci("go draw depth 8"),
        Command::Go(GoParams {
            draw: true,
            depth: Some(8),
            ..GoParams::default()
        })
    );
    assert_eq!(
        ucci("go nodes 500000"),
        Command::Go(GoParams {
            nodes: Some(500_000),
            ..GoParams::default()
        })
    );
}

fn sample_commands() -> Vec<Command> {
    let full_go = GoParams {
        searchmoves: moves("e2e4 d2d4"),
        ponder: true,
        draw: true,
        wtime: Some(-5),
        btime: Some(1000),
        winc: Some(0),
        binc: Some(10),
        time: Some(7),
        movestogo: Some(3),
        increment: Some(2),
        opptime: Some(9),
        oppmovestogo: Some(4),
        oppincrement: Some(1),
        depth: Some(20),
        nodes: Some(u64::MAX),
        mate: Some(5),
        movetime: Some(100),
        infinite: true,
    };
    vec![
        Command::Empty,
        Command::Uci,
        Command::Ucci,
        Command::Debug(true),
        Command::Debug(false),
        Command::IsReady,
        Command::SetOption {
            name: "Hash".into(),
            value: Some("64".into()),
        },
        Command::SetOption {
            name: "ponder".into(),
            value: None,
        },
        Command::SetOption {
            name: "bookfiles".into(),
            value: Some("a  b.obk".into()),
        },
        Command::Register(Register {
            later: true,
            name: None,
            code: None,
        }),
        Command::Register(Register {
            later: false,
            name: Some("A B".into()),
            code: Some("123 x".into()),
        }),
        Command::UciNewGame,
        Command::Position {
            start: PositionStart::StartPos,
            moves: vec![],
        },
        Command::Position {
            start: PositionStart::StartPos,
            moves: moves("e2e4 e7e5"),
        },
        Command::Position {
            start: PositionStart::Fen("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
            moves: moves("a1a2"),
        },
        Command::Go(GoParams::default()),
        Command::Go(full_go),
        Command::Go(GoParams {
            infinite: true,
            searchmoves: moves("h2e2"),
            ..GoParams::default()
        }),
        Command::Perft { depth: 6 },
        Command::Stop,
        Command::PonderHit { draw: false },
        Command::PonderHit { draw: true },
        Command::Quit,
        Command::BanMoves(moves("h2e2 b0c2")),
        Command::BanMoves(vec![]),
        Command::Probe {
            start: PositionStart::Fen("x y z".into()),
            moves: moves("a b"),
        },
        Command::Bench { depth: None },
        Command::Bench { depth: Some(9) },
        Command::Display,
        Command::Eval,
        Command::ListMoves { piece: None },
        Command::ListMoves {
            piece: Some("e5".into()),
        },
    ]
}

#[test]
fn round_trips_in_both_dialects() {
    for cmd in sample_commands() {
        round_trip(&cmd, UCI);
        round_trip(&cmd, UCCI);
    }
}

#[test]
fn display_forms_per_dialect() {
    let set = Command::SetOption {
        name: "Hash".into(),
        value: Some("64".into()),
    };
    assert_eq!(set.display(UCI).to_string(), "setoption name Hash value 64");
    assert_eq!(set.display(UCCI).to_string(), "setoption Hash 64");
    let go = Command::Go(GoParams {
        time: Some(10),
        increment: Some(1),
        ..GoParams::default()
    });
    assert_eq!(go.display(UCI).to_string(), "go time 10 inc 1");
    assert_eq!(go.display(UCCI).to_string(), "go time 10 increment 1");
    let go = Command::Go(GoParams {
        wtime: Some(1),
        btime: Some(2),
        winc: Some(3),
        binc: Some(4),
        movestogo: Some(5),
        ..GoParams::default()
    });
    assert_eq!(
        go.display(UCI).to_string(),
        "go wtime 1 btime 2 winc 3 binc 4 movestogo 5"
    );
}

#[test]
fn bytes_entry() {
    assert_eq!(
        parse_command_bytes(b"go depth 3\r\n", UCI),
        Ok(Command::Go(GoParams {
            depth: Some(3),
            ..GoParams::default()
        }))
    );
    assert_eq!(
        parse_command_bytes(b"position fen \xff\xfe", UCI),
        Err(ProtocolError::NotUtf8 { valid_up_to: 13 })
    );
}
