//! Legal move generation with check and pin masks, into a list or as a bare count.
//!
//! One generator serves both: a [`Sink`] receives whole target bitboards, so counting at the
//! perft leaves is a popcount per piece instead of a push per move.

use super::attacks::{
    between, line, sliders, KING as KING_ATTACKS, KNIGHT as KNIGHT_ATTACKS, PAWN as PAWN_ATTACKS,
};
use super::bitboard::{
    bit, lsb, shift, Bitboard, Squares, FILE_A, FILE_H, RANK_1, RANK_3, RANK_6, RANK_8,
};
use super::board::Chess;
use super::types::*;

/// Receives generated moves.
pub(crate) trait Sink {
    /// Normal moves from `from` to every square of `targets`.
    fn piece_moves(&mut self, from: usize, targets: Bitboard);
    /// Normal pawn moves to every square of `targets`, each from `to - delta`.
    fn pawn_moves(&mut self, targets: Bitboard, delta: i32);
    /// The four promotions to every square of `targets`, each from `to - delta`.
    fn promotions(&mut self, targets: Bitboard, delta: i32);
    /// One move.
    fn push(&mut self, m: Move);
}

/// Counts moves.
pub(crate) struct Counter(pub u64);

impl Sink for Counter {
    #[inline(always)]
    fn piece_moves(&mut self, _from: usize, targets: Bitboard) {
        self.0 += u64::from(targets.count_ones());
    }
    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, _delta: i32) {
        self.0 += u64::from(targets.count_ones());
    }
    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, _delta: i32) {
        self.0 += 4 * u64::from(targets.count_ones());
    }
    #[inline(always)]
    fn push(&mut self, _m: Move) {
        self.0 += 1;
    }
}

/// The move list of chess. 218 legal moves is the most any reachable position is known to
/// have (R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1); 256 leaves room and is a
/// power of two.
pub type ChessMoveList = crate::game::MoveList<Move, 256>;

impl Sink for ChessMoveList {
    #[inline(always)]
    fn piece_moves(&mut self, from: usize, targets: Bitboard) {
        for to in Squares(targets) {
            arrayvec::ArrayVec::push(self, Move::new(from, to, NORMAL));
        }
    }
    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, delta: i32) {
        for to in Squares(targets) {
            arrayvec::ArrayVec::push(self, Move::new((to as i32 - delta) as usize, to, NORMAL));
        }
    }
    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, delta: i32) {
        for to in Squares(targets) {
            let from = (to as i32 - delta) as usize;
            for kind in [QUEEN, KNIGHT, ROOK, BISHOP] {
                arrayvec::ArrayVec::push(self, Move::promotion(from, to, kind));
            }
        }
    }
    #[inline(always)]
    fn push(&mut self, m: Move) {
        arrayvec::ArrayVec::push(self, m);
    }
}

impl Chess {
    /// Whether the legal move `m` gives check, decided without making it: the pieces of the
    /// side to move that attack the other king once the move is played (direct checks,
    /// discovered checks, promotions, en passant and castling rooks alike).
    pub(crate) fn move_gives_check(&self, m: Move) -> bool {
        let us = self.side();
        let them = us ^ 1;
        let ksq = self.king_square(them);
        let (from, to) = (m.from(), m.to());
        let own = self.by_side[us];
        let mut occ = self.occupied();
        let mut pawns = self.by_kind[PAWN] & own;
        let mut knights = self.by_kind[KNIGHT] & own;
        let mut diagonal = (self.by_kind[BISHOP] | self.by_kind[QUEEN]) & own;
        let mut orthogonal = (self.by_kind[ROOK] | self.by_kind[QUEEN]) & own;
        if m.kind() == CASTLING {
            let (kto, rto) = super::board::castle_targets(from, to);
            occ = (occ & !bit(from) & !bit(to)) | bit(kto) | bit(rto);
            orthogonal = (orthogonal & !bit(to)) | bit(rto);
        } else {
            let kind = if m.kind() == PROMOTION {
                m.promo()
            } else {
                kind_of(self.piece_on(from))
            };
            occ = (occ & !bit(from)) | bit(to);
            if m.kind() == EN_PASSANT {
                occ &= !bit(to ^ 8);
            }
            let moved = [&mut pawns, &mut knights, &mut diagonal, &mut orthogonal];
            for set in moved {
                *set &= !bit(from);
            }
            match kind {
                PAWN => pawns |= bit(to),
                KNIGHT => knights |= bit(to),
                BISHOP => diagonal |= bit(to),
                ROOK => orthogonal |= bit(to),
                QUEEN => {
                    diagonal |= bit(to);
                    orthogonal |= bit(to);
                }
                _ => {}
            }
        }
        let s = sliders();
        (PAWN_ATTACKS[them][ksq] & pawns) | (KNIGHT_ATTACKS[ksq] & knights) != 0
            || s.bishop(ksq, occ) & diagonal != 0
            || s.rook(ksq, occ) & orthogonal != 0
    }

