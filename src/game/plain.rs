//! [`Plain`]: a game written with [`Rules`] and [`Notation`] alone, made whole: it evaluates every
//! position as 0 (equal), gives the search no hints (no noisy moves, no null moves) and writes
//! its records in protocol notation. The search still finds every result the game's rules decide
//! within its depth (wins, losses and draws by rule), so a new game plays, searches, runs in
//! `sanqi match` and can be registered before it has an evaluation of its own.

use super::{Evaluation, GameError, Notation, Records, Rules, SearchHints, Value};

/// A game with rules and notation alone, playable and searchable (see the module).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plain<G>(pub G);

impl<G> std::ops::Deref for Plain<G> {
    type Target = G;
    fn deref(&self) -> &G {
        &self.0
    }
}

impl<G> std::ops::DerefMut for Plain<G> {
    fn deref_mut(&mut self) -> &mut G {
        &mut self.0
    }
}

impl<G: Rules> Rules for Plain<G> {
    type Move = G::Move;
    type MoveList = G::MoveList;
    type Config = G::Config;
    const NAME: &'static str = G::NAME;
    const SETUP: &'static [super::SetupOption<G::Config>] = G::SETUP;

    fn startpos(config: &G::Config) -> Self {
        Plain(G::startpos(config))
    }
    fn start_positions(config: &G::Config) -> usize {
        G::start_positions(config)
    }
    fn numbered_startpos(n: usize, config: &G::Config) -> Result<Self, GameError> {
        G::numbered_startpos(n, config).map(Plain)
    }
    fn num_players(&self) -> usize {
        self.0.num_players()
    }
    fn side_to_move(&self) -> usize {
        self.0.side_to_move()
    }
    fn generate_moves(&self, list: &mut G::MoveList) {
        self.0.generate_moves(list);
    }
    fn make_move(&mut self, m: G::Move) {
        self.0.make_move(m);
    }
    fn undo_move(&mut self, m: G::Move) {
        self.0.undo_move(m);
    }
    fn can_pass(&self) -> bool {
        self.0.can_pass()
    }
    fn make_null_move(&mut self) {
        self.0.make_null_move();
    }
    fn undo_null_move(&mut self) {
        self.0.undo_null_move();
    }
    fn hash(&self) -> u64 {
        self.0.hash()
    }
    fn in_check(&self) -> bool {
        self.0.in_check()
    }
    fn rule_outcome(&self) -> Option<super::Outcome> {
        self.0.rule_outcome()
    }
    fn no_moves_outcome(&self) -> super::Outcome {
        self.0.no_moves_outcome()
    }
    fn outcome(&self) -> Option<super::Outcome> {
        self.0.outcome()
    }
    fn perft(&mut self, depth: u32) -> u64 {
        self.0.perft(depth)
    }
}

impl<G: Notation> Notation for Plain<G> {
    const FEN_RANKS: usize = G::FEN_RANKS;

    fn from_fen(fen: &str, config: &G::Config) -> Result<Self, GameError> {
        G::from_fen(fen, config).map(Plain)
    }
    fn to_fen(&self) -> String {
        self.0.to_fen()
    }
    fn display(&self) -> String {
        self.0.display()
    }
    fn parse_move(&self, text: &str, config: &G::Config) -> Result<G::Move, GameError> {
        self.0.parse_move(text, config)
    }
    fn format_move(&self, m: G::Move, config: &G::Config) -> String {
        self.0.format_move(m, config)
    }
    fn annotate_move(&self, m: G::Move) -> Option<String> {
        self.0.annotate_move(m)
    }
    fn list_moves(
        &self,
        filter: Option<&str>,
        config: &G::Config,
    ) -> Result<Vec<String>, GameError> {
        self.0.list_moves(filter, config)
    }
    fn player_name(&self, player: usize) -> String {
        self.0.player_name(player)
    }
}

/// Every position is equal: the search's values come from the game's ends alone.
impl<G: Rules> Evaluation for Plain<G> {
    fn evaluate(&self) -> Value {
        0
    }
}

/// No hints: every default (always correct, only slower).
impl<G: Rules> SearchHints for Plain<G> {}

/// Records in protocol notation, with the default end reasons.
impl<G: Notation> Records for Plain<G> {}
