//! Main-text extraction: boilerplate marks, a readability-style container choice, then block filtering.
//!
//! The steps, each a pass over the flat [`Dom`]:
//! 1. Per element, the characters of text and of link text in its subtree (bottom-up sums).
//! 2. Boilerplate marks, top-down: `aria-hidden` elements, `nav`, `aside`, `footer`, `header`,
//!    `menu`, `form` and `figcaption` (image captions), landmark roles such as `navigation` or
//!    `complementary`, and class or id words such as `share`, `related`, `cookie` or `comment`.
//!    A mark is not applied to an element holding [`MAX_MARKED_SHARE`] or more of the page's text,
//!    because wrappers are sometimes named after their sidebar or wrap the page in a form.
//! 3. Scores: every paragraph-like block of at least 25 characters with little link text adds
//!    `1 + commas + min(chars / 100, 3)` to its container, half that to the next ancestor and a
//!    quarter to the one above; class words weigh a container up or down, and its link density
//!    scales the score down. The best container wins, and the common ancestor of the strongest
//!    containers is taken instead when they are spread over several siblings.
//!    The winner then climbs to the ancestor with the most net prose (paragraph text minus link text
//!    and short furniture lines), when that is at least [`CLIMB_GAIN`] times the winner's, so that
//!    articles split over several page-builder sections stay whole.
//! 4. Output: the winning subtree's blocks, minus marked subtrees, link lists and short
//!    boilerplate lines, as paragraphs; exact repeats of a paragraph are dropped. A page with no
//!    scoring paragraph keeps all its visible text outside furniture (it is then flagged as short).

use std::sync::OnceLock;

use aho_corasick::AhoCorasick;

use crate::dom::{Block, Dom, Kind};

/// Class or id words that mark an element as boilerplate wherever they appear as a substring.
const NEGATIVE_SUBSTRINGS: &[&str] = &[
    "share",
    "social",
    "related",
    "comment",
    "cookie",
    "consent",
    "gdpr",
    "newsletter",
    "sidebar",
    "breadcrumb",
    "subscribe",
    "subscription",
    "advert",
    "promo",
    "outbrain",
    "taboola",
    "disqus",
    "popular",
    "footer",
    "navbar",
    "navigation",
    "menu",
    "recommend",
    "trending",
    "signup",
    "sign-up",
    "paywall",
    "popup",
    "modal",
    "masthead",
    "pagination",
    "sr-only",
    "screen-reader",
    "visually-hidden",
    "skip-link",
    "author-bio",
    "authorbox",
    "author-box",
    "byline",
    "toolbar",
    "read-more",
    "readmore",
    "more-stories",
    "post-meta",
    "entry-meta",
    "article-meta",
    "tags",
    "caption",
    "copyright",
    "print-",
    "sponsor",
    "newsfeed",
    "table-of-contents",
];

/// Class or id words (whole words) that mark an element as boilerplate.
const NEGATIVE_WORDS: &[&str] =
    &["nav", "ad", "ads", "banner", "login", "meta", "aside", "tag", "topics", "toc"];

/// Class or id words that mark an element as likely content; they cancel a negative mark.
const POSITIVE_SUBSTRINGS: &[&str] =
    &["article", "content", "entry", "post-body", "story", "main", "text", "prose", "blog"];

/// Roles of elements that are page furniture.
const NEGATIVE_ROLES: &[&str] = &[
    "navigation",
    "banner",
    "contentinfo",
    "complementary",
    "menu",
    "menubar",
    "search",
    "dialog",
    "alertdialog",
    "alert",
];

/// Elements holding this share of the page's text or more are never marked as boilerplate.
const MAX_MARKED_SHARE: f32 = 0.4;

/// Tags whose subtree is furniture, whatever their attributes.
const NEGATIVE_TAGS: &[&str] = &["nav", "aside", "footer", "header", "menu", "form", "figcaption"];

/// The main text as paragraphs.
#[derive(Debug, Default)]
pub(crate) struct MainText {
    pub(crate) paragraphs: Vec<String>,
    /// Index in `Dom::blocks` of the first block kept, if any.
    pub(crate) first_block: Option<usize>,
}

