use sanqi::game::{Game, GameConfig, chinese_checkers::ChineseCheckers};
use sanqi::search::*;
#[test]
fn t() {
    let g = ChineseCheckers::startpos(&GameConfig::default());
    let mut s = Searcher::new(16);
    let c = SearchControl::new();
    let lim = SearchLimits { depth: Some(3), ..Default::default() };
    let r = s.search(&g, &lim, &SearchOptions::default(), None, &c, &mut |e| println!("{e:?}"));
    println!("{r:?} rule={:?} eval={}", g.rule_outcome(), g.evaluate());
}
