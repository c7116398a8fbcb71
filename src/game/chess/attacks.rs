//! Attack tables: leapers and lines are computed at compile time; sliders use magic bitboards
//! with fixed magics, whose tables are filled at first use into a static `LazyLock`.

use std::sync::LazyLock;

use super::bitboard::{Bitboard, FILE_A, FILE_H, RANK_1, RANK_8};

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
    /// 107648 entries used, padded to a power of two so a masked index needs no bounds check.
    table: Box<[Bitboard; TABLE_SIZE]>,
}

const TABLE_SIZE: usize = 1 << 17;

impl Sliders {
    /// Rook attacks from `sq` with occupancy `occ`.
    #[inline(always)]
    pub fn rook(&self, sq: usize, occ: Bitboard) -> Bitboard {
        let i = self.rook[sq].index(occ);
        self.table[i & (TABLE_SIZE - 1)]
    }

    /// Bishop attacks from `sq` with occupancy `occ`.
    #[inline(always)]
    pub fn bishop(&self, sq: usize, occ: Bitboard) -> Bitboard {
        let i = self.bishop[sq].index(occ);
        self.table[i & (TABLE_SIZE - 1)]
    }

    /// Queen attacks from `sq` with occupancy `occ`.
    #[inline(always)]
    pub fn queen(&self, sq: usize, occ: Bitboard) -> Bitboard {
        self.rook(sq, occ) | self.bishop(sq, occ)
    }
}

/// Rook magics (found once with Stockfish's xorshift64* search and seeds; every
/// occupancy is checked by `verify_magics`).
const ROOK_MAGICS: [u64; 64] = [
    0x0A80_0040_0080_1220,
    0x8040_0040_1000_2008,
    0x2080_2000_1000_8008,
    0x1100_1000_0821_0004,
    0xC200_2090_8402_0008,
    0x2100_0100_0400_0208,
    0x0400_0810_0082_2421,
    0x0200_0104_2204_8844,
    0x0800_8000_8040_0024,
    0x0001_4020_0040_1000,
    0x3000_8010_0080_2001,
    0x4400_8008_0010_0083,
    0x0904_8024_0248_0080,
    0x4040_8004_0002_0080,
    0x0018_8080_4200_0100,
    0x4040_8000_8000_4100,
    0x0040_0480_0145_8024,
    0x00A0_0040_0020_5000,
    0x3100_8080_1000_2000,
    0x4825_0100_1000_0820,
    0x5004_8080_0800_0401,
    0x2024_8180_0400_0A00,
    0x0005_8080_0200_0100,
    0x2100_0600_0480_6104,
    0x0080_4008_8000_8421,
    0x4062_2206_0041_0280,
    0x010A_004A_0010_8022,
    0x0000_1000_8008_0080,
    0x0021_0005_0008_0010,
    0x0044_0002_0200_1008,
    0x0000_1004_0008_0102,
    0xC020_1282_0004_0545,
    0x0080_0020_0040_0040,
    0x0000_8040_0080_2004,
    0x0000_1200_2200_4080,
    0x010A_3861_0300_1001,
    0x9010_0800_8080_0400,
    0x8440_0200_8080_0400,
    0x0004_2288_2400_1001,
    0x0000_0049_0A00_0084,
    0x0080_0020_0050_4000,
    0x2000_2000_5000_C000,
    0x0012_0880_2042_0010,
    0x0010_0100_8008_0800,
    0x0085_0010_0801_0004,
    0x0002_0002_0400_8080,
    0x0040_4130_0204_0008,
    0x0000_3040_8102_0004,
    0x0080_2040_0080_0080,
    0x3008_8040_0029_0100,
    0x1010_1000_8020_0080,
    0x2008_1002_0802_8080,
    0x5000_8508_0091_0100,
    0x8402_0190_0468_0200,
    0x0120_9110_2802_0400,
    0x0000_0080_4401_0200,
    0x0020_8502_0024_4012,
    0x0020_8502_0024_4012,
    0x0000_1020_0104_0841,
    0x1409_0004_0A10_0021,
    0x0002_0028_2410_A102,
    0x0002_0028_2410_A102,
    0x0002_0028_2410_A102,
    0x4048_2400_4380_2106,
];

