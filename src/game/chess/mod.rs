//! Chess and Chess960: bitboards with magic slider attacks, legal move generation with pin and
//! check masks, make/undo with incremental Zobrist keys, FEN (X-FEN, Shredder-FEN) and UCI moves.
//!
//! Sides: White = 0, Black = 1. Castling is stored as king-takes-own-rook, so standard chess
//! and Chess960 share one code path; [`ChessConfig::chess960`] only changes how castling is written.

pub mod attacks;
pub mod bitboard;
mod board;
mod chess960;
pub mod eval;
mod fen;
mod movegen;
pub mod nnue;
mod perft;
pub mod polyglot;
mod polyglot_keys;
mod san;
mod see;
pub mod syzygy;
pub mod tables;
pub mod types;
mod zobrist;

pub use board::Chess;
pub use chess960::chess960_fen;
pub use movegen::ChessMoveList;
pub use types::Move;

use bitboard::{file_of, parse_square, square_name, LIGHT_SQUARES};
use board::castle_targets;
use types::*;

use crate::game::setup::{flag_value, SetupInfo, SetupOption};
use crate::game::{Evaluation, GameError, Notation, Outcome, Records, Rules, SearchHints, Value};
use crate::tune::{OptionType, Param};

/// The standard start position.
pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The network's evaluation is kept within +-this, well clear of mate scores.
const NNUE_BOUND: Value = 10_000;

/// Odd multipliers of each kind's bitboard in [`SearchHints::piece_keys`] (the pawn's unused).
const PIECE_KEY_MULTIPLIERS: [u64; 6] = [
    0x9E37_79B9_7F4A_7C15,
    0xC2B2_AE3D_27D4_EB4F,
    0x1656_67B1_9E37_79F9,
    0x85EB_CA77_C2B2_AE63,
    0x27D4_EB2F_1656_67C5,
    0xFF51_AFD7_ED55_8CCD,
];

/// The chess setup.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChessConfig {
    /// Write castling as king-takes-rook (`e1h1`) instead of `e1g1` (`UCI_Chess960`). Both are
    /// read; positions with Chess960 castling rights are read in either mode.
    pub chess960: bool,
}

/// The chess setup options.
const SETUP: &[SetupOption<ChessConfig>] = &[SetupOption {
    info: SetupInfo {
        uci_name: Some("UCI_Chess960"),
        ucci_name: None,
        flag: "chess960",
        kind: OptionType::Check { default: false },
        resets_position: false,
    },
    apply: |c, v| c.chess960 = flag_value(v),
    value: |c| c.chess960.to_string(),
}];

/// The chess positions of `sanqi bench`: the start, Kiwipete, perft positions 3 to 6, and a
/// pawn ending.
const BENCH_POSITIONS: &[&str] = &[
    STARTPOS,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1",
];

impl Chess {
    /// Halfmove clock (plies since the last capture or pawn move).
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// How many times the current position occurred before, within the reversible plies
    /// (same side to move, same pieces, castling rights and en-passant square).
    pub fn repetitions(&self) -> usize {
        self.earlier_occurrences().count()
    }

    /// Whether any position since the last capture or pawn move occurred twice (the current
    /// one included), as the root ranking by endgame tables asks.
    pub fn has_repeated(&self) -> bool {
        let limit = (self.halfmove.min(self.plies_from_null) as usize).min(self.history.len());
        let len = self.history.len();
        let mut keys: Vec<u64> = self.history[len - limit..].iter().map(|s| s.hash).collect();
        keys.push(self.hash);
        keys.sort_unstable();
        keys.windows(2).any(|w| w[0] == w[1])
    }

