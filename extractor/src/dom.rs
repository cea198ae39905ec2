//! A flat, read-only view of the parsed page: elements in document order and the text blocks they own.
//!
//! The `html5ever` tree (through `scraper`) is walked once, iteratively, so no input can overflow the
//! stack however deep its nesting. Each element becomes an [`El`] in pre-order (a parent always comes
//! before its children and `end` closes its subtree), and visible text is cut into [`Block`]s: one block
//! per run of inline content inside the innermost block-level element. Everything later (boilerplate
//! marks, scoring, output) works on these two vectors with plain index arithmetic. Elements that mark
//! a date (a `<time>`, or a `class`, `id` or `itemprop` naming a date) are also recorded as
//! [`DateEl`]s, with where their text sits in its block, for the dates shown by the headline.

use scraper::Html;
use scraper::node::Node;

/// Elements dropped with their whole subtree: never visible text.
fn is_skipped(tag: &str) -> bool {
    matches!(
        tag,
        "script"
            | "style"
            | "noscript"
            | "template"
            | "svg"
            | "math"
            | "iframe"
            | "object"
            | "embed"
            | "canvas"
            | "video"
            | "audio"
            | "button"
            | "select"
            | "option"
            | "textarea"
            | "input"
            | "head"
            | "map"
            | "title"
            | "datalist"
            | "picture"
            | "source"
            | "img"
    )
}

/// Block-level elements: text inside them starts a new block.
fn is_block(tag: &str) -> bool {
    matches!(
        tag,
        "address"
            | "article"
            | "aside"
            | "blockquote"
            | "body"
            | "caption"
            | "center"
            | "dd"
            | "details"
            | "dialog"
            | "div"
            | "dl"
            | "dt"
            | "fieldset"
            | "figcaption"
            | "figure"
            | "footer"
            | "form"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "header"
            | "hgroup"
            | "hr"
            | "html"
            | "legend"
            | "li"
            | "main"
            | "menu"
            | "nav"
            | "ol"
            | "p"
            | "pre"
            | "section"
            | "summary"
            | "table"
            | "tbody"
            | "td"
            | "tfoot"
            | "th"
            | "thead"
            | "tr"
            | "ul"
    )
}

/// One element of the page, in document order.
#[derive(Debug, Clone)]
pub(crate) struct El<'a> {
    /// Index of the parent element, or `u32::MAX` for the root.
    pub(crate) parent: u32,
    /// Index of the last element inside this one (itself when it has no element children).
    pub(crate) end: u32,
    /// Lower-case local name.
    pub(crate) tag: &'a str,
    /// The `class` and `id` attributes, lower-cased and joined by a space.
    pub(crate) class_id: String,
    /// The `role` attribute, lower-cased.
    pub(crate) role: String,
    /// Whether the element is hidden by `aria-hidden="true"`. The bare `hidden` attribute and an
    /// inline `display:none` are not trusted: streaming renderers park the article in hidden
    /// elements that a script reveals, and accordions and tabs collapse parts of the article.
    pub(crate) hidden: bool,
}

/// What kind of element owns a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A heading, with its level (1 to 6).
    Heading(u8),
    /// A list item, definition term or description.
    Item,
    /// A table cell.
    Cell,
    /// Preformatted text.
    Pre,
    /// A quotation.
    Quote,
    /// A paragraph.
    Para,
    /// Text directly inside a container such as `div` or `section`.
    Loose,
}

/// A run of visible text inside one block-level element.
#[derive(Debug, Clone)]
pub(crate) struct Block {
    /// The innermost block-level element containing the text.
    pub(crate) owner: u32,
    /// The text with whitespace collapsed; line breaks from `<br>` are kept as `\n`.
    pub(crate) text: String,
    /// Characters of text (not bytes).
    pub(crate) chars: u32,
    /// Characters of text inside links.
    pub(crate) link_chars: u32,
    /// The owner's kind.
    pub(crate) kind: Kind,
}