/// Bishop magics (same origin).
const BISHOP_MAGICS: [u64; 64] = [
    0x4010_6000_A116_0020,
    0x0020_0102_5081_0120,
    0x2010_0102_2028_0081,
    0x0028_0600_4050_C040,
    0x0002_0210_1800_0000,
    0x2001_1120_1000_0400,
    0x0881_0101_2021_8080,
    0x1030_8201_1001_0500,
    0x0000_1202_2204_2400,
    0x2000_0204_0404_0044,
    0x8000_4800_9420_8000,
    0x0003_422A_0200_0001,
    0x000A_2202_1010_0040,
    0x8004_8202_0222_6000,
    0x0018_2348_5410_0800,
    0x0100_0040_4210_1040,
    0x0004_0010_0408_2820,
    0x0010_0008_1001_0048,
    0x1014_0042_0808_1300,
    0x2080_8188_0204_4202,
    0x0040_880C_00A0_0100,
    0x0080_4002_0052_2010,
    0x0001_0001_8818_0B04,
    0x0080_2492_0202_0204,
    0x1004_4000_0410_0410,
    0x0001_3100_A002_2206,
    0x2148_5000_0104_0080,
    0x4241_0800_1100_4300,
    0x4020_8480_0400_2000,
    0x1010_1380_D100_4100,
    0x0008_0044_2202_0284,
    0x0101_0A10_4100_8080,
    0x0808_0804_0008_2121,
    0x0808_0804_0008_2121,
    0x0091_1282_0010_0C00,
    0x0202_2008_0201_0104,
    0x8C0A_0202_0044_0085,
    0x01A0_0080_80B1_0040,
    0x0889_5200_8012_2800,
    0x1009_0202_2202_010A,
    0x0408_1A08_1600_2000,
    0x0000_6812_0800_5000,
    0x8170_8400_4100_8802,
    0x0A00_0042_0081_0805,
    0x0830_4044_0821_0100,
    0x2602_2081_0600_6102,
    0x1048_3006_8080_2628,
    0x2602_2081_0600_6102,
    0x0602_0101_2011_0040,
    0x0941_0108_0104_3000,
    0x0000_4044_0A21_0428,
    0x0008_2400_2088_0021,
    0x0400_0020_1204_8200,
    0x00AC_1020_0121_0220,
    0x0220_0210_0200_9900,
    0x8444_0C08_0A01_3080,
    0x0001_0080_4420_0440,
    0x0004_C044_1084_1000,
    0x2000_5001_0401_1130,
    0x1A0C_0100_11C2_0229,
    0x0044_8001_1220_2200,
    0x0434_8049_0810_0424,
    0x0300_4048_22C0_8200,
    0x4808_1010_008A_2A80,
];

/// Relevant occupancy mask of a slider on `sq`: its empty-board rays without the board edges
/// (a piece on the last square of a ray never changes the attack set).
fn relevant_mask(sq: usize, dirs: &[(i32, i32); 4]) -> Bitboard {
    let rank = sq / 8;
    let file = sq % 8;
    let edges =
        ((RANK_1 | RANK_8) & !(RANK_1 << (8 * rank))) | ((FILE_A | FILE_H) & !(FILE_A << file));
    slide(sq, 0, dirs) & !edges
}

fn init_magics(
    dirs: &[(i32, i32); 4],
    numbers: &[u64; 64],
    magics: &mut [Magic; 64],
    table: &mut Vec<Bitboard>,
) {
    for (sq, slot) in magics.iter_mut().enumerate() {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        let offset = table.len();
        table.resize(offset + (1usize << bits), 0);
        *slot = Magic {
            mask,
            magic: numbers[sq],
            shift: 64 - bits,
            offset,
        };
        // Carry-Rippler enumeration of every subset of the mask.
        let mut sub = 0u64;
        loop {
            let i = slot.index(sub);
            table[i] = slide(sq, sub, dirs);
            sub = sub.wrapping_sub(mask) & mask;
            if sub == 0 {
                break;
            }
        }
    }
}

/// Checks every occupancy subset of every square against the slow reference (for tests).
pub fn verify_magics() -> bool {
    let s = sliders();
    (0..64).all(|sq| {
        [(&ROOK_DIRS, true), (&BISHOP_DIRS, false)]
            .into_iter()
            .all(|(dirs, rook)| {
                let mask = relevant_mask(sq, dirs);
                let mut sub = 0u64;
                loop {
                    let got = if rook {
                        s.rook(sq, sub)
                    } else {
                        s.bishop(sq, sub)
                    };
                    if got != slide(sq, sub, dirs) {
                        return false;
                    }
                    sub = sub.wrapping_sub(mask) & mask;
                    if sub == 0 {
                        return true;
                    }
                }
            })
    })
}

fn build_sliders() -> Sliders {
    let mut rook = [Magic::default(); 64];
    let mut bishop = [Magic::default(); 64];
    // 102400 rook entries and 5248 bishop entries for these masks.
    let mut table = Vec::with_capacity(TABLE_SIZE);
    init_magics(&ROOK_DIRS, &ROOK_MAGICS, &mut rook, &mut table);
    init_magics(&BISHOP_DIRS, &BISHOP_MAGICS, &mut bishop, &mut table);
    table.resize(TABLE_SIZE, 0);
    let table: Box<[Bitboard; TABLE_SIZE]> = match table.into_boxed_slice().try_into() {
        Ok(t) => t,
        Err(_) => unreachable!("the table was resized to TABLE_SIZE"),
    };
    Sliders {
        rook,
        bishop,
        table,
    }
}

static SLIDERS: LazyLock<Sliders> = LazyLock::new(build_sliders);

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
