//! Zobrist keys, generated at compile time by splitmix64 from a fixed seed.

use crate::splitmix;

const fn piece_keys() -> [[[u64; 256]; 8]; 2] {
    let mut keys = [[[0u64; 256]; 8]; 2];
    let mut state = 0x5A4E_5149_5849_414Eu64;
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 8 {
            let mut s = 0;
            while s < 256 {
                keys[c][k][s] = splitmix::next(&mut state);
                s += 1;
            }
            k += 1;
        }
        c += 1;
    }
    keys
}

/// Keys by `[side][kind][square]`.
pub static PIECE: [[[u64; 256]; 8]; 2] = piece_keys();

/// Xored in when Black is to move.
pub const SIDE: u64 = 0xC3A5_C85C_97CB_3127;

/// The key of a piece code on a square.
#[inline(always)]
pub fn piece_key(piece: u8, s: u8) -> u64 {
    PIECE[((piece >> 5) & 1) as usize][(piece & 7) as usize][s as usize]
}
