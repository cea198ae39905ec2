//! The engine's jobs in-process, on SQLite and on PostgreSQL: the crawl loop against the test web
//! on loopback (and
//! under faults: a full disk, a clock that is off), and the WARC export read back.

mod crawl;
mod faults;
mod warc_export;
