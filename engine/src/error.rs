//! The engine's error type.

/// What can stop one of the engine's jobs.
///
/// What one source serves never does: a crawl records that as the source's, feed's or URL's
/// failure. These are failures of the archive, of the machine, or of what the caller asked for.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The archive failed (its message says what it was doing).
    #[error(transparent)]
    Store(#[from] store::Error),
    /// This worker's clock is too far from the archive database's for its leases, heartbeats and
    /// host turns to be compared with other workers' (see `crawl::clock`).
    #[error(
        "this worker's clock ({worker}) is {seconds:.1} s off the archive database's ({database}), \
         more than the 60 s allowed: set the machine's clock right (NTP) before starting a worker"
    )]
    ClockSkew {
        /// This worker's clock when measured.
        worker: String,
        /// The database's clock then.
        database: String,
        /// How far apart they are, in seconds.
        seconds: f64,
    },
    /// Another worker is running work done by one worker at a time over the archive (a dedup
    /// batch, a re-extraction).
    #[error(
        "{owner} is running a {what} over this archive; nothing was done (run again when it is \
         done)"
    )]
    BatchRunning {
        /// The work, e.g. `dedup batch`.
        what: &'static str,
        /// The worker holding the archive's claim on it.
        owner: String,
    },
    /// The polite HTTP client could not be set up (no TLS roots, say).
    #[error("cannot set up the HTTP client")]
    Client {
        /// The client's error.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The fuzzy-dedup models could not be loaded.
    #[error("cannot load the embedding model")]
    Model {
        /// The model's error.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A task of the engine's own (an extraction on a blocking thread, say) panicked or was
    /// cancelled.
    #[error("a {what} task ended abnormally")]
    Task {
        /// What the task did, e.g. `crawl`.
        what: &'static str,
        /// Why it ended.
        #[source]
        source: tokio::task::JoinError,
    },
    /// The pool that bounds CPU work was closed while work waited for it.
    #[error("the CPU pool was closed")]
    PoolClosed,
    /// An id the archive gave back does not name a story (a corrupt dedup result).
    #[error("{what} is not a story id: {value:?}")]
    BadId {
        /// Whose id, e.g. `a cluster representative`.
        what: &'static str,
        /// The id as found.
        value: String,
    },
    /// A selection names a source the archive does not have.
    #[error("no source named {name:?}")]
    UnknownSource {
        /// The name as given.
        name: String,
    },
    /// A query could not be parsed (the message gives the character position).
    #[error(transparent)]
    Query(#[from] store::query::ParseError),
    /// A query or a selection names a source or collection the archive does not have.
    #[error("query: {what} is not in the archive")]
    UnknownName {
        /// What was named, e.g. `collection "US national"`.
        what: String,
    },
    /// Exported rows could not be written.
    #[error("cannot write the output")]
    Write {
        /// The writer's error.
        #[source]
        source: std::io::Error,
    },
}

impl Error {
    /// Whether the caller asked for something wrong (a query that does not parse, a name the
    /// archive does not have), rather than the archive failing.
    pub fn is_bad_request(&self) -> bool {
        matches!(self, Error::Query(_) | Error::UnknownName { .. } | Error::UnknownSource { .. })
    }

    /// Whether the archive's connection was lost (see [`store::Error::connection_lost`]): the
    /// work is not wrong, and is done again rather than recorded as a failure.
    pub fn connection_lost(&self) -> bool {
        matches!(self, Error::Store(err) if err.connection_lost())
    }

    /// Whether the archive's disk is full (see [`store::Error::Full`]): the crawl stops, since
    /// recording the failure would fail too.
    pub fn is_full(&self) -> bool {
        matches!(self, Error::Store(err) if err.is_full())
    }
}

impl Error {
    /// Whether this is a write to a reader that stopped reading (`morgue stories | head`).
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Write { source } if source.kind() == std::io::ErrorKind::BrokenPipe)
    }
}

impl From<tokio::sync::AcquireError> for Error {
    fn from(_: tokio::sync::AcquireError) -> Error {
        Error::PoolClosed
    }
}

/// The engine's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// An error and its causes on one line, `outer: inner: cause`, leaving out a cause whose words
/// were already said (some drivers repeat their cause in their own message). For the failures a
/// crawl records as a source's, feed's or URL's own, and for logs.
pub fn chain(err: &(dyn std::error::Error + 'static)) -> String {
    let mut message = String::new();
    let mut next = Some(err);
    while let Some(cause) = next {
        let text = cause.to_string().split_whitespace().collect::<Vec<_>>().join(" ");
        if !text.is_empty() && !message.contains(&text) {
            if !message.is_empty() {
                message.push_str(": ");
            }
            message.push_str(&text);
        }
        next = cause.source();
    }
    message
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chain_is_one_line_without_repeats() {
        let io = std::io::Error::other("disk on fire");
        let err = Error::Write { source: io };
        assert_eq!(chain(&err), "cannot write the output: disk on fire");
        let store = Error::from(store::Error::NotFound { what: "story 7".to_owned() });
        assert_eq!(chain(&store), "story 7 not found");
        let pipe = Error::Write { source: std::io::ErrorKind::BrokenPipe.into() };
        assert!(pipe.is_broken_pipe() && !store.is_broken_pipe() && !err.is_broken_pipe());
    }
}
