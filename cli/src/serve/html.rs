//! The pages' frame and escaping: every page is one HTML document with the same header, its own
//! small stylesheet and no script, nothing fetched from anywhere else.

/// The stylesheet every page and panel carries.
const STYLE: &str = r#"<style>
body { font: 15px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; max-width: 70em; }
nav a { margin-right: 1em; }
form { display: flex; flex-wrap: wrap; gap: .5em; align-items: center; margin-bottom: 1em; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .3em .6em; border-bottom: 1px solid #ddd; vertical-align: top; }
td.n, th.n { text-align: right; }
a.aside, .aside { font-size: 85%; color: #777; }
details summary { cursor: pointer; color: #555; }
details ul { margin: .3em 0; }
.removed { color: #777; text-decoration: line-through; }
.flag { color: #a40; font-weight: bold; }
.help { font-size: 90%; color: #555; }
.columns { display: flex; flex-wrap: wrap; gap: 2em; }
.columns > * { flex: 1 1 20em; }
iframe.panel { border: 0; width: 100%; display: block; }
body.panel { margin: 0; max-width: none; }
svg { max-width: 100%; height: auto; }
</style>"#;

/// A whole HTML page: `title` as its heading, `body` (already HTML) under it.
pub(super) fn page(title: &str, body: &str) -> String {
    format!(
        r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title} · morgue</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
{STYLE}</head>
<body><nav><a href="/">search</a><a href="/sources">sources</a><a href="/stats">collection health</a></nav>
<h1>{title}</h1>
{body}</body></html>
"#,
        title = escape(title),
    )
}

/// A panel a page embeds in a frame: `body` alone, without the navigation; its links open in
/// the page, not in the frame.
pub(super) fn panel(title: &str, body: &str) -> String {
    format!(
        r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title} · morgue</title>
<base target="_top">
{STYLE}</head>
<body class="panel">
{body}</body></html>
"#,
        title = escape(title),
    )
}

/// Text for HTML, in element content and in quoted attributes.
pub(super) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The URL if a page may link to it (http or https), else nothing: a story's URL came from the
/// web, and a `javascript:` link must never reach a researcher's browser.
pub(super) fn linkable(url: &str) -> &str {
    let lower = url.get(..8).unwrap_or(url).to_ascii_lowercase();
    if lower.starts_with("http://") || lower.starts_with("https://") { url } else { "" }
}

/// A link to `url` showing `text`, or the text alone when the URL may not be linked.
pub(super) fn link_out(url: &str, text: &str) -> String {
    match linkable(url) {
        "" => escape(text),
        url => format!(r#"<a href="{}" rel="noreferrer">{}</a>"#, escape(url), escape(text)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_covers_markup_and_quotes() {
        assert_eq!(
            escape(r#"<a href="x">Tom & 'Jerry'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn only_web_urls_are_linked() {
        assert_eq!(linkable("https://daily.example/a"), "https://daily.example/a");
        assert_eq!(linkable("HTTP://daily.example/a"), "HTTP://daily.example/a");
        assert_eq!(linkable("javascript:alert(1)"), "");
        assert_eq!(linkable("data:text/html,x"), "");
        assert_eq!(linkable(""), "");
        assert_eq!(link_out("javascript:alert(1)", "<x>"), "&lt;x&gt;");
        assert_eq!(
            link_out("https://a.example/?a=1&b=2", "t"),
            r#"<a href="https://a.example/?a=1&amp;b=2" rel="noreferrer">t</a>"#
        );
    }

    #[test]
    fn a_page_has_no_script_and_fetches_nothing() {
        let page = page("<b>", "<p>x</p>");
        assert!(page.contains("<title>&lt;b&gt; · morgue</title>"));
        assert!(!page.contains("<script") && !page.contains("src="));
        let panel = panel("<b>", "<p>x</p>");
        assert!(panel.contains("<title>&lt;b&gt; · morgue</title>") && !panel.contains("<nav>"));
        assert!(!panel.contains("<script") && !panel.contains("src="));
    }
}
