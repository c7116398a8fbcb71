//! The Chinese-checkers setup: the player count, the rule variants and the player (search or
//! the greedy reference player), and the setup options that set them.

use super::{greedy, Rules};
use crate::game::setup::{flag_value, SetupInfo, SetupOption};
use crate::tune::OptionType;

/// The Chinese-checkers setup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChineseCheckersConfig {
    /// Players of `startpos`: 2, 3, 4 or 6 (a position string names its own players).
    pub players: u8,
    /// The rule variants.
    pub rules: Rules,
    /// Who answers `go` (`CC Player`): the search, or one of the rule players.
    pub player: greedy::Player,
    /// Tie seed of the rule players (`CC Greedy Seed`).
    pub greedy_seed: u64,
}

impl Default for ChineseCheckersConfig {
    fn default() -> Self {
        ChineseCheckersConfig {
            players: 2,
            rules: Rules::default(),
            player: greedy::Player::Search,
            greedy_seed: 0,
        }
    }
}

/// The Chinese-checkers setup options (each one resets the position).
pub(super) const SETUP: &[SetupOption<ChineseCheckersConfig>] = &[
    SetupOption {
        info: SetupInfo {
            uci_name: Some("CC Players"),
            ucci_name: None,
            flag: "players",
            kind: OptionType::Combo {
                default: "2",
                vars: &["2", "3", "4", "6"],
            },
            resets_position: true,
        },
        apply: |c, v| c.players = v.parse().unwrap_or(2),
        value: |c| c.players.to_string(),
    },
    SetupOption {
        info: SetupInfo {
            uci_name: Some("CC Goal Lock"),
            ucci_name: None,
            flag: "goal-lock",
            kind: OptionType::Check { default: false },
            resets_position: true,
        },
        apply: |c, v| c.rules.goal_lock = flag_value(v),
        value: |c| c.rules.goal_lock.to_string(),
    },
    SetupOption {
        info: SetupInfo {
            uci_name: Some("CC No Foreign Stop"),
            ucci_name: None,
            flag: "no-foreign-stop",
            kind: OptionType::Check { default: false },
            resets_position: true,
        },
        apply: |c, v| c.rules.no_foreign_stop = flag_value(v),
        value: |c| c.rules.no_foreign_stop.to_string(),
    },
    SetupOption {
        info: SetupInfo {
            uci_name: Some("CC Player"),
            ucci_name: None,
            flag: "player",
            kind: OptionType::Combo {
                default: "search",
                vars: &["search", "greedy", "rear", "jump", "shallow"],
            },
            resets_position: false,
        },
        apply: |c, v| c.player = greedy::Player::parse(v),
        value: |c| c.player.name().to_string(),
    },
    SetupOption {
        info: SetupInfo {
            uci_name: Some("CC Greedy Seed"),
            ucci_name: None,
            flag: "greedy-seed",
            kind: OptionType::Spin {
                default: 0,
                min: 0,
                max: 1_000_000_000,
            },
            resets_position: false,
        },
        apply: |c, v| c.greedy_seed = v.parse().unwrap_or(0),
        value: |c| c.greedy_seed.to_string(),
    },
];
