//! The engine's own options: one table that both dialects print from, and the typed settings that
//! `setoption` changes (checked against the table: a bad value is an error and changes nothing).
//! Each game's setup options come from the game registry ([`GameKind::setup`]) and the tunable
//! weights from [`crate::search::catalog::all_params`]; the handshake prints them after these.

use crate::game::{GameConfigs, GameKind};
use crate::search::skill::{self, Skill};
use crate::tune::{parse_bool, OptionType};

/// Which option a table row is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionId {
    /// Transposition table size in MiB.
    Hash,
    /// Search threads (Lazy SMP).
    Threads,
    /// Number of principal variations reported.
    MultiPv,
    /// Empties the transposition table.
    ClearHash,
    /// The GUI may send `go ponder`.
    Ponder,
    /// Milliseconds kept back from every clock allocation for I/O lag.
    MoveOverhead,
    /// The game: chess, xiangqi or chinesecheckers.
    Variant,
    /// UCCI: times in milliseconds instead of seconds.
    UseMillisec,
    /// UCCI: start a new game (like `ucinewgame`).
    NewGame,
    /// Play at the strength `UCI_Elo` names.
    LimitStrength,
    /// The strength for `UCI_LimitStrength`.
    Elo,
    /// Playing level 0-20 (20: full strength).
    SkillLevel,
    /// Evaluate with the games' networks (NNUE) instead of the hand-written evaluations.
    UseNnue,
    /// A network file to evaluate with (`<internal>`: the embedded ones).
    EvalFile,
    /// `wdl W D L` on every `info` line with a score (two-player games).
    ShowWdl,
    /// A file that gets every line in and out (empty: none).
    DebugLogFile,
    /// Play from the opening book (`Book File`) while it has a move.
    OwnBook,
    /// The Polyglot opening book (empty: none).
    BookFile,
    /// The book is used while the game is shorter than this many plies.
    BookDepth,
    /// Folders of Syzygy tables, separated by `:` (empty: none).
    SyzygyPath,
    /// Positions with as many pieces as the largest tables are probed from this depth.
    SyzygyProbeDepth,
    /// Wins and losses the fifty-move rule spoils count as draws.
    Syzygy50MoveRule,
    /// Positions with more pieces than this are not probed.
    SyzygyProbeLimit,
}

/// One row of the option table.
#[derive(Clone, Copy, Debug)]
pub struct OptionSpec {
    /// Which option.
    pub id: OptionId,
    /// Name in UCI (`None`: not offered in UCI).
    pub uci_name: Option<&'static str>,
    /// Name in UCCI (`None`: not offered in UCCI).
    pub ucci_name: Option<&'static str>,
    /// Type, default and range.
    pub kind: OptionType,
}

/// Largest `Hash` in MiB (the allocation is tried, never assumed: a failed one is an error).
pub const MAX_HASH_MB: i64 = 65536;
/// Largest `Threads`.
pub const MAX_THREADS: i64 = 256;

