use super::*;

fn parse(s: &str) -> Result<(VoteTable, ImportReport), ImportError> {
    parse_votes(s.as_bytes(), &ImportOptions::default())
}

fn err(s: &str) -> ImportError {
    parse(s).expect_err("should fail")
}

#[test]
fn wide_with_bom_crlf_quotes_and_delimiters() {
    for (src, d) in [
        ("\u{feff}item_id,a,b\r\n\"x,1\",1,2\r\ny,0,3\r\n", b','),
        ("item_id;a;b\nx,1;1;2\ny;0;3\n", b';'),
        ("item_id\ta\tb\nx,1\t1\t2\ny\t0\t3\n", b'\t'),
    ] {
        let (t, rep) = parse(src).unwrap();
        assert_eq!(rep.delimiter, d);
        assert_eq!(rep.format, Format::Wide);
        assert_eq!(t.classes(), ["a", "b"]);
        assert_eq!(t.item_ids(), ["x,1", "y"]);
        assert_eq!(t.counts(0), [1, 2]);
        assert_eq!(t.total(1), 3);
    }
}

#[test]
fn long_format_keeps_annotators_and_sorts_classes() {
    let (t, rep) =
        parse("item_id,annotator_id,label\ni1,w1,5\ni1,w2,10\ni2,w1,5\ni2,w3,2\n").unwrap();
    assert_eq!(rep.format, Format::Long);
    assert_eq!(
        t.classes(),
        ["2", "5", "10"],
        "numeric labels sort numerically"
    );
    assert_eq!(t.counts(0), [0, 1, 1]);
    assert_eq!(t.counts(1), [1, 1, 0]);
    assert_eq!(t.annotations().len(), 4);
    assert_eq!(t.annotator_ids(), ["w1", "w2", "w3"]);
}

#[test]
fn numeric_class_names_with_an_id_column_are_a_header() {
    let (t, _) = parse("item_id,0,1\nx,3,4\n").unwrap();
    assert_eq!(t.classes(), ["0", "1"]);
}

#[test]
fn integral_decimals_accepted() {
    let (t, _) = parse("item_id,a,b\nx,3.0,1\n").unwrap();
    assert_eq!(t.counts(0), [3, 1]);
}

/// (input, expected line, expected column, check of the kind)
type Case = (
    &'static str,
    Option<u64>,
    Option<usize>,
    fn(&ImportErrorKind) -> bool,
);

