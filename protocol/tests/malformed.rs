//! Malformed input: every case returns an error that names what was wrong and where, and nothing
//! panics, also on 1 MB lines and arbitrary bytes.

use std::time::{Duration, Instant};

use sanqi_protocol::{
    parse_command, parse_command_bytes, parse_reply, parse_reply_bytes, Command, Dialect, GoParams,
    ProtocolError,
};

const UCI: Dialect = Dialect::Uci;
const UCCI: Dialect = Dialect::Ucci;

fn error(line: &str, dialect: Dialect) -> ProtocolError {
    match parse_command(line, dialect) {
        Ok(cmd) => panic!("{line:?} parsed as {cmd:?}"),
        Err(e) => e,
    }
}

fn bad_value(line: &str, parameter: &str) -> ProtocolError {
    let e = error(line, UCI);
    match &e {
        ProtocolError::BadValue { parameter: p, .. } if *p == parameter => e,
        other => panic!("{line:?}: expected bad {parameter}, got {other:?}"),
    }
}

#[test]
fn unknown_commands() {
    assert_eq!(
        error("frobnicate now", UCI),
        ProtocolError::UnknownCommand {
            text: "frobnicate".into()
        }
    );
    assert_eq!(
        error("frobnicate", UCI).to_string(),
        "unknown command `frobnicate`"
    );
    assert!(matches!(
        error("Go depth 3", UCCI),
        ProtocolError::UnknownCommand { .. }
    ));
}

#[test]
fn truncated_commands() {
    let missing = |line: &str, dialect| match error(line, dialect) {
        ProtocolError::MissingArgument { command, argument } => (command, argument),
        other => panic!("{line:?}: {other:?}"),
    };
    assert_eq!(missing("setoption", UCI), ("setoption", "name"));
    assert_eq!(missing("setoption name", UCI), ("setoption", "name"));
    assert_eq!(
        missing("setoption name value 3", UCI),
        ("setoption", "name")
    );
    assert_eq!(missing("setoption", UCCI), ("setoption", "name"));
    assert_eq!(
        missing("position", UCI),
        ("position", "`startpos` or `fen`")
    );
    assert_eq!(
        missing("position fen", UCI),
        ("position", "FEN after `fen`")
    );
    assert_eq!(
        missing("position fen  \r\n", UCI),
        ("position", "FEN after `fen`")
    );
    assert_eq!(
        missing("position fen moves e2e4", UCI),
        ("position", "FEN after `fen`")
    );
    assert_eq!(missing("probe", UCCI), ("probe", "`startpos` or `fen`"));
    assert_eq!(missing("go depth", UCI), ("go", "depth"));
    assert_eq!(missing("go wtime 100 btime", UCI), ("go", "btime"));
    assert_eq!(missing("go perft", UCI), ("go", "perft"));
    assert_eq!(missing("perft", UCI), ("perft", "depth"));
    assert_eq!(missing("register", UCI).0, "register");
    assert_eq!(
        error("position fen", UCI).to_string(),
        "`position`: missing FEN after `fen`"
    );
}

#[test]
fn wrong_types() {
    let e = bad_value("go depth ten", "depth");
    assert_eq!(
        e.to_string(),
        "`go`: bad value `ten` for depth at byte 9: not an integer"
    );
    bad_value("go depth infinite", "depth");
    bad_value("go nodes 1.5", "nodes");
    bad_value("go movetime 10ms", "movetime");
    bad_value("go wtime 1e3", "wtime");
    bad_value("go mate -3", "mate");
    bad_value("debug maybe", "mode");
    bad_value("setoption Hash value 3", "name");
    bad_value("position startfen", "start");
    bad_value("position startpos e2e4", "moves");
    bad_value("bench deep", "depth");
    bad_value("perft -1", "depth");
    // In UCCI too.
    assert!(matches!(
        error("go time abc", UCCI),
        ProtocolError::BadValue {
            parameter: "time",
            ..
        }
    ));
}

