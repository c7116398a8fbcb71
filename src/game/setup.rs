//! A game's setup options: the settings that change how its positions are set up or how its moves
//! are written (`UCI_Chess960`, the xiangqi rank convention, the Chinese-checkers player count and
//! rule variants).
//!
//! Each game owns its configuration type ([`crate::game::Rules::Config`]) and declares its options
//! once, as a table of [`SetupOption`]s ([`crate::game::Rules::SETUP`]). The engine's option list,
//! `setoption`, and the `--flag` arguments of `sanqi perft` and `sanqi match` are all read from
//! that one table, by the generic functions below (the registry, [`crate::game::registry`], calls
//! them with the game a [`crate::game::GameKind`] names).

use crate::game::Game;
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

/// The setup options of game `G`, as seen from the outside.
pub fn infos<G: Game>() -> Vec<SetupInfo> {
    G::SETUP.iter().map(|o| o.info).collect()
}

/// Sets setup option number `index` of `G` (see [`infos`]); a value the option's type does not
/// accept is an error and changes nothing.
pub fn set<G: Game>(
    config: &mut G::Config,
    index: usize,
    value: Option<&str>,
) -> Result<(), String> {
    match G::SETUP.get(index) {
        Some(o) => o.set(config, value),
        None => Err(format!("{} has no setup option {index}", G::NAME)),
    }
}

/// The value of every setup option of `G` that is not at its default in `config`, as (option,
/// value text): what a GUI sends an engine to play in this setup.
pub fn non_default<G: Game>(config: &G::Config) -> Vec<(SetupInfo, String)> {
    G::SETUP
        .iter()
        .filter(|o| !o.is_default(config))
        .map(|o| (o.info, (o.value)(config)))
        .collect()
}

/// Finds the setup option of `G` named `name` (case-insensitive, surrounding blanks ignored) in
/// the dialect's names (UCCI's when `ucci`): (index, option).
pub fn find<G: Game>(name: &str, ucci: bool) -> Option<(usize, SetupInfo)> {
    let name = name.trim();
    G::SETUP
        .iter()
        .map(|o| o.info)
        .enumerate()
        .find(|(_, info)| {
            let n = if ucci { info.ucci_name } else { info.uci_name };
            n.is_some_and(|n| n.eq_ignore_ascii_case(name))
        })
}

/// Reads one setup flag of `G` from command-line arguments into `config`: `args[*i]` is `--flag`
/// (a check option) or `--flag VALUE`. Returns `Ok(false)` when `args[*i]` is no setup flag of
/// `G`; on success `*i` points at the last argument used.
pub fn read_flag<G: Game>(
    config: &mut G::Config,
    args: &[String],
    i: &mut usize,
) -> Result<bool, String> {
    let Some(flag) = args.get(*i).and_then(|a| a.strip_prefix("--")) else {
        return Ok(false);
    };
    let Some(option) = G::SETUP.iter().find(|o| o.info.flag == flag) else {
        return Ok(false);
    };
    let value = match option.info.kind {
        OptionType::Check { .. } => "true".to_string(),
        _ => {
            *i += 1;
            args.get(*i)
                .cloned()
                .ok_or_else(|| format!("--{flag} needs a value"))?
        }
    };
    option
        .set(config, Some(&value))
        .map_err(|e| format!("--{flag}: {e}"))?;
    Ok(true)
}

/// The command-line flags of `G`, for usage texts: `--flag` or `--flag VALUES`.
pub fn flags_help<G: Game>() -> Vec<String> {
    G::SETUP
        .iter()
        .map(|o| match o.info.kind {
            OptionType::Check { .. } => format!("--{}", o.info.flag),
            OptionType::Combo { vars, .. } => format!("--{} {}", o.info.flag, vars.join("|")),
            _ => format!("--{} N", o.info.flag),
        })
        .collect()
}
