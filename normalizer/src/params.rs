//! Which query parameters are tracking noise: Media Cloud's list (fixed), plus well-known click identifiers.
//!
//! Names are compared case-insensitively (Media Cloud compares after lower-casing the whole URL, so its
//! upper-case entries such as `PHPSESSID` could never match).

/// Query parameters removed from every URL: Media Cloud's generic list (section 1.5 of the reference),
/// with `sort` and `phpsessid` as two names (mcmetadata's missing comma fused them into one).
const MEDIA_CLOUD: &[&str] = &[
    // Facebook referral tracking.
    "fb_action_ids",
    "fb_action_types",
    "fb_source",
    "fb_ref",
    "action_object_map",
    "action_type_map",
    "action_ref_map",
    "fsrc_fb_noscript",
    // Yandex.
    "yclid",
    "_openstat",
    // Sorting, session identifiers, advertising and feed plumbing.
    "sort",
    "phpsessid",
    "phpsessionid",
    "cid",
    "s_cid",
    "sid",
    "ncid",
    "ir",
    "ref",
    "oref",
    "eref",
    "ns_mchannel",
    "ns_campaign",
    "ito",
    "wprss",
    "custom_click",
    "source",
    "feedname",
    "feedtype",
    "skipmobile",
    "skip_mobile",
    "altcast_code",
];

/// Click and campaign identifiers that Media Cloud keeps but that never identify content.
///
/// Facts from the platforms that set them (Google Ads `gclid`, `gclsrc`, `dclid`, `gbraid`, `wbraid`;
/// Microsoft `msclkid`; Meta `fbclid`, `igshid`, `igsh`; Mailchimp `mc_cid`, `mc_eid`; X `twclid`;
/// TikTok `ttclid`; LinkedIn `li_fat_id`; Yandex `ysclid`; Marketo `mkt_tok`; Omeda `oly_anon_id`,
/// `oly_enc_id`; Vero `vero_id`, `vero_conv`; Wicked Reports `wickedid`; Adobe `s_kwcid`, `ef_id`;
/// HubSpot `__hsfp`, `__hssc`, `__hstc`, `_hsenc`, `_hsmi`, `hsctatracking`), cross-checked against the
/// lists that Firefox's query stripping and Brave's query filter remove from navigations.
/// News-site campaign tags are added from the same kind of evidence: AT Internet's `xtor`, `at_medium`
/// and `at_campaign` (French and BBC sites), the Guardian's and Salesforce's `cmp`, `cmpid`, and MSN's `ocid`.
const CLICK_IDS: &[&str] = &[
    "fbclid",
    "gclid",
    "gclsrc",
    "dclid",
    "gbraid",
    "wbraid",
    "msclkid",
    "mc_cid",
    "mc_eid",
    "igshid",
    "igsh",
    "twclid",
    "ttclid",
    "li_fat_id",
    "ysclid",
    "mkt_tok",
    "oly_anon_id",
    "oly_enc_id",
    "vero_id",
    "vero_conv",
    "wickedid",
    "rb_clickid",
    "s_kwcid",
    "ef_id",
    "srsltid",
    "hsctatracking",
    "ml_subscriber",
    "ml_subscriber_hash",
    "xtor",
    "at_medium",
    "at_campaign",
    "cmp",
    "cmpid",
    "ocid",
    // AMP switches (`?amp`, `?amp=1`) and the Google AMP viewer's `usqp`; `amp_*` goes by prefix.
    "usqp",
    "amp",
];

/// Name prefixes removed everywhere: Media Cloud's `_`, `utm_`, `ga_`, plus HubSpot ads (`hsa_`),
/// Matomo and Piwik campaigns (`pk_`, `mtm_`, `matomo_`, `piwik_`) and the AMP viewer (`amp_`).
const PREFIXES: &[&str] = &["_", "utm_", "ga_", "hsa_", "pk_", "mtm_", "matomo_", "piwik_", "amp_"];

/// Host-specific lists from the reference: (substring of the host, names).
const BY_HOST: &[(&str, &[&str])] = &[
    ("facebook.com", &["ref", "fref", "hc_location"]),
    (
        "nytimes.com",
        &[
            "emc", "partner", "_r", "hp", "inline", "smid", "wt.z_sma", "bicmp", "bicmlukp",
            "bicmst", "bicmet", "abt", "abg",
        ],
    ),
    ("livejournal.com", &["thread", "nojs"]),
    ("google.", &["gws_rd", "ei"]),
];

/// One query parameter: its name and its value (`None` when there was no `=`), both normalised.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Param {
    pub(crate) name: String,
    pub(crate) value: Option<String>,
}

/// Removes tracking parameters, empty parameters and empty-named parameters in place.
///
/// `host` is the URL's host in lower case; some names are only tracking on some hosts.
pub(crate) fn remove_tracking(params: &mut Vec<Param>, host: &str) {
    // Australian sites append `nk` with a hex tracking hash; the reference drops every `nk` once any is hex.
    let hex_nk = params.iter().any(|p| {
        p.name.eq_ignore_ascii_case("nk")
            && p.value
                .as_deref()
                .is_some_and(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_hexdigit()))
    });
    params.retain(|p| !is_tracking(p, host, hex_nk));
}

fn is_tracking(param: &Param, host: &str, hex_nk: bool) -> bool {
    let name = param.name.as_str();
    if name.is_empty() {
        return true;
    }
    let value = param.value.as_deref().unwrap_or("");
    let lower_storage;
    let name = if name.bytes().any(|b| b.is_ascii_uppercase()) {
        lower_storage = name.to_ascii_lowercase();
        lower_storage.as_str()
    } else {
        name
    };
    if PREFIXES.iter().any(|p| name.starts_with(p))
        || MEDIA_CLOUD.contains(&name)
        || CLICK_IDS.contains(&name)
    {
        return true;
    }
    match name {
        "nk" => return hex_nk,
        // Arc Publishing and others serve the AMP rendering of the same article with these.
        "outputtype" | "output" => return value.eq_ignore_ascii_case("amp"),
        // Blogger's mobile switch.
        "m" => return host.contains(".blogspot."),
        _ => {}
    }
    BY_HOST.iter().any(|(needle, names)| host.contains(needle) && names.contains(&name))
}

#[cfg(test)]
mod tests;
