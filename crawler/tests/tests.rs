//! Crawler integration tests, against servers on 127.0.0.1:0 (no live network).

mod conformance;
mod explore;
mod fetch;
mod robots;
mod spans;
mod support;