    /// Pushes the legal quiet moves (not captures, en passant or promotions) that give check
    /// onto `list`, after what it holds.
    pub(crate) fn quiet_checks_into(&self, list: &mut ChessMoveList) {
        let mut all = ChessMoveList::new();
        self.generate::<_, false>(&mut all);
        for &m in all.iter() {
            let quiet = match m.kind() {
                PROMOTION | EN_PASSANT => false,
                CASTLING => true,
                _ => self.piece_on(m.to()) == NO_PIECE,
            };
            if quiet && self.move_gives_check(m) {
                let _ = list.try_push(m);
            }
        }
    }

    /// Pieces of `side` pinned to their own king.
    #[inline(always)]
    pub(crate) fn pinned(&self, side: usize, ksq: usize, occ: Bitboard) -> Bitboard {
        use super::attacks::{BISHOP_EMPTY, ROOK_EMPTY};
        let them = side ^ 1;
        let snipers = ((ROOK_EMPTY[ksq] & (self.by_kind[ROOK] | self.by_kind[QUEEN]))
            | (BISHOP_EMPTY[ksq] & (self.by_kind[BISHOP] | self.by_kind[QUEEN])))
            & self.by_side[them];
        let mut pinned = 0;
        for s in Squares(snipers) {
            let b = between(ksq, s) & occ;
            if b != 0 && b & (b - 1) == 0 {
                pinned |= b & self.by_side[side];
            }
        }
        pinned
    }

    /// Generates legal moves (all, or captures and promotions only when `NOISY`).
    #[inline(always)]
    pub(crate) fn generate<S: Sink, const NOISY: bool>(&self, sink: &mut S) {
        let s = sliders();
        let us = self.side();
        let them = us ^ 1;
        let own = self.by_side[us];
        let enemy = self.by_side[them];
        let occ = own | enemy;
        let ksq = self.king_square(us);
        let checkers = self.checkers;

        // King steps: the destination must not be attacked once the king has left its square.
        let mut steps = KING_ATTACKS[ksq] & !own;
        if NOISY {
            steps &= enemy;
        }
        let occ_without_king = occ ^ bit(ksq);
        let mut safe = 0;
        for to in Squares(steps) {
            if !self.attacked_by(to, them, occ_without_king) {
                safe |= bit(to);
            }
        }
        sink.piece_moves(ksq, safe);
        if checkers & checkers.wrapping_sub(1) != 0 {
            return; // double check: only the king moves
        }

        let target = if checkers != 0 {
            between(ksq, lsb(checkers)) | checkers
        } else {
            !own
        };
        let piece_target = if NOISY { target & enemy } else { target };
        let pinned = self.pinned(us, ksq, occ);

        for from in Squares(self.pieces(us, KNIGHT) & !pinned) {
            sink.piece_moves(from, KNIGHT_ATTACKS[from] & piece_target);
        }
        let diagonal = (self.by_kind[BISHOP] | self.by_kind[QUEEN]) & own;
        for from in Squares(diagonal & !pinned) {
            sink.piece_moves(from, s.bishop(from, occ) & piece_target);
        }
        let orthogonal = (self.by_kind[ROOK] | self.by_kind[QUEEN]) & own;
        for from in Squares(orthogonal & !pinned) {
            sink.piece_moves(from, s.rook(from, occ) & piece_target);
        }
        if pinned != 0 {
            // A pinned slider moves only along the line through its king.
            for from in Squares(diagonal & pinned) {
                sink.piece_moves(from, s.bishop(from, occ) & piece_target & line(ksq, from));
            }
            for from in Squares(orthogonal & pinned) {
                sink.piece_moves(from, s.rook(from, occ) & piece_target & line(ksq, from));
            }
        }

        self.generate_pawns::<S, NOISY>(sink, ksq, pinned, target, occ);

        if !NOISY && checkers == 0 && self.castling & (3 << (2 * us)) != 0 {
            self.generate_castling(sink, ksq, occ);
        }
    }

