//! The position: bitboards + mailbox, castling data, make/undo with incremental Zobrist keys.

use super::attacks::{
    sliders, KING as KING_ATTACKS, KNIGHT as KNIGHT_ATTACKS, PAWN as PAWN_ATTACKS,
};
use super::bitboard::{bit, file_of, lsb, Bitboard};
use super::types::*;
use super::zobrist;

// Castling rights are 4 bits, right index `2 * side + (queen side as usize)`:
// White king side, White queen side, Black king side, Black queen side.

/// Where the castling pieces stand and which squares each right needs (fixed at setup).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CastleInfo {
    /// Start square of the rook of each right.
    pub rook: [u8; 4],
    /// Start square of the king of each right.
    pub king: [u8; 4],
    /// Squares that must be empty (king and rook paths, the two castling pieces excluded).
    pub empty: [Bitboard; 4],
    /// Squares the king stands on or crosses, which must not be attacked.
    pub king_path: [Bitboard; 4],
    /// Rights lost when a move starts or ends on each square.
    pub mask: [u8; 64],
}

impl Default for CastleInfo {
    fn default() -> Self {
        CastleInfo {
            rook: [0; 4],
            king: [0; 4],
            empty: [0; 4],
            king_path: [0; 4],
            mask: [0; 64],
        }
    }
}

/// King and rook destination squares of a castling move from `king` to own rook on `rook`.
#[inline(always)]
pub const fn castle_targets(king: usize, rook: usize) -> (usize, usize) {
    let base = king & 56;
    if rook > king {
        (base + 6, base + 5)
    } else {
        (base + 2, base + 3)
    }
}

/// What `undo_move` needs to restore, and the key history used for repetition.
#[derive(Clone, Copy, Debug)]
pub struct State {
    pub hash: u64,
    pub checkers: Bitboard,
    pub halfmove: u32,
    pub plies_from_null: u32,
    pub castling: u8,
    pub ep: u8,
    pub captured: u8,
}

/// A chess position with its own make/undo history.
#[derive(Clone, Debug)]
pub struct Chess {
    pub(crate) by_kind: [Bitboard; 6],
    pub(crate) by_side: [Bitboard; 2],
    pub(crate) board: [u8; 64],
    pub(crate) stm: u8,
    pub(crate) castling: u8,
    pub(crate) ep: u8,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) plies_from_null: u32,
    pub(crate) hash: u64,
    pub(crate) checkers: Bitboard,
    /// Boxed: it is fixed after setup, and keeps `Chess` (and `AnyGame`) small.
    pub(crate) castle: Box<CastleInfo>,
    /// Write Shredder-FEN castling letters (set from `ChessConfig::chess960`).
    pub(crate) chess960: bool,
    pub(crate) history: Vec<State>,
    /// The network's accumulators of this position and the ones before it in the search
    /// (`None` outside a search with `Use NNUE`, so perft and the referee pay nothing; boxed, so
    /// that the position stays small).
    pub(crate) nnue: Option<Box<crate::nnue::AccumulatorStack>>,
}

impl Chess {
    /// An empty board (no pieces, White to move): the starting point of FEN parsing.
    pub(crate) fn empty() -> Chess {
        Chess {
            by_kind: [0; 6],
            by_side: [0; 2],
            board: [NO_PIECE; 64],
            stm: WHITE as u8,
            castling: 0,
            ep: NO_SQUARE,
            halfmove: 0,
            fullmove: 1,
            plies_from_null: 0,
            hash: 0,
            checkers: 0,
            castle: Box::default(),
            chess960: false,
            history: Vec::with_capacity(256),
            nnue: None,
        }
    }

    /// The side to move (White = 0, Black = 1).
    #[inline(always)]
    pub fn side(&self) -> usize {
        self.stm as usize
    }

    /// Pieces of one side and kind.
    #[inline(always)]
    pub fn pieces(&self, side: usize, kind: usize) -> Bitboard {
        self.by_kind[kind] & self.by_side[side]
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_side[0] | self.by_side[1]
    }

    /// The piece code on a square (`NO_PIECE` when empty).
    #[inline(always)]
    pub fn piece_on(&self, sq: usize) -> u8 {
        self.board[sq]
    }

    /// The king square of a side.
    #[inline(always)]
    pub fn king_square(&self, side: usize) -> usize {
        lsb(self.pieces(side, KING))
    }

    /// The pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    #[inline(always)]
    pub(crate) fn put(&mut self, sq: usize, p: u8) {
        let b = bit(sq);
        self.board[sq] = p;
        self.by_kind[kind_of(p)] |= b;
        self.by_side[side_of(p)] |= b;
    }

    #[inline(always)]
    fn remove(&mut self, sq: usize) {
        let p = self.board[sq];
        let b = bit(sq);
        self.by_kind[kind_of(p)] ^= b;
        self.by_side[side_of(p)] ^= b;
        self.board[sq] = NO_PIECE;
    }

    #[inline(always)]
    fn shift_piece(&mut self, from: usize, to: usize, p: u8) {
        let b = bit(from) | bit(to);
        self.by_kind[kind_of(p)] ^= b;
        self.by_side[side_of(p)] ^= b;
        self.board[from] = NO_PIECE;
        self.board[to] = p;
    }

