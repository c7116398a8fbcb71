//! The chess static evaluation: a tapered (middlegame/endgame by game phase) sum of material,
//! piece-square tables, mobility, pawn structure, passed pawns, king safety, bishop pair,
//! rooks on open files and threats, plus a tempo bonus for the side to move, with endgame
//! scaling for drawish material.
//!
//! Every weight is a [`Param`] (see [`PARAMS`]) read at evaluation time, so `setoption`
//! changes the evaluation at once. Each term is computed for White minus Black with the same
//! code for both colours, so a colour-flipped position evaluates the same from the side to
//! move (tested in `tests/chess_eval.rs`).
//!
//! Definitions:
//! - pawn structure: doubled, isolated and backward pawns cost; a pawn beside an own pawn on
//!   the same rank (phalanx) and a pawn defended by an own pawn (supported) gain;
//! - threats: each enemy knight, bishop, rook or queen attacked by one of our pawns, each enemy
//!   rook or queen attacked by one of our knights or bishops, and each enemy queen attacked by
//!   one of our rooks;
//! - phase: knight and bishop 1, rook 2, queen 4 (24 at the start, capped there); the score is
//!   `(mg * phase + eg * scale / 64 * (24 - phase)) / 24`;
//! - tempo: `Chess Tempo` is added for the side to move after tapering, so a
//!   colour-symmetric position evaluates to exactly the tempo;
//! - draws: insufficient mating material, and a stronger side (by the endgame score) with no
//!   pawns and at most a bishop's worth of extra pieces and less than a rook in all (KNK,
//!   KBK, KNKB, ...) or with two knights only against a bare king, evaluate to 0 (no tempo).
//!   Other drawish cases (a rook against a minor piece, opposite-coloured bishops) scale the
//!   endgame part by a parameter.

mod pst;
mod weights;

pub use weights::PARAMS;
use weights::*;

use std::ops::{Add, AddAssign, Mul, Neg, Sub};

use super::attacks::{sliders, KING as KING_ATTACKS, KNIGHT as KNIGHT_ATTACKS};
use super::bitboard::{bit, rank_of, Bitboard, Squares, FILE_A, FILE_H, LIGHT_SQUARES};
use super::board::Chess;
use super::types::*;
use crate::game::Value;
use crate::tune::Param;

/// Fixed material values by piece kind (pawn, knight, bishop, rook, queen, king) for move
/// ordering (MVV-LVA) and material classification; the evaluation uses the parameters.
pub const VALUE: [Value; 6] = [100, 320, 330, 500, 900, 0];

/// The game phase at the start (and the cap).
const PHASE_MAX: i32 = 24;
/// Phase weight by piece kind.
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// The endgame scale of a normal position (out of 64).
const SCALE_NORMAL: i32 = 64;
/// Mobility counts are taken relative to these typical counts (knight, bishop, rook, queen),
/// so that the mobility term stays near 0 for an ordinary piece and material keeps its meaning.
const MOBILITY_CENTRE: [i32; 4] = [4, 6, 7, 13];
/// King-attack units are capped here before squaring.
const ATTACK_UNITS_CAP: i32 = 40;

/// A middlegame/endgame pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct S {
    mg: i32,
    eg: i32,
}

impl S {
    #[inline(always)]
    const fn new(mg: i32, eg: i32) -> S {
        S { mg, eg }
    }
}

impl Add for S {
    type Output = S;
    #[inline(always)]
    fn add(self, o: S) -> S {
        S::new(self.mg + o.mg, self.eg + o.eg)
    }
}

impl Sub for S {
    type Output = S;
    #[inline(always)]
    fn sub(self, o: S) -> S {
        S::new(self.mg - o.mg, self.eg - o.eg)
    }
}

impl AddAssign for S {
    #[inline(always)]
    fn add_assign(&mut self, o: S) {
        *self = *self + o;
    }
}

impl Neg for S {
    type Output = S;
    #[inline(always)]
    fn neg(self) -> S {
        S::new(-self.mg, -self.eg)
    }
}

impl Mul<i32> for S {
    type Output = S;
    #[inline(always)]
    fn mul(self, k: i32) -> S {
        S::new(self.mg * k, self.eg * k)
    }
}