    /// How many plies back each earlier occurrence of the current position stands, nearest
    /// first, within the reversible plies.
    fn earlier_occurrences(&self) -> impl Iterator<Item = usize> + '_ {
        let limit = (self.halfmove.min(self.plies_from_null) as usize).min(self.history.len());
        let len = self.history.len();
        (4..=limit)
            .step_by(2)
            .filter(move |&d| self.history[len - d].hash == self.hash)
    }

    /// Draw by rule (insufficient material, fifty moves, threefold repetition); a position
    /// that repeats one of the last `path` plies counts as repeated three times already.
    fn outcome_by_rule(&self, path: usize) -> Option<Outcome> {
        if self.insufficient_material() {
            return Some(Outcome::Draw);
        }
        if self.halfmove >= 100 {
            if self.checkers != 0 && self.count_moves() == 0 {
                return None;
            }
            return Some(Outcome::Draw);
        }
        // A repeat inside the search path, or a second earlier occurrence (the third in all).
        self.earlier_occurrences()
            .enumerate()
            .any(|(count, d)| d <= path || count == 1)
            .then_some(Outcome::Draw)
    }

    /// Whether neither side can ever mate: no pawns, rooks or queens, and either at most one
    /// minor piece in all, or only bishops all standing on squares of one colour.
    pub fn insufficient_material(&self) -> bool {
        if self.by_kind[PAWN] | self.by_kind[ROOK] | self.by_kind[QUEEN] != 0 {
            return false;
        }
        let minors = self.by_kind[KNIGHT] | self.by_kind[BISHOP];
        if minors.count_ones() <= 1 {
            return true;
        }
        let bishops = self.by_kind[BISHOP];
        self.by_kind[KNIGHT] == 0 && (bishops & LIGHT_SQUARES == 0 || bishops & !LIGHT_SQUARES == 0)
    }

    /// Number of legal moves (counted without building a list).
    pub fn legal_move_count(&self) -> u64 {
        self.count_moves()
    }

    fn standard_castling_text(m: Move, config: &ChessConfig) -> bool {
        !config.chess960 && file_of(m.from()) == 4 && matches!(file_of(m.to()), 0 | 7)
    }
}

impl Rules for Chess {
    type Move = Move;
    type MoveList = ChessMoveList;
    type Config = ChessConfig;
    const NAME: &'static str = "chess";
    const SETUP: &'static [SetupOption<ChessConfig>] = SETUP;

    fn startpos(config: &ChessConfig) -> Self {
        match fen::parse(STARTPOS, config.chess960) {
            Ok(pos) => pos,
            Err(e) => unreachable!("the start position FEN is valid: {e}"),
        }
    }

    /// Chess960: the 960 start positions.
    fn start_positions(config: &ChessConfig) -> usize {
        if config.chess960 {
            960
        } else {
            1
        }
    }

    fn numbered_startpos(n: usize, config: &ChessConfig) -> Result<Self, GameError> {
        if config.chess960 {
            fen::parse(&chess960_fen(n as u32), true)
        } else {
            Ok(Self::startpos(config))
        }
    }

    fn num_players(&self) -> usize {
        2
    }

    fn side_to_move(&self) -> usize {
        self.side()
    }

    fn generate_moves(&self, list: &mut Self::MoveList) {
        list.clear();
        self.generate::<_, false>(list);
    }

    /// Plays a legal move; [`Move::NULL`] (`0000`) is played as a pass.
    #[inline]
    fn make_move(&mut self, m: Move) {
        self.do_move(m);
    }

    #[inline]
    fn undo_move(&mut self, m: Move) {
        self.undo(m);
    }

    fn make_null_move(&mut self) {
        self.do_null();
    }

    fn undo_null_move(&mut self) {
        self.undo_null();
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn in_check(&self) -> bool {
        self.checkers != 0
    }

    /// Insufficient material, threefold repetition (the current position seen twice before in
    /// the game history), and the 50-move rule: 100 plies without capture or pawn move draw,
    /// except when the side to move is checkmated (then `None`, and the mate decides).
    fn rule_outcome(&self) -> Option<Outcome> {
        self.outcome_by_rule(0)
    }

    fn no_moves_outcome(&self) -> Outcome {
        if self.checkers != 0 {
            Outcome::Win(self.side() ^ 1)
        } else {
            Outcome::Draw
        }
    }

    /// Perft through the same make/undo path as search, counting the last ply without
    /// building a list (see `perft.rs`).
    fn perft(&mut self, depth: u32) -> u64 {
        self.perft_nodes(depth)
    }
}

impl Notation for Chess {
    const FEN_RANKS: usize = 8;

