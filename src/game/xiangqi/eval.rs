//! The xiangqi evaluation, about 100 for a horse or a cannon (the UCCI convention).
//!
//! Terms (each computed for both sides, taken as side to move minus opponent):
//! - material, with separate opening/middlegame and endgame values per kind (cannons are worth
//!   more with many pieces on the board, horses in the endgame);
//! - piece-square tables ([`pst`], ElephantEye-style numbers), scaled by `Xiangqi PST Scale`;
//! - mobility of chariots, cannons (quiet squares up to the screen and the capture behind it)
//!   and horses (a blocked leg removes both jumps through it);
//! - king safety: missing advisors and elephants weighted by the opponent's attacking material,
//!   enemy chariots, horses, cannons and soldiers near the palace, and cannons on the general's
//!   file: an "empty" (hollow) cannon with nothing between, a cannon behind two screens;
//! - coordination: horse and cannon together, two horses guarding each other;
//! - soldiers: crossed the river, near the enemy palace, connected side by side;
//! - a small bonus for the side to move.
//!
//! Each term has a middlegame and an endgame part, blended by the game phase (from the pieces
//! left, ElephantEye's quadratic formula scaled to 0..=128). Every weight is a [`Param`] listed in
//! [`PARAMS`]; the search reads them at every evaluation, so `setoption` takes effect at once.

mod pst;

use super::board::{
    color_flag, file_of, kind_of, rank_of, square, Square, ADVISOR, CANNON, EMPTY, HORSE,
    HORSE_STEPS, KING, OFF, PAWN, ROOK, SLOTS, SLOT_ADVISOR, SLOT_CANNON, SLOT_ELEPHANT,
    SLOT_HORSE, SLOT_PAWN, SLOT_ROOK,
};
use super::Xiangqi;
use crate::game::Value;
use pst::{PST_EG, PST_MG};

/// Material by kind for move ordering (index = kind code): -, general, advisor, elephant, horse,
/// chariot, cannon, soldier. The evaluation itself uses the tunable material parameters.
pub const VALUE: [i32; 8] = [0, 0, 20, 20, 100, 220, 100, 20];

crate::declare_params! {
    /// Tunable weights of this evaluation (UCI spin options; see `crate::tune`).
    pub static PARAMS;
    /// Advisor, middlegame.
    pub ADVISOR_MG = "Xiangqi Advisor MG", 19, 0, 200, 4;
    /// Advisor, endgame.
    pub ADVISOR_EG = "Xiangqi Advisor EG", 24, 0, 200, 4;
    /// Elephant, middlegame.
    pub ELEPHANT_MG = "Xiangqi Elephant MG", 20, 0, 200, 4;
    /// Elephant, endgame.
    pub ELEPHANT_EG = "Xiangqi Elephant EG", 24, 0, 200, 4;
    /// Horse, middlegame.
    pub HORSE_MG = "Xiangqi Horse MG", 96, 0, 400, 6;
    /// Horse, endgame.
    pub HORSE_EG = "Xiangqi Horse EG", 112, 0, 400, 6;
    /// Chariot, middlegame.
    pub ROOK_MG = "Xiangqi Rook MG", 226, 0, 800, 10;
    /// Chariot, endgame.
    pub ROOK_EG = "Xiangqi Rook EG", 213, 0, 800, 10;
    /// Cannon, middlegame.
    pub CANNON_MG = "Xiangqi Cannon MG", 107, 0, 400, 6;
    /// Cannon, endgame.
    pub CANNON_EG = "Xiangqi Cannon EG", 103, 0, 400, 6;
    /// Soldier, middlegame (before the river; see the soldier terms for more).
    pub PAWN_MG = "Xiangqi Soldier MG", 19, 0, 200, 3;
    /// Soldier, endgame.
    pub PAWN_EG = "Xiangqi Soldier EG", 29, 0, 200, 3;
    /// Scale of the piece-square tables, 128 = as written.
    pub PST_SCALE = "Xiangqi PST Scale", 141, 0, 512, 12;
    /// Per square a chariot reaches (quiet or capture).
    pub ROOK_MOB = "Xiangqi Rook Mobility", 1, 0, 20, 1;
    /// Per square a horse reaches (legal jump: leg empty, no own piece on the target).
    pub HORSE_MOB = "Xiangqi Horse Mobility", 3, 0, 30, 1;
    /// Per square a cannon reaches (quiet up to the screen, capture behind it).
    pub CANNON_MOB = "Xiangqi Cannon Mobility", 1, 0, 20, 1;
    /// Per missing advisor at full enemy attack (2 per chariot, 1 per horse or cannon, up to 8).
    pub KS_ADVISOR = "Xiangqi KS Missing Advisor", 30, 0, 200, 4;
    /// Per missing elephant at full enemy attack.
    pub KS_ELEPHANT = "Xiangqi KS Missing Elephant", 25, 0, 200, 4;
    /// Per enemy chariot, horse, cannon or soldier in or next to the palace.
    pub KS_ATTACKER = "Xiangqi KS Palace Attacker", 4, 0, 100, 2;
    /// An enemy cannon on the general's file with nothing between, middlegame.
    pub KS_HOLLOW_MG = "Xiangqi KS Hollow Cannon MG", 51, 0, 300, 6;
    /// The same, endgame.
    pub KS_HOLLOW_EG = "Xiangqi KS Hollow Cannon EG", 3, 0, 300, 6;
    /// An enemy cannon on the general's file with exactly two pieces between (one of them
    /// moving away gives check; one piece between would already be check).
    pub KS_CENTRAL = "Xiangqi KS Central Cannon", 13, 0, 200, 3;
    /// Having at least one horse and at least one cannon.
    pub HORSE_CANNON = "Xiangqi Horse Cannon", 10, 0, 100, 2;
    /// Two horses of which one protects the other.
    pub HORSE_LINK = "Xiangqi Horse Link", 8, 0, 100, 2;
    /// Per soldier across the river, middlegame.
    pub PAWN_CROSSED_MG = "Xiangqi Soldier Crossed MG", 16, 0, 150, 3;
    /// Per soldier across the river, endgame.
    pub PAWN_CROSSED_EG = "Xiangqi Soldier Crossed EG", 27, 0, 150, 3;
    /// Per crossed soldier on the palace files (d, e, f), one to three ranks from the enemy back
    /// rank.
    pub PAWN_PALACE = "Xiangqi Soldier Near Palace", 9, 0, 150, 3;
    /// Per pair of crossed soldiers side by side.
    pub PAWN_CONNECTED = "Xiangqi Soldier Connected", 7, 0, 150, 3;
    /// Bonus for the side to move.
    pub TEMPO = "Xiangqi Tempo", 3, 0, 50, 1;
}

