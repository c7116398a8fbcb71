//! Attack tables: leapers and lines are computed at compile time; sliders use magic bitboards
//! whose magics are searched at first use (a few milliseconds) into a static `LazyLock`.

use std::sync::LazyLock;

use super::bitboard::Bitboard;

const KNIGHT_STEPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING_STEPS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];
const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (-1, 1), (-1, -1), (1, -1)];

const fn leaper_table(steps: &[(i32, i32); 8]) -> [Bitboard; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let f = (sq % 8) as i32;
        let r = (sq / 8) as i32;
        let mut i = 0;
        while i < 8 {
            let (df, dr) = steps[i];
            let (nf, nr) = (f + df, r + dr);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                table[sq] |= 1u64 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

const fn pawn_table() -> [[Bitboard; 64]; 2] {
    let mut table = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let f = (sq % 8) as i32;
        let r = (sq / 8) as i32;
        let mut side = 0;
        while side < 2 {
            let dr = if side == 0 { 1 } else { -1 };
            let nr = r + dr;
            if nr >= 0 && nr < 8 {
                if f > 0 {
                    table[side][sq] |= 1u64 << (nr * 8 + f - 1);
                }
                if f < 7 {
                    table[side][sq] |= 1u64 << (nr * 8 + f + 1);
                }
            }
            side += 1;
        }
        sq += 1;
    }
    table
}

/// Squares a slider on `sq` attacks along `dirs` with the given occupancy (slow reference).
const fn slide(sq: usize, occ: Bitboard, dirs: &[(i32, i32); 4]) -> Bitboard {
    let mut result = 0u64;
    let mut i = 0;
    while i < 4 {
        let (df, dr) = dirs[i];
        let mut f = (sq % 8) as i32 + df;
        let mut r = (sq / 8) as i32 + dr;
        while f >= 0 && f < 8 && r >= 0 && r < 8 {
            let b = 1u64 << (r * 8 + f);
            result |= b;
            if occ & b != 0 {
                break;
            }
            f += df;
            r += dr;
        }
        i += 1;
    }
    result
}

/// `(between, line)`: squares strictly between two aligned squares, and the whole line
/// through both (0 when they are not on a common rank, file or diagonal).
const fn line_tables() -> ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) {
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut k = 0;
        while k < 8 {
            let (df, dr) = KING_STEPS[k];
            // Walk from a in direction (df, dr); squares passed are between a and the next one.
            let mut full = 1u64 << a;
            let mut f = (a % 8) as i32 + df;
            let mut r = (a / 8) as i32 + dr;
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                full |= 1u64 << (r * 8 + f);
                f += df;
                r += dr;
            }
            let mut f = (a % 8) as i32 - df;
            let mut r = (a / 8) as i32 - dr;
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                full |= 1u64 << (r * 8 + f);
                f -= df;
                r -= dr;
            }
            let mut passed = 0u64;
            let mut f = (a % 8) as i32 + df;
            let mut r = (a / 8) as i32 + dr;
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                let b = (r * 8 + f) as usize;
                between[a][b] = passed;
                line[a][b] = full;
                passed |= 1u64 << b;
                f += df;
                r += dr;
            }
            k += 1;
        }
        a += 1;
    }
    (between, line)
}

/// Knight attacks from each square.
pub static KNIGHT: [Bitboard; 64] = leaper_table(&KNIGHT_STEPS);
/// King attacks from each square.
pub static KING: [Bitboard; 64] = leaper_table(&KING_STEPS);
/// Pawn attacks `[side][square]` (side 0 = White, attacking upwards).
pub static PAWN: [[Bitboard; 64]; 2] = pawn_table();
static LINES: ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) = line_tables();

/// Squares strictly between `a` and `b` when aligned, else empty.
#[inline(always)]
pub fn between(a: usize, b: usize) -> Bitboard {
    LINES.0[a][b]
}

/// The full line through `a` and `b` when aligned (both included), else empty.
#[inline(always)]
pub fn line(a: usize, b: usize) -> Bitboard {
    LINES.1[a][b]
}

/// Rook attacks on an empty board.
pub static ROOK_EMPTY: [Bitboard; 64] = empty_table(&ROOK_DIRS);
/// Bishop attacks on an empty board.
pub static BISHOP_EMPTY: [Bitboard; 64] = empty_table(&BISHOP_DIRS);

const fn empty_table(dirs: &[(i32, i32); 4]) -> [Bitboard; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = slide(sq, 0, dirs);
        sq += 1;
    }
    t
}

#[derive(Clone, Copy, Default)]
struct Magic {
    mask: Bitboard,
    magic: u64,
    shift: u32,
    offset: usize,
}

