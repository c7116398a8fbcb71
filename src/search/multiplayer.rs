//! Multi-player search: best-reply search (Schadd and Winands 2011, the default) and the
//! paranoid algorithm (Sturtevant and Korf), chosen by the `Search Multiplayer BRS` option
//! ([`BRS`]: 1 best-reply, 0 paranoid).
//!
//! With more than two players the root player maximises and the other players minimise the
//! root player's evaluation ([`crate::game::Evaluation::evaluate_for`] of the root player): the
//! others are treated as one coalition. The same negamax code serves both cases through the
//! notion of a *team*: with two players every player is its own team; with more the teams are
//! `{root}` and `{everyone else}`. A node's value is from the point of view of the team to
//! move, and a child's value is negated only when the team changes (two opponents in a row keep
//! the same sign and the same window). Terminal outcomes: a win of a player of the team to
//! move is `MATE - ply`, of the other team `-(MATE - ply)`.
//!
//! *Paranoid*: every player moves in turn, so the root player moves once every `n` plies.
//! *Best-reply search*: after each root move comes one layer where every move of every
//! opponent is tried and only the best one for the coalition counts (the other opponents pass:
//! [`crate::game::Rules::make_null_move`], only where [`crate::game::Rules::can_pass`]), so the root player moves every other layer and sees
//! deeper into its own plans. Mate scores count layers, so `Mate(k)` is still a win on the
//! root player's k-th move. The principal variation stops at the first opponents' layer (its
//! moves do not follow the turn order). Best-reply search needs a game whose null move hands
//! the turn on (Chinese checkers); for other games the search falls back to paranoid.
//!
//! *Opponent model* ([`OPPONENTS`], `Search Multiplayer Opponents`): the opponents' layer of
//! best-reply search may instead be played by a model, one move per opponent: every opponent in
//! turn plays its [`crate::game::SearchHints::policy_move`] (2; Chinese checkers: the greedy move, the
//! move a self-interested racer makes) or passes (1); in quiescence the modelled replies end the
//! line at the static evaluation. Against five greedy players at 20,000 nodes a move this won 29
//! of 30 six-player games where the best reply won 14 of 30, but against sanqi's own best-reply
//! search it lost (0 of 8 four-player games). The *hybrid* (3, the default) models only the
//! opponents that play by the policy: [`policy_players`] replays the game's last moves (from
//! `position ... moves ...`) and marks each player whose last [`POLICY_WINDOW`] moves (8) were
//! its policy move ([`crate::game::SearchHints::is_policy_move`]) but for at most [`POLICY_MISSES`] (1),
//! not counting its first [`POLICY_OPENING`] moves (3), and each player with no judged move yet
//! ([`POLICY_PRIOR`]); in the layer those play their policy move, and the best reply is
//! searched over the moves of the others ([`brs_moves`]; all modelled: as 2; none: plain best
//! reply). A game may offer several policies ([`crate::game::SearchHints::policy_rules`];
//! Chinese checkers: greedy, rear piece first, longest jump first): each player is judged by
//! each and modelled by the one it missed least ([`PolicyPlayers`]). A rule often ties several
//! moves, and a player breaks the tie its own way; so the layer also tries, one modelled opponent
//! at a time, each other move of its rule's ties ([`crate::game::SearchHints::policy_ties_of`]),
//! the coalition's best counting ([`POLICY_TIES`], in the search and in quiescence). Where
//! several rules fit a player's judged moves equally well, its ties also take those rules' moves
//! ([`POLICY_DOUBT`], [`PolicyPlayers::also`]): the layer plans against each rule the player
//! may be following. Measured in
//! docs/chinese-checkers.md, "Chinese checkers: against the greedy player", "Baseline
//! players", "Modelled players break ties their own way" and "Rules in doubt".
//!
//! Scores depend on who the root player is and on the algorithm, so the table key is salted
//! with both. Null move, reverse futility, futility and late-move pruning are off with more
//! than two players (their margins assume alternating opponents); late-move reductions stay on.
//!
//! Measured (`sanqi match`, Chinese checkers, 20,000 nodes a move, one best-reply engine
//! against paranoid engines in the other seats, seats rotated; an engine at par would score
//! 1/n of the games):
//!
//! | players | games | best-reply | paranoid engines |
//! |---|---|---|---|
//! | 3 | 60 | 36 wins (60%) | 15 and 9 wins |
//! | 4 | 20 | 12 wins (60%) | 2, 2 and 4 wins |
//! | 6 | 12 | 8 wins (67%) | 1, 1, 2, 0 and 0 wins |
//!
//! ```sh
//! sanqi match --game chinesecheckers --players 3 --nodes 20000 --rounds 20 --random-plies 6 \
//!   --seed 1 --engine cmd=sanqi name=brs "option.Search Multiplayer BRS=1" \
//!   --engine cmd=sanqi name=paranoid1 --engine cmd=sanqi name=paranoid2
//! ```
//! and likewise `--players 4 --rounds 5 --random-plies 8` with three paranoid engines and
//! `--players 6 --rounds 2 --random-plies 12` with five (made while the option's default was 0,
//! so the paranoid engines needed no option; today they need `option.Search Multiplayer BRS=0`).

