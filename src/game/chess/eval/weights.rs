//! The tunable weights of the chess evaluation (UCI spin options, see `crate::params`).
//!
//! Defaults: material from PeSTO; the other terms start from common published values
//! (chessprogramming.org, classic hand-tuned engines) scaled to go with PeSTO's tables.
//! Penalties are stored as positive numbers and subtracted.

use crate::params::Param;

macro_rules! params {
    ($($id:ident = $name:literal, $default:expr, $min:expr, $max:expr, $step:expr;)*) => {
        $(
            #[doc = concat!("`", $name, "`")]
            pub(super) static $id: Param = Param::new($name, $default, $min, $max, $step);
        )*
        /// Every weight, in declaration order.
        pub static PARAMS: &[&Param] = &[$(&$id),*];
    };
}

params! {
    PAWN_MG = "Chess Pawn MG", 82, 0, 400, 5;
    PAWN_EG = "Chess Pawn EG", 94, 0, 400, 5;
    KNIGHT_MG = "Chess Knight MG", 337, 0, 2000, 10;
    KNIGHT_EG = "Chess Knight EG", 281, 0, 2000, 10;
    BISHOP_MG = "Chess Bishop MG", 365, 0, 2000, 10;
    BISHOP_EG = "Chess Bishop EG", 297, 0, 2000, 10;
    ROOK_MG = "Chess Rook MG", 477, 0, 3000, 15;
    ROOK_EG = "Chess Rook EG", 512, 0, 3000, 15;
    QUEEN_MG = "Chess Queen MG", 1025, 0, 5000, 25;
    QUEEN_EG = "Chess Queen EG", 936, 0, 5000, 25;

    PST_MG_SCALE = "Chess PST MG Scale", 100, 0, 200, 5;
    PST_EG_SCALE = "Chess PST EG Scale", 100, 0, 200, 5;

    KNIGHT_MOB_MG = "Chess Knight Mobility MG", 4, 0, 30, 1;
    KNIGHT_MOB_EG = "Chess Knight Mobility EG", 4, 0, 30, 1;
    BISHOP_MOB_MG = "Chess Bishop Mobility MG", 5, 0, 30, 1;
    BISHOP_MOB_EG = "Chess Bishop Mobility EG", 5, 0, 30, 1;
    ROOK_MOB_MG = "Chess Rook Mobility MG", 2, 0, 30, 1;
    ROOK_MOB_EG = "Chess Rook Mobility EG", 4, 0, 30, 1;
    QUEEN_MOB_MG = "Chess Queen Mobility MG", 1, 0, 30, 1;
    QUEEN_MOB_EG = "Chess Queen Mobility EG", 2, 0, 30, 1;

    PASSED_R2_MG = "Chess Passed Rank2 MG", 0, -50, 300, 5;
    PASSED_R2_EG = "Chess Passed Rank2 EG", 5, -50, 300, 5;
    PASSED_R3_MG = "Chess Passed Rank3 MG", 0, -50, 300, 5;
    PASSED_R3_EG = "Chess Passed Rank3 EG", 10, -50, 300, 5;
    PASSED_R4_MG = "Chess Passed Rank4 MG", 5, -50, 300, 5;
    PASSED_R4_EG = "Chess Passed Rank4 EG", 20, -50, 300, 5;
    PASSED_R5_MG = "Chess Passed Rank5 MG", 15, -50, 300, 5;
    PASSED_R5_EG = "Chess Passed Rank5 EG", 35, -50, 300, 5;
    PASSED_R6_MG = "Chess Passed Rank6 MG", 25, -50, 300, 5;
    PASSED_R6_EG = "Chess Passed Rank6 EG", 50, -50, 300, 5;
    PASSED_R7_MG = "Chess Passed Rank7 MG", 40, -50, 300, 5;
    PASSED_R7_EG = "Chess Passed Rank7 EG", 70, -50, 300, 5;

    ISOLATED_MG = "Chess Isolated Pawn MG", 10, 0, 100, 2;
    ISOLATED_EG = "Chess Isolated Pawn EG", 12, 0, 100, 2;
    DOUBLED_MG = "Chess Doubled Pawn MG", 10, 0, 100, 2;
    DOUBLED_EG = "Chess Doubled Pawn EG", 20, 0, 100, 2;
    BACKWARD_MG = "Chess Backward Pawn MG", 8, 0, 100, 2;
    BACKWARD_EG = "Chess Backward Pawn EG", 8, 0, 100, 2;

    SHIELD_NEAR = "Chess King Shield Near MG", 12, 0, 100, 2;
    SHIELD_FAR = "Chess King Shield Far MG", 6, 0, 100, 2;
    ATTACK_KNIGHT = "Chess King Attack Knight", 2, 0, 20, 1;
    ATTACK_BISHOP = "Chess King Attack Bishop", 2, 0, 20, 1;
    ATTACK_ROOK = "Chess King Attack Rook", 3, 0, 20, 1;
    ATTACK_QUEEN = "Chess King Attack Queen", 5, 0, 20, 1;
    DANGER_MG = "Chess King Danger MG", 64, 0, 400, 8;
    DANGER_EG = "Chess King Danger EG", 1, 0, 50, 1;

    BISHOP_PAIR_MG = "Chess Bishop Pair MG", 30, 0, 200, 4;
    BISHOP_PAIR_EG = "Chess Bishop Pair EG", 50, 0, 200, 4;
    ROOK_OPEN_MG = "Chess Rook Open File MG", 25, 0, 100, 3;
    ROOK_OPEN_EG = "Chess Rook Open File EG", 10, 0, 100, 3;
    ROOK_SEMI_MG = "Chess Rook Semi Open File MG", 12, 0, 100, 3;
    ROOK_SEMI_EG = "Chess Rook Semi Open File EG", 8, 0, 100, 3;
    TEMPO = "Chess Tempo", 15, 0, 100, 2;

    OCB_SCALE = "Chess Opposite Bishops Scale", 32, 0, 64, 4;
    DRAWISH_SCALE = "Chess Drawish Scale", 16, 0, 64, 4;
}
