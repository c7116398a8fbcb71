//! Position indices: how a table orders its positions.
//!
//! A table stores one value per index; the index of a position comes from the squares of its
//! pieces, reduced by the board's symmetries (mirroring files, ranks and the a1-h8 diagonal for
//! tables without pawns, files only for tables with pawns) and by ordering equal pieces. Every
//! lookup table here is computed at compile time from its definition.

/// Most pieces (kings included) a table can hold.
pub const MAX_PIECES: usize = 7;

const fn file(sq: usize) -> usize {
    sq & 7
}

const fn rank(sq: usize) -> usize {
    sq >> 3
}

/// Rank minus file: 0 on the a1-h8 diagonal, above it positive.
#[inline]
pub fn off_diagonal(sq: usize) -> i32 {
    rank(sq) as i32 - file(sq) as i32
}

/// The square mirrored in the a1-h8 diagonal.
#[inline]
pub fn flip_diagonal(sq: usize) -> usize {
    ((sq >> 3) | (sq << 3)) & 63
}

/// `n` choose `k` for `n < 64`, `k < 8`.
const BINOMIAL: [[u64; 64]; 8] = {
    let mut t = [[0u64; 64]; 8];
    let mut n = 0;
    while n < 64 {
        t[0][n] = 1;
        let mut k = 1;
        while k < 8 {
            t[k][n] = if n == 0 {
                0
            } else {
                t[k - 1][n - 1] + t[k][n - 1]
            };
            k += 1;
        }
        n += 1;
    }
    t
};

/// `n` choose `k`; 0 outside the table (negative or too large arguments).
#[inline]
pub fn binomial(n: i64, k: i64) -> u64 {
    if n < 0 || k < 0 || n >= 64 || k >= 8 {
        return 0;
    }
    BINOMIAL[k as usize][n as usize]
}

/// The ten squares of the a1-d1-d4 triangle, numbered in the order the tables use (the first
/// six below the diagonal, then the four on it).
const TRIANGLE_SQUARES: [usize; 10] = [1, 2, 3, 10, 11, 19, 0, 9, 18, 27];

/// Every square folded into the a1-d1-d4 triangle, as its number there.
pub const TRIANGLE: [usize; 64] = {
    let mut t = [0usize; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut f = file(sq);
        let mut r = rank(sq);
        if f > 3 {
            f = 7 - f;
        }
        if r > 3 {
            r = 7 - r;
        }
        if r > f {
            let x = r;
            r = f;
            f = x;
        }
        let folded = r * 8 + f;
        let mut i = 0;
        while i < 10 {
            if TRIANGLE_SQUARES[i] == folded {
                t[sq] = i;
            }
            i += 1;
        }
        sq += 1;
    }
    t
};

/// Squares below the a1-h8 diagonal numbered 0..28 rank by rank (squares above it take the
/// number of their mirror image); the diagonal itself is 28..36.
pub const LOWER: [usize; 64] = {
    let mut below = [0usize; 64];
    let mut n = 0;
    let mut sq = 0;
    while sq < 64 {
        if rank(sq) < file(sq) {
            below[sq] = n;
            n += 1;
        }
        sq += 1;
    }
    let mut t = [0usize; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = (file(sq), rank(sq));
        t[sq] = if r < f {
            below[sq]
        } else if r > f {
            below[f * 8 + r]
        } else {
            28 + r
        };
        sq += 1;
    }
    t
};

/// Squares of the a1-h8 diagonal as 0..8, of the h1-a8 diagonal as 8..16, others 0.
pub const DIAGONAL: [usize; 64] = {
    let mut t = [0usize; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = (file(sq), rank(sq));
        if f == r {
            t[sq] = r;
        } else if f + r == 7 {
            t[sq] = 8 + r;
        }
        sq += 1;
    }
    t
};

/// The file folded onto a-d.
pub const FOLD_FILE: [usize; 8] = [0, 1, 2, 3, 3, 2, 1, 0];