/// Every option, in the order the handshakes print them.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        id: OptionId::Hash,
        uci_name: Some("Hash"),
        ucci_name: Some("hashsize"),
        kind: OptionType::Spin {
            default: 16,
            min: 1,
            max: MAX_HASH_MB,
        },
    },
    OptionSpec {
        id: OptionId::Threads,
        uci_name: Some("Threads"),
        ucci_name: Some("threads"),
        kind: OptionType::Spin {
            default: 1,
            min: 1,
            max: MAX_THREADS,
        },
    },
    OptionSpec {
        id: OptionId::MultiPv,
        uci_name: Some("MultiPV"),
        ucci_name: Some("multipv"),
        kind: OptionType::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
    },
    OptionSpec {
        id: OptionId::ClearHash,
        uci_name: Some("Clear Hash"),
        ucci_name: Some("clearhash"),
        kind: OptionType::Button,
    },
    OptionSpec {
        id: OptionId::Ponder,
        uci_name: Some("Ponder"),
        ucci_name: Some("ponder"),
        kind: OptionType::Check { default: false },
    },
    OptionSpec {
        id: OptionId::MoveOverhead,
        uci_name: Some("Move Overhead"),
        ucci_name: Some("moveoverhead"),
        kind: OptionType::Spin {
            default: 10,
            min: 0,
            max: 5000,
        },
    },
    OptionSpec {
        id: OptionId::SkillLevel,
        uci_name: Some("Skill Level"),
        ucci_name: Some("skilllevel"),
        kind: OptionType::Spin {
            default: 20,
            min: 0,
            max: 20,
        },
    },
    OptionSpec {
        id: OptionId::LimitStrength,
        uci_name: Some("UCI_LimitStrength"),
        ucci_name: None,
        kind: OptionType::Check { default: false },
    },
    OptionSpec {
        id: OptionId::Elo,
        uci_name: Some("UCI_Elo"),
        ucci_name: None,
        kind: OptionType::Spin {
            default: skill::MAX_ELO,
            min: skill::MIN_ELO,
            max: skill::MAX_ELO,
        },
    },
    OptionSpec {
        id: OptionId::UseMillisec,
        uci_name: None,
        ucci_name: Some("usemillisec"),
        kind: OptionType::Check { default: false },
    },
    OptionSpec {
        id: OptionId::NewGame,
        uci_name: None,
        ucci_name: Some("newgame"),
        kind: OptionType::Button,
    },
    OptionSpec {
        id: OptionId::UseNnue,
        uci_name: Some("Use NNUE"),
        ucci_name: Some("usennue"),
        kind: OptionType::Check {
            default: crate::nnue::DEFAULT_ENABLED,
        },
    },
    OptionSpec {
        id: OptionId::EvalFile,
        uci_name: Some("EvalFile"),
        ucci_name: Some("evalfile"),
        kind: OptionType::Text {
            default: "<internal>",
        },
    },
    OptionSpec {
        id: OptionId::ShowWdl,
        uci_name: Some("UCI_ShowWDL"),
        ucci_name: Some("showwdl"),
        kind: OptionType::Check { default: false },
    },
    OptionSpec {
        id: OptionId::DebugLogFile,
        uci_name: Some("Debug Log File"),
        ucci_name: Some("debuglogfile"),
        kind: OptionType::Text { default: "" },
    },
    OptionSpec {
        id: OptionId::OwnBook,
        uci_name: Some("OwnBook"),
        ucci_name: None,
        kind: OptionType::Check { default: false },
    },
    OptionSpec {
        id: OptionId::BookFile,
        uci_name: Some("Book File"),
        ucci_name: None,
        kind: OptionType::Text { default: "" },
    },
    OptionSpec {
        id: OptionId::BookDepth,
        uci_name: Some("Book Depth"),
        ucci_name: None,
        kind: OptionType::Spin {
            default: 255,
            min: 1,
            max: 1000,
        },
    },
    OptionSpec {
        id: OptionId::SyzygyPath,
        uci_name: Some("SyzygyPath"),
        ucci_name: None,
        kind: OptionType::Text { default: "<empty>" },
    },
    OptionSpec {
        id: OptionId::SyzygyProbeDepth,
        uci_name: Some("SyzygyProbeDepth"),
        ucci_name: None,
        kind: OptionType::Spin {
            default: 1,
            min: 1,
            max: 100,
        },
    },
    OptionSpec {
        id: OptionId::Syzygy50MoveRule,
        uci_name: Some("Syzygy50MoveRule"),
        ucci_name: None,
        kind: OptionType::Check { default: true },
    },
    OptionSpec {
        id: OptionId::SyzygyProbeLimit,
        uci_name: Some("SyzygyProbeLimit"),
        ucci_name: None,
        kind: OptionType::Spin {
            default: 7,
            min: 0,
            max: 7,
        },
    },
    OptionSpec {
        id: OptionId::Variant,
        uci_name: Some("UCI_Variant"),
        ucci_name: None,
        kind: OptionType::Combo {
            default: crate::game::registry::DEFAULT_GAME.name(),
            vars: GameKind::NAMES,
        },
    },
];

/// What a successful `setoption` asks the engine to do besides storing the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing more.
    None,
    /// Reallocate the transposition table to `Settings::hash_mb`.
    ResizeHash,
    /// Start or end search threads until `Settings::threads` run.
    SetThreads,
    /// Empty the transposition table.
    ClearHash,
    /// Start a new game (clear table and histories).
    NewGame,
    /// The game or its setup changed: reset to the start position.
    GameChanged,
    /// Load the network file `Settings::eval_file` (an error keeps the old settings).
    LoadNetwork,
    /// Open the `Settings::debug_log` file, or stop logging when it is empty (an error keeps
    /// the old settings and logging off).
    OpenLog,
    /// Read the book `Settings::book_file` (none when it is empty; an error keeps the old
    /// settings and book).
    LoadBook,
    /// Open the Syzygy tables of `Settings::syzygy_path`.
    LoadTables,
    /// Pass the `Syzygy...` probe settings on.
    TableSettings,
}

