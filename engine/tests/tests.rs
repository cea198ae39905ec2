//! The engine's jobs in-process, on SQLite and on PostgreSQL: the crawl loop against the test web
//! on loopback, and the WARC export read back.

mod crawl;
mod warc_export;