/// Names of the terms, in the order [`eval_terms`] reports them.
pub const TERM_NAMES: [&str; 6] = [
    "material",
    "piece-square",
    "mobility",
    "king safety",
    "coordination",
    "soldiers",
];
const T_MATERIAL: usize = 0;
const T_PST: usize = 1;
const T_MOBILITY: usize = 2;
const T_KING: usize = 3;
const T_COORD: usize = 4;
const T_PAWN: usize = 5;
const N_TERMS: usize = 6;

/// The phase weight of the middlegame: 128 with (nearly) all pieces, 0 with none left.
/// From the piece count `v` (chariot 6, horse and cannon 3, others 1; 66 at the start):
/// `(2 * 66 - v) * v / 66`, rescaled to 0..=128.
static PHASE: [i32; 67] = phase_table();

const fn phase_table() -> [i32; 67] {
    let mut t = [0; 67];
    let mut v = 0;
    while v <= 66 {
        t[v] = ((132 - v as i32) * v as i32 * 128) / (66 * 66);
        v += 1;
    }
    t
}

/// Squares near the palace of `side`: palace files widened by one (c..g), relative ranks 0..=3.
static NEAR_PALACE: [[bool; 256]; 2] = near_palace();

const fn near_palace() -> [[bool; 256]; 2] {
    let mut t = [[false; 256]; 2];
    let mut f = 2u8;
    while f <= 6 {
        let mut r = 0u8;
        while r <= 3 {
            t[0][square(f, r) as usize] = true;
            t[1][square(f, 9 - r) as usize] = true;
            r += 1;
        }
        f += 1;
    }
    t
}

/// The middlegame and endgame sums of each term, for one side.
#[derive(Clone, Copy, Default)]
struct Sums {
    mg: [i32; N_TERMS],
    eg: [i32; N_TERMS],
    /// This side's share of the phase count (chariot 6, horse and cannon 3, others 1).
    phase: i32,
}

/// Number of pieces in the slots `lo..hi`.
#[inline(always)]
fn count(list: &[u8; SLOTS], lo: usize, hi: usize) -> i32 {
    list[lo..hi].iter().map(|&s| i32::from(s != 0)).sum()
}

/// Whether the horse on `from` can jump to `to` on board `b` (leg empty).
#[inline(always)]
fn horse_reaches(b: &[u8; 256], from: Square, to: Square) -> bool {
    let st = &HORSE_STEPS[from as usize];
    (0..st.len as usize).any(|i| st.to[i] == to && b[st.via[i] as usize] == EMPTY)
}

