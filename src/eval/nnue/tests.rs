use std::sync::Arc;

use super::*;
use crate::core::{Move, Position};
use crate::eval::Evaluator;

/// A network with random weights in the range the trainer allows (deterministic).
pub(crate) fn random_network(seed: u64) -> Network {
    let mut s = seed;
    let mut next = move |range: i32| {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((s >> 33) as i32 % (2 * range + 1) - range) as i16
    };
    let mut net = Network::zeroed();
    for row in net.l1_weights.iter_mut() {
        row.iter_mut().for_each(|w| *w = next(60));
    }
    net.l1_bias.iter_mut().for_each(|b| *b = next(120) + 60);
    net.out_weights
        .iter_mut()
        .flatten()
        .for_each(|w| *w = next(127));
    net.out_bias
        .iter_mut()
        .for_each(|b| *b = i32::from(next(3000)));
    net
}

/// A random legal move (deterministic from `r`), or `None` when there is none.
fn pick(pos: &Position, r: &mut u64) -> Option<Move> {
    let moves = pos.legal_moves();
    *r = r.wrapping_mul(6364136223846793005).wrapping_add(1);
    (!moves.is_empty()).then(|| moves[(*r >> 33) as usize % moves.len()])
}

#[test]
fn incremental_accumulators_equal_a_refresh_after_every_make_and_unmake() {
    let net = Arc::new(random_network(1));
    let starts = [
        Position::startpos(),
        // Castling both ways, en passant and promotions come up quickly from here.
        Position::from_fen("r3k2r/1P4p1/8/2pP4/8/8/6p1/R3K2R w KQkq c6 0 1").expect("fen"),
        Position::from_fen_960("rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w EAea - 0 1").expect("fen"),
    ];
    let mut r = 7u64;
    let mut checked = 0;
    for start in &starts {
        for _game in 0..20 {
            let mut pos = start.clone();
            let mut ev = Evaluator::with_network(Some(Arc::clone(&net)), &pos);
            let mut line = Vec::new();
            for ply in 0..60 {
                // Now and then a null move, as the search makes them.
                if ply % 7 == 3 && !pos.in_check() {
                    let undo = pos.make_null();
                    ev.push(None, pos.key());
                    assert_eq!(ev.evaluate(&pos), net.evaluate(&pos).clamp(-20_000, 20_000));
                    pos.unmake_null(&undo);
                    ev.pop();
                }
                let Some(m) = pick(&pos, &mut r) else { break };
                let delta = ev.delta(&pos, m);
                let undo = pos.make(m);
                ev.push(delta, pos.key());
                line.push((m, undo));
                // Evaluate only some nodes, so lazy updates over several plies are tested.
                if ply % 3 != 1 {
                    assert_eq!(ev.evaluate(&pos), net.evaluate(&pos), "{}", pos.fen());
                    checked += 1;
                }
            }
            while let Some((m, undo)) = line.pop() {
                pos.unmake(m, &undo);
                ev.pop();
                if line.len() % 4 == 0 {
                    assert_eq!(ev.evaluate(&pos), net.evaluate(&pos), "{}", pos.fen());
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 1000);
}

/// The position with colours swapped and the board mirrored top to bottom.
fn mirrored(pos: &Position) -> Position {
    let fen = pos.fen();
    let fields: Vec<&str> = fen.split(' ').collect();
    let swap = |c: char| {
        if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        }
    };
    let placement: Vec<String> = fields[0]
        .split('/')
        .rev()
        .map(|rank| rank.chars().map(swap).collect())
        .collect();
    let side = if fields[1] == "w" { "b" } else { "w" };
    let castling: String = fields[2]
        .chars()
        .map(|c| if c == '-' { c } else { swap(c) })
        .collect();
    let ep = match fields[3].as_bytes() {
        [f, b'3'] => format!("{}6", *f as char),
        [f, b'6'] => format!("{}3", *f as char),
        _ => "-".to_string(),
    };
    let text = format!(
        "{} {side} {castling} {ep} {} {}",
        placement.join("/"),
        fields[4],
        fields[5]
    );
    Position::from_fen(&text).expect("mirrored fen")
}

#[test]
fn the_evaluation_is_symmetric_under_a_colour_flip() {
    let net = random_network(2);
    let mut r = 11u64;
    let mut pos = Position::startpos();
    let mut asymmetric = 0;
    for _ in 0..80 {
        let flipped = mirrored(&pos);
        assert_eq!(net.evaluate(&pos), net.evaluate(&flipped), "{}", pos.fen());
        // The check is not vacuous: with the side to move changed alone, scores differ.
        let mut other_side = pos.clone();
        if !pos.in_check() {
            other_side.make_null();
            asymmetric += (net.evaluate(&other_side) != net.evaluate(&pos)) as usize;
        }
        let Some(m) = pick(&pos, &mut r) else { break };
        pos.make(m);
    }
    assert!(asymmetric > 10);
}

#[test]
fn network_files_round_trip_and_damage_is_a_typed_error() {
    let net = random_network(3);
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), file::NET_FILE_BYTES);
    assert_eq!(Network::from_bytes(&bytes), Ok(net));
    assert_eq!(Network::from_bytes(b"hello"), Err(NetError::BadMagic));
    let mut wrong = bytes.clone();
    wrong[8] = 64;
    assert!(matches!(
        Network::from_bytes(&wrong),
        Err(NetError::WrongShape { .. })
    ));
    assert!(matches!(
        Network::from_bytes(&bytes[..bytes.len() - 10]),
        Err(NetError::WrongLength { .. })
    ));
    let mut flipped = bytes.clone();
    flipped[1000] ^= 1;
    assert_eq!(Network::from_bytes(&flipped), Err(NetError::Checksum));
    assert!(matches!(
        Network::load(std::path::Path::new("no/such/file.nnue")),
        Err(NetError::Io(_))
    ));
    // A well-formed file whose output weight inference cannot multiply in 16 bits.
    let mut heavy = random_network(3);
    heavy.out_weights[5][200] = MAX_OUTPUT_WEIGHT + 1;
    assert_eq!(
        Network::from_bytes(&heavy.to_bytes()),
        Err(NetError::OutputWeightOutOfRange {
            bucket: 5,
            index: 200,
            value: MAX_OUTPUT_WEIGHT + 1
        })
    );
    heavy.out_weights[5][200] = -MAX_OUTPUT_WEIGHT;
    assert_eq!(Network::from_bytes(&heavy.to_bytes()), Ok(heavy));
}

