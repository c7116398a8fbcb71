//! The tunable weights of the chess evaluation (UCI spin options, see `crate::tune`).
//!
//! Defaults: material from PeSTO; the other terms start from common published values
//! (chessprogramming.org, classic hand-tuned engines) scaled to go with PeSTO's tables. The
//! threat and connected-pawn weights are hand-set values that won at fixed nodes and at 10+0.1
//! (docs/tuning.md, "Tuned weights at time control"); a Texel fit of them played weaker.
//! Penalties are stored as positive numbers and subtracted.

crate::declare_params! {
    /// Every weight, in declaration order.
    pub static PARAMS;
    pub(super) PAWN_MG = "Chess Pawn MG", 82, 0, 400, 5;
    pub(super) PAWN_EG = "Chess Pawn EG", 94, 0, 400, 5;
    pub(super) KNIGHT_MG = "Chess Knight MG", 337, 0, 2000, 10;
    pub(super) KNIGHT_EG = "Chess Knight EG", 281, 0, 2000, 10;
    pub(super) BISHOP_MG = "Chess Bishop MG", 365, 0, 2000, 10;
    pub(super) BISHOP_EG = "Chess Bishop EG", 297, 0, 2000, 10;
    pub(super) ROOK_MG = "Chess Rook MG", 477, 0, 3000, 15;
    pub(super) ROOK_EG = "Chess Rook EG", 512, 0, 3000, 15;
    pub(super) QUEEN_MG = "Chess Queen MG", 1025, 0, 5000, 25;
    pub(super) QUEEN_EG = "Chess Queen EG", 936, 0, 5000, 25;

    pub(super) PST_MG_SCALE = "Chess PST MG Scale", 100, 0, 200, 5;
    pub(super) PST_EG_SCALE = "Chess PST EG Scale", 100, 0, 200, 5;

    pub(super) KNIGHT_MOB_MG = "Chess Knight Mobility MG", 4, 0, 30, 1;
    pub(super) KNIGHT_MOB_EG = "Chess Knight Mobility EG", 4, 0, 30, 1;
    pub(super) BISHOP_MOB_MG = "Chess Bishop Mobility MG", 5, 0, 30, 1;
    pub(super) BISHOP_MOB_EG = "Chess Bishop Mobility EG", 5, 0, 30, 1;
    pub(super) ROOK_MOB_MG = "Chess Rook Mobility MG", 2, 0, 30, 1;
    pub(super) ROOK_MOB_EG = "Chess Rook Mobility EG", 4, 0, 30, 1;
    pub(super) QUEEN_MOB_MG = "Chess Queen Mobility MG", 1, 0, 30, 1;
    pub(super) QUEEN_MOB_EG = "Chess Queen Mobility EG", 2, 0, 30, 1;

    pub(super) PASSED_R2_MG = "Chess Passed Rank2 MG", 0, -50, 300, 5;
    pub(super) PASSED_R2_EG = "Chess Passed Rank2 EG", 5, -50, 300, 5;
    pub(super) PASSED_R3_MG = "Chess Passed Rank3 MG", 0, -50, 300, 5;
    pub(super) PASSED_R3_EG = "Chess Passed Rank3 EG", 10, -50, 300, 5;
    pub(super) PASSED_R4_MG = "Chess Passed Rank4 MG", 5, -50, 300, 5;
    pub(super) PASSED_R4_EG = "Chess Passed Rank4 EG", 20, -50, 300, 5;
    pub(super) PASSED_R5_MG = "Chess Passed Rank5 MG", 15, -50, 300, 5;
    pub(super) PASSED_R5_EG = "Chess Passed Rank5 EG", 35, -50, 300, 5;
    pub(super) PASSED_R6_MG = "Chess Passed Rank6 MG", 25, -50, 300, 5;
    pub(super) PASSED_R6_EG = "Chess Passed Rank6 EG", 50, -50, 300, 5;
    pub(super) PASSED_R7_MG = "Chess Passed Rank7 MG", 40, -50, 300, 5;
    pub(super) PASSED_R7_EG = "Chess Passed Rank7 EG", 70, -50, 300, 5;

    pub(super) ISOLATED_MG = "Chess Isolated Pawn MG", 10, 0, 100, 2;
    pub(super) ISOLATED_EG = "Chess Isolated Pawn EG", 12, 0, 100, 2;
    pub(super) DOUBLED_MG = "Chess Doubled Pawn MG", 10, 0, 100, 2;
    pub(super) DOUBLED_EG = "Chess Doubled Pawn EG", 20, 0, 100, 2;
    pub(super) BACKWARD_MG = "Chess Backward Pawn MG", 8, 0, 100, 2;
    pub(super) BACKWARD_EG = "Chess Backward Pawn EG", 8, 0, 100, 2;

    pub(super) SHIELD_NEAR = "Chess King Shield Near MG", 12, 0, 100, 2;
    pub(super) SHIELD_FAR = "Chess King Shield Far MG", 6, 0, 100, 2;
    pub(super) ATTACK_KNIGHT = "Chess King Attack Knight", 2, 0, 20, 1;
    pub(super) ATTACK_BISHOP = "Chess King Attack Bishop", 2, 0, 20, 1;
    pub(super) ATTACK_ROOK = "Chess King Attack Rook", 3, 0, 20, 1;
    pub(super) ATTACK_QUEEN = "Chess King Attack Queen", 5, 0, 20, 1;
    pub(super) DANGER_MG = "Chess King Danger MG", 64, 0, 400, 8;
    pub(super) DANGER_EG = "Chess King Danger EG", 1, 0, 50, 1;

    pub(super) BISHOP_PAIR_MG = "Chess Bishop Pair MG", 30, 0, 200, 4;
    pub(super) BISHOP_PAIR_EG = "Chess Bishop Pair EG", 50, 0, 200, 4;
    pub(super) ROOK_OPEN_MG = "Chess Rook Open File MG", 25, 0, 100, 3;
    pub(super) ROOK_OPEN_EG = "Chess Rook Open File EG", 10, 0, 100, 3;
    pub(super) ROOK_SEMI_MG = "Chess Rook Semi Open File MG", 12, 0, 100, 3;
    pub(super) ROOK_SEMI_EG = "Chess Rook Semi Open File EG", 8, 0, 100, 3;
    pub(super) TEMPO = "Chess Tempo", 15, 0, 100, 2;

    pub(super) THREAT_PAWN_MG = "Chess Threat By Pawn MG", 45, 0, 200, 4;
    pub(super) THREAT_PAWN_EG = "Chess Threat By Pawn EG", 40, 0, 200, 4;
    pub(super) THREAT_MINOR_MG = "Chess Threat By Minor MG", 30, 0, 200, 4;
    pub(super) THREAT_MINOR_EG = "Chess Threat By Minor EG", 20, 0, 200, 4;
    pub(super) THREAT_ROOK_MG = "Chess Threat By Rook MG", 30, 0, 200, 4;
    pub(super) THREAT_ROOK_EG = "Chess Threat By Rook EG", 15, 0, 200, 4;
    pub(super) PHALANX_MG = "Chess Pawn Phalanx MG", 5, 0, 100, 2;
    pub(super) PHALANX_EG = "Chess Pawn Phalanx EG", 5, 0, 100, 2;
    pub(super) SUPPORTED_MG = "Chess Pawn Supported MG", 8, 0, 100, 2;
    pub(super) SUPPORTED_EG = "Chess Pawn Supported EG", 6, 0, 100, 2;

    pub(super) OCB_SCALE = "Chess Opposite Bishops Scale", 32, 0, 64, 4;
    pub(super) DRAWISH_SCALE = "Chess Drawish Scale", 16, 0, 64, 4;
}