/// The typed values of all options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// `Hash` in MiB.
    pub hash_mb: usize,
    /// `Threads`.
    pub threads: usize,
    /// `MultiPV`.
    pub multipv: usize,
    /// `Ponder`.
    pub ponder: bool,
    /// `Move Overhead` in ms.
    pub move_overhead_ms: u64,
    /// `UCI_Variant`.
    pub variant: GameKind,
    /// Every game's setup (the games' own options).
    pub configs: GameConfigs,
    /// UCCI `usemillisec`.
    pub use_millisec: bool,
    /// `Skill Level`.
    pub skill_level: u32,
    /// `UCI_LimitStrength`.
    pub limit_strength: bool,
    /// `UCI_Elo`.
    pub elo: i64,
    /// `Use NNUE`.
    pub use_nnue: bool,
    /// `EvalFile`.
    pub eval_file: String,
    /// `UCI_ShowWDL`.
    pub show_wdl: bool,
    /// `Debug Log File` (empty: no log).
    pub debug_log: String,
    /// `OwnBook`.
    pub own_book: bool,
    /// `Book File` (empty: none).
    pub book_file: String,
    /// `Book Depth` in plies.
    pub book_depth: u32,
    /// `SyzygyPath` (`<empty>` or empty: none).
    pub syzygy_path: String,
    /// `SyzygyProbeDepth`.
    pub syzygy_probe_depth: i32,
    /// `Syzygy50MoveRule`.
    pub syzygy_50_move_rule: bool,
    /// `SyzygyProbeLimit`.
    pub syzygy_probe_limit: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            ponder: false,
            move_overhead_ms: 10,
            variant: crate::game::registry::DEFAULT_GAME,
            configs: GameConfigs::default(),
            use_millisec: false,
            skill_level: 20,
            limit_strength: false,
            elo: skill::MAX_ELO,
            use_nnue: crate::nnue::DEFAULT_ENABLED,
            eval_file: "<internal>".to_string(),
            show_wdl: false,
            debug_log: String::new(),
            own_book: false,
            book_file: String::new(),
            book_depth: 255,
            syzygy_path: "<empty>".to_string(),
            syzygy_probe_depth: 1,
            syzygy_50_move_rule: true,
            syzygy_probe_limit: 7,
        }
    }
}

/// Finds the option named `name` (case-insensitive) in the dialect's names.
pub fn find(name: &str, ucci: bool) -> Option<&'static OptionSpec> {
    let name = name.trim();
    OPTIONS.iter().find(|o| {
        let n = if ucci { o.ucci_name } else { o.uci_name };
        n.is_some_and(|n| n.eq_ignore_ascii_case(name))
    })
}

impl Settings {
    /// Applies `setoption` for a known option. On error nothing changes.
    pub fn apply(&mut self, spec: &OptionSpec, value: Option<&str>) -> Result<Effect, String> {
        let shown = spec.uci_name.or(spec.ucci_name).unwrap_or("option");
        let v = spec.kind.check(shown, value)?;
        // The value is valid for its kind from here on.
        let flag = parse_bool(v).unwrap_or(false);
        let int = v.parse::<i64>().unwrap_or(0).max(0);
        Ok(match spec.id {
            OptionId::Hash => {
                self.hash_mb = int as usize;
                Effect::ResizeHash
            }
            OptionId::Threads => {
                self.threads = int as usize;
                Effect::SetThreads
            }
            OptionId::MultiPv => {
                self.multipv = int as usize;
                Effect::None
            }
            OptionId::ClearHash => Effect::ClearHash,
            OptionId::NewGame => Effect::NewGame,
            OptionId::Ponder => {
                self.ponder = flag;
                Effect::None
            }
            OptionId::MoveOverhead => {
                self.move_overhead_ms = int as u64;
                Effect::None
            }
            OptionId::UseMillisec => {
                self.use_millisec = flag;
                Effect::None
            }
            OptionId::Variant => {
                let kind = GameKind::from_name(v).unwrap_or(self.variant);
                let changed = kind != self.variant;
                self.variant = kind;
                if changed {
                    Effect::GameChanged
                } else {
                    Effect::None
                }
            }
            OptionId::SkillLevel => {
                self.skill_level = int as u32;
                Effect::None
            }
            OptionId::LimitStrength => {
                self.limit_strength = flag;
                Effect::None
            }
            OptionId::Elo => {
                self.elo = int;
                Effect::None
            }
            OptionId::UseNnue => {
                self.use_nnue = flag;
                Effect::None
            }
            OptionId::EvalFile => {
                self.eval_file = if v.is_empty() { "<internal>" } else { v }.to_string();
                Effect::LoadNetwork
            }
            OptionId::ShowWdl => {
                self.show_wdl = flag;
                Effect::None
            }
            OptionId::DebugLogFile => {
                self.debug_log = v.to_string();
                Effect::OpenLog
            }
            OptionId::OwnBook => {
                self.own_book = flag;
                Effect::None
            }
            OptionId::BookFile => {
                self.book_file = v.trim().to_string();
                Effect::LoadBook
            }
            OptionId::BookDepth => {
                self.book_depth = int as u32;
                Effect::None
            }
            OptionId::SyzygyPath => {
                self.syzygy_path = v.trim().to_string();
                Effect::LoadTables
            }
            OptionId::SyzygyProbeDepth => {
                self.syzygy_probe_depth = int as i32;
                Effect::TableSettings
            }
            OptionId::Syzygy50MoveRule => {
                self.syzygy_50_move_rule = flag;
                Effect::TableSettings
            }
            OptionId::SyzygyProbeLimit => {
                self.syzygy_probe_limit = int as usize;
                Effect::TableSettings
            }
        })
    }