#[test]
fn every_error_names_position_and_fix() {
    use ImportErrorKind as K;
    let cases: Vec<Case> = vec![
        ("", None, None, |k| *k == K::Empty),
        ("  \n\n", None, None, |k| *k == K::Empty),
        ("item_id,a,b\n", None, None, |k| *k == K::NoItems),
        ("x,3,4\ny,1,2\n", Some(1), Some(2), |k| {
            matches!(k, K::NoHeader { .. })
        }),
        ("item_id,a,b\nx,1,2\nx,3,4\n", Some(3), Some(1), |k| {
            matches!(k, K::DuplicateItem { first_line: 2, .. })
        }),
        ("item_id,a,b\nx,1,two\n", Some(2), Some(3), |k| {
            matches!(k, K::NotInteger { .. })
        }),
        ("item_id,a,b\nx,-1,2\n", Some(2), Some(2), |k| {
            matches!(k, K::Negative { .. })
        }),
        ("item_id,a,b\nx,1,2.5\n", Some(2), Some(3), |k| {
            matches!(k, K::Fractional { .. })
        }),
        ("item_id,a,b\nx,1,2,3\n", Some(2), None, |k| {
            matches!(
                k,
                K::WrongColumnCount {
                    expected: 3,
                    found: 4
                }
            )
        }),
        ("item_id,a,\nx,1,2\n", Some(1), Some(3), |k| {
            *k == K::EmptyClassName
        }),
        ("item_id,a,b\nx,0,0\n", Some(2), None, |k| {
            matches!(k, K::ZeroVotes { .. })
        }),
        ("item_id,a\nx,1\n", Some(1), None, |k| {
            matches!(k, K::FewerThanTwoClasses { found: 1 })
        }),
        (
            "item_id,annotator_id,label,a\nx,w,a,1\n",
            Some(1),
            Some(2),
            |k| matches!(k, K::MixedFormats { .. }),
        ),
        (
            "item_id,annotator_id,label\nx,w,a,3\n",
            Some(2),
            None,
            |k| matches!(k, K::MixedFormats { .. }),
        ),
        (
            "item_id,annotator_id,label\nx,w,a\ny,w,a\n",
            None,
            None,
            |k| matches!(k, K::FewerThanTwoClasses { found: 1 }),
        ),
        (
            "item_id,annotator_id,label\nx,w,\n",
            Some(2),
            Some(3),
            |k| *k == K::EmptyLabel,
        ),
        ("item_id,a,a\nx,1,2\n", Some(1), Some(3), |k| {
            matches!(k, K::DuplicateClassName(_))
        }),
        ("item_id,a,b\n,1,2\n", Some(2), Some(1), |k| {
            *k == K::EmptyItemId
        }),
        // A vote without its annotator: refused at its line and column.
        (
            "item_id,annotator_id,label\ni1,a,x\ni1,,y\n",
            Some(3),
            Some(2),
            |k| *k == K::EmptyAnnotatorId,
        ),
    ];
    for (src, line, col, check) in cases {
        let e = err(src);
        assert!(check(&e.kind), "{src:?}: got {e:?}");
        assert_eq!((e.line, e.column), (line, col), "{src:?}: {e}");
        let msg = e.to_string();
        assert!(
            msg.contains(';') || msg.contains("add") || msg.contains("give"),
            "no fix in: {msg}"
        );
    }
}

#[test]
fn too_many_classes() {
    let header: Vec<String> = (0..65).map(|i| format!("c{i}")).collect();
    let row: Vec<&str> = (0..65).map(|_| "1").collect();
    let src = format!("item_id,{}\nx,{}\n", header.join(","), row.join(","));
    assert!(matches!(
        err(&src).kind,
        ImportErrorKind::TooManyClasses { found: 65 }
    ));
}

#[test]
fn invalid_utf8_and_skip_zero_vote() {
    let e = parse_votes(b"item_id,a,b\nx\xff,1,2\n", &ImportOptions::default()).unwrap_err();
    assert_eq!(e.kind, ImportErrorKind::InvalidUtf8);
    let opts = ImportOptions {
        skip_zero_vote_items: true,
        ..Default::default()
    };
    let (t, rep) = parse_votes(b"item_id,a,b\nx,0,0\ny,1,0\n", &opts).unwrap();
    assert_eq!(t.item_ids(), ["y"]);
    assert_eq!(rep.skipped_zero_vote, ["x"]);
}

#[test]
fn text_columns_are_texts_not_classes() {
    let wide = "item_id,premise,yes,no,hypothesis\na,\"A man, sleeping.\",3,1,A person rests.\nb,Dogs run.,0,2,Cats sit.\n";
    let (t, rep) = parse_votes(wide.as_bytes(), &ImportOptions::default()).unwrap();
    assert_eq!(t.classes(), ["yes", "no"]);
    assert_eq!(t.counts(0), [3, 1]);
    assert_eq!(rep.texts.len(), 2);
    assert_eq!(rep.texts[0].name, "premise");
    assert_eq!(rep.texts[0].values, ["A man, sleeping.", "Dogs run."]);
    assert_eq!(rep.texts[1].values, ["A person rests.", "Cats sit."]);

    let long = "item_id;Text;annotator_id;label\nx;hello;1;pos\nx;;2;neg\ny;bye;1;neg\n";
    let (t, rep) = parse_votes(long.as_bytes(), &ImportOptions::default()).unwrap();
    assert_eq!(t.item_ids(), ["x", "y"]);
    assert_eq!(t.counts(0), [1, 1]);
    assert_eq!(
        rep.texts[0].values,
        ["hello", "bye"],
        "an item's first non-empty text"
    );

    let (_, rep) = parse_votes(b"item_id,a,b\nx,1,2\n", &ImportOptions::default()).unwrap();
    assert!(rep.texts.is_empty());
    // A zero-vote item skipped on request takes its text with it.
    let opts = ImportOptions {
        skip_zero_vote_items: true,
        ..Default::default()
    };
    let (_, rep) = parse_votes(b"item_id,a,b,text\nx,0,0,gone\ny,1,0,kept\n", &opts).unwrap();
    assert_eq!(rep.texts[0].values, ["kept"]);
}