    fn from_fen(fen: &str, config: &ChessConfig) -> Result<Self, GameError> {
        fen::parse(fen, config.chess960)
    }

    fn to_fen(&self) -> String {
        fen::write(self)
    }

    fn display(&self) -> String {
        let mut out = String::new();
        let sep = " +---+---+---+---+---+---+---+---+\n";
        out.push_str(sep);
        for rank in (0..8).rev() {
            for file in 0..8 {
                let p = self.piece_on(rank * 8 + file);
                let c = if p == NO_PIECE { ' ' } else { piece_char(p) };
                out.push_str(" | ");
                out.push(c);
            }
            out.push_str(&format!(" | {}\n", rank + 1));
            out.push_str(sep);
        }
        out.push_str("   a   b   c   d   e   f   g   h\n\n");
        out.push_str(&format!("Fen: {}\n", self.to_fen()));
        out.push_str(&format!("Key: {:016X}\n", self.hash));
        out.push_str(&format!("Checkers: {}", fen::square_list(self.checkers)));
        out
    }

    fn player_name(&self, player: usize) -> String {
        if player == 0 { "white" } else { "black" }.to_string()
    }

    /// Reads `e2e4`, `e7e8q` (promotion letter in either case), castling as king-to-destination
    /// (`e1g1`) or king-takes-rook (`e1h1`) in any mode, and `0000` (a pass; refused in check).
    fn parse_move(&self, text: &str, _config: &ChessConfig) -> Result<Move, GameError> {
        let t = text.trim();
        if t == "0000" {
            if self.checkers != 0 {
                return Err(GameError::new(
                    "null move 0000 is not allowed while the side to move is in check",
                ));
            }
            return Ok(Move::NULL);
        }
        let bad = || GameError::new(format!("move '{t}' is not in UCI form (e2e4, e7e8q)"));
        if !t.is_ascii() || !(t.len() == 4 || t.len() == 5) {
            return Err(bad());
        }
        let from = t.get(0..2).and_then(parse_square).ok_or_else(bad)?;
        let to = t.get(2..4).and_then(parse_square).ok_or_else(bad)?;
        let promo = match t.as_bytes().get(4).map(|b| b.to_ascii_lowercase()) {
            None => None,
            Some(b'q') => Some(QUEEN),
            Some(b'r') => Some(ROOK),
            Some(b'b') => Some(BISHOP),
            Some(b'n') => Some(KNIGHT),
            Some(_) => {
                return Err(GameError::new(format!(
                    "move '{t}': promotion piece must be one of q, r, b, n"
                )))
            }
        };
        let mut list = ChessMoveList::new();
        self.generate_moves(&mut list);
        let promo_ok = |m: Move| {
            if m.kind() == PROMOTION {
                promo == Some(m.promo())
            } else {
                promo.is_none()
            }
        };
        if let Some(&m) = list
            .iter()
            .find(|m| m.from() == from && m.to() == to && promo_ok(**m))
        {
            return Ok(m);
        }
        if let Some(&m) = list.iter().find(|m| {
            m.kind() == CASTLING
                && m.from() == from
                && castle_targets(m.from(), m.to()).0 == to
                && promo.is_none()
        }) {
            return Ok(m);
        }
        if promo.is_none()
            && list
                .iter()
                .any(|m| m.kind() == PROMOTION && m.from() == from && m.to() == to)
        {
            return Err(GameError::new(format!(
                "move '{t}' needs a promotion piece (q, r, b or n)"
            )));
        }
        Err(GameError::new(format!(
            "illegal move '{t}' in {}",
            self.to_fen()
        )))
    }