    /// Every piece of both sides attacking `sq` with occupancy `occ`.
    #[inline(always)]
    pub fn attackers_to(&self, sq: usize, occ: Bitboard) -> Bitboard {
        let s = sliders();
        (PAWN_ATTACKS[WHITE][sq] & self.pieces(BLACK, PAWN))
            | (PAWN_ATTACKS[BLACK][sq] & self.pieces(WHITE, PAWN))
            | (KNIGHT_ATTACKS[sq] & self.by_kind[KNIGHT])
            | (KING_ATTACKS[sq] & self.by_kind[KING])
            | (s.bishop(sq, occ) & (self.by_kind[BISHOP] | self.by_kind[QUEEN]))
            | (s.rook(sq, occ) & (self.by_kind[ROOK] | self.by_kind[QUEEN]))
    }

    /// Whether `by` attacks `sq` with occupancy `occ`.
    #[inline(always)]
    pub fn attacked_by(&self, sq: usize, by: usize, occ: Bitboard) -> bool {
        let enemy = self.by_side[by];
        if (KNIGHT_ATTACKS[sq] & self.by_kind[KNIGHT]
            | PAWN_ATTACKS[by ^ 1][sq] & self.by_kind[PAWN]
            | KING_ATTACKS[sq] & self.by_kind[KING])
            & enemy
            != 0
        {
            return true;
        }
        let s = sliders();
        let diag = (self.by_kind[BISHOP] | self.by_kind[QUEEN]) & enemy;
        let orth = (self.by_kind[ROOK] | self.by_kind[QUEEN]) & enemy;
        (diag != 0 && s.bishop(sq, occ) & diag != 0) || (orth != 0 && s.rook(sq, occ) & orth != 0)
    }

    /// The pieces of the other side attacking the king of `side`.
    #[inline(always)]
    pub(crate) fn checkers_of(&self, side: usize) -> Bitboard {
        let ksq = self.king_square(side);
        let them = self.by_side[side ^ 1];
        let occ = self.occupied();
        let s = sliders();
        let diag = (self.by_kind[BISHOP] | self.by_kind[QUEEN]) & them;
        let orth = (self.by_kind[ROOK] | self.by_kind[QUEEN]) & them;
        let mut checkers = ((PAWN_ATTACKS[side][ksq] & self.by_kind[PAWN])
            | (KNIGHT_ATTACKS[ksq] & self.by_kind[KNIGHT]))
            & them;
        if diag != 0 {
            checkers |= s.bishop(ksq, occ) & diag;
        }
        if orth != 0 {
            checkers |= s.rook(ksq, occ) & orth;
        }
        checkers
    }

    /// Recomputes the checkers of the side to move from scratch.
    pub(crate) fn compute_checkers(&self) -> Bitboard {
        let ksq = self.king_square(self.side());
        self.attackers_to(ksq, self.occupied()) & self.by_side[self.side() ^ 1]
    }