/// The current value of a middlegame/endgame parameter pair.
#[inline(always)]
fn pair(mg: &Param, eg: &Param) -> S {
    S::new(mg.get(), eg.get())
}

#[inline(always)]
fn popcount(b: Bitboard) -> i32 {
    b.count_ones() as i32
}

/// Evaluation terms (indices into [`Breakdown::terms`]).
const MATERIAL: usize = 0;
const PSQT: usize = 1;
const MOBILITY: usize = 2;
const PAWNS: usize = 3;
const PASSED: usize = 4;
const KING_SAFETY: usize = 5;
const BISHOP_PAIR: usize = 6;
const ROOK_FILES: usize = 7;
const THREATS: usize = 8;
const NTERMS: usize = 9;

/// Names of the terms for the `eval` command.
const TERM_NAMES: [&str; NTERMS] = [
    "material",
    "piece-square",
    "mobility",
    "pawn structure",
    "passed pawns",
    "king safety",
    "bishop pair",
    "rook files",
    "threats",
];

/// Each term for White minus Black, and the game phase.
struct Breakdown {
    terms: [S; NTERMS],
    phase: i32,
}

// ---------------------------------------------------------------------------------------------
// Pawn bitboard helpers (`side` is the side whose pawns move: White up, Black down).

/// Every square of `b` and all squares ahead of them in `side`'s direction.
#[inline(always)]
fn fill_forward(mut b: Bitboard, side: usize) -> Bitboard {
    if side == WHITE {
        b |= b << 8;
        b |= b << 16;
        b |= b << 32;
    } else {
        b |= b >> 8;
        b |= b >> 16;
        b |= b >> 32;
    }
    b
}

/// `b` one rank forward for `side`.
#[inline(always)]
fn forward(b: Bitboard, side: usize) -> Bitboard {
    if side == WHITE {
        b << 8
    } else {
        b >> 8
    }
}

/// The squares strictly ahead of the squares of `b` (same file) for `side`.
#[inline(always)]
fn span_ahead(b: Bitboard, side: usize) -> Bitboard {
    fill_forward(forward(b, side), side)
}

/// Squares attacked by the pawns `b` of `side`.
#[inline(always)]
fn pawn_attacks(b: Bitboard, side: usize) -> Bitboard {
    forward(((b & !FILE_A) >> 1) | ((b & !FILE_H) << 1), side)
}

/// The squares next to those of `b` on the same rank (the neighbouring files).
#[inline(always)]
fn adjacent(b: Bitboard) -> Bitboard {
    ((b & !FILE_A) >> 1) | ((b & !FILE_H) << 1)
}

/// Passed-pawn bonus by rank seen from the pawn's side (1 = second rank ... 6 = seventh).
#[inline(always)]
fn passed_bonus(rel_rank: usize) -> S {
    match rel_rank {
        1 => pair(&PASSED_R2_MG, &PASSED_R2_EG),
        2 => pair(&PASSED_R3_MG, &PASSED_R3_EG),
        3 => pair(&PASSED_R4_MG, &PASSED_R4_EG),
        4 => pair(&PASSED_R5_MG, &PASSED_R5_EG),
        5 => pair(&PASSED_R6_MG, &PASSED_R6_EG),
        6 => pair(&PASSED_R7_MG, &PASSED_R7_EG),
        _ => S::default(),
    }
}

// ---------------------------------------------------------------------------------------------

