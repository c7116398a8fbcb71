//! Zobrist keys, generated at compile time by splitmix64 from a fixed seed.

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn piece_keys() -> [[[u64; 256]; 8]; 2] {
    let mut keys = [[[0u64; 256]; 8]; 2];
    let mut state = 0x5A4E_5149_5849_414Eu64;
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 8 {
            let mut s = 0;
            while s < 256 {
                let (ns, v) = splitmix(state);
                state = ns;
                keys[c][k][s] = v;
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
