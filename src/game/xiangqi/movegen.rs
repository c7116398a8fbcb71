//! Legal move generation.
//!
//! Moves are generated pseudo-legally from the piece lists; legality is decided per piece, so
//! most moves need no test at all. Once per node, for the side to move's general:
//! - a ray (up, down, right, left from the general) is *dangerous* when it holds an enemy
//!   chariot, cannon or general anywhere;
//! - a leg (a square diagonally next to the general) is *dangerous* when an enemy horse stands
//!   behind it;
//! - a ray is *forbidden up to a cannon* when its first piece is an enemy cannon: a piece that
//!   lands between the general and that cannon becomes its screen.
//!
//! When not in check, a piece other than the general that stands neither on a dangerous ray nor
//! on a dangerous leg (a *free* piece) can expose its general only by landing on a forbidden
//! stretch: leaving its square opens nothing (soldiers' attacks cannot be opened at all), and
//! landing elsewhere on a ray only adds a screen or blocks. Proof sketch for landing: if the
//! ray's first piece is not an enemy cannon, landing before it makes a new first piece in front
//! of a non-cannon (no check), landing behind it makes a second or later piece (a cannon behind
//! would already give check through the first piece, which is excluded), and capturing it keeps
//! the count of pieces on the ray.
//!
//! All other moves (pieces on dangerous rays or legs, general moves) are tested by playing them
//! on a scratch copy of the board and asking [`attacked`]. In check, a move by another piece
//! can only answer the check if it leaves or lands on a dangerous ray (every checking chariot,
//! cannon or general lies on one) or lands on a checking horse or soldier or a checking horse's
//! leg; only such moves are tested, the rest are skipped.

use super::board::{
    attacked, color_flag, Square, Steps, ADVISOR_STEPS, CANNON, ELEPHANT_STEPS, EMPTY, HORSE,
    HORSE_STEPS, KING, KING_STEPS, OFF, ORTHOGONAL, PAWN, PAWN_STEPS, ROOK, SLOTS, SLOT_ADVISOR,
    SLOT_CANNON, SLOT_ELEPHANT, SLOT_HORSE, SLOT_KING, SLOT_PAWN, SLOT_ROOK,
};
use super::{Move, Xiangqi, XiangqiMoveList};

/// The ray (0 up, 1 down, 2 right, 3 left) from `king` through `s`, or 4 if `s` is on neither
/// the general's file nor its rank. (`s == king` gives 1: only used for other squares.)
#[inline(always)]
fn ray_of(s: Square, king: Square) -> u32 {
    let x = s ^ king;
    if x & 0x0F == 0 {
        u32::from(s <= king)
    } else if x & 0xF0 == 0 {
        2 + u32::from(s < king)
    } else {
        4
    }
}

/// The leg (0..4) of the diagonal neighbour `s` of `king`, or 4.
#[inline(always)]
fn leg_of(s: Square, king: Square) -> u32 {
    match s.wrapping_sub(king) {
        17 => 0,
        15 => 1,
        241 => 2,
        239 => 3,
        _ => 4,
    }
}

/// Ray directions in the order of [`ray_of`].
const RAY_DIRECTIONS: [u8; 4] = [16, 240, 1, 255];

/// The per-node danger summary described in the module comment.
struct Danger {
    /// Bit `r`: ray `r` is dangerous (bit 4 is never set).
    rays: u32,
    /// Bit `l`: leg `l` is dangerous (bit 4 is never set).
    legs: u32,
    /// Per ray: the square of the enemy cannon that is its first piece, or 0.
    cannon: [u8; 4],
    /// Whether any entry of `cannon` is set.
    any_cannon: bool,
    /// In check only: the squares of checking horses and soldiers and the legs of checking
    /// horses (a move off the dangerous rays must land on one of them to answer the check).
    targets: [u8; 8],
    /// Number of entries of `targets` used.
    target_count: usize,
}

