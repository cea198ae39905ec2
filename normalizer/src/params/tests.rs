//! Table tests for tracking-parameter removal.

use super::{Param, remove_tracking};

#[track_caller]
fn check(host: &str, params: &[(&str, Option<&str>)], kept: &[&str]) {
    let mut list: Vec<Param> = params
        .iter()
        .map(|(n, v)| Param { name: (*n).to_owned(), value: v.map(str::to_owned) })
        .collect();
    remove_tracking(&mut list, host);
    let names: Vec<&str> = list.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, kept, "remove_tracking on {host}");
}

#[test]
fn media_cloud_list() {
    check("example.com", &[("ref", Some("rss")), ("id", Some("1"))], &["id"]);
    check("example.com", &[("sort", Some("new")), ("phpsessid", Some("a"))], &[]);
    check("example.com", &[("", Some("x")), ("a", None)], &["a"]);
    check(
        "example.com",
        &[("utm_source", None), ("ga_x", None), ("_x", None), ("page", Some("2"))],
        &["page"],
    );
}

#[test]
fn names_in_any_case() {
    check(
        "example.com",
        &[("PHPSESSID", Some("1")), ("feedName", None), ("UTM_Source", None), ("Id", None)],
        &["Id"],
    );
}

#[test]
fn host_specific() {
    check("www.facebook.com", &[("fref", None), ("hc_location", None), ("id", None)], &["id"]);
    check("example.com", &[("fref", None), ("hc_location", None)], &["fref", "hc_location"]);
    check("nytimes.com", &[("smid", None), ("wt.z_sma", None), ("abt", None)], &[]);
    check("google.de", &[("ei", None), ("q", Some("x"))], &["q"]);
    check("foo.blogspot.com", &[("m", Some("1"))], &[]);
}

#[test]
fn hex_nk() {
    check("example.com", &[("nk", Some("abc123")), ("nk", Some("zz"))], &[]);
    check("example.com", &[("nk", Some("zz"))], &["nk"]);
    check("example.com", &[("nk", Some(""))], &["nk"]);
}

#[test]
fn amp_switches() {
    check("example.com", &[("amp", None), ("amp_js_v", Some("0.1")), ("usqp", None)], &[]);
    check("example.com", &[("outputtype", Some("amp")), ("output", Some("AMP"))], &[]);
    check("example.com", &[("outputtype", Some("json"))], &["outputtype"]);
}
