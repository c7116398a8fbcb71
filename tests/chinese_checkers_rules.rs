//! Labelled edge cases for the Chinese-checkers rules, notation, paths and distances, plus a
//! comparison of the move generator with a naive one written directly from the brief.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};

use sanqi::game::chinese_checkers::distance::plain_distance;
use sanqi::game::chinese_checkers::eval::distance_to_triangle;
use sanqi::game::chinese_checkers::paths::path_to_string;
use sanqi::game::chinese_checkers::{
    Cell, ChineseCheckers, Move, Triangle, MAX_MOVES, MAX_PIECES_PER_PLAYER,
};
use sanqi::game::{Game, GameConfig, GameMove, Outcome};

const START_2: &str = "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/A AD A 0";
const MID_2: &str = "1/1D/DDD/4/5D7/6D5/5A5/3DD5/1D7/5AA3/4D6/4A7/3AA1A6/3A/2A/A1/1 AD A 40";
const MID_4: &str = "D/1D/3/1D1D/3DE1ED1ED1E/3D2ED1E1E/11/2B4E1E/AAB6/2BB2DE2/1BBAB6/B3B1A5/3B4A4/A1A1/2A/AA/1 ABDE A 60";
const LATE_2: &str = "A/AA/2A/1A2/13/12/2A8/2A7/3D3A1/10/11/12/6AD5/DD1A/DDD/DD/D AD A 114";
/// A on i5, D on i6 i8 i10 i12.
const LADDER: &str = "1/2/3/4/13/7D4/11/5D4/9/4D5/11/4D7/4A8/4/3/2/1 AD A 0";
const RANK_LENGTHS: [usize; 17] = [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1];

fn cfg() -> GameConfig {
    GameConfig::default()
}

fn cfg_rules(goal_lock: bool, no_foreign_stop: bool) -> GameConfig {
    GameConfig {
        cc_goal_lock: goal_lock,
        cc_no_foreign_stop: no_foreign_stop,
        ..GameConfig::default()
    }
}

fn pos(s: &str) -> ChineseCheckers {
    ChineseCheckers::from_fen(s, &cfg()).unwrap()
}

fn moves(p: &ChineseCheckers) -> BTreeSet<String> {
    let mut list = <ChineseCheckers as Game>::MoveList::default();
    p.generate_moves(&mut list);
    let set: BTreeSet<String> = list.iter().map(|m| m.to_string()).collect();
    assert_eq!(set.len(), list.len(), "duplicate moves");
    set
}

fn cell(s: &str) -> Cell {
    s.parse().unwrap()
}

/// The destination of a move token (cells have one or two rank digits).
fn destination(m: &str) -> Cell {
    let split = m
        .char_indices()
        .skip(1)
        .find(|(_, c)| c.is_ascii_alphabetic())
        .unwrap()
        .0;
    cell(&m[split..])
}

// ---------------------------------------------------------------- an independent board model

/// Axial coordinates of a cell name, computed from the brief's text, not from the engine.
fn coords(name: &str) -> (i32, i32) {
    let f = name.as_bytes()[0] as i32 - b'i' as i32;
    let r: i32 = name[1..].parse::<i32>().unwrap() - 9;
    (f, r)
}

fn name(f: i32, r: i32) -> String {
    format!("{}{}", (b'i' as i32 + f) as u8 as char, r + 9)
}

fn on_star(f: i32, r: i32) -> bool {
    let (x, y, z) = (f, r, -f - r);
    (-8..=8).contains(&f)
        && (-8..=8).contains(&r)
        && (x.max(y).max(z) <= 4 || x.min(y).min(z) >= -4)
}

/// The triangle letter of a cell by the brief's table.
fn triangle_of(f: i32, r: i32) -> Option<char> {
    const TABLE: [(char, &str); 6] = [
        ('A', "m1 l2 m2 k3 l3 m3 j4 k4 l4 m4"),
        ('B', "e5 f5 g5 h5 e6 f6 g6 e7 f7 e8"),
        ('C', "d10 c11 d11 b12 c12 d12 a13 b13 c13 d13"),
        ('D', "e14 f14 g14 h14 e15 f15 g15 e16 f16 e17"),
        ('E', "m10 l11 m11 k12 l12 m12 j13 k13 l13 m13"),
        ('F', "n5 o5 p5 q5 n6 o6 p6 n7 o7 n8"),
    ];
    let n = name(f, r);
    TABLE
        .iter()
        .find(|(_, cells)| cells.split(' ').any(|c| c == n))
        .map(|(l, _)| *l)
}

fn opposite(l: char) -> char {
    (b'A' + (l as u8 - b'A' + 3) % 6) as char
}

const DIRS: [(i32, i32); 6] = [(1, 0), (-1, 0), (0, 1), (-1, 1), (0, -1), (1, -1)];

/// A naive reading of the position string and rules.
struct Naive {
    board: HashMap<(i32, i32), char>,
    players: Vec<char>,
    to_move: char,
    goal_lock: bool,
    no_foreign_stop: bool,
}

impl Naive {
    fn parse(s: &str, goal_lock: bool, no_foreign_stop: bool) -> Naive {
        let fields: Vec<&str> = s.split_whitespace().collect();
        let mut board = HashMap::new();
        for (k, rank) in fields[0].split('/').enumerate() {
            let r = 8 - k as i32;
            let mut files = (-8..=8).filter(|&f| on_star(f, r));
            let mut digits = String::new();
            let flush = |digits: &mut String, files: &mut dyn Iterator<Item = i32>| {
                if !digits.is_empty() {
                    for _ in 0..digits.parse::<usize>().unwrap() {
                        files.next().unwrap();
                    }
                    digits.clear();
                }
            };
            for ch in rank.chars() {
                if ch.is_ascii_digit() {
                    digits.push(ch);
                } else {
                    flush(&mut digits, &mut files);
                    board.insert((files.next().unwrap(), r), ch);
                }
            }
            flush(&mut digits, &mut files);
            assert!(files.next().is_none());
        }
        Naive {
            board,
            players: fields[1].chars().collect(),
            to_move: fields[2].chars().next().unwrap(),
            goal_lock,
            no_foreign_stop,
        }
    }