/// The terms of `us` that need attacks, pawn structure or king context, from `us`'s side
/// (positive is good for `us`), added into `t` with `sign`.
#[inline(always)]
fn side_terms(pos: &Chess, us: usize, sign: i32, t: &mut [S; NTERMS]) {
    let them = us ^ 1;
    let occ = pos.occupied();
    let own = pos.by_side[us];
    let own_pawns = pos.pieces(us, PAWN);
    let opp_pawns = pos.pieces(them, PAWN);
    let their_pawn_attacks = pawn_attacks(opp_pawns, them);
    let area = !own & !their_pawn_attacks;
    let enemy_king = pos.king_square(them);
    let zone = KING_ATTACKS[enemy_king] | bit(enemy_king);
    let s = sliders();

    // Mobility and attacks on the enemy king zone.
    let mut mob = [0i32; 4];
    let mut attackers = 0;
    let mut units = 0;
    let mut minor_attacks: Bitboard = 0;
    let mut rook_attacks: Bitboard = 0;
    let w_knight = ATTACK_KNIGHT.get();
    for sq in Squares(pos.pieces(us, KNIGHT)) {
        let a = KNIGHT_ATTACKS[sq];
        minor_attacks |= a;
        mob[0] += popcount(a & area) - MOBILITY_CENTRE[0];
        let z = a & zone;
        if z != 0 {
            attackers += 1;
            units += w_knight * popcount(z);
        }
    }
    let w_bishop = ATTACK_BISHOP.get();
    let bishops = pos.pieces(us, BISHOP);
    for sq in Squares(bishops) {
        let a = s.bishop(sq, occ);
        minor_attacks |= a;
        mob[1] += popcount(a & area) - MOBILITY_CENTRE[1];
        let z = a & zone;
        if z != 0 {
            attackers += 1;
            units += w_bishop * popcount(z);
        }
    }
    let w_rook = ATTACK_ROOK.get();
    let mut rook_files = S::default();
    let all_pawns = own_pawns | opp_pawns;
    for sq in Squares(pos.pieces(us, ROOK)) {
        let a = s.rook(sq, occ);
        rook_attacks |= a;
        mob[2] += popcount(a & area) - MOBILITY_CENTRE[2];
        let z = a & zone;
        if z != 0 {
            attackers += 1;
            units += w_rook * popcount(z);
        }
        let file = FILE_A << (sq & 7);
        if file & all_pawns == 0 {
            rook_files += pair(&ROOK_OPEN_MG, &ROOK_OPEN_EG);
        } else if file & own_pawns == 0 {
            rook_files += pair(&ROOK_SEMI_MG, &ROOK_SEMI_EG);
        }
    }
    let w_queen = ATTACK_QUEEN.get();
    for sq in Squares(pos.pieces(us, QUEEN)) {
        let a = s.queen(sq, occ);
        mob[3] += popcount(a & area) - MOBILITY_CENTRE[3];
        let z = a & zone;
        if z != 0 {
            attackers += 1;
            units += w_queen * popcount(z);
        }
    }
    let mobility = pair(&KNIGHT_MOB_MG, &KNIGHT_MOB_EG) * mob[0]
        + pair(&BISHOP_MOB_MG, &BISHOP_MOB_EG) * mob[1]
        + pair(&ROOK_MOB_MG, &ROOK_MOB_EG) * mob[2]
        + pair(&QUEEN_MOB_MG, &QUEEN_MOB_EG) * mob[3];

    // King safety: our attack on their king, and our own pawn shield.
    let mut king = S::default();
    if attackers >= 2 {
        let u = units.min(ATTACK_UNITS_CAP);
        king += S::new(u * u * DANGER_MG.get() / 256, u * DANGER_EG.get());
    }
    let ksq = pos.king_square(us);
    let kb = bit(ksq);
    let near = forward(kb | adjacent(kb), us);
    let far = forward(near, us);
    king += S::new(
        popcount(own_pawns & near) * SHIELD_NEAR.get()
            + popcount(own_pawns & far) * SHIELD_FAR.get(),
        0,
    );

    // Pawn structure.
    let behind_own = span_ahead(own_pawns, them);
    let doubled = own_pawns & behind_own;
    let files = fill_forward(fill_forward(own_pawns, WHITE), BLACK);
    let isolated = own_pawns & !adjacent(files);
    let own_attack_span = fill_forward(pawn_attacks(own_pawns, us), us);
    let backward_stops = forward(own_pawns, us) & their_pawn_attacks & !own_attack_span;
    let backward = forward(backward_stops, them) & !isolated;
    let phalanx = own_pawns & adjacent(own_pawns);
    let supported = own_pawns & pawn_attacks(own_pawns, us);
    let pawns = pair(&PHALANX_MG, &PHALANX_EG) * popcount(phalanx)
        + pair(&SUPPORTED_MG, &SUPPORTED_EG) * popcount(supported)
        - (pair(&DOUBLED_MG, &DOUBLED_EG) * popcount(doubled)
            + pair(&ISOLATED_MG, &ISOLATED_EG) * popcount(isolated)
            + pair(&BACKWARD_MG, &BACKWARD_EG) * popcount(backward));

    // Threats: enemy pieces attacked by a lesser piece of ours.
    let their_majors = pos.pieces(them, ROOK) | pos.pieces(them, QUEEN);
    let their_pieces = their_majors | pos.pieces(them, KNIGHT) | pos.pieces(them, BISHOP);
    let threats = pair(&THREAT_PAWN_MG, &THREAT_PAWN_EG)
        * popcount(pawn_attacks(own_pawns, us) & their_pieces)
        + pair(&THREAT_MINOR_MG, &THREAT_MINOR_EG) * popcount(minor_attacks & their_majors)
        + pair(&THREAT_ROOK_MG, &THREAT_ROOK_EG) * popcount(rook_attacks & pos.pieces(them, QUEEN));

    // Passed pawns: no enemy pawn ahead on the same or a neighbouring file, and no own pawn
    // ahead on the same file.
    let blockers = span_ahead(opp_pawns, them) | fill_forward(their_pawn_attacks, them);
    let mut passed = S::default();
    for sq in Squares(own_pawns & !blockers & !behind_own) {
        let rel = if us == WHITE {
            rank_of(sq)
        } else {
            7 - rank_of(sq)
        };
        passed += passed_bonus(rel);
    }

    let pair_bonus = if bishops & LIGHT_SQUARES != 0 && bishops & !LIGHT_SQUARES != 0 {
        pair(&BISHOP_PAIR_MG, &BISHOP_PAIR_EG)
    } else {
        S::default()
    };

    t[MOBILITY] += mobility * sign;
    t[KING_SAFETY] += king * sign;
    t[PAWNS] += pawns * sign;
    t[PASSED] += passed * sign;
    t[BISHOP_PAIR] += pair_bonus * sign;
    t[ROOK_FILES] += rook_files * sign;
    t[THREATS] += threats * sign;
}

