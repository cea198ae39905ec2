//! The XML feed reader: RSS, RDF, Atom and CDF in one streaming pass over `quick-xml` events.
//!
//! The root element decides the format. Elements are named by namespace and lower-cased local
//! name; the namespaces of the root element (its own and its default) are the core vocabulary, as
//! are the RSS namespaces that have been used and, in Atom, both Atom namespaces; Dublin Core,
//! syndication, RDF and (in RSS) Atom are recognised by URI or, when undeclared, by their usual
//! prefix; everything else is ignored. Feed fields are the children of the root or of RSS's
//! `<channel>`; items are `<item>` (`<entry>` in Atom) elements anywhere below the root.

use quick_xml::NsReader;
use quick_xml::events::{BytesStart, Event};
use quick_xml::name::ResolveResult;
use url::Url;

use super::{Collect, Draft, Format, Head, Link, NotAFeed};
use crate::decode::{self, XmlErrors, escape_bare_ampersands, unescape};
use crate::schedule;

/// How much text one field may gather before the rest is ignored (the caps apply after
/// trimming and, for HTML, after the tags are gone).
const FIELD_BYTES: usize = 4 * super::MAX_TITLE_LEN;

/// What the root element says a document is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Root {
    /// A feed of this format.
    Feed(Format),
    /// Another document, with this root element.
    Other(String),
}

/// The format a root element's lower-cased local name stands for.
fn format_of(local: &str) -> Option<Format> {
    match local {
        "rss" => Some(Format::Rss),
        // CDF, the Channel Definition Format that RSS grew out of.
        "channel" => Some(Format::Rss),
        "rdf" => Some(Format::Rdf),
        "feed" | "entry" => Some(Format::Atom),
        _ => None,
    }
}

/// The root element of a document (for sniffing), or why there is none.
pub(super) fn root(text: &str) -> Result<Root, String> {
    let mut reader = quick_xml::Reader::from_str(text);
    reader.config_mut().check_end_names = false;
    // Enough for any prolog; a document this broken before its root is no feed anyway.
    for _ in 0..1000 {
        match reader.read_event() {
            Ok(Event::Start(start) | Event::Empty(start)) => {
                let local = lower_local(start.local_name().as_ref());
                return Ok(match format_of(&local) {
                    Some(format) => Root::Feed(format),
                    None => Root::Other(qname(&start)),
                });
            }
            Ok(Event::Eof) => return Err("the document ends first".to_owned()),
            Ok(_) | Err(_) => {}
        }
    }
    Err("too many XML errors".to_owned())
}

