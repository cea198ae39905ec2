//! The client's tracing spans carry their facts as fields: method, host, purpose, and the status
//! (or the failure) once the exchange ends.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crawler::client::{Client, ClientConfig};
use crawler::fetch::{FetchConfig, Validators};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing_subscriber::layer::{Context, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;
use url::Url;

use crate::support::{response, serve};

/// One span's fields, values as text.
#[derive(Debug, Default)]
struct Fields(BTreeMap<&'static str, String>);

impl Visit for Fields {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name(), value.to_owned());
    }

    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name(), format!("{value:?}"));
    }
}

/// A closed span: its name and its fields.
type Span = (String, BTreeMap<&'static str, String>);

/// Every closed span, in the order they closed.
#[derive(Debug, Clone, Default)]
struct Closed(Arc<Mutex<Vec<Span>>>);

impl<S: tracing::Subscriber + for<'a> LookupSpan<'a>> tracing_subscriber::Layer<S> for Closed {
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        let mut fields = Fields::default();
        attrs.record(&mut fields);
        if let Some(span) = ctx.span(id) {
            span.extensions_mut().insert(fields);
        }
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, ctx: Context<'_, S>) {
        if let Some(span) = ctx.span(id)
            && let Some(fields) = span.extensions_mut().get_mut::<Fields>()
        {
            values.record(fields);
        }
    }

    fn on_close(&self, id: Id, ctx: Context<'_, S>) {
        if let Some(span) = ctx.span(&id) {
            let fields = span.extensions_mut().remove::<Fields>().unwrap_or_default();
            self.0.lock().unwrap().push((span.name().to_owned(), fields.0));
        }
    }
}

fn fields(pairs: &[(&'static str, &str)]) -> BTreeMap<&'static str, String> {
    pairs.iter().map(|&(name, value)| (name, value.to_owned())).collect()
}

#[tokio::test]
async fn each_request_has_a_span_with_its_method_host_purpose_and_status() {
    let (addr, _log) = serve(|seen| match seen.path.as_str() {
        "/robots.txt" => response("404 Not Found", &[], b"none"),
        _ => response("200 OK", &[("Content-Type", "text/html")], b"<p>page</p>"),
    })
    .await;
    // A port nobody listens on: the connection is refused.
    let closed_port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();

    let closed = Closed::default();
    let _default =
        tracing::subscriber::set_default(tracing_subscriber::registry().with(closed.clone()));
    let fetch = FetchConfig {
        allow_private_addresses: true,
        connect_timeout: Duration::from_secs(2),
        ..FetchConfig::default()
    };
    let client = Client::new(
        ClientConfig { fetch, host_interval: Duration::ZERO, ..ClientConfig::default() },
        None,
    )
    .unwrap();
    let page = Url::parse(&format!("http://{addr}/a")).unwrap();
    let fetched = client.get(&page, &Validators::default(), "text/html").await.unwrap();
    assert_eq!(fetched.status, 200);
    let refused = Url::parse(&format!("http://{closed_port}/b")).unwrap();
    assert!(client.get(&refused, &Validators::default(), "text/html").await.is_err());

    let spans = closed.0.lock().unwrap().clone();
    let requests: Vec<&BTreeMap<&str, String>> =
        spans.iter().filter(|(name, _)| name == "request").map(|(_, fields)| fields).collect();
    assert_eq!(
        requests,
        [
            &fields(&[
                ("host", "127.0.0.1"),
                ("method", "GET"),
                ("purpose", "robots.txt"),
                ("status", "404")
            ]),
            &fields(&[
                ("host", "127.0.0.1"),
                ("method", "GET"),
                ("purpose", "get"),
                ("status", "200")
            ]),
            &fields(&[
                ("error", "connection error"),
                ("host", "127.0.0.1"),
                ("method", "GET"),
                ("purpose", "robots.txt")
            ]),
            &fields(&[
                ("error", "robots.txt unreachable (connection error)"),
                ("host", "127.0.0.1"),
                ("method", "GET"),
                ("purpose", "get")
            ]),
        ]
    );
}