    /// The Zobrist key computed from scratch (the incremental key must always equal it).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for sq in 0..64 {
            let p = self.board[sq];
            if p != NO_PIECE {
                h ^= zobrist::PIECE[p as usize][sq];
            }
        }
        h ^= zobrist::CASTLE[self.castling as usize];
        if self.ep != NO_SQUARE {
            h ^= zobrist::EP_FILE[file_of(self.ep as usize)];
        }
        if self.side() == BLACK {
            h ^= zobrist::SIDE;
        }
        h
    }

    fn save(&self, captured: u8) -> State {
        State {
            hash: self.hash,
            checkers: self.checkers,
            halfmove: self.halfmove,
            plies_from_null: self.plies_from_null,
            castling: self.castling,
            ep: self.ep,
            captured,
        }
    }

    fn restore(&mut self, st: &State) {
        self.hash = st.hash;
        self.checkers = st.checkers;
        self.halfmove = st.halfmove;
        self.plies_from_null = st.plies_from_null;
        self.castling = st.castling;
        self.ep = st.ep;
    }

    /// The key after the legal move `m`, but for castling rights lost and a new en-passant
    /// square (moves that change those get a key of their own: the table line loaded early is
    /// then not the one probed). [`Self::do_move`] starts from it and adds those two.
    #[inline]
    pub(crate) fn key_after(&self, m: Move) -> u64 {
        let mut hash = self.hash ^ zobrist::SIDE;
        if self.ep != NO_SQUARE {
            hash ^= zobrist::EP_FILE[file_of(self.ep as usize)];
        }
        if m.is_null() {
            return hash;
        }
        let (from, to) = (m.from(), m.to());
        let p = self.board[from];
        match m.kind() {
            CASTLING => {
                let (kto, rto) = castle_targets(from, to);
                let rook = self.board[to];
                hash ^ zobrist::PIECE[p as usize][from]
                    ^ zobrist::PIECE[p as usize][kto]
                    ^ zobrist::PIECE[rook as usize][to]
                    ^ zobrist::PIECE[rook as usize][rto]
            }
            EN_PASSANT => {
                let pawn = piece(self.side() ^ 1, PAWN);
                hash ^ zobrist::PIECE[pawn as usize][to ^ 8]
                    ^ zobrist::PIECE[p as usize][from]
                    ^ zobrist::PIECE[p as usize][to]
            }
            kind => {
                let captured = self.board[to];
                if captured != NO_PIECE {
                    hash ^= zobrist::PIECE[captured as usize][to];
                }
                let placed = if kind == PROMOTION {
                    piece(self.side(), m.promo())
                } else {
                    p
                };
                hash ^ zobrist::PIECE[p as usize][from] ^ zobrist::PIECE[placed as usize][to]
            }
        }
    }

    /// Plays a legal move (the null move passes).
    #[inline(always)]
    pub(crate) fn do_move(&mut self, m: Move) {
        if m.is_null() {
            self.do_null();
            return;
        }
        let us = self.side();
        let them = us ^ 1;
        let from = m.from();
        let to = m.to();
        let kind = m.kind();
        let captured = match kind {
            CASTLING => NO_PIECE,
            EN_PASSANT => piece(them, PAWN),
            _ => self.board[to],
        };
        self.history.push(self.save(captured));
        self.nnue_push(m, captured);

        // The pieces' keys, the side's and the old en-passant file's; the castling rights and a
        // new en-passant square are added below.
        let mut hash = self.key_after(m);
        self.ep = NO_SQUARE;
        self.halfmove += 1;
        self.plies_from_null += 1;

        if kind == CASTLING {
            let (kto, rto) = castle_targets(from, to);
            let king = piece(us, KING);
            let rook = piece(us, ROOK);
            self.remove(from);
            self.remove(to);
            self.put(kto, king);
            self.put(rto, rook);
        } else {
            let p = self.board[from];
            if captured != NO_PIECE {
                let capsq = if kind == EN_PASSANT { to ^ 8 } else { to };
                self.remove(capsq);
                self.halfmove = 0;
            }
            self.shift_piece(from, to, p);
            if kind_of(p) == PAWN {
                self.halfmove = 0;
                if to ^ from == 16 {
                    let epsq = (from + to) / 2;
                    if PAWN_ATTACKS[us][epsq] & self.pieces(them, PAWN) != 0 {
                        self.ep = epsq as u8;
                        hash ^= zobrist::EP_FILE[file_of(epsq)];
                    }
                } else if kind == PROMOTION {
                    let np = piece(us, m.promo());
                    self.remove(to);
                    self.put(to, np);
                }
            }
        }
        let lost = self.castle.mask[from] | self.castle.mask[to];
        if self.castling & lost != 0 {
            hash ^= zobrist::CASTLE[self.castling as usize];
            self.castling &= !lost;
            hash ^= zobrist::CASTLE[self.castling as usize];
        }
        self.stm = them as u8;
        if us == BLACK {
            self.fullmove += 1;
        }
        self.hash = hash;
        self.checkers = self.checkers_of(them);
    }

    /// Takes back `m`, the last move played.
    #[inline(always)]
    pub(crate) fn undo(&mut self, m: Move) {
        if m.is_null() {
            self.undo_null();
            return;
        }
        let Some(st) = self.history.pop() else {
            return;
        };
        if let Some(stack) = self.nnue.as_mut() {
            stack.pop();
        }
        let us = self.side() ^ 1;
        self.stm = us as u8;
        if us == BLACK {
            self.fullmove = self.fullmove.saturating_sub(1);
        }
        let from = m.from();
        let to = m.to();
        let kind = m.kind();
        if kind == CASTLING {
            let (kto, rto) = castle_targets(from, to);
            self.remove(kto);
            self.remove(rto);
            self.put(from, piece(us, KING));
            self.put(to, piece(us, ROOK));
        } else {
            if kind == PROMOTION {
                self.remove(to);
                self.put(to, piece(us, PAWN));
            }
            let p = self.board[to];
            self.shift_piece(to, from, p);
            if st.captured != NO_PIECE {
                let capsq = if kind == EN_PASSANT { to ^ 8 } else { to };
                self.put(capsq, st.captured);
            }
        }
        self.restore(&st);
    }

    /// Passes the turn.
    pub(crate) fn do_null(&mut self) {
        self.history.push(self.save(NO_PIECE));
        let mut hash = self.hash ^ zobrist::SIDE;
        if self.ep != NO_SQUARE {
            hash ^= zobrist::EP_FILE[file_of(self.ep as usize)];
            self.ep = NO_SQUARE;
        }
        self.hash = hash;
        self.halfmove += 1;
        self.plies_from_null = 0;
        if self.side() == BLACK {
            self.fullmove += 1;
        }
        self.stm ^= 1;
        self.checkers = self.compute_checkers();
    }

    /// Takes back a pass.
    pub(crate) fn undo_null(&mut self) {
        let Some(st) = self.history.pop() else {
            return;
        };
        self.stm ^= 1;
        if self.side() == BLACK {
            self.fullmove = self.fullmove.saturating_sub(1);
        }
        self.restore(&st);
    }
}