fn danger(board: &[u8; 256], king: Square, side: usize, in_check: bool) -> Danger {
    let them = color_flag(side ^ 1);
    let mut d = Danger {
        rays: 0,
        legs: 0,
        cannon: [0; 4],
        any_cannon: false,
        targets: [0; 8],
        target_count: 0,
    };
    for (r, dir) in RAY_DIRECTIONS.into_iter().enumerate() {
        let mut t = king.wrapping_add(dir);
        while board[t as usize] == EMPTY {
            t = t.wrapping_add(dir);
        }
        if board[t as usize] == them | CANNON {
            d.cannon[r] = t;
            d.any_cannon = true;
        }
        loop {
            let p = board[t as usize];
            if p == OFF {
                break;
            }
            if p == them | ROOK || p == them | CANNON || p == them | KING {
                d.rays |= 1 << r;
                break;
            }
            t = t.wrapping_add(dir);
        }
    }
    let horse = them | HORSE;
    for (l, (leg, a, c)) in [
        (17u8, 33u8, 18u8),
        (15, 31, 14),
        (241, 225, 242),
        (239, 223, 238),
    ]
    .into_iter()
    .enumerate()
    {
        let ha = board[king.wrapping_add(a) as usize] == horse;
        let hc = board[king.wrapping_add(c) as usize] == horse;
        if ha || hc {
            d.legs |= 1 << l;
            if in_check && board[king.wrapping_add(leg) as usize] == EMPTY {
                d.push_target(king.wrapping_add(leg));
                if ha {
                    d.push_target(king.wrapping_add(a));
                }
                if hc {
                    d.push_target(king.wrapping_add(c));
                }
            }
        }
    }
    if in_check {
        let pawn = them | PAWN;
        let ahead = if side == 0 {
            king.wrapping_add(16)
        } else {
            king.wrapping_sub(16)
        };
        for s in [ahead, king.wrapping_add(1), king.wrapping_sub(1)] {
            if board[s as usize] == pawn {
                d.push_target(s);
            }
        }
    }
    d
}

impl Danger {
    #[inline(always)]
    fn push_target(&mut self, s: Square) {
        // Two checking horses with their legs and three soldiers make 7 <= 8. Should more ever
        // come, the count saturates and `may_evade` lets every move through to the full test.
        if self.target_count < self.targets.len() {
            self.targets[self.target_count] = s;
            self.target_count += 1;
        } else {
            self.target_count = usize::MAX;
        }
    }

    /// In check: whether a non-general move `from`-`to` may answer the check at all.
    #[inline(always)]
    fn may_evade(&self, from: Square, to: Square, king: Square) -> bool {
        if (self.rays >> ray_of(from, king)) & 1 != 0 || (self.rays >> ray_of(to, king)) & 1 != 0 {
            return true;
        }
        if self.target_count == usize::MAX {
            return true;
        }
        self.targets[..self.target_count].contains(&to)
    }
}

/// How the moves of the current piece are checked.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// A free piece and no forbidden stretch: every move is legal.
    Free,
    /// A free piece: only landing between the general and a facing enemy cannon is illegal.
    Screen,
    /// Play the move on the scratch board and test.
    Test,
    /// In check: skip moves that cannot answer the check, test the others.
    Evade,
}

struct Generator<'a, const COUNT: bool> {
    /// Scratch copy of the board for legality tests (restored after each test).
    scratch: [u8; 256],
    king: Square,
    side: usize,
    in_check: bool,
    danger: Danger,
    mode: Mode,
    count: u32,
    list: &'a mut XiangqiMoveList,
}

impl<const COUNT: bool> Generator<'_, COUNT> {
    /// Chooses the mode for the moves of the piece on `from` (not the general).
    #[inline(always)]
    fn select(&mut self, from: Square) {
        self.mode = if self.in_check {
            Mode::Evade
        } else if (self.danger.rays >> ray_of(from, self.king)) & 1 != 0
            || (self.danger.legs >> leg_of(from, self.king)) & 1 != 0
        {
            Mode::Test
        } else if self.danger.any_cannon {
            Mode::Screen
        } else {
            Mode::Free
        };
    }

    #[inline(always)]
    fn emit(&mut self, from: Square, to: Square) {
        if COUNT {
            self.count += 1;
        } else {
            self.list.push(Move::new(from, to));
        }
    }

    #[inline(always)]
    fn add(&mut self, from: Square, to: Square) {
        match self.mode {
            Mode::Free => {}
            Mode::Screen => {
                let r = ray_of(to, self.king);
                if r < 4 {
                    let c = self.danger.cannon[r as usize];
                    let between = if r == 0 || r == 2 { to < c } else { to > c };
                    if c != 0 && between {
                        return;
                    }
                }
            }
            Mode::Test => {
                if !self.legal_after(from, to) {
                    return;
                }
            }
            Mode::Evade => {
                if !self.danger.may_evade(from, to, self.king) || !self.legal_after(from, to) {
                    return;
                }
            }
        }
        self.emit(from, to);
    }

    #[inline(never)]
    fn legal_after(&mut self, from: Square, to: Square) -> bool {
        let piece = self.scratch[from as usize];
        let captured = self.scratch[to as usize];
        self.scratch[to as usize] = piece;
        self.scratch[from as usize] = EMPTY;
        let king = if from == self.king { to } else { self.king };
        let bad = attacked(&self.scratch, king, self.side);
        self.scratch[from as usize] = piece;
        self.scratch[to as usize] = captured;
        !bad
    }

    /// Moves along a step table; `CHECK_VIA` tests the leg/eye square.
    #[inline(always)]
    fn steps<const ALL: bool, const CHECK_VIA: bool>(
        &mut self,
        board: &[u8; 256],
        from: Square,
        steps: &Steps,
        block: u8,
    ) {
        for i in 0..(steps.len as usize).min(8) {
            if CHECK_VIA && board[steps.via[i] as usize] != EMPTY {
                continue;
            }
            let to = steps.to[i];
            let p = board[to as usize];
            if p == EMPTY {
                if ALL {
                    self.add(from, to);
                }
            } else if p & block == 0 {
                self.add(from, to);
            }
        }
    }
}

