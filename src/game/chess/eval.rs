//! A simple static evaluation: material plus piece-square tables (a real one is a later issue).

use super::bitboard::Squares;
use super::board::Chess;
use super::types::*;
use crate::game::Score;

/// Material values by piece kind (pawn, knight, bishop, rook, queen, king).
pub const VALUE: [Score; 6] = [100, 320, 330, 500, 900, 0];

// Piece-square tables from White's side, written with rank 8 first (as a board is drawn);
// the "simplified evaluation function" values of Tomasz Michniewski.
#[rustfmt::skip]
const PST: [[Score; 64]; 6] = [
    [ // pawn
         0,  0,  0,  0,  0,  0,  0,  0,
        50, 50, 50, 50, 50, 50, 50, 50,
        10, 10, 20, 30, 30, 20, 10, 10,
         5,  5, 10, 25, 25, 10,  5,  5,
         0,  0,  0, 20, 20,  0,  0,  0,
         5, -5,-10,  0,  0,-10, -5,  5,
         5, 10, 10,-20,-20, 10, 10,  5,
         0,  0,  0,  0,  0,  0,  0,  0,
    ],
    [ // knight
        -50,-40,-30,-30,-30,-30,-40,-50,
        -40,-20,  0,  0,  0,  0,-20,-40,
        -30,  0, 10, 15, 15, 10,  0,-30,
        -30,  5, 15, 20, 20, 15,  5,-30,
        -30,  0, 15, 20, 20, 15,  0,-30,
        -30,  5, 10, 15, 15, 10,  5,-30,
        -40,-20,  0,  5,  5,  0,-20,-40,
        -50,-40,-30,-30,-30,-30,-40,-50,
    ],
    [ // bishop
        -20,-10,-10,-10,-10,-10,-10,-20,
        -10,  0,  0,  0,  0,  0,  0,-10,
        -10,  0,  5, 10, 10,  5,  0,-10,
        -10,  5,  5, 10, 10,  5,  5,-10,
        -10,  0, 10, 10, 10, 10,  0,-10,
        -10, 10, 10, 10, 10, 10, 10,-10,
        -10,  5,  0,  0,  0,  0,  5,-10,
        -20,-10,-10,-10,-10,-10,-10,-20,
    ],
    [ // rook
          0,  0,  0,  0,  0,  0,  0,  0,
          5, 10, 10, 10, 10, 10, 10,  5,
         -5,  0,  0,  0,  0,  0,  0, -5,
         -5,  0,  0,  0,  0,  0,  0, -5,
         -5,  0,  0,  0,  0,  0,  0, -5,
         -5,  0,  0,  0,  0,  0,  0, -5,
         -5,  0,  0,  0,  0,  0,  0, -5,
          0,  0,  0,  5,  5,  0,  0,  0,
    ],
    [ // queen
        -20,-10,-10, -5, -5,-10,-10,-20,
        -10,  0,  0,  0,  0,  0,  0,-10,
        -10,  0,  5,  5,  5,  5,  0,-10,
         -5,  0,  5,  5,  5,  5,  0, -5,
          0,  0,  5,  5,  5,  5,  0, -5,
        -10,  5,  5,  5,  5,  5,  0,-10,
        -10,  0,  5,  0,  0,  0,  0,-10,
        -20,-10,-10, -5, -5,-10,-10,-20,
    ],
    [ // king (middle game)
        -30,-40,-40,-50,-50,-40,-40,-30,
        -30,-40,-40,-50,-50,-40,-40,-30,
        -30,-40,-40,-50,-50,-40,-40,-30,
        -30,-40,-40,-50,-50,-40,-40,-30,
        -20,-30,-30,-40,-40,-30,-30,-20,
        -10,-20,-20,-20,-20,-20,-20,-10,
         20, 20,  0,  0,  0,  0, 20, 20,
         20, 30, 10,  0,  0, 10, 30, 20,
    ],
];

/// Material + piece-square score for White minus Black.
fn white_score(pos: &Chess) -> Score {
    let mut score = 0;
    for kind in PAWN..=KING {
        for sq in Squares(pos.pieces(WHITE, kind)) {
            // Table index: rank 8 is row 0, so flip the rank for White.
            score += VALUE[kind] + PST[kind][sq ^ 56];
        }
        for sq in Squares(pos.pieces(BLACK, kind)) {
            score -= VALUE[kind] + PST[kind][sq];
        }
    }
    score
}

/// The score from the side to move's point of view.
pub(crate) fn evaluate(pos: &Chess) -> Score {
    let s = white_score(pos);
    if pos.side() == WHITE {
        s
    } else {
        -s
    }
}

/// Tunable weights of this evaluation (UCI spin options; see `crate::params`).
pub static PARAMS: &[&crate::params::Param] = &[];