use arrayvec::ArrayVec;

use crate::game::{GameMove, MoveBuffer, Notation, Outcome, Rules, SearchHints, MAX_POLICY_TIES};

use super::MATE;

/// The multi-player algorithm used by default when a game has more than two players.
pub const MULTIPLAYER_ALGORITHM: &str = "brs";

/// Default of [`BRS`] (1 exactly when [`MULTIPLAYER_ALGORITHM`] is `brs`; a test checks it).
const BRS_DEFAULT: i32 = 1;

crate::declare_params! {
    /// The multi-player search parameters.
    pub static PARAMS;
    /// 1: best-reply search, 0: paranoid (for more than two players).
    pub BRS = "Search Multiplayer BRS", BRS_DEFAULT, 0, 1, 1;
    /// The opponents' layer of best-reply search: 0, the best reply of any opponent for the
    /// coalition; 1, every opponent passes (the root player searches its race as if alone);
    /// 2, every opponent in turn plays its [`SearchHints::policy_move`] (a model of self-interested
    /// opponents; a pass where the game has none); 3, the hybrid: the opponents seen playing
    /// their policy move ([`policy_players`]) play it, the best reply is searched over the others.
    pub OPPONENTS = "Search Multiplayer Opponents", OPPONENTS_DEFAULT, 0, 3, 1;
    /// The hybrid ([`OPPONENTS`] 3) judges each opponent by its last this many moves.
    pub POLICY_WINDOW = "Search Multiplayer Policy Window", 8, 1, 32, 1;
    /// The hybrid models an opponent whose last [`POLICY_WINDOW`] moves differ from its
    /// policy move at most this often.
    pub POLICY_MISSES = "Search Multiplayer Policy Misses", 1, 0, 32, 1;
    /// The hybrid does not judge an opponent by its first this many moves of the game (the
    /// opening, where many moves tie and players follow their own habits); until it has made
    /// more it is modelled.
    pub POLICY_OPENING = "Search Multiplayer Policy Opening", 3, 0, 32, 1;
    /// 1: the hybrid models an opponent none of whose moves were judged yet; 0: it does not.
    pub POLICY_PRIOR = "Search Multiplayer Policy Prior", 1, 0, 1, 1;
    /// Modelled opponents' ties, as bits: 1, in the search the opponents' layer also tries each
    /// modelled opponent's other moves its rule ties with its policy move
    /// ([`SearchHints::policy_ties_of`]: the same rule with another tie-break), one opponent at a
    /// time, and the coalition's best counts; 2, the same in quiescence.
    pub POLICY_TIES = "Search Multiplayer Policy Ties", 3, 0, 3, 1;
    /// Where several rules fit a modelled opponent's judged moves equally well
    /// ([`PolicyPlayers::also`]), its ties in the layer ([`POLICY_TIES`]) also take the moves
    /// of the other fitting rules: 0, never (only its own rule's); 1, once a move of it was
    /// judged; 2, also before (every rule fits a player not judged yet).
    pub POLICY_DOUBT = "Search Multiplayer Policy Doubt", 0, 0, 2, 1;
}

/// Default of [`OPPONENTS`]: the hybrid.
const OPPONENTS_DEFAULT: i32 = 3;

/// The opponents the hybrid models ([`OPPONENTS`] 3), and the policy rule each is modelled by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PolicyPlayers {
    /// Bit `s`: seat `s` is modelled.
    pub modelled: u8,
    /// Seat `s`'s rule ([`SearchHints::policy_move_of`]; 0, the policy move, for a seat not
    /// judged yet).
    pub rule: [u8; 8],
    /// Bit `r` of `also[s]`: rule `r` fits seat `s`'s judged moves as well as `rule[s]` does (as
    /// few misses), so the seat may be playing by it instead (every other rule for a seat not
    /// judged yet); the layer tries those rules' moves too. Filled as [`POLICY_DOUBT`] says
    /// (all 0 with 0).
    pub also: [u8; 8],
}

