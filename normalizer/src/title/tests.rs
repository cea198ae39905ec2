//! Table tests for title keys (section 2.1) and display titles (section 2.3), in several languages.

use super::{clean_title, normalized_title, title_key};

#[track_caller]
fn check(title: &str, source: Option<&str>, expected: &str) {
    let key = normalized_title(title, source);
    assert_eq!(key, expected, "normalized_title({title:?}, {source:?})");
    assert_eq!(
        normalized_title(&key, source),
        key,
        "normalized_title is not a fixed point on {key:?}"
    );
}

#[track_caller]
fn check_key(title: &str, source: Option<&str>, expected: Option<&str>) {
    assert_eq!(title_key(title, source).as_deref(), expected, "title_key({title:?}, {source:?})");
}

#[track_caller]
fn check_clean(title: &str, source: Option<&str>, expected: &str) {
    assert_eq!(clean_title(title, source), expected, "clean_title({title:?}, {source:?})");
}

const BUDGET: &str = "mayor announces new budget plan for city schools";

#[test]
fn examples_from_the_reference() {
    // Section 2.1, "Examples (checked in a real PostgreSQL)".
    check("Mayor announces new budget plan for city schools - The Boston Globe", None, BUDGET);
    check("The Boston Globe | Mayor announces new budget plan for city schools", None, BUDGET);
    check("Mayor announces new budget plan for city schools | The Boston Globe", None, BUDGET);
    check("Mayor announces new budget plan for city schools: The Boston Globe", None, BUDGET);
}

#[test]
fn steps_of_the_sql_key() {
    // Step 1: tags; step 3: case; step 5: punctuation; step 6: whitespace.
    check("<b>Breaking</b> <a href='x'>news</a>", None, "breaking news");
    check("a < b and c > d", None, "a d");
    check("Ex-mayor says   \"no\"  to   the plan!", None, "exmayor says no to the plan");
    check("Title -X", None, "title x");
    check("Title - ", None, "title");
    // Step 4: `-` only separates before a space; `:` and `|` always.
    check("Self-driving cars", None, "selfdriving cars");
    check("Meeting at 10:30", None, "meeting at 10 | 30");
    // Steps 9 to 11: the longest part stands alone only from 32 characters.
    check("Short part | Another short part", None, "short part | another short part");
    check("abcdefghijklmnopqrstuvwxyzabcde | x", None, "abcdefghijklmnopqrstuvwxyzabcde | x");
    check("abcdefghijklmnopqrstuvwxyzabcdef | x", None, "abcdefghijklmnopqrstuvwxyzabcdef");
    // Ties go to the first longest part.
    check(
        "abcdefghijklmnopqrstuvwxyzabcdef | fedcbazyxwvutsrqponmlkjihgfedcba",
        None,
        "abcdefghijklmnopqrstuvwxyzabcdef",
    );
    check("a | b | c | d | e | f | g | h", None, "a | b | c | d | e | f | g | h");
    check("a | b | c | d | e | f | g | h", Some("g"), "a | b | c | d | e | f | h");
    check("", None, "");
    check("   ", None, "");
    check("!!!", None, "");
}

#[test]
fn cut_at_1023_characters() {
    let long = "word ".repeat(400);
    let key = normalized_title(&long, None);
    assert!(key.chars().count() <= 1023, "{}", key.len());
    assert!(key.starts_with("word word"));
}

#[test]
fn source_name_rule() {
    // Step 12: a longest part equal to the source's own name is not a key.
    check(
        "The Extremely Long Name Of A Newspaper Group | Sports",
        Some("The Extremely Long Name Of A Newspaper Group"),
        "sports",
    );
    check(
        "Mayor announces new budget plan for city schools - The Boston Globe",
        Some("The Boston Globe"),
        BUDGET,
    );
}

#[test]
fn title_keys_refused() {
    check_key("", None, None);
    check_key("(no title)", None, None);
    check_key("Untitled", None, None);
    check_key("Home", None, None);
    check_key("The Boston Globe", Some("The Boston Globe"), None);
    check_key("The Boston Globe | The Boston Globe", Some("the boston globe"), None);
    check_key("Short news | The Globe", Some("The Globe"), Some("short news"));
    check_key("Mayor announces new budget plan for city schools", None, Some(BUDGET));
}

