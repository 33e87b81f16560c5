//! Tests of [`super::shared`]: what equal texts share, and that a shared
//! read decodes as a plain one.

use std::sync::Arc;

use super::shared::from_slice_shared;
use super::{Interner, Job, Shared, from_slice};

/// Reads `texts` as jobs with sharing on one interner, as the reader does.
fn read(texts: &[&str]) -> Vec<Job> {
    let interner = Arc::new(Interner::default());
    Interner::install(&interner, || {
        texts
            .iter()
            .map(|t| from_slice_shared::<Job>(t.as_bytes()).unwrap())
            .collect()
    })
}

fn job(image: &str, count: u32, env: &str) -> String {
    format!(
        r#"{{"ID": "web", "TaskGroups": [
            {{"Name": "api", "Count": {count}, "Tasks": [
                {{"Name": "app", "Config": {{"image": "{image}"}}, "Env": {env}}},
                {{"Name": "log", "Config": {{"image": "fluent"}}, "Env": null}}]}},
            {{"Name": "db", "Count": 1, "Tasks": [{{"Name": "pg", "Config": {{"image": "pg"}}}}]}}]}}"#
    )
}

#[test]
fn equal_texts_share_one_part_and_different_ones_do_not() {
    let v1 = job("app:1", 3, r#"{"A": "1"}"#);
    let v2 = job("app:2", 3, r#"{"A": "1"}"#);
    let v3 = job("app:2", 4, r#"{"A": "1"}"#);
    let jobs = read(&[&v1, &v2, &v3, &v3]);
    let group = |j: usize, g: usize| &jobs[j].task_groups[g];
    let task = |j: usize, t: usize| &group(j, 0).tasks[t];
    // The unchanged group, and the unchanged task of a changed group.
    assert!(Shared::ptr_eq(group(0, 1), group(1, 1)));
    assert!(Shared::ptr_eq(task(0, 1), task(1, 1)));
    // A changed task and group are their own.
    assert!(!Shared::ptr_eq(task(0, 0), task(1, 0)));
    assert!(!Shared::ptr_eq(group(0, 0), group(1, 0)));
    // A group differing only in its count still shares its tasks.
    assert!(!Shared::ptr_eq(group(1, 0), group(2, 0)));
    assert!(Shared::ptr_eq(task(1, 0), task(2, 0)));
    assert!(Shared::ptr_eq(group(2, 0), group(3, 0)));
    // Opaque blocks are shared across different tasks.
    assert!(std::ptr::eq(task(0, 0).env.json(), task(1, 0).env.json()));
    assert_eq!(
        task(0, 0).config.get("image").unwrap().as_str(),
        Some("app:1")
    );
    assert_eq!(
        task(1, 0).config.get("image").unwrap().as_str(),
        Some("app:2")
    );
    assert_eq!((group(1, 0).count, group(2, 0).count), (3, 4));
}

#[test]
fn a_shared_read_decodes_as_a_plain_one() {
    let texts = [
        job("app:1", 3, r#"{"A": "1", "B": null}"#),
        job("app:1", 0, "null"),
        r#"{"ID": "x", "TaskGroups": [null, {"Name": "g", "Tasks": [null, {"Name": "t",
            "Templates": [], "Config": {"z": 1, "a": [null, {}]}}],
            "EphemeralDisk": {"SizeMB": 300}, "Meta": {"k": "v"}}], "Affinities": []}"#
            .to_string(),
    ];
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    for (shared, text) in read(&refs).iter().zip(&texts) {
        let plain: Job = from_slice(text.as_bytes()).unwrap();
        assert_eq!(format!("{shared:?}"), format!("{plain:?}"));
    }
}

#[test]
fn without_an_interner_or_outside_a_shared_read_nothing_is_kept() {
    let text = job("app:1", 3, "{}");
    let a: Job = from_slice_shared(text.as_bytes()).unwrap();
    let b: Job = from_slice_shared(text.as_bytes()).unwrap();
    assert!(!Shared::ptr_eq(&a.task_groups[1], &b.task_groups[1]));
    let interner = Arc::new(Interner::default());
    Interner::install(&interner, || {
        let a: Job = from_slice(text.as_bytes()).unwrap();
        let b: Job = from_slice(text.as_bytes()).unwrap();
        assert!(!Shared::ptr_eq(&a.task_groups[1], &b.task_groups[1]));
    });
}

#[test]
fn a_bad_part_fails_the_shared_read() {
    let bad = r#"{"ID": "x", "TaskGroups": [{"Name": "g", "Count": -1}]}"#;
    let interner = Arc::new(Interner::default());
    let err = Interner::install(&interner, || from_slice_shared::<Job>(bad.as_bytes()));
    assert!(err.unwrap_err().to_string().contains("negative"));
}

#[test]
fn a_changed_part_is_copied_first() {
    let text = job("app:1", 3, "{}");
    let mut jobs = read(&[&text, &text]);
    jobs[1].task_groups[0].count = 9;
    assert_eq!(jobs[0].task_groups[0].count, 3);
    assert!(Shared::ptr_eq(
        &jobs[0].task_groups[1],
        &jobs[1].task_groups[1]
    ));
}

#[test]
fn parts_whose_texts_differ_only_in_what_the_model_drops_share_one_copy() {
    let with_tags = |tags: &str| {
        format!(
            r#"{{"ID": "web", "TaskGroups": [{{"Name": "api", "Count": 2,
                "Services": [{{"Name": "api", "Tags": [{tags}]}}],
                "Tasks": [{{"Name": "app", "Config": {{"image": "a"}}}}]}}]}}"#
        )
    };
    let jobs = read(&[
        &with_tags(r#""v1""#),
        &with_tags(r#""v2""#),
        &with_tags(r#""v2", "x""#).replace(r#""Count": 2"#, r#""Count": 3"#),
    ]);
    assert!(Shared::ptr_eq(
        &jobs[0].task_groups[0],
        &jobs[1].task_groups[0]
    ));
    assert!(!Shared::ptr_eq(
        &jobs[1].task_groups[0],
        &jobs[2].task_groups[0]
    ));
    assert_eq!(jobs[2].task_groups[0].count, 3);
    assert_eq!(jobs[1].task_groups[0].services[0].name, "api");
}
