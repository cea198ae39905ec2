//! Table tests for `lossy_url`, written from sections 1.1 to 1.7 of the reference, then one test per deviation.

use super::lossy_url;

#[track_caller]
fn check(input: &str, expected: Option<&str>) {
    let actual = lossy_url(input);
    assert_eq!(actual.as_deref(), expected, "lossy_url({input:?})");
    if let Some(key) = &actual {
        assert_eq!(
            lossy_url(key).as_deref(),
            Some(key.as_str()),
            "lossy_url is not a fixed point on {key:?}"
        );
    }
}

#[test]
fn observable_results_from_the_reference() {
    // Section 1.3, "Observable results (verified)".
    check("https://upstract.com/x/fd?ref=rss", Some("http://upstract.com/x/fd"));
    check("http://fake.com/article?foo=123&UTM_baz=321", Some("http://fake.com/article?foo=123"));
    check(
        "http://fake.com/article?foo=123&baz=321",
        Some("http://fake.com/article?baz=321&foo=123"),
    );
    check(
        "https://www.youtube.com/watch?v=aFCO6WidGVM",
        Some("http://youtube.com/watch?v=aFCO6WidGVM"),
    );
    check("http://10.2.3.4/hello/world.html", Some("http://10.2.3.4/hello/world.html"));
    check("https://www.gpo.gov:/fdsys/pkg/PL", Some("http://gpo.gov/fdsys/pkg/pl"));
}

#[test]
fn fix_common_url_mistakes() {
    // Section 1.1, steps 1 to 8.
    check("  \thttp://example.com/a\n", Some("http://example.com/a"));
    check("http://http://www.al-monitor.com/pulse", Some("http://al-monitor.com/pulse"));
    check("http://https//example.com/a", Some("http://example.com/a"));
    check("HTTP://HTTPS://example.com/a", Some("http://example.com/a"));
    check("http:/www.example.com/a", Some("http://example.com/a"));
    check("https:/example.com/a", Some("http://example.com/a"));
    check("//example.com/a", Some("http://example.com/a"));
    check("http:\\\\example.com\\a\\b", Some("http://example.com/a/b"));
    check("https://www.gpo.gov:/", Some("http://gpo.gov/"));
    check("http://foo.bar?x=1", Some("http://foo.bar/?x=1"));
    check("http://example.com/a b", Some("http://example.com/a%20b"));
}

#[test]
fn scheme_and_case() {
    // Sections 1.2 steps 3, 6 and 11: everything lower case, `http` always, `http://` when missing.
    check("HTTPS://WWW.EXAMPLE.COM/A/B?C=D", Some("http://example.com/a/b?c=d"));
    check("www.example.com/a", Some("http://example.com/a"));
    check("example.com", Some("http://example.com/"));
    check("example.com:8080/a", Some("http://example.com:8080/a"));
}

#[test]
fn not_usable() {
    check("", None);
    check("   ", None);
    check("ftp://example.com/a", None);
    check("gopher://example.com/", None);
    check("mailto:someone@example.com", None);
    check("javascript:void(0)", None);
    check("data:text/html,hi", None);
    check("/relative/path", None);
    check("?q=1", None);
    check("#top", None);
    check("http://", None);
    check("http://exa mple.com/", None);
    check("http://[::1/", None);
    check("http://.../a", None);
}

#[test]
fn host_labels() {
    // Section 1.2 step 7: one leading label from the list.
    check("http://news.bbc.co.uk/a", Some("http://bbc.co.uk/a"));
    check("http://www.example.com/", Some("http://example.com/"));
    check("http://m.example.com/", Some("http://example.com/"));
    check("http://www2.example.com/", Some("http://example.com/"));
    check("http://1234.example.com/", Some("http://example.com/"));
    check("http://sports.example.com/", Some("http://example.com/"));
    check("http://photos.example.com/", Some("http://example.com/"));
    check("http://543.r2.ly/", Some("http://543.r2.ly/"));
    check("http://www.com/", Some("http://www.com/"));
    // `ma.gov.br` is itself a public suffix (a Brazilian state), so `www` is the registrable label here.
    check("http://www.ma.gov.br/", Some("http://www.ma.gov.br/"));
    check("http://www.planalto.gov.br/", Some("http://planalto.gov.br/"));
    check("http://edition.cnn.com/a", Some("http://edition.cnn.com/a"));
    check("http://www-nc.nytimes.com/a", Some("http://www-nc.nytimes.com/a"));
    check("http://blog.google/a", Some("http://blog.google/a"));
}

