//! The hand-written allocation reader against serde's: whatever it reads,
//! it reads as serde does, and what it does not read it leaves to serde.

use proptest::prelude::*;
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, forward_to_deserialize_any};

use super::alloc_decode::{KEYS, decode, field_of};
use super::alloc_record::FastRecord;
use super::job_texts::JobTexts;
use super::lexeme::skip_value;
use super::scan::{JobSpan, Scan, scan};
use crate::model::{Allocation, GoJson, Job, from_slice};

/// An allocation as Nomad writes it (without its job), with every block
/// the reader keeps; newlines only between members.
const RECORD: &str = r#"{"ID":"0008c45b-7587-48e1-887e-19c5e0bd1947","Namespace":"default",
"EvalID":"bf5a7a94-1e88-499d-8231-c4443437b9af","Name":"edge-svc-04.web[12175]",
"NodeID":"de53eda5-29dc-4572-8d56-9988c7eb7301","NodeName":"ip-10-0-15-186",
"JobID":"edge-svc-04","TaskGroup":"web","Resources":{"CPU":500,"Cores":0,"MemoryMB":1408,
"MemoryMaxMB":0,"DiskMB":300,"IOPS":0,"Networks":null,"Devices":null},"SharedResources":{"CPU":0,
"Cores":0,"MemoryMB":0,"MemoryMaxMB":0,"DiskMB":300,"IOPS":0,"Networks":[{"Mode":"bridge",
"Device":"","CIDR":"","IP":"10.86.75.76","Hostname":"","MBits":0,"DNS":null,"ReservedPorts":null,
"DynamicPorts":[{"Label":"http","Value":27885,"To":8080,"HostNetwork":"default"}]}],
"Devices":null},"TaskResources":{"app":{"CPU":100,"MemoryMB":256}},
"AllocatedResources":{"Tasks":{"app":{"Cpu":{"CpuShares":350,"ReservedCores":null},
"Memory":{"MemoryMB":64,"MemoryMaxMB":0},"Networks":null,"Devices":null}},"TaskLifecycles":null,
"Shared":{"Networks":null,"DiskMB":300,"Ports":null}},"Metrics":{"NodesEvaluated":2129,
"NodesFiltered":1,"NodesAvailable":{"dc1":252,"dc2":4553},"ClassFiltered":null,
"ConstraintFiltered":null,"NodesExhausted":2,"ClassExhausted":null,"DimensionExhausted":null,
"QuotaExhausted":null,"ResourcesExhausted":null,"Scores":null,
"ScoreMetaData":[{"NodeID":"de53eda5-29dc-4572-8d56-9988c7eb7301","Scores":{"binpack":0.809,
"job-anti-affinity":-0.75,"node-affinity":0,"node-reschedule-penalty":0},"NormScore":0.4045}],
"AllocationTime":903422,"CoalescedFailures":2},"DesiredStatus":"run","DesiredDescription":"",
"DesiredTransition":{"Migrate":null,"Reschedule":null,"ForceReschedule":null},
"ClientStatus":"unknown","ClientDescription":"","TaskStates":{"app":{"State":"running",
"Failed":false,"Restarts":0,"LastRestart":"0001-01-01T00:00:00Z",
"StartedAt":"2022-03-31T07:32:29Z","FinishedAt":"0001-01-01T00:00:00Z",
"Events":[{"Type":"Received","Time":1648711921000000000,"Message":"Task received by client",
"DisplayMessage":"Task received by client","Details":{}},{"Type":"Task Setup",
"Time":1648711922000000000,"Message":"Building Task Directory",
"DisplayMessage":"Building Task Directory",
"Details":{"message":"Building Task Directory"}},{"Type":"Reconnected",
"Time":1648711950000000000,"Message":"","DisplayMessage":"","Details":{}}]}},
"AllocStates":[{"Field":0,"Value":"unknown","Time":"2022-03-31T08:02:00Z"},{"Field":0,
"Value":"running","Time":"2022-03-31T08:22:00Z"}],
"PreviousAllocation":"6b986091-aa2b-4ebf-8e6c-8ea8cff56d12","NextAllocation":"",
"DeploymentID":"0f34739c-00af-44a0-8884-6291e72871b0","DeploymentStatus":{"Healthy":null,
"Timestamp":"2022-03-31T07:34:00Z","Canary":false,"ModifyIndex":113824},
"RescheduleTracker":{"Events":[{"RescheduleTime":1648710240000000000,
"PrevAllocID":"775f2509-6d26-4469-885f-a396e0a0c23f",
"PrevNodeID":"ea73f963-f883-4ed2-8958-4a70462fa2d1",
"Delay":30000000000},{"RescheduleTime":1648710660000000000,
"PrevAllocID":"e93a1eea-c28a-4a6e-81ad-39222b978a64",
"PrevNodeID":"6d591064-94a6-45c8-89cc-d0ad884451c3","Delay":60000000000}]},
"NetworkStatus":{"InterfaceName":"eth0","Address":"172.22.138.70","DNS":null},
"FollowupEvalID":"3833d5b7-0d13-4055-8d15-d778ccdad6ff","PreemptedAllocations":null,
"PreemptedByAllocation":"","CreateIndex":423824,"ModifyIndex":425039,"AllocModifyIndex":423824,
"CreateTime":1648711920000000000,"ModifyTime":1648716000000000000,"JobVersion":3}"#;

