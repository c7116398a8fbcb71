//! An independent model of the Chinese-checkers board and rules, written from the brief's text
//! and not from the engine: axial coordinates, the triangle table, a naive move generator, and
//! random position strings, for the rules tests to compare the engine with; then the few
//! engine-side helpers both rules files use.

use std::collections::{BTreeSet, HashMap, HashSet};

use sanqi::game::chinese_checkers::{Cell, ChineseCheckers, ChineseCheckersConfig, Rules};

/// Axial coordinates of a cell name, computed from the brief's text, not from the engine.
pub fn coords(name: &str) -> (i32, i32) {
    let f = name.as_bytes()[0] as i32 - b'i' as i32;
    let r: i32 = name[1..].parse::<i32>().unwrap() - 9;
    (f, r)
}

pub fn name(f: i32, r: i32) -> String {
    format!("{}{}", (b'i' as i32 + f) as u8 as char, r + 9)
}

pub fn on_star(f: i32, r: i32) -> bool {
    let (x, y, z) = (f, r, -f - r);
    (-8..=8).contains(&f)
        && (-8..=8).contains(&r)
        && (x.max(y).max(z) <= 4 || x.min(y).min(z) >= -4)
}

/// The triangle letter of a cell by the brief's table.
pub fn triangle_of(f: i32, r: i32) -> Option<char> {
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

pub fn opposite(l: char) -> char {
    (b'A' + (l as u8 - b'A' + 3) % 6) as char
}

pub const DIRS: [(i32, i32); 6] = [(1, 0), (-1, 0), (0, 1), (-1, 1), (0, -1), (1, -1)];

/// A naive reading of the position string and rules.
pub struct Naive {
    board: HashMap<(i32, i32), char>,
    players: Vec<char>,
    to_move: char,
    goal_lock: bool,
    no_foreign_stop: bool,
}

impl Naive {
    pub fn parse(s: &str, goal_lock: bool, no_foreign_stop: bool) -> Naive {
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

    pub fn won(&self) -> bool {
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

    pub fn moves(&self) -> BTreeSet<String> {
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

/// One rank of a position string from its cells in file order: a piece by its letter, a run of
/// empty cells by its length.
pub fn rank_text(cells: impl IntoIterator<Item = Option<char>>) -> String {
    let mut text = String::new();
    let mut run = 0;
    for c in cells {
        match c {
            Some(letter) => {
                if run > 0 {
                    text += &run.to_string();
                    run = 0;
                }
                text.push(letter);
            }
            None => run += 1,
        }
    }
    if run > 0 {
        text += &run.to_string();
    }
    text
}

/// A random position string: `players` with up to 10 pieces each scattered over the star.
pub fn random_position(rng: &mut super::Rng, players: &str, max_pieces: usize) -> String {
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
    let ranks: Vec<String> = (-8..=8)
        .rev()
        .map(|r| {
            rank_text(
                (-8..=8)
                    .filter(|&f| on_star(f, r))
                    .map(|f| board.get(&(f, r)).copied()),
            )
        })
        .collect();
    let ps: Vec<char> = players.chars().collect();
    let to_move = ps[rng.below(ps.len())];
    format!("{} {players} {to_move} 7", ranks.join("/"))
}

// ---------------------------------------------------------------------------------------------
// The engine side: positions, configurations and move sets as the rules tests read them.

/// The two-player start position.
pub const START_2: &str = "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/A AD A 0";
/// A on i5, D on i6 i8 i10 i12.
pub const LADDER: &str = "1/2/3/4/13/7D4/11/5D4/9/4D5/11/4D7/4A8/4/3/2/1 AD A 0";

/// The default setup (standard rules, two players).
pub fn cfg() -> ChineseCheckersConfig {
    ChineseCheckersConfig::default()
}

/// The setup with the given rule variants.
pub fn cfg_rules(goal_lock: bool, no_foreign_stop: bool) -> ChineseCheckersConfig {
    ChineseCheckersConfig {
        rules: Rules {
            goal_lock,
            no_foreign_stop,
        },
        ..ChineseCheckersConfig::default()
    }
}

/// A position in the default setup.
pub fn pos(s: &str) -> ChineseCheckers {
    super::pos(s)
}

/// The engine's legal moves as tokens (checked to have no duplicates).
pub fn moves(p: &ChineseCheckers) -> BTreeSet<String> {
    let list = super::legal(p);
    let set: BTreeSet<String> = list.iter().map(|m| m.to_string()).collect();
    assert_eq!(set.len(), list.len(), "duplicate moves");
    set
}

/// A cell by name.
pub fn cell(s: &str) -> Cell {
    s.parse().unwrap()
}
