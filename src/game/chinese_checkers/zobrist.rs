//! Zobrist keys: one per (player letter, cell) and one per side to move (turn index).

use super::cells::NUM_CELLS;

/// The keys, built at compile time from a fixed seed (so hashes are reproducible).
pub(crate) struct Keys {
    /// `piece[letter][cell]`, letter 0 (`A`) .. 5 (`F`).
    pub piece: [[u64; NUM_CELLS]; 6],
    /// `side[i]`: the player with turn index `i` is to move.
    pub side: [u64; 6],
}

const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
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
            keys.piece[p][c] = splitmix(&mut state);
            c += 1;
        }
        keys.side[p] = splitmix(&mut state);
        p += 1;
    }
    keys
}

pub(crate) static KEYS: Keys = build();