#[test]
fn huge_and_negative_numbers() {
    let e = bad_value("go depth 99999999999999999999999", "depth");
    assert_eq!(
        e.to_string(),
        "`go`: bad value `99999999999999999999999` for depth at byte 9: out of range"
    );
    bad_value("go nodes 18446744073709551616", "nodes");
    bad_value("go wtime 9223372036854775808", "wtime");
    bad_value("go wtime -9223372036854775809", "wtime");
    bad_value("go movestogo 4294967296", "movestogo");
    let e = bad_value("go depth -5", "depth");
    assert!(e.to_string().contains("must not be negative"), "{e}");
    // Negative times are values, kept for the engine to clamp.
    assert_eq!(
        parse_command("go wtime -5 btime -9223372036854775808", UCI),
        Ok(Command::Go(GoParams {
            wtime: Some(-5),
            btime: Some(i64::MIN),
            ..GoParams::default()
        }))
    );
    // Leading zeros and an explicit plus sign are integers.
    assert_eq!(
        parse_command("go depth +007", UCI),
        Ok(Command::Go(GoParams {
            depth: Some(7),
            ..GoParams::default()
        }))
    );
}

#[test]
fn offsets_point_at_the_offending_token() {
    let line = "go  wtime 100\tbtime x12";
    match error(line, UCI) {
        ProtocolError::BadValue { offset, value, .. } => {
            assert_eq!(value, "x12");
            assert_eq!(&line[offset..offset + 3], "x12");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn not_utf8() {
    for bytes in [
        &b"\xff"[..],
        b"go depth \xc3",
        b"setoption name Hash value \xe2\x82",
        b"\x80isready",
    ] {
        let e = parse_command_bytes(bytes, UCI).unwrap_err();
        let expected = std::str::from_utf8(bytes).unwrap_err().valid_up_to();
        assert_eq!(
            e,
            ProtocolError::NotUtf8 {
                valid_up_to: expected
            }
        );
        assert!(e.to_string().contains("UTF-8"));
        assert!(parse_reply_bytes(bytes, UCCI).is_err());
    }
    // Valid multi-byte UTF-8 is fine where free text is allowed.
    assert_eq!(
        parse_command_bytes("setoption name Nom value \u{8c61}\u{68cb}".as_bytes(), UCI),
        Ok(Command::SetOption {
            name: "Nom".into(),
            value: Some("\u{8c61}\u{68cb}".into())
        })
    );
    // Unicode in an error message is clipped at a character boundary.
    let long: String = "\u{8c61}".repeat(100);
    match parse_command(&long, UCI) {
        Err(ProtocolError::UnknownCommand { text }) => assert!(text.len() < 80, "{text}"),
        other => panic!("{other:?}"),
    }
}

/// A small deterministic generator (xorshift) for random lines.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

const VOCABULARY: &[&str] = &[
    "go",
    "depth",
    "wtime",
    "-5",
    "99999999999999999999999",
    "searchmoves",
    "e2e4",
    "position",
    "fen",
    "startpos",
    "moves",
    "setoption",
    "name",
    "value",
    "info",
    "score",
    "cp",
    "mate",
    "pv",
    "string",
    "option",
    "type",
    "spin",
    "default",
    "min",
    "max",
    "var",
    "combo",
    "bestmove",
    "ponder",
    "\t",
    " ",
    "\r",
    "#",
    "x",
    "0",
    "perft",
    "pophash",
    "lowerbound",
    "id",
    "Nodes",
    "searched:",
    "a1:",
];

fn random_line(rng: &mut Rng, bytes: usize) -> String {
    let mut line = String::with_capacity(bytes + 32);
    while line.len() < bytes {
        let word = VOCABULARY[(rng.next() % VOCABULARY.len() as u64) as usize];
        line.push_str(word);
        line.push(' ');
    }
    line
}

fn quickly<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    eprintln!("{what}: {:?}", start.elapsed());
    let limit = if cfg!(debug_assertions) { 5 } else { 1 };
    assert!(
        start.elapsed() < Duration::from_secs(limit),
        "{what} took {:?}",
        start.elapsed()
    );
    out
}

const MB: usize = 1 << 20;

#[test]
fn one_megabyte_lines() {
    // 1 MB of `go depth 5` repeated: linear, and the last repeat wins.
    let line = "go".to_owned() + &" depth 5".repeat(MB / 8);
    let cmd = quickly("go depth repeated", || parse_command(&line, UCI));
    assert_eq!(
        cmd,
        Ok(Command::Go(GoParams {
            depth: Some(5),
            ..GoParams::default()
        }))
    );
    // A 1 MB move list and a 1 MB FEN.
    let line = "position startpos moves".to_owned() + &" e2e4".repeat(MB / 5);
    match quickly("long moves", || parse_command(&line, UCI)) {
        Ok(Command::Position { moves, .. }) => assert_eq!(moves.len(), MB / 5),
        other => panic!("{:?}", other.map(|_| ())),
    }
    let line = "position fen ".to_owned() + &"8/".repeat(MB / 2);
    assert!(quickly("long fen", || parse_command(&line, UCI)).is_ok());
    // One 1 MB token as a number, a command and an option name.
    let digits = "9".repeat(MB);
    let e = quickly("huge number", || {
        parse_command(&format!("go nodes {digits}"), UCI)
    });
    match e {
        Err(ProtocolError::BadValue { value, .. }) => assert!(value.len() < 80),
        other => panic!("{other:?}"),
    }
    let e = quickly("huge command", || parse_command(&digits, UCI));
    assert!(e.unwrap_err().to_string().len() < 120);
    let line = format!("setoption name {digits} value 1");
    assert!(quickly("huge name", || parse_command(&line, UCI)).is_ok());
    // 1 MB of separators only.
    assert_eq!(
        parse_command(&" \t".repeat(MB / 2), UCI),
        Ok(Command::Empty)
    );
    // 1 MB info line with a long pv.
    let line = "info depth 1 pv".to_owned() + &" e2e4".repeat(MB / 5);
    assert!(quickly("long pv", || parse_reply(&line, UCI)).is_ok());
}

#[test]
fn random_lines_never_panic() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    // Many short random lines, as commands and replies in both dialects.
    for _ in 0..20_000 {
        let len = (rng.next() % 60) as usize;
        let line = random_line(&mut rng, len);
        for dialect in [UCI, UCCI] {
            if let Ok(cmd) = parse_command(&line, dialect) {
                // Whatever parses, round-trips.
                let written = cmd.display(dialect).to_string();
                assert_eq!(parse_command(&written, dialect), Ok(cmd), "{line:?}");
            }
            let _ = parse_reply(&line, dialect);
        }
    }
    // Random bytes, short lines.
    for _ in 0..20_000 {
        let len = (rng.next() % 40) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| (rng.next() & 0xff) as u8).collect();
        let _ = parse_command_bytes(&bytes, UCI);
        let _ = parse_reply_bytes(&bytes, UCCI);
    }
    // 1 MB lines of random tokens, prefixed by each command keyword.
    for prefix in [
        "",
        "go ",
        "position fen ",
        "setoption name ",
        "info ",
        "option name ",
        "bestmove ",
    ] {
        let line = prefix.to_owned() + &random_line(&mut rng, MB);
        let _ = quickly(prefix, || parse_command(&line, UCI));
        let _ = quickly(prefix, || parse_command(&line, UCCI));
        let _ = quickly(prefix, || parse_reply(&line, UCI));
        let _ = quickly(prefix, || parse_reply(&line, UCCI));
    }
    // 1 MB of random bytes.
    let bytes: Vec<u8> = (0..MB).map(|_| (rng.next() & 0xff) as u8).collect();
    assert!(parse_command_bytes(&bytes, UCI).is_err());
}

