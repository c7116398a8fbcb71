//! Replies: exact spec lines per dialect, parsing, round trips, and real engine output
//! (Stockfish and Fairy-Stockfish, when installed) parsed and written back unchanged.

use std::io::Write;
use std::process::{Command as Process, Stdio};

use sanqi_protocol::{
    parse_reply, Bound, Dialect, Id, Info, OptionDecl, OptionKind, PopHash, Reply, Score,
    UCCI_MATE_VALUE,
};

const UCI: Dialect = Dialect::Uci;
const UCCI: Dialect = Dialect::Ucci;

fn words(list: &str) -> Vec<String> {
    list.split_whitespace().map(str::to_owned).collect()
}

fn written(reply: &Reply, dialect: Dialect) -> String {
    reply.display(dialect).to_string()
}

fn round_trip(reply: &Reply, dialect: Dialect) {
    let line = written(reply, dialect);
    let back = parse_reply(&line, dialect).unwrap_or_else(|e| panic!("{line:?}: {e}"));
    assert_eq!(&back, reply, "round trip of {line:?} in {dialect:?}");
}

fn option(name: &str, kind: OptionKind) -> Reply {
    Reply::Option(OptionDecl {
        name: name.into(),
        kind,
    })
}

/// Checks each reply's line in UCI and in UCCI: (reply, UCI line, UCCI line).
fn assert_lines(cases: &[(Reply, &str, &str)]) {
    for (reply, uci_line, ucci_line) in cases {
        assert_eq!(&written(reply, UCI), uci_line);
        assert_eq!(&written(reply, UCCI), ucci_line);
    }
}

/// Exact lines: the handshake replies, `id` and `bestmove (none)`.
#[test]
fn exact_lines_of_handshakes_and_ids() {
    assert_lines(&[
        (Reply::UciOk, "uciok", "uciok"),
        (Reply::UcciOk, "ucciok", "ucciok"),
        (Reply::ReadyOk, "readyok", "readyok"),
        (Reply::Bye, "bye", "bye"),
        (Reply::NoBestMove, "bestmove (none)", "nobestmove"),
        (
            Reply::Id(Id::Name("sanqi 0.1".into())),
            "id name sanqi 0.1",
            "id name sanqi 0.1",
        ),
        (
            Reply::Id(Id::Copyright("MIT".into())),
            "id copyright MIT",
            "id copyright MIT",
        ),
    ]);
}

/// Exact lines: Option declarations of each kind.
#[test]
fn exact_lines_of_options() {
    assert_lines(&[
        (
            option(
                "Hash",
                OptionKind::Spin {
                    default: 16,
                    min: 1,
                    max: 33_554_432,
                },
            ),
            "option name Hash type spin default 16 min 1 max 33554432",
            "option Hash type spin min 1 max 33554432 default 16",
        ),
        (
            option("Clear Hash", OptionKind::Button),
            "option name Clear Hash type button",
            "option Clear Hash type button",
        ),
        (
            option("Ponder", OptionKind::Check { default: false }),
            "option name Ponder type check default false",
            "option Ponder type check default false",
        ),
        (
            option(
                "UCI_Variant",
                OptionKind::Combo {
                    default: "chess".into(),
                    vars: words("chess xiangqi chinesecheckers"),
                },
            ),
            "option name UCI_Variant type combo default chess var chess var xiangqi var chinesecheckers",
            "option UCI_Variant type combo var chess var xiangqi var chinesecheckers default chess",
        ),
        (
            option(
                "SyzygyPath",
                OptionKind::String {
                    default: String::new(),
                },
            ),
            "option name SyzygyPath type string default <empty>",
            "option SyzygyPath type string",
        ),
    ]);
}