/// Relative rank of `s` for `side` (0 = own back rank).
#[inline(always)]
fn rel_rank(side: usize, s: Square) -> u8 {
    if side == 0 {
        rank_of(s)
    } else {
        9 - rank_of(s)
    }
}

/// How many pieces of each kind but the general one side has.
#[derive(Clone, Copy)]
struct Counts {
    advisors: i32,
    elephants: i32,
    horses: i32,
    rooks: i32,
    cannons: i32,
    pawns: i32,
}

impl Counts {
    /// The counts of the piece list `list`.
    #[inline(always)]
    fn of(list: &[u8; SLOTS]) -> Self {
        Self {
            advisors: count(list, SLOT_ADVISOR, SLOT_ELEPHANT),
            elephants: count(list, SLOT_ELEPHANT, SLOT_HORSE),
            horses: count(list, SLOT_HORSE, SLOT_ROOK),
            rooks: count(list, SLOT_ROOK, SLOT_CANNON),
            cannons: count(list, SLOT_CANNON, SLOT_PAWN),
            pawns: count(list, SLOT_PAWN, SLOTS),
        }
    }

    /// This side's share of the phase count (chariot 6, horse and cannon 3, others 1).
    #[inline(always)]
    fn phase(&self) -> i32 {
        6 * self.rooks
            + 3 * (self.horses + self.cannons)
            + self.advisors
            + self.elephants
            + self.pawns
    }

    /// Material, middlegame and endgame.
    #[inline(always)]
    fn material(&self) -> (i32, i32) {
        let mg = self.advisors * ADVISOR_MG.get()
            + self.elephants * ELEPHANT_MG.get()
            + self.horses * HORSE_MG.get()
            + self.rooks * ROOK_MG.get()
            + self.cannons * CANNON_MG.get()
            + self.pawns * PAWN_MG.get();
        let eg = self.advisors * ADVISOR_EG.get()
            + self.elephants * ELEPHANT_EG.get()
            + self.horses * HORSE_EG.get()
            + self.rooks * ROOK_EG.get()
            + self.cannons * CANNON_EG.get()
            + self.pawns * PAWN_EG.get();
        (mg, eg)
    }
}

/// The piece-square sums (middlegame, endgame; unscaled) of `us`'s pieces, and how many of its
/// chariots, horses, cannons and soldiers stand near the palace of `them`.
#[inline(always)]
fn pst_and_near(list: &[u8; SLOTS], us: usize, them: usize) -> (i32, i32, i32) {
    let mut pst_mg = 0i32;
    let mut pst_eg = 0i32;
    let mut near = 0i32;
    let zone = &NEAR_PALACE[them];
    // Kind by kind: each slot range holds one kind.
    for (lo, hi, kind) in [
        (0, SLOT_ADVISOR, KING),
        (SLOT_ADVISOR, SLOT_HORSE, ADVISOR),
        (SLOT_HORSE, SLOT_ROOK, HORSE),
        (SLOT_ROOK, SLOT_CANNON, ROOK),
        (SLOT_CANNON, SLOT_PAWN, CANNON),
        (SLOT_PAWN, SLOTS, PAWN),
    ] {
        let tmg = &PST_MG[kind as usize][us];
        let teg = &PST_EG[kind as usize][us];
        for &s in &list[lo..hi] {
            // Square 0 (no piece) holds 0 in every table and is never near a palace.
            pst_mg += i32::from(tmg[s as usize]);
            pst_eg += i32::from(teg[s as usize]);
            near += i32::from(lo >= SLOT_HORSE && zone[s as usize]);
        }
    }
    (pst_mg, pst_eg, near)
}

/// The empty squares from `from` (not included) in direction `d`, and the first square that
/// is not empty (a piece or off the board).
#[inline(always)]
fn ray(b: &[u8; 256], from: Square, d: u8) -> (i32, Square) {
    let mut empty = 0;
    let mut x = from.wrapping_add(d);
    while b[x as usize] == EMPTY {
        empty += 1;
        x = x.wrapping_add(d);
    }
    (empty, x)
}

/// Whether a piece of the side `own` (its colour flag) could capture on `x`: an enemy piece
/// stands there.
#[inline(always)]
fn capturable(b: &[u8; 256], x: Square, own: u8) -> bool {
    let p = b[x as usize];
    p != OFF && p & own == 0
}

