//! The network file (`.nnue`): a header that names the shape and the quantisation, the
//! integer weights in little-endian order, and a checksum. `src/eval/nnue/FORMAT.md` lists
//! the bytes. Version 2 (written) has [`OUTPUT_BUCKETS`] output layers; version 1 (read, the
//! networks up to `g3-353`) has one, which the loader gives to every bucket, so such a
//! network scores exactly as before.

use std::fmt;

use super::{Network, HIDDEN, INPUTS, MAX_OUTPUT_WEIGHT, OUTPUT_BUCKETS, QA, QB, SCALE};

/// The first eight bytes of a network file with output buckets (version 2, written).
pub const NET_MAGIC: [u8; 8] = *b"FRMNNUE2";

/// The first eight bytes of a network file with one output layer (version 1, read only).
pub const NET_MAGIC_V1: [u8; 8] = *b"FRMNNUE1";

/// Bytes of a version-2 header: magic, then hidden size, QA, QB, SCALE and the number of
/// output buckets as u32 (version 1 has no bucket count: 24 bytes).
const HEADER_BYTES: usize = 28;

/// The size in bytes of a file with `buckets` output layers after a header of `header` bytes.
const fn file_bytes(header: usize, buckets: usize) -> usize {
    header + 2 * (INPUTS * HIDDEN + HIDDEN) + buckets * (2 * 2 * HIDDEN + 4) + 4
}

/// The size in bytes of a network file of this build's shape (version 2).
pub const NET_FILE_BYTES: usize = file_bytes(HEADER_BYTES, OUTPUT_BUCKETS);

/// The size in bytes of a version-1 network file (one output layer).
pub const NET_FILE_BYTES_V1: usize = file_bytes(24, 1);

/// Why bytes are not a network this build can use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// The file could not be read.
    Io(String),
    /// The file does not start with the magic bytes `FRMNNUE2` (or version 1's `FRMNNUE1`).
    BadMagic,
    /// The file's shape or quantisation differs from this build's.
    WrongShape {
        /// What the file says: hidden size, QA, QB, SCALE, output buckets (1 in version 1).
        found: [u32; 5],
    },
    /// The file has the wrong length for its shape.
    WrongLength {
        /// Bytes expected.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
    /// The checksum does not match the bytes.
    Checksum,
    /// An output weight is beyond ±[`MAX_OUTPUT_WEIGHT`] (no trainer of Ferrum's writes one;
    /// inference relies on the bound).
    OutputWeightOutOfRange {
        /// The weight's output bucket.
        bucket: usize,
        /// The weight's index in its bucket's output layer.
        index: usize,
        /// Its value.
        value: i16,
    },
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Io(e) => write!(f, "cannot read the network file: {e}"),
            NetError::BadMagic => write!(f, "not a Ferrum network file (bad magic)"),
            NetError::WrongShape { found } => write!(
                f,
                "the network has hidden size {}, QA {}, QB {}, scale {}, {} output buckets; this build needs {HIDDEN}, {QA}, {QB}, {SCALE}, {OUTPUT_BUCKETS}",
                found[0], found[1], found[2], found[3], found[4]
            ),
            NetError::WrongLength { expected, found } => write!(
                f,
                "the network file has {found} bytes where {expected} are expected"
            ),
            NetError::Checksum => write!(f, "the network file's checksum does not match"),
            NetError::OutputWeightOutOfRange {
                bucket,
                index,
                value,
            } => write!(
                f,
                "output weight {index} of bucket {bucket} is {value}, beyond the ±{MAX_OUTPUT_WEIGHT} inference allows"
            ),
        }
    }
}

impl std::error::Error for NetError {}

fn checksum(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5u32, |h, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// Little-endian values read one after another.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        if let Some(b) = self.bytes.get(self.at..self.at + N) {
            out.copy_from_slice(b);
        }
        self.at += N;
        out
    }

    fn i16(&mut self) -> i16 {
        i16::from_le_bytes(self.take())
    }

    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }
}