/// Exact lines: `bestmove` with ponder, draw and resign, and messages.
#[test]
fn exact_lines_of_best_moves_and_messages() {
    assert_lines(&[
        (
            Reply::best_move("e2e4", Some("e7e5".into())),
            "bestmove e2e4 ponder e7e5",
            "bestmove e2e4 ponder e7e5",
        ),
        (
            Reply::BestMove {
                mv: "h2e2".into(),
                ponder: None,
                draw: true,
                resign: false,
            },
            "bestmove h2e2",
            "bestmove h2e2 draw",
        ),
        (
            Reply::BestMove {
                mv: "h2e2".into(),
                ponder: Some("h9g7".into()),
                draw: false,
                resign: true,
            },
            "bestmove h2e2 ponder h9g7",
            "bestmove h2e2 ponder h9g7 resign",
        ),
        (
            Reply::message("hello  world"),
            "info string hello  world",
            "info message hello  world",
        ),
        (
            Reply::error("bad fen"),
            "info string error: bad fen",
            "info message error: bad fen",
        ),
    ]);
}

/// Exact lines: `info` lines (scores, mates, bounds), `pophash` and perft lines.
#[test]
fn exact_lines_of_info_pophash_and_perft() {
    assert_lines(&[
        (
            Reply::Info(Info {
                depth: Some(10),
                seldepth: Some(14),
                multipv: Some(1),
                score: Some(Score::Cp(23)),
                nodes: Some(12345),
                nps: Some(600_000),
                hashfull: Some(3),
                time: Some(20),
                pv: words("e2e4 e7e5"),
                ..Info::default()
            }),
            "info depth 10 seldepth 14 multipv 1 score cp 23 nodes 12345 nps 600000 hashfull 3 time 20 pv e2e4 e7e5",
            "info depth 10 seldepth 14 multipv 1 score 23 nodes 12345 nps 600000 hashfull 3 time 20 pv e2e4 e7e5",
        ),
        (
            Reply::Info(Info {
                depth: Some(0),
                score: Some(Score::Mate(0)),
                ..Info::default()
            }),
            "info depth 0 score mate 0",
            "info depth 0 score -10000",
        ),
        (
            Reply::Info(Info {
                depth: Some(7),
                score: Some(Score::Mate(3)),
                bound: Some(Bound::Lower),
                ..Info::default()
            }),
            "info depth 7 score mate 3 lowerbound",
            "info depth 7 score 9995 lowerbound",
        ),
        (
            Reply::Info(Info {
                time: Some(1500),
                nodes: Some(99),
                ..Info::default()
            }),
            "info nodes 99 time 1500",
            "info nodes 99 time 1500",
        ),
        (
            Reply::PopHash(PopHash {
                bestmove: Some("h2e2".into()),
                lowerbound: Some((-20, 7)),
                upperbound: None,
            }),
            "pophash bestmove h2e2 lowerbound -20 depth 7",
            "pophash bestmove h2e2 lowerbound -20 depth 7",
        ),
        (
            Reply::PerftMove {
                mv: "a2a3".into(),
                nodes: 380,
            },
            "a2a3: 380",
            "a2a3: 380",
        ),
        (
            Reply::PerftTotal { nodes: 8902 },
            "Nodes searched: 8902",
            "Nodes searched: 8902",
        ),
    ]);
}

#[test]
fn ucci_mate_values() {
    assert_eq!(Score::Mate(1).ucci_value(), UCCI_MATE_VALUE - 1);
    assert_eq!(Score::Mate(2).ucci_value(), UCCI_MATE_VALUE - 3);
    assert_eq!(Score::Mate(-1).ucci_value(), -(UCCI_MATE_VALUE - 2));
    assert_eq!(Score::Cp(-45).ucci_value(), -45);
    // Extreme values saturate instead of overflowing.
    let _ = Score::Mate(i32::MAX).ucci_value();
    let _ = Score::Mate(i32::MIN).ucci_value();
}