/// All terms for White minus Black.
#[inline(always)]
fn breakdown(pos: &Chess) -> Breakdown {
    let values = [
        pair(&PAWN_MG, &PAWN_EG),
        pair(&KNIGHT_MG, &KNIGHT_EG),
        pair(&BISHOP_MG, &BISHOP_EG),
        pair(&ROOK_MG, &ROOK_EG),
        pair(&QUEEN_MG, &QUEEN_EG),
        S::default(),
    ];
    let mut terms = [S::default(); NTERMS];
    let mut material = S::default();
    let mut psqt = S::default();
    let mut phase = 0;
    // One pass over the pieces: counts (popcount is a software routine without target
    // features, so counting in the loop is cheaper) and piece-square sums.
    for kind in PAWN..=KING {
        let (mg, eg) = (&pst::MG[kind], &pst::EG[kind]);
        let mut n = 0;
        for sq in Squares(pos.pieces(WHITE, kind)) {
            psqt += S::new(i32::from(mg[sq ^ 56]), i32::from(eg[sq ^ 56]));
            n += 1;
        }
        let mut m = 0;
        for sq in Squares(pos.pieces(BLACK, kind)) {
            psqt += S::new(-i32::from(mg[sq]), -i32::from(eg[sq]));
            m += 1;
        }
        material += values[kind] * (n - m);
        phase += PHASE_WEIGHT[kind] * (n + m);
    }
    terms[MATERIAL] = material;
    terms[PSQT] = S::new(
        psqt.mg * PST_MG_SCALE.get() / 100,
        psqt.eg * PST_EG_SCALE.get() / 100,
    );
    side_terms(pos, WHITE, 1, &mut terms);
    side_terms(pos, BLACK, -1, &mut terms);
    Breakdown {
        terms,
        phase: phase.min(PHASE_MAX),
    }
}

/// Non-pawn material of a side by the fixed [`VALUE`]s.
#[inline(always)]
fn non_pawn_material(pos: &Chess, side: usize) -> i32 {
    (KNIGHT..=QUEEN)
        .map(|k| VALUE[k] * popcount(pos.pieces(side, k)))
        .sum()
}

