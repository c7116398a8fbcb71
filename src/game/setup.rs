//! A game's setup options: the settings that change how its positions are set up or how its moves
//! are written (`UCI_Chess960`, the xiangqi rank convention, the Chinese-checkers player count and
//! rule variants).
//!
//! Each game owns its configuration type ([`crate::game::Rules::Config`]) and declares its options
//! once, as a table of [`SetupOption`]s ([`crate::game::Rules::SETUP`]). The engine's option list,
//! `setoption`, and the `--flag` arguments of `sanqi perft` and `sanqi match` are all read from
//! that one table through the registry ([`crate::game::registry`]).

use crate::tune::OptionType;

/// How one setup option looks from the outside (the part of a [`SetupOption`] that does not
/// depend on the game's configuration type).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetupInfo {
    /// Name in UCI (`None`: not offered in UCI).
    pub uci_name: Option<&'static str>,
    /// Name in UCCI (`None`: not offered in UCCI).
    pub ucci_name: Option<&'static str>,
    /// The command-line flag without its dashes (`players` for `--players 3`); a check option is
    /// a bare flag (`--chess960`), every other kind takes the next argument as its value.
    pub flag: &'static str,
    /// Type, default and range.
    pub kind: OptionType,
    /// Whether a change sets the position back to the start position of the new setup (the
    /// player count does; a notation setting does not).
    pub resets_position: bool,
}

/// One setup option of a game whose configuration type is `C`.
pub struct SetupOption<C> {
    /// Names, type and effect.
    pub info: SetupInfo,
    /// Stores a value that [`OptionType::check`] accepted for `info.kind`.
    pub apply: fn(&mut C, &str),
    /// The current value as text (the form `setoption` takes).
    pub value: fn(&C) -> String,
}

impl<C> SetupOption<C> {
    /// Checks `value` against the option's type and stores it; on error `config` is unchanged.
    pub fn set(&self, config: &mut C, value: Option<&str>) -> Result<(), String> {
        let shown = self
            .info
            .uci_name
            .or(self.info.ucci_name)
            .unwrap_or(self.info.flag);
        let v = self.info.kind.check(shown, value)?;
        (self.apply)(config, v);
        Ok(())
    }

    /// Whether `config` holds the option's default value.
    pub fn is_default(&self, config: &C) -> bool {
        (self.value)(config).eq_ignore_ascii_case(&self.info.kind.default_text())
    }
}

/// Reads a check option's value (already checked by [`OptionType::check`]).
pub fn flag_value(value: &str) -> bool {
    crate::tune::parse_bool(value).unwrap_or(false)
}
