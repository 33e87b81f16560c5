//! nomad/structs/diff_test.go `TestServicesDiff` at v1.3.0, where a
//! service has no `Cluster`, `Kind` or `Weights` yet. The services are
//! filled as today's struct has them (as a newer client would send them),
//! so the rows of fields 1.3.0 lacks must be left out by the diff itself.

use crate::model::v;

diff_cases! {
    services_rows at v(1, 3, 0);

    /// `No changes - empty`
    diff_test_go_v1_3_0_services_diff_no_changes_empty:
        [],
        [],
        true,
        r#"

        "#;

    /// `No changes`
    diff_test_go_v1_3_0_services_diff_no_changes:
        [{"@": "Service", "Name": "webapp", "PortLabel": "http"}],
        [{"@": "Service", "Name": "webapp", "PortLabel": "http"}],
        true,
        r#"

        "#;

    /// `Detect changes`
    diff_test_go_v1_3_0_services_diff_detect_changes:
        [
            {
                "@": "Service",
                "Name": "webapp",
                "PortLabel": "http",
                "AddressMode": "host",
                "Address": "a.example.com",
                "EnableTagOverride": true,
                "Tags": ["prod"],
                "CanaryTags": ["canary"]
            }
        ],
        [
            {
                "@": "Service",
                "Name": "webapp-2",
                "PortLabel": "https",
                "AddressMode": "alloc",
                "Address": "b.example.com",
                "EnableTagOverride": false,
                "Tags": ["prod", "dev"],
                "CanaryTags": ["qa"]
            }
        ],
        true,
        r#"
        Edited Service {
          Edited Address: "a.example.com" => "b.example.com"
          Edited AddressMode: "host" => "alloc"
          Edited EnableTagOverride: "true" => "false"
          Edited Name: "webapp" => "webapp-2"
          None Namespace: "" => ""
          None OnUpdate: "" => ""
          Edited PortLabel: "http" => "https"
          None Provider: "" => ""
          None TaskName: "" => ""
          Edited CanaryTags {
            Added CanaryTags: "" => "qa"
            Deleted CanaryTags: "canary" => ""
          }
          Added Tags {
            Added Tags: "" => "dev"
            None Tags: "prod" => "prod"
          }
        }
        "#;

    /// `Service added`
    diff_test_go_v1_3_0_services_diff_service_added:
        [],
        [{"@": "Service", "Name": "webapp", "PortLabel": "http"}],
        true,
        r#"
        Added Service {
          None Address: "" => ""
          None AddressMode: "" => ""
          Added EnableTagOverride: "" => "false"
          Added Name: "" => "webapp"
          None Namespace: "" => ""
          None OnUpdate: "" => ""
          Added PortLabel: "" => "http"
          None Provider: "" => ""
          None TaskName: "" => ""
        }
        "#;

    /// `Service added with same name`
    diff_test_go_v1_3_0_services_diff_service_added_with_same_name:
        [{"@": "Service", "Name": "webapp", "PortLabel": "http"}],
        [
            {"@": "Service", "Name": "webapp", "PortLabel": "https"},
            {"@": "Service", "Name": "webapp", "PortLabel": "http"}
        ],
        true,
        r#"
        Added Service {
          None Address: "" => ""
          None AddressMode: "" => ""
          Added EnableTagOverride: "" => "false"
          Added Name: "" => "webapp"
          None Namespace: "" => ""
          None OnUpdate: "" => ""
          Added PortLabel: "" => "https"
          None Provider: "" => ""
          None TaskName: "" => ""
        }
        "#;

    /// `Modify port label of service with same name`
    diff_test_go_v1_3_0_services_diff_modify_port_label_of_service_with_same_name:
        [
            {"@": "Service", "Name": "webapp", "PortLabel": "http"},
            {"@": "Service", "Name": "webapp", "PortLabel": "https"}
        ],
        [
            {"@": "Service", "Name": "webapp", "PortLabel": "https-redirect"},
            {"@": "Service", "Name": "webapp", "PortLabel": "https"}
        ],
        true,
        r#"
        Edited Service {
          None Address: "" => ""
          None AddressMode: "" => ""
          None EnableTagOverride: "false" => "false"
          None Name: "webapp" => "webapp"
          None Namespace: "" => ""
          None OnUpdate: "" => ""
          Edited PortLabel: "http" => "https-redirect"
          None Provider: "" => ""
          None TaskName: "" => ""
        }
        "#;

    /// `Modify similar services`
    diff_test_go_v1_3_0_services_diff_modify_similar_services:
        [
            {"@": "Service", "Name": "webapp", "PortLabel": "http", "Tags": ["prod"]},
            {"@": "Service", "Name": "webapp", "PortLabel": "http", "Tags": ["dev"]}
        ],
        [
            {"@": "Service", "Name": "webapp", "PortLabel": "http", "Tags": ["prod", "qa"]},
            {"@": "Service", "Name": "webapp", "PortLabel": "http", "Tags": ["dev"]}
        ],
        true,
        r#"
        Edited Service {
          None Address: "" => ""
          None AddressMode: "" => ""
          None EnableTagOverride: "false" => "false"
          None Name: "webapp" => "webapp"
          None Namespace: "" => ""
          None OnUpdate: "" => ""
          None PortLabel: "http" => "http"
          None Provider: "" => ""
          None TaskName: "" => ""
          Added Tags {
            Added Tags: "" => "qa"
            None Tags: "prod" => "prod"
          }
        }
        "#;

    /// `Service with different provider`
    diff_test_go_v1_3_0_services_diff_service_with_different_provider:
        [{"@": "Service", "Name": "webapp", "Provider": "nomad", "PortLabel": "http"}],
        [{"@": "Service", "Name": "webapp", "Provider": "consul", "PortLabel": "http"}],
        true,
        r#"
        Edited Service {
          None Address: "" => ""
          None AddressMode: "" => ""
          None EnableTagOverride: "false" => "false"
          None Name: "webapp" => "webapp"
          None Namespace: "" => ""
          None OnUpdate: "" => ""
          None PortLabel: "http" => "http"
          Edited Provider: "nomad" => "consul"
          None TaskName: "" => ""
        }
        "#;
}
