//! Zobrist keys: one per (player letter, cell) and one per side to move (turn index).

use super::cells::NUM_CELLS;
use crate::splitmix;

/// The keys, built at compile time from a fixed seed (so hashes are reproducible).
pub(crate) struct Keys {
    /// `piece[letter][cell]`, letter 0 (`A`) .. 5 (`F`).
    pub piece: [[u64; NUM_CELLS]; 6],
    /// `side[i]`: the player with turn index `i` is to move.
    pub side: [u64; 6],
}

const fn build() -> Keys {
    let mut state = 0x5A4E_5149_4343_2026u64;
    let mut keys = Keys {
        piece: [[0; NUM_CELLS]; 6],
        side: [0; 6],
    };
    let mut p = 0;
    while p < 6 {
        let mut c = 0;
        while c < NUM_CELLS {
            keys.piece[p][c] = splitmix::next(&mut state);
            c += 1;
        }
        keys.side[p] = splitmix::next(&mut state);
        p += 1;
    }
    keys
}

pub(crate) static KEYS: Keys = build();