/// The players (bit `s` for seat `s`) whose recent moves in a game were their
/// [`SearchHints::policy_move`] (any move [`SearchHints::is_policy_move`] accepts) in all but at most
/// [`POLICY_MISSES`] of their last [`POLICY_WINDOW`] moves, judged by replaying `moves` from
/// `start`; a player's first [`POLICY_OPENING`] moves of the game are not judged, and a player
/// with fewer judged moves is judged by those it made (none: modelled, unless [`POLICY_PRIOR`]
/// is 0). Where the game has several policies ([`SearchHints::policy_rules`]) each player is
/// judged by each, and gets the one it missed least (the lowest-numbered of those tied; the
/// others tied go into [`PolicyPlayers::also`], every other rule for a player not judged yet). The
/// hybrid opponent model ([`OPPONENTS`] 3) lets exactly these play their policy move in the opponents'
/// layer of best-reply search, each by its rule. Only the last moves of the game are looked at. `None` with two
/// players or fewer, or when a move of `moves` is not legal.
pub fn policy_players<G: SearchHints + Notation>(
    start: &G,
    moves: &[String],
    config: &G::Config,
) -> Option<PolicyPlayers> {
    let players = start.num_players();
    if players <= 2 {
        return None;
    }
    let window = POLICY_WINDOW.get().max(1) as usize;
    let allowed = POLICY_MISSES.get().max(0) as usize;
    let opening = POLICY_OPENING.get().max(0) as usize;
    let prior = POLICY_PRIOR.get() != 0;
    let doubt = POLICY_DOUBT.get().max(0) as usize;
    let judged_from = moves.len().saturating_sub(window * players);
    let mut pos = start.clone();
    let mut made = [0usize; 8];
    let mut seen = [0usize; 8];
    let rules = start.policy_rules().clamp(1, 8);
    let mut misses = [[0usize; 8]; 8];
    for (i, text) in moves.iter().enumerate() {
        let m = pos.parse_move(text, config).ok()?;
        let s = pos.side_to_move() % 8;
        made[s] += 1;
        if i >= judged_from && made[s] > opening && pos.rule_outcome().is_none() {
            seen[s] += 1;
            for (r, miss) in misses[s].iter_mut().enumerate().take(rules) {
                if !pos.is_policy_move_of(r, m) {
                    *miss += 1;
                }
            }
        }
        pos.make_move(m);
    }
    let mut found = PolicyPlayers::default();
    for s in 0..players.min(8) {
        let (fewest, rule) = (0..rules)
            .map(|r| (misses[s][r], r))
            .min()
            .unwrap_or((0, 0));
        if (seen[s] > 0 && fewest <= allowed) || (seen[s] == 0 && prior) {
            found.modelled |= 1 << s;
            found.rule[s] = if seen[s] > 0 { rule as u8 } else { 0 };
            // With no judged move every rule fits (all have no miss).
            if doubt > usize::from(seen[s] == 0) {
                found.also[s] = (0..rules)
                    .filter(|&r| misses[s][r] == fewest && r != usize::from(found.rule[s]))
                    .fold(0, |a, r| a | 1 << r);
            }
        }
    }
    Some(found)
}

/// How the opponents' layer of best-reply search is played ([`OPPONENTS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OpponentModel {
    /// Every move of every opponent; the best one for the coalition counts.
    BestReply,
    /// Every opponent passes.
    Pass,
    /// Every opponent plays its policy move.
    Policy,
}

/// The multi-player algorithm in use now (`paranoid` or `brs`, from [`BRS`]).
pub fn multiplayer_algorithm() -> &'static str {
    if BRS.get() != 0 {
        "brs"
    } else {
        "paranoid"
    }
}

/// How players are grouped for one search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Teams {
    /// The player to move at the root.
    pub root: usize,
    /// Paranoid mode (more than two players): the root against a coalition of the others.
    pub paranoid: bool,
    /// Best-reply search (more than two players, with [`BRS`] set): the coalition's layer
    /// plays only the best single reply of any opponent.
    pub brs: bool,
    /// How best-reply search plays the opponents' layer ([`OPPONENTS`]).
    pub model: OpponentModel,
    /// With [`OpponentModel::BestReply`]: the opponents (bit per seat) that play their policy
    /// move in the layer while the best reply is searched over the others (the hybrid,
    /// [`OPPONENTS`] 3); 0 for plain best-reply search.
    pub modelled: u8,
    /// The policy rule of each seat ([`PolicyPlayers::rule`]; all 0, the policy move, unless
    /// the hybrid judged otherwise).
    pub rules: [u8; 8],
    /// The other rules each seat may be playing by ([`PolicyPlayers::also`]; all 0 unless the
    /// hybrid judged so).
    pub also: [u8; 8],
    /// [`POLICY_TIES`]: bit 1, the layer allows for the modelled opponents' ties in the search;
    /// bit 2, in quiescence.
    pub ties: u8,
}

impl Teams {
    pub(crate) fn new(root: usize, players: usize) -> Self {
        Teams {
            root,
            paranoid: players > 2,
            brs: players > 2 && BRS.get() != 0,
            model: OpponentModel::BestReply,
            modelled: 0,
            rules: [0; 8],
            also: [0; 8],
            ties: 0,
        }
    }