fn sample_replies() -> Vec<Reply> {
    vec![
        Reply::UciOk,
        Reply::UcciOk,
        Reply::ReadyOk,
        Reply::Bye,
        Reply::NoBestMove,
        Reply::Id(Id::Name("sanqi".into())),
        Reply::Id(Id::Author("the sanqi authors".into())),
        Reply::Id(Id::Copyright("2026 MIT".into())),
        option(
            "Threads",
            OptionKind::Spin {
                default: 1,
                min: 1,
                max: 1024,
            },
        ),
        option(
            "Contempt",
            OptionKind::Spin {
                default: -3,
                min: -100,
                max: 100,
            },
        ),
        option("UCI_Chess960", OptionKind::Check { default: true }),
        option(
            "style",
            OptionKind::Combo {
                default: "normal".into(),
                vars: words("solid normal risky"),
            },
        ),
        option(
            "EvalFile",
            OptionKind::String {
                default: "nn.bin".into(),
            },
        ),
        option(
            "DebugLogFile",
            OptionKind::String {
                default: String::new(),
            },
        ),
        option("Clear_Hash", OptionKind::Button),
        option("About", OptionKind::Label),
        Reply::best_move("0000", None),
        Reply::BestMove {
            mv: "e7e8q".into(),
            ponder: Some("a1a2".into()),
            draw: false,
            resign: false,
        },
        Reply::Info(Info::default()),
        Reply::Info(Info {
            depth: Some(1),
            seldepth: Some(2),
            multipv: Some(3),
            score: Some(Score::Cp(-40)),
            bound: Some(Bound::Upper),
            currmove: Some("e2e4".into()),
            currmovenumber: Some(4),
            nodes: Some(u64::MAX),
            nps: Some(5),
            hashfull: Some(1000),
            tbhits: Some(6),
            cpuload: Some(7),
            time: Some(8),
            pv: words("e2e4 e7e5 g1f3"),
            string: Some("multi-player: paranoid".into()),
            ..Info::default()
        }),
        Reply::message("path a1 b2 c3"),
        Reply::PopHash(PopHash::default()),
        Reply::PopHash(PopHash {
            bestmove: None,
            lowerbound: Some((1, 2)),
            upperbound: Some((3, 4)),
        }),
        Reply::PerftMove {
            mv: "e2e4".into(),
            nodes: 0,
        },
        Reply::PerftTotal { nodes: u64::MAX },
    ]
}

#[test]
fn round_trips_in_both_dialects() {
    for reply in sample_replies() {
        round_trip(&reply, UCI);
        round_trip(&reply, UCCI);
    }
    // Forms that exist in one dialect only.
    let uci_only = [
        Reply::Info(Info {
            score: Some(Score::Mate(-4)),
            wdl: Some((10, 900, 90)),
            ..Info::default()
        }),
        option(
            "Debug Log File",
            OptionKind::String {
                default: String::new(),
            },
        ),
        option(
            "Skill Level",
            OptionKind::Spin {
                default: 20,
                min: 0,
                max: 20,
            },
        ),
    ];
    for reply in &uci_only {
        round_trip(reply, UCI);
    }
    let ucci_only = [Reply::BestMove {
        mv: "h2e2".into(),
        ponder: Some("h7e7".into()),
        draw: true,
        resign: true,
    }];
    for reply in &ucci_only {
        round_trip(reply, UCCI);
    }
}

#[test]
fn both_score_forms_are_read() {
    let cp = |line: &str, dialect| match parse_reply(line, dialect) {
        Ok(Reply::Info(Info { score, .. })) => score,
        other => panic!("{line}: {other:?}"),
    };
    assert_eq!(
        cp("info depth 3 score 42 pv h2e2", UCCI),
        Some(Score::Cp(42))
    );
    assert_eq!(cp("info depth 3 score cp 42", UCCI), Some(Score::Cp(42)));
    assert_eq!(cp("info score mate -2", UCI), Some(Score::Mate(-2)));
    // Unknown info words and their arguments are skipped.
    assert_eq!(
        parse_reply("info depth 5 currline 1 e2e4 e7e5 nodes 7", UCI),
        Ok(Reply::Info(Info {
            depth: Some(5),
            nodes: Some(7),
            ..Info::default()
        }))
    );
}

