//! The Syzygy prober against python-chess's (`chess.syzygy`) on the complete 3- and 4-piece
//! set: random legal positions of every table (en passant included), the positions with the
//! longest DTZ that a larger sample finds, and damaged files that must give messages and
//! errors, never a crash.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::collections::BTreeMap;
use std::path::Path;

use sanqi::game::chess::syzygy::{ProbeError, Tablebases, Wdl};
use sanqi::game::chess::{Chess, ChessConfig};
use sanqi::game::Notation;
use support::{python_oracle, run_python, test_data, Rng};

/// Reads every FEN on standard input after the first line (the table folder) and prints
/// `wdl dtz` per FEN, or `error <kind>`.
const ORACLE: &str = r#"
import sys
import chess
import chess.syzygy

lines = sys.stdin.read().splitlines()
tables = chess.syzygy.open_tablebase(lines[0])
out = []
for fen in lines[1:]:
    if not fen:
        continue
    board = chess.Board(fen)
    try:
        out.append("%d %d" % (tables.probe_wdl(board), tables.probe_dtz(board)))
    except Exception as e:
        out.append("error " + type(e).__name__)
print("\n".join(out))
"#;

/// Piece letters of a table name part (`KRP`) as FEN letters of `white`.
fn letters(part: &str, white: bool) -> Vec<char> {
    part.chars()
        .map(|c| if white { c } else { c.to_ascii_lowercase() })
        .collect()
}

/// A FEN from 64 squares (a1 = 0).
fn fen_of(board: &[Option<char>; 64], white_to_move: bool, ep: Option<usize>) -> String {
    let mut s = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                Some(c) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if rank > 0 {
            s.push('/');
        }
    }
    let ep = ep.map_or_else(
        || "-".to_string(),
        |sq| format!("{}{}", (b'a' + (sq % 8) as u8) as char, sq / 8 + 1),
    );
    format!("{s} {} - {ep} 0 1", if white_to_move { 'w' } else { 'b' })
}

/// Parses `fen` and keeps it only if the side not to move is not in check.
fn legal(fen: &str) -> Option<Chess> {
    let pos = <Chess as Notation>::from_fen(fen, &ChessConfig::default()).ok()?;
    let us = pos.side();
    let them = 1 - us;
    if pos.attacked_by(pos.king_square(them), us, pos.occupied()) {
        return None;
    }
    Some(pos)
}

/// A random legal position with the material of `table` (either side may have the first
/// part), or `None` when the draw was not legal.
fn random_position(rng: &mut Rng, table: &str) -> Option<String> {
    let (a, b) = table.split_once('v')?;
    let first_white = rng.below(2) == 0;
    let mut pieces = letters(a, first_white);
    pieces.extend(letters(b, !first_white));
    let mut board = [None; 64];
    for c in pieces {
        let pawn = c.eq_ignore_ascii_case(&'p');
        let sq = loop {
            let sq = rng.below(64);
            if board[sq].is_none() && (!pawn || (8..56).contains(&sq)) {
                break sq;
            }
        };
        board[sq] = Some(c);
    }
    let fen = fen_of(&board, rng.below(2) == 0, None);
    legal(&fen).map(|_| fen)
}

/// A random legal position of KPvKP where the side to move can take en passant: the other
/// side's pawn just went two squares.
fn random_ep_position(rng: &mut Rng) -> Option<String> {
    let white_to_move = rng.below(2) == 0;
    let file = rng.below(8);
    let side = if file == 0 || (file < 7 && rng.below(2) == 0) {
        file + 1
    } else {
        file - 1
    };
    // White to move: Black's pawn stands on the fifth rank, the ep square on the sixth.
    let (pushed_rank, ep_rank, origin_rank) = if white_to_move { (4, 5, 6) } else { (3, 2, 1) };
    let mut board = [None; 64];
    let (us_pawn, them_pawn, us_king, them_king) = if white_to_move {
        ('P', 'p', 'K', 'k')
    } else {
        ('p', 'P', 'k', 'K')
    };
    board[pushed_rank * 8 + file] = Some(them_pawn);
    board[pushed_rank * 8 + side] = Some(us_pawn);
    let blocked = [ep_rank * 8 + file, origin_rank * 8 + file];
    for king in [us_king, them_king] {
        let sq = loop {
            let sq = rng.below(64);
            if board[sq].is_none() && !blocked.contains(&sq) {
                break sq;
            }
        };
        board[sq] = Some(king);
    }
    let fen = fen_of(&board, white_to_move, Some(ep_rank * 8 + file));
    let pos = legal(&fen)?;
    // Keep it only if the en-passant square survived (a pawn can take).
    let written = pos.to_fen();
    (written.split(' ').nth(3) != Some("-")).then_some(fen)
}

/// The table names of the folder (WDL files).
fn table_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            name.strip_suffix(".rtbw").map(str::to_string)
        })
        .collect();
    names.sort();
    names
}

