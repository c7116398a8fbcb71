//! Polyglot books against python-chess's `chess.polyglot`: the keys of random positions
//! (standard and Chess960, with castling rights and en-passant squares), every entry of the two
//! real books, and the legal book moves of positions along book lines.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use sanqi::game::book::Book;
use sanqi::game::chess::polyglot;
use sanqi::game::chess::types::{kind_of, PAWN};
use sanqi::game::chess::{Chess, ChessConfig};
use sanqi::game::prelude::*;
use support::{legal, python_oracle, run_python, test_data, Rng};

/// Random positions: random games from the start and from Chess960 starts, every position kept.
fn random_positions(count: usize, seed: u64) -> Vec<Chess> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let config = ChessConfig {
            chess960: out.len() % 3 == 2,
        };
        let n = rng.below(960);
        let mut pos = Chess::numbered_startpos(n, &config).unwrap();
        for _ in 0..rng.below(60) {
            let moves = legal(&pos);
            if moves.is_empty() || out.len() >= count {
                break;
            }
            // Mostly pawn moves, so that en-passant squares come up.
            let pawnish: Vec<_> = moves
                .iter()
                .copied()
                .filter(|&m| kind_of(pos.piece_on(m.from())) == PAWN && rng.below(3) != 0)
                .collect();
            let pool = if pawnish.is_empty() { &moves } else { &pawnish };
            pos.make_move(pool[rng.below(pool.len())]);
            out.push(Chess::from_fen(&pos.to_fen(), &config).unwrap());
        }
    }
    out
}

#[test]
fn keys_equal_python_chess() {
    if !python_oracle("chess") {
        return;
    }
    let positions = random_positions(3000, 0x9e37);
    let with_ep = positions
        .iter()
        .filter(|p| p.to_fen().split(' ').nth(3) != Some("-"))
        .count();
    let with_960_rights = positions
        .iter()
        .filter(|p| {
            let castling = p.to_fen().split(' ').nth(2).unwrap_or("-").to_string();
            castling.chars().any(|c| !"KQkq-".contains(c))
        })
        .count();
    assert!(
        with_ep >= 10 && with_960_rights >= 10,
        "{with_ep} {with_960_rights}"
    );
    let input: String = positions.iter().map(|p| p.to_fen() + "\n").collect();
    let script = "import sys, chess, chess.polyglot\n\
        for line in sys.stdin:\n\
        \x20   fen = line.strip()\n\
        \x20   board = chess.Board(fen, chess960=True)\n\
        \x20   print('%016x' % chess.polyglot.zobrist_hash(board))\n";
    let (status, out) = run_python(script, input);
    assert!(status.success());
    let want: Vec<&str> = out.lines().collect();
    assert_eq!(want.len(), positions.len());
    for (pos, want) in positions.iter().zip(want) {
        assert_eq!(
            format!("{:016x}", polyglot::key(pos)),
            want,
            "{}",
            pos.to_fen()
        );
    }
    eprintln!(
        "{} keys equal ({with_ep} with en passant, {with_960_rights} with Chess960 rights)",
        positions.len()
    );
}

fn book(name: &str) -> Option<(std::path::PathBuf, Book)> {
    let path = test_data("polyglot")?.join(name);
    if !path.is_file() {
        support::oracle_missing(&path.display().to_string());
        return None;
    }
    let book = Book::open(&path).unwrap();
    Some((path, book))
}

/// Every entry of the book, as python-chess reads it.
fn check_entries(name: &str, count: usize) {
    let Some((path, book)) = book(name) else {
        return;
    };
    assert_eq!(book.len(), count, "{name}");
    assert!(book.is_sorted());
    let script = "import sys, chess.polyglot\n\
        with chess.polyglot.open_reader(sys.argv[1] if len(sys.argv) > 1 else sys.stdin.readline().strip()) as r:\n\
        \x20   for e in r:\n\
        \x20       print('%016x %d %d %d' % (e.key, e.raw_move, e.weight, e.learn))\n";
    let (status, out) = run_python(script, format!("{}\n", path.display()));
    assert!(status.success());
    let ours: Vec<String> = (0..book.len())
        .map(|i| {
            let e = book.entry(i);
            format!("{:016x} {} {} {}", e.key, e.raw_move, e.weight, e.learn)
        })
        .collect();
    let theirs: Vec<&str> = out.lines().collect();
    assert_eq!(ours.len(), theirs.len());
    for (a, b) in ours.iter().zip(&theirs) {
        assert_eq!(a, b, "{name}");
    }
    eprintln!("{name}: {} entries equal", ours.len());
}