/// Extracts the main text from the flat page; `title` is used to drop a repeated headline.
pub(crate) fn main_text(dom: &Dom<'_>, title: Option<&str>) -> MainText {
    let n = dom.els.len();
    if n == 0 || dom.blocks.is_empty() {
        return MainText::default();
    }
    // Pass 1: text and link characters per subtree.
    let mut chars = vec![0u32; n];
    let mut link_chars = vec![0u32; n];
    for block in &dom.blocks {
        chars[block.owner as usize] += block.chars;
        link_chars[block.owner as usize] += block.link_chars;
    }
    for i in (1..n).rev() {
        let parent = dom.els[i].parent;
        if parent != u32::MAX {
            chars[parent as usize] += chars[i];
            link_chars[parent as usize] += link_chars[i];
        }
    }
    let total = chars[0].max(1);

    // Pass 2: boilerplate marks, inherited top-down.
    let mut removed = vec![false; n];
    for i in 0..n {
        let el = &dom.els[i];
        let parent = el.parent;
        if parent != u32::MAX && removed[parent as usize] {
            removed[i] = true;
            continue;
        }
        if matches!(el.tag, "body" | "html" | "main" | "article") {
            continue;
        }
        let negative = el.hidden
            || NEGATIVE_TAGS.contains(&el.tag)
            || NEGATIVE_ROLES.contains(&el.role.as_str())
            || negative_class(&el.class_id);
        if negative && (chars[i] as f32) < MAX_MARKED_SHARE * total as f32 {
            removed[i] = true;
        }
    }

    // Pass 3: scores of containers.
    let mut score = vec![0f32; n];
    for block in &dom.blocks {
        if removed[block.owner as usize] || block.chars < 25 {
            continue;
        }
        if !matches!(block.kind, Kind::Para | Kind::Loose | Kind::Pre | Kind::Quote | Kind::Cell) {
            continue;
        }
        if block.link_chars as f32 > 0.5 * block.chars as f32 {
            continue;
        }
        let commas = block.text.matches([',', '，', '、', '،']).count() as f32;
        let value = 1.0 + commas + (block.chars as f32 / 100.0).min(3.0);
        let owner = &dom.els[block.owner as usize];
        // A paragraph scores for the element holding it; loose text for its own container.
        let mut container = if block.kind == Kind::Loose || owner.parent == u32::MAX {
            block.owner
        } else {
            owner.parent
        };
        let mut weight = 1.0;
        for _ in 0..3 {
            if container == u32::MAX {
                break;
            }
            score[container as usize] += value * weight;
            weight /= 2.0;
            container = dom.els[container as usize].parent;
        }
    }
    let mut best: Option<usize> = None;
    let mut best_score = 0f32;
    let mut finals = vec![0f32; n];
    for i in 0..n {
        if score[i] <= 0.0 || removed[i] {
            continue;
        }
        let el = &dom.els[i];
        let mut s = score[i] + class_weight(&el.class_id, el.tag);
        let density = link_chars[i] as f32 / chars[i].max(1) as f32;
        s *= 1.0 - density;
        finals[i] = s;
        if s > best_score {
            best_score = s;
            best = Some(i);
        }
    }
    let Some(mut top) = best else {
        // No paragraph is long enough to score: keep whatever visible text is not furniture, so
        // that short pages come out as too short rather than empty.
        let mut main = MainText::default();
        for (index, block) in dom.blocks.iter().enumerate() {
            if !removed[block.owner as usize] && block.link_chars * 2 <= block.chars {
                main.first_block.get_or_insert(index);
                main.paragraphs.extend(
                    block
                        .text
                        .split('\n')
                        .map(str::trim)
                        .filter(|l| !l.is_empty())
                        .map(String::from),
                );
            }
        }
        return main;
    };
    // When other strong containers live beside the winner, their common ancestor holds the article.
    let mut strong: Vec<usize> = (0..n)
        .filter(|&i| i != top && finals[i] >= 0.75 * best_score && !within(dom, i, top))
        .collect();
    strong.retain(|&i| !within(dom, top, i));
    if strong.len() >= 2 {
        let mut ancestor = top;
        loop {
            let parent = dom.els[ancestor].parent;
            if parent == u32::MAX {
                break;
            }
            ancestor = parent as usize;
            let covered = strong.iter().filter(|&&i| within(dom, ancestor, i)).count();
            if covered >= 2 {
                top = ancestor;
                break;
            }
        }
    }
    // Climb to the ancestor with the most net prose: articles split over several sections
    // (page builders) keep all their sections, while link lists and short furniture count against.
    let mut value = vec![0f32; n];
    for block in &dom.blocks {
        let owner = block.owner as usize;
        if !removed[owner] {
            value[owner] += block_value(block);
        }
    }
    for i in (1..n).rev() {
        let parent = dom.els[i].parent;
        if parent != u32::MAX && !removed[i] {
            value[parent as usize] += value[i];
        }
    }
    let mut best_value = value[top];
    let mut climb = top;
    loop {
        let parent = dom.els[climb].parent;
        if parent == u32::MAX || removed[parent as usize] {
            break;
        }
        climb = parent as usize;
        if value[climb] > best_value * CLIMB_GAIN {
            best_value = value[climb];
            top = climb;
        }
    }
    // Siblings with good content join the winner (Readability's sibling step).
    let mut chosen = vec![top];
    let parent = dom.els[top].parent;
    if parent != u32::MAX {
        let threshold = (0.2 * best_score).max(10.0);
        let mut child = parent as usize + 1;
        let end = dom.els[parent as usize].end as usize;
        while child <= end {
            if child != top && !removed[child] {
                let density = link_chars[child] as f32 / chars[child].max(1) as f32;
                if finals[child] >= threshold
                    || (dom.els[child].tag == "p" && chars[child] > 80 && density < 0.25)
                {
                    chosen.push(child);
                }
            }
            child = dom.els[child].end as usize + 1;
        }
    }
    chosen.sort_unstable();

    // Pass 4: output.
    let title_key = title.map(fold);
    let mut paragraphs = Vec::new();
    let mut first_block = None;
    let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
    for (index, block) in dom.blocks.iter().enumerate() {
        let owner = block.owner as usize;
        if removed[owner] || !chosen.iter().any(|&c| within(dom, c, owner)) {
            continue;
        }
        if !keep_block(block, &link_chars, &chars, dom) {
            continue;
        }
        if let (Kind::Heading(_), Some(key)) = (block.kind, &title_key)
            && fold(&block.text) == *key
        {
            continue;
        }
        first_block.get_or_insert(index);
        for line in block.text.split('\n') {
            let line = line.trim();
            // Pages often repeat a block (a mobile and a desktop copy); one copy is enough.
            let repeated = line.len() >= 20 && seen.contains(line);
            if !line.is_empty() && !repeated {
                if line.len() >= 20 {
                    seen.insert(line);
                }
                paragraphs.push(line.to_owned());
            }
        }
    }
    MainText { paragraphs, first_block }
}