/// Reads an XML feed.
pub(super) fn read(
    text: &str,
    encoding: &'static str,
    collect: &mut Collect<'_>,
) -> Result<(Format, Head), NotAFeed> {
    let text = escape_bare_ampersands(text);
    let mut reader = NsReader::from_str(&text);
    reader.config_mut().check_end_names = false;
    let mut state: Option<State> = None;
    let mut errors = XmlErrors::default();
    // The first error before the root element, and the first inside the feed's content.
    let (mut root_error, mut first_error) = (None, None);
    loop {
        if collect.full() {
            break;
        }
        let (ns, event) = match reader.read_resolved_event() {
            Ok((ns, event)) => (namespace(&ns, state.as_ref()), event),
            Err(err) => {
                let error =
                    errors.record(&text, &err, reader.error_position(), reader.buffer_position());
                if error.report {
                    collect.warn(error.message.clone());
                }
                if state.is_none() {
                    root_error.get_or_insert_with(|| error.message.clone());
                }
                // An error inside the feed's content (not just around the root's end tag).
                if state.as_ref().is_some_and(|state| state.depth > 1) {
                    first_error.get_or_insert_with(|| error.message.clone());
                }
                if let Some(stop) = error.stop {
                    collect.warn(stop);
                    break;
                }
                continue;
            }
        };
        match event {
            Event::Start(start) if state.is_none() => {
                state = Some(begin(&start, &reader, encoding, collect)?);
            }
            Event::Empty(start) if state.is_none() => {
                let mut root = begin(&start, &reader, encoding, collect)?;
                root.close(collect);
                state = Some(root);
            }
            Event::Start(start) => {
                if let Some(state) = state.as_mut() {
                    let local = lower_local(start.local_name().as_ref());
                    state.open(ns, &local, &start, collect);
                }
            }
            Event::Empty(start) => {
                if let Some(state) = state.as_mut() {
                    let local = lower_local(start.local_name().as_ref());
                    state.open(ns, &local, &start, collect);
                    state.close(collect);
                }
            }
            Event::End(_) => {
                if let Some(state) = state.as_mut() {
                    state.close(collect);
                }
            }
            Event::Text(content) => {
                if let Some(state) = state.as_mut() {
                    state.text(&content.xml10_content());
                }
            }
            Event::CData(content) => {
                if let Some(state) = state.as_mut() {
                    state.text(&content.xml10_content());
                }
            }
            Event::GeneralRef(reference) => {
                if let Some(state) = state.as_mut() {
                    let name = reference.xml10_content();
                    match decode::reference(&name) {
                        Some(c) => state.text(c.encode_utf8(&mut [0; 4])),
                        None => state.text(&format!("&{name};")),
                    }
                }
            }
            Event::Eof => break,
            Event::Decl(_) | Event::PI(_) | Event::DocType(_) | Event::Comment(_) => {}
        }
    }
    let Some(mut state) = state else {
        let reason = root_error.unwrap_or_else(|| "the document ends first".to_owned());
        return Err(NotAFeed::NoRoot { encoding, reason });
    };
    let open = (state.depth > 0 && !collect.full()).then(|| {
        let plural = if state.depth == 1 { "" } else { "s" };
        format!("the document ends with {} element{plural} open", state.depth)
    });
    if let Some(open) = &open {
        collect.warn(open.clone());
    }
    // Cut short inside the feed's content, not just before the root's end tag.
    let cut_short = open.filter(|_| state.depth > 1);
    while state.depth > 0 {
        state.close(collect);
    }
    // A document broken inside its content that gave nothing to crawl is a failed fetch (a
    // server that died mid-feed), not an empty feed.
    if let Some(reason) = first_error.or(cut_short).filter(|_| collect.items.is_empty()) {
        let format = match state.format {
            Format::Rdf => "RDF",
            Format::Atom => "Atom",
            Format::Rss | Format::Json => "RSS",
        };
        return Err(NotAFeed::Broken { encoding, format, reason });
    }
    Ok((state.format, state.finish()))
}

/// Reads the root element: the format, the core namespaces, and the state to go on with.
fn begin(
    start: &BytesStart<'_>,
    reader: &NsReader<&[u8]>,
    encoding: &'static str,
    collect: &mut Collect<'_>,
) -> Result<State, NotAFeed> {
    let local = lower_local(start.local_name().as_ref());
    let format = match format_of(&local) {
        Some(format) => format,
        None if local == "html" => return Err(NotAFeed::Html { encoding, root: qname(start) }),
        None => return Err(NotAFeed::Root { encoding, root: qname(start) }),
    };
    let mut core = Vec::new();
    if let ResolveResult::Bound(own) = reader.resolver().resolve_element(start.name()).0 {
        core.push(normalize_uri(own.as_ref()));
    }
    if let ResolveResult::Bound(default) = reader.resolver().resolve_prefix(None, true) {
        core.push(normalize_uri(default.as_ref()));
    }
    // RDF's own namespace is not RSS's vocabulary.
    core.retain(|uri| uri != RDF);
    let mut state = State::new(format, core);
    state.open_root(&local, start, collect);
    Ok(state)
}