    #[inline(always)]
    fn generate_pawns<S: Sink, const NOISY: bool>(
        &self,
        sink: &mut S,
        ksq: usize,
        pinned: Bitboard,
        target: Bitboard,
        occ: Bitboard,
    ) {
        let us = self.side();
        let them = us ^ 1;
        let enemy = self.by_side[them];
        let empty = !occ;
        let (up, left, right, third, last) = if us == WHITE {
            (8, 7, 9, RANK_3, RANK_8)
        } else {
            (-8, -9, -7, RANK_6, RANK_1)
        };
        let pawns = self.pieces(us, PAWN);
        let free = pawns & !pinned;

        let single = shift(free, up) & empty;
        let capture_left = shift(free & !FILE_A, left) & enemy & target;
        let capture_right = shift(free & !FILE_H, right) & enemy & target;
        if !NOISY {
            let double = shift(single & third, up) & empty & target;
            sink.pawn_moves(single & target & !last, up);
            sink.pawn_moves(double, 2 * up);
        }
        sink.pawn_moves(capture_left & !last, left);
        sink.pawn_moves(capture_right & !last, right);
        sink.promotions(single & target & last, up);
        sink.promotions(capture_left & last, left);
        sink.promotions(capture_right & last, right);

        // Pinned pawns (rare): one at a time, along the pin line.
        for from in Squares(pawns & pinned) {
            let mut dest = PAWN_ATTACKS[us][from] & enemy;
            let one = (from as i32 + up) as usize;
            if occ & bit(one) == 0 {
                dest |= bit(one);
                let start_rank = if us == WHITE { 1 } else { 6 };
                let two = (one as i32 + up) as usize;
                if from >> 3 == start_rank && occ & bit(two) == 0 {
                    dest |= bit(two);
                }
            }
            dest &= target & line(ksq, from);
            if NOISY {
                dest &= enemy | last;
            }
            for to in Squares(dest) {
                if bit(to) & last != 0 {
                    for kind in [QUEEN, KNIGHT, ROOK, BISHOP] {
                        sink.push(Move::promotion(from, to, kind));
                    }
                } else {
                    sink.push(Move::new(from, to, NORMAL));
                }
            }
        }

        // En passant: tried on the board, which covers every discovered check (on the rank too).
        if self.ep != NO_SQUARE {
            let ep = self.ep as usize;
            let capsq = ep ^ 8;
            for from in Squares(PAWN_ATTACKS[them][ep] & pawns) {
                let after = (occ ^ bit(from) ^ bit(capsq)) | bit(ep);
                if self.attackers_to(ksq, after) & enemy & !bit(capsq) == 0 {
                    sink.push(Move::new(from, ep, EN_PASSANT));
                }
            }
        }
    }

    #[inline(always)]
    fn generate_castling<S: Sink>(&self, sink: &mut S, ksq: usize, occ: Bitboard) {
        let us = self.side();
        let them = us ^ 1;
        for right in [2 * us, 2 * us + 1] {
            if self.castling & (1 << right) == 0 || occ & self.castle.empty[right] != 0 {
                continue;
            }
            let rook = self.castle.rook[right] as usize;
            let occ_after = occ ^ bit(ksq) ^ bit(rook);
            if Squares(self.castle.king_path[right]).any(|sq| self.attacked_by(sq, them, occ_after))
            {
                continue;
            }
            sink.push(Move::new(ksq, rook, CASTLING));
        }
    }

    /// Number of legal moves (perft leaves).
    #[inline(always)]
    pub(crate) fn count_moves(&self) -> u64 {
        let mut c = Counter(0);
        self.generate::<Counter, false>(&mut c);
        c.0
    }
}