#[test]
fn files_that_are_not_csv_are_named_with_what_to_do() {
    use ImportErrorKind as K;
    let what = |bytes: &[u8]| match parse_votes(bytes, &ImportOptions::default()) {
        Err(ImportError {
            kind: K::NotCsv { what, fix },
            ..
        }) => format!("{what}: {fix}"),
        other => panic!("{other:?}"),
    };
    assert!(what(&[0x1f, 0x8b, 8, 0, 1, 2]).contains("gzip"));
    assert!(what(b"PK\x03\x04\x14\x00rest").contains("CSV UTF-8"));
    assert!(what(b"\x89PNG\r\n\x1a\n....").contains("image"));
    let utf16: Vec<u8> = "item_id,a,b\nx,1,2\n"
        .encode_utf16()
        .flat_map(|u| u.to_le_bytes())
        .collect();
    assert!(what(&utf16).contains("UTF-16"), "no BOM");
    let mut bom = vec![0xff, 0xfe];
    bom.extend(&utf16);
    assert!(what(&bom).contains("iconv"));
    assert!(what(b"  {\"items\": []}").contains("JSON"));
    assert!(what(b"[1, 2]").contains("JSON"));
}

#[test]
fn excel_sep_lines_set_the_delimiter_and_keep_line_numbers() {
    let (t, r) = parse_votes(b"sep=;\nitem_id;a;b\nx;1;2\n", &ImportOptions::default()).unwrap();
    assert_eq!(
        (r.delimiter, t.num_items(), t.counts(0)),
        (b';', 1, &[1u32, 2][..])
    );
    let e = parse_votes(b"sep=;\nitem_id;a;b\nx;1;z\n", &ImportOptions::default()).unwrap_err();
    assert_eq!((e.line, e.column), (Some(3), Some(3)));
}

#[test]
fn long_values_are_cut_in_messages_and_all_zero_files_say_so() {
    let big = "9".repeat(10_000_000);
    let file = format!("item_id,a,b\nx,1,{big}\n");
    let msg = parse_votes(file.as_bytes(), &ImportOptions::default())
        .unwrap_err()
        .to_string();
    assert!(msg.len() < 400, "{} bytes", msg.len());
    assert!(msg.contains("(10000000 characters)"), "{msg}");
    let skip = ImportOptions {
        skip_zero_vote_items: true,
        ..Default::default()
    };
    let e = parse_votes(b"item_id,a,b\nx,0,0\ny,0,0\n", &skip).unwrap_err();
    assert_eq!(e.kind, ImportErrorKind::AllZeroVotes { rows: 2 });
    assert!(e.to_string().contains("all 2 item rows have zero votes"));
}