impl Network {
    /// The network in `bytes` (a `.nnue` file's contents, version 2 or 1).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let (header, buckets, expected) = match bytes.get(..8) {
            Some(m) if m == NET_MAGIC => (HEADER_BYTES, OUTPUT_BUCKETS, NET_FILE_BYTES),
            Some(m) if m == NET_MAGIC_V1 => (24, 1, NET_FILE_BYTES_V1),
            _ => return Err(NetError::BadMagic),
        };
        if bytes.len() < header {
            return Err(NetError::BadMagic);
        }
        let mut r = Reader { bytes, at: 8 };
        let mut found = [r.u32(), r.u32(), r.u32(), r.u32(), 1];
        if buckets > 1 {
            found[4] = r.u32();
        }
        let expected_shape = [HIDDEN, QA as usize, QB as usize, SCALE as usize, buckets];
        if found
            .iter()
            .zip(expected_shape)
            .any(|(&f, e)| f as usize != e)
        {
            return Err(NetError::WrongShape { found });
        }
        if bytes.len() != expected {
            return Err(NetError::WrongLength {
                expected,
                found: bytes.len(),
            });
        }
        let stored = u32::from_le_bytes(bytes[expected - 4..].try_into().unwrap_or([0; 4]));
        if checksum(&bytes[..expected - 4]) != stored {
            return Err(NetError::Checksum);
        }
        let mut net = Network::zeroed();
        for row in net.l1_weights.iter_mut() {
            row.iter_mut().for_each(|w| *w = r.i16());
        }
        net.l1_bias.iter_mut().for_each(|b| *b = r.i16());
        for layer in net.out_weights.iter_mut().take(buckets) {
            layer.iter_mut().for_each(|w| *w = r.i16());
        }
        for bias in net.out_bias.iter_mut().take(buckets) {
            *bias = r.u32() as i32;
        }
        // Version 1's one output layer serves every bucket.
        for b in buckets..OUTPUT_BUCKETS {
            net.out_weights[b] = net.out_weights[0];
            net.out_bias[b] = net.out_bias[0];
        }
        net.check_output_weights()?;
        Ok(net)
    }

    /// Refuses an output weight that 16-bit inference cannot multiply.
    fn check_output_weights(&self) -> Result<(), NetError> {
        for (bucket, layer) in self.out_weights.iter().enumerate() {
            let bad = layer
                .iter()
                .enumerate()
                .find(|(_, w)| !(-MAX_OUTPUT_WEIGHT..=MAX_OUTPUT_WEIGHT).contains(*w));
            if let Some((index, &value)) = bad {
                return Err(NetError::OutputWeightOutOfRange {
                    bucket,
                    index,
                    value,
                });
            }
        }
        Ok(())
    }

    /// Reads a network file.
    pub fn load(path: &std::path::Path) -> Result<Network, NetError> {
        let bytes =
            std::fs::read(path).map_err(|e| NetError::Io(format!("{}: {e}", path.display())))?;
        Network::from_bytes(&bytes)
    }

    /// The `.nnue` bytes of this network (version 2).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(NET_FILE_BYTES);
        out.extend_from_slice(&NET_MAGIC);
        let shape = [HIDDEN as u32, QA as u32, QB as u32, SCALE as u32];
        for v in shape.into_iter().chain([OUTPUT_BUCKETS as u32]) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let first_layer = self.l1_weights.iter().flatten().chain(&self.l1_bias);
        let output_layers = self.out_weights.iter().flatten();
        for w in first_layer.chain(output_layers) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.out_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// The version-1 bytes of this network's first bucket (for tests of the old format).
    #[cfg(test)]
    pub(super) fn to_bytes_v1(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(NET_FILE_BYTES_V1);
        out.extend_from_slice(&NET_MAGIC_V1);
        for v in [HIDDEN as u32, QA as u32, QB as u32, SCALE as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let first_layer = self.l1_weights.iter().flatten().chain(&self.l1_bias);
        for w in first_layer.chain(&self.out_weights[0]) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.out_bias[0].to_le_bytes());
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }
}
