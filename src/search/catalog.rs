//! Every tunable parameter of the engine, collected where the search lives: each game's
//! evaluation weights ([`GameKind::params`]) and search parameters ([`params::for_game`]), then
//! the search parameters every game shares ([`super::shared_params`]). The `uci` handshake,
//! `setoption`, `spsa` and `sanqi tune` find them here; the game registry below the search
//! ([`crate::game::registry`]) knows only the games.

use super::params::{self, SearchParams};
use crate::game::{with_kind, GameKind};
use crate::tune::Param;

/// The search parameters of game `kind` (`Search <label> ...`).
pub fn search_params(kind: GameKind) -> &'static SearchParams {
    with_kind!(kind, G => params::for_game::<G>())
}

/// Every tunable parameter of game `kind`: its evaluation weights, then its search parameters.
pub fn game_params(kind: GameKind) -> Vec<&'static Param> {
    kind.params()
        .iter()
        .copied()
        .chain(search_params(kind).params())
        .collect()
}

/// What `spsa <game>` lists: the game's own parameters ([`game_params`]), then the time rule's,
/// which every game's clock uses.
pub fn spsa_params(kind: GameKind) -> Vec<&'static Param> {
    let mut params = game_params(kind);
    params.extend(super::time::PARAMS.iter().copied());
    params
}

/// Every tunable parameter of the engine, in a fixed order: each game's weights and search
/// parameters in registry order, then the search parameters every game shares.
pub fn all_params() -> Vec<&'static Param> {
    GameKind::ALL
        .iter()
        .flat_map(|&k| game_params(k))
        .chain(super::shared_params())
        .collect()
}

/// Finds a parameter by name (case-insensitive), spaces written as spaces or as `_` (the form
/// `spsa` prints for OpenBench).
pub fn find_param(name: &str) -> Option<&'static Param> {
    let name = name.trim();
    all_params().into_iter().find(|p| p.matches(name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::SearchHints;

    #[test]
    fn every_parameter_is_well_formed_and_unique() {
        let params = all_params();
        for (i, p) in params.iter().enumerate() {
            assert!(p.min <= p.default && p.default <= p.max, "{}", p.name);
            assert!(p.step > 0, "{}", p.name);
            assert!(!p.name.is_empty() && p.name.trim() == p.name, "{}", p.name);
            // `_` stands for a space in the names `spsa` prints, so no name holds one.
            assert!(!p.name.contains('_'), "{}", p.name);
            assert!(
                !p.name.to_ascii_lowercase().split(' ').any(|w| w == "value"),
                "a UCI option name may not contain the word value: {}",
                p.name
            );
            for q in &params[..i] {
                assert!(!q.matches(p.name), "duplicate {}", p.name);
            }
        }
    }

    #[test]
    fn every_game_labels_its_search_options_and_overrides_known_rows() {
        let mut labels = Vec::new();
        for &kind in GameKind::ALL {
            let (label, unknown) = with_kind!(kind, G => (
                G::SEARCH_LABEL,
                params::unknown_overrides::<G>()
            ));
            assert!(!label.is_empty(), "{}", kind.name());
            assert!(!labels.contains(&label), "{label}");
            labels.push(label);
            assert!(unknown.is_empty(), "{}: {unknown:?}", kind.name());
            let prefix = format!("Search {label} ");
            assert!(search_params(kind)
                .params()
                .all(|p| p.name.starts_with(&prefix)));
        }
    }
}