/// sanqi's answer for `fen` in the oracle's form.
fn sanqi_answer(tb: &Tablebases, fen: &str) -> String {
    let mut pos = <Chess as Notation>::from_fen(fen, &ChessConfig::default()).unwrap();
    let before = pos.to_fen();
    let wdl = tb.probe_wdl(&mut pos);
    let dtz = tb.probe_dtz(&mut pos);
    assert_eq!(pos.to_fen(), before, "probe changed {fen}");
    match (wdl, dtz) {
        (Ok(w), Ok(d)) => format!("{} {d}", w as i32),
        (w, d) => format!("error {w:?} {d:?}"),
    }
}

#[test]
fn probes_match_python_chess_on_every_table() {
    let Some(dir) = test_data("syzygy") else {
        return;
    };
    if !python_oracle("chess") {
        return;
    }
    let (tb, problems) = Tablebases::open(dir.to_str().unwrap());
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(
        (tb.wdl_count(), tb.dtz_count(), tb.max_pieces()),
        (35, 35, 4)
    );

    let names = table_names(&dir);
    assert_eq!(names.len(), 35);
    let mut rng = Rng(0x5359_5a59_4759_0001);
    // (table, kind, fen) in the order sent to the oracle.
    let mut cases: Vec<(String, &str, String)> = Vec::new();
    for name in &names {
        let mut n = 0;
        while n < 200 {
            if let Some(fen) = random_position(&mut rng, name) {
                cases.push((name.clone(), "random", fen));
                n += 1;
            }
        }
        if name == "KPvKP" {
            let mut n = 0;
            while n < 100 {
                if let Some(fen) = random_ep_position(&mut rng) {
                    cases.push((name.clone(), "en passant", fen));
                    n += 1;
                }
            }
        }
        // The longest DTZ of a larger sample.
        let mut scan: Vec<(i32, String)> = Vec::new();
        let mut tried = 0;
        while tried < 20_000 {
            let Some(fen) = random_position(&mut rng, name) else {
                continue;
            };
            tried += 1;
            let mut pos = <Chess as Notation>::from_fen(&fen, &ChessConfig::default()).unwrap();
            let dtz = tb
                .probe_dtz(&mut pos)
                .unwrap_or_else(|e| panic!("{fen}: {e}"));
            scan.push((dtz.abs(), fen));
        }
        scan.sort_by(|x, y| y.0.cmp(&x.0).then_with(|| x.1.cmp(&y.1)));
        scan.dedup_by(|x, y| x.1 == y.1);
        for (_, fen) in scan.into_iter().take(5) {
            cases.push((name.clone(), "longest dtz", fen));
        }
    }

    let mut input = format!("{}\n", dir.display());
    for (_, _, fen) in &cases {
        input.push_str(fen);
        input.push('\n');
    }
    let (status, out) = run_python(ORACLE, input);
    assert!(status.success(), "python-chess failed");
    let want: Vec<&str> = out.lines().collect();
    assert_eq!(want.len(), cases.len());

    let mut per_table: BTreeMap<(&str, &str), (usize, usize)> = BTreeMap::new();
    let mut differences = Vec::new();
    for ((name, kind, fen), want) in cases.iter().zip(want) {
        let got = sanqi_answer(&tb, fen);
        let e = per_table.entry((name, kind)).or_default();
        e.0 += 1;
        if got != want {
            e.1 += 1;
            differences.push(format!("{name} {fen}: sanqi {got}, python-chess {want}"));
        }
    }
    for ((name, kind), (n, bad)) in &per_table {
        println!("{name:8} {kind:12} {n:4} compared, {bad} different");
    }
    println!(
        "{} positions compared, {} different",
        cases.len(),
        differences.len()
    );
    assert!(
        differences.is_empty(),
        "{} differences:\n{}",
        differences.len(),
        differences[..differences.len().min(40)].join("\n")
    );
}

#[test]
fn known_positions() {
    let Some(dir) = test_data("syzygy") else {
        return;
    };
    let (tb, _) = Tablebases::open(dir.to_str().unwrap());
    let mut pos =
        <Chess as Notation>::from_fen("8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1", &ChessConfig::default())
            .unwrap();
    assert_eq!(tb.probe_wdl(&mut pos), Ok(Wdl::Loss));
    assert_eq!(tb.probe_dtz(&mut pos), Ok(-53));
    let mut castling =
        <Chess as Notation>::from_fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", &ChessConfig::default())
            .unwrap();
    assert_eq!(tb.probe_wdl(&mut castling), Err(ProbeError::Castling));
    let mut big =
        <Chess as Notation>::from_fen("4k3/8/8/8/8/8/3PP3/R3K3 w - - 0 1", &ChessConfig::default())
            .unwrap();
    assert_eq!(tb.probe_dtz(&mut big), Err(ProbeError::TooManyPieces));
}