    fn won(&self) -> bool {
        self.players.iter().any(|&p| {
            let t = opposite(p);
            let cells: Vec<(i32, i32)> = (-8..=8)
                .flat_map(|f| (-8..=8).map(move |r| (f, r)))
                .filter(|&(f, r)| on_star(f, r) && triangle_of(f, r) == Some(t))
                .collect();
            cells.iter().all(|c| self.board.contains_key(c))
                && cells.iter().any(|c| self.board.get(c) == Some(&p))
        })
    }

    fn moves(&self) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        if self.won() {
            return out;
        }
        let me = self.to_move;
        let target = opposite(me);
        let pieces: Vec<(i32, i32)> = self
            .board
            .iter()
            .filter(|(_, &p)| p == me)
            .map(|(&c, _)| c)
            .collect();
        for &s in &pieces {
            let mut board = self.board.clone();
            board.remove(&s);
            let locked = |c: (i32, i32)| self.goal_lock && triangle_of(c.0, c.1) == Some(target);
            let may_land = |from: (i32, i32), to: (i32, i32)| !locked(from) || locked(to);
            let may_stop = |c: (i32, i32)| {
                !self.no_foreign_stop
                    || match triangle_of(c.0, c.1) {
                        None => true,
                        Some(t) => t == me || t == target,
                    }
            };
            let mut dests = HashSet::new();
            for (df, dr) in DIRS {
                let n = (s.0 + df, s.1 + dr);
                if on_star(n.0, n.1) && !board.contains_key(&n) && may_land(s, n) {
                    dests.insert(n);
                }
            }
            // Depth-first search over single jumps.
            let mut seen = HashSet::from([s]);
            let mut stack = vec![s];
            while let Some(x) = stack.pop() {
                for (df, dr) in DIRS {
                    let over = (x.0 + df, x.1 + dr);
                    let land = (x.0 + 2 * df, x.1 + 2 * dr);
                    if on_star(land.0, land.1)
                        && board.contains_key(&over)
                        && !board.contains_key(&land)
                        && may_land(x, land)
                        && seen.insert(land)
                    {
                        dests.insert(land);
                        stack.push(land);
                    }
                }
            }
            dests.remove(&s);
            for d in dests {
                if may_stop(d) {
                    out.insert(format!("{}{}", name(s.0, s.1), name(d.0, d.1)));
                }
            }
        }
        if out.is_empty() {
            out.insert("0000".to_string());
        }
        out
    }
}

/// A small deterministic random generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random position string: `players` with up to 10 pieces each scattered over the star.
fn random_position(rng: &mut Rng, players: &str, max_pieces: usize) -> String {
    let mut cells: Vec<(i32, i32)> = (-8..=8)
        .rev()
        .flat_map(|r| (-8..=8).map(move |f| (f, r)))
        .filter(|&(f, r)| on_star(f, r))
        .collect();
    let mut board: HashMap<(i32, i32), char> = HashMap::new();
    for p in players.chars() {
        let n = 1 + rng.below(max_pieces);
        for _ in 0..n {
            let i = rng.below(cells.len());
            board.insert(cells.swap_remove(i), p);
        }
    }
    let mut ranks = Vec::new();
    for r in (-8..=8).rev() {
        let mut s = String::new();
        let mut run = 0;
        for f in (-8..=8).filter(|&f| on_star(f, r)) {
            match board.get(&(f, r)) {
                Some(&p) => {
                    if run > 0 {
                        s += &run.to_string();
                        run = 0;
                    }
                    s.push(p);
                }
                None => run += 1,
            }
        }
        if run > 0 {
            s += &run.to_string();
        }
        ranks.push(s);
    }
    let ps: Vec<char> = players.chars().collect();
    let to_move = ps[rng.below(ps.len())];
    format!("{} {players} {to_move} 7", ranks.join("/"))
}

// ---------------------------------------------------------------- cells and triangles

#[test]
fn cells_star_has_121_cells_with_brief_rank_lengths() {
    assert_eq!(Cell::all().count(), 121);
    for (i, &len) in RANK_LENGTHS.iter().enumerate() {
        let n = Cell::all().filter(|c| c.rank() as usize == i + 1).count();
        assert_eq!(n, len, "rank {}", i + 1);
    }
    for c in Cell::all() {
        let text = c.to_string();
        assert_eq!(text.parse::<Cell>().unwrap(), c);
        let (f, r) = coords(&text);
        assert!(on_star(f, r), "{text}");
        let (x, y, z) = c.cube();
        assert_eq!((x, y, z), (f, r, -f - r));
    }
    assert_eq!(cell("i9").cube(), (0, 0, 0));
}

#[test]
fn cells_neighbours_follow_the_six_offsets() {
    for c in Cell::all() {
        let (f, r) = coords(&c.to_string());
        let expected: BTreeSet<String> = DIRS
            .iter()
            .map(|(df, dr)| (f + df, r + dr))
            .filter(|&(a, b)| on_star(a, b))
            .map(|(a, b)| name(a, b))
            .collect();
        let got: BTreeSet<String> = c.neighbours().map(|n| n.to_string()).collect();
        assert_eq!(got, expected, "{c}");
    }
    let tip: BTreeSet<String> = cell("m1").neighbours().map(|n| n.to_string()).collect();
    assert_eq!(tip, ["l2", "m2"].iter().map(|s| s.to_string()).collect());
}

