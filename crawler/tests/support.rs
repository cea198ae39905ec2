//! A scriptable HTTP/1.1 server on loopback: each test says how to answer each request.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// A request as the server saw it.
#[derive(Debug, Clone)]
pub(crate) struct Seen {
    pub(crate) path: String,
    pub(crate) headers: Vec<(String, String)>,
}

impl Seen {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// How to answer.
pub(crate) enum Reply {
    /// These bytes, then close.
    Raw(Vec<u8>),
    /// These head bytes, then `chunk` every `every`, `count` times (a slow drip).
    Drip { head: Vec<u8>, chunk: Vec<u8>, every: Duration, count: usize },
}

/// A `200`-style response with a body and extra headers.
pub(crate) fn response(status: &str, headers: &[(&str, &str)], body: &[u8]) -> Reply {
    let mut head =
        format!("HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n", body.len());
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(body);
    Reply::Raw(bytes)
}

/// Starts a server; returns its address and the log of requests it saw.
pub(crate) async fn serve(
    handler: impl Fn(&Seen) -> Reply + Send + Sync + 'static,
) -> (SocketAddr, Arc<Mutex<Vec<Seen>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind loopback");
    let addr = listener.local_addr().expect("address");
    let log = Arc::new(Mutex::new(Vec::new()));
    let handler = Arc::new(handler);
    let seen_log = Arc::clone(&log);
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let handler = Arc::clone(&handler);
            let log = Arc::clone(&seen_log);
            tokio::spawn(async move {
                let mut head = Vec::new();
                let mut byte = [0_u8; 1024];
                while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                    match stream.read(&mut byte).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => head.extend_from_slice(&byte[..n]),
                    }
                }
                let text = String::from_utf8_lossy(&head).into_owned();
                let mut lines = text.split("\r\n");
                let path =
                    lines.next().unwrap_or_default().split(' ').nth(1).unwrap_or("/").to_owned();
                let headers = lines
                    .filter_map(|line| line.split_once(':'))
                    .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
                    .collect();
                let seen = Seen { path, headers };
                log.lock().unwrap().push(seen.clone());
                match handler(&seen) {
                    Reply::Raw(bytes) => {
                        let _ = stream.write_all(&bytes).await;
                    }
                    Reply::Drip { head, chunk, every, count } => {
                        let _ = stream.write_all(&head).await;
                        for _ in 0..count {
                            tokio::time::sleep(every).await;
                            if stream.write_all(&chunk).await.is_err() {
                                return;
                            }
                        }
                    }
                }
                let _ = stream.shutdown().await;
            });
        }
    });
    (addr, log)
}