#[test]
fn gnuchess_book_entries_equal_python_chess() {
    if python_oracle("chess") {
        check_entries("gnuchess-book.bin", 180_358);
    }
}

#[test]
fn performance_book_entries_equal_python_chess() {
    if python_oracle("chess") {
        let count = test_data("polyglot").map_or(0, |d| {
            std::fs::metadata(d.join("performance.bin")).map_or(0, |m| m.len() as usize / 16)
        });
        check_entries("performance.bin", count);
    }
}

/// The legal book moves and weights of positions along random book lines (and of random
/// positions, mostly out of book) equal python-chess's `find_all`.
#[test]
fn book_moves_equal_python_chess() {
    if !python_oracle("chess") {
        return;
    }
    for name in ["gnuchess-book.bin", "performance.bin"] {
        let Some((path, book)) = book(name) else {
            return;
        };
        let config = ChessConfig::default();
        let mut rng = Rng(0x51ab);
        let mut positions = random_positions(50, 7);
        for line in 0..60 {
            let mut pos = Chess::startpos(&config);
            for _ in 0..12 {
                positions.push(Chess::from_fen(&pos.to_fen(), &config).unwrap());
                let Some(m) = book.pick(&pos, rng.next_u64()) else {
                    break;
                };
                pos.make_move(m);
            }
            let _ = line;
        }
        let in_book = positions
            .iter()
            .filter(|p| !book.moves(*p).is_empty())
            .count();
        assert!(in_book >= 300, "{name}: {in_book} positions in book");
        let input: String = std::iter::once(format!("{}\n", path.display()))
            .chain(positions.iter().map(|p| p.to_fen() + "\n"))
            .collect();
        let script = "import sys, chess, chess.polyglot\n\
            r = chess.polyglot.open_reader(sys.stdin.readline().strip())\n\
            for line in sys.stdin:\n\
            \x20   board = chess.Board(line.strip(), chess960=True)\n\
            \x20   board.chess960 = False\n\
            \x20   print(' '.join('%s:%d' % (e.move.uci(), e.weight) for e in r.find_all(board)))\n";
        let (status, out) = run_python(script, input);
        assert!(status.success());
        for (pos, want) in positions.iter().zip(out.lines()) {
            let ours: Vec<String> = book
                .moves(pos)
                .iter()
                .map(|&(m, w)| format!("{}:{w}", pos.format_move(m, &config)))
                .collect();
            assert_eq!(ours.join(" "), want, "{name} {}", pos.to_fen());
        }
        eprintln!(
            "{name}: {} positions, {in_book} in book, moves equal",
            positions.len()
        );
    }
}

/// A book whose size is no whole number of entries, a missing file and a folder are one error
/// each; a book of random bytes gives only legal moves (or none).
#[test]
fn bad_books_are_errors_or_give_only_legal_moves() {
    let dir = std::env::temp_dir().join(format!("sanqi-polyglot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let odd = dir.join("odd.bin");
    std::fs::write(&odd, [0u8; 17]).unwrap();
    let err = Book::open(&odd).unwrap_err();
    assert!(err.contains("odd.bin") && err.contains("16-byte"), "{err}");
    assert!(Book::open(&dir.join("missing.bin"))
        .unwrap_err()
        .contains("missing.bin"));
    assert!(Book::open(&dir).is_err());
    // Random entries, some under the start position's key.
    let config = ChessConfig::default();
    let start = Chess::startpos(&config);
    let mut rng = Rng(3);
    let mut bytes = Vec::new();
    for i in 0..4000u64 {
        let key = if i < 2000 {
            polyglot::key(&start)
        } else {
            rng.next_u64()
        };
        bytes.extend_from_slice(&key.to_be_bytes());
        bytes.extend_from_slice(&rng.next_u64().to_be_bytes());
    }
    let book = Book::from_bytes(&bytes).unwrap();
    let legal_moves = legal(&start);
    for r in 0..200 {
        if let Some(m) = book.pick(&start, r) {
            assert!(legal_moves.contains(&m));
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
