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
//! `normalizer/benches/compare.sh` runs mcmetadata 2.1.0 and this crate on the same 2,869 URLs and
//! 2,164 titles (`benches/data`, from WCXB), one core each, in five alternating rounds, and prints
//! each round's ratio and their median; `cargo bench -p normalizer` has the Criterion version.
//! Measured on shared two-core machines, seven rounds each unless said. On an Intel Xeon with
//! AVX-512 (2026-11-25, Python doing 390,000 to 435,000 titles/s): `normalized_title` median 54.9x
//! and 54.8x over two runs (rounds from 52.3 to 57.3x), up from 47.6x at the start of that stop;
//! with the AVX-512 paths turned off, so that the AVX2 ones run, 42.6x, then 44.2x once short titles
//! were loaded without a copy; `lossy_url` 250x to 255x.
//! Earlier, on AMD EPYC machines: with AVX-512, titles 44.7x, then 49.0 to 50.3x after the release
//! profile of thin LTO and one codegen unit; with AVX2 but not AVX-512, 35.2 to 41.0x (the SSE2 path
//! alone 29.3x); URLs 248 to 331x. So the issue's target of 50x holds for URLs everywhere, and for
//! titles on processors with AVX-512, not on those with only AVX2.
//!
//! The ratio depends on the list's mix: `CLASSES=1 bash normalizer/benches/compare.sh` prints it by
//! kind of title (best of many passes on both sides). On the Xeon: plain ASCII titles (77% of the
//! list) 66.7x, ASCII with references or tags 44.1x, other Latin 44.4x, other scripts 27.5x; the
//! whole list 52.8x by that measure. Python takes about as long on every kind (2.1 to 2.9 µs); this
//! crate's plain path is the quickest, and the one-pass folder's loop over characters beyond ASCII
//! (a few ns a character, and a mispredicted branch at the end of each word) the slowest. The
//! Python title function is a few C-level string operations with no separator rule and no Unicode
//! folding; 50x is 37 to 66 ns a title on these machines, where merely copying a title into a new
//! string and lower-casing it (`str::to_ascii_lowercase`) takes about 13 to 24 ns and allocating and
//! freeing the key's string alone 5 to 10.
//!
//! What that stop changed, best-of ns a title by kind (`--classes`, least of eight runs, the two
//! builds side by side), whole list 49.8 to 42.8, plain ASCII 32.9 to 30.8, with references 60.2 to
//! 56.9, other Latin 76.2 to 65.8, other scripts 114.1 to 92.5, `title_key` with a source 153 to 137:
//! the folder's text taken as UTF-8 without validating it (below); its lanes from the AVX-512 path's
//! classes; whole-text keys of 65 to 128 bytes spread out in two registers (below); the processor
//! checked once into one byte instead of four std feature checks a title (43.1 to 42.4); and, for the
//! AVX2 path, its lanes 32 bytes at a time, three pieces for titles of 65 to 96 bytes, sixteen
//! bytes packed at a time, and titles under 32 bytes put together from overlapping loads of their
//! bytes instead of copied into a buffer whose load waited for the copy (44 to 33 ns such a title;
//! whole list 59.1 to 54.2 ns with the AVX-512 paths off). Keys were
//! byte-identical on 200,000 generated titles (`examples/title_corpus.rs`) before and after, on
//! both paths.
//!
//! `cargo run --release -p normalizer --example throughput -- --classes` gives the time by kind of
//! title (best of many passes). The first of these paths that takes a title makes its key:
//!
//! - With AVX-512 (F, BW, VBMI2; checked once at run time), titles of up to 128 bytes that are ASCII
//!   or nearly so take `title/plain/avx512.rs`: one or two 64-byte registers, a compare per class
//!   into a mask register, the masks of `title/plain.rs` below, and `vpcompressb` to gather the
//!   key's bytes. It also takes titles whose other characters are curly quotes, en and em dashes,
//!   Unicode spaces, a literal `&`, and character references to punctuation, dashes, separators and
//!   spaces (decoded by the general path's own scanner, declined where decoding twice could depend
//!   on what follows; `title/plain/wide.rs`): 89% of the list. Those characters are settled from the
//!   title's bytes a character at a time, keeping the first pass (`Settled`, as in the AVX2 path
//!   below); loading and classifying such titles again with a compare for each rarer byte, as this
//!   path did before, made titles with references take 50.9 ns against 49.4, other Latin titles 68.1
//!   against 65.4, the whole list 39.8 against 38.2 (best of 200 passes, least of six runs). When this
//!   path came, plain ASCII titles went from about 47 to 33 ns (up to 64 bytes) and from 79 to 53
//!   (65 to 128 bytes), the whole list from about 72 to 58 ns, measured side by side (best of 3,000
//!   passes, alternating builds), with identical keys on the benchmark list and on 200,000
//!   generated titles (`examples/title_corpus.rs`).
//! - With AVX2 but not AVX-512 (checked once at run time), the same titles take
//!   `title/plain/avx2.rs`: 32-byte pieces loaded straight from the title (the last one ending at
//!   its end, overlapping the one before, so that nothing past the title is read), a compare per
//!   class and `vpmovmskb`, the same masks, and the kept bytes packed eight at a time with `pshufb`
//!   and a 256-entry table, straight from the registers into the key's string. The whole list went
//!   from about 110 to 87 ns a title, plain ASCII titles from 71 to 58, titles with references or
//!   quotes from about 155 to 142 (best of 200 passes, `--classes`), with identical keys. The
//!   titles with `&` or non-ASCII bytes were then loaded and classified a second time, with a compare
//!   and a join for each rarer byte; now their other bytes are read a character at a time from the
//!   title (`Settled` in `title/plain/wide.rs`) and the first pass is kept: titles with references
//!   went from about 140 to 100 ns, other Latin titles from 143 to 124, the whole list from 86 to 79
//!   (same measure, alternating builds). Named references are looked up in an open-addressing index
//!   keyed by the name's bytes (`html.rs`), not by a `match` that compared the name with every name
//!   of its length. A first
//!   version copied the title into a zeroed buffer with overlapping 32-byte stores and classified it
//!   from there: the loads after the stores could not be forwarded and stalled (a quarter of the
//!   path's time on one instruction), and plain titles took 66 ns.
//! - Otherwise (without AVX2) plain titles (ASCII, no `&` or `<`, at most 128 bytes: 76% of the
//!   list) take `title/plain.rs`: each byte's classes are found sixteen at a time with SSE2 and kept
//!   as a bit per byte, what each gap between runs of letters holds comes from a few additions over
//!   the whole title at once, and runs are copied in fixed sixteen-byte pieces, so that almost no
//!   branch depends on the text (a mispredicted branch costs as much as twenty bytes of work here).
//!   These three paths hold most of the crate's `unsafe` code: calling the vector functions (SSE2 is
//!   part of every x86-64 build; AVX-512 and AVX2 are checked for), loads and stores of vectors,
//!   and taking the key as a `String` without validating it, since every byte is ASCII by
//!   construction (debug builds check). The folder below has the rest. Other processors take a
//!   portable byte loop for the classes. This path made the whole list 1.39x quicker than the
//!   folder alone.
//! - Other titles are folded in one pass (`title/fast.rs`): for titles of 16 to 240 bytes, per-byte
//!   lanes first say where runs of letters, digits and single spaces end and what the short ASCII
//!   gaps between them hold (sixteen bytes at a time, in loops the compiler vectorises; 32 at a time
//!   with AVX2; with AVX-512, 64 at a time from the masks of the AVX-512 path's own classes, which
//!   took other-script titles from 100 to 83 ns and other Latin ones from 68 to 60); then runs
//!   are copied eight bytes at a time (other lengths find them with word arithmetic), references and
//!   tags in place, other characters through a table of what NFKC and case folding do to each one
//!   alone, built lazily per block of 128 code points (the first title in a new script pays for its
//!   blocks, up to a millisecond for Chinese). Characters that do not fold alone (combining marks,
//!   Hangul jamo, `İ`) and a few ambiguous references send the title through the general path, which
//!   spells the rules out step by step; tests compare the two on every character and on generated
//!   titles.
//!
//! Tried and left out, measured the same way: classifying non-ASCII characters of otherwise plain
//! titles through the folding table (a look-up per character made Latin titles slower than the
//! folder's inner loop, 131 against 122 ns; done again in the AVX-512 path, folding each non-ASCII
//! character alone and blending its bytes in, it made those titles slower too, 125 ns against 116,
//! and Greek ones much slower); bit masks without SSE2 (no portable loop compiles to `pmovmskb`;
//! about 1.5 times as slow); loops bounded by the title's length instead of fixed ones (mispredicted
//! exits cost more than the work saved); choosing the longest part in four fixed steps without
//! branches (no quicker); the quotes, dashes and `&` of the AVX-512 path in the SSE2 path (the
//! sixteen-byte classes for them cost more on other titles than they saved); two-byte letters
//! (Latin-1, Latin Extended-A, Greek, Cyrillic) in the AVX-512 path through 128-entry tables and
//! `vpermt2b` (a Greek-suffixed title went from 138 to 107 ns and a French one from 120 to 107, but
//! titles with only curly quotes from 46 to 73, and the list as a whole was no quicker); both again
//! at a later stop, on an AVX-512 machine: a *stand-in* text of a byte per folded character (a
//! marker byte for each kept one beyond ASCII) keyed by the mask paths and the markers written back
//! (correct on all but 22 of the 233 titles the mask paths decline, but building the stand-in took
//! about 500 instructions for an 84-byte title, reloading it stalled, and writing the markers back
//! was a chain of dependent loads: other-script titles 97 to 142 ns), and letters that fold to as
//! many bytes kept in place in both wide paths, with upper-case ones rewritten and parts counted in
//! characters (a scan of 2.4 to 4.4 ns a letter; other scripts 84 to 77 ns and other Latin titles
//! 59 to 58, but titles with references 47 to 53, and the whole list 34.6 against 34.9). At the
//! stop after: validating the folder's key with `simdutf8` instead of the standard library (no
//! quicker: most keys are under its 64-byte minimum); letting the wide paths' `Settled` take any
//! character that folds alone to something not kept (emoji, full-width punctuation) through the
//! folding table (titles with only such characters got quicker, 46 to 33 ns, but every title with a
//! letter beyond ASCII paid the look-up before being declined: other scripts 93 to 101 ns); the
//! AVX-512 path allocating the key's string before its masks (no quicker); reading the parts off the
//! packed text's separator bits instead of the title's masks (the compress and compare before the
//! loop made titles whose key is a part slower, 27 to 34 ns); skipping the loop over parts when the
//! first part outweighs the rest (no quicker); a loop of its own for the folder's letters beyond
//! ASCII (fewer instructions, no quicker); packing the AVX2 key without bounds checks, and one
//! 32-byte piece for titles of up to 32 bytes (no quicker, and slower); a table of the two-byte
//! letters that fold to two bytes, read without decoding in the folder's loop (Cyrillic and Greek
//! titles 15% quicker, but Chinese ones 10 to 16% slower, and the list no quicker); `Settled::scan`
//! inline in the AVX-512 path (titles with a curly quote 48 to 36 ns, with references 57 to 51, but
//! plain titles slower, 30.8 to 31.5, and the list no quicker; out of line but compiled for AVX-512,
//! or the title classified again out of line, slower still); the folder's part of
//! `normalized_title` out of line, so that the plain path has a smaller stack frame (the folder's
//! titles slower, other scripts 91 to 97 ns); one loop over the parts of the AVX-512 path for both
//! the longest part and the spaces of the whole text (plain titles 30.6 to 33.8 ns).

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
pub use fold::{FoldOptions, fold_text};
pub use lossy::lossy_url;
pub use title::{clean_title, normalized_title, title_key};