/// An element's qualified name as written, at most 64 characters, for messages.
fn qname(start: &BytesStart<'_>) -> String {
    start.name().as_ref().chars().take(64).collect()
}

fn lower_local(name: &str) -> String {
    name.to_lowercase()
}

/// The vocabularies the reader knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ns {
    /// The document's own vocabulary (RSS, RDF's RSS, Atom in an Atom feed, CDF).
    Core,
    /// Atom inside another format.
    Atom,
    /// Dublin Core elements.
    Dc,
    /// Dublin Core terms.
    Dcterms,
    /// The RSS 1.0 syndication module.
    Sy,
    /// RDF.
    Rdf,
    /// Anything else.
    Other,
}

const RDF: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns";
const ATOM: [&str; 2] = ["http://www.w3.org/2005/atom", "http://purl.org/atom/ns"];
const RSS: [&str; 7] = [
    "http://purl.org/rss/1.0",
    "http://my.netscape.com/rdf/simple/0.9",
    "http://channel.netscape.com/rdf/simple/0.9",
    "http://backend.userland.com/rss",
    "http://backend.userland.com/rss2",
    "http://blogs.law.harvard.edu/tech/rss",
    "http://purl.org/net/rss1.1",
];

/// A namespace URI lower-cased without a trailing `/` or `#`, so that spelling variants match.
fn normalize_uri(uri: &str) -> String {
    uri.trim().trim_end_matches(['/', '#']).to_ascii_lowercase()
}

fn namespace(ns: &ResolveResult<'_>, state: Option<&State>) -> Ns {
    let known = |uri: &str| -> Ns {
        if state.is_some_and(|state| state.core.iter().any(|core| core == uri)) {
            return Ns::Core;
        }
        match uri {
            _ if ATOM.contains(&uri) => {
                if state.is_some_and(|state| state.format == Format::Atom) {
                    Ns::Core
                } else {
                    Ns::Atom
                }
            }
            _ if RSS.contains(&uri) => Ns::Core,
            "http://purl.org/dc/elements/1.1" => Ns::Dc,
            "http://purl.org/dc/terms" => Ns::Dcterms,
            "http://purl.org/rss/1.0/modules/syndication" => Ns::Sy,
            RDF => Ns::Rdf,
            _ => Ns::Other,
        }
    };
    match ns {
        ResolveResult::Unbound => Ns::Core,
        ResolveResult::Bound(uri) => known(&normalize_uri(uri.as_ref())),
        // An undeclared prefix: go by the prefix people use.
        ResolveResult::Unknown(prefix) => match lower_local(prefix).as_str() {
            "atom" => known(ATOM[0]),
            "dc" => Ns::Dc,
            "dcterms" => Ns::Dcterms,
            "sy" => Ns::Sy,
            "rdf" => Ns::Rdf,
            _ => Ns::Other,
        },
    }
}

/// How a field's text is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TextKind {
    /// Text (or XHTML, whose text nodes are the text).
    Plain,
    /// Escaped HTML.
    Html,
    /// Base64 (Atom's non-text media types, Atom 0.3's `mode="base64"`).
    Base64,
}

/// Where a field's text goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    FeedTitle,
    /// The feed's RSS `<link>` text.
    FeedLink,
    Period,
    Frequency,
    /// An item title, with its rank (lower is better).
    ItemTitle(u8),
    /// An item's RSS `<link>` text.
    ItemLink,
    /// An item's guid or id; whether it may stand for the link.
    ItemGuid(bool),
    /// An item date, with its rank.
    ItemDate(u8),
}

#[derive(Debug)]
struct Capture {
    depth: usize,
    target: Target,
    kind: TextKind,
    text: String,
    base: Option<Url>,
}

#[derive(Debug)]
struct Item {
    depth: usize,
    draft: Draft,
    title_rank: u8,
    about: Option<String>,
}

