//! Piece-square tables of the xiangqi evaluation.
//!
//! The numbers follow the well-known public tables of ElephantEye (after "Meng Ru Shen Dan"):
//! horse, chariot and cannon for the opening/middlegame and for the endgame, the general and
//! soldiers (the "no attack chances" variant), advisors and elephants. They are written here in
//! Red's view, one row per rank from rank 9 (Black's back rank) down to rank 0, and a base is
//! subtracted so that each table holds only the positional part: material is a separate,
//! tunable term (see `super`). Every table is left-right symmetric.

use super::super::board::{square, CANNON, HORSE, KING, PAWN, ROOK};

/// Rows from rank 9 down to rank 0, nine files each.
type Table = [i16; 90];

#[rustfmt::skip]
const HORSE_MG: Table = [
    90, 90, 90, 96, 90, 96, 90, 90, 90,
    90, 96,103, 97, 94, 97,103, 96, 90,
    92, 98, 99,103, 99,103, 99, 98, 92,
    93,108,100,107,100,107,100,108, 93,
    90,100, 99,103,104,103, 99,100, 90,
    90, 98,101,102,103,102,101, 98, 90,
    92, 94, 98, 95, 98, 95, 98, 94, 92,
    93, 92, 94, 95, 92, 95, 94, 92, 93,
    85, 90, 92, 93, 78, 93, 92, 90, 85,
    88, 85, 90, 88, 90, 88, 90, 85, 88,
];

#[rustfmt::skip]
const HORSE_EG: Table = [
    92, 94, 96, 96, 96, 96, 96, 94, 92,
    94, 96, 98, 98, 98, 98, 98, 96, 94,
    96, 98,100,100,100,100,100, 98, 96,
    96, 98,100,100,100,100,100, 98, 96,
    96, 98,100,100,100,100,100, 98, 96,
    94, 96, 98, 98, 98, 98, 98, 96, 94,
    94, 96, 98, 98, 98, 98, 98, 96, 94,
    92, 94, 96, 96, 96, 96, 96, 94, 92,
    90, 92, 94, 92, 92, 92, 94, 92, 90,
    88, 90, 92, 90, 90, 90, 92, 90, 88,
];

#[rustfmt::skip]
const ROOK_MG: Table = [
    206,208,207,213,214,213,207,208,206,
    206,212,209,216,233,216,209,212,206,
    206,208,207,214,216,214,207,208,206,
    206,213,213,216,216,216,213,213,206,
    208,211,211,214,215,214,211,211,208,
    208,212,212,214,215,214,212,212,208,
    204,209,204,212,214,212,204,209,204,
    198,208,204,212,212,212,204,208,198,
    200,208,206,212,200,212,206,208,200,
    194,206,204,212,200,212,204,206,194,
];

#[rustfmt::skip]
const ROOK_EG: Table = [
    182,182,182,184,186,184,182,182,182,
    184,184,184,186,190,186,184,184,184,
    182,182,182,184,186,184,182,182,182,
    180,180,180,182,184,182,180,180,180,
    180,180,180,182,184,182,180,180,180,
    180,180,180,182,184,182,180,180,180,
    180,180,180,182,184,182,180,180,180,
    180,180,180,182,184,182,180,180,180,
    180,180,180,182,184,182,180,180,180,
    180,180,180,182,184,182,180,180,180,
];

#[rustfmt::skip]
const CANNON_MG: Table = [
    100,100, 96, 91, 90, 91, 96,100,100,
     98, 98, 96, 92, 89, 92, 96, 98, 98,
     97, 97, 96, 91, 92, 91, 96, 97, 97,
     96, 99, 99, 98,100, 98, 99, 99, 96,
     96, 96, 96, 96,100, 96, 96, 96, 96,
     95, 96, 99, 96,100, 96, 99, 96, 95,
     96, 96, 96, 96, 96, 96, 96, 96, 96,
     97, 96,100, 99,101, 99,100, 96, 97,
     96, 97, 98, 98, 98, 98, 98, 97, 96,
     96, 96, 97, 99, 99, 99, 97, 96, 96,
];

#[rustfmt::skip]
const CANNON_EG: Table = [
    100,100,100,100,100,100,100,100,100,
    100,100,100,100,100,100,100,100,100,
    100,100,100,100,100,100,100,100,100,
    100,100,100,102,104,102,100,100,100,
    100,100,100,102,104,102,100,100,100,
    100,100,100,102,104,102,100,100,100,
    100,100,100,102,104,102,100,100,100,
    100,100,100,102,104,102,100,100,100,
    100,100,100,104,106,104,100,100,100,
    100,100,100,104,106,104,100,100,100,
];

