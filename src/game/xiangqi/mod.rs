//! Xiangqi (Chinese chess): board, legal moves, make/undo, Zobrist hashing, FEN, ICCS moves,
//! the repetition rules (perpetual check and perpetual chase lose) and the evaluation.
//!
//! Red is side 0 (upper case, `w` in FEN), Black is side 1.
//!
//! Files: [`board`] (mailbox, tables, attack test), `movegen` (legal generation), `fen`,
//! `iccs` (move text), [`zobrist`], `rules` (repetition and move limit), `chase` (the chase rule), `eval`.

pub mod board;
mod chase;
pub mod eval;
mod fen;
mod iccs;
mod movegen;
pub mod nnue;
mod rules;
mod see;
pub mod zobrist;

use std::fmt::Write as _;

use crate::game::setup::{SetupInfo, SetupOption};
use crate::game::{
    Evaluation, GameError, GameMove, MoveList, Notation, Outcome, Records, Rules, SearchHints,
    Value,
};
use crate::tune::{OptionType, Param};
use board::{Square, EMPTY, OFF, SLOT_KING};

/// The start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// The xiangqi setup.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct XiangqiConfig {
    /// Read and write ranks 1-10 (Fairy-Stockfish convention) instead of ICCS 0-9.
    pub ranks_from_one: bool,
}

/// The xiangqi setup options.
const SETUP: &[SetupOption<XiangqiConfig>] = &[SetupOption {
    info: SetupInfo {
        uci_name: Some("Xiangqi Ranks"),
        ucci_name: Some("xiangqiranks"),
        flag: "ranks",
        kind: OptionType::Combo {
            default: "0-9",
            vars: &["0-9", "1-10"],
        },
        resets_position: false,
    },
    apply: |c, v| c.ranks_from_one = v == "1-10",
    value: |c| if c.ranks_from_one { "1-10" } else { "0-9" }.to_string(),
}];

/// The xiangqi positions of `sanqi bench`: the start, two middlegames and an ending.
const BENCH_POSITIONS: &[&str] = &[
    START_FEN,
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
];

/// A move: origin square in the high byte, destination in the low byte (mailbox squares, see
/// [`board`]). `Move::default()` (0) is no move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Move(u16);

impl Move {
    /// The move from `from` to `to`.
    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(((from as u16) << 8) | to as u16)
    }
    /// The origin square.
    #[inline(always)]
    pub const fn from(self) -> Square {
        (self.0 >> 8) as u8
    }
    /// The destination square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        self.0 as u8
    }
}

impl GameMove for Move {
    fn to_bits(self) -> u16 {
        self.0
    }
    fn from_bits(bits: u16) -> Self {
        Move(bits)
    }
}

/// Capacity of a move list. Bound on the pseudo-legal moves of one side (legal moves are a
/// subset): 2 chariots x 17 (8 along the rank and 9 along the file), 2 cannons x 17,
/// 2 horses x 8, 2 elephants x 4, 2 advisors x 4, the general 4 and 5 soldiers x 3 make
/// 119 <= 128. (Real positions have far fewer; the bound only has to be safe.)
pub const MAX_MOVES: usize = 128;

/// The move list of xiangqi.
pub type XiangqiMoveList = MoveList<Move, MAX_MOVES>;

/// What make/undo and the repetition rules need to know about one position of the game.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct State {
    /// Zobrist key (side to move included).
    hash: u64,
    /// The piece captured by the move that led here (EMPTY if none).
    captured: u8,
    /// The piece-list slot the captured piece occupied.
    captured_slot: u8,
    /// Whether the side to move is in check.
    in_check: bool,
    /// Plies since the last capture (the 120-ply limit).
    rule60: u16,
    /// Plies since the last capture or null move: how far back a repetition can reach. It
    /// saturates at 255, which is harmless: 120 plies without a capture end the game anyway.
    /// (A `u8` keeps `State` at 16 bytes with the move below.)
    repetition_window: u8,
    /// The move that led here (`Move::default()` at the root and after a null move): the
    /// chase rule replays a repeated cycle from it.
    last_move: Move,
}

// Every make_move pushes a `State`: keep it at 16 bytes (the chase rule's `last_move` fits
// because `repetition_window` is a byte), which measured as fast as before the chase rule.
const _: () = assert!(std::mem::size_of::<State>() == 16);

