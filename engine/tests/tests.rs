//! The engine's jobs in-process, on SQLite and on PostgreSQL, against the test web on loopback.

mod crawl;