/// The reader's state once the root element is known.
#[derive(Debug)]
struct State {
    format: Format,
    /// Normalized URIs of the document's own vocabulary.
    core: Vec<String>,
    depth: usize,
    /// The depth of the element whose children are feed fields: the root, or RSS's `<channel>`.
    channel: usize,
    bases: Vec<(usize, Url)>,
    capture: Option<Capture>,
    item: Option<Item>,
    head: Head,
    feed_link_rank: u8,
    period: Option<String>,
    frequency: Option<String>,
}

impl State {
    fn new(format: Format, core: Vec<String>) -> State {
        State {
            format,
            core,
            depth: 0,
            channel: 1,
            bases: Vec::new(),
            capture: None,
            item: None,
            head: Head::default(),
            feed_link_rank: u8::MAX,
            period: None,
            frequency: None,
        }
    }

    fn base(&self) -> Option<&Url> {
        self.bases.last().map(|(_, url)| url)
    }

    /// Opens the root element.
    fn open_root(&mut self, local: &str, start: &BytesStart<'_>, collect: &mut Collect<'_>) {
        self.depth = 1;
        self.push_base(start, collect);
        match local {
            // A lone Atom entry: the root is the item.
            "entry" => self.open_item(start),
            // CDF: the channel's HREF is the site.
            "channel" => {
                if let Some(href) = attribute(start, "href") {
                    self.feed_link(0, href);
                }
            }
            _ => {}
        }
    }

    fn open(&mut self, ns: Ns, local: &str, start: &BytesStart<'_>, collect: &mut Collect<'_>) {
        self.depth += 1;
        self.push_base(start, collect);
        if self.capture.is_some() {
            // Markup inside a field (XHTML): its text joins the field's.
            return;
        }
        let depth = self.depth;
        if let Some(item) = &self.item {
            if depth == item.depth + 1 {
                self.open_item_field(ns, local, start);
            }
            return;
        }
        if ns == Ns::Core && (local == "item" || local == "entry") {
            let wanted = if self.format == Format::Atom { "entry" } else { "item" };
            if local == wanted {
                self.open_item(start);
                return;
            }
        }
        if ns == Ns::Core && local == "channel" && depth == 2 && self.format != Format::Atom {
            self.channel = 2;
            return;
        }
        if ns == Ns::Sy && depth > self.channel {
            match local {
                "updateperiod" => self.capture(Target::Period, TextKind::Plain),
                "updatefrequency" => self.capture(Target::Frequency, TextKind::Plain),
                _ => {}
            }
            return;
        }
        if depth != self.channel + 1 && depth != 2 {
            return;
        }
        match (ns, local) {
            (Ns::Core, "title") if self.head.title.is_none() => {
                let kind = self.text_kind(start);
                self.capture(Target::FeedTitle, kind);
            }
            (Ns::Core, "link") if self.format == Format::Atom => {
                if let Some((rank, href)) = atom_link(start) {
                    self.feed_link(rank, href);
                }
            }
            (Ns::Core, "link") => match attribute(start, "href") {
                Some(href) => self.feed_link(1, href),
                None => self.capture(Target::FeedLink, TextKind::Plain),
            },
            (Ns::Atom, "link") => {
                if let Some((rank, href)) = atom_link(start) {
                    self.feed_link(rank + 1, href);
                }
            }
            _ => {}
        }
    }

    fn open_item(&mut self, start: &BytesStart<'_>) {
        let mut draft = Draft::default();
        // CDF items carry their link and date as attributes.
        if let Some(href) = attribute(start, "href") {
            draft.links.push(Link::relative(0, href, self.base().cloned()));
        }
        if let Some(lastmod) = attribute(start, "lastmod") {
            draft.date(6, lastmod);
        }
        let about = attribute(start, "about");
        if let Some(about) = &about {
            draft.links.push(Link::absolute(3, about.clone()));
        }
        self.item = Some(Item { depth: self.depth, draft, title_rank: u8::MAX, about });
    }