/// Pawn squares (ranks 2-7) as `folded file * 6 + rank - 1`; the order of leading pawns.
pub const PAWN_FLAP: [usize; 64] = {
    let mut t = [0usize; 64];
    let mut sq = 8;
    while sq < 56 {
        t[sq] = FOLD_FILE[file(sq)] * 6 + rank(sq) - 1;
        sq += 1;
    }
    t
};

/// Pawn squares (ranks 2-7) numbered from the centre files outwards, higher ranks first.
pub const PAWN_TWIST: [usize; 64] = {
    let mut t = [0usize; 64];
    let mut sq = 8;
    while sq < 56 {
        let f = file(sq);
        let left = if f < 4 { 1 } else { 0 };
        t[sq] = (3 - FOLD_FILE[f]) * 12 + (6 - rank(sq)) * 2 + left;
        sq += 1;
    }
    t
};

/// The square of each [`PAWN_FLAP`] number on files a-d.
const PAWN_FLAP_SQUARE: [usize; 24] = {
    let mut t = [0usize; 24];
    let mut j = 0;
    while j < 24 {
        t[j] = (j % 6 + 1) * 8 + j / 6;
        j += 1;
    }
    t
};

const fn binomial_const(n: usize, k: usize) -> u64 {
    if n >= 64 || k >= 8 {
        0
    } else {
        BINOMIAL[k][n]
    }
}

/// For `leading pawns - 1` and a flap number, the index offset of the leading pawn (within
/// its file group); and per file group the number of such positions.
const PAWN_TABLES: ([[u64; 24]; 6], [[u64; 4]; 6]) = {
    let mut idx = [[0u64; 24]; 6];
    let mut fac = [[0u64; 4]; 6];
    let mut i = 0;
    while i < 6 {
        let mut j = 0;
        let mut group = 0;
        while group < 4 {
            let mut s = 0u64;
            let end = (group + 1) * 6;
            while j < end {
                idx[i][j] = s;
                s += if i == 0 {
                    1
                } else {
                    binomial_const(PAWN_TWIST[PAWN_FLAP_SQUARE[j]], i)
                };
                j += 1;
            }
            fac[i][group] = s;
            group += 1;
        }
        i += 1;
    }
    (idx, fac)
};

/// See [`PAWN_TABLES`].
pub const PAWN_INDEX: [[u64; 24]; 6] = PAWN_TABLES.0;
/// See [`PAWN_TABLES`].
pub const PAWN_FACTOR: [[u64; 4]; 6] = PAWN_TABLES.1;

/// No index (kings next to each other or on one square).
const NO_INDEX: u16 = u16::MAX;

/// The 462 placements of two kings, the first folded into the a1-d1-d4 triangle (and the
/// second not above the diagonal while the first is on it), by triangle number and second
/// square. Placements with both kings on the diagonal come last.
pub const KING_PAIR: [[u16; 64]; 10] = {
    let mut t = [[NO_INDEX; 64]; 10];
    let mut code = 0u16;
    let mut pass = 0;
    while pass < 2 {
        let mut tri = 0;
        while tri < 10 {
            let s1 = TRIANGLE_SQUARES[tri];
            let mut s2 = 0;
            while s2 < 64 {
                let df = file(s1) as i32 - file(s2) as i32;
                let dr = rank(s1) as i32 - rank(s2) as i32;
                let touching = df >= -1 && df <= 1 && dr >= -1 && dr <= 1;
                let d1 = rank(s1) as i32 - file(s1) as i32;
                let d2 = rank(s2) as i32 - file(s2) as i32;
                let both_diag = d1 == 0 && d2 == 0;
                let skip = touching || (d1 == 0 && d2 > 0);
                if !skip && (both_diag == (pass == 1)) {
                    t[tri][s2] = code;
                    code += 1;
                }
                s2 += 1;
            }
            tri += 1;
        }
        pass += 1;
    }
    t
};

/// The king-pair index, `None` for kings that touch.
#[inline]
pub fn king_pair(first: usize, second: usize) -> Option<u64> {
    let v = KING_PAIR[TRIANGLE[first & 63]][second & 63];
    (v != NO_INDEX).then_some(u64::from(v))
}

