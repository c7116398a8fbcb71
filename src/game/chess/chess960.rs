//! The 960 start positions of Chess960 (Fischer random chess).

/// The Chess960 start position number `n` (0..960, Scharnagl's numbering: 518 is the standard
/// position) as a FEN with Shredder castling letters. `n` is taken modulo 960.
pub fn chess960_fen(n: u32) -> String {
    let mut n = n % 960;
    let mut rank: [Option<char>; 8] = [None; 8];
    // Light-squared bishop on files b, d, f, h; dark-squared on a, c, e, g.
    rank[(2 * (n % 4) + 1) as usize] = Some('b');
    n /= 4;
    rank[(2 * (n % 4)) as usize] = Some('b');
    n /= 4;
    let place = |rank: &mut [Option<char>; 8], mut index: u32, piece: char| {
        for slot in rank.iter_mut() {
            if slot.is_none() {
                if index == 0 {
                    *slot = Some(piece);
                    return;
                }
                index -= 1;
            }
        }
    };
    place(&mut rank, n % 6, 'q');
    n /= 6;
    const KNIGHTS: [(u32, u32); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (k1, k2) = KNIGHTS[(n % 10) as usize];
    // The second knight's index counts the empty squares left after the first is placed.
    place(&mut rank, k1, 'n');
    place(&mut rank, k2 - 1, 'n');
    place(&mut rank, 0, 'r');
    place(&mut rank, 0, 'k');
    place(&mut rank, 0, 'r');
    let black: String = rank.iter().map(|c| c.unwrap_or('r')).collect();
    let rook_files: Vec<char> = black
        .char_indices()
        .filter(|&(_, c)| c == 'r')
        .map(|(i, _)| (b'a' + i as u8) as char)
        .collect();
    let mut castling = String::new();
    for f in rook_files.iter().rev() {
        castling.push(f.to_ascii_uppercase());
    }
    for f in rook_files.iter().rev() {
        castling.push(*f);
    }
    format!(
        "{black}/pppppppp/8/8/8/8/PPPPPPPP/{} w {castling} - 0 1",
        black.to_ascii_uppercase()
    )
}