fn record() -> String {
    RECORD.replace('\n', "")
}

/// The allocation serde reads at the start of `bytes`, shown, and its length.
fn by_serde(bytes: &[u8]) -> Option<(String, usize)> {
    let mut values = serde_json::Deserializer::from_slice(bytes).into_iter::<GoJson<FastRecord>>();
    match values.next() {
        Some(Ok(GoJson(FastRecord(r)))) if r.job.is_none() => {
            Some((format!("{:?}", r.alloc), values.byte_offset()))
        }
        _ => None,
    }
}

/// The allocation the hand-written reader reads, shown, and its length.
fn by_hand(bytes: &[u8]) -> Option<(String, usize)> {
    decode(bytes, None, None).map(|(a, len)| (format!("{a:?}"), len))
}

/// `text` with the member `"key":value` of the record replaced by `member`.
fn with_member(text: &str, key: &str, member: &str) -> String {
    let from = text.find(&format!(r#""{key}":"#)).unwrap();
    let end = skip_value(text.as_bytes(), from + key.len() + 3).unwrap();
    format!("{}{member}{}", &text[..from], &text[end..])
}

#[test]
fn every_field_reads_as_serde_reads_it() {
    let base = record();
    let pretty =
        serde_json::to_string_pretty(&serde_json::from_str::<serde_json::Value>(&base).unwrap())
            .unwrap();
    let legacy = with_member(&base, "AllocatedResources", r#""AllocatedResources":null"#);
    let mut texts = vec![
        base.clone(),
        pretty,
        legacy,
        "{}".to_string(),
        "{ }".to_string(),
    ];
    for key in KEYS.iter().filter(|k| **k != "Job") {
        texts.push(with_member(&base, key, &format!(r#""{key}":null"#)));
        texts.push(with_member(&base, key, r#""Unread":[1,{"a":"\u00e9"}]"#));
    }
    texts.push(format!(r#"{{"Job":null,{}"#, &base[1..]));
    for text in &texts {
        let hand = by_hand(text.as_bytes());
        assert!(hand.is_some(), "{text}");
        assert_eq!(hand, by_serde(text.as_bytes()), "{text}");
    }
    let with_legacy = by_hand(texts[2].as_bytes()).unwrap().0;
    assert!(with_legacy.contains("legacy: Some"), "{with_legacy}");
}

#[test]
fn a_name_of_nomad_s_form_is_kept_as_its_index_by_both_readers() {
    let base = record();
    // `Name` comes before `JobID` and `TaskGroup` in Go's order: the name is
    // judged once both are read.
    let read = |text: &str| {
        let (hand, _) = decode(text.as_bytes(), None, None).unwrap();
        let serde = serde_json::from_str::<GoJson<FastRecord>>(text)
            .unwrap()
            .0
            .0
            .alloc;
        assert_eq!(format!("{hand:?}"), format!("{serde:?}"), "{text}");
        (hand.name.index(), hand.name().to_string(), hand.index())
    };
    assert_eq!(
        read(&base),
        (Some(12175), "edge-svc-04.web[12175]".into(), 12175)
    );
    for (name, index) in [
        ("edge-svc-04.web[012]", 12),
        ("edge-svc-04.api[3]", 3),
        ("other.web[3]", 0),
        ("edge-svc-04.web", 0),
    ] {
        let text = with_member(&base, "Name", &format!(r#""Name":"{name}""#));
        assert_eq!(read(&text), (None, name.to_string(), index), "{name}");
    }
    let unnamed = with_member(&base, "Name", r#""Name":null"#);
    assert_eq!(read(&unnamed), (None, String::new(), 0));
}

#[test]
fn blocks_past_the_checked_window_read_the_same() {
    // Event lists of several kilobytes, with a two-byte character at every
    // offset near the window's end, and a record that ends the input.
    let event = r#"{"Type":"Driver","Time":1,"Message":"é","DisplayMessage":"x","Details":{}},"#;
    for pad in [0, 1, 2, 3, 4000, 4001, 4090, 4095, 9000] {
        let padding = "x".repeat(pad);
        let events = event.repeat(120);
        let text = record().replacen(
            r#""Events":[{"Type":"Received""#,
            &format!(
                r#""Events":[{{"Type":"Pad","Time":0,"Message":"{padding}"}},{events}{{"Type":"Received""#
            ),
            1,
        );
        let read = by_hand(text.as_bytes());
        assert!(read.is_some(), "{pad}");
        assert_eq!(read, by_serde(text.as_bytes()), "{pad}");
        let bad = text.replacen(r#""Type":"Reconnected""#, r#""Type":"Reconnected",,"#, 1);
        assert_eq!(by_hand(bad.as_bytes()), None, "{pad}");
    }
}

/// The test record with `JOB` embedded, and the span the scan finds it at.
fn with_job() -> (String, JobSpan) {
    let text = record().replacen(r#""TaskGroup""#, &format!(r#""Job":{JOB},"TaskGroup""#), 1);
    let Scan::Job(span) = scan(text.as_bytes(), &JobTexts::default()) else {
        panic!("no job");
    };
    (text, span)
}

const JOB: &str = r#"{"ID":"edge-svc-04","Version":3,"TaskGroups":[{"Name":"web"}]}"#;

#[test]
fn the_job_the_scan_found_is_stepped_over() {
    let (text, span) = with_job();
    let (alloc, len) = decode(text.as_bytes(), Some(&span), None).unwrap();
    assert_eq!(len, text.len());
    let spliced = text.replacen(JOB, "null", 1);
    assert_eq!(
        Some((format!("{alloc:?}"), spliced.len())),
        by_serde(spliced.as_bytes())
    );
    // A second `Job`, or none where the scan found one, is serde's to say.
    let twice = format!("{},\"Job\":null}}", &text[..text.len() - 1]);
    assert!(decode(twice.as_bytes(), Some(&span), None).is_none());
    assert!(decode(spliced.as_bytes(), Some(&span), None).is_none());
    assert!(decode(text.as_bytes(), None, None).is_none());
}

#[test]
fn names_are_the_owner_job_s_only_when_the_texts_are_equal() {
    let (text, span) = with_job();
    let (alone, _) = decode(text.as_bytes(), Some(&span), None).unwrap();
    for (id, namespace) in [
        (alone.job_id.as_str(), alone.namespace.as_str()),
        ("other", "ops"),
    ] {
        let owner: Job =
            from_slice(format!(r#"{{"ID":"{id}","Namespace":"{namespace}"}}"#).as_bytes()).unwrap();
        let (alloc, _) = decode(text.as_bytes(), Some(&span), Some(&owner)).unwrap();
        assert_eq!(alloc.job_id, alone.job_id);
        assert_eq!(alloc.namespace, alone.namespace);
        let shared = alloc.job_id.as_str().as_ptr() == owner.id.as_str().as_ptr();
        assert_eq!(shared, id == alone.job_id.as_str(), "{id}");
    }
}

#[test]
fn what_it_is_not_sure_of_is_left_to_serde() {
    for text in [
        r#"{"ID":"a","ID":"b"}"#,
        r#"{"\u0049D":"a"}"#,
        r#"{"ID":"a\"b"}"#,
        r#"{"ID":5}"#,
        r#"{"CreateIndex":1.0}"#,
        r#"{"CreateIndex":-1}"#,
        r#"{"ModifyTime":-0}"#,
        r#"{"ID":"a",}"#,
        r#"{"ID":"a""#,
        r#"{"Other":[1,2}"#,
        "[]",
    ] {
        assert!(by_hand(text.as_bytes()).is_none(), "{text}");
    }
}

/// A deserializer that fails with the names of the struct's fields.
struct Fields;

impl<'de> Deserializer<'de> for Fields {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("not a struct"))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom(fields.join(",")))
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map enum identifier ignored_any
    }
}

#[test]
fn the_keys_read_are_the_allocations_fields_and_its_job() {
    let fields = Allocation::deserialize(Fields).err().unwrap().to_string();
    let mut fields: Vec<&str> = fields.split(',').collect();
    fields.push("Job");
    fields.sort_unstable();
    let mut keys = KEYS.to_vec();
    keys.sort_unstable();
    assert_eq!(fields, keys);
    for (i, key) in KEYS.iter().enumerate() {
        assert_eq!(field_of(key.as_bytes()), Some(i), "{key}");
    }
    for other in ["NodeName", "ModifyIndex", "CreateTime", "IDs", "id", "Jobs"] {
        assert_eq!(field_of(other.as_bytes()), None, "{other}");
    }
}

/// Bytes a mutation puts in: JSON's structure, and what breaks it.
const BYTES: &[u8] = b"{}[],:\"\\ 0-1.eEntfu\x01\xc3";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// A record with a few bytes deleted, replaced or put in reads the same
    /// by hand as by serde, or is left to serde.
    #[test]
    fn mutated_records_read_as_serde_reads_them_or_not_at_all(
        edits in prop::collection::vec((0usize..4000, 0u8..3, 0usize..BYTES.len()), 1..4)
    ) {
        let mut bytes = record().into_bytes();
        for (at, op, b) in edits {
            let at = at % bytes.len();
            match op {
                0 => { bytes.remove(at); }
                1 => bytes.insert(at, BYTES[b]),
                _ => bytes[at] = BYTES[b],
            }
            if bytes.is_empty() {
                return Ok(());
            }
        }
        if let Some(hand) = by_hand(&bytes) {
            prop_assert_eq!(Some(hand), by_serde(&bytes));
        }
    }
}
