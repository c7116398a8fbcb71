//! `sanqi match` openings from Polyglot books and PGN files, checked with python-chess: the
//! games are legal, the book lines are book moves and varied, the PGN openings are the games'
//! main lines.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use sanqi::game::chess::{Chess, ChessConfig};
use sanqi::game::prelude::*;
use sanqi::tournament::openings::load_pgn_openings;
use support::{python_oracle, run_python, test_data};

fn words(line: &str) -> Vec<String> {
    line.split_whitespace().map(str::to_owned).collect()
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("sanqi-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `sanqi match --openings book.bin --book-depth 8`: every game's record is legal (python-chess
/// reads it without errors), each opening is 8 plies (or ends where the book does) of moves
/// the book has for their positions, and the rounds start from different lines.
#[test]
fn book_openings_are_book_moves_legal_and_varied() {
    if !python_oracle("chess") {
        return;
    }
    let Some(dir) = test_data("polyglot") else {
        return;
    };
    for name in ["gnuchess-book.bin", "performance.bin"] {
        let book = dir.join(name);
        if !book.is_file() {
            support::oracle_missing(&book.display().to_string());
            continue;
        }
        let out = temp_dir("book-openings");
        let pgn = out.join(format!("{name}.pgn"));
        let _ = std::fs::remove_file(&pgn);
        let line = format!(
            "--game chess --engine cmd={exe} name=a --engine cmd={exe} name=b \
             --each option.Hash=4 --nodes 200 --max-plies 14 --rounds 8 --concurrency 2 \
             --openings {} --book-depth 8 --seed 5 --pgn {} --quiet",
            book.display(),
            pgn.display(),
            exe = env!("CARGO_BIN_EXE_sanqi"),
        );
        assert_eq!(
            sanqi::tournament::main(&words(&line)),
            std::process::ExitCode::SUCCESS
        );
        let script = "import sys, chess, chess.pgn, chess.polyglot\n\
            book = chess.polyglot.open_reader(sys.stdin.readline().strip())\n\
            f = open(sys.stdin.readline().strip())\n\
            while True:\n\
            \x20   game = chess.pgn.read_game(f)\n\
            \x20   if game is None: break\n\
            \x20   assert not game.errors, game.errors\n\
            \x20   board = game.board()\n\
            \x20   opening = []\n\
            \x20   for node in game.mainline():\n\
            \x20       assert node.move in [e.move for e in book.find_all(board)], (board.fen(), node.move)\n\
            \x20       opening.append(node.move.uci())\n\
            \x20       board.push(node.move)\n\
            \x20       if 'end of opening' in node.comment: break\n\
            \x20   else:\n\
            \x20       opening = []\n\
            \x20   print(' '.join(opening))\n";
        let (status, openings) =
            run_python(script, format!("{}\n{}\n", book.display(), pgn.display()));
        assert!(status.success(), "{name}: python-chess refused a game");
        let lines: Vec<&str> = openings.lines().collect();
        assert_eq!(lines.len(), 16, "{name}: {openings}");
        // Colour-swapped pairs share their opening (games end in any order with two at once);
        // 8 rounds give at least 5 different lines.
        let mut distinct: Vec<&str> = lines.clone();
        distinct.sort_unstable();
        distinct.dedup();
        for d in &distinct {
            let n = lines.iter().filter(|l| *l == d).count();
            assert_eq!(n % 2, 0, "{name}: {d} played {n} times");
        }
        assert!(distinct.len() >= 5, "{name}: {distinct:?}");
        assert!(
            lines
                .iter()
                .all(|l| !l.is_empty() && l.split(' ').count() <= 8),
            "{name}: {lines:?}"
        );
        let full = lines.iter().filter(|l| l.split(' ').count() == 8).count();
        assert!(full >= 8, "{name}: {lines:?}");
        eprintln!(
            "{name}: {} distinct 8-ply book lines of 8 rounds",
            distinct.len()
        );
    }
}

/// PGN openings: the main line's first plies in SAN (with comments, variations, annotations,
/// move numbers, results, a FEN tag) equal python-chess's reading of the same file.
#[test]
fn pgn_openings_equal_python_chess_main_lines() {
    let pgn = r#"[Event "a"]
[Site "?"]
[Result "1-0"]

1. e4 {king's pawn} e5 2. Nf3 (2. f4 exf4 3. Nf3) Nc6 3. Bb5 $1 a6 4. Ba4 Nf6 5. O-O Be7 1-0

[Event "b"]
[SetUp "1"]
[FEN "r3k2r/pppq1ppp/2np1n2/2b1p1B1/2B1P1b1/2NP1N2/PPPQ1PPP/R3K2R w KQkq - 4 8"]
[Result "*"]

8. O-O-O O-O-O 9. h3 Bxf3 ; a comment to the end of the line
10. gxf3 h6 11. Be3 *

[Event "c"]
[Result "1/2-1/2"]

1. d4 d5 2. c4 dxc4 3. e3 b5 4. a4 c6 5. axb5 cxb5 6. Qf3 Qd7?! 7. Qxa8 1/2-1/2
"#;
    let gc = ChessConfig::default();
    let all = load_pgn_openings::<Chess>(pgn, None, &gc).unwrap();
    let four = load_pgn_openings::<Chess>(pgn, Some(4), &gc).unwrap();
    assert_eq!(all.len(), 3);
    for (a, f) in all.iter().zip(&four) {
        assert_eq!(a.fen, f.fen);
        assert_eq!(a.moves[..4], f.moves[..]);
    }
    if python_oracle("chess") {
        let script = "import sys, io, chess.pgn\n\
            f = io.StringIO(sys.stdin.read())\n\
            while True:\n\
            \x20   g = chess.pgn.read_game(f)\n\
            \x20   if g is None: break\n\
            \x20   print(g.board().fen() + '|' + ' '.join(m.uci() for m in g.mainline_moves()))\n";
        let (status, out) = run_python(script, pgn.to_string());
        assert!(status.success());
        let theirs: Vec<&str> = out.lines().collect();
        assert_eq!(theirs.len(), all.len());
        for (o, want) in all.iter().zip(theirs) {
            assert_eq!(format!("{}|{}", o.fen, o.moves.join(" ")), want);
        }
    }
    // A move that is not legal is refused with the game's number.
    let bad = "[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n";
    let err = load_pgn_openings::<Chess>(bad, None, &gc).unwrap_err();
    assert!(err.contains("PGN game 1") && err.contains("Ke3"), "{err}");
    assert!(load_pgn_openings::<Chess>("", None, &gc).is_err());
}

/// A `.bin` book for a game without Polyglot keys, and a file that is no book, are refused
/// before any game starts.
#[test]
fn books_the_match_cannot_use_are_refused() {
    let dir = temp_dir("bad-books");
    let odd = dir.join("odd.bin");
    std::fs::write(&odd, [1u8; 17]).unwrap();
    let empty = dir.join("empty.bin");
    std::fs::write(&empty, []).unwrap();
    for (game, book) in [("chess", &odd), ("chess", &empty), ("xiangqi", &empty)] {
        let line = format!(
            "--game {game} --engine cmd={exe} --engine cmd={exe} --nodes 100 --openings {} --quiet",
            book.display(),
            exe = env!("CARGO_BIN_EXE_sanqi"),
        );
        assert_ne!(
            sanqi::tournament::main(&words(&line)),
            std::process::ExitCode::SUCCESS,
            "{game} {}",
            book.display()
        );
    }
    let _ = Chess::startpos(&ChessConfig::default());
}