/// An element that marks a date: a `<time>`, or an element whose `class`, `id` or `itemprop` names a
/// date ("post-date", "updated", "datePublished").
#[derive(Debug, Clone)]
pub(crate) struct DateEl<'a> {
    /// Index in [`Dom::blocks`] of the block holding its text (it may have none).
    pub(crate) block: usize,
    /// Byte range of its text inside that block's text (empty when a block boundary cuts it).
    pub(crate) span: std::ops::Range<usize>,
    /// The `datetime` attribute of a `<time>`, or the `content` of an `itemprop` element.
    pub(crate) datetime: Option<&'a str>,
    /// The `class`, `id` and `itemprop` attributes, lower-cased and joined by spaces.
    pub(crate) class: String,
}

/// The flattened page.
#[derive(Debug)]
pub(crate) struct Dom<'a> {
    pub(crate) els: Vec<El<'a>>,
    pub(crate) blocks: Vec<Block>,
    /// Visible date elements in document order, outer before inner (at most [`MAX_DATE_ELS`]).
    pub(crate) date_els: Vec<DateEl<'a>>,
}

/// At most this many date elements are recorded.
pub(crate) const MAX_DATE_ELS: usize = 400;

/// Words in a `class`, `id` or `itemprop` that mark a date element.
const DATE_MARKS: &[&str] = &["date", "time", "publish", "updat", "modif", "posted", "created"];

/// The date element an opening tag starts, if it is one; `class_id` is its lower-cased `class` and
/// `id`.
fn date_el<'a>(
    element: &'a scraper::node::Element,
    class_id: &str,
    block: usize,
    start: usize,
) -> Option<DateEl<'a>> {
    let is_time = element.name() == "time";
    let itemprop = element.attr("itemprop");
    let marked = |text: &str| DATE_MARKS.iter().any(|m| text.contains(m));
    let itemprop_lower = itemprop.map(str::to_ascii_lowercase);
    if !is_time && !marked(class_id) && !itemprop_lower.as_deref().is_some_and(marked) {
        return None;
    }
    let mut class = class_id.to_owned();
    if let Some(itemprop) = itemprop_lower {
        class.push(' ');
        class.push_str(&itemprop);
    }
    let datetime = if is_time {
        element.attr("datetime")
    } else {
        itemprop.and(element.attr("content").or_else(|| element.attr("datetime")))
    };
    Some(DateEl { block, span: start..start, datetime, class })
}

