//! The store's error type.

/// Everything that can go wrong talking to the archive.
///
/// Callers match on the domain variants; the database driver's own error is only ever a
/// `source`, never part of the API.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The database URL is not one the archive can use (wrong scheme, unparsable).
    #[error("unsupported database URL {url}: {reason}")]
    BadUrl {
        /// The URL as given, with any password masked.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The archive could not be opened: the server is unreachable, the file is missing, or the
    /// credentials were refused.
    #[error("cannot open archive {url}")]
    Connect {
        /// The URL, with any password masked.
        url: String,
        /// The driver's error.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The archive's schema is older than this program: run the migrations.
    #[error("the archive schema is out of date ({pending} migration(s) pending)")]
    SchemaOutOfDate {
        /// How many migrations have not been applied.
        pending: usize,
    },
    /// The archive's schema is newer than this program knows.
    #[error("the archive schema is newer than this program (unknown migration {name})")]
    SchemaTooNew {
        /// The first applied migration this program does not know.
        name: String,
    },
    /// Running the migrations failed.
    #[error("migrating the archive failed")]
    Migrate {
        /// The driver's error.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A row that was asked for does not exist.
    #[error("{what} not found")]
    NotFound {
        /// What was looked up, e.g. `media source 42`.
        what: String,
    },
    /// A row conflicts with an existing one in a way that is not an idempotent re-insert.
    #[error("{what}")]
    Conflict {
        /// What conflicts with what.
        what: String,
    },
    /// A stored value could not be decoded (a corrupt row or a body that does not decompress).
    #[error("corrupt {what}")]
    Corrupt {
        /// Which value.
        what: String,
    },
    /// The archive's disk is full (SQLite's `SQLITE_FULL`, PostgreSQL's SQLSTATE 53100
    /// `disk_full`): the statement, and the transaction it was part of, wrote nothing.
    #[error("the archive's disk is full (while {doing})")]
    Full {
        /// What the store was doing, e.g. `inserting a story`.
        doing: &'static str,
        /// The driver's error.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// Any other database failure, with what the store was doing at the time.
    #[error("database error while {doing}")]
    Database {
        /// What the store was doing, e.g. `inserting a story`.
        doing: &'static str,
        /// The driver's error.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

impl Error {
    /// Whether the archive's disk is full: nothing of the failed write was stored, and going on
    /// would only fail again.
    pub fn is_full(&self) -> bool {
        matches!(self, Error::Full { .. })
    }

    /// Whether the archive's connection was lost (the server restarted, or ended it) and stayed
    /// lost through the store's retries, or a transaction died with its connection: the work is
    /// not wrong and can be done again later, as a whole.
    pub fn connection_lost(&self) -> bool {
        match self {
            Error::Database { source, .. } => {
                source.downcast_ref::<sea_orm::DbErr>().is_some_and(crate::db::connection_lost)
            }
            _ => false,
        }
    }
}

/// The store's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Attaches "what the store was doing" to a driver error.
pub(crate) trait Context<T> {
    fn doing(self, doing: &'static str) -> Result<T>;
}

impl<T> Context<T> for std::result::Result<T, sea_orm::DbErr> {
    fn doing(self, doing: &'static str) -> Result<T> {
        self.map_err(|err| {
            if disk_full(&err) {
                Error::Full { doing, source: Box::new(err) }
            } else {
                Error::Database { doing, source: Box::new(err) }
            }
        })
    }
}

/// Whether a driver error says the database's disk is full: SQLite's result code 13
/// (`SQLITE_FULL`, also when the file reached its `max_page_count`) or PostgreSQL's SQLSTATE
/// 53100 (`disk_full`).
fn disk_full(err: &sea_orm::DbErr) -> bool {
    use sea_orm::sqlx::Error as Sqlx;
    use sea_orm::{DbErr, RuntimeErr};
    let sqlx = match err {
        DbErr::Exec(RuntimeErr::SqlxError(sqlx)) | DbErr::Query(RuntimeErr::SqlxError(sqlx)) => {
            sqlx
        }
        _ => return false,
    };
    match sqlx.as_ref() {
        Sqlx::Database(db) => db.code().is_some_and(|code| code == "13" || code == "53100"),
        _ => false,
    }
}
