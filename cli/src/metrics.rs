//! `--metrics ADDR`: the engine's Prometheus metrics (`engine::metrics::render`) served at
//! `/metrics` while a crawl runs, over the HTTP/1.1 server morgue already uses (hyper).

use std::convert::Infallible;
use std::net::SocketAddr;
use std::time::Duration;

use anyhow::{Context, Result};
use bytes::Bytes;
use http_body_util::Full;
use hyper::header::{CONTENT_TYPE, HeaderValue};
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use store::Archive;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

/// How long a client may take to send its request head.
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// Listens on `listen` and answers `GET /metrics` until the returned task is aborted. Returns the
/// address it listens on (the port chosen when `listen`'s is 0) and the task.
pub(crate) async fn serve(
    archive: Archive,
    listen: SocketAddr,
) -> Result<(SocketAddr, JoinHandle<()>)> {
    let listener = TcpListener::bind(listen)
        .await
        .with_context(|| format!("cannot listen for metrics on {listen}"))?;
    let addr = listener.local_addr().context("cannot read the metrics address")?;
    let task = tokio::spawn(async move {
        loop {
            let stream = match listener.accept().await {
                Ok((stream, _)) => stream,
                Err(err) => {
                    tracing::warn!("metrics: cannot accept a connection: {err}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            };
            let archive = archive.clone();
            tokio::spawn(async move {
                let service = service_fn(move |request| {
                    let archive = archive.clone();
                    async move { Ok::<_, Infallible>(respond(&archive, &request).await) }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .timer(TokioTimer::new())
                    .header_read_timeout(HEADER_TIMEOUT)
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    Ok((addr, task))
}

async fn respond<B>(archive: &Archive, request: &Request<B>) -> Response<Full<Bytes>> {
    if request.uri().path() != "/metrics" {
        return plain(StatusCode::NOT_FOUND, "not found: metrics are at /metrics\n".to_owned());
    }
    if request.method() != Method::GET && request.method() != Method::HEAD {
        return plain(StatusCode::METHOD_NOT_ALLOWED, "only GET\n".to_owned());
    }
    match engine::metrics::render(archive).await {
        Ok(text) => {
            let mut response = Response::new(Full::new(Bytes::from(text)));
            response
                .headers_mut()
                .insert(CONTENT_TYPE, HeaderValue::from_static(engine::metrics::CONTENT_TYPE));
            response
        }
        Err(err) => {
            tracing::warn!("metrics: {}", engine::chain(&err));
            plain(StatusCode::SERVICE_UNAVAILABLE, format!("cannot read the archive: {err}\n"))
        }
    }
}

fn plain(status: StatusCode, text: String) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(text)));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"));
    response
}