/// Positions of the two pivot groups of tables without pawns: three unique pieces, or the
/// two kings.
pub const PIVOT_FACTOR_THREE: u64 = 31332;
/// See [`PIVOT_FACTOR_THREE`].
pub const PIVOT_FACTOR_KINGS: u64 = 462;

/// Ways to place `k` equal pieces on `n` free squares; `None` on overflow or bad arguments.
pub fn placements(k: usize, n: usize) -> Option<u64> {
    if k > n || k == 0 {
        return if k == 0 { Some(1) } else { None };
    }
    let mut f: u64 = 1;
    let mut l: u64 = 1;
    for i in 0..k {
        f = f.checked_mul((n - i) as u64)?;
        l = l.checked_mul((i + 1) as u64)?;
    }
    Some(f / l)
}

/// Sorts `p[from..to]` ascending (a handful of squares).
#[inline]
fn sort_range(p: &mut [usize; MAX_PIECES], from: usize, to: usize) {
    let to = to.min(MAX_PIECES);
    for j in from..to {
        for k in j + 1..to {
            if p[j] > p[k] {
                p.swap(j, k);
            }
        }
    }
}

/// The index of the groups of equal pieces from `start` on: each group's squares are
/// numbered among the squares the earlier pieces leave free (less `skip` for pawns, which
/// cannot stand on the first rank).
#[inline]
fn encode_groups(
    p: &mut [usize; MAX_PIECES],
    start: usize,
    n: usize,
    norm: &[u8; MAX_PIECES],
    factor: &[u64; MAX_PIECES],
) -> u64 {
    let mut idx = 0u64;
    let mut i = start;
    while i < n {
        let t = usize::from(norm[i]).max(1);
        sort_range(p, i, i + t);
        let mut s = 0u64;
        for m in i..(i + t).min(n) {
            let sq = p[m];
            let below = p[..i].iter().filter(|&&q| sq > q).count();
            s = s.wrapping_add(binomial(sq as i64 - below as i64, (m - i + 1) as i64));
        }
        idx = idx.wrapping_add(s.wrapping_mul(factor[i]));
        i += t;
    }
    idx
}

/// The index of a position in a table without pawns (`three` for encodings whose pivot is
/// three unique pieces, otherwise the two kings); `p` holds the squares in table order and is
/// changed. `None` for positions no table holds (touching kings).
pub fn encode_pieces(
    p: &mut [usize; MAX_PIECES],
    n: usize,
    three: bool,
    norm: &[u8; MAX_PIECES],
    factor: &[u64; MAX_PIECES],
) -> Option<u64> {
    let n = n.min(MAX_PIECES);
    if p[0] & 4 != 0 {
        p[..n].iter_mut().for_each(|s| *s ^= 7);
    }
    if p[0] & 0x20 != 0 {
        p[..n].iter_mut().for_each(|s| *s ^= 0x38);
    }
    let pivots = if three { 3 } else { 2 };
    if let Some(i) = (0..n).find(|&i| off_diagonal(p[i]) != 0) {
        if i < pivots && off_diagonal(p[i]) > 0 {
            p[..n].iter_mut().for_each(|s| *s = flip_diagonal(*s));
        }
    }
    let idx = if three {
        let (a, b, c) = (p[0], p[1], p[2]);
        let i = i64::from(b > a);
        let j = i64::from(c > a) + i64::from(c > b);
        let tri = |s: usize| TRIANGLE[s] as i64;
        let diag = |s: usize| DIAGONAL[s] as i64;
        let low = |s: usize| LOWER[s] as i64;
        let v = if off_diagonal(a) != 0 {
            tri(a) * 63 * 62 + (b as i64 - i) * 62 + (c as i64 - j)
        } else if off_diagonal(b) != 0 {
            6 * 63 * 62 + diag(a) * 28 * 62 + low(b) * 62 + c as i64 - j
        } else if off_diagonal(c) != 0 {
            6 * 63 * 62 + 4 * 28 * 62 + diag(a) * 7 * 28 + (diag(b) - i) * 28 + low(c)
        } else {
            6 * 63 * 62
                + 4 * 28 * 62
                + 4 * 7 * 28
                + diag(a) * 7 * 6
                + (diag(b) - i) * 6
                + (diag(c) - j)
        };
        u64::try_from(v).ok()?
    } else {
        king_pair(p[0], p[1])?
    };
    let idx = idx.wrapping_mul(factor[0]);
    Some(idx.wrapping_add(encode_groups(p, pivots, n, norm, factor)))
}

