//! The judge-votes release format of Li, Yu & Li 2026 ("How Many Humans Is a Judge Panel Worth?"):
//! one JSONL file per judge, one line per item, `{"uid": …, "label": …, "parse_fail": …}`; a folder
//! of them is a panel. Turned into long-format CSV text (`item_id,annotator_id,label`, the judge's
//! name as the annotator) so the one long-format importer validates it like any other vote file.
//! Lines with `parse_fail: true` or no label are left out and counted.

use serde::Deserialize;

#[derive(Deserialize)]
struct Line {
    uid: serde_json::Value,
    #[serde(default)]
    label: Option<serde_json::Value>,
    #[serde(default)]
    parse_fail: Option<bool>,
}

/// What reading a panel found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PanelReport {
    /// Per judge (file name without `.jsonl`): labels kept and lines left out as parse failures.
    pub judges: Vec<(String, usize, usize)>,
}

impl PanelReport {
    pub fn parse_failures(&self) -> usize {
        self.judges.iter().map(|j| j.2).sum()
    }
}

/// A JSON scalar as text: strings as they are, numbers as written (1, 2 for αNLI's hypotheses).
fn scalar(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::String(s) => Some(s.trim().to_string()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        serde_json::Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('"', "\"\""))
}

/// Long-format CSV of a panel: `judges` are (name, file bytes). Errors name the judge and line.
pub fn panel_to_long_csv(judges: &[(String, Vec<u8>)]) -> Result<(String, PanelReport), String> {
    if judges.is_empty() {
        return Err("no judge files: a panel is a folder of <judge>.jsonl files".into());
    }
    let mut out = String::from("item_id,annotator_id,label\n");
    let mut report = PanelReport::default();
    for (name, bytes) in judges {
        let text = std::str::from_utf8(bytes).map_err(|_| format!("{name}: not UTF-8 text"))?;
        let (mut kept, mut failed) = (0, 0);
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let l: Line = serde_json::from_str(line).map_err(|e| {
                format!("{name}, line {}: not a judge-vote line ({e}); each line needs `uid` and `label`", i + 1)
            })?;
            let uid = scalar(&l.uid).filter(|u| !u.is_empty()).ok_or_else(|| {
                format!(
                    "{name}, line {}: `uid` is empty or not a string or number",
                    i + 1
                )
            })?;
            match (
                l.parse_fail.unwrap_or(false),
                l.label.as_ref().and_then(scalar),
            ) {
                (false, Some(label)) if !label.is_empty() => {
                    out.push_str(&format!(
                        "{},{},{}\n",
                        quote(&uid),
                        quote(name),
                        quote(&label)
                    ));
                    kept += 1;
                }
                _ => failed += 1,
            }
        }
        report.judges.push((name.clone(), kept, failed));
    }
    if report.judges.iter().all(|j| j.1 == 0) {
        return Err("the judge files hold no usable label (every line failed to parse)".into());
    }
    Ok((out, report))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::{parse_votes, ImportOptions};

    #[test]
    fn a_panel_becomes_long_votes_with_parse_failures_counted() {
        let a = br#"{"uid": "i1", "label": "e", "parse_fail": false}
{"uid": "i2", "label": "c", "parse_fail": false}
{"uid": "i3", "label": null, "parse_fail": true}
"#;
        let b = b"{\"uid\": \"i1\", \"label\": \"n\"}\n{\"uid\": \"i2\", \"label\": \"c\", \"parse_fail\": false}\n";
        let (csv, report) = panel_to_long_csv(&[
            ("judge-a".into(), a.to_vec()),
            ("judge,b".into(), b.to_vec()),
        ])
        .unwrap();
        assert_eq!(
            report.judges,
            vec![("judge-a".into(), 2, 1), ("judge,b".into(), 2, 0)]
        );
        assert_eq!(report.parse_failures(), 1);
        let (t, _) = parse_votes(csv.as_bytes(), &ImportOptions::default()).unwrap();
        assert_eq!(t.classes(), ["c", "e", "n"]);
        assert_eq!(t.item_ids(), ["i1", "i2"]);
        assert_eq!(t.counts(0), [0, 1, 1]);
        assert_eq!(t.counts(1), [2, 0, 0]);
        assert_eq!(t.annotator_ids().len(), 2);
    }

    #[test]
    fn broken_judge_files_are_named() {
        let e = panel_to_long_csv(&[("j".into(), b"{\"label\": \"e\"}\n".to_vec())]).unwrap_err();
        assert!(e.contains("j, line 1"), "{e}");
        let e =
            panel_to_long_csv(&[("j".into(), b"{\"uid\": 1, \"parse_fail\": true}\n".to_vec())])
                .unwrap_err();
        assert!(e.contains("no usable label"), "{e}");
        assert!(panel_to_long_csv(&[]).is_err());
    }
}