#[test]
fn languages() {
    check(
        "El Gobierno aprueba la reforma de las pensiones tras meses de negociación - EL PAÍS",
        None,
        "el gobierno aprueba la reforma de las pensiones tras meses de negociación",
    );
    check(
        "Le gouvernement présente son budget pour l’année prochaine | Le Monde",
        None,
        "le gouvernement présente son budget pour lannée prochaine",
    );
    check(
        "Bundesregierung beschließt neues Klimaschutzgesetz - DER SPIEGEL",
        None,
        "bundesregierung beschliesst neues klimaschutzgesetz",
    );
    check(
        "Governo anuncia novas medidas para a economia brasileira | Folha",
        None,
        "governo anuncia novas medidas para a economia brasileira",
    );
    check(
        "Правительство утвердило новый бюджет на следующий год - РИА Новости",
        None,
        "правительство утвердило новый бюджет на следующий год",
    );
    check(
        "Η κυβέρνηση ανακοίνωσε νέα μέτρα για την οικονομία | Η ΚΑΘΗΜΕΡΙΝΗ",
        None,
        "η κυβέρνηση ανακοίνωσε νέα μέτρα για την οικονομία",
    );
    assert_eq!(normalized_title("ΟΙΚΟΝΟΜΊΑΣ", None), normalized_title("οικονομίας", None));
    // Chinese and Japanese: no spaces to split on, short titles keep their suffix, full-width forms fold.
    check(
        "国务院常务会议部署推进新型城镇化建设工作｜人民网",
        None,
        "国务院常务会议部署推进新型城镇化建设工作 | 人民网",
    );
    check(
        "政府、新たな経済対策を閣議決定 | ＮＨＫﾆｭｰｽ",
        None,
        "政府新たな経済対策を閣議決定 | nhkニュース",
    );
    check(
        "国务院常务会议部署推进新型城镇化建设工作｜人民网",
        Some("人民网"),
        "国务院常务会议部署推进新型城镇化建设工作",
    );
}

#[test]
fn deviation_references_decoded() {
    check("Tom &amp; Jerry", None, "tom jerry");
    check("AT&T earnings beat estimates", None, "att earnings beat estimates");
    check("Caf&eacute; owners protest", None, "café owners protest");
    check("It&#8217;s here &amp;#039;now&amp;#039;", None, "its here now");
}

#[test]
fn deviation_nfkc_and_case_folding() {
    check("ＮＹＴ｜Ｔｒｕｍｐ", None, "nyt | trump");
    assert_eq!(
        normalized_title("STRAẞE gesperrt", None),
        normalized_title("Strasse gesperrt", None)
    );
}

#[test]
fn deviation_spaced_dashes_separate() {
    check("Mayor announces new budget plan for city schools – The Boston Globe", None, BUDGET);
    check("Mayor announces new budget plan for city schools — The Boston Globe", None, BUDGET);
    check("1990–2000 in review", None, "19902000 in review");
}

#[test]
fn deviation_separators_written_alike() {
    check("NYT: Trump Avoids Impeachment", None, "nyt | trump avoids impeachment");
    check("foo bar: bat", None, "foo bar | bat");
    check("foo bar - bat", None, "foo bar | bat");
    check(" foo bar | bat ", None, "foo bar | bat");
    check("| foo |", None, "foo");
}

#[test]
fn deviation_source_parts_dropped() {
    check("Short news | The Globe", Some("The Globe"), "short news");
    check("The Globe: Short news", Some("the globe"), "short news");
    check("Short news | The Globe", None, "short news | the globe");
}

#[test]
fn display_titles_from_the_reference() {
    // Section 2.3 step 5: single parts, prefixes, suffixes and the length rules.
    check_clean(
        "Why isn’t modern AI built around principles from cognitive science?",
        None,
        "Why isn’t modern AI built around principles from cognitive science?",
    );
    check_clean(
        "Top Nutrition Trends for Fall 2025: What Fitness Experts Are Eating | Scratch Culinary",
        None,
        "Top Nutrition Trends for Fall 2025: What Fitness Experts Are Eating",
    );
    check_clean(
        "Best Tax Preparation Software | Accounting.com",
        None,
        "Best Tax Preparation Software",
    );
    check_clean(
        "NYT | A long headline about the budget vote today",
        None,
        "A long headline about the budget vote today",
    );
    check_clean("Short title | Site", None, "Short title");
    check_clean(
        "Opinion | The budget vote was a mistake, says everyone | The Globe",
        None,
        "Opinion | The budget vote was a mistake, says everyone",
    );
    check_clean(
        "Complete Wedding Planning Checklist: 12-Month Timeline & Budget Guide | Somerhaus Cincinnati | Somerhaus",
        None,
        "Complete Wedding Planning Checklist: 12-Month Timeline & Budget Guide | Somerhaus Cincinnati",
    );
    check_clean(
        "A very long first part of the title | A second long part of it | Third long part here too",
        None,
        "A very long first part of the title",
    );
    // The length rules are a heuristic: this real title loses its subject, as it does in the reference.
    check_clean("Mobile UX Design - The Ultimate Guide 2025", None, "The Ultimate Guide 2025");
    check_clean("Title: OPP", None, "Title: OPP");
}

