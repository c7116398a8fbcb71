//! The shared transposition table: round trips, replacement, generations, hashfull, clear,
//! resize, and no torn entries under concurrent writers.

use sanqi::search::{Bound, TranspositionTable, TtEntry};

fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

fn entry(mv: Option<u16>, score: i16, eval: i16, depth: u8, bound: Bound) -> TtEntry {
    TtEntry {
        mv,
        score,
        eval,
        depth,
        bound,
    }
}

#[test]
fn entries_round_trip() {
    let tt = TranspositionTable::new(1);
    let cases = [
        entry(Some(0), 0, 0, 0, Bound::Exact),
        entry(Some(0xFFFF), -32000, 32000, 127, Bound::Lower),
        entry(None, 31990, -17, 5, Bound::Upper),
        entry(Some(4242), -1, -32000, 64, Bound::Exact),
    ];
    for (i, e) in cases.iter().enumerate() {
        let key = mix(i as u64);
        tt.store(key, *e);
        assert_eq!(tt.probe(key), Some(*e));
        assert_eq!(tt.probe(key ^ 1), None);
    }
}

#[test]
fn a_missing_move_keeps_the_stored_one_and_deeper_entries_stay() {
    let tt = TranspositionTable::new(1);
    let key = mix(77);
    tt.store(key, entry(Some(123), 10, 5, 8, Bound::Lower));
    tt.store(key, entry(None, 20, 5, 9, Bound::Upper));
    assert_eq!(
        tt.probe(key),
        Some(entry(Some(123), 20, 5, 9, Bound::Upper))
    );
    // A much shallower bound of the same search does not replace a deep entry...
    tt.store(key, entry(Some(1), 30, 5, 2, Bound::Lower));
    assert_eq!(tt.probe(key).map(|e| e.depth), Some(9));
    // ...but an exact one does, and so does anything in a later search.
    tt.store(key, entry(Some(2), 40, 5, 2, Bound::Exact));
    assert_eq!(tt.probe(key).map(|e| e.mv), Some(Some(2)));
    tt.store(key, entry(Some(3), 50, 5, 20, Bound::Exact));
    tt.new_search();
    tt.store(key, entry(Some(4), 60, 5, 1, Bound::Upper));
    assert_eq!(tt.probe(key).map(|e| e.mv), Some(Some(4)));
}

#[test]
fn hashfull_counts_the_current_search_and_clear_empties() {
    let tt = TranspositionTable::new(1);
    assert_eq!(tt.hashfull(), 0);
    let slots = tt.size_bytes() / 16;
    for i in 0..(4 * slots) as u64 {
        tt.store(mix(i), entry(Some(1), 1, 1, 3, Bound::Exact));
    }
    let full = tt.hashfull();
    assert!(full >= 950, "hashfull {full}");
    tt.new_search();
    assert_eq!(tt.hashfull(), 0, "old entries do not count");
    // Old entries are still found (they are only replaced first).
    let found = (0..1000u64).filter(|&i| tt.probe(mix(i)).is_some()).count();
    assert!(found > 0);
    tt.clear();
    assert!((0..(4 * slots) as u64).all(|i| tt.probe(mix(i)).is_none()));
}

#[test]
fn resize_changes_the_size() {
    let mut tt = TranspositionTable::new(1);
    assert_eq!(tt.size_bytes(), 1 << 20);
    tt.store(5, entry(Some(1), 1, 1, 1, Bound::Exact));
    tt.resize(4).unwrap();
    assert_eq!(tt.size_bytes(), 4 << 20);
    assert_eq!(tt.probe(5), None);
    tt.resize(0).unwrap();
    assert!(tt.size_bytes() > 0, "at least one bucket");
    tt.store(5, entry(Some(1), 1, 1, 1, Bound::Exact));
    assert!(tt.probe(5).is_some());
}

#[test]
fn concurrent_writers_never_produce_torn_entries() {
    // Few slots, many threads writing different data for the same keys: every entry a reader
    // accepts must be one that was written for that key.
    let tt = TranspositionTable::new(0);
    let keys: Vec<u64> = (0..16).map(mix).collect();
    std::thread::scope(|s| {
        for t in 0..4u64 {
            let tt = &tt;
            let keys = &keys;
            s.spawn(move || {
                for round in 0..20_000u64 {
                    let key = keys[(round as usize * 7 + t as usize) % keys.len()];
                    // The data is a function of the key (and of the writer, in the move).
                    let tag = (key % 1000) as i16;
                    tt.store(
                        key,
                        entry(Some(t as u16), tag, -tag, (round % 100) as u8, Bound::Exact),
                    );
                    for &k in keys {
                        if let Some(e) = tt.probe(k) {
                            let tag = (k % 1000) as i16;
                            assert_eq!((e.score, e.eval), (tag, -tag));
                            assert!(e.mv.is_some_and(|m| m < 4));
                        }
                    }
                }
            });
        }
    });
}