#[test]
fn podomatic() {
    check(
        "http://pronkraymond83483.podomatic.com/entry",
        Some("http://pronkpops.podomatic.com/entry"),
    );
    check("http://other.podomatic.com/entry", Some("http://other.podomatic.com/entry"));
}

#[test]
fn fragments() {
    check("http://example.com/a#b", Some("http://example.com/a"));
    check("http://example.com/#!/story/1", Some("http://example.com/"));
    check("http://example.com/a?b=1#c?d=2", Some("http://example.com/a?b=1"));
}

#[test]
fn paths() {
    // url_normalize (section 1.4): dot segments, empty segments, trailing slash, empty path.
    check("http://example.com//a///b//", Some("http://example.com/a/b/"));
    check("http://example.com/a/../b/./c", Some("http://example.com/b/c"));
    check("http://example.com/a/%2e%2E/b", Some("http://example.com/b"));
    check("http://example.com", Some("http://example.com/"));
    check("http://example.com/a/", Some("http://example.com/a/"));
    check("http://example.com/index.html", Some("http://example.com/index.html"));
}

#[test]
fn percent_encoding() {
    check("http://example.com/%7euser/%41", Some("http://example.com/~user/a"));
    check("http://example.com/%c3%bc", Some("http://example.com/%C3%BC"));
    check("http://example.com/caf%C3%A9", Some("http://example.com/caf%C3%A9"));
    check("http://example.com/café", Some("http://example.com/caf%C3%A9"));
    check("http://example.com/cafe%CC%81", Some("http://example.com/caf%C3%A9"));
    check("http://example.com/%E9t%E9", Some("http://example.com/%E9t%E9"));
    check("http://example.com/it%27s", Some("http://example.com/it's"));
    check("http://example.com/a%zz", Some("http://example.com/a%25zz"));
    check("http://example.com/a?b=%7e", Some("http://example.com/a?b=~"));
    check("http://example.com/a?q=a+b", Some("http://example.com/a?q=a%20b"));
    check("http://example.com/a?q=a%20b", Some("http://example.com/a?q=a%20b"));
    check("http://example.com/a?q=a%2Bb", Some("http://example.com/a?q=a%2Bb"));
    check("http://example.com/a?q=a%26b", Some("http://example.com/a?q=a%26b"));
    check("http://example.com/a?q=it's", Some("http://example.com/a?q=it%27s"));
    check(
        "http://example.com/a?u=http%3A%2F%2Fx.com%2F",
        Some("http://example.com/a?u=http://x.com/"),
    );
}

#[test]
fn idna_hosts() {
    check("https://exämple.com/", Some("http://xn--exmple-cua.com/"));
    check("http://www.BÜCHER.de/", Some("http://xn--bcher-kva.de/"));
    check("http://xn--bcher-kva.de/", Some("http://xn--bcher-kva.de/"));
    check(
        "http://новости.рф/статья",
        Some("http://xn--b1amnebsh.xn--p1ai/%D1%81%D1%82%D0%B0%D1%82%D1%8C%D1%8F"),
    );
    check("http://www.example.com./a", Some("http://example.com/a"));
}

#[test]
fn ip_hosts() {
    check("http://1.2.3.4/foo", Some("http://1.2.3.4/foo"));
    check("http://192.168.0.1/", Some("http://192.168.0.1/"));
    check("http://0x7f.1/", Some("http://127.0.0.1/"));
    check("http://[2001:DB8::1]:80/a", Some("http://[2001:db8::1]/a"));
    check("http://147.182.248.18:8080/a", Some("http://147.182.248.18:8080/a"));
}

#[test]
fn ports() {
    check("http://example.com:80/a", Some("http://example.com/a"));
    check("https://example.com:443/a", Some("http://example.com/a"));
    check("http://example.com:443/a", Some("http://example.com/a"));
    check("https://example.com:80/a", Some("http://example.com/a"));
}

