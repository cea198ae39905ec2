//! Title clean-up: removes the publisher's name from the ends of an HTML title.
//!
//! The rules live in the normalizer ([`normalizer::clean_title`], Media Cloud's `from_html` step 5:
//! tags stripped, entities decoded, whitespace collapsed, parts equal to the source name dropped,
//! then short prefixes and suffixes dropped), so the title stored with a story and the one used as a
//! deduplication key come from one implementation. This module only adapts the call.

/// Removes site-name prefixes and suffixes from an HTML title (see [`normalizer::clean_title`]).
pub fn clean_title(html_title: &str, site_name: Option<&str>) -> String {
    normalizer::clean_title(html_title, site_name)
}

#[cfg(test)]
mod tests {
    use super::clean_title;

    #[test]
    fn site_names_are_removed() {
        assert_eq!(
            clean_title("Storm hits the coast | The Daily Planet", Some("The Daily Planet")),
            "Storm hits the coast"
        );
        assert_eq!(
            clean_title("Daily Planet - Storm hits the coast", Some("Daily Planet")),
            "Storm hits the coast"
        );
        assert_eq!(
            clean_title("Storm hits the eastern coast - DP", None),
            "Storm hits the eastern coast"
        );
        assert_eq!(clean_title("  Plain   title ", None), "Plain title");
        assert_eq!(clean_title("Tools &amp; tips", None), "Tools & tips");
    }
}
