//! The network file (`.nnue`): a header that names the shape and the quantisation, the
//! integer weights in little-endian order, and a checksum. `src/eval/nnue/FORMAT.md` lists
//! the bytes.

use std::fmt;

use super::{Network, HIDDEN, INPUTS, MAX_OUTPUT_WEIGHT, QA, QB, SCALE};

/// The first eight bytes of a network file.
pub const NET_MAGIC: [u8; 8] = *b"FRMNNUE1";

/// Bytes of the header: magic, then hidden size, QA, QB and SCALE as u32.
const HEADER_BYTES: usize = 24;

/// The size in bytes of a network file of this build's shape.
pub const NET_FILE_BYTES: usize =
    HEADER_BYTES + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4 + 4;

/// Why bytes are not a network this build can use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// The file could not be read.
    Io(String),
    /// The file does not start with the magic bytes `FRMNNUE1`.
    BadMagic,
    /// The file's shape or quantisation differs from this build's.
    WrongShape {
        /// What the file says: hidden size, QA, QB, SCALE.
        found: [u32; 4],
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
        /// The weight's index in the output layer.
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
                "the network has hidden size {}, QA {}, QB {}, scale {}; this build needs {HIDDEN}, {QA}, {QB}, {SCALE}",
                found[0], found[1], found[2], found[3]
            ),
            NetError::WrongLength { expected, found } => write!(
                f,
                "the network file has {found} bytes where {expected} are expected"
            ),
            NetError::Checksum => write!(f, "the network file's checksum does not match"),
            NetError::OutputWeightOutOfRange { index, value } => write!(
                f,
                "output weight {index} is {value}, beyond the ±{MAX_OUTPUT_WEIGHT} inference allows"
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
    /// The network in `bytes` (a `.nnue` file's contents).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < HEADER_BYTES || bytes[..8] != NET_MAGIC {
            return Err(NetError::BadMagic);
        }
        let mut r = Reader { bytes, at: 8 };
        let found = [r.u32(), r.u32(), r.u32(), r.u32()];
        if found != [HIDDEN as u32, QA as u32, QB as u32, SCALE as u32] {
            return Err(NetError::WrongShape { found });
        }
        if bytes.len() != NET_FILE_BYTES {
            return Err(NetError::WrongLength {
                expected: NET_FILE_BYTES,
                found: bytes.len(),
            });
        }
        let body = &bytes[..NET_FILE_BYTES - 4];
        let stored = u32::from_le_bytes(bytes[NET_FILE_BYTES - 4..].try_into().unwrap_or([0; 4]));
        if checksum(body) != stored {
            return Err(NetError::Checksum);
        }
        let mut net = Network::zeroed();
        for row in net.l1_weights.iter_mut() {
            row.iter_mut().for_each(|w| *w = r.i16());
        }
        net.l1_bias.iter_mut().for_each(|b| *b = r.i16());
        net.out_weights.iter_mut().for_each(|w| *w = r.i16());
        net.out_bias = r.u32() as i32;
        if let Some((index, &value)) = net
            .out_weights
            .iter()
            .enumerate()
            .find(|(_, w)| !(-MAX_OUTPUT_WEIGHT..=MAX_OUTPUT_WEIGHT).contains(*w))
        {
            return Err(NetError::OutputWeightOutOfRange { index, value });
        }
        Ok(net)
    }

    /// Reads a network file.
    pub fn load(path: &std::path::Path) -> Result<Network, NetError> {
        let bytes =
            std::fs::read(path).map_err(|e| NetError::Io(format!("{}: {e}", path.display())))?;
        Network::from_bytes(&bytes)
    }

    /// The `.nnue` bytes of this network.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(NET_FILE_BYTES);
        out.extend_from_slice(&NET_MAGIC);
        for v in [HIDDEN as u32, QA as u32, QB as u32, SCALE as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for row in self.l1_weights.iter() {
            row.iter()
                .for_each(|w| out.extend_from_slice(&w.to_le_bytes()));
        }
        self.l1_bias
            .iter()
            .for_each(|b| out.extend_from_slice(&b.to_le_bytes()));
        self.out_weights
            .iter()
            .for_each(|w| out.extend_from_slice(&w.to_le_bytes()));
        out.extend_from_slice(&self.out_bias.to_le_bytes());
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }
}