#[test]
fn display_title_cleaning() {
    // Section 2.3 step 3: tags, references, whitespace, a leading `| Home |`.
    check_clean(
        "<b>Bold</b> title that is long enough | Site",
        None,
        "Bold title that is long enough",
    );
    check_clean(
        "Catering Tips for a Successful Event | Giordano&#039;s Catering",
        None,
        "Catering Tips for a Successful Event",
    );
    check_clean(
        "Here’s how to maintain healthy smartphone\u{a0}habits | Clemson News",
        None,
        "Here’s how to maintain healthy smartphone habits",
    );
    check_clean("| Home | Story title here", None, "Story title here");
    check_clean("  spaced \n\t out  ", None, "spaced out");
    check_clean("", None, "");
}

#[test]
fn display_titles_in_several_languages() {
    check_clean(
        "El Gobierno aprueba la reforma de las pensiones – EL PAÍS",
        None,
        "El Gobierno aprueba la reforma de las pensiones",
    );
    check_clean(
        "Klimaschutz: Bundesregierung beschließt neues Gesetz - DER SPIEGEL",
        Some("Der Spiegel"),
        "Klimaschutz: Bundesregierung beschließt neues Gesetz",
    );
    check_clean(
        "Governo anuncia novas medidas para a economia | Folha de S.Paulo",
        None,
        "Governo anuncia novas medidas para a economia",
    );
    check_clean(
        "Правительство утвердило новый бюджет — РИА Новости",
        None,
        "Правительство утвердило новый бюджет",
    );
    check_clean(
        "政府、新たな経済対策を閣議決定 | NHKニュース",
        None,
        "政府、新たな経済対策を閣議決定",
    );
    check_clean(
        "Η κυβέρνηση ανακοίνωσε νέα μέτρα | Η ΚΑΘΗΜΕΡΙΝΗ",
        Some("Η Καθημερινή"),
        "Η κυβέρνηση ανακοίνωσε νέα μέτρα",
    );
}

#[test]
fn deviation_display_title_keeps_its_punctuation() {
    check_clean(
        "Site | Is this the end of everything we know?",
        None,
        "Is this the end of everything we know?",
    );
    check_clean(
        "RESTAURANT Definition & Meaning | Dictionary.com",
        None,
        "RESTAURANT Definition & Meaning",
    );
    check_clean(
        "AT&T | Shares fall after a long earnings call today",
        None,
        "Shares fall after a long earnings call today",
    );
}

#[test]
fn deviation_display_title_drops_home_parts() {
    check_clean(
        "Home | News | Long headline about something important",
        None,
        "Long headline about something important",
    );
    check_clean(
        "Inicio | Noticias | Un titular largo sobre algo importante",
        None,
        "Un titular largo sobre algo importante",
    );
}

#[test]
fn deviation_display_title_drops_source_parts() {
    check_clean("Short news | The Globe", Some("The Globe"), "Short news");
    check_clean("The Globe | Short news", Some("the globe"), "Short news");
    check_clean(
        "Le Monde : Ukraine, la Russie lance une attaque",
        Some("Le Monde"),
        "Ukraine, la Russie lance une attaque",
    );
}

#[test]
fn deviation_display_title_keeps_spaced_colons() {
    check_clean(
        "Ukraine : la Russie lance une attaque massive | Le Monde",
        None,
        "Ukraine : la Russie lance une attaque massive",
    );
    check_clean(
        "Ukraine : la Russie lance une attaque massive",
        None,
        "Ukraine : la Russie lance une attaque massive",
    );
}