/// How much more net prose an ancestor must hold to replace the container.
const CLIMB_GAIN: f32 = 1.5;

/// How much more a linked headline counts against its container than other link text.
const TEASER_FACTOR: f32 = 3.0;

/// A block's contribution to its container's net prose: positive for paragraphs, negative for links.
fn block_value(block: &Block) -> f32 {
    let chars = block.chars as f32;
    let density = block.link_chars as f32 / chars.max(1.0);
    if density > 0.5 {
        // A linked headline is the mark of a teaser; its excerpt would otherwise count as prose.
        let factor = if matches!(block.kind, Kind::Heading(_)) { TEASER_FACTOR } else { 1.0 };
        return -chars * factor;
    }
    match block.kind {
        Kind::Heading(_) => 0.0,
        _ if block.chars >= 40 && density < 0.3 => chars * (1.0 - density),
        Kind::Item => 0.0,
        _ => -0.5 * chars,
    }
}

/// Whether a block inside the chosen container is worth keeping.
fn keep_block(block: &Block, link_chars: &[u32], chars: &[u32], dom: &Dom<'_>) -> bool {
    let density = block.link_chars as f32 / block.chars.max(1) as f32;
    if density > 0.6 {
        return false;
    }
    // List items in a list that is mostly links are navigation or teasers.
    if block.kind == Kind::Item && block.chars < 120 {
        let list = dom.els[block.owner as usize].parent;
        if list != u32::MAX {
            let l = list as usize;
            if link_chars[l] as f32 > 0.5 * chars[l].max(1) as f32 {
                return false;
            }
        }
    }
    true
}

/// Whether element `inner` is `outer` or inside it.
fn within(dom: &Dom<'_>, outer: usize, inner: usize) -> bool {
    inner >= outer && inner <= dom.els[outer].end as usize
}

/// Whether an element's class or id names it as boilerplate (and nothing names it as content).
fn negative_class(class_id: &str) -> bool {
    if class_id.is_empty() {
        return false;
    }
    // Each class name is judged alone; modifiers such as `no-sidebar` or `has-comments` say
    // nothing about the element itself.
    let negative = class_id.split_ascii_whitespace().any(|name| {
        if ["no-", "has-", "with-", "without-", "is-"].iter().any(|p| name.starts_with(p)) {
            return false;
        }
        negative_matcher().is_match(name)
            || name
                .split(|c: char| !c.is_ascii_alphanumeric())
                .any(|word| NEGATIVE_WORDS.contains(&word))
    });
    negative && !positive_matcher().is_match(class_id)
}

/// One automaton for all negative substrings (class matching was a visible share of the time).
fn negative_matcher() -> &'static AhoCorasick {
    static MATCHER: OnceLock<AhoCorasick> = OnceLock::new();
    MATCHER.get_or_init(|| AhoCorasick::new(NEGATIVE_SUBSTRINGS).expect("valid patterns"))
}

/// One automaton for all positive substrings.
fn positive_matcher() -> &'static AhoCorasick {
    static MATCHER: OnceLock<AhoCorasick> = OnceLock::new();
    MATCHER.get_or_init(|| AhoCorasick::new(POSITIVE_SUBSTRINGS).expect("valid patterns"))
}

/// Readability-style class weight of a container.
fn class_weight(class_id: &str, tag: &str) -> f32 {
    let mut weight = 0.0;
    if positive_matcher().is_match(class_id) {
        weight += 25.0;
    }
    if negative_matcher().is_match(class_id) {
        weight -= 25.0;
    }
    match tag {
        "article" | "main" => weight += 10.0,
        "td" | "li" | "form" => weight -= 5.0,
        _ => {}
    }
    weight
}

/// Lower-case alphanumeric folding used to compare a heading with the title.
fn fold(text: &str) -> String {
    text.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}
