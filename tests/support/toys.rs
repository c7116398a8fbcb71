//! Small games written with the rules and notation traits alone (`Rules`, `Notation`) to test the
//! generic search, which plays them as `Plain<G>` (every position evaluated 0, no search hints:
//! the values come from the games' ends alone), and brute-force references that do not share
//! code with the search.

use std::collections::HashMap;

use sanqi::game::{GameError, GameMove, MoveBuffer, MoveList, Notation, Outcome, Rules};
use sanqi::search::MATE;

/// A move of the toy games: one small number (a count to take, a cell, a column).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ToyMove(pub u8);

impl GameMove for ToyMove {
    fn to_bits(self) -> u16 {
        u16::from(self.0)
    }
    fn from_bits(bits: u16) -> Self {
        ToyMove(bits as u8)
    }
}

fn mix(mut x: u64) -> u64 {
    // splitmix64 finaliser: a bijection, so distinct states keep distinct keys.
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// A toy move token (the move's number), matched against the legal moves.
fn parse_toy_move<G: Rules<Move = ToyMove>>(pos: &G, text: &str) -> Result<ToyMove, GameError> {
    let mut list = G::MoveList::default();
    pos.generate_moves(&mut list);
    list.moves()
        .iter()
        .copied()
        .find(|m| m.0.to_string() == text)
        .ok_or_else(|| GameError::new(format!("illegal move '{text}'")))
}

// ---------------------------------------------------------------------------------------------
// Subtraction game ("Nim" with one pile) for 2 or more players.

/// One pile; a move takes 1..=`max_take` stones; whoever takes the last stone wins.
#[derive(Clone, Debug)]
pub struct Nim {
    pub pile: u32,
    pub max_take: u8,
    pub players: usize,
    pub to_move: usize,
}

impl Nim {
    pub fn new(pile: u32, max_take: u8, players: usize) -> Self {
        Nim {
            pile,
            max_take,
            players,
            to_move: 0,
        }
    }
}

impl Rules for Nim {
    type Move = ToyMove;
    type MoveList = MoveList<ToyMove, 16>;
    type Config = ();
    const NAME: &'static str = "nim";

    fn startpos(_config: &()) -> Self {
        Nim::new(21, 3, 2)
    }

    fn num_players(&self) -> usize {
        self.players
    }

    fn side_to_move(&self) -> usize {
        self.to_move
    }

    fn generate_moves(&self, list: &mut Self::MoveList) {
        list.clear_moves();
        for take in 1..=self.max_take {
            if u32::from(take) <= self.pile {
                list.push_move(ToyMove(take));
            }
        }
    }

    fn make_move(&mut self, m: ToyMove) {
        self.pile -= u32::from(m.0);
        self.to_move = (self.to_move + 1) % self.players;
    }

    fn undo_move(&mut self, m: ToyMove) {
        self.pile += u32::from(m.0);
        self.to_move = (self.to_move + self.players - 1) % self.players;
    }

    fn hash(&self) -> u64 {
        // The rule parameters are part of the state: one table serves several variants.
        mix(u64::from(self.pile) << 24
            | u64::from(self.max_take) << 16
            | (self.players as u64) << 8
            | self.to_move as u64)
    }

    fn in_check(&self) -> bool {
        false
    }

    fn rule_outcome(&self) -> Option<Outcome> {
        (self.pile == 0).then(|| Outcome::Win((self.to_move + self.players - 1) % self.players))
    }

    fn no_moves_outcome(&self) -> Outcome {
        Outcome::Win((self.to_move + self.players - 1) % self.players)
    }
}

impl Notation for Nim {
    fn from_fen(fen: &str, _config: &()) -> Result<Self, GameError> {
        let pile = fen
            .trim()
            .parse()
            .map_err(|_| GameError::new(format!("bad pile '{fen}'")))?;
        Ok(Nim::new(pile, 3, 2))
    }

    fn to_fen(&self) -> String {
        self.pile.to_string()
    }

    fn display(&self) -> String {
        format!("pile {} to move {}", self.pile, self.to_move)
    }

    fn parse_move(&self, text: &str, _config: &()) -> Result<ToyMove, GameError> {
        parse_toy_move(self, text)
    }

    fn format_move(&self, m: ToyMove, _config: &()) -> String {
        m.0.to_string()
    }
}

// ---------------------------------------------------------------------------------------------
// Tic-tac-toe.

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// Tic-tac-toe; cells hold 0 (empty), 1 (first player), 2 (second player).
#[derive(Clone, Debug)]
pub struct TicTacToe {
    pub cells: [u8; 9],
    pub to_move: usize,
}

impl TicTacToe {
    pub fn empty() -> Self {
        TicTacToe {
            cells: [0; 9],
            to_move: 0,
        }
    }

    fn has_line(&self, player: usize) -> bool {
        let mark = player as u8 + 1;
        LINES
            .iter()
            .any(|l| l.iter().all(|&c| self.cells[c] == mark))
    }

    fn completes_line(&self, cell: usize) -> bool {
        let mark = self.to_move as u8 + 1;
        LINES
            .iter()
            .any(|l| l.contains(&cell) && l.iter().all(|&c| c == cell || self.cells[c] == mark))
    }
}

impl Rules for TicTacToe {
    type Move = ToyMove;
    type MoveList = MoveList<ToyMove, 9>;
    type Config = ();
    const NAME: &'static str = "tictactoe";

    fn startpos(_config: &()) -> Self {
        TicTacToe::empty()
    }

    fn num_players(&self) -> usize {
        2
    }

    fn side_to_move(&self) -> usize {
        self.to_move
    }

    fn generate_moves(&self, list: &mut Self::MoveList) {
        list.clear_moves();
        if self.has_line(0) || self.has_line(1) {
            return;
        }
        for (i, &c) in self.cells.iter().enumerate() {
            if c == 0 {
                list.push_move(ToyMove(i as u8));
            }
        }
    }

    fn make_move(&mut self, m: ToyMove) {
        self.cells[usize::from(m.0)] = self.to_move as u8 + 1;
        self.to_move ^= 1;
    }

    fn undo_move(&mut self, m: ToyMove) {
        self.cells[usize::from(m.0)] = 0;
        self.to_move ^= 1;
    }

    fn hash(&self) -> u64 {
        let mut code = 0u64;
        for &c in &self.cells {
            code = code * 3 + u64::from(c);
        }
        mix(code << 1 | self.to_move as u64)
    }

    fn in_check(&self) -> bool {
        false
    }

    fn rule_outcome(&self) -> Option<Outcome> {
        let last = self.to_move ^ 1;
        if self.has_line(last) {
            Some(Outcome::Win(last))
        } else if self.cells.iter().all(|&c| c != 0) {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn no_moves_outcome(&self) -> Outcome {
        Outcome::Draw
    }
}

impl Notation for TicTacToe {
    fn from_fen(fen: &str, _config: &()) -> Result<Self, GameError> {
        let mut t = TicTacToe::empty();
        let chars: Vec<char> = fen.chars().collect();
        if chars.len() != 9 {
            return Err(GameError::new("need 9 cells"));
        }
        for (i, c) in chars.iter().enumerate() {
            t.cells[i] = match c {
                'x' => 1,
                'o' => 2,
                '.' => 0,
                _ => return Err(GameError::new(format!("bad cell '{c}'"))),
            };
        }
        let x = t.cells.iter().filter(|&&c| c == 1).count();
        let o = t.cells.iter().filter(|&&c| c == 2).count();
        t.to_move = usize::from(x > o);
        Ok(t)
    }

    fn to_fen(&self) -> String {
        self.cells
            .iter()
            .map(|c| match c {
                1 => 'x',
                2 => 'o',
                _ => '.',
            })
            .collect()
    }

    fn display(&self) -> String {
        self.to_fen()
    }

    fn parse_move(&self, text: &str, _config: &()) -> Result<ToyMove, GameError> {
        parse_toy_move(self, text)
    }

    fn format_move(&self, m: ToyMove, _config: &()) -> String {
        m.0.to_string()
    }
}

// ---------------------------------------------------------------------------------------------
// Connect four on a 7x6 board: a tree far too large to finish, for limit tests.

/// Connect four; column-major bitboards with 7 bits per column (one sentinel).
#[derive(Clone, Debug)]
pub struct Connect4 {
    boards: [u64; 2],
    heights: [u8; 7],
    pub to_move: usize,
    moves: u32,
}

impl Connect4 {
    pub fn new() -> Self {
        Connect4 {
            boards: [0; 2],
            heights: [0; 7],
            to_move: 0,
            moves: 0,
        }
    }

    fn four(b: u64) -> bool {
        [1u32, 7, 6, 8].iter().any(|&d| {
            let m = b & (b >> d);
            m & (m >> (2 * d)) != 0
        })
    }
}

impl Default for Connect4 {
    fn default() -> Self {
        Connect4::new()
    }
}

impl Rules for Connect4 {
    type Move = ToyMove;
    type MoveList = MoveList<ToyMove, 7>;
    type Config = ();
    const NAME: &'static str = "connect4";

    fn startpos(_config: &()) -> Self {
        Connect4::new()
    }

    fn num_players(&self) -> usize {
        2
    }

    fn side_to_move(&self) -> usize {
        self.to_move
    }

    fn generate_moves(&self, list: &mut Self::MoveList) {
        list.clear_moves();
        if Self::four(self.boards[self.to_move ^ 1]) {
            return;
        }
        for col in [3u8, 2, 4, 1, 5, 0, 6] {
            if self.heights[usize::from(col)] < 6 {
                list.push_move(ToyMove(col));
            }
        }
    }

    fn make_move(&mut self, m: ToyMove) {
        let col = usize::from(m.0);
        self.boards[self.to_move] |= 1u64 << (col * 7 + usize::from(self.heights[col]));
        self.heights[col] += 1;
        self.to_move ^= 1;
        self.moves += 1;
    }

    fn undo_move(&mut self, m: ToyMove) {
        let col = usize::from(m.0);
        self.to_move ^= 1;
        self.heights[col] -= 1;
        self.boards[self.to_move] &= !(1u64 << (col * 7 + usize::from(self.heights[col])));
        self.moves -= 1;
    }

    fn hash(&self) -> u64 {
        mix(self.boards[0].wrapping_mul(0x1F3D_5B79) ^ mix(self.boards[1]) ^ self.to_move as u64)
    }

    fn in_check(&self) -> bool {
        false
    }

    fn rule_outcome(&self) -> Option<Outcome> {
        let last = self.to_move ^ 1;
        if Self::four(self.boards[last]) {
            Some(Outcome::Win(last))
        } else if self.moves == 42 {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn no_moves_outcome(&self) -> Outcome {
        Outcome::Draw
    }
}

impl Notation for Connect4 {
    fn from_fen(fen: &str, config: &()) -> Result<Self, GameError> {
        let mut c = Connect4::new();
        for ch in fen.trim().chars() {
            let m = c.parse_move(&ch.to_string(), config)?;
            c.make_move(m);
        }
        Ok(c)
    }

    fn to_fen(&self) -> String {
        format!("{:?}", self.boards)
    }

    fn display(&self) -> String {
        self.to_fen()
    }

    fn parse_move(&self, text: &str, _config: &()) -> Result<ToyMove, GameError> {
        parse_toy_move(self, text)
    }

    fn format_move(&self, m: ToyMove, _config: &()) -> String {
        m.0.to_string()
    }
}

// ---------------------------------------------------------------------------------------------
// References.

/// A value seen from the root as `ply` plies deeper: mate distances grow by `ply`.
fn at_ply(v: i32, ply: i32) -> i32 {
    if v > MATE / 2 {
        v - ply
    } else if v < -MATE / 2 {
        v + ply
    } else {
        v
    }
}

/// Exact two-player negamax value with mate distances (`MATE - plies` for a win), memoised by
/// hash (the toy hashes are collision-free).
pub fn negamax_reference<G: Rules>(pos: &mut G, ply: i32, memo: &mut HashMap<u64, i32>) -> i32 {
    if let Some(&v) = memo.get(&pos.hash()) {
        return at_ply(v, ply);
    }
    let stm = pos.side_to_move();
    let score_of = |o: Outcome| match o {
        Outcome::Draw => 0,
        Outcome::Win(p) if p == stm => MATE,
        Outcome::Win(_) => -MATE,
    };
    // Value as if this node were the root (ply 0).
    let v = if let Some(o) = pos.rule_outcome() {
        score_of(o)
    } else {
        let mut list = G::MoveList::default();
        pos.generate_moves(&mut list);
        if list.moves().is_empty() {
            score_of(pos.no_moves_outcome())
        } else {
            let mut best = i32::MIN;
            for &m in list.moves() {
                pos.make_move(m);
                let v = -negamax_reference(pos, 1, memo);
                pos.undo_move(m);
                best = best.max(v);
            }
            best
        }
    };
    memo.insert(pos.hash(), v);
    at_ply(v, ply)
}

/// Exact paranoid value for the root player `root` (who maximises; everyone else minimises),
/// with mate distances, memoised by hash for this root player.
pub fn paranoid_reference<G: Rules>(
    pos: &mut G,
    root: usize,
    ply: i32,
    memo: &mut HashMap<u64, i32>,
) -> i32 {
    if let Some(&v) = memo.get(&pos.hash()) {
        return at_ply(v, ply);
    }
    let score_of = |o: Outcome| match o {
        Outcome::Draw => 0,
        Outcome::Win(p) if p == root => MATE,
        Outcome::Win(_) => -MATE,
    };
    let v = if let Some(o) = pos.rule_outcome() {
        score_of(o)
    } else {
        let mut list = G::MoveList::default();
        pos.generate_moves(&mut list);
        if list.moves().is_empty() {
            score_of(pos.no_moves_outcome())
        } else {
            let maximise = pos.side_to_move() == root;
            let mut best = if maximise { i32::MIN } else { i32::MAX };
            for &m in list.moves() {
                pos.make_move(m);
                let v = paranoid_reference(pos, root, 1, memo);
                pos.undo_move(m);
                best = if maximise { best.max(v) } else { best.min(v) };
            }
            best
        }
    };
    memo.insert(pos.hash(), v);
    at_ply(v, ply)
}

/// Every position reachable from `start` (not past the end of the game), deduplicated.
pub fn reachable<G: Rules>(start: &G, limit: usize) -> Vec<G> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut stack = vec![start.clone()];
    while let Some(p) = stack.pop() {
        if out.len() >= limit || !seen.insert(p.hash()) {
            continue;
        }
        if p.rule_outcome().is_some() {
            continue;
        }
        let mut list = G::MoveList::default();
        p.generate_moves(&mut list);
        for &m in list.moves() {
            let mut c = p.clone();
            c.make_move(m);
            stack.push(c);
        }
        out.push(p);
    }
    out
}