/// Soldiers, opening/middlegame. Squares a soldier never reaches hold 0 (unused).
#[rustfmt::skip]
const PAWN_MG: Table = [
     9,  9,  9, 11, 13, 11,  9,  9,  9,
    19, 24, 34, 42, 44, 42, 34, 24, 19,
    19, 24, 32, 37, 37, 37, 32, 24, 19,
    19, 23, 27, 29, 30, 29, 27, 23, 19,
    14, 18, 20, 27, 29, 27, 20, 18, 14,
     7,  0, 13,  0, 16,  0, 13,  0,  7,
     7,  0,  7,  0, 15,  0,  7,  0,  7,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
];

/// Soldiers, endgame.
#[rustfmt::skip]
const PAWN_EG: Table = [
    10, 10, 10, 15, 15, 15, 10, 10, 10,
    10, 15, 20, 45, 60, 45, 20, 15, 10,
    25, 30, 30, 35, 35, 35, 30, 30, 25,
    35, 40, 40, 45, 45, 45, 40, 40, 35,
    25, 30, 30, 35, 35, 35, 30, 30, 25,
    25,  0, 25, 25, 25, 25, 25,  0, 25,
    20,  0, 20, 20, 20, 20, 20,  0, 20,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
];

/// The general, opening/middlegame: stay home.
#[rustfmt::skip]
const KING_MG: Table = [
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  1,  1,  1,  0,  0,  0,
     0,  0,  0,  2,  2,  2,  0,  0,  0,
     0,  0,  0, 11, 15, 11,  0,  0,  0,
];

/// The general, endgame: the centre file and the upper palace points are fine.
#[rustfmt::skip]
const KING_EG: Table = [
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  5, 15,  5,  0,  0,  0,
     0,  0,  0,  3, 13,  3,  0,  0,  0,
     0,  0,  0,  1, 11,  1,  0,  0,  0,
];

/// Advisors and elephants (their squares never overlap).
#[rustfmt::skip]
const GUARD: Table = [
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0, 20,  0,  0,  0, 20,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
    18,  0,  0, 20, 23, 20,  0,  0, 18,
     0,  0,  0,  0, 23,  0,  0,  0,  0,
     0,  0, 20, 20,  0, 20, 20,  0,  0,
];

/// One table on the mailbox for both sides: `[side][square]`.
pub type Pst = [[i16; 256]; 2];

/// Spreads `table` on the mailbox for both sides, minus `base` below the river (relative ranks
/// 0..=4) and minus `base_crossed` across it.
const fn build(table: &Table, base: i16, base_crossed: i16) -> Pst {
    let mut out = [[0i16; 256]; 2];
    let mut rank = 0usize;
    while rank < 10 {
        let mut file = 0usize;
        while file < 9 {
            let raw = table[(9 - rank) * 9 + file];
            let v = if raw == 0 {
                0
            } else if rank <= 4 {
                raw - base
            } else {
                raw - base_crossed
            };
            out[0][square(file as u8, rank as u8) as usize] = v;
            out[1][square(file as u8, (9 - rank) as u8) as usize] = v;
            file += 1;
        }
        rank += 1;
    }
    out
}

const ZERO: Pst = [[0; 256]; 2];

/// Base of the soldier tables before the river (middlegame, endgame).
const PAWN_BASE: (i16, i16) = (10, 20);
/// Base of the soldier tables across the river (middlegame, endgame): the crossing itself is the
/// tunable `Xiangqi Soldier Crossed` term.
const PAWN_BASE_CROSSED: (i16, i16) = (25, 40);

const fn tables(mg: bool) -> [Pst; 8] {
    let mut t = [ZERO; 8];
    t[KING as usize] = if mg {
        build(&KING_MG, 11, 11)
    } else {
        build(&KING_EG, 1, 1)
    };
    t[2] = build(&GUARD, 20, 20);
    t[3] = build(&GUARD, 20, 20);
    t[HORSE as usize] = if mg {
        build(&HORSE_MG, 95, 95)
    } else {
        build(&HORSE_EG, 96, 96)
    };
    t[ROOK as usize] = if mg {
        build(&ROOK_MG, 210, 210)
    } else {
        build(&ROOK_EG, 182, 182)
    };
    t[CANNON as usize] = if mg {
        build(&CANNON_MG, 96, 96)
    } else {
        build(&CANNON_EG, 100, 100)
    };
    t[PAWN as usize] = if mg {
        build(&PAWN_MG, PAWN_BASE.0, PAWN_BASE_CROSSED.0)
    } else {
        build(&PAWN_EG, PAWN_BASE.1, PAWN_BASE_CROSSED.1)
    };
    t
}

/// Middlegame tables by kind: `PST_MG[kind][side][square]`.
pub static PST_MG: [Pst; 8] = tables(true);
/// Endgame tables by kind.
pub static PST_EG: [Pst; 8] = tables(false);