    /// The teams of a search from `root`: best-reply search only where [`BRS`] is set and the
    /// game can pass a turn ([`Rules::can_pass`]: [`Rules::make_null_move`] hands the move to the
    /// next player), paranoid otherwise. `policy_players` ([`policy_players`]) chooses the
    /// modelled opponents of the hybrid ([`OPPONENTS`] 3); unknown (`None`): all of them.
    pub(crate) fn for_position<G: Rules>(root: &G, policy_players: Option<PolicyPlayers>) -> Self {
        let mut teams = Teams::new(root.side_to_move(), root.num_players());
        teams.brs = teams.brs && root.can_pass();
        let players = root.num_players().min(8);
        let opponents = ((1u16 << players) - 1) as u8 & !(1u8 << (teams.root % 8));
        teams.model = match OPPONENTS.get() {
            1 => OpponentModel::Pass,
            2 => OpponentModel::Policy,
            3 => {
                let known = policy_players.unwrap_or(PolicyPlayers {
                    modelled: u8::MAX,
                    ..PolicyPlayers::default()
                });
                teams.rules = known.rule;
                teams.also = known.also;
                let modelled = known.modelled & opponents;
                if modelled == opponents {
                    OpponentModel::Policy
                } else {
                    teams.modelled = modelled;
                    OpponentModel::BestReply
                }
            }
            _ => OpponentModel::BestReply,
        };
        teams.ties = POLICY_TIES.get().clamp(0, 3) as u8;
        teams
    }

    /// Whether seat `s` plays its policy move in the opponents' layer of best-reply search.
    #[inline]
    pub(crate) fn is_modelled(&self, s: usize) -> bool {
        s < 8 && self.modelled & (1 << s) != 0
    }

    /// Whether seat `s` plays its policy move in the opponents' layer: every opponent with
    /// [`OpponentModel::Policy`], the modelled ones in the hybrid.
    #[inline]
    pub(crate) fn plays_policy(&self, s: usize) -> bool {
        s != self.root && (self.model == OpponentModel::Policy || self.is_modelled(s))
    }

    /// Whether the layer allows for the modelled opponents' ties ([`POLICY_TIES`]), in
    /// quiescence (`quiescence`) or in the search.
    #[inline]
    pub(crate) fn ties_in(&self, quiescence: bool) -> bool {
        self.ties & if quiescence { 2 } else { 1 } != 0
    }

    /// The policy rule seat `s` is modelled by ([`SearchHints::policy_move_of`]).
    #[inline]
    pub(crate) fn rule(&self, s: usize) -> usize {
        usize::from(self.rules.get(s).copied().unwrap_or(0))
    }

    /// The other rules seat `s` may be playing by, as bits ([`Teams::also`]).
    #[inline]
    pub(crate) fn also(&self, s: usize) -> u8 {
        self.also.get(s).copied().unwrap_or(0)
    }

    /// Whether `a` and `b` play on the same side.
    #[inline]
    pub(crate) fn same(&self, a: usize, b: usize) -> bool {
        if self.paranoid {
            (a == self.root) == (b == self.root)
        } else {
            a == b
        }
    }

    /// Salt xored into table keys (zero in two-player mode).
    #[inline]
    pub(crate) fn key_salt(&self) -> u64 {
        if self.paranoid {
            (self.root as u64
                + 1
                + 8 * u64::from(self.brs)
                + 16 * self.model as u64
                + 256 * u64::from(self.modelled))
            .wrapping_add(
                u64::from_le_bytes(self.rules)
                    .wrapping_mul(0xD6E8_FEB8_6659_FD93)
                    .wrapping_mul(65536),
            )
            .wrapping_add(u64::from_le_bytes(self.also).wrapping_mul(0xA24B_AED4_963E_E407))
            .wrapping_add(u64::from(self.ties) << 60)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        } else {
            0
        }
    }

    /// Score of a finished game for the team of `to_move`, `ply` plies from the root.
    #[inline]
    pub(crate) fn outcome_score(&self, outcome: Outcome, to_move: usize, ply: usize) -> i32 {
        match outcome {
            Outcome::Draw => 0,
            Outcome::Win(p) => {
                if self.same(p, to_move) {
                    MATE - ply as i32
                } else {
                    -(MATE - ply as i32)
                }
            }
        }
    }
}

/// One move of the opponents' layer of best-reply search: the opponent `passes` places after
/// the side to move plays `mv`; the opponents before and after it pass, or, where modelled
/// ([`Teams::modelled`]), play their policy move, until the root player is to move.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BrsMove<M> {
    /// Opponents before the mover (passing or playing their policy move).
    pub passes: u8,
    /// The move.
    pub mv: M,
    /// Ordering key (larger first).
    pub order: i32,
}

impl<M: GameMove> BrsMove<M> {
    /// Move `mv` of opponent number `at` of the layer, ordered: the table move (bits `tt_move`)
    /// first, then by [`SearchHints::noisy_order`] in `pos` (where that opponent is to move).
    fn ordered<G: SearchHints<Move = M>>(pos: &G, at: usize, mv: M, tt_move: Option<u16>) -> Self {
        let order = if Some(mv.to_bits()) == tt_move {
            i32::MAX
        } else {
            pos.noisy_order(mv)
        };
        BrsMove {
            passes: at as u8,
            mv,
            order,
        }
    }
}

/// What [`line_make`] played, for [`brs_undo`]: one entry per opponent, `None` for a pass.
pub(crate) type LayerMoves<M> = ArrayVec<Option<M>, 8>;

