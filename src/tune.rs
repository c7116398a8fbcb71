//! What the outside can set: tunable integer parameters ([`Param`], declared with
//! [`declare_params!`](crate::declare_params)) and the typed kinds of engine options
//! ([`OptionType`]). A leaf: it imports nothing of the crate, so every module may use it.
//!
//! A parameter is a `static` [`Param`]; code reads it with [`Param::get`] (a relaxed atomic load,
//! as cheap as a plain load). Tuners change it through `setoption` (it is a UCI `spin` option) and
//! `spsa` lists the tunable ones in the format SPSA tuners take. Each game's evaluation and the
//! search declare a `PARAMS` list of their own; the game registry ([`crate::game::registry`])
//! collects them. Names are declared with spaces and prefixed by their owner (`Chess ...`,
//! `Xiangqi ...`, `CC ...`, `Search ...`) so that one engine can hold all of them; the option
//! name the protocol shows writes each space `_` ([`Param::option_name`]).

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
                self.option_name(),
                self.min,
                self.max
            ));
        }
        self.value.store(value as i32, Relaxed);
        Ok(())
    }

    /// Back to the default.
    pub fn reset(&self) {
        self.value.store(self.default, Relaxed);
    }

    /// The UCI option name: the name with every space written `_` (`Search_Chess_RFP_Margin`).
    /// `uci` lists it and `spsa` prints it, verbatim: OpenBench hands each SPSA parameter to its
    /// match runner as an `option.NAME=VALUE` word (split at spaces), and the runner (fastchess)
    /// sends only the names it finds, exactly and case-sensitively, in the engine's `uci` list.
    /// `setoption` also takes the spaced form ([`Param::matches`]).
    pub fn option_name(&self) -> String {
        self.name.replace(' ', "_")
    }

    /// Whether `name` names this parameter: the option name or its spaced form, in any case.
    pub fn matches(&self, name: &str) -> bool {
        self.name.eq_ignore_ascii_case(name) || self.option_name().eq_ignore_ascii_case(name)
    }

    /// Whether SPSA can tune the parameter: an on/off switch (two values) cannot.
    pub fn is_tunable(&self) -> bool {
        i64::from(self.max) - i64::from(self.min) >= 2
    }

    /// The final SPSA perturbation (`c_end`): a twentieth of the range (OpenBench's rule of
    /// thumb) but at most a tenth of the value (a range wide against the value would perturb it
    /// by most of itself: `Aspiration_Window` 25 in 5..400), never below the declared step or 1
    /// (an integer moves by whole steps). A value of 0 takes the twentieth of the range.
    pub fn c_end(&self) -> f64 {
        let range = f64::from(self.max) - f64::from(self.min);
        let value = f64::from(self.get()).abs();
        let c = if value > 0.0 {
            (range / 20.0).min(value / 10.0)
        } else {
            range / 20.0
        };
        c.max(f64::from(self.step)).max(1.0)
    }

    /// The SPSA line in OpenBench's input format, `name, int, value, min, max, c_end, r_end`,
    /// with [`Param::option_name`], [`Param::c_end`] and OpenBench's usual `r_end` 0.002.
    pub fn spsa_line(&self) -> String {
        format!(
            "{}, int, {}, {}, {}, {}, {}",
            self.option_name(),
            self.get(),
            self.min,
            self.max,
            format_c_end(self.c_end()),
            SPSA_R_END
        )
    }
}

/// The final SPSA learning rate (`r_end`) of every parameter: OpenBench's usual value.
pub const SPSA_R_END: f64 = 0.002;

/// `c_end` as `spsa` prints it: an integer when whole, else two decimals.
fn format_c_end(c: f64) -> String {
    if c.fract() == 0.0 {
        format!("{c:.0}")
    } else {
        format!("{c:.2}")
    }
}