#[test]
fn query_parameters() {
    // Sections 1.3 steps 9 and 10, 1.4 step 7, 1.5 step 3.
    check("http://example.com/a?page=2&id=5", Some("http://example.com/a?id=5&page=2"));
    check("http://example.com/a?ID=456&id=123", Some("http://example.com/a?id=123&id=456"));
    check("http://example.com/a?a=&b=1", Some("http://example.com/a?a&b=1"));
    check("http://example.com/a?a=", Some("http://example.com/a?a"));
    check("http://example.com/a?", Some("http://example.com/a"));
    check("http://example.com/a?&&a=1&&", Some("http://example.com/a?a=1"));
    check(
        "http://www-nc.nytimes.com/2011/06/29/a.html?=_r%3D6",
        Some("http://www-nc.nytimes.com/2011/06/29/a.html"),
    );
    check(
        "http://example.com/a?utm_source=x&utm_medium=y&ga_source=z&_ga=1&id=7",
        Some("http://example.com/a?id=7"),
    );
    check(
        "http://example.com/a?fb_action_ids=1&fb_source=2&action_ref_map=3&yclid=4&_openstat=5&id=7",
        Some("http://example.com/a?id=7"),
    );
    check(
        "http://example.com/a?cid=1&s_cid=2&sid=3&ncid=4&ir=5&ref=6&oref=7&eref=8",
        Some("http://example.com/a"),
    );
    check(
        "http://example.com/a?ns_mchannel=1&ns_campaign=2&wprss=3&custom_click=4&source=5",
        Some("http://example.com/a"),
    );
    check(
        "http://example.com/a?skipmobile=1&skip_mobile=2&altcast_code=3&id=7",
        Some("http://example.com/a?id=7"),
    );
    check("http://example.com/a?nk=abc123&b=1", Some("http://example.com/a?b=1"));
    check("http://example.com/a?nk=xyz&b=1", Some("http://example.com/a?b=1&nk=xyz"));
    check(
        "https://www.facebook.com/BerkmanCenter?ref=br_tf&fref=x&hc_location=y",
        Some("http://facebook.com/berkmancenter"),
    );
    check(
        "https://www.nytimes.com/2020/a.html?smid=tw&partner=rss&emc=rss&_r=0&hp&page=2",
        Some("http://nytimes.com/2020/a.html?page=2"),
    );
    check(
        "https://example.com/a.html?smid=tw&partner=rss",
        Some("http://example.com/a.html?partner=rss&smid=tw"),
    );
    check(
        "https://www.livejournal.com/a?thread=1&nojs=1&b=2",
        Some("http://livejournal.com/a?b=2"),
    );
    check(
        "https://www.google.com/search?q=x&ei=abc&gws_rd=ssl",
        Some("http://google.com/search?q=x"),
    );
}

#[test]
fn youtube() {
    // Section 1.7: one form per video, channel and user, ids keep their case.
    check(
        "https://m.youtube.com/watch?v=aFCO6WidGVM&feature=share",
        Some("http://youtube.com/watch?v=aFCO6WidGVM"),
    );
    check(
        "https://www.youtube.com/embed/aBcDeF?start=3",
        Some("http://youtube.com/watch?v=aBcDeF"),
    );
    check(
        "https://www.youtube.com/channel/UCaBc/videos?view=0",
        Some("http://youtube.com/channel/UCaBc/videos"),
    );
    check("https://music.youtube.com/watch?v=aBcDeF", Some("http://youtube.com/watch?v=aBcDeF"));
    check(
        "https://www.youtube.com/playlist?list=PLxYz&utm_source=y",
        Some("http://youtube.com/playlist?list=PLxYz"),
    );
    check("https://www.youtube.com/@SomeChannel", Some("http://youtube.com/@SomeChannel"));
    check("https://notyoutube.com/watch?v=aBc", Some("http://notyoutube.com/watch?v=abc"));
}

#[test]
fn archive_today() {
    // Section 1.2 step 5.
    check(
        "https://archive.is/o/vWkgm/www.huffingtonpost.com/x",
        Some("http://huffingtonpost.com/x"),
    );
    check(
        "https://archive.is/o/vWkgm/https://www.example.com/a?b=1",
        Some("http://example.com/a?b=1"),
    );
    check("https://archive.is/vWkgm", Some("http://archive.is/vwkgm"));
    check(
        "https://archive.is/o/vWkgm/mailto:a@b.c",
        Some("http://archive.is/o/vwkgm/mailto:a@b.c"),
    );
}