    /// Writes UCI text. Castling is `e1g1` unless `config.chess960` is on, then `e1h1`
    /// (king takes rook); a castling whose king or rook is not on a standard square is always
    /// written king-takes-rook, since the king-destination form can be ambiguous there.
    fn format_move(&self, m: Move, config: &ChessConfig) -> String {
        if m.is_null() {
            return "0000".to_string();
        }
        if m == Move::NONE {
            return "(none)".to_string();
        }
        let from = m.from();
        let mut to = m.to();
        if m.kind() == CASTLING && Chess::standard_castling_text(m, config) {
            to = castle_targets(from, to).0;
        }
        let mut s = square_name(from);
        s.push_str(&square_name(to));
        if m.kind() == PROMOTION {
            s.push(match m.promo() {
                KNIGHT => 'n',
                BISHOP => 'b',
                ROOK => 'r',
                _ => 'q',
            });
        }
        s
    }
}

impl Evaluation for Chess {
    fn probe_tables(&mut self, depth: i32) -> Option<i32> {
        tables::search_probe(self, depth)
    }

    fn rank_root_moves(
        &mut self,
        moves: &[Move],
    ) -> Option<(Vec<(i32, crate::game::TableScore)>, bool)> {
        tables::rank_root(self, moves)
    }

    fn tables_loaded() -> bool {
        tables::loaded()
    }

    fn table_line(&self) -> Option<String> {
        tables::describe(self)
    }

    const PARAMS: &'static [&'static Param] = eval::PARAMS;
    const WDL: Option<&'static crate::game::wdl::WdlModel> = Some(&crate::game::wdl::WdlModel {
        weights: &[('p', 1.0), ('n', 3.0), ('b', 3.0), ('r', 5.0), ('q', 9.0)],
        lo: 5.0,
        hi: 78.0,
        reference: 78.0,
        // Fitted to 350,860 positions of 4,000 self-play games with the generation-2 network
        // (docs/wdl/README.md).
        a: [-2545.51, 5254.84, -3481.58, 828.492],
        b: [-693.418, 1330.02, -750.818, 217.454],
    });

    /// The network's evaluation while `Use NNUE` is on (a draw by insufficient material is
    /// 0), else the hand-written one.
    fn evaluate(&self) -> Value {
        match self.nnue_evaluate() {
            Some(_) if self.insufficient_material() => 0,
            Some(v) => v.clamp(-NNUE_BOUND, NNUE_BOUND),
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

    /// The terms of the tapered hand-written evaluation (see `eval`), each from the side to
    /// move's view.
    fn eval_terms(&self) -> Vec<(String, Value)> {
        eval::eval_terms(self)
    }
}

impl SearchHints for Chess {
    const SEARCH_LABEL: &'static str = "Chess";
    // Measured under the generation-2 network (docs/search.md, issue 32): late quiet checks
    // are searched, singular moves extended (doubly where far above the rest), expected cut
    // nodes and quiet moves after a noisy table move reduced more, the histories' bonus linear in
    // the depth.
    const SEARCH_DEFAULTS: &'static [(&'static str, i32)] = &[
        ("Use Late Checks", 1),
        ("Use Singular", 1),
        ("Use Cut Node LMR", 1),
        ("Use TT Noisy LMR", 1),
        ("Use Double Extension", 1),
        ("History Bonus Slope", 256),
    ];
    const BENCH_POSITIONS: &'static [&'static str] = BENCH_POSITIONS;
    const BENCH_DEPTH: u32 = 13;

    /// Legal captures (en passant included) and promotions (all four pieces, quiet or not).
    /// In check this gives only the evasions that capture or promote: quiescence should use
    /// `generate_moves` when `in_check()`.
    fn generate_noisy(&self, list: &mut Self::MoveList) {
        list.clear();
        self.generate::<_, true>(list);
    }

    fn key_after(&self, m: Move) -> Option<u64> {
        Some(Chess::key_after(self, m))
    }

    fn gives_check(&self, m: Move) -> Option<bool> {
        Some(self.move_gives_check(m))
    }

    fn push_quiet_checks(&self, list: &mut Self::MoveList) {
        self.quiet_checks_into(list);
    }

    fn is_noisy(&self, m: Move) -> bool {
        match m.kind() {
            PROMOTION | EN_PASSANT => true,
            CASTLING => false,
            _ => !m.is_null() && self.piece_on(m.to()) != NO_PIECE,
        }
    }

    fn structure_key(&self) -> Option<u64> {
        let pawns = self.by_kind[PAWN];
        let white = pawns & self.by_side[WHITE];
        let black = pawns & self.by_side[BLACK];
        Some(
            (white.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F))
                .rotate_left(29),
        )
    }

    fn piece_keys(&self) -> Option<[u64; 2]> {
        let key = |side: usize| {
            let mut k = 0u64;
            let kinds = self.by_kind.iter().zip(PIECE_KEY_MULTIPLIERS);
            for (kind, (&of_kind, multiplier)) in kinds.enumerate().skip(KNIGHT) {
                let bb = of_kind & self.by_side[side];
                k ^= bb.wrapping_mul(multiplier).rotate_left(11 * kind as u32);
            }
            crate::game::mix_key(k)
        };
        Some([key(WHITE), key(BLACK)])
    }

    fn draw_clock(&self) -> Option<(u32, u32)> {
        Some((self.halfmove, 100))
    }

    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        self.static_exchange_ge(m, threshold)
    }

    /// MVV-LVA: the victim's value times 8 minus the attacker's kind; promotions add the value
    /// of the new piece.
    fn noisy_order(&self, m: Move) -> i32 {
        let attacker = kind_of(self.piece_on(m.from())) as i32;
        let victim = match m.kind() {
            EN_PASSANT => eval::VALUE[PAWN],
            CASTLING => 0,
            _ => {
                let p = self.piece_on(m.to());
                if p == NO_PIECE {
                    0
                } else {
                    eval::VALUE[kind_of(p)]
                }
            }
        };
        let promo = if m.kind() == PROMOTION {
            eval::VALUE[m.promo()] - eval::VALUE[PAWN]
        } else {
            0
        };
        (victim + promo) * 8 - attacker
    }

    fn can_null_move(&self) -> bool {
        let us = self.side();
        self.checkers == 0 && self.by_side[us] & !(self.by_kind[PAWN] | self.by_kind[KING]) != 0
    }

    fn search_outcome(&self, plies_from_root: usize, twofold: bool) -> Option<Outcome> {
        self.outcome_by_rule(if twofold { plies_from_root } else { 0 })
    }
}