    /// `setoption` for one of the games' setup options (from the registry); `None` when no game
    /// has an option of that name in the dialect. A change that resets the position of the game
    /// being played asks for it ([`Effect::GameChanged`]).
    pub fn apply_setup(
        &mut self,
        name: &str,
        ucci: bool,
        value: Option<&str>,
    ) -> Option<Result<Effect, String>> {
        let (kind, index, info) = GameConfigs::find_option(name, ucci)?;
        Some(self.configs.set(kind, index, value).map(|()| {
            if info.resets_position && kind == self.variant {
                Effect::GameChanged
            } else {
                Effect::None
            }
        }))
    }

    /// The weakening the options ask for: `UCI_LimitStrength` with `UCI_Elo` first, then
    /// `Skill Level`; `None` is full strength.
    pub fn skill(&self) -> Option<Skill> {
        if self.limit_strength {
            Skill::from_elo(self.elo)
        } else {
            Skill::from_level(self.skill_level)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_is_valid_for_its_kind() {
        for o in OPTIONS {
            match o.kind {
                OptionType::Spin { default, min, max } => assert!(min <= default && default <= max),
                OptionType::Combo { default, vars } => assert!(vars.contains(&default)),
                _ => {}
            }
            assert!(o.uci_name.is_some() || o.ucci_name.is_some());
        }
    }

    #[test]
    fn defaults_match_the_table() {
        let mut s = Settings::default();
        let before = s.clone();
        for o in OPTIONS {
            let v = match o.kind {
                OptionType::Spin { default, .. } => Some(default.to_string()),
                OptionType::Check { default } => Some(default.to_string()),
                OptionType::Combo { default, .. } => Some(default.to_string()),
                OptionType::Text { default } => Some(default.to_string()),
                OptionType::Button => continue,
            };
            s.apply(o, v.as_deref()).unwrap();
        }
        assert_eq!(s, before);
    }

    #[test]
    fn bad_values_are_rejected_and_change_nothing() {
        let mut s = Settings::default();
        let before = s.clone();
        let hash = find("hash", false).unwrap();
        assert!(s.apply(hash, Some("0")).is_err());
        assert!(s.apply(hash, Some("99999999999999999999")).is_err());
        assert!(s.apply(hash, Some("-3")).is_err());
        assert!(s.apply(hash, None).is_err());
        let v = find("uci_variant", false).unwrap();
        assert!(s.apply(v, Some("shogi")).is_err());
        let c = find("Threads", false).unwrap();
        assert!(s.apply(c, Some("yes")).is_err());
        assert_eq!(s, before);
        assert!(find("usemillisec", false).is_none());
        assert!(find("usemillisec", true).is_some());
    }

    #[test]
    fn good_values_take_effect() {
        let mut s = Settings::default();
        let hash = find("Hash", false).unwrap();
        assert_eq!(s.apply(hash, Some("64")), Ok(Effect::ResizeHash));
        assert_eq!(s.hash_mb, 64);
        let threads = find("Threads", false).unwrap();
        assert_eq!(s.apply(threads, Some("4")), Ok(Effect::SetThreads));
        assert_eq!(s.threads, 4);
        let v = find("UCI_Variant", false).unwrap();
        assert_eq!(s.apply(v, Some("Xiangqi")), Ok(Effect::GameChanged));
        assert_eq!(Some(s.variant), GameKind::from_name("xiangqi"));
        assert_eq!(
            s.apply_setup("xiangqiranks", true, Some("1-10")),
            Some(Ok(Effect::None))
        );
        assert!(s.configs.xiangqi.ranks_from_one);
        assert_eq!(
            s.apply_setup("CC Players", false, Some("3")),
            Some(Ok(Effect::None))
        );
        assert!(s
            .apply_setup("CC Players", false, Some("5"))
            .unwrap()
            .is_err());
        assert_eq!(s.configs.chinese_checkers.players, 3);
        assert_eq!(s.apply_setup("UCI_Chess960", true, Some("true")), None);
        let m = find("usemillisec", true).unwrap();
        s.apply(m, Some("on")).unwrap();
        assert!(s.use_millisec);
    }
}