/// Runs an installed engine on `input` and returns its output lines; `None` if it is not installed.
fn run_engine(path: &str, input: &str) -> Option<Vec<String>> {
    let mut child = Process::new(path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    child.stdin.take()?.write_all(input.as_bytes()).ok()?;
    let out = child.wait_with_output().ok()?;
    Some(
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_owned)
            .collect(),
    )
}

/// Every line of the engine's answer (but its banner and blank lines) parses, and is written back
/// exactly as the engine wrote it (an empty string default, which old engines leave blank, comes back
/// as `<empty>` in UCI and without `default` in UCCI).
fn check_transcript(lines: &[String], dialect: Dialect) -> usize {
    let mut checked = 0;
    for line in lines.iter().skip(1).filter(|l| !l.trim().is_empty()) {
        let reply = parse_reply(line, dialect).unwrap_or_else(|e| panic!("{line:?}: {e}"));
        let expected = match (dialect, line.strip_suffix(" default ")) {
            (Dialect::Uci, Some(head)) => format!("{head} default <empty>"),
            (Dialect::Ucci, Some(head)) => head.to_owned(),
            (Dialect::Ucci, None) => line.replace(" default <empty>", ""),
            (Dialect::Uci, None) => line.clone(),
        };
        // Fairy-Stockfish writes UCI-style `score cp` in UCCI mode; we write bare UCCI scores.
        let written = written(&reply, dialect);
        let expected = if dialect == Dialect::Ucci {
            expected.replace(" score cp ", " score ")
        } else {
            expected
        };
        if dialect == Dialect::Ucci && expected.starts_with("option ") {
            // UCCI writes min/max before default; compare as parsed values instead.
            assert_eq!(
                parse_reply(&written, dialect).as_ref(),
                Ok(&reply),
                "{line}"
            );
        } else {
            assert_eq!(written, expected, "written back");
        }
        checked += 1;
    }
    checked
}

#[test]
fn stockfish_transcript() {
    let input =
        "uci\nsetoption name UCI_ShowWDL value true\nisready\nposition startpos\ngo depth 6\n\
                 position fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1\ngo depth 4\n\
                 position fen R6k/6pp/8/8/8/8/5PPP/6K1 b - - 0 1\ngo depth 3\n\
                 position startpos\ngo perft 2\nisready\n";
    let Some(lines) = run_engine("/usr/games/stockfish", input) else {
        eprintln!("stockfish not installed: skipped");
        return;
    };
    assert!(check_transcript(&lines, UCI) > 50);
    let replies: Vec<Reply> = lines
        .iter()
        .skip(1)
        .filter_map(|l| parse_reply(l, UCI).ok())
        .collect();
    assert!(replies.contains(&Reply::NoBestMove), "bestmove (none)");
    assert!(replies.contains(&Reply::Info(Info {
        depth: Some(0),
        score: Some(Score::Mate(0)),
        ..Info::default()
    })));
    assert!(replies.contains(&Reply::PerftTotal { nodes: 400 }));
    assert!(replies.iter().any(|r| matches!(
        r,
        Reply::Info(Info {
            score: Some(Score::Mate(1)),
            wdl: Some(_),
            ..
        })
    )));
}

#[test]
fn fairy_stockfish_ucci_transcript() {
    let input = "ucci\nsetoption UCI_Variant xiangqi\nisready\n\
                 position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n\
                 go depth 5\nisready\n";
    let Some(lines) = run_engine("/usr/games/fairy-stockfish", input) else {
        eprintln!("fairy-stockfish not installed: skipped");
        return;
    };
    assert!(check_transcript(&lines, UCCI) > 20);
    assert!(lines.iter().any(|l| l == "ucciok"));
}