    fn open_item_field(&mut self, ns: Ns, local: &str, start: &BytesStart<'_>) {
        let atom = self.format == Format::Atom;
        let base = self.base().cloned();
        let Some(item) = self.item.as_mut() else { return };
        let target = match (ns, local) {
            (Ns::Core, "title") if item.title_rank > 0 => Target::ItemTitle(0),
            (Ns::Dc, "title") if item.title_rank > 1 => Target::ItemTitle(1),
            (Ns::Core, "link") if atom => {
                if let Some((rank, href)) = atom_link(start) {
                    item.draft.links.push(Link::relative(rank, href, base));
                }
                return;
            }
            (Ns::Core, "link") => {
                if let Some(href) = attribute(start, "href") {
                    item.draft.links.push(Link::relative(1, href, base));
                    return;
                }
                Target::ItemLink
            }
            (Ns::Atom, "link") => {
                if let Some((rank, href)) = atom_link(start) {
                    item.draft.links.push(Link::relative(rank + 1, href, base));
                }
                return;
            }
            (Ns::Core, "guid") => {
                let permalink = attribute(start, "ispermalink")
                    .is_none_or(|value| !value.trim().eq_ignore_ascii_case("false"));
                Target::ItemGuid(permalink)
            }
            (Ns::Core, "id") => Target::ItemGuid(true),
            (Ns::Core, "pubdate" | "published") | (Ns::Atom, "published") => Target::ItemDate(0),
            (Ns::Core, "issued") | (Ns::Dc, "date") | (Ns::Dcterms, "issued") => {
                Target::ItemDate(1)
            }
            (Ns::Core, "created") | (Ns::Dcterms, "created") => Target::ItemDate(2),
            (Ns::Core, "updated") | (Ns::Atom, "updated") => Target::ItemDate(4),
            (Ns::Core, "modified") | (Ns::Dcterms, "modified") => Target::ItemDate(5),
            _ => return,
        };
        let kind = if matches!(target, Target::ItemTitle(_)) {
            self.text_kind(start)
        } else {
            TextKind::Plain
        };
        self.capture(target, kind);
    }

    /// How a title's text is written: Atom's `type` and `mode` attributes; RSS titles are text.
    fn text_kind(&self, start: &BytesStart<'_>) -> TextKind {
        if self.format != Format::Atom {
            return TextKind::Plain;
        }
        match attribute(start, "mode").map(|mode| mode.trim().to_ascii_lowercase()).as_deref() {
            Some("base64") => return TextKind::Base64,
            Some("escaped") => return TextKind::Html,
            _ => {}
        }
        let kind = attribute(start, "type").map(|kind| kind.trim().to_ascii_lowercase());
        match kind.as_deref() {
            None | Some("" | "text" | "xhtml") => TextKind::Plain,
            Some("html") => TextKind::Html,
            Some(media) if media.contains("html") && media != "application/xhtml+xml" => {
                TextKind::Html
            }
            Some(media) if media.starts_with("text/") || media.ends_with("xml") => TextKind::Plain,
            Some(_) => TextKind::Base64,
        }
    }

    fn feed_link(&mut self, rank: u8, href: String) {
        if rank < self.feed_link_rank {
            self.feed_link_rank = rank;
            self.head.link = Some(Link::relative(rank, href, self.base().cloned()));
        }
    }

    fn capture(&mut self, target: Target, kind: TextKind) {
        let base = self.base().cloned();
        self.capture = Some(Capture { depth: self.depth, target, kind, text: String::new(), base });
    }

    fn text(&mut self, text: &str) {
        let Some(capture) = self.capture.as_mut() else { return };
        let room = FIELD_BYTES.saturating_sub(capture.text.len());
        capture.text.push_str(super::cut(text, room));
    }