/// The mobility term of the side `own` (its colour flag) with the piece list `list`.
#[inline(always)]
fn mobility(b: &[u8; 256], list: &[u8; SLOTS], own: u8) -> i32 {
    let mut rook_mob = 0i32;
    for &s in &list[SLOT_ROOK..SLOT_CANNON] {
        if s == 0 {
            continue;
        }
        for d in super::board::ORTHOGONAL {
            let (empty, x) = ray(b, s, d);
            rook_mob += empty + i32::from(capturable(b, x, own));
        }
    }
    let mut cannon_mob = 0i32;
    for &s in &list[SLOT_CANNON..SLOT_PAWN] {
        if s == 0 {
            continue;
        }
        for d in super::board::ORTHOGONAL {
            let (empty, screen) = ray(b, s, d);
            cannon_mob += empty;
            if b[screen as usize] == OFF {
                continue;
            }
            let (_, x) = ray(b, screen, d);
            cannon_mob += i32::from(capturable(b, x, own));
        }
    }
    let mut horse_mob = 0i32;
    for &s in &list[SLOT_HORSE..SLOT_ROOK] {
        if s == 0 {
            continue;
        }
        let st = &HORSE_STEPS[s as usize];
        for i in 0..st.len as usize {
            horse_mob +=
                i32::from(b[st.via[i] as usize] == EMPTY && b[st.to[i] as usize] & own == 0);
        }
    }
    rook_mob * ROOK_MOB.get() + cannon_mob * CANNON_MOB.get() + horse_mob * HORSE_MOB.get()
}

/// The attack (middlegame, endgame) of `us`'s cannons on the file of the enemy general on `k`:
/// hollow with nothing between, central with two pieces between.
#[inline(always)]
fn cannon_file_attack(b: &[u8; 256], list: &[u8; SLOTS], k: Square) -> (i32, i32) {
    let (mut mg, mut eg) = (0, 0);
    for &c in &list[SLOT_CANNON..SLOT_PAWN] {
        if c == 0 || file_of(c) != file_of(k) {
            continue;
        }
        let d: u8 = if c > k { 16 } else { 240 };
        let mut between = 0;
        let mut x = k.wrapping_add(d);
        while x != c {
            between += i32::from(b[x as usize] != EMPTY);
            x = x.wrapping_add(d);
        }
        if between == 0 {
            mg += KS_HOLLOW_MG.get();
            eg += KS_HOLLOW_EG.get();
        } else if between == 2 {
            mg += KS_CENTRAL.get();
            eg += KS_CENTRAL.get();
        }
    }
    (mg, eg)
}

/// `us`'s attack on the palace of `them` (middlegame, endgame), from `near` attackers next to
/// it, missing defenders weighted by `counts` of `us`, and cannons on the general's file.
///
/// The attack is their king-safety penalty: it is scored as a bonus for us, which is the same
/// thing in a zero-sum evaluation.
#[inline(always)]
fn palace_attack(pos: &Xiangqi, us: usize, counts: &Counts, near: i32) -> (i32, i32) {
    let mut attack_mg = near * KS_ATTACKER.get();
    let mut attack_eg = attack_mg;
    let their = &pos.pieces[us ^ 1];
    let weight = (2 * counts.rooks + counts.horses + counts.cannons).min(8);
    let leak = (2 - count(their, SLOT_ADVISOR, SLOT_ELEPHANT)) * KS_ADVISOR.get()
        + (2 - count(their, SLOT_ELEPHANT, SLOT_HORSE)) * KS_ELEPHANT.get();
    attack_mg += leak * weight / 8;
    attack_eg += leak * weight / 8;
    let k = their[0];
    if k != 0 {
        let (mg, eg) = cannon_file_attack(&pos.board, &pos.pieces[us], k);
        attack_mg += mg;
        attack_eg += eg;
    }
    (attack_mg, attack_eg)
}

/// The coordination term: horse and cannon together, two horses guarding each other.
#[inline(always)]
fn coordination(b: &[u8; 256], list: &[u8; SLOTS], counts: &Counts) -> i32 {
    let mut coord = 0;
    if counts.horses > 0 && counts.cannons > 0 {
        coord += HORSE_CANNON.get();
    }
    let (h1, h2) = (list[SLOT_HORSE], list[SLOT_HORSE + 1]);
    if h1 != 0 && h2 != 0 && (horse_reaches(b, h1, h2) || horse_reaches(b, h2, h1)) {
        coord += HORSE_LINK.get();
    }
    coord
}