/// A xiangqi position with its history (make/undo stack).
#[derive(Clone, Debug)]
pub struct Xiangqi {
    /// Piece codes on the padded mailbox. (Boxed, like `slot`, so that `AnyGame` stays small;
    /// the extra indirection did not show in perft.)
    board: Box<[u8; 256]>,
    /// For each occupied square, the slot of its piece in `pieces[side]`.
    slot: Box<[u8; 256]>,
    /// Piece lists: the square of each slot (0 = no piece), see [`board::slot_range`].
    pieces: [[u8; board::SLOTS]; 2],
    /// Side to move (0 = Red, 1 = Black).
    side: usize,
    /// The current state.
    st: State,
    /// The states of the earlier positions, oldest first.
    history: Vec<State>,
    /// Full-move number of the root position (for `to_fen`).
    root_fullmove: u32,
    /// Side to move at the root position.
    root_side: usize,
    /// The network's accumulators of this position and the ones before it in the search
    /// (`None` outside a search with `Use NNUE`).
    nnue: Option<Box<crate::nnue::AccumulatorStack>>,
}

impl Xiangqi {
    /// Parses a FEN (see [`Notation::from_fen`]).
    pub fn parse_fen(fen: &str) -> Result<Xiangqi, GameError> {
        fen::parse(fen)
    }

    /// The piece code on a square (0 = empty).
    pub fn piece_at(&self, s: Square) -> u8 {
        self.board[s as usize]
    }

    /// The square of the general of `side`.
    #[inline(always)]
    pub fn king_square(&self, side: usize) -> Square {
        self.pieces[side][SLOT_KING]
    }

    /// Plies since the last capture.
    pub fn plies_since_capture(&self) -> u32 {
        u32::from(self.st.rule60)
    }

    /// The squares of the pieces giving check.
    pub fn checkers(&self) -> Vec<Square> {
        board::checkers(&self.board, self.king_square(self.side), self.side)
    }

    /// Number of plies played since the root position.
    pub fn game_ply(&self) -> usize {
        self.history.len()
    }

    fn compute_in_check(&self) -> bool {
        board::attacked(&self.board, self.king_square(self.side), self.side)
    }

    /// Builds the position from placed pieces; used by the FEN reader.
    fn from_parts(
        board: [u8; 256],
        slot: [u8; 256],
        pieces: [[u8; board::SLOTS]; 2],
        side: usize,
        rule60: u16,
        fullmove: u32,
    ) -> Xiangqi {
        let mut hash = if side == 1 { zobrist::SIDE } else { 0 };
        for s in 0..=255u8 {
            let p = board[s as usize];
            if p != EMPTY && p != OFF {
                hash ^= zobrist::piece_key(p, s);
            }
        }
        let mut pos = Xiangqi {
            board: Box::new(board),
            slot: Box::new(slot),
            pieces,
            side,
            st: State {
                hash,
                rule60,
                ..State::default()
            },
            history: Vec::with_capacity(256),
            root_fullmove: fullmove,
            root_side: side,
            nnue: None,
        };
        pos.st.in_check = pos.compute_in_check();
        pos
    }

    /// Recomputes the Zobrist key from scratch (for tests of the incremental key).
    pub fn compute_hash(&self) -> u64 {
        let mut hash = if self.side == 1 { zobrist::SIDE } else { 0 };
        for s in 0..=255u8 {
            let p = self.board[s as usize];
            if p != EMPTY && p != OFF {
                hash ^= zobrist::piece_key(p, s);
            }
        }
        hash
    }

    /// Perft without the trait's generic frame (same generation and make/undo).
    fn perft_inner(&mut self, depth: u32) -> u64 {
        if depth <= 1 {
            return u64::from(movegen::count_moves(self));
        }
        let mut list = XiangqiMoveList::new();
        movegen::generate::<true>(self, &mut list);
        let mut nodes = 0;
        for &m in list.iter() {
            self.make_move(m);
            nodes += self.perft_inner(depth - 1);
            self.undo_move(m);
        }
        nodes
    }
}

impl std::str::FromStr for Xiangqi {
    type Err = GameError;

    /// Parses a FEN, like [`Notation::from_fen`].
    fn from_str(fen: &str) -> Result<Self, GameError> {
        fen::parse(fen)
    }
}