impl Magic {
    #[inline(always)]
    fn index(&self, occ: Bitboard) -> usize {
        self.offset + ((occ & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
    }
}

/// Magic lookup tables for rooks and bishops.
pub struct Sliders {
    rook: [Magic; 64],
    bishop: [Magic; 64],
    table: Vec<Bitboard>,
}

impl Sliders {
    /// Rook attacks from `sq` with occupancy `occ`.
    #[inline(always)]
    pub fn rook(&self, sq: usize, occ: Bitboard) -> Bitboard {
        let i = self.rook[sq].index(occ);
        // The index is below the table length by construction (`offset + 2^bits`).
        self.table[i]
    }

    /// Bishop attacks from `sq` with occupancy `occ`.
    #[inline(always)]
    pub fn bishop(&self, sq: usize, occ: Bitboard) -> Bitboard {
        let i = self.bishop[sq].index(occ);
        self.table[i]
    }

    /// Queen attacks from `sq` with occupancy `occ`.
    #[inline(always)]
    pub fn queen(&self, sq: usize, occ: Bitboard) -> Bitboard {
        self.rook(sq, occ) | self.bishop(sq, occ)
    }
}

/// Xorshift64* (the generator Stockfish uses to search its magics).
struct Prng(u64);

impl Prng {
    fn rand(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(2_685_821_657_736_338_717)
    }
    fn sparse(&mut self) -> u64 {
        self.rand() & self.rand() & self.rand()
    }
}

fn init_magics(dirs: &[(i32, i32); 4], magics: &mut [Magic; 64], table: &mut Vec<Bitboard>) {
    const SEEDS: [u64; 8] = [728, 10316, 55013, 32803, 12281, 15100, 16645, 255];
    let mut occupancies = Vec::with_capacity(4096);
    let mut references = Vec::with_capacity(4096);
    let mut epoch = vec![0u32; 4096];
    let mut used = vec![0u64; 4096];
    let mut attempt = 0u32;
    for sq in 0..64 {
        let rank = sq / 8;
        let file = sq % 8;
        let edges = ((0xFFu64 | (0xFFu64 << 56)) & !(0xFFu64 << (8 * rank)))
            | ((super::bitboard::FILE_A | super::bitboard::FILE_H)
                & !(super::bitboard::FILE_A << file));
        let mask = slide(sq, 0, dirs) & !edges;
        let bits = mask.count_ones();
        occupancies.clear();
        references.clear();
        // Carry-Rippler enumeration of every subset of the mask.
        let mut sub = 0u64;
        loop {
            occupancies.push(sub);
            references.push(slide(sq, sub, dirs));
            sub = sub.wrapping_sub(mask) & mask;
            if sub == 0 {
                break;
            }
        }
        let size = 1usize << bits;
        let offset = table.len();
        table.resize(offset + size, 0);
        let mut rng = Prng(SEEDS[rank]);
        let shift = 64 - bits;
        loop {
            let mut magic = rng.sparse();
            while (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
                magic = rng.sparse();
            }
            attempt += 1;
            let mut ok = true;
            for (i, &occ) in occupancies.iter().enumerate() {
                let idx = ((occ.wrapping_mul(magic)) >> shift) as usize;
                if epoch[idx] != attempt {
                    epoch[idx] = attempt;
                    used[idx] = references[i];
                } else if used[idx] != references[i] {
                    ok = false;
                    break;
                }
            }
            if ok {
                for (i, &occ) in occupancies.iter().enumerate() {
                    let idx = ((occ.wrapping_mul(magic)) >> shift) as usize;
                    table[offset + idx] = references[i];
                }
                magics[sq] = Magic {
                    mask,
                    magic,
                    shift,
                    offset,
                };
                break;
            }
        }
    }
}

fn build_sliders() -> Box<Sliders> {
    let mut s = Box::new(Sliders {
        rook: [Magic::default(); 64],
        bishop: [Magic::default(); 64],
        table: Vec::new(),
    });
    // 102400 rook entries and 5248 bishop entries for these masks.
    let mut table = Vec::with_capacity(102_400 + 5_248);
    init_magics(&ROOK_DIRS, &mut s.rook, &mut table);
    init_magics(&BISHOP_DIRS, &mut s.bishop, &mut table);
    s.table = table;
    s
}

static SLIDERS: LazyLock<Box<Sliders>> = LazyLock::new(build_sliders);

/// The slider tables (built at first use).
#[inline(always)]
pub fn sliders() -> &'static Sliders {
    &SLIDERS
}

/// Rook attacks computed square by square (reference for tests).
pub fn slow_rook(sq: usize, occ: Bitboard) -> Bitboard {
    slide(sq, occ, &ROOK_DIRS)
}

/// Bishop attacks computed square by square (reference for tests).
pub fn slow_bishop(sq: usize, occ: Bitboard) -> Bitboard {
    slide(sq, occ, &BISHOP_DIRS)
}
