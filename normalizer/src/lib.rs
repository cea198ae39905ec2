//! Strings in, keys out: lossy URLs, canonical domains, normalized titles and folded text.
//!
//! This crate is the first rung of morgue's dedup ladder.
//! Two copies of one story, reached through different URLs or re-published under a decorated title,
//! get the same key here without any fuzzy matching.
//! It reproduces Media Cloud's behaviour (`shared/reference/mediacloud.md`, sections 1 and 2) and fixes
//! the reference's obvious bugs; every deliberate difference is listed below with an example.
//! It is pure: no I/O, no clock, no randomness, and no function panics on any input.
//!
//! # Main functions
//!
//! - [`lossy_url`]: the dedup key of a URL (`None` when it is not a usable http(s) URL).
//! - [`canonical_url`]: the clean, fetchable, non-lossy form of a URL.
//! - [`canonical_domain`]: the publisher's domain, public-suffix aware ([`PUBLIC_SUFFIX_LIST_VERSION`]).
//! - [`is_homepage_url`], [`is_shortened_url`], [`is_non_news_domain`]: URL classification.
//! - [`feed_url_key`]: the key under which two feed URLs are the same feed.
//! - [`normalized_title`] and [`title_key`]: the title key for same-source dedup, and the same key
//!   refused (`None`) when the title cannot identify a story.
//! - [`clean_title`]: the display title with the publisher's prefix or suffix removed.
//! - [`fold_text`]: NFKC, case folding, optional diacritics folding and whitespace, for matching.
//!
//! # How the neighbours use it
//!
//! The crawler keys its frontier by [`lossy_url`] so that it never fetches one story twice; the store
//! keeps `lossy_url`, `canonical_url`, `canonical_domain` and `title_key` beside each story and looks
//! duplicates up by them (URL keys globally, title keys within a source and a day); the extractor passes
//! the page title through [`clean_title`]; dedup compares [`fold_text`] output.
//!
//! ```text
//! use normalizer::{lossy_url, title_key};
//!
//! let a = lossy_url("https://www.example.com/News/Story?utm_source=rss#comments");
//! let b = lossy_url("http://m.example.com/news/story?fbclid=IwAR0");
//! assert_eq!(a.as_deref(), Some("http://example.com/news/story"));
//! assert_eq!(a, b);
//!
//! let k = title_key("Mayor announces new budget plan for city schools | The Boston Globe", Some("The Boston Globe"));
//! assert_eq!(k.as_deref(), Some("mayor announces new budget plan for city schools"));
//! ```
//!
//! # Deliberate deviations from Media Cloud
//!
//! The reference is `shared/reference/mediacloud.md` (mcmetadata as of its 1.4 line, with url-normalize 1.4.3).
//! The current PyPI release, mediacloud-metadata 2.1.0 with url-normalize 3, no longer sorts query
//! parameters and keeps `%2F` in queries; these keys follow the reference description there (sorted).
//! Each deviation below has a test named `deviation_...` in its module.
//!
//! URL keys ([`lossy_url`], against mcmetadata's `normalize_url`):
//!
//! 1. IP hosts are never shortened: `http://1.2.3.4/a` stays (the backend gave `http://2.3.4/a`).
//! 2. The label list says `www`, not `www?`: `wwf.or.jp` keeps its `wwf` (the backend gave `or.jp`).
//! 3. Labels are stripped from the host only, never because of a dot later in the path:
//!    `http://www.foo/bar.html` stays (the reference gave `http://foo/bar.html`).
//! 4. Labels are stripped repeatedly, so that the key is a fixed point: `m.www.example.com` is
//!    `example.com` (the reference stripped one label, and a second run stripped the next).
//! 5. A label is stripped only when the rest is not a public suffix: `www.co.uk` and `cdn.com.do` stay
//!    (the reference gave `co.uk`, `com.do`); so does `www.ma.gov.br`, since `ma.gov.br` is a suffix.
//! 6. The reference's `.?` (any one character after a listed label) is narrowed to digits or a plural
//!    `s`: `www2.`, `news1.`, `blogs.`, `photos.` are stripped, `me.`, `ma.`, `mx.`, `ms.` are not, so
//!    `http://ma.gov.br/` stays (the reference gave `http://gov.br/`).
//! 7. `mobile.` and `amp.` are stripped like `m.`: `mobile.example.com` and `amp.example.com` are
//!    `example.com`.
//! 8. `sort` and `PHPSESSID` are both removed (mcmetadata's missing comma fused them into one name).
//! 9. Parameter names match in any case, so `PHPSESSIONID`, `ITO`, `feedName`, `WT.z_sma` are removed
//!    (mcmetadata lower-cased the URL first, so its upper-case entries never matched).
//! 10. Well-known click and campaign ids are removed too: `fbclid`, `gclid`, `dclid`, `gbraid`,
//!     `wbraid`, `msclkid`, `mc_cid`, `mc_eid`, `igshid`, `twclid`, `ttclid`, `li_fat_id`, `mkt_tok`,
//!     `oly_anon_id`, `vero_id`, `wickedid`, `rb_clickid`, `s_kwcid`, `srsltid`, `xtor`, `at_medium`,
//!     `cmp`, ... and the prefixes `hsa_`, `pk_`, `mtm_` (the full list and its sources are in
//!     `params.rs`): `?id=7&fbclid=IwAR0` is `?id=7`.
//! 11. Ports 80 and 443 are dropped whatever the scheme; other ports are kept, since another port is
//!     another server: `https://x.com:8443/a` is `http://x.com:8443/a` (mcmetadata dropped every port).
//! 12. User info is dropped: `http://user:pw@x.com/a` is `http://x.com/a`.
//! 13. Escapes of `/`, `?`, `#`, `%` (and `&`, `=`, `+` in a query) are kept: `/a%2Fb` stays and
//!     `/a%23b` no longer loses `b` as a fragment (url-normalize 1.4 decoded them). In a query, `+` and
//!     `%20` are both written `%20`. Other escapes follow RFC 3986: unreserved characters decoded, hex in
//!     upper case, non-ASCII text in NFC and encoded as UTF-8.
//! 14. Path text is lower-cased after decoding, so `/%C3%9C` and `/Ü` both give `/%C3%BC`.
//! 15. AMP renditions fold onto the article: AMP cache links
//!     (`https://www-x-com.cdn.ampproject.org/c/s/www.x.com/a`) and Google AMP viewer links
//!     (`https://www.google.com/amp/s/x.com/a`) are unwrapped; a last path segment `amp`
//!     (`/a/amp` is `/a/`), a first segment `amp` (`/amp/a` is `/a`), an `.amp` extension
//!     (`/a.amp.html` is `/a.html`) and the parameters `amp`, `amp_*`, `usqp`, `outputType=amp` go.
//! 16. archive.today is unwrapped over http too and on its mirrors (`archive.ph`, `archive.today`, ...):
//!     `http://archive.is/o/vWkgm/www.x.com/a` is `http://x.com/a` (the reference gave `http://is/o/...`).
//! 17. YouTube: `youtu.be/ID`, `/shorts/ID`, `/live/ID`, `youtube-nocookie.com/embed/ID` and
//!     `/watch?feature=share&v=ID` (`v` not first) all give `http://youtube.com/watch?v=ID`;
//!     `/user/X?a=b` drops its query like `/channel/X` (mcmetadata's user branch re-tested the channel
//!     pattern); only `youtube.com` and its subdomains count (the reference's `[^/]*youtube.com` also
//!     matched `notyoutube.com`).
//! 18. `?m=1` is dropped on Blogger hosts (`*.blogspot.*`), Blogger's mobile switch.
//! 19. The doubled-scheme and missing-slash repairs apply at the start of the string only, and repeat:
//!     `http://http://http://x.com` is `http://x.com`; a `?u=http://http://y` inside a query is left
//!     alone.
//! 20. Other schemes and relative references give `None` (`ftp://x`, `mailto:a@b`, `/a/b`); the
//!     reference prefixed `http://` to anything that did not start with `http`.
//!
//! Domains and classification:
//!
//! 21. [`canonical_domain`] matches the blogging-platform pattern against the host only (the reference
//!     matched the whole URL, path included); decodes AMP cache hosts properly (`--` is a hyphen, so
//!     `www-kenya--today-com.cdn.ampproject.org` is `kenya-today.com`, not `www.kenya.today.com`);
//!     follows the lossy key's unwrapping (`youtu.be` links are `youtube.com`, Google AMP viewer links
//!     are the publisher's); applies the public suffix list's default rule to unknown top-level domains
//!     (`a.b.unknowntld` is `b.unknowntld`, tldextract gave `""`); and returns `None` for a single-label
//!     host (`localhost`).
//! 22. [`is_homepage_url`] follows the backend: a query left after tracking removal means not a
//!     homepage (`http://bash.org/?244321` is not one; mcmetadata ignored the query).
//! 23. [`is_shortened_url`] uses a list of about 80 current shorteners instead of mcmetadata's 430
//!     mostly defunct ones; the short-shape rule is the same.
//! 24. [`feed_url_key`] drops every trailing slash, every leading `www.` (but never the last two
//!     labels: `www.com` stays) and empty query pieces, so that it is a fixed point (the reference
//!     dropped one of each).
//! 25. [`canonical_url`] matches tracking parameter names in any case (the backend matched exactly),
//!     drops user info, and normalises escapes as in 13 (without the `+` folding).
//!
//! Titles ([`normalized_title`] against the SQL `get_normalized_title`, [`clean_title`] against
//! mcmetadata's `from_html` step 5):
//!
//! 26. Character references are decoded (`AT&amp;T` is `att`, `caf&eacute;` is `café`); the reference
//!     deleted `&#?[a-z0-9]*` runs (`AT&T` became `at`, `caf&eacute;` became `caf`).
//! 27. Text is NFKC-normalised and case-folded, not only lower-cased: full-width `ＮＹＴ｜` is `nyt |`,
//!     `STRAẞE` and `strasse` meet.
//! 28. A spaced en or em dash separates like `- `: `Mayor announces new budget plan for city schools –
//!     The Boston Globe` gives the same key as with `-` (the reference kept the suffix).
//! 29. Separators are written ` | ` and the key is trimmed: `foo bar: bat` and `foo bar - bat` both
//!     give `foo bar | bat` (the reference gave `foo barSEPSEP bat` and `foo bar SEPSEPbat`).
//! 30. Parts equal to the source name are dropped before the 32-character rule: with source
//!     `The Globe`, `Short news | The Globe` gives `short news`, like `Short news` alone.
//! 31. [`clean_title`] keeps the title's own punctuation and `&` (the reference stripped ASCII
//!     punctuation at the ends and turned `AT&T` into `AT`); drops leading `Home` parts
//!     (`Home | News | Long headline ...` is `Long headline ...`; the reference gave `Home | News`);
//!     drops parts equal to the source name; and does not split on a spaced colon (`Ukraine : la
//!     Russie lance une attaque` stays whole; the reference dropped `Ukraine`).
//!
//! # Dependencies and the public suffix list
//!
//! `url` parses (WHATWG rules, IDNA to punycode, IPv4 forms). The public suffix list is the `psl`
//! crate's compiled snapshot, pinned with an exact version (`psl = "=2.1.247"`, recorded in
//! [`PUBLIC_SUFFIX_LIST_VERSION`] and checked by a test); only its ICANN section is used, as tldextract
//! does by default. Unicode normalisation and general categories come from ICU4X (`icu_normalizer`,
//! `icu_properties`), which `url` already compiles for IDNA, so they add no build time.
//!
//! # Speed
//!
//! Title keys take the one-pass folder (`title/fast.rs`), or the general path that spells the rules
//! out step by step for the few titles the folder declines; tests hold the two to each other, and
//! `tests/title_keys.rs` holds the keys of a fixed corpus to a recorded hash. `benches/README.md`
//! has the speed against Media Cloud's Python (`benches/compare.sh`), how to measure it, and the
//! history of the vector paths this crate once had.

#![forbid(unsafe_code)]

mod canonical;
mod detect;
mod domain;
mod fix;
mod fold;
mod html;
mod lossy;
mod params;
mod parts;
mod percent;
mod title;

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;

pub use canonical::{canonical_url, feed_url_key};
pub use detect::{is_homepage_url, is_shortened_url};
pub use domain::{PUBLIC_SUFFIX_LIST_VERSION, canonical_domain, is_non_news_domain};
pub use fold::{FoldOptions, fold_text, is_invisible, strip_invisible};
pub use lossy::lossy_url;
pub use title::{clean_title, normalized_title, title_key};