impl std::fmt::Display for Xiangqi {
    /// Writes the FEN, like [`Notation::to_fen`].
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&fen::write(self))
    }
}

impl Rules for Xiangqi {
    type Move = Move;
    type MoveList = XiangqiMoveList;
    type Config = XiangqiConfig;
    const NAME: &'static str = "xiangqi";
    const SETUP: &'static [SetupOption<XiangqiConfig>] = SETUP;

    fn startpos(_config: &XiangqiConfig) -> Self {
        match fen::parse(START_FEN) {
            Ok(p) => p,
            Err(e) => panic!("the start FEN is valid: {e}"),
        }
    }

    fn num_players(&self) -> usize {
        2
    }

    fn side_to_move(&self) -> usize {
        self.side
    }

    fn generate_moves(&self, list: &mut Self::MoveList) {
        movegen::generate::<true>(self, list);
    }

    #[inline]
    fn make_move(&mut self, m: Move) {
        let from = m.from();
        let to = m.to();
        let piece = self.board[from as usize];
        let captured = self.board[to as usize];
        let us = self.side;
        let hash = self.key_after(m);
        self.nnue_push(m, piece, captured);
        let mut captured_slot = 0;
        if captured != EMPTY {
            captured_slot = self.slot[to as usize];
            self.pieces[us ^ 1][(captured_slot & 15) as usize] = 0;
        }
        let s = self.slot[from as usize];
        self.slot[to as usize] = s;
        self.pieces[us][(s & 15) as usize] = to;
        self.board[to as usize] = piece;
        self.board[from as usize] = EMPTY;
        self.side = us ^ 1;
        self.history.push(self.st);
        let (rule60, window) = if captured != EMPTY {
            (0, 0)
        } else {
            (
                self.st.rule60.saturating_add(1),
                self.st.repetition_window.saturating_add(1),
            )
        };
        self.st = State {
            hash,
            captured,
            captured_slot,
            in_check: false,
            rule60,
            repetition_window: window,
            last_move: m,
        };
        self.st.in_check = self.compute_in_check();
    }

    #[inline]
    fn undo_move(&mut self, m: Move) {
        let Some(prev) = self.history.pop() else {
            return;
        };
        if let Some(stack) = self.nnue.as_mut() {
            stack.pop();
        }
        let from = m.from();
        let to = m.to();
        let them = self.side;
        let us = them ^ 1;
        let piece = self.board[to as usize];
        let s = self.slot[to as usize];
        self.board[from as usize] = piece;
        self.slot[from as usize] = s;
        self.pieces[us][(s & 15) as usize] = from;
        let captured = self.st.captured;
        self.board[to as usize] = captured;
        if captured != EMPTY {
            let cs = self.st.captured_slot;
            self.slot[to as usize] = cs;
            self.pieces[them][(cs & 15) as usize] = to;
        }
        self.side = us;
        self.st = prev;
    }

    fn make_null_move(&mut self) {
        self.history.push(self.st);
        self.st = State {
            hash: self.st.hash ^ zobrist::SIDE,
            captured: EMPTY,
            captured_slot: 0,
            in_check: false,
            rule60: self.st.rule60.saturating_add(1),
            repetition_window: 0,
            last_move: Move::default(),
        };
        self.side ^= 1;
    }

    fn undo_null_move(&mut self) {
        if let Some(prev) = self.history.pop() {
            self.st = prev;
            self.side ^= 1;
        }
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.st.hash
    }

    #[inline]
    fn in_check(&self) -> bool {
        self.st.in_check
    }

    fn rule_outcome(&self) -> Option<Outcome> {
        rules::rule_outcome(self)
    }

    fn no_moves_outcome(&self) -> Outcome {
        // Checkmate and stalemate both lose for the side to move.
        Outcome::Win(self.side ^ 1)
    }

    fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.perft_inner(depth)
    }
}

impl Notation for Xiangqi {
    const FEN_RANKS: usize = 10;

    fn from_fen(fen: &str, _config: &XiangqiConfig) -> Result<Self, GameError> {
        fen::parse(fen)
    }

    fn to_fen(&self) -> String {
        fen::write(self)
    }