/// Entries of a [`PolicyCache`] (a power of two).
const POLICY_CACHE_ENTRIES: usize = 1 << 14;

/// One position's policy move and ties for one rule ([`SearchHints::policy_ties_of`]).
#[derive(Clone)]
struct PolicyEntry<M> {
    /// The position's hash and the rule, mixed (0: empty).
    key: u64,
    chosen: Option<M>,
    ties: ArrayVec<M, MAX_POLICY_TIES>,
}

/// The modelled opponents' policy moves and ties by position, one table per search thread: the
/// same layers come back in every iteration of the deepening and in every line that transposes
/// into them, and each costs a move generation. An entry holds what the game returned for the
/// position, so the search sees the same moves with the table as without it.
pub(crate) struct PolicyCache<M> {
    entries: Vec<PolicyEntry<M>>,
    /// How many entries the table takes (a power of two).
    size: usize,
}

impl<M: Copy + PartialEq> PolicyCache<M> {
    /// An empty table (it takes its memory at the first look-up).
    pub(crate) fn new() -> Self {
        Self::with_entries(POLICY_CACHE_ENTRIES)
    }

    /// An empty table of `size` entries (rounded up to a power of two).
    fn with_entries(size: usize) -> Self {
        PolicyCache {
            entries: Vec::new(),
            size: size.max(1).next_power_of_two(),
        }
    }

