//! The time rule's constants are options: setting one (as `setoption` does, by its option
//! name) changes the limits of the next search. A test binary of its own, since the options
//! are process-wide.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use sanqi::search::catalog::find_param;
use sanqi::search::time::{TimeManager, TimeRule};
use sanqi::search::SearchLimits;

fn soft_ms() -> u128 {
    let limits = SearchLimits {
        time_left_ms: Some(10_010),
        increment_ms: 100,
        move_overhead_ms: 10,
        ..SearchLimits::default()
    };
    let tm = TimeManager::new(&limits, Instant::now());
    tm.soft().map_or(0, |d: Duration| d.as_millis())
}

#[test]
fn setting_a_time_option_changes_the_next_search_s_limits() {
    // Defaults: reserve min(10000 / 2, 300) = 300, soft = 9700 / 40 + 60 = 302.
    assert_eq!(TimeRule::current(), TimeRule::defaults());
    assert_eq!(soft_ms(), 302);
    let moves_left = find_param("Search_Time_Moves_Left").expect("an option");
    moves_left.set(80).expect("in range");
    // 9700 / 80 + 60 = 181.
    assert_eq!(soft_ms(), 181);
    let share = find_param("search time increment share").expect("the spaced form, any case");
    share.set(100).expect("in range");
    // 9700 / 80 + 100 = 221.
    assert_eq!(soft_ms(), 221);
    assert!(moves_left.set(81).is_err(), "out of range is refused");
    assert_eq!(soft_ms(), 221);
    moves_left.reset();
    share.reset();
    assert_eq!(soft_ms(), 302);
}
