//! The trainer of the neural evaluation (`ferrum train`): our own, on the CPU, multi-threaded
//! with rayon. It reads the self-play games of `ferrum datagen`, fits the float network
//! [`net::FloatNet`] with AdamW, and quantises it into the engine's
//! [`Network`](crate::eval::nnue::Network).

pub mod data;
pub mod net;
pub mod train;