    fn close(&mut self, collect: &mut Collect<'_>) {
        if self.capture.as_ref().is_some_and(|capture| capture.depth == self.depth)
            && let Some(capture) = self.capture.take()
        {
            self.finish_capture(capture);
        }
        if self.item.as_ref().is_some_and(|item| item.depth == self.depth)
            && let Some(Item { mut draft, about, .. }) = self.item.take()
        {
            if draft.guid.is_none() {
                draft.guid = about;
            }
            collect.item(draft);
        }
        // Past RSS's <channel>, only the root's children are feed fields (RDF's <image> and
        // <textinput> are the channel's siblings, and their titles are not the feed's).
        if self.channel > 1 && self.depth == self.channel {
            self.channel = 1;
        }
        while self.bases.last().is_some_and(|(depth, _)| *depth >= self.depth) {
            self.bases.pop();
        }
        self.depth = self.depth.saturating_sub(1);
    }

    fn finish_capture(&mut self, capture: Capture) {
        if capture.text.trim().is_empty() {
            return;
        }
        let text = match capture.kind {
            TextKind::Plain => capture.text,
            TextKind::Html => html_to_text(&capture.text),
            TextKind::Base64 => match base64(&capture.text) {
                Some(decoded) => html_to_text(&decoded),
                None => capture.text,
            },
        };
        match capture.target {
            Target::FeedTitle => {
                if !text.trim().is_empty() {
                    self.head.title = Some(text);
                }
            }
            Target::FeedLink => self.feed_link(0, text),
            Target::Period => self.period = Some(text),
            Target::Frequency => self.frequency = Some(text),
            Target::ItemTitle(rank) => {
                if let Some(item) = self.item.as_mut()
                    && rank < item.title_rank
                {
                    item.title_rank = rank;
                    item.draft.title = Some(text);
                }
            }
            Target::ItemLink => {
                if let Some(item) = self.item.as_mut() {
                    item.draft.links.push(Link::relative(0, text, capture.base));
                }
            }
            Target::ItemGuid(permalink) => {
                if let Some(item) = self.item.as_mut() {
                    if permalink {
                        item.draft.links.push(Link::absolute(2, text.clone()));
                    }
                    if item.draft.guid.is_none() {
                        item.draft.guid = Some(text);
                    }
                }
            }
            Target::ItemDate(rank) => {
                if let Some(item) = self.item.as_mut() {
                    item.draft.date(rank, text);
                }
            }
        }
    }

    /// Pushes the element's `xml:base`, resolved against the one in scope.
    fn push_base(&mut self, start: &BytesStart<'_>, collect: &Collect<'_>) {
        let Some(base) = start
            .attributes()
            .with_checks(false)
            .flatten()
            .find(|attr| attr.key.as_ref() == "xml:base")
        else {
            return;
        };
        let href = unescape(&base.value).into_owned();
        let resolved = self.base().unwrap_or(collect.feed_url).join(href.trim());
        if let Ok(url) = resolved {
            self.bases.push((self.depth, url));
        }
    }

    fn finish(self) -> Head {
        let update_hint = schedule::update_hint(
            self.period.as_deref().map(str::trim),
            self.frequency.as_deref().map(str::trim),
        );
        Head { update_hint, ..self.head }
    }
}

/// An Atom link's rank as an article link and its `href`: alternate links only (`rel` absent or
/// `alternate`), HTML ones first.
fn atom_link(start: &BytesStart<'_>) -> Option<(u8, String)> {
    let href = attribute(start, "href")?;
    let rel = attribute(start, "rel").map(|rel| rel.trim().to_ascii_lowercase());
    if rel.as_deref().is_some_and(|rel| rel != "alternate" && !rel.is_empty()) {
        return None;
    }
    let media = attribute(start, "type").map(|kind| kind.to_ascii_lowercase());
    let rank = if media.as_deref().is_none_or(|media| media.contains("html")) { 0 } else { 1 };
    Some((rank, href))
}

