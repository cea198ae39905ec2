//! `morgue tag`: CoNLL-U in, the same lines out with the UPOS column filled.

use crate::{morgue_with_stdin, stderr, stdout};

/// Made-up sentences in the shapes the treebanks use: comments, a multiword token, an empty
/// node, full and minimal columns.
const INPUT: &str = "\
# sent_id = 1
# text = The court ruled on 12 May.
1\tThe\t_\t_\t_\t_\t_\t_\t_\t_
2\tcourt\t_\t_\t_\t_\t_\t_\t_\t_
3\truled\t_\t_\t_\t_\t_\t_\t_\t_
4\ton\t_\t_\t_\t_\t_\t_\t_\t_
5\t12\t_\t_\t_\t_\t_\t_\t_\t_
6\tMay\t_\t_\t_\t_\t_\t_\t_\tSpaceAfter=No
7\t.\t_\t_\t_\t_\t_\t_\t_\t_

# sent_id = 2
1-2\twon't\t_\t_\t_\t_\t_\t_\t_\t_
1\two\t_\t_\t_\t_\t_\t_\t_\t_
2\tn't\t_\t_\t_\t_\t_\t_\t_\t_
3\tgo\t_\t_\t_\t_\t_\t_\t_\t_
3.1\tgo\t_\t_\t_\t_\t_\t_\t_\t_
4\thome
";

fn columns(line: &str) -> Vec<&str> {
    line.split('\t').collect()
}

#[test]
fn fills_upos_and_passes_everything_else_through() {
    let output = morgue_with_stdin(&["tag", "--lang", "en"], INPUT.as_bytes());
    assert!(output.status.success(), "{}", stderr(&output));
    let out = stdout(&output);
    let (inputs, outputs): (Vec<&str>, Vec<&str>) =
        (INPUT.lines().collect(), out.lines().collect());
    assert_eq!(inputs.len(), outputs.len(), "{out}");
    for (input, output) in inputs.iter().zip(&outputs) {
        let id = input.split('\t').next().unwrap_or_default();
        if input.starts_with('#') || input.is_empty() || id.contains(['-', '.']) {
            assert_eq!(input, output);
        } else {
            let (mut expected, got) = (columns(input), columns(output));
            expected.resize(10, "_");
            assert_eq!(got.len(), 10, "{output}");
            for k in (0..10).filter(|&k| k != 3) {
                assert_eq!(got[k], expected[k], "{output}");
            }
        }
    }
    let upos: Vec<&str> = outputs
        .iter()
        .map(|line| columns(line))
        .filter(|c| c.len() == 10 && !c[0].contains(['-', '.']))
        .map(|c| c[3])
        .collect();
    assert_eq!(
        upos,
        ["DET", "NOUN", "VERB", "ADP", "NUM", "PROPN", "PUNCT", "AUX", "PART", "VERB", "ADV"]
    );
    assert!(outputs[7].ends_with("SpaceAfter=No"), "{}", outputs[7]);
}

#[test]
fn a_malformed_line_is_reported_with_its_number_and_nothing_is_lost() {
    let input = "1\tBonjour\n2\t!\n\noops no tabs\n1\tMerci\n\n1\tmaison\tmaison\n";
    let output = morgue_with_stdin(&["tag", "--lang", "fr"], input.as_bytes());
    assert!(!output.status.success());
    let err = stderr(&output);
    let last = err.lines().last().unwrap_or_default();
    assert!(last.starts_with("error: line 4: "), "{err}");
    assert!(last.contains("ID and FORM"), "{err}");
    let out = stdout(&output);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 7, "{out}");
    assert_eq!(lines[3], "oops no tabs");
    assert_eq!(columns(lines[4])[1], "Merci");
    assert_eq!(columns(lines[4])[3], "INTJ");
    assert_eq!(columns(lines[6])[3], "NOUN", "the last sentence is tagged too");
}

#[test]
fn counts_the_malformed_lines_beyond_the_first() {
    let output = morgue_with_stdin(&["tag", "--lang", "de"], b"x\ty\n0\tnull\n1-x\tz\n");
    assert!(!output.status.success());
    let err = stderr(&output);
    assert!(err.contains("error: line 1: bad ID \"x\""), "{err}");
    assert!(err.contains("(and 2 more malformed lines)"), "{err}");
    assert_eq!(stdout(&output), "x\ty\n0\tnull\n1-x\tz\n");
}

#[test]
fn languages_without_a_model_use_the_fallback() {
    let input = "1\tIl\n2\tgoverno\n3\tdi\n4\tRoma\n5\t.\n";
    let output = morgue_with_stdin(&["tag", "--lang", "it"], input.as_bytes());
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).contains("no tagger model for \"it\""), "{}", stderr(&output));
    let upos: Vec<String> =
        stdout(&output).lines().map(|line| columns(line)[3].to_owned()).collect();
    assert_eq!(upos, ["DET", "NOUN", "ADP", "PROPN", "PUNCT"]);
}

#[test]
fn crlf_bytes_and_a_missing_final_newline() {
    let input = b"# caf\xe9\r\n1\tNo\xffel\r\n2\tarrive\r\n\r\n1\tFin";
    let output = morgue_with_stdin(&["tag", "--lang", "fr"], input);
    assert!(output.status.success(), "{}", stderr(&output));
    let out = stdout(&output);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert_eq!(lines[0], "# caf\u{fffd}");
    assert_eq!(lines[3], "");
    assert_eq!(columns(lines[4])[1], "Fin");
}

#[test]
fn a_large_input_stays_in_order() {
    let input: String = (0..5_000)
        .map(|i| format!("# sent_id = {i}\n1\tSentence\n2\tnumber\n3\t{i}\n4\t.\n\n"))
        .collect();
    let output = morgue_with_stdin(&["tag", "--lang", "en"], input.as_bytes());
    assert!(output.status.success(), "{}", stderr(&output));
    let out = stdout(&output);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 30_000);
    assert_eq!(lines[6 * 4321], "# sent_id = 4321");
    assert_eq!(columns(lines[6 * 4321 + 3])[1], "4321");
    assert_eq!(columns(lines[6 * 4321 + 3])[3], "NUM");
}
