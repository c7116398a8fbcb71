//! Zobrist keys, generated at compile time from a fixed-seed SplitMix64 sequence.

use crate::splitmix;

/// All keys: 16 piece codes (12 used) x 64 squares, then 4 castling-right keys, 8 en-passant files, side.
const fn keys() -> [u64; 16 * 64 + 4 + 8 + 1] {
    let mut out = [0u64; 16 * 64 + 4 + 8 + 1];
    let mut state = 0x5A4E_5149_4348_4553; // "ZNQICHES"
    let mut i = 0;
    while i < out.len() {
        out[i] = splitmix::next(&mut state);
        i += 1;
    }
    out
}

const KEYS: [u64; 16 * 64 + 4 + 8 + 1] = keys();

const fn piece_keys() -> [[u64; 64]; 16] {
    let mut t = [[0u64; 64]; 16];
    let mut p = 0;
    while p < 16 {
        let mut sq = 0;
        while sq < 64 {
            t[p][sq] = KEYS[p * 64 + sq];
            sq += 1;
        }
        p += 1;
    }
    t
}

const fn castle_keys() -> [u64; 16] {
    let mut t = [0u64; 16];
    let mut rights = 0;
    while rights < 16 {
        let mut b = 0;
        while b < 4 {
            if rights & (1 << b) != 0 {
                t[rights] ^= KEYS[16 * 64 + b];
            }
            b += 1;
        }
        rights += 1;
    }
    t
}

const fn ep_keys() -> [u64; 8] {
    let mut t = [0u64; 8];
    let mut f = 0;
    while f < 8 {
        t[f] = KEYS[16 * 64 + 4 + f];
        f += 1;
    }
    t
}

/// Key of piece code `p` (see `board::piece`) on a square.
pub static PIECE: [[u64; 64]; 16] = piece_keys();
/// Key of a set of castling rights (xor of one key per right).
pub static CASTLE: [u64; 16] = castle_keys();
/// Key of an en-passant file.
pub static EP_FILE: [u64; 8] = ep_keys();
/// Key xored in when Black is to move.
pub const SIDE: u64 = KEYS[16 * 64 + 4 + 8];