/// The value of an attribute with this lower-cased local name (any prefix), references decoded.
fn attribute(start: &BytesStart<'_>, local: &str) -> Option<String> {
    start.attributes().with_checks(false).flatten().find_map(|attr| {
        let name = attr.key.local_name();
        name.as_ref().eq_ignore_ascii_case(local).then(|| unescape(&attr.value).into_owned())
    })
}

/// Escaped HTML as text: tags dropped (with `<script>` and `<style>` bodies), references decoded,
/// white space collapsed.
fn html_to_text(html: &str) -> String {
    const BLOCKS: [&str; 12] =
        ["br", "p", "div", "li", "tr", "td", "h1", "h2", "h3", "h4", "h5", "h6"];
    let mut text = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        text.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        if !after.starts_with(|c: char| c.is_ascii_alphabetic() || matches!(c, '/' | '!' | '?')) {
            text.push('<');
            rest = after;
            continue;
        }
        let name: String = after
            .trim_start_matches('/')
            .chars()
            .take_while(char::is_ascii_alphanumeric)
            .collect::<String>()
            .to_ascii_lowercase();
        rest = tag_end(after).map_or("", |end| &after[end + 1..]);
        if !after.starts_with('/') && (name == "script" || name == "style") {
            let close = format!("</{name}");
            let lower = rest.to_ascii_lowercase();
            rest = lower.find(&close).map_or("", |end| &rest[end..]);
        }
        if BLOCKS.contains(&name.as_str()) {
            text.push(' ');
        }
    }
    text.push_str(rest);
    unescape(&text).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Where a tag ends: the first `>` outside quoted attribute values (or, if quotes never close,
/// the first `>`).
fn tag_end(tag: &str) -> Option<usize> {
    let mut quote = None;
    for (at, c) in tag.char_indices() {
        match quote {
            Some(open) if c == open => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == '>' => return Some(at),
            None => {}
        }
    }
    tag.find('>')
}

/// Decodes base64 (standard or URL alphabet, white space ignored) to UTF-8 text.
fn base64(text: &str) -> Option<String> {
    let mut bits: u32 = 0;
    let mut count = 0;
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    for byte in text.bytes() {
        let value = match byte {
            b'A'..=b'Z' => byte - b'A',
            b'a'..=b'z' => byte - b'a' + 26,
            b'0'..=b'9' => byte - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' => break,
            _ if byte.is_ascii_whitespace() => continue,
            _ => return None,
        };
        bits = (bits << 6) | u32::from(value);
        count += 6;
        if count >= 8 {
            count -= 8;
            out.extend(u8::try_from(bits >> count).ok());
            bits &= (1 << count) - 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_becomes_text() {
        assert_eq!(html_to_text("<b>One</b> &amp; <i>two</i>"), "One & two");
        assert_eq!(html_to_text("a<br/>b<script>x < y</script> c &lt;d&gt;"), "a b c <d>");
        assert_eq!(html_to_text("x < y and <3"), "x < y and <3");
        assert_eq!(html_to_text("<p>cut <a href='"), "cut");
        assert_eq!(html_to_text("<img alt=\"a<br />b\" src='x'> after"), "after");
    }

    #[test]
    fn base64_decodes() {
        assert_eq!(base64("RXhhbXBsZSA8Yj5BdG9tPC9iPg==").as_deref(), Some("Example <b>Atom</b>"));
        assert_eq!(base64(" RXhh\nbXBs ZQ ").as_deref(), Some("Example"));
        assert_eq!(base64("not base64!"), None);
    }

    #[test]
    fn roots() {
        assert_eq!(root("<?xml version='1.0'?><!-- x --><rss>"), Ok(Root::Feed(Format::Rss)));
        assert_eq!(root("<rdf:RDF>"), Ok(Root::Feed(Format::Rdf)));
        assert_eq!(root("<x:urlset/>"), Ok(Root::Other("x:urlset".to_owned())));
        assert!(root("<!-- x -->").is_err());
    }
}
