//! A small HTTP/1.1 server: keep-alive, `Content-Length` bodies, and bodies that drip or flood.
//!
//! It is written for the test web alone: GET and HEAD only, request bodies ignored, every
//! response framed by `Content-Length` so that a client can tell a cut-off body from a whole one.

use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// The most bytes of request head read before the connection is dropped.
const MAX_HEAD: usize = 64 * 1024;

/// A request as the server saw it.
#[derive(Debug, Clone)]
pub struct Request {
    /// The method.
    pub method: String,
    /// The request target: path and query.
    pub path: String,
    /// The `Host` header without its port, lower-cased.
    pub host: String,
    /// The port of the `Host` header (the server's own when absent).
    pub port: u16,
    /// Every header, names lower-cased.
    pub headers: Vec<(String, String)>,
}

impl Request {
    /// The first value of a header.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(key, _)| key.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// `http://host:port` of this request.
    pub fn origin(&self) -> String {
        format!("http://{}:{}", self.host, self.port)
    }
}

/// How a body is sent.
#[derive(Debug, Clone)]
pub enum Body {
    /// All at once.
    Bytes(Vec<u8>),
    /// `chunk` every `every`, `count` times: a slow drip.
    Drip {
        /// What each write sends.
        chunk: Vec<u8>,
        /// The pause before each write.
        every: Duration,
        /// How many writes.
        count: usize,
    },
    /// `chunk` `count` times, as fast as the client reads: a flood.
    Repeat {
        /// What each write sends.
        chunk: Vec<u8>,
        /// How many writes.
        count: usize,
    },
}

impl Body {
    fn len(&self) -> usize {
        match self {
            Body::Bytes(bytes) => bytes.len(),
            Body::Drip { chunk, count, .. } | Body::Repeat { chunk, count } => chunk.len() * count,
        }
    }
}

/// A response.
#[derive(Debug, Clone)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// Headers besides `Content-Length` and `Connection`.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Body,
}

impl Response {
    /// A status with an empty body.
    pub fn status(status: u16) -> Response {
        Response { status, headers: Vec::new(), body: Body::Bytes(Vec::new()) }
    }

    /// A body of this type.
    pub fn bytes(status: u16, content_type: &str, body: Vec<u8>) -> Response {
        Response {
            status,
            headers: vec![("Content-Type".into(), content_type.into())],
            body: Body::Bytes(body),
        }
    }

    /// A UTF-8 HTML page.
    pub fn html(page: String) -> Response {
        Response::bytes(200, "text/html; charset=utf-8", page.into_bytes())
    }

    /// Plain text.
    pub fn text(text: String) -> Response {
        Response::bytes(200, "text/plain; charset=utf-8", text.into_bytes())
    }

    /// A redirect.
    pub fn redirect(status: u16, location: &str) -> Response {
        let mut response = Response::status(status);
        response.headers.push(("Location".into(), location.into()));
        response
    }

    /// `404 Not Found`.
    pub fn not_found() -> Response {
        Response::bytes(404, "text/plain", b"not found\n".to_vec())
    }

    /// Adds a header.
    pub fn with_header(mut self, name: &str, value: &str) -> Response {
        self.headers.push((name.into(), value.into()));
        self
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        301 => "Moved Permanently",
        302 => "Found",
        304 => "Not Modified",
        404 => "Not Found",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

/// What the server calls for each request; it also records the request.
pub(crate) type Handler = Arc<dyn Fn(&Request) -> Response + Send + Sync>;

/// Accepts connections until the task is dropped.
pub(crate) async fn serve(listener: TcpListener, handler: Handler) {
    let port = listener.local_addr().map(|addr| addr.port()).unwrap_or(0);
    while let Ok((stream, _)) = listener.accept().await {
        let handler = Arc::clone(&handler);
        tokio::spawn(async move {
            let _ = connection(stream, port, handler).await;
        });
    }
}

async fn connection(mut stream: TcpStream, port: u16, handler: Handler) -> std::io::Result<()> {
    let _ = stream.set_nodelay(true);
    let mut buffer: Vec<u8> = Vec::with_capacity(4096);
    loop {
        let head_end = loop {
            if let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
                break end + 4;
            }
            if buffer.len() > MAX_HEAD {
                return Ok(());
            }
            let mut chunk = [0_u8; 4096];
            let read = stream.read(&mut chunk).await?;
            if read == 0 {
                return Ok(());
            }
            buffer.extend_from_slice(&chunk[..read]);
        };
        let head = String::from_utf8_lossy(&buffer[..head_end]).into_owned();
        buffer.drain(..head_end);
        let Some(request) = parse(&head, port) else {
            stream
                .write_all(
                    b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                )
                .await?;
            return Ok(());
        };
        let close = request.header("connection").is_some_and(|v| v.eq_ignore_ascii_case("close"));
        let response = handler(&request);
        let streaming = !matches!(response.body, Body::Bytes(_));
        let mut head = format!("HTTP/1.1 {} {}\r\n", response.status, reason(response.status));
        for (name, value) in &response.headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        let body_len = if request.method == "HEAD" { 0 } else { response.body.len() };
        head.push_str(&format!("Content-Length: {}\r\n", response.body.len()));
        if close || streaming {
            head.push_str("Connection: close\r\n");
        }
        head.push_str("\r\n");
        stream.write_all(head.as_bytes()).await?;
        if body_len > 0 {
            match response.body {
                Body::Bytes(bytes) => stream.write_all(&bytes).await?,
                Body::Drip { chunk, every, count } => {
                    for _ in 0..count {
                        tokio::time::sleep(every).await;
                        stream.write_all(&chunk).await?;
                    }
                }
                Body::Repeat { chunk, count } => {
                    for _ in 0..count {
                        stream.write_all(&chunk).await?;
                    }
                }
            }
        }
        stream.flush().await?;
        if close || streaming {
            let _ = stream.shutdown().await;
            return Ok(());
        }
    }
}

fn parse(head: &str, port: u16) -> Option<Request> {
    let mut lines = head.split("\r\n");
    let mut first = lines.next()?.split(' ');
    let method = first.next()?.to_owned();
    let path = first.next()?.to_owned();
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_owned()))
        .collect();
    let host_header =
        headers.iter().find(|(name, _)| name == "host").map(|(_, v)| v.clone()).unwrap_or_default();
    let (host, port) = match host_header.rsplit_once(':') {
        Some((host, p)) if p.bytes().all(|b| b.is_ascii_digit()) => {
            (host.to_owned(), p.parse().unwrap_or(port))
        }
        _ => (host_header.clone(), port),
    };
    Some(Request { method, path, host: host.to_ascii_lowercase(), port, headers })
}