impl Records for Chess {
    fn book_key(&self) -> Option<u64> {
        Some(polyglot::key(self))
    }

    fn book_move(&self, raw: u16) -> Option<Move> {
        polyglot::decode_move(self, raw)
    }

    fn table_outcome(&self, max_pieces: usize, ignore_move_rule: bool) -> Option<Outcome> {
        tables::adjudicate(self, max_pieces, ignore_move_rule)
    }

    fn outcome_reason(&self, outcome: Outcome) -> String {
        let reason = match outcome {
            Outcome::Win(_) => "by checkmate",
            Outcome::Draw if self.rule_outcome().is_none() => "by stalemate",
            Outcome::Draw if self.insufficient_material() => "by insufficient material",
            Outcome::Draw if self.halfmove >= 100 => "by the fifty-move rule",
            Outcome::Draw => "by threefold repetition",
        };
        reason.to_string()
    }

    fn record_move(&self, m: Move, _config: &ChessConfig) -> String {
        self.san(m)
    }

    /// Standard chess needs no tags; Chess960 is `[Variant "Chess960"]`.
    fn record_tags(config: &ChessConfig) -> Vec<(&'static str, String)> {
        if config.chess960 {
            vec![("Variant", "Chess960".to_string())]
        } else {
            Vec::new()
        }
    }

    fn record_needs_fen(start: &str, config: &ChessConfig) -> bool {
        config.chess960 || start != STARTPOS
    }
}
