//! SplitMix64, the one generator behind every game's Zobrist keys and datagen's random streams.
//! `const`, so that key tables are built at compile time.

/// Advances `state` by one step and gives the next 64 bits.
#[inline]
pub const fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