#[test]
fn deviation_ip_hosts_untouched() {
    check("http://1.2.3.4/foo", Some("http://1.2.3.4/foo"));
}

#[test]
fn deviation_www_is_not_www_optional() {
    check("http://wwf.or.jp/", Some("http://wwf.or.jp/"));
    check("http://ww.example.com/", Some("http://ww.example.com/"));
}

#[test]
fn deviation_labels_are_stripped_from_the_host_only() {
    check("http://www.foo/bar.html", Some("http://www.foo/bar.html"));
}

#[test]
fn deviation_labels_are_stripped_repeatedly() {
    check("http://m.www.example.com/", Some("http://example.com/"));
    check("http://www.news.example.com/", Some("http://example.com/"));
}

#[test]
fn deviation_labels_are_not_stripped_down_to_a_public_suffix() {
    check("http://cdn.com.do/", Some("http://cdn.com.do/"));
    check("http://www.co.uk/", Some("http://www.co.uk/"));
    check("http://news.gov.br/", Some("http://news.gov.br/"));
}

#[test]
fn deviation_any_extra_character_is_only_digits_or_plural() {
    check("http://ma.gov.br/", Some("http://ma.gov.br/"));
    check("http://me.example.com/", Some("http://me.example.com/"));
    check("http://mx.example.com/", Some("http://mx.example.com/"));
    check("http://ms.example.com/", Some("http://ms.example.com/"));
    check("http://blogs.example.com/", Some("http://example.com/"));
    check("http://news1.example.com/", Some("http://example.com/"));
}

#[test]
fn deviation_mobile_and_amp_hosts() {
    check("https://mobile.example.com/a", Some("http://example.com/a"));
    check("https://amp.theguardian.com/world/2020/x", Some("http://theguardian.com/world/2020/x"));
    check("https://m.example.com/a", Some("http://example.com/a"));
}

#[test]
fn deviation_sort_and_phpsessid_both_removed() {
    check("http://example.com/a?sort=new&PHPSESSID=abc&id=1", Some("http://example.com/a?id=1"));
    check("http://example.com/a?sortPHPSESSID=1", Some("http://example.com/a?sortphpsessid=1"));
}

#[test]
fn deviation_parameter_names_match_in_any_case() {
    check(
        "http://example.com/a?PHPSESSIONID=1&ITO=2&feedName=3&feedType=4&id=5",
        Some("http://example.com/a?id=5"),
    );
    check("https://www.nytimes.com/a?WT.z_sma=1&b=2", Some("http://nytimes.com/a?b=2"));
    check(
        "https://www.youtube.com/playlist?list=PLx&UTM_source=y",
        Some("http://youtube.com/playlist?list=PLx"),
    );
}

#[test]
fn deviation_click_ids_removed() {
    check("http://example.com/a?id=7&fbclid=IwAR0", Some("http://example.com/a?id=7"));
    check(
        "http://example.com/a?gclid=1&dclid=2&gbraid=3&wbraid=4&msclkid=5&mc_cid=6&mc_eid=7",
        Some("http://example.com/a"),
    );
    check(
        "http://example.com/a?igshid=1&twclid=2&ttclid=3&li_fat_id=4&mkt_tok=5",
        Some("http://example.com/a"),
    );
    check(
        "http://example.com/a?oly_anon_id=1&oly_enc_id=2&vero_id=3&wickedid=4&rb_clickid=5&s_kwcid=6",
        Some("http://example.com/a"),
    );
    check(
        "http://example.com/a?_hsenc=1&_hsmi=2&hsa_acc=3&pk_campaign=4&mtm_source=5",
        Some("http://example.com/a"),
    );
    check("https://www.lemonde.fr/a.html?xtor=RSS-3208", Some("http://lemonde.fr/a.html"));
    check("https://www.theguardian.com/a?CMP=share_btn_tw", Some("http://theguardian.com/a"));
    check(
        "https://www.bbc.co.uk/news/a?at_medium=RSS&at_campaign=KARANGA",
        Some("http://bbc.co.uk/news/a"),
    );
}

#[test]
fn deviation_non_default_ports_kept() {
    check("https://example.com:8443/a", Some("http://example.com:8443/a"));
    check("http://example.com:8080/a", Some("http://example.com:8080/a"));
}

