//! Sides, piece codes and the 16-bit move.

use crate::game::GameMove;

/// White (side index 0).
pub const WHITE: usize = 0;
/// Black (side index 1).
pub const BLACK: usize = 1;

/// Piece kinds (indices into the per-kind bitboards).
pub const PAWN: usize = 0;
/// Knight.
pub const KNIGHT: usize = 1;
/// Bishop.
pub const BISHOP: usize = 2;
/// Rook.
pub const ROOK: usize = 3;
/// Queen.
pub const QUEEN: usize = 4;
/// King.
pub const KING: usize = 5;

/// Empty square in the mailbox.
pub const NO_PIECE: u8 = 6;
/// No en-passant square.
pub const NO_SQUARE: u8 = 64;

/// Piece code: kind in the low 3 bits, side in bit 3 (White pawn 0 ... Black king 13).
#[inline(always)]
pub const fn piece(side: usize, kind: usize) -> u8 {
    (kind | (side << 3)) as u8
}

/// Kind of a piece code.
#[inline(always)]
pub const fn kind_of(p: u8) -> usize {
    (p & 7) as usize
}

/// Side of a piece code.
#[inline(always)]
pub const fn side_of(p: u8) -> usize {
    (p >> 3) as usize
}

/// FEN letter of a piece code.
pub fn piece_char(p: u8) -> char {
    let c = match kind_of(p) {
        PAWN => 'p',
        KNIGHT => 'n',
        BISHOP => 'b',
        ROOK => 'r',
        QUEEN => 'q',
        KING => 'k',
        _ => '.',
    };
    if side_of(p) == WHITE {
        c.to_ascii_uppercase()
    } else {
        c
    }
}

/// A chess move in 16 bits: from (bits 0-5), to (6-11), kind (12-13), promotion piece (14-15).
///
/// Castling is stored as king-takes-own-rook (`to` is the rook's square), which covers Chess960.
/// [`Move::NULL`] (b1b1) is the pass written `0000`; [`Move::NONE`] (all zero) is "no move".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Move(pub(crate) u16);

/// Move kinds (bits 12-13).
pub const NORMAL: u16 = 0;
/// Promotion; the piece is in bits 14-15 (knight, bishop, rook, queen).
pub const PROMOTION: u16 = 1 << 12;
/// En-passant capture.
pub const EN_PASSANT: u16 = 2 << 12;
/// Castling (king takes own rook).
pub const CASTLING: u16 = 3 << 12;

impl Move {
    /// "No move" (the default value).
    pub const NONE: Move = Move(0);
    /// The null move (pass), written `0000`.
    pub const NULL: Move = Move(65);

    /// A move of the given kind.
    #[inline(always)]
    pub const fn new(from: usize, to: usize, kind: u16) -> Move {
        Move(from as u16 | ((to as u16) << 6) | kind)
    }

    /// A promotion to `kind` (KNIGHT..=QUEEN).
    #[inline(always)]
    pub const fn promotion(from: usize, to: usize, kind: usize) -> Move {
        Move(from as u16 | ((to as u16) << 6) | PROMOTION | (((kind - KNIGHT) as u16) << 14))
    }

    /// Origin square.
    #[inline(always)]
    pub const fn from(self) -> usize {
        (self.0 & 63) as usize
    }

    /// Destination square (the rook's square for castling).
    #[inline(always)]
    pub const fn to(self) -> usize {
        ((self.0 >> 6) & 63) as usize
    }

    /// Kind bits (`NORMAL`, `PROMOTION`, `EN_PASSANT`, `CASTLING`).
    #[inline(always)]
    pub const fn kind(self) -> u16 {
        self.0 & (3 << 12)
    }

    /// The promotion piece kind (meaningful for promotions only).
    #[inline(always)]
    pub const fn promo(self) -> usize {
        ((self.0 >> 14) as usize) + KNIGHT
    }

    /// Whether this is the null move.
    #[inline(always)]
    pub const fn is_null(self) -> bool {
        self.0 == Move::NULL.0
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