/// The endgame scale (out of 64) for the stronger side `strong`; 0 means a draw.
#[inline(always)]
fn endgame_scale(pos: &Chess, strong: usize, phase: i32) -> i32 {
    // Every rule below needs a stronger side without pawns or two lone bishops (phase 2).
    if pos.pieces(strong, PAWN) != 0 && phase != 2 {
        return SCALE_NORMAL;
    }
    let weak = strong ^ 1;
    let strong_npm = non_pawn_material(pos, strong);
    let weak_npm = non_pawn_material(pos, weak);
    if pos.pieces(strong, PAWN) == 0 {
        if strong_npm - weak_npm <= VALUE[BISHOP] {
            return if strong_npm < VALUE[ROOK] {
                0
            } else {
                DRAWISH_SCALE.get()
            };
        }
        if strong_npm == 2 * VALUE[KNIGHT] && popcount(pos.pieces(strong, KNIGHT)) == 2 {
            return if pos.by_side[weak] == pos.pieces(weak, KING) {
                0
            } else {
                DRAWISH_SCALE.get()
            };
        }
    }
    if strong_npm == VALUE[BISHOP] && weak_npm == VALUE[BISHOP] {
        let sb = pos.pieces(strong, BISHOP);
        let wb = pos.pieces(weak, BISHOP);
        if sb != 0 && wb != 0 && (sb & LIGHT_SQUARES != 0) != (wb & LIGHT_SQUARES != 0) {
            return OCB_SCALE.get();
        }
    }
    SCALE_NORMAL
}

/// Tapers a White-minus-Black pair.
#[inline(always)]
fn taper(s: S, phase: i32, scale: i32) -> i32 {
    (s.mg * phase + s.eg * scale / SCALE_NORMAL * (PHASE_MAX - phase)) / PHASE_MAX
}

/// The total for White minus Black, the endgame scale, and the breakdown.
///
/// The evaluation counts bits some thirty times; without a `popcnt` target feature in the
/// build, `count_ones` is a software routine, so on x86-64 a copy compiled with `popcnt` is
/// used when the CPU has it (`cargo bench --bench chess -- chess_evaluate`, start position:
/// 124 ns plain, 103 ns with `popcnt`).
#[inline(always)]
fn white_eval(pos: &Chess) -> (i32, i32, Breakdown) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the only precondition of a `target_feature` function is that the CPU
            // supports the feature, which was just checked.
            return unsafe { white_eval_popcnt(pos) };
        }
    }
    white_eval_body(pos)
}

/// [`white_eval_body`] compiled with `popcnt`.
///
/// # Safety
/// The CPU must support `popcnt`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn white_eval_popcnt(pos: &Chess) -> (i32, i32, Breakdown) {
    white_eval_body(pos)
}

#[inline(always)]
fn white_eval_body(pos: &Chess) -> (i32, i32, Breakdown) {
    let b = breakdown(pos);
    let total = b.terms.iter().fold(S::default(), |a, &t| a + t);
    let strong = if total.eg >= 0 { WHITE } else { BLACK };
    let scale = if pos.insufficient_material() {
        0
    } else {
        endgame_scale(pos, strong, b.phase)
    };
    (taper(total, b.phase, scale), scale, b)
}

/// The score from the side to move's point of view: 0 when drawn by material (see the module
/// documentation), else the tapered score plus the tempo bonus.
pub(crate) fn evaluate(pos: &Chess) -> Value {
    let (white, scale, _) = white_eval(pos);
    if scale == 0 {
        return 0;
    }
    let stm = if pos.side() == WHITE { white } else { -white };
    stm + TEMPO.get()
}

/// Each term's contribution from the side to move's view (tapered with the position's phase
/// and endgame scale), the tempo, a last correction for rounding and draw scoring so that the
/// entries add up, and the total (what [`evaluate`] returns) last.
pub(crate) fn eval_terms(pos: &Chess) -> Vec<(String, Value)> {
    let (_, scale, b) = white_eval(pos);
    let sign = if pos.side() == WHITE { 1 } else { -1 };
    let total = evaluate(pos);
    let mut out: Vec<(String, Value)> = TERM_NAMES
        .iter()
        .zip(b.terms.iter())
        .map(|(name, &t)| (name.to_string(), sign * taper(t, b.phase, scale)))
        .collect();
    out.push(("tempo".to_string(), TEMPO.get()));
    let sum: Value = out.iter().map(|(_, v)| v).sum();
    out.push((
        format!(
            "rounding and draw rules (phase {}/24, endgame scale {scale}/64)",
            b.phase
        ),
        total - sum,
    ));
    out.push(("total (side to move)".to_string(), total));
    out
}