/// Generates the legal moves (`ALL`) or the legal captures (`!ALL`) into `list`.
pub(super) fn generate<const ALL: bool>(pos: &Xiangqi, list: &mut XiangqiMoveList) {
    list.clear();
    run::<ALL, false>(pos, list);
}

/// Counts the legal moves without storing them (perft's last ply).
pub(super) fn count_moves(pos: &Xiangqi) -> u32 {
    let mut unused = XiangqiMoveList::new();
    run::<true, true>(pos, &mut unused)
}

#[inline(always)]
fn run<const ALL: bool, const COUNT: bool>(pos: &Xiangqi, list: &mut XiangqiMoveList) -> u32 {
    let us = pos.side;
    let block = color_flag(us) | OFF;
    let board: &[u8; 256] = &pos.board;
    let pieces: &[u8; SLOTS] = &pos.pieces[us];
    let king = pieces[SLOT_KING];
    let in_check = pos.st.in_check;
    let danger = danger(board, king, us, in_check);
    let mut g = Generator::<COUNT> {
        scratch: *board,
        king,
        side: us,
        in_check,
        danger,
        mode: Mode::Test,
        count: 0,
        list,
    };

    for &from in &pieces[SLOT_ROOK..SLOT_CANNON] {
        if from == 0 {
            continue;
        }
        g.select(from);
        for d in ORTHOGONAL {
            let mut to = from.wrapping_add(d);
            loop {
                let p = board[to as usize];
                if p == EMPTY {
                    if ALL {
                        g.add(from, to);
                    }
                    to = to.wrapping_add(d);
                    continue;
                }
                if p & block == 0 {
                    g.add(from, to);
                }
                break;
            }
        }
    }

    for &from in &pieces[SLOT_CANNON..SLOT_PAWN] {
        if from == 0 {
            continue;
        }
        g.select(from);
        for d in ORTHOGONAL {
            let mut to = from.wrapping_add(d);
            while board[to as usize] == EMPTY {
                if ALL {
                    g.add(from, to);
                }
                to = to.wrapping_add(d);
            }
            if board[to as usize] == OFF {
                continue;
            }
            // `to` is the screen; the first piece beyond it may be captured.
            to = to.wrapping_add(d);
            while board[to as usize] == EMPTY {
                to = to.wrapping_add(d);
            }
            if board[to as usize] & block == 0 {
                g.add(from, to);
            }
        }
    }

    for &from in &pieces[SLOT_HORSE..SLOT_ROOK] {
        if from != 0 {
            g.select(from);
            g.steps::<ALL, true>(board, from, &HORSE_STEPS[from as usize], block);
        }
    }

    for &from in &pieces[SLOT_PAWN..SLOTS] {
        if from != 0 {
            g.select(from);
            g.steps::<ALL, false>(board, from, &PAWN_STEPS[us][from as usize], block);
        }
    }

    for &from in &pieces[SLOT_ELEPHANT..SLOT_HORSE] {
        if from != 0 {
            g.select(from);
            g.steps::<ALL, true>(board, from, &ELEPHANT_STEPS[us][from as usize], block);
        }
    }

    for &from in &pieces[SLOT_ADVISOR..SLOT_ELEPHANT] {
        if from != 0 {
            g.select(from);
            g.steps::<ALL, false>(board, from, &ADVISOR_STEPS[us][from as usize], block);
        }
    }

    g.mode = Mode::Test;
    g.steps::<ALL, false>(board, king, &KING_STEPS[us][king as usize], block);
    g.count
}
