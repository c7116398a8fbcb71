//! Tunable integer parameters: evaluation weights and search parameters that tuners change through
//! `setoption` (they are UCI `spin` options) and that `spsa` lists in the format SPSA tuners take.
//!
//! A parameter is a `static` [`Param`]; code reads it with [`Param::get`] (a relaxed atomic load,
//! as cheap as a plain load). Each game's evaluation and the search keep a `PARAMS` slice of their
//! own; [`all`] joins them. Names are prefixed by their owner (`Chess ...`, `Xiangqi ...`, `CC ...`,
//! `Search ...`) so that one engine can hold all of them.

use std::sync::atomic::{AtomicI32, Ordering::Relaxed};

/// One tunable integer.
#[derive(Debug)]
pub struct Param {
    /// The option name (unique, case-insensitive).
    pub name: &'static str,
    /// Default value.
    pub default: i32,
    /// Smallest allowed value.
    pub min: i32,
    /// Largest allowed value.
    pub max: i32,
    /// SPSA step size (`c_end` in OpenBench's terms).
    pub step: i32,
    value: AtomicI32,
}

impl Param {
    /// A parameter at its default. `min <= default <= max` is checked by the tests of every table.
    pub const fn new(name: &'static str, default: i32, min: i32, max: i32, step: i32) -> Param {
        Param {
            name,
            default,
            min,
            max,
            step,
            value: AtomicI32::new(default),
        }
    }

    /// The current value.
    #[inline(always)]
    pub fn get(&self) -> i32 {
        self.value.load(Relaxed)
    }

    /// Sets the value; out of range is an error and changes nothing.
    pub fn set(&self, value: i64) -> Result<(), String> {
        if value < i64::from(self.min) || value > i64::from(self.max) {
            return Err(format!(
                "option {} value {value} is out of range {}..{}",
                self.name, self.min, self.max
            ));
        }
        self.value.store(value as i32, Relaxed);
        Ok(())
    }

    /// Back to the default.
    pub fn reset(&self) {
        self.value.store(self.default, Relaxed);
    }

    /// The SPSA line: `name, int, value, min, max, step, 0.002`.
    pub fn spsa_line(&self) -> String {
        format!(
            "{}, int, {}, {}, {}, {}, 0.002",
            self.name,
            self.get(),
            self.min,
            self.max,
            self.step
        )
    }
}

/// Tunable search parameters (see [`crate::search::params`]).
pub static SEARCH_PARAMS: &[&Param] = crate::search::params::PARAMS;

/// Every tunable parameter of the engine, in a fixed order.
pub fn all() -> Vec<&'static Param> {
    let groups: [&'static [&'static Param]; 5] = [
        crate::game::chess::eval::PARAMS,
        crate::game::xiangqi::eval::PARAMS,
        crate::game::chinese_checkers::eval::PARAMS,
        SEARCH_PARAMS,
        crate::search::multiplayer::PARAMS,
    ];
    groups.iter().flat_map(|g| g.iter().copied()).collect()
}

/// Finds a parameter by name (case-insensitive).
pub fn find(name: &str) -> Option<&'static Param> {
    let name = name.trim();
    all()
        .into_iter()
        .find(|p| p.name.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parameter_is_well_formed_and_unique() {
        let params = all();
        for (i, p) in params.iter().enumerate() {
            assert!(p.min <= p.default && p.default <= p.max, "{}", p.name);
            assert!(p.step > 0, "{}", p.name);
            assert!(!p.name.is_empty() && p.name.trim() == p.name, "{}", p.name);
            assert!(
                !p.name.to_ascii_lowercase().split(' ').any(|w| w == "value"),
                "a UCI option name may not contain the word value: {}",
                p.name
            );
            for q in &params[..i] {
                assert!(!q.name.eq_ignore_ascii_case(p.name), "duplicate {}", p.name);
            }
        }
    }

    #[test]
    fn set_checks_the_range() {
        static P: Param = Param::new("Test Param", 5, 0, 10, 1);
        assert!(P.set(11).is_err());
        assert!(P.set(-1).is_err());
        assert_eq!(P.get(), 5);
        P.set(7).unwrap();
        assert_eq!(P.get(), 7);
        assert_eq!(P.spsa_line(), "Test Param, int, 7, 0, 10, 1, 0.002");
        P.reset();
        assert_eq!(P.get(), 5);
    }
}