#[test]
fn triangles_match_the_brief_table() {
    for t in Triangle::ALL {
        let mut n = 0;
        for c in Cell::all() {
            let (f, r) = coords(&c.to_string());
            let inside = c.bit() & t.cells() != 0;
            assert_eq!(inside, triangle_of(f, r) == Some(t.letter()), "{c} in {t}");
            assert_eq!(inside, c.triangle() == Some(t));
            n += usize::from(inside);
        }
        assert_eq!(n, 10);
    }
    let tips: Vec<String> = Triangle::ALL.iter().map(|t| t.tip().to_string()).collect();
    assert_eq!(tips, ["m1", "e5", "a13", "e17", "m13", "q5"]);
    assert_eq!(Triangle::from_letter('A').unwrap().opposite().letter(), 'D');
    assert_eq!(Triangle::from_letter('E').unwrap().opposite().letter(), 'B');
}

#[test]
fn cells_bad_names_are_rejected_with_a_reason() {
    for (text, why) in [
        ("a1", "not a cell of the star"),
        ("r5", "file"),
        ("e0", "rank"),
        ("e18", "rank"),
        ("e05", "rank"),
        ("e", "rank"),
        ("", "empty"),
        ("E5", "file"),
        ("e5x", "rank"),
    ] {
        let err = text.parse::<Cell>().unwrap_err();
        assert!(err.0.contains(why), "`{text}`: {err}");
    }
}

// ---------------------------------------------------------------- position strings

#[test]
fn fen_start_positions_by_player_count_round_trip() {
    let expected = [
        (2, START_2),
        (
            3,
            "1/2/3/4/CCCC5EEEE/CCC6EEE/CC7EE/C8E/9/10/11/12/13/AAAA/AAA/AA/A ACE A 0",
        ),
        (
            4,
            "D/DD/DDD/DDDD/9EEEE/9EEE/9EE/9E/9/B9/BB9/BBB9/BBBB9/AAAA/AAA/AA/A ABDE A 0",
        ),
        (
            6,
            "D/DD/DDD/DDDD/CCCC5EEEE/CCC6EEE/CC7EE/C8E/9/B8F/BB7FF/BBB6FFF/BBBB5FFFF/AAAA/AAA/AA/A ABCDEF A 0",
        ),
    ];
    for (n, fen) in expected {
        let config = GameConfig {
            cc_players: n,
            ..GameConfig::default()
        };
        let p = ChineseCheckers::startpos(&config);
        assert_eq!(p.to_fen(), fen);
        assert_eq!(p.num_players(), n as usize);
        assert_eq!(p.side_to_move(), 0);
        // Every player starts with ten pieces in its home triangle.
        for i in 0..p.num_players() {
            assert_eq!(p.pieces(i), p.home(i).cells());
        }
    }
}

#[test]
fn fen_canonical_form_and_other_seatings() {
    // Ply defaults to 0; whitespace runs are accepted; the output is canonical.
    let p = ChineseCheckers::from_fen(
        "  D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/A\tAD   D ",
        &cfg(),
    )
    .unwrap();
    assert_eq!(
        p.to_fen(),
        "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/A AD D 0"
    );
    assert_eq!(p.side_to_move(), 1);
    // A seating that is no standard one: B and F, F first; side index is the place in the string.
    let p = pos("1/2/3/4/13/12/11/10/9/B9/BB9/BBB9/BBBB5FFFF/4/3/2/1 FB B 3");
    assert_eq!(p.players(), "FB");
    assert_eq!(p.side_to_move(), 1);
    assert_eq!(p.home(0).letter(), 'F');
    assert_eq!(p.target(1).letter(), 'E');
    // A single player, no pieces at all: it can only pass.
    let p = pos("1/2/3/4/13/12/11/10/9/10/11/12/13/4/3/2/1 C C 0");
    assert_eq!(moves(&p), BTreeSet::from(["0000".to_string()]));
    for fen in [MID_2, MID_4, LATE_2] {
        assert_eq!(pos(fen).to_fen(), fen);
    }
}

#[test]
fn fen_errors_name_their_reason() {
    let cases = [
        ("", "got 0 field"),
        ("D/DD AD", "got 2 field"),
        (&format!("{START_2} extra"), "got 5 field"),
        (
            "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA AD A 0",
            "16 rank",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/14/AAAA/AAA/AA/A AD A 0",
            "rank 5",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/12/AAAA/AAA/AA/A AD A 0",
            "describes 12 cell(s), it has 13",
        ),
        (
            "D/DD/DDD/DDDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/A AD A 0",
            "rank 14",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA//A AD A 0",
            "18 rank",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/ AD A 0",
            "rank 1 is empty",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/Ax/A AD A 0",
            "unexpected character `x`",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/a AD A 0",
            "unexpected character `a`",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/0/10/11/12/13/AAAA/AAA/AA/A AD A 0",
            "got `0`",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/09/10/11/12/13/AAAA/AAA/AA/A AD A 0",
            "got `09`",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/99999999999999999999999/AAAA/AAA/AA/A AD A 0",
            "got `99999999999999999999999`",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/A AE A 0",
            "piece `D` belongs to no listed player",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/A AA A 0",
            "listed twice",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/A AG A 0",
            "`G` is not a triangle letter",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/A ABCDEFA A 0",
            "listed twice",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/A AD B 0",
            "side to move `B` is not one of the players",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/A AD AD 0",
            "must be one player letter",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/A AD A -1",
            "ply `-1`",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/A AD A x",
            "ply `x`",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/A12/AAAA/AAA/AA/A AD A 0",
            "player A has 11 pieces, at most 10",
        ),
    ];
    for (fen, why) in cases {
        let err = ChineseCheckers::from_fen(fen, &cfg()).unwrap_err();
        assert!(err.0.contains(why), "`{fen}`: got `{err}`, want `{why}`");
    }
    assert_eq!(MAX_PIECES_PER_PLAYER, 10);
}

