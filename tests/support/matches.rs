//! Shared by the match tests: two toy games written with the rules and notation traits alone
//! (refereed as `Plain<G>`), tic-tac-toe (two players, with a notation setup option) and a
//! counting race for 2 to 6 players (first to bring the total to 10 wins), and scripted fake
//! engines (tests/fake_engines/fake.py). The toy rules are simple enough that every expected
//! result is worked out by hand in a comment.

use std::time::Duration;

use sanqi::game::{
    Evaluation, GameError, GameKind, GameMove, MoveList, Notation, Outcome, Plain, Records, Rules,
    SetupInfo, SetupOption,
};
use sanqi::tournament::config::EngineSpec;
use sanqi::tournament::record::GameRecord;
use sanqi::tournament::timecontrol::TimeControl;
use sanqi::tournament::{run_game, MatchConfig};
use sanqi::tune::OptionType;

// ---------------------------------------------------------------- tic-tac-toe

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cell(pub u16);

impl GameMove for Cell {
    fn to_bits(self) -> u16 {
        self.0
    }
    fn from_bits(bits: u16) -> Self {
        Cell(bits)
    }
}

/// Tic-tac-toe. Cells 0..9: `a1 b1 c1 a2 ... c3`; 0 empty, 1 X (player 0), 2 O (player 1).
#[derive(Clone, Debug)]
pub struct TicTacToe {
    board: [u8; 9],
    stm: usize,
}

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

fn cell_name(c: usize) -> String {
    format!("{}{}", (b'a' + (c % 3) as u8) as char, c / 3 + 1)
}

/// The tic-tac-toe setup: one notation option, `upper` (`TTT Upper`, `--upper`): cells written
/// in capitals (`A1`), to test per-engine notation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TttConfig {
    /// Cells in capitals.
    pub upper: bool,
}

const TTT_SETUP: &[SetupOption<TttConfig>] = &[SetupOption {
    info: SetupInfo {
        uci_name: Some("TTT Upper"),
        ucci_name: Some("tttupper"),
        flag: "upper",
        kind: OptionType::Check { default: false },
        resets_position: false,
    },
    apply: |c, v| c.upper = v == "true",
    value: |c| c.upper.to_string(),
}];

fn cell_text(c: usize, config: &TttConfig) -> String {
    let name = cell_name(c);
    if config.upper {
        name.to_ascii_uppercase()
    } else {
        name
    }
}

impl Rules for TicTacToe {
    type Move = Cell;
    type MoveList = MoveList<Cell, 9>;
    type Config = TttConfig;
    const NAME: &'static str = "tictactoe";
    const SETUP: &'static [SetupOption<TttConfig>] = TTT_SETUP;

    fn startpos(_: &TttConfig) -> Self {
        TicTacToe {
            board: [0; 9],
            stm: 0,
        }
    }

    fn num_players(&self) -> usize {
        2
    }

    fn side_to_move(&self) -> usize {
        self.stm
    }

    fn generate_moves(&self, list: &mut Self::MoveList) {
        list.clear();
        if self.rule_outcome().is_none() {
            for c in 0..9 {
                if self.board[c] == 0 {
                    list.push(Cell(c as u16));
                }
            }
        }
    }

    fn make_move(&mut self, m: Cell) {
        self.board[m.0 as usize] = self.stm as u8 + 1;
        self.stm ^= 1;
    }

    fn undo_move(&mut self, m: Cell) {
        self.board[m.0 as usize] = 0;
        self.stm ^= 1;
    }

    fn hash(&self) -> u64 {
        self.board
            .iter()
            .fold(self.stm as u64, |h, &v| h * 3 + u64::from(v))
    }

    fn in_check(&self) -> bool {
        false
    }

    fn rule_outcome(&self) -> Option<Outcome> {
        for l in LINES {
            let v = self.board[l[0]];
            if v != 0 && v == self.board[l[1]] && v == self.board[l[2]] {
                return Some(Outcome::Win(v as usize - 1));
            }
        }
        self.board.iter().all(|&v| v != 0).then_some(Outcome::Draw)
    }

    fn no_moves_outcome(&self) -> Outcome {
        Outcome::Draw
    }
}

impl Notation for TicTacToe {
    fn from_fen(fen: &str, _: &TttConfig) -> Result<Self, GameError> {
        let (b, s) = fen
            .split_once(' ')
            .ok_or_else(|| GameError::new("no side"))?;
        let chars: Vec<char> = b.chars().filter(|&c| c != '/').collect();
        if chars.len() != 9 {
            return Err(GameError::new("need 9 cells"));
        }
        let mut board = [0; 9];
        for (i, c) in chars.iter().enumerate() {
            board[i] = match c {
                '-' => 0,
                'x' => 1,
                'o' => 2,
                _ => return Err(GameError::new("bad cell")),
            };
        }
        let stm = match s {
            "x" => 0,
            "o" => 1,
            _ => return Err(GameError::new("bad side")),
        };
        Ok(TicTacToe { board, stm })
    }

    fn to_fen(&self) -> String {
        let mut s = String::new();
        for (i, v) in self.board.iter().enumerate() {
            if i > 0 && i % 3 == 0 {
                s.push('/');
            }
            s.push(['-', 'x', 'o'][*v as usize]);
        }
        s.push_str(if self.stm == 0 { " x" } else { " o" });
        s
    }

    fn display(&self) -> String {
        self.to_fen()
    }

    fn parse_move(&self, text: &str, config: &TttConfig) -> Result<Cell, GameError> {
        let mut list = Self::MoveList::default();
        self.generate_moves(&mut list);
        list.iter()
            .copied()
            .find(|m| cell_text(m.0 as usize, config) == text)
            .ok_or_else(|| GameError::new(format!("`{text}` is not a legal move")))
    }

