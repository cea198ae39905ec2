//! A small, bounded scanner for the start tags of an HTML page, for discovery.
//!
//! Discovery only needs `<link>` and `<a>` tags and their attributes, not a document tree, so
//! this scans start tags in one pass: comments, `<script>` and `<style>` bodies are skipped,
//! attribute values may be double-quoted, single-quoted or bare, and the common character
//! references in them are decoded. It never panics and reads at most [`MAX_SCAN_BYTES`].

/// The most of a page that is scanned.
pub const MAX_SCAN_BYTES: usize = 4 * 1024 * 1024;

/// A start tag: its lower-cased name and attributes (names lower-cased, values decoded).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tag {
    /// The tag name, lower-cased.
    pub name: String,
    /// The attributes, in order.
    pub attributes: Vec<(String, String)>,
}

impl Tag {
    /// The value of an attribute, if present.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.attributes.iter().find(|(key, _)| key == name).map(|(_, value)| value.as_str())
    }
}

/// Every start tag named in `wanted` (lower-case), in document order.
pub fn scan(html: &[u8], wanted: &[&str]) -> Vec<Tag> {
    let html = &html[..html.len().min(MAX_SCAN_BYTES)];
    let text = String::from_utf8_lossy(html);
    let bytes = text.as_bytes();
    let mut tags = Vec::new();
    let mut i = 0;
    while let Some(offset) = memchr(b'<', &bytes[i..]) {
        i += offset + 1;
        if bytes[i..].starts_with(b"!--") {
            i = find(bytes, i, b"-->").map_or(bytes.len(), |end| end + 3);
            continue;
        }
        let name_len = bytes[i..].iter().take_while(|b| b.is_ascii_alphanumeric()).count();
        if name_len == 0 {
            continue;
        }
        let name = text[i..i + name_len].to_ascii_lowercase();
        i += name_len;
        let (attributes, end) = attributes(&text, i);
        i = end;
        if name == "script" || name == "style" {
            let closing = format!("</{name}");
            i = find_ignore_case(bytes, i, closing.as_bytes()).unwrap_or(bytes.len());
            continue;
        }
        if wanted.contains(&name.as_str()) {
            tags.push(Tag { name, attributes });
        }
    }
    tags
}

/// Parses attributes from `start` up to the end of the tag; returns them and the position after.
fn attributes(text: &str, start: usize) -> (Vec<(String, String)>, usize) {
    let bytes = text.as_bytes();
    let mut attributes = Vec::new();
    let mut i = start;
    loop {
        while i < bytes.len() && (bytes[i].is_ascii_whitespace() || bytes[i] == b'/') {
            i += 1;
        }
        if i >= bytes.len() {
            return (attributes, i);
        }
        if bytes[i] == b'>' {
            return (attributes, i + 1);
        }
        let name_start = i;
        while i < bytes.len() && !bytes[i].is_ascii_whitespace() && !b"=>/".contains(&bytes[i]) {
            i += 1;
        }
        if i == name_start {
            // A stray `=`: not an attribute; step over it so the scan always advances.
            i += 1;
            continue;
        }
        let name = text[name_start..i].to_ascii_lowercase();
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let mut value = String::new();
        if i < bytes.len() && bytes[i] == b'=' {
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            if i < bytes.len() && (bytes[i] == b'"' || bytes[i] == b'\'') {
                let quote = bytes[i];
                let value_start = i + 1;
                let end =
                    memchr(quote, &bytes[value_start..]).map_or(bytes.len(), |o| value_start + o);
                value = decode_references(&text[value_start..end]);
                i = (end + 1).min(bytes.len());
            } else {
                let value_start = i;
                while i < bytes.len() && !bytes[i].is_ascii_whitespace() && bytes[i] != b'>' {
                    i += 1;
                }
                value = decode_references(&text[value_start..i]);
            }
        }
        if name.len() <= 64 {
            attributes.push((name, value));
        }
    }
}

/// Decodes `&amp;`, `&quot;`, `&apos;`, `&lt;`, `&gt;` and numeric references.
fn decode_references(value: &str) -> String {
    if !value.contains('&') {
        return value.trim().to_owned();
    }
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let end = rest.find(';').filter(|&end| end <= 10);
        let decoded = end.and_then(|end| {
            let name = &rest[1..end];
            let c = match name {
                "amp" => Some('&'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                "lt" => Some('<'),
                "gt" => Some('>'),
                _ => name
                    .strip_prefix("#x")
                    .or_else(|| name.strip_prefix("#X"))
                    .and_then(|hex| u32::from_str_radix(hex, 16).ok())
                    .or_else(|| name.strip_prefix('#').and_then(|dec| dec.parse().ok()))
                    .and_then(char::from_u32),
            };
            c.map(|c| (c, end + 1))
        });
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out.trim().to_owned()
}

fn memchr(needle: u8, haystack: &[u8]) -> Option<usize> {
    haystack.iter().position(|&b| b == needle)
}

fn find(haystack: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    haystack.get(from..)?.windows(needle.len()).position(|w| w == needle).map(|o| from + o)
}

fn find_ignore_case(haystack: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    haystack
        .get(from..)?
        .windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
        .map(|o| from + o)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scans_links_and_anchors() {
        let html = br#"<!DOCTYPE html><html><head>
<!-- <link rel="alternate" href="/commented.xml"> -->
<LINK REL="alternate" TYPE='application/rss+xml' HREF="/rss?a=1&amp;b=2" title=Main>
<script>var s = '<link rel="alternate" href="/in-script.xml">';</script>
<style>a::before { content: "<a href='/in-style'>"; }</style>
</head><body><a href=/feed/ class="x">RSS</a><a name="anchor-only">x</a><img src="a.png">
<a href="/caf&#xe9;">c</a><a href="unterminated"#;
        let tags = scan(html, &["link", "a"]);
        let hrefs: Vec<Option<&str>> = tags.iter().map(|tag| tag.get("href")).collect();
        assert_eq!(
            hrefs,
            vec![
                Some("/rss?a=1&b=2"),
                Some("/feed/"),
                None,
                Some("/caf\u{e9}"),
                Some("unterminated")
            ]
        );
        assert_eq!(tags[0].get("type"), Some("application/rss+xml"));
        assert_eq!(tags[0].get("title"), Some("Main"));
        assert_eq!(tags[0].name, "link");
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(body: Vec<u8>) {
            let _ = scan(&body, &["a", "link"]);
        }

        #[test]
        fn arbitrary_tag_soup_never_panics(inner: String) {
            let _ = scan(format!("<a href=\"{inner}\" {inner}><link {inner}>&{inner};").as_bytes(), &["a", "link"]);
        }
    }
}
