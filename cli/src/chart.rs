//! The chart of `morgue counts --chart FILE.svg`: stories and story clusters per period as two
//! lines, dates along the bottom, counts up the side, a legend; plain SVG written by hand.
//!
//! PNG is not drawn: every lean Rust rasteriser either pulls in a font stack or draws no text,
//! and an SVG opens in every browser and converts with any image tool.

use std::fmt::Write as _;

use store::counts::PeriodCount;

const WIDTH: f64 = 860.0;
const HEIGHT: f64 = 420.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 50.0;
const BOTTOM: f64 = 70.0;
/// At most this many dates along the bottom.
const DATE_LABELS: usize = 8;
const RAW: &str = "#1f5fa8";
const FOLDED: &str = "#d2691e";

/// The chart of `rows` (by period, as `counts` gives them), titled with the query.
pub(crate) fn svg(title: &str, rows: &[PeriodCount]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        out,
        r#"<text x="{LEFT}" y="22" font-size="15">{}</text>"#,
        escape(&format!("Attention over time: {title}"))
    );
    let (plot_w, plot_h) = (WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
    let (Some(first), Some(last)) = (rows.first(), rows.last()) else {
        let _ = writeln!(out, r#"<text x="{LEFT}" y="{}">no stories</text></svg>"#, TOP + 20.0);
        return out;
    };
    let span = (last.start - first.start).num_days().max(1) as f64;
    let x = |row: &PeriodCount| LEFT + plot_w * (row.start - first.start).num_days() as f64 / span;
    let top = nice_top(rows.iter().map(|row| row.stories).max().unwrap_or(0));
    let y = |n: u64| TOP + plot_h * (1.0 - n as f64 / top as f64);

    // Axes, horizontal grid lines with their counts, and the axis labels.
    let step = top / 5;
    for i in 0..=5 {
        let n = step * i;
        let _ = writeln!(
            out,
            r##"<line x1="{LEFT}" x2="{}" y1="{y:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{}" y="{:.1}" text-anchor="end">{n}</text>"##,
            LEFT + plot_w,
            LEFT - 6.0,
            y(n) + 4.0,
            y = y(n),
        );
    }
    let _ = writeln!(
        out,
        r#"<line x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{}" stroke="black"/><line x1="{LEFT}" x2="{}" y1="{}" y2="{}" stroke="black"/>"#,
        TOP + plot_h,
        LEFT + plot_w,
        TOP + plot_h,
        TOP + plot_h,
    );
    let every = rows.len().div_ceil(DATE_LABELS).max(1);
    for row in rows.iter().step_by(every) {
        let _ = writeln!(
            out,
            r#"<line x1="{x:.1}" x2="{x:.1}" y1="{}" y2="{}" stroke="black"/><text x="{x:.1}" y="{}" text-anchor="middle">{}</text>"#,
            TOP + plot_h,
            TOP + plot_h + 5.0,
            TOP + plot_h + 20.0,
            row.start.format("%Y-%m-%d"),
            x = x(row),
        );
    }
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" text-anchor="middle">period (first day)</text>"#,
        LEFT + plot_w / 2.0,
        HEIGHT - 22.0
    );
    let _ = writeln!(
        out,
        r#"<text transform="translate(18 {}) rotate(-90)" text-anchor="middle">stories per period</text>"#,
        TOP + plot_h / 2.0
    );

    // The two lines, and the legend.
    for (colour, value) in [
        (RAW, (|row: &PeriodCount| row.stories) as fn(&PeriodCount) -> u64),
        (FOLDED, |row: &PeriodCount| row.clusters),
    ] {
        let points: Vec<String> =
            rows.iter().map(|row| format!("{:.1},{:.1}", x(row), y(value(row)))).collect();
        let _ = writeln!(
            out,
            r#"<polyline fill="none" stroke="{colour}" stroke-width="2" points="{}"/>"#,
            points.join(" ")
        );
    }
    for (i, (colour, label)) in
        [(RAW, "stories matching"), (FOLDED, "story clusters matching (copies folded)")]
            .into_iter()
            .enumerate()
    {
        let ly = 36.0 + 16.0 * i as f64;
        let lx = WIDTH - RIGHT - 290.0;
        let _ = writeln!(
            out,
            r#"<line x1="{lx}" x2="{}" y1="{ly}" y2="{ly}" stroke="{colour}" stroke-width="3"/><text x="{}" y="{}">{label}</text>"#,
            lx + 24.0,
            lx + 30.0,
            ly + 4.0,
        );
    }
    out.push_str("</svg>\n");
    out
}

/// The top of the count axis: five steps of a round size (1, 2 or 5 times a power of ten) that
/// reach `max`.
fn nice_top(max: u64) -> u64 {
    let wanted = max.div_ceil(5).max(1);
    let mut unit = 1;
    loop {
        for step in [unit, 2 * unit, 5 * unit] {
            if step >= wanted {
                return step * 5;
            }
        }
        unit *= 10;
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    #[test]
    fn the_count_axis_ends_on_a_round_number_above_the_highest_count() {
        for (max, top) in [(0, 5), (3, 5), (7, 10), (42, 50), (99, 100), (1234, 2500)] {
            let got = nice_top(max);
            assert!(got >= max, "{max}: {got}");
            assert_eq!(got, top, "{max}");
        }
    }

    #[test]
    fn the_chart_has_both_lines_dates_axis_labels_and_a_legend() {
        let day = |d| NaiveDate::from_ymd_opt(2026, 11, d).unwrap();
        let rows: Vec<PeriodCount> = (1..=20)
            .map(|d| PeriodCount {
                start: day(d),
                stories: u64::from(d) * 3,
                clusters: u64::from(d),
                all_stories: 100,
                all_clusters: 50,
            })
            .collect();
        let svg = svg("flood <river>", &rows);
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert!(svg.contains("2026-11-01") && svg.contains("flood &lt;river&gt;"));
        assert!(svg.contains("stories per period") && svg.contains("copies folded"));
        assert!(svg.matches("text-anchor=\"middle\">2026-").count() <= DATE_LABELS);
        assert!(self::svg("x", &[]).contains("no stories"));
    }
}