/// The soldier terms of `us` (middlegame, endgame): crossed the river, near the enemy palace,
/// side by side.
#[inline(always)]
fn soldiers(b: &[u8; 256], list: &[u8; SLOTS], us: usize) -> (i32, i32) {
    let mut crossed = 0;
    let mut extra = 0;
    let pawn = color_flag(us) | PAWN;
    for &s in &list[SLOT_PAWN..SLOTS] {
        if s == 0 || rel_rank(us, s) < 5 {
            continue;
        }
        crossed += 1;
        let r = rel_rank(us, s);
        let f = file_of(s);
        if (3..=5).contains(&f) && (6..=8).contains(&r) {
            extra += PAWN_PALACE.get();
        }
        if b[s.wrapping_add(1) as usize] == pawn {
            extra += PAWN_CONNECTED.get();
        }
    }
    (
        crossed * PAWN_CROSSED_MG.get() + extra,
        crossed * PAWN_CROSSED_EG.get() + extra,
    )
}

/// All terms of `us`.
#[inline(always)]
fn side_sums(pos: &Xiangqi, us: usize) -> Sums {
    let b: &[u8; 256] = &pos.board;
    let list = &pos.pieces[us];
    let mut t = Sums::default();

    let (pst_mg, pst_eg, near) = pst_and_near(list, us, us ^ 1);
    let scale = PST_SCALE.get();
    t.mg[T_PST] = (pst_mg * scale) >> 7;
    t.eg[T_PST] = (pst_eg * scale) >> 7;

    let counts = Counts::of(list);
    t.phase = counts.phase();
    (t.mg[T_MATERIAL], t.eg[T_MATERIAL]) = counts.material();

    let mob = mobility(b, list, color_flag(us));
    t.mg[T_MOBILITY] = mob;
    t.eg[T_MOBILITY] = mob;

    (t.mg[T_KING], t.eg[T_KING]) = palace_attack(pos, us, &counts, near);

    let coord = coordination(b, list, &counts);
    t.mg[T_COORD] = coord;
    t.eg[T_COORD] = coord;

    (t.mg[T_PAWN], t.eg[T_PAWN]) = soldiers(b, list, us);
    t
}

/// The phase (0 = bare endgame .. 128 = full middlegame) of a position.
pub fn phase(pos: &Xiangqi) -> i32 {
    let v: i32 = pos.pieces.iter().map(|list| Counts::of(list).phase()).sum();
    PHASE[v.min(66) as usize]
}

/// Blends a middlegame and an endgame value by `phase` (0..=128).
#[inline(always)]
fn blend(mg: i32, eg: i32, phase: i32) -> i32 {
    (mg * phase + eg * (128 - phase)) >> 7
}

/// Each term from the side to move's view (blended), in the order of [`TERM_NAMES`].
fn terms(pos: &Xiangqi) -> [i32; N_TERMS] {
    let us = pos.side;
    let a = side_sums(pos, us);
    let b = side_sums(pos, us ^ 1);
    let ph = PHASE[(a.phase + b.phase).min(66) as usize];
    let mut out = [0; N_TERMS];
    for (i, o) in out.iter_mut().enumerate() {
        *o = blend(a.mg[i] - b.mg[i], a.eg[i] - b.eg[i], ph);
    }
    out
}

/// Static evaluation from the side to move's point of view.
pub(super) fn evaluate(pos: &Xiangqi) -> Value {
    terms(pos).iter().sum::<i32>() + TEMPO.get()
}

/// The terms of [`evaluate`] with their names (side to move's view), the tempo bonus, and the
/// total last.
pub(super) fn eval_terms(pos: &Xiangqi) -> Vec<(String, Value)> {
    let t = terms(pos);
    let mut out: Vec<(String, Value)> = TERM_NAMES
        .iter()
        .zip(t)
        .map(|(n, v)| ((*n).to_string(), v))
        .collect();
    out.push(("tempo".to_string(), TEMPO.get()));
    out.push(("total (side to move)".to_string(), evaluate(pos)));
    out
}

/// MVV-LVA: most valuable victim first, then least valuable attacker.
pub(super) fn mvv_lva(victim: u8, attacker: u8) -> i32 {
    if victim == EMPTY || victim == OFF {
        return 0;
    }
    let v = VALUE[kind_of(victim) as usize] + if kind_of(victim) == KING { 10_000 } else { 0 };
    let a = if kind_of(attacker) == KING {
        300
    } else {
        VALUE[kind_of(attacker) as usize]
    };
    v * 16 - a / 10
}

/// Whether `side` has a piece that can attack: a chariot, horse, cannon or soldier.
pub(super) fn has_attackers(pos: &Xiangqi, side: usize) -> bool {
    pos.pieces[side][SLOT_HORSE..].iter().any(|&s| s != 0)
}
