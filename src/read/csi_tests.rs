//! The `CSIVolumes` and `CSIPlugins` tables, through both walks.

use serde_json::json;

use super::*;

fn both(text: &str) -> [Snapshot; 2] {
    [
        read_snapshot_from(text.as_bytes(), "snap.json").unwrap(),
        exact(text.as_bytes(), "snap.json", &ReadFilter::default()).unwrap(),
    ]
}

#[test]
fn csi_tables_are_read_by_both_walks_and_null_is_absent() {
    let text = json!({
        "Allocs": [],
        "CSIPlugins": [{"ID": "aws-ebs", "ControllerRequired": true, "ControllersHealthy": 1,
                        "NodesHealthy": 3, "Nodes": {"n1": {"Healthy": true}}}],
        "CSIVolumes": [
            {"ID": "data[0]", "Namespace": "default", "PluginID": "aws-ebs",
             "AccessMode": "single-node-writer", "AttachmentMode": "file-system",
             "Schedulable": true, "ResourceExhausted": "0001-01-01T00:00:00Z",
             "Topologies": [{"Segments": {"zone": "a"}}, null],
             "ReadAllocs": {}, "WriteAllocs": {"alloc-1": null},
             "MountOptions": {"FSType": "ext4"}},
            {"ID": "data[0]", "Namespace": "default", "PluginID": "aws-ebs",
             "WriteAllocs": {"alloc-2": null}},
            {"ID": "data[0]", "Namespace": "other", "PluginID": "aws-ebs", "WriteAllocs": null}
        ],
        "Jobs": [], "Nodes": []
    })
    .to_string();
    for s in both(&text) {
        let volumes = s.csi_volumes.as_ref().unwrap();
        // The last of a duplicate is kept, with a warning.
        assert_eq!(volumes.len(), 2);
        let default = volumes.iter().find(|v| v.namespace == "default").unwrap();
        assert_eq!(default.writers().iter().collect::<Vec<_>>(), ["alloc-2"]);
        let other = volumes.iter().find(|v| v.namespace == "other").unwrap();
        assert!(other.write_allocs.is_none() && other.writers().is_empty());
        let plugins = s.csi_plugins.as_ref().unwrap();
        assert!(plugins[0].controller_required && plugins[0].nodes_healthy == 3);
        assert!(s.warnings.iter().any(|w| w.code == "duplicate_csi"));
    }
    let null = json!({"Jobs": [], "CSIVolumes": null}).to_string();
    for s in both(&null) {
        assert!(s.csi_volumes.is_none() && s.csi_plugins.is_none());
    }
    let empty = json!({"Jobs": [], "CSIVolumes": []}).to_string();
    for s in both(&empty) {
        assert_eq!(s.csi_volumes.as_ref().map(Vec::len), Some(0));
    }
}

#[test]
fn a_bad_csi_volume_names_its_path() {
    let text = json!({"Jobs": [], "CSIVolumes": [{"ID": 7}]}).to_string();
    let e = read_snapshot_from(text.as_bytes(), "snap.json")
        .unwrap_err()
        .to_string();
    assert!(e.contains("CSIVolumes[0]"), "{e}");
}