    fn display(&self) -> String {
        let mut out = String::new();
        out.push_str("   +-------------------+\n");
        for rank in (0..10u8).rev() {
            let _ = write!(out, " {rank} |");
            for file in 0..9u8 {
                let p = self.board[board::square(file, rank) as usize];
                let c = if p == EMPTY { '.' } else { fen::piece_char(p) };
                let _ = write!(out, " {c}");
            }
            out.push_str(" |\n");
            if rank == 5 {
                out.push_str("   |~~~~~~~~~~~~~~~~~~~|\n");
            }
        }
        out.push_str("   +-------------------+\n");
        out.push_str("     a b c d e f g h i\n\n");
        let _ = writeln!(out, "Fen: {}", self.to_fen());
        let _ = writeln!(out, "Key: {:016X}", self.hash());
        let checkers: Vec<String> = self.checkers().into_iter().map(iccs::square_name).collect();
        let _ = write!(out, "Checkers: {}", checkers.join(" "));
        out
    }

    fn player_name(&self, player: usize) -> String {
        if player == 0 { "red" } else { "black" }.to_string()
    }

    fn parse_move(&self, text: &str, config: &XiangqiConfig) -> Result<Move, GameError> {
        iccs::parse_move(self, text, config.ranks_from_one)
    }

    fn format_move(&self, m: Move, config: &XiangqiConfig) -> String {
        iccs::format_move(m, config.ranks_from_one)
    }
}

impl Evaluation for Xiangqi {
    const PARAMS: &'static [&'static Param] = eval::PARAMS;
    const WDL: Option<&'static crate::game::wdl::WdlModel> = Some(&crate::game::wdl::WdlModel {
        weights: &[
            ('r', 9.0),
            ('n', 4.0),
            ('h', 4.0),
            ('c', 5.0),
            ('p', 1.0),
            ('a', 2.0),
            ('b', 2.0),
            ('e', 2.0),
        ],
        lo: 14.0,
        hi: 98.0,
        reference: 98.0,
        // Fitted to 387,450 positions of 3,000 self-play games (docs/wdl/README.md).
        a: [-458.943, 1245.31, -1142.01, 400.535],
        b: [-54.0604, 93.7107, -43.5670, 56.7115],
    });

    /// The network's evaluation while `Use NNUE` is on (kept within +-10000), else the
    /// hand-written one.
    fn evaluate(&self) -> Value {
        match self.nnue_evaluate() {
            Some(v) => v.clamp(-10_000, 10_000),
            None => eval::evaluate(self),
        }
    }

    fn nnue() -> Option<&'static crate::nnue::NetSlot> {
        Some(&nnue::NET)
    }

    fn nnue_features(&self, out: &mut Vec<crate::nnue::Feature>) {
        out.extend(self.features());
    }

    fn prepare_search(&mut self) {
        self.set_network(nnue::NET.active());
    }

    fn eval_terms(&self) -> Vec<(String, Value)> {
        eval::eval_terms(self)
    }
}

impl Xiangqi {
    /// The key after the legal move `m` (what [`Rules::make_move`] sets).
    #[inline]
    pub(crate) fn key_after(&self, m: Move) -> u64 {
        let (from, to) = (m.from(), m.to());
        let piece = self.board[from as usize];
        let captured = self.board[to as usize];
        let hash = self.st.hash
            ^ zobrist::SIDE
            ^ zobrist::piece_key(piece, from)
            ^ zobrist::piece_key(piece, to);
        if captured != EMPTY {
            hash ^ zobrist::piece_key(captured, to)
        } else {
            hash
        }
    }
}

impl SearchHints for Xiangqi {
    const SEARCH_LABEL: &'static str = "Xiangqi";