/// The file group (0..4, a-d folded) of a table with pawns: the leading pawn with the lowest
/// [`PAWN_FLAP`] number is moved to `p[0]`.
pub fn pawn_file(p: &mut [usize; MAX_PIECES], leading: usize) -> usize {
    for i in 1..leading.min(MAX_PIECES) {
        if PAWN_FLAP[p[0] & 63] > PAWN_FLAP[p[i] & 63] {
            p.swap(0, i);
        }
    }
    FOLD_FILE[p[0] & 7]
}

/// The index of a position in a table with pawns: `leading` pawns of one side, then `other`
/// pawns of the other side, then the pieces; `p` holds the squares in table order (the first
/// from [`pawn_file`]) and is changed.
pub fn encode_pawns(
    p: &mut [usize; MAX_PIECES],
    n: usize,
    leading: usize,
    other: usize,
    norm: &[u8; MAX_PIECES],
    factor: &[u64; MAX_PIECES],
) -> u64 {
    let n = n.min(MAX_PIECES);
    let leading = leading.clamp(1, n.max(1));
    if p[0] & 4 != 0 {
        p[..n].iter_mut().for_each(|s| *s ^= 7);
    }
    for i in 1..leading {
        for j in i + 1..leading {
            if PAWN_TWIST[p[i]] < PAWN_TWIST[p[j]] {
                p.swap(i, j);
            }
        }
    }
    let t = leading - 1;
    let mut idx = PAWN_INDEX[t.min(5)][PAWN_FLAP[p[0]]];
    for i in (1..=t).rev() {
        idx = idx.wrapping_add(binomial(PAWN_TWIST[p[i]] as i64, (t - i + 1) as i64));
    }
    idx = idx.wrapping_mul(factor[0]);

    let mut i = leading;
    let end = (leading + other).min(n);
    if end > i {
        sort_range(p, i, end);
        let mut s = 0u64;
        for m in i..end {
            let sq = p[m];
            let below = p[..i].iter().filter(|&&q| sq > q).count();
            s = s.wrapping_add(binomial(sq as i64 - below as i64 - 8, (m - i + 1) as i64));
        }
        idx = idx.wrapping_add(s.wrapping_mul(factor[i]));
        i = end;
    }
    idx.wrapping_add(encode_groups(p, i, n, norm, factor))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_match_their_known_values() {
        assert_eq!(TRIANGLE[0], 6);
        assert_eq!(TRIANGLE[8], 0);
        assert_eq!(TRIANGLE[17], 3);
        assert_eq!(TRIANGLE[63], 6);
        assert_eq!(LOWER[1], 0);
        assert_eq!(LOWER[10], 7);
        assert_eq!(LOWER[19], 13);
        assert_eq!(LOWER[63], 35);
        assert_eq!(DIAGONAL[7], 8);
        assert_eq!(DIAGONAL[56], 15);
        assert_eq!(PAWN_TWIST[8], 47);
        assert_eq!(PAWN_TWIST[52], 0);
        assert_eq!(PAWN_TWIST[26], 19);
        assert_eq!(PAWN_FLAP[9], 6);
        assert_eq!(KING_PAIR[0][3], 0);
        assert_eq!(KING_PAIR[6][2], 339);
        assert_eq!(KING_PAIR[6][18], 441);
        assert_eq!(KING_PAIR[9][63], 461);
        assert_eq!(KING_PAIR[5][0], 284);
        assert_eq!(placements(2, 62), Some(1891));
    }
}