#[test]
fn a_version_1_file_gives_its_one_output_layer_to_every_bucket() {
    let net = random_network(4);
    let v1 = net.to_bytes_v1();
    assert_eq!(v1.len(), file::NET_FILE_BYTES_V1);
    let loaded = Network::from_bytes(&v1).expect("a version-1 file loads");
    assert_eq!(loaded.l1_weights, net.l1_weights);
    for bucket in 0..OUTPUT_BUCKETS {
        assert_eq!(loaded.out_weights[bucket], net.out_weights[0], "{bucket}");
        assert_eq!(loaded.out_bias[bucket], net.out_bias[0], "{bucket}");
    }
    // Damage to a version-1 file is refused as in version 2.
    let mut flipped = v1.clone();
    flipped[500] ^= 4;
    assert_eq!(Network::from_bytes(&flipped), Err(NetError::Checksum));
    assert!(matches!(
        Network::from_bytes(&v1[..v1.len() - 2]),
        Err(NetError::WrongLength { .. })
    ));
}

#[test]
fn the_piece_count_chooses_the_output_bucket() {
    assert_eq!(output_bucket(2), 0);
    assert_eq!(output_bucket(5), 0);
    assert_eq!(output_bucket(6), 1);
    assert_eq!(output_bucket(29), 6);
    assert_eq!(output_bucket(30), 7);
    assert_eq!(output_bucket(32), 7);
    // A network whose buckets differ only in their biases scores each position by its own.
    let mut net = Network::zeroed();
    for (b, bias) in net.out_bias.iter_mut().enumerate() {
        *bias = (b as i32 + 1) * QA * QB / 4;
    }
    let cp = |b: i32| (b + 1) * SCALE / 4;
    assert_eq!(net.evaluate(&Position::startpos()), cp(7));
    let kqk = Position::from_fen("4k3/8/8/8/8/8/3Q4/4K3 b - - 0 1").expect("fen");
    assert_eq!(net.evaluate(&kqk), cp(0));
    let ten = Position::from_fen("r3k3/pp6/8/8/8/8/PPP5/R3K2R w - - 0 1").expect("fen");
    assert_eq!(net.evaluate(&ten), cp(2));
}

#[test]
fn the_16_bit_output_layer_equals_32_bit_arithmetic() {
    // Accumulator values beyond both ends of the clamp, and the extreme weights.
    let mut s = 7u64;
    let mut next = move |lo: i32, hi: i32| {
        s = s.wrapping_mul(6364136223846793005).wrapping_add(1);
        (lo + (s >> 33) as i32 % (hi - lo + 1)) as i16
    };
    for round in 0..200 {
        let acc: [i16; HIDDEN] = std::array::from_fn(|_| next(-600, 600));
        let weights: [i16; HIDDEN] = std::array::from_fn(|i| match (round + i) % 7 {
            0 => MAX_OUTPUT_WEIGHT,
            1 => -MAX_OUTPUT_WEIGHT,
            _ => next(-127, 127),
        });
        let reference: i32 = acc
            .iter()
            .zip(&weights)
            .map(|(&a, &w)| {
                let v = i32::from(a).clamp(0, QA);
                v * v * i32::from(w)
            })
            .sum();
        assert_eq!(screlu_dot(&acc, &weights), reference, "round {round}");
    }
}

#[test]
fn the_embedded_network_loads_and_knows_material() {
    let net = super::embedded().expect("the embedded network loads");
    let level = net.evaluate(&Position::startpos());
    assert!(level.abs() < 100, "start position: {level}");
    // Queen odds, either side to move: a big advantage for the side with the queen.
    let up = Position::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
        .expect("fen");
    let down = Position::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1")
        .expect("fen");
    assert!(net.evaluate(&up) > 500, "{}", net.evaluate(&up));
    assert!(net.evaluate(&down) < -500, "{}", net.evaluate(&down));
    assert_eq!(net.evaluate(&up), net.evaluate(&mirrored(&up)));
    // The engine evaluates with it by default.
    let job = crate::search::Job::new(Position::startpos(), crate::search::Limits::default());
    assert!(job.net.is_some_and(|n| *n == *net));
}