    // Measured in groups at 20,000 nodes (docs/search.md): the pruning group lost 81 Elo here,
    // the ordering and correction/NMP groups were even; those are off in xiangqi. Losing
    // captures last and capture history came back on with the swap-list exchange test (issue 32).
    const SEARCH_DEFAULTS: &'static [(&'static str, i32)] = &[
        ("Use SEE Pruning", 0),
        ("Use Razoring", 0),
        ("Use History Pruning", 0),
        ("Use Correction History", 0),
        ("NMP Eval Divisor", 0),
        ("Use Late Checks", 1),
    ];

    const BENCH_POSITIONS: &'static [&'static str] = BENCH_POSITIONS;
    const BENCH_DEPTH: u32 = 10;

    fn generate_noisy(&self, list: &mut Self::MoveList) {
        movegen::generate::<false>(self, list);
    }

    fn is_noisy(&self, m: Move) -> bool {
        let p = self.board[m.to() as usize];
        p != EMPTY && p != OFF
    }

    fn structure_key(&self) -> Option<u64> {
        let mut key = 0u64;
        for (side, pieces) in self.pieces.iter().enumerate() {
            for &sq in &pieces[board::SLOT_PAWN..board::SLOTS] {
                if sq != 0 {
                    // Order-free: the same soldiers on the same squares give the same key.
                    let cell = (side as u64) << 8 | u64::from(sq);
                    key ^= (cell + 1)
                        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                        .rotate_left(31);
                }
            }
        }
        Some(key)
    }

    fn piece_keys(&self) -> Option<[u64; 2]> {
        let key = |side: usize| {
            let mut k = 0u64;
            for (slot, &sq) in self.pieces[side][..board::SLOT_PAWN].iter().enumerate() {
                if sq != 0 {
                    // Order-free within a kind: the kind, not the slot, names the piece.
                    let kind = [
                        board::SLOT_ADVISOR,
                        board::SLOT_ELEPHANT,
                        board::SLOT_HORSE,
                        board::SLOT_ROOK,
                        board::SLOT_CANNON,
                    ]
                    .iter()
                    .filter(|&&first| slot >= first)
                    .count() as u64;
                    k ^= ((kind << 8 | u64::from(sq)) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                }
            }
            crate::game::mix_key(k)
        };
        Some([key(0), key(1)])
    }

    fn draw_clock(&self) -> Option<(u32, u32)> {
        Some((self.plies_since_capture(), 120))
    }

    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        see::see_ge(self, m, threshold)
    }

    /// Read through the move on the board as it stands: the other general attacked once the
    /// piece has moved (a direct check, a discovered one, or a screen made for a cannon).
    fn key_after(&self, m: Move) -> Option<u64> {
        Some(Xiangqi::key_after(self, m))
    }

    fn gives_check(&self, m: Move) -> Option<bool> {
        let them = self.side ^ 1;
        Some(board::attacked_after(
            &self.board,
            m.from(),
            m.to(),
            self.king_square(them),
            them,
        ))
    }

    /// The legal non-captures that give check, each read through the move ([`Self::gives_check`]).
    fn push_quiet_checks(&self, list: &mut Self::MoveList) {
        let mut all = XiangqiMoveList::new();
        movegen::generate::<true>(self, &mut all);
        for &m in &all {
            if self.board[m.to() as usize] == EMPTY && self.gives_check(m) == Some(true) {
                // Never full: the quiet checks and the captures already listed are legal moves.
                let _ = list.try_push(m);
            }
        }
    }

    fn noisy_order(&self, m: Move) -> i32 {
        let victim = self.board[m.to() as usize];
        let attacker = self.board[m.from() as usize];
        eval::mvv_lva(victim, attacker)
    }

    fn can_null_move(&self) -> bool {
        !self.st.in_check && eval::has_attackers(self, self.side)
    }

    fn search_outcome(&self, plies_from_root: usize, twofold: bool) -> Option<Outcome> {
        rules::rule_outcome_within(self, if twofold { plies_from_root } else { 0 })
    }
}

impl Records for Xiangqi {
    fn outcome_reason(&self, outcome: Outcome) -> String {
        if self.rule_outcome().is_some() {
            rules::reason(self, outcome).to_string()
        } else if self.in_check() {
            "by checkmate".to_string()
        } else {
            "by stalemate (no legal move loses)".to_string()
        }
    }

    /// ICCS as XiangQi Wizard writes records: `H2-E2`.
    fn record_move(&self, m: Move, _config: &XiangqiConfig) -> String {
        let text = iccs::format_move(m, false).to_ascii_uppercase();
        let (from, to) = text.split_at(2);
        format!("{from}-{to}")
    }

    fn record_tags(_config: &XiangqiConfig) -> Vec<(&'static str, String)> {
        vec![
            ("Variant", Self::NAME.to_string()),
            ("Format", "ICCS".to_string()),
        ]
    }
}