/// A reader that hands out one byte per call: the streamed parse must not depend on how the input
/// arrives (the app reads a `File` in slices).
struct Trickle<'a>(&'a [u8]);

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match (self.0.split_first(), buf.first_mut()) {
            (Some((b, rest)), Some(slot)) => {
                *slot = *b;
                self.0 = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

#[test]
fn streamed_input_parses_as_the_whole_slice() {
    let files: [&[u8]; 4] = [
        b"\xEF\xBB\xBFitem_id;a;b\r\nx;1;2\r\ny;0;3\r\n",
        b"sep=\t\nitem_id\ta\tb\nx\t1\t2\n",
        b"item_id,annotator_id,label,text\nq,w1,a,\"multi\nline\"\nq,w2,b,\nr,w1,b,t\n",
        b"item_id,a,b\nx,1,2\nx,3,4\n",
    ];
    let opts = ImportOptions::default();
    for f in files {
        let whole = parse_votes(f, &opts);
        let streamed = parse_votes_from(Trickle(f), f.len(), &opts, &mut |_| {});
        assert_eq!(whole, streamed, "{}", String::from_utf8_lossy(f));
    }
    // A header past the first 64 KiB read for sniffing still parses.
    let mut long_header = b"item_id".to_vec();
    for i in 0..20_000 {
        long_header.extend(format!(",c{i}").as_bytes());
    }
    let e = parse_votes_from(Trickle(&long_header), long_header.len(), &opts, &mut |_| {});
    assert!(matches!(
        e.unwrap_err().kind,
        ImportErrorKind::TooManyClasses { .. }
    ));
}

#[test]
fn the_item_limit_stops_reading_at_the_first_item_past_it() {
    let opts = ImportOptions {
        max_items: Some(2),
        ..Default::default()
    };
    assert!(parse_votes(b"item_id,a,b\nx,1,2\ny,0,3\n", &opts).is_ok());
    let e = parse_votes(b"item_id,a,b\nx,1,2\ny,0,3\nz,1,1\nbad,-1,x\n", &opts).unwrap_err();
    assert_eq!(e.line, Some(4));
    assert!(e.to_string().contains("more than 2 items"), "{e}");
    assert!(e.to_string().contains("annosat curves"), "{e}");
    // Long format counts distinct items, not rows.
    let long = b"item_id,annotator_id,label\nx,1,a\nx,2,b\ny,1,a\ny,2,a\nz,1,b\n";
    let e = parse_votes(long, &opts).unwrap_err();
    assert_eq!(e.line, Some(6));
    assert!(matches!(e.kind, ImportErrorKind::TooManyItems { limit: 2 }));
    assert_eq!(thousands(2_000_000), "2,000,000");
    assert_eq!(thousands(999), "999");
}

#[test]
fn the_earliest_repeated_item_is_named_with_its_first_line() {
    let e = parse_votes(
        b"item_id,a,b\nq,1,1\nx,1,1\ny,1,1\nx,2,2\nq,3,3\nx,1,0\n",
        &ImportOptions::default(),
    )
    .unwrap_err();
    assert_eq!(e.line, Some(5));
    assert_eq!(
        e.kind,
        ImportErrorKind::DuplicateItem {
            id: "x".into(),
            first_line: 3
        }
    );
}

#[test]
fn multilabel_votes_are_refused_with_what_showed_it() {
    // Long: one annotator with two different labels on one item.
    let e = err("item_id,annotator_id,label\ni1,w1,treats\ni1,w1,causes\ni1,w2,treats\n");
    match &e.kind {
        ImportErrorKind::Multilabel { evidence } => {
            assert!(
                evidence.contains("w1") && evidence.contains("i1"),
                "{evidence}"
            );
            assert!(
                evidence.contains("causes") && evidence.contains("treats"),
                "{evidence}"
            );
        }
        k => panic!("{k:?}"),
    }
    assert!(e.to_string().contains("multilabel"));
    // Wide: a 0/1 row per (item, annotator) under the label columns.
    let e = err("item_id,annotator_id,treats,causes\ni1,w1,1,1\ni1,w2,0,1\n");
    assert!(matches!(e.kind, ImportErrorKind::Multilabel { .. }), "{e}");
    // Single-label long votes still read, also with an identical repeated row.
    let (t, _) = parse("item_id,annotator_id,label\ni1,w1,a\ni1,w2,b\ni2,w1,a\ni2,w1,a\n").unwrap();
    assert_eq!((t.num_items(), t.total(1)), (2, 2));
}