/// Flattens a parsed page into elements and text blocks.
pub(crate) fn flatten(html: &Html) -> Dom<'_> {
    let mut els: Vec<El<'_>> = Vec::new();
    let mut blocks: Vec<Block> = Vec::new();
    // Stack of open (recorded) elements: arena index, whether it is a block, whether it is a link,
    // index in `date_els` (or `usize::MAX`) and the block count when it opened.
    let mut open: Vec<(u32, bool, bool, usize, usize)> = Vec::new();
    let mut skip_depth = 0usize;
    let mut link_depth = 0usize;
    let mut pre_depth = 0usize;
    let mut buffer = Buffer::default();
    let mut date_els: Vec<DateEl<'_>> = Vec::new();

    for edge in html.tree.root().traverse() {
        match edge {
            ego_tree::iter::Edge::Open(node) => match node.value() {
                Node::Element(element) => {
                    let tag = element.name();
                    if skip_depth > 0 {
                        skip_depth += 1;
                        continue;
                    }
                    if is_skipped(tag) {
                        skip_depth = 1;
                        continue;
                    }
                    if tag == "br" {
                        buffer.newline();
                        continue;
                    }
                    let index = els.len() as u32;
                    let is_block = is_block(tag);
                    if is_block {
                        let owner = open.iter().rev().find(|o| o.1).map_or(0, |o| o.0);
                        buffer.flush(owner, &els, &mut blocks);
                    }
                    let mut class_id = String::new();
                    let mut role = String::new();
                    let mut hidden = false;
                    for (name, value) in element.attrs() {
                        match name {
                            "class" | "id" => {
                                if !class_id.is_empty() {
                                    class_id.push(' ');
                                }
                                class_id.push_str(&value.to_ascii_lowercase());
                            }
                            "role" => role = value.to_ascii_lowercase(),
                            "aria-hidden" => hidden |= value.eq_ignore_ascii_case("true"),
                            _ => {}
                        }
                    }
                    // Its block is the next one, once the buffer is flushed for a block element.
                    let marked = if date_els.len() < MAX_DATE_ELS
                        && let Some(el) =
                            date_el(element, &class_id, blocks.len(), buffer.text.len())
                    {
                        date_els.push(el);
                        date_els.len() - 1
                    } else {
                        usize::MAX
                    };
                    let parent = open.last().map_or(u32::MAX, |o| o.0);
                    els.push(El { parent, end: index, tag, class_id, role, hidden });
                    let is_link = tag == "a";
                    link_depth += usize::from(is_link);
                    pre_depth += usize::from(tag == "pre");
                    open.push((index, is_block, is_link, marked, blocks.len()));
                }
                Node::Text(text) if skip_depth == 0 && !open.is_empty() => {
                    buffer.push(&text[..], link_depth > 0, pre_depth > 0);
                }
                _ => {}
            },
            ego_tree::iter::Edge::Close(node) => {
                if let Node::Element(element) = node.value() {
                    if skip_depth > 0 {
                        skip_depth -= 1;
                        continue;
                    }
                    if element.name() == "br" {
                        continue;
                    }
                    let Some((index, is_block, is_link, marked, block_count)) = open.pop() else {
                        continue;
                    };
                    if marked != usize::MAX {
                        // A block boundary inside the element: its text is not one span.
                        let el = &mut date_els[marked];
                        if blocks.len() == block_count {
                            el.span.end = buffer.text.trim_end().len().max(el.span.start);
                        }
                    }
                    link_depth -= usize::from(is_link);
                    pre_depth -= usize::from(element.name() == "pre");
                    if is_block {
                        buffer.flush(index, &els, &mut blocks);
                    }
                    let end = els.len() as u32 - 1;
                    els[index as usize].end = end;
                }
            }
        }
    }
    let owner = open.iter().rev().find(|o| o.1).map_or(0, |o| o.0);
    buffer.flush(owner, &els, &mut blocks);
    Dom { els, blocks, date_els }
}

/// Text gathered for the block being built.
#[derive(Debug, Default)]
struct Buffer {
    text: String,
    chars: u32,
    link_chars: u32,
    /// Whether the last character pushed was whitespace (or nothing was pushed yet).
    space: bool,
}

impl Buffer {
    fn push(&mut self, text: &str, in_link: bool, in_pre: bool) {
        if self.text.is_empty() {
            self.space = true;
        }
        for c in text.chars() {
            if normalizer::is_invisible(c) {
                continue;
            }
            if c.is_whitespace() {
                if in_pre && c == '\n' {
                    self.newline();
                } else if !self.space {
                    self.text.push(' ');
                    self.space = true;
                }
            } else {
                self.text.push(c);
                self.space = false;
                self.chars += 1;
                if in_link {
                    self.link_chars += 1;
                }
            }
        }
    }

    fn newline(&mut self) {
        if self.text.ends_with(' ') {
            self.text.pop();
        }
        if !self.text.is_empty() {
            self.text.push('\n');
        }
        self.space = true;
    }

    fn flush(&mut self, owner: u32, els: &[El<'_>], blocks: &mut Vec<Block>) {
        if self.chars > 0 {
            let tag = els.get(owner as usize).map_or("", |e| e.tag);
            let kind = match tag {
                "h1" => Kind::Heading(1),
                "h2" => Kind::Heading(2),
                "h3" => Kind::Heading(3),
                "h4" => Kind::Heading(4),
                "h5" => Kind::Heading(5),
                "h6" => Kind::Heading(6),
                "li" | "dt" | "dd" => Kind::Item,
                "td" | "th" => Kind::Cell,
                "pre" => Kind::Pre,
                "blockquote" => Kind::Quote,
                "p" => Kind::Para,
                _ => Kind::Loose,
            };
            let text = self.text.trim().to_owned();
            blocks.push(Block {
                owner,
                text,
                chars: self.chars,
                link_chars: self.link_chars,
                kind,
            });
        }
        self.text.clear();
        self.chars = 0;
        self.link_chars = 0;
        self.space = true;
    }
}
