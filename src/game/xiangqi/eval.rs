//! A simple evaluation: material and a few piece-square terms, about 100 for a horse or cannon
//! (the UCCI convention). The real evaluation is a later issue.

use super::board::{
    file_of, kind_of, rank_of, CANNON, EMPTY, HORSE, KING, OFF, PAWN, ROOK, SLOT_ADVISOR,
    SLOT_CANNON, SLOT_HORSE, SLOT_PAWN, SLOT_ROOK,
};
use super::Xiangqi;
use crate::game::Score;

/// Material by kind (index = kind code): -, general, advisor, elephant, horse, chariot, cannon,
/// soldier (a soldier gains more when it crosses the river, see [`square_bonus`]).
pub const VALUE: [i32; 8] = [0, 0, 20, 20, 100, 220, 100, 20];

/// A small positional bonus for a piece of `kind` of `side` on `s`.
fn square_bonus(kind: u8, side: usize, s: u8) -> i32 {
    let f = i32::from(file_of(s));
    let r = i32::from(if side == 0 {
        rank_of(s)
    } else {
        9 - rank_of(s)
    });
    let center = 4 - (f - 4).abs();
    match kind {
        PAWN if r >= 5 => 30 + 3 * center + if r == 9 { -15 } else { 2 * (8 - r).min(3) },
        HORSE => 3 * center + 2 * r.min(7) - if r == 0 { 10 } else { 0 },
        CANNON => {
            if f == 4 {
                10
            } else {
                center
            }
        }
        ROOK => 2 * center + if r >= 5 { 10 } else { 0 },
        _ => 0,
    }
}

/// Static evaluation from the side to move's point of view.
pub(super) fn evaluate(pos: &Xiangqi) -> Score {
    let mut score = [0i32; 2];
    for (side, total) in score.iter_mut().enumerate() {
        for &s in pos.pieces[side].iter().skip(SLOT_ADVISOR) {
            if s == 0 {
                continue;
            }
            let kind = kind_of(pos.board[s as usize]);
            *total += VALUE[kind as usize] + square_bonus(kind, side, s);
        }
    }
    let us = pos.side;
    score[us] - score[us ^ 1] + 5
}

/// MVV-LVA: most valuable victim first, then least valuable attacker.
pub(super) fn mvv_lva(victim: u8, attacker: u8) -> i32 {
    if victim == EMPTY || victim == OFF {
        return 0;
    }
    let v = VALUE[kind_of(victim) as usize] + if kind_of(victim) == KING { 10_000 } else { 0 };
    let a = if kind_of(attacker) == KING {
        300
    } else {
        VALUE[kind_of(attacker) as usize]
    };
    v * 16 - a / 10
}

/// Whether `side` has a piece that can attack: a chariot, horse, cannon or soldier.
pub(super) fn has_attackers(pos: &Xiangqi, side: usize) -> bool {
    pos.pieces[side][SLOT_HORSE..SLOT_ROOK]
        .iter()
        .chain(&pos.pieces[side][SLOT_ROOK..SLOT_CANNON])
        .chain(&pos.pieces[side][SLOT_CANNON..SLOT_PAWN])
        .chain(&pos.pieces[side][SLOT_PAWN..])
        .any(|&s| s != 0)
}

/// Tunable weights of this evaluation (UCI spin options; see `crate::params`).
pub static PARAMS: &[&crate::params::Param] = &[];