/// A fresh empty folder under the system's temporary folder.
fn temp_folder(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("sanqi-syzygy-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Probes random positions of `table` and checks that nothing panics.
fn probe_many(tb: &Tablebases, table: &str, rng: &mut Rng, count: usize) -> (usize, usize) {
    let (mut ok, mut err) = (0, 0);
    let mut n = 0;
    while n < count {
        let Some(fen) = random_position(rng, table) else {
            continue;
        };
        n += 1;
        let mut pos = <Chess as Notation>::from_fen(&fen, &ChessConfig::default()).unwrap();
        for r in [
            tb.probe_wdl(&mut pos).map(|w| w as i32),
            tb.probe_dtz(&mut pos),
        ] {
            match r {
                Ok(_) => ok += 1,
                Err(_) => err += 1,
            }
        }
    }
    (ok, err)
}

#[test]
fn bad_files_give_messages_and_errors_never_crashes() {
    let Some(dir) = test_data("syzygy") else {
        return;
    };
    let (none, problems) = Tablebases::open("");
    assert!(problems.is_empty());
    assert_eq!(
        (none.wdl_count(), none.dtz_count(), none.max_pieces()),
        (0, 0, 0)
    );

    let good = dir.to_str().unwrap();
    let bad = temp_folder("bad");
    let missing = bad.join("no-such-folder");
    // An empty file, a truncated copy (of a valid length), a copy cut at an odd length, a
    // wrong magic number.
    std::fs::write(bad.join("KRvKN.rtbw"), b"").unwrap();
    let data = std::fs::read(dir.join("KQvKR.rtbw")).unwrap();
    std::fs::write(bad.join("KQvKR.rtbw"), &data[..data.len() / 128 * 64 + 16]).unwrap();
    let data = std::fs::read(dir.join("KRvKB.rtbz")).unwrap();
    std::fs::write(bad.join("KRvKB.rtbz"), &data[..data.len() - 7]).unwrap();
    let mut data = std::fs::read(dir.join("KBNvK.rtbw")).unwrap();
    data[0] ^= 0xff;
    std::fs::write(bad.join("KBNvK.rtbw"), &data).unwrap();
    std::fs::write(bad.join("README.txt"), b"not a table").unwrap();

    let paths = format!("{}:{}:{}", missing.display(), good, bad.display());
    let (tb, problems) = Tablebases::open(&paths);
    println!("{problems:#?}");
    for name in [
        "no-such-folder",
        "KRvKN.rtbw",
        "KQvKR.rtbw",
        "KRvKB.rtbz",
        "KBNvK.rtbw",
    ] {
        assert_eq!(
            problems.iter().filter(|p| p.contains(name)).count(),
            1,
            "{name}: {problems:?}"
        );
    }
    assert_eq!(problems.len(), 5, "{problems:?}");
    // The good copies are kept.
    assert_eq!((tb.wdl_count(), tb.dtz_count()), (35, 35));

    // Only the damaged tables: the others are missing, so probes give errors.
    let (alone, problems) = Tablebases::open(bad.to_str().unwrap());
    assert_eq!(problems.len(), 4, "{problems:?}");
    assert_eq!(alone.wdl_count() + alone.dtz_count(), 0);

    // Random bytes overwritten, after the header and anywhere: the damaged table replaces the
    // good one (a later folder wins), the rest of the set is there.
    let mut rng = Rng(0x0bad_f11e_5eed_0001);
    let mut opened = 0;
    let mut probes = (0, 0);
    let rounds = 72;
    for round in 0..rounds {
        let table = ["KQvKR", "KRPvK", "KPvKP", "KBNvK", "KNvKP", "KQvKQ"][round % 6];
        let ext = if round % 12 < 6 { "rtbw" } else { "rtbz" };
        let file = format!("{table}.{ext}");
        let mut data = std::fs::read(dir.join(&file)).unwrap();
        let from = if round % 3 == 0 {
            0
        } else {
            64.min(data.len())
        };
        let count = [1, 8, 200, data.len() / 8][(round / 3) % 4];
        for _ in 0..count {
            let at = from + rng.below(data.len() - from);
            data[at] = rng.next_u64() as u8;
        }
        let folder = temp_folder(&format!("noise{round}"));
        std::fs::write(folder.join(&file), &data).unwrap();
        let (tb, problems) = Tablebases::open(&format!("{good}:{}", folder.display()));
        for p in &problems {
            assert!(p.contains(&file), "{p}");
        }
        if problems.is_empty() {
            opened += 1;
        }
        let r = probe_many(&tb, table, &mut rng, 300);
        probes.0 += r.0;
        probes.1 += r.1;
        std::fs::remove_dir_all(&folder).unwrap();
    }
    println!(
        "damaged copies: {opened} of {rounds} opened; {} probes answered, {} errors",
        probes.0, probes.1
    );
    // The damage is found, not only survived.
    assert!(opened > 0 && probes.1 > 0);
    std::fs::remove_dir_all(&bad).unwrap();
}