#[test]
fn deviation_user_info_dropped() {
    check("http://user:pw@www.example.com/a", Some("http://example.com/a"));
    check("http://@example.com/a", Some("http://example.com/a"));
}

#[test]
fn deviation_meaningful_escapes_kept() {
    check("http://example.com/a%2Fb", Some("http://example.com/a%2Fb"));
    check("http://example.com/a%23b", Some("http://example.com/a%23b"));
    check("http://example.com/a%3Fb", Some("http://example.com/a%3Fb"));
    check("http://example.com/a?x=b%3Dc", Some("http://example.com/a?x=b%3Dc"));
}

#[test]
fn deviation_path_lower_cased_after_decoding() {
    check("http://example.com/%C3%9Cber", Some("http://example.com/%C3%BCber"));
    check("http://example.com/Über", Some("http://example.com/%C3%BCber"));
}

#[test]
fn deviation_amp() {
    check(
        "https://www-example-com.cdn.ampproject.org/c/s/www.example.com/news/story/amp/",
        Some("http://example.com/news/story/"),
    );
    check(
        "https://www-example-com.cdn.ampproject.org/v/example.com/a?amp_js_v=0.1&usqp=mq331AQ",
        Some("http://example.com/a"),
    );
    check(
        "https://www.google.com/amp/s/www.example.com/a.amp.html",
        Some("http://example.com/a.html"),
    );
    check("https://www.google.co.uk/amp/s/example.com/a", Some("http://example.com/a"));
    check("https://example.com/news/story/amp", Some("http://example.com/news/story/"));
    check("https://example.com/amp/news/story", Some("http://example.com/news/story"));
    check("https://example.com/news/story.amp", Some("http://example.com/news/story"));
    check("https://example.com/amp", Some("http://example.com/"));
    check("https://example.com/news/story?amp", Some("http://example.com/news/story"));
    check("https://example.com/news/story?amp=1", Some("http://example.com/news/story"));
    check("https://example.com/news/story?outputType=amp", Some("http://example.com/news/story"));
    check(
        "https://example.com/news/story?outputType=json",
        Some("http://example.com/news/story?outputtype=json"),
    );
    check("https://example.com/news/amplifier", Some("http://example.com/news/amplifier"));
    check("https://www.google.com/search?q=amp", Some("http://google.com/search?q=amp"));
}

#[test]
fn deviation_archive_today_over_http_and_mirrors() {
    check(
        "http://archive.is/o/vWkgm/www.huffingtonpost.com/x",
        Some("http://huffingtonpost.com/x"),
    );
    check("https://archive.ph/o/abc12/https://www.example.com/a", Some("http://example.com/a"));
    check("https://archive.today/o/abc12/example.com/a", Some("http://example.com/a"));
}

#[test]
fn deviation_youtube_forms() {
    check("https://youtu.be/aFCO6WidGVM?t=30", Some("http://youtube.com/watch?v=aFCO6WidGVM"));
    check("https://www.youtube.com/shorts/aBcDeF", Some("http://youtube.com/watch?v=aBcDeF"));
    check("https://www.youtube.com/live/aBcDeF?si=x", Some("http://youtube.com/watch?v=aBcDeF"));
    check(
        "https://www.youtube-nocookie.com/embed/aBcDeF",
        Some("http://youtube.com/watch?v=aBcDeF"),
    );
    check(
        "https://www.youtube.com/watch?feature=share&v=aBcDeF",
        Some("http://youtube.com/watch?v=aBcDeF"),
    );
    check("https://www.youtube.com/user/AbC?a=b", Some("http://youtube.com/user/AbC"));
}

#[test]
fn deviation_blogger_mobile_switch() {
    check(
        "https://foo.blogspot.com/2020/01/post.html?m=1",
        Some("http://foo.blogspot.com/2020/01/post.html"),
    );
    check("https://example.com/a?m=1", Some("http://example.com/a?m=1"));
}

#[test]
fn deviation_scheme_repairs_at_the_start_only() {
    check("http://http://http://example.com/a", Some("http://example.com/a"));
    check(
        "http://example.com/r?u=http://http://y.com",
        Some("http://example.com/r?u=http://http://y.com"),
    );
}

#[test]
fn deviation_other_schemes_refused() {
    check("ftp://example.com/a", None);
    check("/a/b", None);
}