    fn format_move(&self, m: Cell, config: &TttConfig) -> String {
        cell_text(m.0 as usize, config)
    }
}

// ---------------------------------------------------------------- counting race

/// Players in turn add `1` or `2` to a total, take 1 off with `-1`, or pass with `0000`; whoever
/// brings it to 10 or more wins. The player count comes from [`RaceConfig`]. The hash includes
/// the ply, so positions never repeat.
#[derive(Clone, Debug)]
pub struct Race {
    /// The total so far.
    pub total: u32,
    players: usize,
    stm: usize,
    last: Vec<usize>,
}

/// The race setup: the number of players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RaceConfig {
    /// Players (2 to 6).
    pub players: u8,
}

impl Default for RaceConfig {
    fn default() -> Self {
        RaceConfig { players: 2 }
    }
}

/// `n` players.
pub fn players(n: u8) -> RaceConfig {
    RaceConfig { players: n }
}

impl Rules for Race {
    type Move = Cell;
    type MoveList = MoveList<Cell, 4>;
    type Config = RaceConfig;
    const NAME: &'static str = "race";

    fn startpos(c: &RaceConfig) -> Self {
        Race {
            total: 0,
            players: c.players as usize,
            stm: 0,
            last: Vec::new(),
        }
    }

    fn num_players(&self) -> usize {
        self.players
    }

    fn side_to_move(&self) -> usize {
        self.stm
    }

    fn generate_moves(&self, list: &mut Self::MoveList) {
        list.clear();
        if self.total < 10 {
            list.extend([Cell(0), Cell(1), Cell(2), Cell(3)]);
        }
    }

    fn make_move(&mut self, m: Cell) {
        self.total = match m.0 {
            3 => self.total.saturating_sub(1),
            n => self.total + u32::from(n),
        };
        self.last.push(self.stm);
        self.stm = (self.stm + 1) % self.players;
    }

    fn undo_move(&mut self, m: Cell) {
        // Only used by search, not by the referee (taking back `-1` at 0 is not exact).
        self.total = match m.0 {
            3 => self.total + 1,
            n => self.total - u32::from(n),
        };
        self.stm = self.last.pop().unwrap_or(0);
    }

    fn hash(&self) -> u64 {
        ((self.last.len() as u64) << 32) | (u64::from(self.total) * 8) | self.stm as u64
    }

    fn in_check(&self) -> bool {
        false
    }

    fn rule_outcome(&self) -> Option<Outcome> {
        (self.total >= 10).then(|| Outcome::Win(self.last.last().copied().unwrap_or(0)))
    }

    fn no_moves_outcome(&self) -> Outcome {
        Outcome::Draw
    }
}

impl Notation for Race {
    fn from_fen(fen: &str, c: &RaceConfig) -> Result<Self, GameError> {
        let mut r = Race::startpos(c);
        r.total = fen.parse().map_err(|_| GameError::new("bad total"))?;
        Ok(r)
    }

    fn to_fen(&self) -> String {
        self.total.to_string()
    }

    fn display(&self) -> String {
        self.to_fen()
    }

    fn parse_move(&self, text: &str, _: &RaceConfig) -> Result<Cell, GameError> {
        match text {
            "0000" => Ok(Cell(0)),
            "1" => Ok(Cell(1)),
            "2" => Ok(Cell(2)),
            "-1" => Ok(Cell(3)),
            _ => Err(GameError::new(format!("`{text}` is not a legal move"))),
        }
    }

    fn format_move(&self, m: Cell, _: &RaceConfig) -> String {
        match m.0 {
            0 => "0000".into(),
            3 => "-1".into(),
            n => n.to_string(),
        }
    }
}

// ---------------------------------------------------------------- helpers

/// Every cell, in the order the fake engines try them.
pub const CANDS: &str = "--cands=a1,b1,c1,a2,b2,c2,a3,b3,c3";

/// A fake engine (tests/fake_engines/fake.py) with extra arguments (`--flag=value` is split).
pub fn fake(name: &str, extra: &[&str]) -> EngineSpec {
    let mut spec = EngineSpec::new(name, "python3");
    spec.args
        .push(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fake_engines/fake.py").to_owned());
    for e in extra {
        // `--flag=value` is split into two arguments for the script.
        match e.split_once('=') {
            Some((k, v)) if k.starts_with("--") => {
                spec.args.push(k.to_owned());
                spec.args.extend(v.split(' ').map(str::to_owned));
            }
            _ => spec.args.push((*e).to_owned()),
        }
    }
    spec
}

/// A match of `engines` at `tc` with generous waits.
pub fn config(engines: Vec<EngineSpec>, tc: TimeControl) -> MatchConfig {
    // Generous waits so that a loaded machine does not turn slow python start-ups into hangs;
    // the hang test sets its own short grace.
    let mut c = MatchConfig::new(GameKind::Chess, engines, tc);
    c.referee.hang_grace = Duration::from_secs(3);
    c.referee.margin = Duration::from_millis(100);
    c.referee.ready_timeout = Duration::from_secs(20);
    c
}

/// 300 ms a move.
pub fn movetime() -> TimeControl {
    TimeControl::MoveTime(300)
}

/// Plays the match `c` with one game per opening (so one game between two engines) of `G` in
/// the setup `setup`, and gives the first game's record.
pub fn one_game<G: Records + Evaluation>(mut c: MatchConfig, setup: &G::Config) -> GameRecord {
    c.games_per_opening = Some(1);
    let mut report = run_game::<G>(&c, setup).unwrap();
    report.records.swap_remove(0)
}

/// [`one_game`] of tic-tac-toe in the default setup.
pub fn one_ttt_game(c: MatchConfig) -> GameRecord {
    one_game::<Plain<TicTacToe>>(c, &TttConfig::default())
}
