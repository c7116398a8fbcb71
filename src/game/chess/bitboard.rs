//! Bitboards: a `u64` with bit `n` for square `n` (a1 = 0, b1 = 1, ..., h8 = 63).

/// A set of squares, one bit per square (a1 = bit 0, h8 = bit 63).
pub type Bitboard = u64;

/// The a-file.
pub const FILE_A: Bitboard = 0x0101_0101_0101_0101;
/// The h-file.
pub const FILE_H: Bitboard = FILE_A << 7;
/// The first rank.
pub const RANK_1: Bitboard = 0xFF;
/// The third rank.
pub const RANK_3: Bitboard = RANK_1 << 16;
/// The sixth rank.
pub const RANK_6: Bitboard = RANK_1 << 40;
/// The eighth rank.
pub const RANK_8: Bitboard = RANK_1 << 56;
/// The light squares (b1, a2, ...; h1 is light).
pub const LIGHT_SQUARES: Bitboard = 0x55AA_55AA_55AA_55AA;

/// The bitboard holding only `sq`.
#[inline(always)]
pub const fn bit(sq: usize) -> Bitboard {
    1u64 << sq
}

/// The lowest square of a non-empty bitboard.
#[inline(always)]
pub const fn lsb(b: Bitboard) -> usize {
    b.trailing_zeros() as usize
}

/// File of a square (0 = a).
#[inline(always)]
pub const fn file_of(sq: usize) -> usize {
    sq & 7
}

/// Rank of a square (0 = first rank).
#[inline(always)]
pub const fn rank_of(sq: usize) -> usize {
    sq >> 3
}

/// Iterates over the squares of a bitboard, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Squares(pub Bitboard);

impl Iterator for Squares {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            let sq = lsb(self.0);
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }
}

/// Shifts a bitboard by `delta` squares (positive: towards h8).
#[inline(always)]
pub const fn shift(b: Bitboard, delta: i32) -> Bitboard {
    if delta >= 0 {
        b << delta
    } else {
        b >> -delta
    }
}

/// The name of a square (`e4`).
pub fn square_name(sq: usize) -> String {
    let mut s = String::with_capacity(2);
    s.push((b'a' + file_of(sq) as u8) as char);
    s.push((b'1' + rank_of(sq) as u8) as char);
    s
}

/// Reads a square name (`e4`); `None` if it is not one.
pub fn parse_square(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let f = b[0].to_ascii_lowercase();
    let r = b[1];
    if !(b'a'..=b'h').contains(&f) || !(b'1'..=b'8').contains(&r) {
        return None;
    }
    Some(usize::from(r - b'1') * 8 + usize::from(f - b'a'))
}
