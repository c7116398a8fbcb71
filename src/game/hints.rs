//! [`SearchHints`]: what a game tells the generic search beyond its rules: which moves are noisy
//! and in what order to try them, static exchange, how deep quiescence may go, null moves, the
//! structure key of correction history, how the search counts repetitions, moves chosen by a
//! fixed rule or a cheap policy, its search-parameter defaults and its bench positions. Every
//! hint has a default that is always correct, only slower: a game need not write any.

use arrayvec::ArrayVec;

use super::{MoveBuffer, Outcome, Rules};

/// At most this many moves of one policy's ties ([`SearchHints::policy_ties_of`]).
pub const MAX_POLICY_TIES: usize = 16;

/// A 64-bit finaliser (splitmix64's): every bit of `x` reaches every bit of the result, so a key
/// built from bitboards or cells indexes a table by any of its bits.
#[inline]
pub fn mix_key(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The search's hints for one game.
pub trait SearchHints: Rules {
    /// The word that names the game in its search options (`Search <label> RFP Margin`, the
    /// search's parameter table); empty for a game without options of its own.
    const SEARCH_LABEL: &'static str = "";
    /// The game's own defaults of search parameters, as `(suffix, value)` pairs over the search's
    /// generic table; measured per game (docs/search.md).
    const SEARCH_DEFAULTS: &'static [(&'static str, i32)] = &[];
    /// The positions `sanqi bench` searches for this game (in the default setup).
    const BENCH_POSITIONS: &'static [&'static str] = &[];
    /// The depth `sanqi bench` searches them to (picked so the whole bench takes seconds).
    const BENCH_DEPTH: u32 = 1;

    /// Generates the legal "noisy" moves quiescence search looks at (captures and promotions; for
    /// Chinese checkers a game-appropriate subset). Cleared first. Default: none (quiescence
    /// stands pat).
    fn generate_noisy(&self, list: &mut Self::MoveList) {
        list.clear_moves();
    }
    /// Whether `m` is noisy (a capture or promotion) in this position. Default: no move is.
    fn is_noisy(&self, m: Self::Move) -> bool {
        let _ = m;
        false
    }
    /// An ordering hint for noisy moves (MVV-LVA or similar); larger is searched first.
    /// Default: all equal.
    fn noisy_order(&self, m: Self::Move) -> i32 {
        let _ = m;
        0
    }
    /// Whether the noisy move `m` wins at least `threshold` (in evaluation units) by static
    /// exchange evaluation; quiescence search skips noisy moves that lose material this way.
    /// Default: always true (no pruning), for games without such a test.
    fn see_ge(&self, m: Self::Move, threshold: i32) -> bool {
        let _ = (m, threshold);
        true
    }
    /// The position key ([`crate::game::Rules::hash`]) after the legal move `m`, or close to it,
    /// where the game can tell without making the move: the search loads the transposition
    /// table's line for it while the move is made. A wrong key costs only that early load.
    /// Default: `None` (the line is loaded once the move is made).
    fn key_after(&self, m: Self::Move) -> Option<u64> {
        let _ = m;
        None
    }
    /// Whether the legal move `m` gives check, where the game can tell without making it.
    /// Default: `None` (the search makes the move to see).
    fn gives_check(&self, m: Self::Move) -> Option<bool> {
        let _ = m;
        None
    }
    /// Pushes the legal quiet moves that give check onto `list` (not cleared), for the first
    /// ply of quiescence search with `Use QS Checks`. Default: none.
    fn push_quiet_checks(&self, list: &mut Self::MoveList) {
        let _ = list;
    }
    /// How many plies quiescence search may go past the nominal depth before it only stands
    /// pat (a side in check still searches its evasions). Default: no bound, for games whose
    /// noisy moves run out by themselves (captures). A game whose noisy moves do not run out
    /// (Chinese-checkers forward jumps: depth 1 of the start position takes millions of nodes
    /// without a bound) returns a small number such as 2.
    fn quiescence_plies(&self) -> u32 {
        u32::MAX
    }
    /// A key of the position's slowly changing structure (chess: the pawns; xiangqi: the
    /// soldiers), under which the search learns how far the static evaluation is off
    /// (correction history). Default: none (no correction).
    fn structure_key(&self) -> Option<u64> {
        None
    }
    /// Keys of each side's pieces other than the structure's (chess: every piece but the pawns;
    /// xiangqi: every piece but the soldiers), white / red first, under which correction history
    /// learns too with `Use Piece Correction`. Default: none.
    fn piece_keys(&self) -> Option<[u64; 2]> {
        None
    }
    /// The game's no-capture counter and the plies at which its rule ends the game (chess: the
    /// halfmove clock and 100; xiangqi: plies since a capture and 120), for `Use Fifty Scale`.
    /// Default: none.
    fn draw_clock(&self) -> Option<(u32, u32)> {
        None
    }
    /// Whether a null move may be tried by null-move pruning here. Default: never.
    fn can_null_move(&self) -> bool {
        false
    }
    /// [`Rules::rule_outcome`] as the search sees it: the last `plies_from_root` plies were
    /// played inside the search, and with `twofold` a position that repeats one of those
    /// (inside the search path) already counts as the repetition the rules would end the game
    /// with, as strong engines do (the side to move could repeat it again). Default: the rules.
    fn search_outcome(&self, plies_from_root: usize, twofold: bool) -> Option<Outcome> {
        let _ = (plies_from_root, twofold);
        self.rule_outcome()
    }
    /// A move chosen by a fixed rule instead of the search (a reference player selected by a
    /// setup option, e.g. Chinese checkers' greedy player with `CC Player` `greedy`): when it
    /// returns a move, `go` plays it at once without searching. Default: `None`, always search.
    fn rule_move(&self, config: &Self::Config) -> Option<Self::Move> {
        let _ = config;
        None
    }
    /// A cheap guess at the move the side to move will play, for multi-player search that
    /// models its opponents (`Search Multiplayer Opponents` 2 and 3): Chinese checkers' greedy
    /// move. Default: `None` (the modelled player passes).
    fn policy_move(&self) -> Option<Self::Move> {
        None
    }
    /// Whether `m` is a move the policy of [`SearchHints::policy_move`] would play here: the
    /// policy move itself, or a move tied with it by the policy's own rule (Chinese checkers: a
    /// move of the same gain and the same rearness, whatever the tie seed). Used to judge from a
    /// game's history which players play by the policy. Default: `m` is the policy move.
    fn is_policy_move(&self, m: Self::Move) -> bool {
        self.policy_move() == Some(m)
    }
    /// How many policies the multi-player search can model an opponent by (rule 0 is
    /// [`SearchHints::policy_move`]; Chinese checkers: greedy, rear piece first, longest jump
    /// first). The hybrid model gives each opponent the rule that best explains its recent
    /// moves. Default: 1.
    fn policy_rules(&self) -> usize {
        1
    }
    /// The move of policy `rule` (`0..policy_rules()`). Default: the policy move for rule 0.
    fn policy_move_of(&self, rule: usize) -> Option<Self::Move> {
        if rule == 0 {
            self.policy_move()
        } else {
            None
        }
    }
    /// [`SearchHints::is_policy_move`] for policy `rule`. Default: rule 0's.
    fn is_policy_move_of(&self, rule: usize, m: Self::Move) -> bool {
        rule == 0 && self.is_policy_move(m)
    }
    /// Every move policy `rule` may play here, whatever its tie-break (the moves
    /// [`SearchHints::is_policy_move_of`] accepts), into `out` (cleared first; the first
    /// [`MAX_POLICY_TIES`] in move-generation order where there are more), so that the search can
    /// allow for a modelled player breaking a tie otherwise than the model. Returns the policy
    /// move itself ([`SearchHints::policy_move_of`]), so that one pass over the moves finds
    /// both. Default: the policy move alone.
    fn policy_ties_of(
        &self,
        rule: usize,
        out: &mut ArrayVec<Self::Move, MAX_POLICY_TIES>,
    ) -> Option<Self::Move> {
        out.clear();
        let m = self.policy_move_of(rule);
        out.extend(m);
        m
    }
}