/// Declares tunable parameters and the list of them, in one place:
///
/// ```
/// sanqi::declare_params! {
///     /// Every weight of this example.
///     pub static PARAMS;
///     /// Bonus for something.
///     pub BONUS = "Example Bonus", 10, 0, 100, 2;
///     MALUS = "Example Malus", 5, 0, 50, 1;
/// }
/// assert_eq!(PARAMS.len(), 2);
/// assert_eq!(BONUS.get(), 10);
/// ```
///
/// Each line is `NAME = "option name", default, min, max, SPSA step;` with optional doc comments
/// and visibility; the list keeps the declaration order (the order `spsa` prints).
#[macro_export]
macro_rules! declare_params {
    (
        $(#[$list_doc:meta])* $list_vis:vis static $list:ident;
        $( $(#[$doc:meta])* $vis:vis $id:ident = $name:literal, $def:expr, $min:expr, $max:expr, $step:expr; )*
    ) => {
        $(
            $(#[$doc])*
            #[doc = concat!("\n\nOption `", $name, "`.")]
            $vis static $id: $crate::tune::Param = $crate::tune::Param::new($name, $def, $min, $max, $step);
        )*
        $(#[$list_doc])*
        $list_vis static $list: &[&$crate::tune::Param] = &[$(&$id),*];
    };
}

/// The type of an engine option as the protocols declare it, with its default and range
/// (`const`-friendly: option tables are statics).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionType {
    /// `type check`.
    Check {
        /// Default value.
        default: bool,
    },
    /// `type spin`.
    Spin {
        /// Default value (within min..=max).
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// `type combo`.
    Combo {
        /// Default value (one of `vars`).
        default: &'static str,
        /// The allowed values.
        vars: &'static [&'static str],
    },
    /// `type button`.
    Button,
    /// `type string` (any text; an empty value is allowed).
    Text {
        /// Default value.
        default: &'static str,
    },
}

impl OptionType {
    /// Checks `value` against the type (`shown` names the option in the error) and returns it
    /// trimmed; a button takes no value. On error the message says what the option takes.
    pub fn check<'a>(&self, shown: &str, value: Option<&'a str>) -> Result<&'a str, String> {
        let value = value.map(str::trim).filter(|v| !v.is_empty());
        let need = || value.ok_or_else(|| format!("option {shown} needs a value"));
        match *self {
            OptionType::Button => Ok(""),
            OptionType::Text { .. } => Ok(value.unwrap_or("")),
            OptionType::Check { .. } => {
                let v = need()?;
                parse_bool(v)
                    .map(|_| v)
                    .ok_or_else(|| format!("option {shown} takes true or false, not '{v}'"))
            }
            OptionType::Spin { min, max, .. } => {
                let v = need()?;
                let n: i64 = v.parse().map_err(|_| {
                    format!("option {shown} takes an integer from {min} to {max}, not '{v}'")
                })?;
                if n < min || n > max {
                    return Err(format!(
                        "option {shown} value {n} is out of range {min}..{max}"
                    ));
                }
                Ok(v)
            }
            OptionType::Combo { vars, .. } => {
                let v = need()?;
                if vars.iter().any(|x| x.eq_ignore_ascii_case(v)) {
                    Ok(v)
                } else {
                    Err(format!(
                        "option {shown} takes one of {}, not '{v}'",
                        vars.join(", ")
                    ))
                }
            }
        }
    }

    /// The default value as text (empty for a button).
    pub fn default_text(&self) -> String {
        match *self {
            OptionType::Check { default } => default.to_string(),
            OptionType::Spin { default, .. } => default.to_string(),
            OptionType::Combo { default, .. } => default.to_string(),
            OptionType::Button => String::new(),
            OptionType::Text { default } => default.to_string(),
        }
    }
}

/// Reads a check option's value: `true`/`on` or `false`/`off` (any case).
pub fn parse_bool(value: &str) -> Option<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "on" => Some(true),
        "false" | "off" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_checks_the_range() {
        static P: Param = Param::new("Test Param", 5, 0, 10, 1);
        assert!(P.set(11).is_err());
        assert!(P.set(-1).is_err());
        assert_eq!(P.get(), 5);
        P.set(7).unwrap();
        assert_eq!(P.get(), 7);
        assert_eq!(P.spsa_line(), "Test_Param, int, 7, 0, 10, 1, 0.002");
        static WIDE: Param = Param::new("Wide", 50, 0, 1000, 10);
        // A tenth of the value (5) is below the step (10); a twentieth of the range is 50.
        assert_eq!(WIDE.spsa_line(), "Wide, int, 50, 0, 1000, 10, 0.002");
        // The range's twentieth (20) against a tenth of the value (2.5): the tenth.
        static WINDOW: Param = Param::new("Window", 25, 5, 405, 1);
        assert_eq!(WINDOW.spsa_line(), "Window, int, 25, 5, 405, 2.50, 0.002");
        // A large value in a narrow range: the range's twentieth.
        static NARROW: Param = Param::new("Narrow", 300, 200, 400, 1);
        assert_eq!(NARROW.spsa_line(), "Narrow, int, 300, 200, 400, 10, 0.002");
        // Value 0: the range's twentieth.
        static ZERO: Param = Param::new("Zero", 0, -100, 100, 1);
        assert_eq!(ZERO.spsa_line(), "Zero, int, 0, -100, 100, 10, 0.002");
        static SWITCH: Param = Param::new("Use It", 1, 0, 1, 1);
        assert!(WIDE.is_tunable() && !SWITCH.is_tunable() && P.is_tunable());
        assert!(P.matches("test param") && P.matches("TEST_PARAM") && !P.matches("Test"));
        P.reset();
        assert_eq!(P.get(), 5);
    }

    #[test]
    fn option_values_are_checked_against_the_type() {
        let spin = OptionType::Spin {
            default: 2,
            min: 1,
            max: 9,
        };
        assert_eq!(spin.check("S", Some(" 5 ")), Ok("5"));
        assert!(spin.check("S", Some("10")).is_err());
        assert!(spin.check("S", Some("x")).is_err());
        assert!(spin.check("S", None).is_err());
        let combo = OptionType::Combo {
            default: "a",
            vars: &["a", "b"],
        };
        assert_eq!(combo.check("C", Some("B")), Ok("B"));
        assert!(combo.check("C", Some("c")).is_err());
        let check = OptionType::Check { default: false };
        assert_eq!(check.check("K", Some("on")), Ok("on"));
        assert!(check.check("K", Some("yes")).is_err());
        assert_eq!(OptionType::Button.check("B", None), Ok(""));
        assert_eq!(spin.default_text(), "2");
    }
}