// ---------------------------------------------------------------- move generation

#[test]
fn movegen_start_position_has_the_hand_counted_14_moves() {
    let got = moves(&pos(START_2));
    let want: BTreeSet<String> = [
        // Steps of the front row j4 k4 l4 m4.
        "j4i5", "j4j5", "k4j5", "k4k5", "l4k5", "l4l5", "m4l5", "m4m5",
        // Single jumps from rank 3 over rank 4 (north-east keeps the file, north-west moves two
        // files west).
        "k3i5", "k3k5", "l3j5", "l3l5", "m3k5", "m3m5",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    assert_eq!(got, want);
}

#[test]
fn movegen_long_chain_reaches_far_and_has_a_witness_path() {
    // A on i5 below a ladder of D pieces on i6 i8 i10 i12: one chain i5 i7 i9 i11 i13.
    let p = pos(LADDER);
    assert_eq!(p.side_at(cell("i5")), Some(0));
    for c in ["i6", "i8", "i10", "i12"] {
        assert_eq!(p.side_at(cell(c)), Some(1), "{c}");
    }
    let m = p.parse_move("i5i13", &cfg()).unwrap();
    let path = p.move_path(m).unwrap();
    assert_eq!(path_to_string(&path), "i5 i7 i9 i11 i13");
    let got = moves(&p);
    for stop in ["i7", "i9", "i11", "i13"] {
        assert!(
            got.contains(&format!("i5{stop}")),
            "chain may stop at {stop}"
        );
    }
    assert!(!got.contains("i5i15"), "nothing to jump over on i14");
    assert_eq!(got, Naive::parse(LADDER, false, false).moves());
}

#[test]
fn movegen_chain_looping_back_never_lands_on_its_start() {
    // A on i9 ringed by D pieces on all six neighbours, the second ring empty: six single
    // jumps; from each landing the only jump leads back over the ring to i9, the start cell,
    // which is never a destination. No steps.
    let p = pos("1/2/3/4/13/12/11/4DD4/3DAD3/4DD4/11/12/13/4/3/2/1 AD A 0");
    assert_eq!(p.side_at(cell("i9")), Some(0));
    let got = moves(&p);
    let want: BTreeSet<String> = ["i9k9", "i9g9", "i9i11", "i9g11", "i9i7", "i9k7"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(got, want);
    // Each witness path is a single jump (the loop through the start is never needed).
    for mp in p.moves_with_paths(None) {
        assert_eq!(mp.path.len(), 2, "{}", mp.mv);
    }
    assert_eq!(got, Naive::parse(&p.to_fen(), false, false).moves());
}

#[test]
fn movegen_start_cell_is_empty_during_a_chain() {
    // A on i9, D on j9 and h10. i9 jumps over j9 to k9; from k9 back over j9 lands on i9, the
    // start (empty during the chain, not a destination); from there over h10 to g11 is the
    // same as jumping from the start. Nothing can jump over the start cell.
    let p = pos("1/2/3/4/13/12/11/4D5/4AD3/10/11/12/13/4/3/2/1 AD A 0");
    let got = moves(&p);
    let want: BTreeSet<String> = [
        "i9i10", "i9h9", "i9i8", "i9j8", // steps to the empty neighbours
        "i9k9", "i9g11", // jumps over j9 and h10
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    assert_eq!(got, want);
    // With A on h9 too, jumping from h9 over i9 (occupied by the other A piece) is fine,
    // but i9's own chains never use i9 as something to jump over: compare with the model.
    let p = pos("1/2/3/4/13/12/11/4D5/2DAAD3/10/11/12/13/4/3/2/1 AD A 0");
    assert_eq!(moves(&p), Naive::parse(&p.to_fen(), false, false).moves());
}

#[test]
fn movegen_pass_only_when_no_move() {
    // The only A piece is on the tip m1; l2 and m2 hold D pieces, and so do the landings k3, m3.
    let p = pos("1/2/3/4/13/12/11/10/9/10/11/12/13/4/D1D/DD/A AD A 9");
    assert_eq!(moves(&p), BTreeSet::from(["0000".to_string()]));
    assert_eq!(p.clone().perft(1), 1);
    let pass = p.parse_move("0000", &cfg()).unwrap();
    assert!(pass.is_pass());
    assert_eq!(p.move_path(pass), Some(vec![]));
    let mut q = p.clone();
    let h = q.hash();
    q.make_move(pass);
    assert_eq!(q.side_to_move(), 1);
    assert_eq!(q.ply(), 10);
    assert_ne!(q.hash(), h);
    assert_eq!(
        q.hash(),
        ChineseCheckers::from_fen(&q.to_fen(), &cfg())
            .unwrap()
            .hash()
    );
    q.undo_move(pass);
    assert_eq!(q.to_fen(), p.to_fen());
    assert_eq!(q.hash(), h);
    // The pass is illegal while a move exists.
    let err = pos(START_2).parse_move("0000", &cfg()).unwrap_err();
    assert!(err.0.contains("only when it has no other move"), "{err}");
}

#[test]
fn win_completed_by_another_players_move() {
    // D's target is A's home m1..m4. Nine of its cells hold D pieces, l4 is empty, and the A
    // piece on l5 steps into it: the target is full with D pieces in it, D (side 1) wins.
    let p = pos("1/2/3/4/13/12/11/10/9/10/11/12/7A5/DD1D/DDD/DD/D AD A 50");
    assert_eq!(p.rule_outcome(), None);
    let m = p.parse_move("l5l4", &cfg()).unwrap();
    let mut q = p.clone();
    q.make_move(m);
    assert_eq!(q.winner(), Some(1));
    assert_eq!(q.rule_outcome(), Some(Outcome::Win(1)));
    assert_eq!(q.outcome(), Some(Outcome::Win(1)));
    assert_eq!(moves(&q), BTreeSet::new(), "a won position has no moves");
    assert_eq!(q.perft(1), 0);
    assert_eq!(q.perft(2), 0);
    let err = q.parse_move("0000", &cfg()).unwrap_err();
    assert!(err.0.contains("game is over"), "{err}");
    // The parsed won position is recognised too.
    let r = ChineseCheckers::from_fen(&q.to_fen(), &cfg()).unwrap();
    assert_eq!(r.winner(), Some(1));
    q.undo_move(m);
    assert_eq!(q.winner(), None);
    assert_eq!(q.to_fen(), p.to_fen());
    // Depth 1 counts the winning move like any other.
    let mut p2 = p.clone();
    assert_eq!(p2.perft(1), moves(&p).len() as u64);
}

#[test]
fn win_needs_one_own_piece_in_a_full_target() {
    // Start position: D's target (A's home) is full of A pieces only: nobody has won.
    assert_eq!(pos(START_2).rule_outcome(), None);
    // A's target (D's home) full: nine D pieces and one A piece: A has won.
    let p = pos("A/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/4/3/2/1 AD D 30");
    assert_eq!(p.winner(), Some(0));
    assert_eq!(p.rule_outcome(), Some(Outcome::Win(0)));
    // Blocked target: D's home full of D pieces only: no win, and no A move may enter it.
    let p = pos("D/DD/DDD/DDDD/8A4/12/11/10/9/10/11/12/13/4/3/2/1 AD A 30");
    assert_eq!(p.winner(), None);
    for m in moves(&p) {
        let to = destination(&m);
        assert!(to.triangle().map(|t| t.letter()) != Some('D'), "{m}");
    }
    // One spoiler cell h14 left empty: A on i13 steps in and wins (nine D, one A).
    let p = pos("D/DD/DDD/DDD1/8A4/12/11/10/9/10/11/12/13/4/3/2/1 AD A 30");
    let mut q = p.clone();
    let m = q.parse_move("i13h14", &cfg()).unwrap();
    q.make_move(m);
    assert_eq!(q.rule_outcome(), Some(Outcome::Win(0)));
}

#[test]
fn win_by_another_players_move_with_three_players() {
    // ACE: C's target is F (n5 o5 p5 q5 n6 o6 p6 n7 o7 n8). C has a piece on q5, A pieces fill
    // eight more cells, n8 is empty and E (to move) steps m9n8: the target is full with a C
    // piece inside, so C (side 1) wins on E's move.
    let p = pos("1/2/3/4/13/12/11/10/8E/10/9AA/9AAA/9AAAC/4/3/2/1 ACE E 0");
    assert_eq!(p.winner(), None);
    let mut q = p.clone();
    let m = q.parse_move("m9n8", &cfg()).unwrap();
    q.make_move(m);
    assert_eq!(q.rule_outcome(), Some(Outcome::Win(1)));
    assert_eq!(q.perft(1), 0);
    assert!(Naive::parse(&q.to_fen(), false, false).won());
}

#[test]
fn goal_lock_keeps_a_piece_in_its_target() {
    // A on e14 (inside its target D) with a D piece on e15. Standard rules: e14 may step out to
    // e13 or f13. Goal-lock: only f14 and the jump over e15 to e16 stay in the triangle.
    let fen = "1/2/D2/A3/13/12/11/10/9/10/11/12/13/4/3/2/1 AD A 0";
    let std = moves(&ChineseCheckers::from_fen(fen, &cfg()).unwrap());
    let lock = moves(&ChineseCheckers::from_fen(fen, &cfg_rules(true, false)).unwrap());
    let set = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>();
    assert_eq!(std, set(&["e14e13", "e14f13", "e14f14", "e14e16"]));
    assert_eq!(lock, set(&["e14f14", "e14e16"]));
    assert_eq!(lock, Naive::parse(fen, true, false).moves());
}

#[test]
fn goal_lock_applies_at_every_landing_of_a_chain() {
    // A on i13, D on h14 and g14. i13 jumps over h14 into its target at g15; from g15 a jump
    // over g14 would leave the target again to g13. Standard rules allow i13g13; goal-lock
    // forbids it (the piece stands in its target at the landing g15), but i13g15 stays legal.
    let fen = "1/2/3/2DD/8A4/12/11/10/9/10/11/12/13/4/3/2/1 AD A 0";
    let std = moves(&ChineseCheckers::from_fen(fen, &cfg()).unwrap());
    let p_lock = ChineseCheckers::from_fen(fen, &cfg_rules(true, false)).unwrap();
    let lock = moves(&p_lock);
    assert!(std.contains("i13g15") && std.contains("i13g13"), "{std:?}");
    assert!(
        lock.contains("i13g15") && !lock.contains("i13g13"),
        "{lock:?}"
    );
    let mut others = std.clone();
    others.remove("i13g13");
    assert_eq!(lock, others);
    assert_eq!(lock, Naive::parse(fen, true, false).moves());
}

#[test]
fn no_foreign_stop_allows_passing_through_only() {
    // 2 players. A on e9, D on e8 (in B) and f7 (in B). e9 jumps over e8 to e7 (in B: may not
    // stop) and on over f7 to g7 (central hexagon: allowed). The step to d10 (in C) is not
    // allowed either; the steps to f9, e10, f8 are.
    let fen = "1/2/3/4/13/12/11/10/A8/D9/1D9/12/13/4/3/2/1 AD A 0";
    let std = moves(&ChineseCheckers::from_fen(fen, &cfg()).unwrap());
    let nfs = moves(&ChineseCheckers::from_fen(fen, &cfg_rules(false, true)).unwrap());
    let set = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>();
    assert_eq!(
        std,
        set(&["e9f9", "e9e10", "e9d10", "e9f8", "e9e7", "e9g7"])
    );
    assert_eq!(nfs, set(&["e9f9", "e9e10", "e9f8", "e9g7"]));
    let p = ChineseCheckers::from_fen(fen, &cfg_rules(false, true)).unwrap();
    let m = p.parse_move("e9g7", &cfg()).unwrap();
    assert_eq!(path_to_string(&p.move_path(m).unwrap()), "e9 e7 g7");
    assert_eq!(nfs, Naive::parse(fen, false, true).moves());
}

#[test]
fn movegen_matches_naive_model_on_random_positions() {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let seatings = ["AD", "ACE", "ABDE", "ABCDEF", "BE", "F", "CDF"];
    let mut total = 0;
    let rounds = if cfg!(debug_assertions) { 150 } else { 1500 };
    for round in 0..rounds {
        let players = seatings[round % seatings.len()];
        let max_pieces = if round % 3 == 0 {
            10
        } else {
            1 + rng.below(10)
        };
        let fen = random_position(&mut rng, players, max_pieces);
        for (gl, nfs) in [(false, false), (true, false), (false, true), (true, true)] {
            let p = ChineseCheckers::from_fen(&fen, &cfg_rules(gl, nfs)).unwrap();
            let naive = Naive::parse(&fen, gl, nfs);
            assert_eq!(p.winner().is_some(), naive.won(), "{fen}");
            assert_eq!(moves(&p), naive.moves(), "{fen} goal-lock {gl} nfs {nfs}");
            total += 1;
        }
    }
    assert_eq!(total, 4 * rounds);
}

#[test]
fn movegen_random_playouts_keep_hash_fen_and_bound() {
    let mut rng = Rng(42);
    let plies = if cfg!(debug_assertions) { 120 } else { 400 };
    for players in [2u8, 3, 4, 6] {
        for rules in [(false, false), (true, true)] {
            let mut config = cfg_rules(rules.0, rules.1);
            config.cc_players = players;
            let mut p = ChineseCheckers::startpos(&config);
            let mut played = Vec::new();
            let mut max_len = 0;
            for _ in 0..plies {
                let mut list = <ChineseCheckers as Game>::MoveList::default();
                p.generate_moves(&mut list);
                max_len = max_len.max(list.len());
                if list.is_empty() {
                    break;
                }
                let m = list[rng.below(list.len())];
                let text = p.format_move(m, &config);
                assert_eq!(p.parse_move(&text, &config).unwrap(), m);
                assert_eq!(Move::from_bits(m.to_bits()), m);
                p.make_move(m);
                played.push(m);
                let fresh = ChineseCheckers::from_fen(&p.to_fen(), &config).unwrap();
                assert_eq!(fresh.hash(), p.hash(), "{}", p.to_fen());
                assert_eq!(fresh.to_fen(), p.to_fen());
                assert_eq!(fresh.winner(), p.winner());
                assert_eq!(
                    moves(&fresh),
                    Naive::parse(&p.to_fen(), rules.0, rules.1).moves()
                );
            }
            assert!(max_len <= MAX_MOVES);
            let mut q = p.clone();
            for &m in played.iter().rev() {
                q.undo_move(m);
            }
            let start = ChineseCheckers::startpos(&config);
            assert_eq!(q.to_fen(), start.to_fen());
            assert_eq!(q.hash(), start.hash());
        }
    }
}

#[test]
fn movegen_move_list_bound_is_justified() {
    // Jump landings keep both coordinates' parity: the largest parity class of the star.
    let mut classes: HashMap<(i32, i32), usize> = HashMap::new();
    for c in Cell::all() {
        let (x, y, _) = c.cube();
        *classes
            .entry((x.rem_euclid(2), y.rem_euclid(2)))
            .or_default() += 1;
    }
    let largest = *classes.values().max().unwrap();
    assert_eq!(largest, 37);
    assert!(MAX_MOVES >= MAX_PIECES_PER_PLAYER * (6 + largest - 1));
}

// ---------------------------------------------------------------- move tokens and paths

#[test]
fn move_tokens_errors_name_their_reason() {
    let p = pos(START_2);
    for (text, why) in [
        ("", "bad move"),
        ("k3", "bad move"),
        ("zz", "bad move"),
        ("k3z5", "file `z`"),
        ("a1k5", "not a cell of the star"),
        ("k3k55", "rank"),
        ("i9i10", "no piece on i9"),
        ("e17e16", "belongs to D, A is to move"),
        ("m1m2", "cannot reach m2"),
        ("k3k3", "cannot reach k3"),
        ("k3k7", "cannot reach k7"),
    ] {
        let err = p.parse_move(text, &cfg()).unwrap_err();
        assert!(err.0.contains(why), "`{text}`: {err}");
    }
    assert_eq!(p.parse_move("k3k5", &cfg()).unwrap().to_string(), "k3k5");
    assert_eq!(p.parse_move(" j4i5 ", &cfg()).unwrap().to_string(), "j4i5");
}

/// Checks that `path` is a real witness of `m` in `p`.
fn check_path(p: &ChineseCheckers, m: Move, path: &[Cell]) {
    if m.is_pass() {
        assert!(path.is_empty());
        return;
    }
    assert!(path.len() >= 2, "{m}");
    assert_eq!(path[0], m.from_cell().unwrap());
    assert_eq!(*path.last().unwrap(), m.to_cell().unwrap());
    let from = path[0];
    let occupied = |c: Cell| c != from && p.side_at(c).is_some();
    if path.len() == 2 && from.neighbours().any(|n| n == path[1]) {
        assert!(!occupied(path[1]));
        return;
    }
    for w in path.windows(2) {
        let (a, b) = coords(&w[0].to_string());
        let (c, d) = coords(&w[1].to_string());
        let (df, dr) = (c - a, d - b);
        assert!(
            DIRS.iter().any(|&(x, y)| (2 * x, 2 * y) == (df, dr)),
            "{m}: {} -> {} is no jump",
            w[0],
            w[1]
        );
        let over: Cell = name(a + df / 2, b + dr / 2).parse().unwrap();
        assert!(occupied(over), "{m}: nothing to jump over on {over}");
        assert!(!occupied(w[1]), "{m}: landing {} is taken", w[1]);
    }
}

#[test]
fn paths_exist_for_every_move_and_are_real_chains() {
    for (fen, gl, nfs) in [
        (START_2, false, false),
        (MID_2, false, false),
        (MID_4, true, false),
        (LATE_2, true, true),
    ] {
        let p = ChineseCheckers::from_fen(fen, &cfg_rules(gl, nfs)).unwrap();
        let all = p.moves_with_paths(None);
        assert_eq!(all.len(), moves(&p).len());
        for mp in &all {
            check_path(&p, mp.mv, &mp.path);
            assert_eq!(p.move_path(mp.mv).as_ref(), Some(&mp.path));
        }
        // Per piece: exactly that piece's moves.
        for c in Cell::all() {
            let own = p.moves_with_paths(Some(c));
            let want = all.iter().filter(|mp| mp.mv.from_cell() == Some(c)).count();
            assert_eq!(own.len(), want, "{c}");
            assert_eq!(
                p.destinations(c).count_ones() as usize,
                want,
                "destinations of {c}"
            );
        }
    }
    let p = pos(START_2);
    let m = p.parse_move("k3k5", &cfg()).unwrap();
    assert_eq!(path_to_string(&p.move_path(m).unwrap()), "k3 k5");
    let m = p.parse_move("j4i5", &cfg()).unwrap();
    assert_eq!(path_to_string(&p.move_path(m).unwrap()), "j4 i5");
    // Not legal: no path.
    assert_eq!(p.move_path(Move::new(cell("k3"), cell("k7"))), None);
    assert_eq!(p.move_path(Move::PASS), None);
}

// ---------------------------------------------------------------- distances

#[test]
fn distance_plain_is_the_step_distance_on_the_star() {
    for a in Cell::all() {
        // Breadth-first search over steps inside the star.
        let mut dist: HashMap<Cell, u32> = HashMap::from([(a, 0)]);
        let mut queue = VecDeque::from([a]);
        while let Some(x) = queue.pop_front() {
            for n in x.neighbours() {
                if !dist.contains_key(&n) {
                    dist.insert(n, dist[&x] + 1);
                    queue.push_back(n);
                }
            }
        }
        for b in Cell::all() {
            assert_eq!(plain_distance(a, b), dist[&b], "{a} {b}");
        }
    }
    assert_eq!(plain_distance(cell("m1"), cell("e17")), 16);
    assert_eq!(plain_distance(cell("m1"), cell("e5")), 8);
    assert_eq!(plain_distance(cell("i9"), cell("i9")), 0);
    let d = Triangle::from_letter('D').unwrap();
    assert_eq!(distance_to_triangle(cell("i9"), d), 5);
    assert_eq!(distance_to_triangle(cell("f15"), d), 0);
    // From rank 1 to rank 14 at least: 13 rows.
    assert_eq!(distance_to_triangle(cell("m1"), d), 13);
}

#[test]
fn distance_pieces_uses_jump_chains_over_the_board() {
    // Lone piece: the pieces distance is the plain distance.
    let p = pos("1/2/3/4/13/12/11/10/4A4/10/11/12/13/4/3/2/1 A A 0");
    for b in Cell::all() {
        assert_eq!(
            p.pieces_distance(cell("i9"), b),
            plain_distance(cell("i9"), b)
        );
    }
    // A ladder of D pieces on i6 i8 i10 i12: from i5 one chain reaches i7 i9 i11 i13.
    let p = pos(LADDER);
    let from = cell("i5");
    assert_eq!(p.side_at(from), Some(0));
    assert_eq!(p.pieces_distance(from, cell("i13")), 1);
    assert_eq!(plain_distance(from, cell("i13")), 8);
    assert_eq!(p.pieces_distance(from, cell("i11")), 1);
    // One step after the chain: h14 (plain 9).
    assert_eq!(plain_distance(from, cell("h14")), 9);
    assert_eq!(p.pieces_distance(from, cell("h14")), 2);
    // i12 holds a piece: a step onto it still counts (the others move on later).
    assert_eq!(p.pieces_distance(from, cell("i12")), 2);
    // e17 is 4 more steps from i13 (h14 g15 f16 e17): 5 moves instead of the plain 12.
    assert_eq!(plain_distance(cell("i13"), cell("e17")), 4);
    assert_eq!(plain_distance(from, cell("e17")), 12);
    assert_eq!(p.pieces_distance(from, cell("e17")), 5);
    // Never more than the plain distance, on a busy board, for every piece.
    for fen in [MID_2, MID_4, LATE_2] {
        let p = pos(fen);
        for a in Cell::all().filter(|&c| p.side_at(c).is_some()) {
            let d = p.pieces_distances(a);
            for b in Cell::all() {
                assert!(u32::from(d[b.index()]) <= plain_distance(a, b));
            }
            // One move reaches exactly the steps and jump destinations (no rules variants).
            for b in Cell::all() {
                if d[b.index()] == 1
                    && p.side_at(b).is_none()
                    && p.side_to_move() == p.side_at(a).unwrap()
                {
                    assert!(p.destinations(a) & b.bit() != 0, "{a} {b}");
                }
            }
        }
    }
}

// ---------------------------------------------------------------- eval, noisy, display

#[test]
fn eval_progress_score_is_symmetric_and_rewards_progress() {
    let p = pos(START_2);
    assert_eq!(p.evaluate(), 0);
    let mut q = p.clone();
    let m = q.parse_move("k3k5", &cfg()).unwrap();
    q.make_move(m);
    // D to move, A advanced: D is behind.
    assert!(q.evaluate() < 0);
    assert_eq!(q.distance_to_target(0) + 2, p.distance_to_target(0));
}

#[test]
fn noisy_moves_are_the_forward_jumps() {
    for fen in [START_2, MID_2, MID_4, LATE_2] {
        let p = pos(fen);
        let mut noisy = <ChineseCheckers as Game>::MoveList::default();
        p.generate_noisy(&mut noisy);
        let mut all = <ChineseCheckers as Game>::MoveList::default();
        p.generate_moves(&mut all);
        let want: Vec<Move> = all.iter().copied().filter(|&m| p.is_noisy(m)).collect();
        assert_eq!(noisy.as_slice(), want.as_slice(), "{fen}");
        for &m in &noisy {
            assert!(p.noisy_order(m) >= 2);
            assert!(!m
                .from_cell()
                .unwrap()
                .neighbours()
                .any(|n| Some(n) == m.to_cell()));
        }
    }
    // In the start position the six single jumps advance 2 rows: all noisy.
    let p = pos(START_2);
    let mut noisy = <ChineseCheckers as Game>::MoveList::default();
    p.generate_noisy(&mut noisy);
    assert_eq!(noisy.len(), 6);
}

#[test]
fn display_draws_the_star_with_fen_and_key() {
    let p = pos(MID_4);
    let d = p.display();
    let lines: Vec<&str> = d.lines().collect();
    assert!(lines[0].trim_start().starts_with("17"));
    assert!(lines[16].trim_start().starts_with('1'));
    assert!(d.contains(&format!("Fen: {MID_4}")));
    assert!(d.contains(&format!("Key: {:016X}", p.hash())));
    // 121 cells drawn: pieces plus dots.
    let drawn: usize = lines[..17]
        .iter()
        .map(|l| {
            l.chars()
                .filter(|c| *c == '.' || c.is_ascii_uppercase())
                .count()
        })
        .sum();
    assert_eq!(drawn, 121);
    // Rank 5 has 13 cells, each row staggered by one column from the next.
    assert_eq!(
        lines[12]
            .chars()
            .filter(|c| *c == '.' || c.is_ascii_uppercase())
            .count(),
        13
    );
}

#[test]
fn outcome_and_trait_basics() {
    let p = pos(START_2);
    assert!(!p.in_check());
    assert_eq!(p.rule_outcome(), None);
    assert_eq!(p.outcome(), None);
    assert_eq!(p.no_moves_outcome(), Outcome::Draw);
    assert_eq!(ChineseCheckers::NAME, "chinesecheckers");
    assert_eq!(p.rules().to_string(), "standard");
    let q = ChineseCheckers::from_fen(START_2, &cfg_rules(true, true)).unwrap();
    assert_eq!(q.rules().to_string(), "goal-lock,no-foreign-stop");
    // The default move (m1 to m1) is never legal and is not the pass.
    assert!(!Move::default().is_pass());
    assert_eq!(Move::default().to_string(), "m1m1");
    assert_eq!(Move::PASS.to_string(), "0000");
}

#[test]
fn paths_as_strings_for_info_lines() {
    let p = pos(LADDER);
    let m = p.parse_move("i5i11", &cfg()).unwrap();
    assert_eq!(p.path_string(m).as_deref(), Some("i5 i7 i9 i11"));
    let m = p.parse_move("i5h6", &cfg()).unwrap();
    assert_eq!(p.path_string(m).as_deref(), Some("i5 h6"));
    assert_eq!(p.path_string(Move::PASS), None);
    let only_pass = pos("1/2/3/4/13/12/11/10/9/10/11/12/13/4/D1D/DD/A AD A 9");
    assert_eq!(only_pass.path_string(Move::PASS).as_deref(), Some(""));
    // Moves of one piece only.
    let own: Vec<String> = p
        .moves_with_paths(Some(cell("i5")))
        .iter()
        .map(|mp| format!("{} {}", mp.mv, path_to_string(&mp.path)))
        .collect();
    assert!(
        own.contains(&"i5i13 i5 i7 i9 i11 i13".to_string()),
        "{own:?}"
    );
    assert!(
        p.moves_with_paths(Some(cell("i6"))).is_empty(),
        "a D piece, A to move"
    );
    assert!(
        p.moves_with_paths(Some(cell("a13"))).is_empty(),
        "an empty cell"
    );
}