    /// The policy move of the side to move of `pos` under its rule in `teams`, and the moves
    /// the rule ties with it, then those of the other rules it may be playing by
    /// ([`Teams::also`]) that are not among them yet (at most [`MAX_POLICY_TIES`] in all).
    pub(crate) fn get<G: SearchHints<Move = M>>(
        &mut self,
        pos: &G,
        teams: &Teams,
    ) -> (Option<M>, &[M]) {
        let rule = teams.rule(pos.side_to_move());
        let also = teams.also(pos.side_to_move());
        let model = rule as u64 + 1 + (u64::from(also) << 8);
        let key = (pos.hash() ^ model.wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1;
        if self.entries.is_empty() {
            self.entries = vec![
                PolicyEntry {
                    key: 0,
                    chosen: None,
                    ties: ArrayVec::new(),
                };
                self.size
            ];
        }
        let slot = (key as usize >> 1) & (self.entries.len() - 1);
        let entry = &mut self.entries[slot];
        if entry.key != key {
            entry.chosen = pos.policy_ties_of(rule, &mut entry.ties);
            let mut other = ArrayVec::new();
            for r in (0..8).filter(|&r| also & (1 << r) != 0) {
                pos.policy_ties_of(r, &mut other);
                for &m in &other {
                    if !entry.ties.contains(&m) && entry.ties.try_push(m).is_err() {
                        break;
                    }
                }
            }
            entry.key = key;
        }
        (entry.chosen, &entry.ties)
    }

    /// The policy move alone ([`PolicyCache::get`]).
    pub(crate) fn chosen<G: SearchHints<Move = M>>(&mut self, pos: &G, teams: &Teams) -> Option<M> {
        self.get(pos, teams).0
    }
}

/// Plays the move of opponent number `at` of the layer (0: the side to move): the chosen move
/// when it is that opponent's, its policy move when it is modelled and the game is not over,
/// a pass otherwise.
fn layer_step<G: SearchHints>(
    pos: &mut G,
    teams: &Teams,
    policy: &mut PolicyCache<G::Move>,
    at: usize,
    chosen: Option<BrsMove<G::Move>>,
    made: &mut LayerMoves<G::Move>,
) {
    let mv = match chosen {
        Some(c) if usize::from(c.passes) == at => Some(c.mv),
        _ if teams.plays_policy(pos.side_to_move()) && pos.rule_outcome().is_none() => {
            policy.chosen(pos, teams)
        }
        _ => None,
    };
    match mv {
        Some(m) => pos.make_move(m),
        None => pos.make_null_move(),
    }
    made.push(mv);
}

/// The moves (noisy ones only when `noisy`) of every opponent of `teams.root` that is not
/// modelled, starting with the side to move of `pos` (which must not be the root player), each
/// in the position where the opponents before it passed or, if modelled, played their policy
/// move (with [`POLICY_TIES`], also the moves their rule ties with it); ordered: the move with
/// bits `tt_move` first, then by [`SearchHints::noisy_order`]. Returns the layer's default line
/// (the modelled opponents' policy moves, the others passing), for [`line_make`]. `pos` is given
/// back unchanged.
pub(crate) fn brs_moves<G: SearchHints>(
    pos: &mut G,
    teams: &Teams,
    policy: &mut PolicyCache<G::Move>,
    noisy: bool,
    tt_move: Option<u16>,
    out: &mut Vec<BrsMove<G::Move>>,
) -> LayerMoves<G::Move> {
    out.clear();
    let mut list = G::MoveList::default();
    let mut made: LayerMoves<G::Move> = ArrayVec::new();
    while pos.side_to_move() != teams.root && !made.is_full() {
        let at = made.len();
        if teams.is_modelled(pos.side_to_move()) {
            if teams.ties_in(noisy) && pos.rule_outcome().is_none() {
                let chosen = push_ties(pos, teams, policy, at, noisy, tt_move, out);
                match chosen {
                    Some(m) => pos.make_move(m),
                    None => pos.make_null_move(),
                }
                made.push(chosen);
                continue;
            }
        } else if pos.rule_outcome().is_none() {
            if noisy {
                pos.generate_noisy(&mut list);
            } else {
                pos.generate_moves(&mut list);
            }
            for &mv in list.moves() {
                out.push(BrsMove::ordered(pos, at, mv, tt_move));
            }
        }
        layer_step(pos, teams, policy, at, None, &mut made);
    }
    let line = made.clone();
    brs_undo(pos, made);
    out.sort_by_key(|m| std::cmp::Reverse(m.order));
    line
}

/// Pushes the moves the modelled side to move of `pos` (number `at` of the layer) ties with its
/// policy move, other than that move (only the noisy ones when `noisy`), as [`BrsMove`]s ordered
/// as [`brs_moves`] orders; returns the policy move (found in the same pass).
fn push_ties<G: SearchHints>(
    pos: &G,
    teams: &Teams,
    policy: &mut PolicyCache<G::Move>,
    at: usize,
    noisy: bool,
    tt_move: Option<u16>,
    out: &mut Vec<BrsMove<G::Move>>,
) -> Option<G::Move> {
    let (chosen, ties) = policy.get(pos, teams);
    for &mv in ties
        .iter()
        .filter(|&&m| Some(m) != chosen && (!noisy || pos.is_noisy(m)))
    {
        out.push(BrsMove::ordered(pos, at, mv, tt_move));
    }
    chosen
}

/// The other ways the opponents' layer of `pos` may go when every modelled opponent
/// ([`Teams::plays_policy`]) plays by its rule but breaks a tie otherwise than the model: for each
/// modelled opponent in turn (the ones before it playing their policy move), each move of its
/// rule's ties other than its policy move ([`SearchHints::policy_ties_of`]), in `out` (cleared
/// first). The layer stops at a finished game. Returns the layer's default line (each modelled
/// opponent's policy move, the others passing, up to the finished game), for [`line_make`].
/// `pos` is given back unchanged.
pub(crate) fn tie_variants<G: SearchHints>(
    pos: &mut G,
    teams: &Teams,
    policy: &mut PolicyCache<G::Move>,
    out: &mut Vec<BrsMove<G::Move>>,
) -> LayerMoves<G::Move> {
    out.clear();
    let mut made: LayerMoves<G::Move> = ArrayVec::new();
    while pos.side_to_move() != teams.root && !made.is_full() {
        if pos.rule_outcome().is_some() {
            break;
        }
        let at = made.len();
        let mv = if teams.plays_policy(pos.side_to_move()) {
            push_ties(pos, teams, policy, at, false, None, out)
        } else {
            None
        };
        match mv {
            Some(m) => pos.make_move(m),
            None => pos.make_null_move(),
        }
        made.push(mv);
    }
    let line = made.clone();
    brs_undo(pos, made);
    line
}

/// Plays a [`BrsMove`] (or with `None` only the modelled opponents' policy moves, the others
/// passing) and the rest of the layer, until `teams.root` is to move; returns what was played,
/// for [`brs_undo`]. `line` is the layer's default line from [`tie_variants`] or [`brs_moves`]
/// (or a part of it, or nothing), played as it stands up to the chosen move's mover so that
/// those policy moves are not looked for again.
pub(crate) fn line_make<G: SearchHints>(
    pos: &mut G,
    line: &[Option<G::Move>],
    m: Option<BrsMove<G::Move>>,
    teams: &Teams,
    policy: &mut PolicyCache<G::Move>,
) -> LayerMoves<G::Move> {
    let upto = m.map_or(line.len(), |c| usize::from(c.passes).min(line.len()));
    let mut made: LayerMoves<G::Move> = ArrayVec::new();
    for &mv in line.iter().take(upto) {
        if made.is_full() {
            break;
        }
        match mv {
            Some(x) => pos.make_move(x),
            None => pos.make_null_move(),
        }
        made.push(mv);
    }
    while pos.side_to_move() != teams.root && !made.is_full() {
        let at = made.len();
        layer_step(pos, teams, policy, at, m, &mut made);
    }
    made
}

/// Takes back [`line_make`].
pub(crate) fn brs_undo<G: Rules>(pos: &mut G, mut made: LayerMoves<G::Move>) {
    while let Some(mv) = made.pop() {
        match mv {
            Some(m) => pos.undo_move(m),
            None => pos.undo_null_move(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::chinese_checkers::{ChineseCheckers, ChineseCheckersConfig};

    /// The Chinese-checkers start position with `players` players.
    fn start(players: u8) -> ChineseCheckers {
        ChineseCheckers::startpos(&ChineseCheckersConfig {
            players,
            ..ChineseCheckersConfig::default()
        })
    }

    #[test]
    fn the_default_algorithm_matches_the_parameter() {
        assert_eq!(BRS.default == 1, MULTIPLAYER_ALGORITHM == "brs");
        assert!(MULTIPLAYER_ALGORITHM == "brs" || MULTIPLAYER_ALGORITHM == "paranoid");
    }

    /// In the opponents' layer each modelled seat plays the move of its own rule, the others
    /// pass (the hybrid with some opponents unmodelled).
    #[test]
    fn the_layer_plays_each_modelled_seat_by_its_rule() {
        use crate::game::chinese_checkers::greedy::Player;
        let mut pos = start(6);
        for ply in 0..30 {
            let m = Player::Jump.choice(&pos, ply).expect("a move");
            pos.make_move(m);
        }
        assert_eq!(pos.side_to_move(), 0);
        // Seat 1 greedy, 2 rear, 3 jump, 4 rear; seat 5 not modelled.
        let known = PolicyPlayers {
            modelled: 0b01_1110,
            rule: [0, 0, 1, 2, 1, 0, 0, 0],
            also: [0; 8],
        };
        let teams = Teams::for_position(&pos, Some(known));
        assert_eq!(teams.model, OpponentModel::BestReply);
        let mut after_root = pos.clone();
        let root_move = Player::Greedy.choice(&after_root, 0).expect("a move");
        after_root.make_move(root_move);
        let mut expected = after_root.clone();
        let mut want = Vec::new();
        for seat in 1..6usize {
            let m = match seat {
                5 => None,
                _ => Player::MODELS[usize::from(known.rule[seat])].choice(&expected, 0),
            };
            match m {
                Some(m) => expected.make_move(m),
                None => expected.make_null_move(),
            }
            want.push(m);
        }
        let played = line_make(&mut after_root, &[], None, &teams, &mut PolicyCache::new());
        assert_eq!(played.as_slice(), want.as_slice());
        assert_eq!(after_root.hash(), expected.hash());
        // Here the rules disagree: modelling every seat as greedy plays another layer.
        let greedy = Teams::for_position(
            &pos,
            Some(PolicyPlayers {
                rule: [0; 8],
                ..known
            }),
        );
        let mut other = pos.clone();
        other.make_move(root_move);
        let greedy_played = line_make(&mut other, &[], None, &greedy, &mut PolicyCache::new());
        assert_ne!(greedy_played.as_slice(), want.as_slice());
    }

    /// The policy table answers what the game answers, for every rule and position, whether the
    /// entry is new, found again, or replaced by another position's (a table of 4 entries).
    #[test]
    fn the_policy_table_gives_the_games_own_moves() {
        use crate::game::chinese_checkers::greedy::Player;
        let mut pos = start(3);
        let mut cache = PolicyCache::with_entries(4);
        let mut big = PolicyCache::new();
        let mut seen = Vec::new();
        let mut ties = ArrayVec::new();
        let mut several = 0;
        for ply in 0..90u64 {
            if pos.rule_outcome().is_some() {
                break;
            }
            let mut legal = <ChineseCheckers as Rules>::MoveList::default();
            pos.generate_moves(&mut legal);
            for (rule, also) in (0..3u8).flat_map(|r| [(r, 0u8), (r, 0b111 & !(1 << r))]) {
                let teams = Teams::for_position(
                    &pos,
                    Some(PolicyPlayers {
                        modelled: 0b111,
                        rule: [rule; 8],
                        also: [also; 8],
                    }),
                );
                let chosen = pos.policy_ties_of(usize::from(rule), &mut ties);
                assert_eq!(chosen, Player::MODELS[usize::from(rule)].choice(&pos, 0));
                // The rule's own ties first, then the other rules' moves: every legal move one
                // of them accepts, once (all of them unless the list is full).
                let mut want = ties.clone();
                let accepted: Vec<_> = legal
                    .moves()
                    .iter()
                    .copied()
                    .filter(|&m| {
                        (0..3).any(|r| {
                            (r == rule || also & (1 << r) != 0)
                                && pos.is_policy_move_of(usize::from(r), m)
                        })
                    })
                    .collect();
                for _ in 0..2 {
                    for table in [&mut cache, &mut big] {
                        let (c, t) = table.get(&pos, &teams);
                        assert_eq!(c, chosen, "ply {ply} rule {rule}");
                        assert_eq!(&t[..ties.len()], ties.as_slice(), "ply {ply} rule {rule}");
                        assert!(t.iter().all(|m| accepted.contains(m)));
                        assert!(t.iter().enumerate().all(|(i, m)| !t[..i].contains(m)));
                        if t.len() < MAX_POLICY_TIES {
                            assert_eq!(t.len(), accepted.len(), "ply {ply} rule {rule} {also}");
                        }
                        want = t.iter().copied().collect();
                    }
                }
                several += usize::from(want.len() > ties.len());
                seen.push((pos.clone(), teams, chosen, want));
            }
            let m = Player::MODELS[(ply % 3) as usize]
                .choice(&pos, ply)
                .expect("a move");
            pos.make_move(m);
        }
        // Again, most of them long since replaced in the small table.
        for (p, teams, chosen, t) in &seen {
            assert_eq!(cache.get(p, teams), (*chosen, t.as_slice()));
            assert_eq!(big.chosen(p, teams), *chosen);
        }
        assert!(seen.len() > 300, "{} positions", seen.len());
        assert!(several > 30, "only {several} with other rules' moves");
    }

    /// The layer's tie variants: for each modelled seat in turn (after the seats before it
    /// played their rule's move), every legal move its rule accepts with some tie seed but the
    /// model's own, found here by asking the rule about every legal move; the default line
    /// returned with them is each seat's own choice (a pass for the unmodelled), and each
    /// variant played from that line is the layer the rule players would play after it.
    #[test]
    fn tie_variants_are_each_modelled_seats_other_rule_moves() {
        use crate::game::chinese_checkers::greedy::Player;
        let mut pos = start(6);
        let mut checked = 0;
        for ply in 0..120u64 {
            if pos.rule_outcome().is_some() {
                break;
            }
            if pos.side_to_move() == 0 && ply > 0 {
                let mut after_root = pos.clone();
                let root_move = Player::Greedy.choice(&after_root, ply).expect("a move");
                after_root.make_move(root_move);
                // Seat 1 jump, 2 rear, 4 greedy are modelled; 3 and 5 are not.
                let known = PolicyPlayers {
                    modelled: 0b01_0110,
                    rule: [0, 2, 1, 0, 0, 0, 0, 0],
                    also: [0; 8],
                };
                let mut teams = Teams::for_position(&pos, Some(known));
                teams.ties = 1;
                let mut got = Vec::new();
                let before = after_root.hash();
                let mut policy = PolicyCache::new();
                let line = tie_variants(&mut after_root, &teams, &mut policy, &mut got);
                assert_eq!(after_root.hash(), before);
                let mut want = Vec::new();
                let mut want_line = Vec::new();
                let mut walk = after_root.clone();
                for seat in 1..6usize {
                    if walk.rule_outcome().is_some() {
                        break;
                    }
                    let modelled = known.modelled & (1 << seat) != 0;
                    let rule = usize::from(known.rule[seat]);
                    let own = Player::MODELS[rule].choice(&walk, 0);
                    if modelled {
                        let mut list = <ChineseCheckers as Rules>::MoveList::default();
                        walk.generate_moves(&mut list);
                        // The rule's ties in generation order, as many as the list keeps.
                        want.extend(
                            list.moves()
                                .iter()
                                .copied()
                                .filter(|&m| walk.is_policy_move_of(rule, m))
                                .take(MAX_POLICY_TIES)
                                .filter(|&m| Some(m) != own)
                                .map(|m| (seat - 1, m)),
                        );
                        match own {
                            Some(m) => walk.make_move(m),
                            None => walk.make_null_move(),
                        }
                        want_line.push(own);
                    } else {
                        walk.make_null_move();
                        want_line.push(None);
                    }
                }
                assert_eq!(line.as_slice(), want_line.as_slice(), "ply {ply}");
                // Each variant played from the line: the seats before its mover as the line
                // goes, its move, then the modelled seats' own choices in the new position.
                for &v in &got {
                    let mut expected = after_root.clone();
                    let mut moves = Vec::new();
                    for (at, seat) in (1..6usize).enumerate() {
                        let m = match at.cmp(&usize::from(v.passes)) {
                            std::cmp::Ordering::Less => want_line[at],
                            std::cmp::Ordering::Equal => Some(v.mv),
                            std::cmp::Ordering::Greater => {
                                let modelled = known.modelled & (1 << seat) != 0;
                                let rule = Player::MODELS[usize::from(known.rule[seat])];
                                if modelled && expected.rule_outcome().is_none() {
                                    rule.choice(&expected, 0)
                                } else {
                                    None
                                }
                            }
                        };
                        match m {
                            Some(m) => expected.make_move(m),
                            None => expected.make_null_move(),
                        }
                        moves.push(m);
                    }
                    let mut played = after_root.clone();
                    let made = line_make(&mut played, &line, Some(v), &teams, &mut policy);
                    assert_eq!(made.as_slice(), moves.as_slice(), "ply {ply}");
                    assert_eq!(played.hash(), expected.hash());
                    brs_undo(&mut played, made);
                    assert_eq!(played.hash(), before);
                }
                let got: Vec<_> = got.iter().map(|v| (usize::from(v.passes), v.mv)).collect();
                assert_eq!(got, want, "ply {ply}");
                checked += usize::from(!got.is_empty());
            }
            let m = Player::MODELS[(ply % 3) as usize]
                .choice(&pos, ply)
                .expect("a move");
            pos.make_move(m);
        }
        assert!(checked >= 5, "{checked} layers with ties");
    }
}