#[test]
fn malformed_replies() {
    let err = |line: &str, dialect| {
        parse_reply(line, dialect).expect_err(line);
    };
    err("", UCI);
    err("bestmove", UCI);
    err("id", UCI);
    err("id name", UCI);
    err("id nickname x", UCI);
    err("info depth x", UCI);
    err("info score", UCI);
    err("info score cp 99999999999", UCI);
    err("info wdl 1 2", UCI);
    err("option Hash type spin default 1 min 1 max 2", UCI); // no `name` in UCI
    err("option name Hash type spin default 1 min 1 max 2", UCCI); // UCCI names are one word
    err("option name Hash type spin default 30 min 1 max 2", UCI);
    err("option name Hash type spin default x min 1 max 2", UCI);
    err("option name Hash type spin default 1 min 1", UCI);
    err("option name Style type combo default wild var a var b", UCI);
    err("option name Ponder type check default maybe", UCI);
    err("option name Ponder type check", UCI);
    err("option name Ponder", UCI);
    err("option name Ponder type", UCI);
    err("option name X type colour", UCI);
    err("option name type button", UCI);
    err("pophash lowerbound 3", UCCI);
    err("pophash lowerbound 3 deep 4", UCCI);
    err("Nodes counted: 5", UCI);
    err("e2e4: many", UCI);
    err("e2e4: 5 6", UCI);
    err(": 5", UCI);
    err("hello", UCI);
}
