//! nomad/structs/diff_test.go `TestServicesDiff` at v2.0.5: the cases the
//! other test files do not port, each list the services of one task, and
//! `TestDiff_SidecarIdentities`.

use crate::model::v;

diff_cases! {
    services_rows at v(2, 0, 5);

    /// `No changes - empty`
    diff_test_go_v2_0_5_services_diff_no_changes_empty:
        [],
        [],
        true,
        r#"

        "#;

    /// `No changes`
    diff_test_go_v2_0_5_services_diff_no_changes:
        [{"@": "Service", "Name": "webapp", "PortLabel": "http"}],
        [{"@": "Service", "Name": "webapp", "PortLabel": "http"}],
        true,
        r#"

        "#;

    /// `Detect changes`
    diff_test_go_v2_0_5_services_diff_detect_changes:
        [
            {
                "@": "Service",
                "Name": "webapp",
                "PortLabel": "http",
                "AddressMode": "host",
                "Address": "a.example.com",
                "EnableTagOverride": true,
                "Tags": ["prod"],
                "CanaryTags": ["canary"],
                "Weights": {"@": "ServiceWeights", "Passing": 1, "Warning": 1}
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
                "CanaryTags": ["qa"],
                "Weights": {"@": "ServiceWeights", "Passing": 5, "Warning": 1}
            }
        ],
        true,
        r#"
        Edited Service {
          Edited Address: "a.example.com" => "b.example.com"
          Edited AddressMode: "host" => "alloc"
          None Cluster: "" => ""
          Edited EnableTagOverride: "true" => "false"
          None Kind: "" => ""
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
          Edited Weights {
            Edited Passing: "1" => "5"
            None Warning: "1" => "1"
          }
        }
        "#;

    /// `Service added`
    diff_test_go_v2_0_5_services_diff_service_added:
        [],
        [{"@": "Service", "Name": "webapp", "PortLabel": "http"}],
        true,
        r#"
        Added Service {
          None Address: "" => ""
          None AddressMode: "" => ""
          None Cluster: "" => ""
          Added EnableTagOverride: "" => "false"
          None Kind: "" => ""
          Added Name: "" => "webapp"
          None Namespace: "" => ""
          None OnUpdate: "" => ""
          Added PortLabel: "" => "http"
          None Provider: "" => ""
          None TaskName: "" => ""
        }
        "#;

    /// `Service added with same name`
    diff_test_go_v2_0_5_services_diff_service_added_with_same_name:
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
          None Cluster: "" => ""
          Added EnableTagOverride: "" => "false"
          None Kind: "" => ""
          Added Name: "" => "webapp"
          None Namespace: "" => ""
          None OnUpdate: "" => ""
          Added PortLabel: "" => "https"
          None Provider: "" => ""
          None TaskName: "" => ""
        }
        "#;

    /// `Modify port label of service with same name`
    diff_test_go_v2_0_5_services_diff_modify_port_label_of_service_with_same_name:
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
          None Cluster: "" => ""
          None EnableTagOverride: "false" => "false"
          None Kind: "" => ""
          None Name: "webapp" => "webapp"
          None Namespace: "" => ""
          None OnUpdate: "" => ""
          Edited PortLabel: "http" => "https-redirect"
          None Provider: "" => ""
          None TaskName: "" => ""
        }
        "#;

    /// `Modify service kind field`
    diff_test_go_v2_0_5_services_diff_modify_service_kind_field:
        [{"@": "Service", "Name": "webapp", "Kind": "api-gateway"}],
        [{"@": "Service", "Name": "webapp", "Kind": "mesh-gateway"}],
        true,
        r#"
        Edited Service {
          None Address: "" => ""
          None AddressMode: "" => ""
          None Cluster: "" => ""
          None EnableTagOverride: "false" => "false"
          Edited Kind: "api-gateway" => "mesh-gateway"
          None Name: "webapp" => "webapp"
          None Namespace: "" => ""
          None OnUpdate: "" => ""
          None PortLabel: "" => ""
          None Provider: "" => ""
          None TaskName: "" => ""
        }
        "#;

    /// `Modify similar services`
    diff_test_go_v2_0_5_services_diff_modify_similar_services:
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
          None Cluster: "" => ""
          None EnableTagOverride: "false" => "false"
          None Kind: "" => ""
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
    diff_test_go_v2_0_5_services_diff_service_with_different_provider:
        [
            {
                "@": "Service",
                "Name": "webapp",
                "Provider": "nomad",
                "Cluster": "default",
                "PortLabel": "http"
            }
        ],
        [
            {
                "@": "Service",
                "Name": "webapp",
                "Provider": "consul",
                "Cluster": "default",
                "PortLabel": "http"
            }
        ],
        true,
        r#"
        Edited Service {
          None Address: "" => ""
          None AddressMode: "" => ""
          None Cluster: "default" => "default"
          None EnableTagOverride: "false" => "false"
          None Kind: "" => ""
          None Name: "webapp" => "webapp"
          None Namespace: "" => ""
          None OnUpdate: "" => ""
          None PortLabel: "http" => "http"
          Edited Provider: "nomad" => "consul"
          None TaskName: "" => ""
        }
        "#;

    /// `Service with different ingress tls`
    diff_test_go_v2_0_5_services_diff_service_with_different_ingress_tls:
        [
            {
                "@": "Service",
                "Name": "webapp",
                "Provider": "consul",
                "PortLabel": "http",
                "Connect": {
                    "@": "ConsulConnect",
                    "Gateway": {"@": "ConsulGateway", "Ingress": {"@": "ConsulIngressConfigEntry"}}
                }
            }
        ],
        [
            {
                "@": "Service",
                "Name": "webapp",
                "Provider": "consul",
                "PortLabel": "http",
                "Connect": {
                    "@": "ConsulConnect",
                    "Gateway": {
                        "@": "ConsulGateway",
                        "Ingress": {
                            "@": "ConsulIngressConfigEntry",
                            "TLS": {
                                "@": "ConsulGatewayTLSConfig",
                                "Enabled": true,
                                "TLSMinVersion": "TLSv1_2",
                                "CipherSuites": [
                                    "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
                                    "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"
                                ]
                            }
                        }
                    }
                }
            }
        ],
        false,
        r#"
        Edited Service {
          Edited ConsulConnect {
            Edited Gateway {
              Edited Ingress {
                Added TLS {
                  Added Enabled: "" => "true"
                  Added TLSMinVersion: "" => "TLSv1_2"
                  Added CipherSuites {
                    Added CipherSuites: "" => "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"
                    Added CipherSuites: "" => "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384"
                  }
                }
              }
            }
          }
        }
        "#;

    /// `SidecarService with different meta`
    diff_test_go_v2_0_5_services_diff_sidecarservice_with_different_meta:
        [
            {
                "@": "Service",
                "Name": "webapp",
                "Provider": "consul",
                "PortLabel": "http",
                "Connect": {
                    "@": "ConsulConnect",
                    "SidecarService": {
                        "@": "ConsulSidecarService",
                        "Port": "http",
                        "Proxy": {"@": "ConsulProxy"},
                        "Meta": {"foo": "qux"}
                    },
                    "Gateway": {"@": "ConsulGateway", "Ingress": {"@": "ConsulIngressConfigEntry"}}
                }
            }
        ],
        [
            {
                "@": "Service",
                "Name": "webapp",
                "Provider": "consul",
                "PortLabel": "http",
                "Connect": {
                    "@": "ConsulConnect",
                    "SidecarService": {
                        "@": "ConsulSidecarService",
                        "Port": "http",
                        "Proxy": {"@": "ConsulProxy"},
                        "Meta": {"foo": "var", "testKey": "testValue"}
                    },
                    "Gateway": {"@": "ConsulGateway", "Ingress": {"@": "ConsulIngressConfigEntry"}}
                }
            }
        ],
        false,
        r#"
        Edited Service {
          Edited ConsulConnect {
            Edited SidecarService {
              Edited Meta[foo]: "qux" => "var"
              Added Meta[testKey]: "" => "testValue"
            }
          }
        }
        "#;

}

/// `TestDiff_SidecarIdentities`: a sidecar task's identities are matched by
/// name, each audience list a set.
#[test]
fn diff_test_go_v2_0_5_diff_sidecar_identities() {
    let old = super::go(serde_json::json!({
        "@": "SidecarTask",
        "Name": "old",
        "Driver": "docker",
        "User": "sidecar",
        "Config": {"foo": "bar"},
        "Env": {"FOO": "BAR"},
        "Resources": {"@": "Resources", "Cores": 2, "NUMA": {"@": "NUMA", "Affinity": "none"}},
        "Meta": {"meta": "val"},
        "KillTimeout": 10000000000_i64,
        "LogConfig": {"@": "LogConfig", "MaxFiles": 3, "MaxFileSizeMB": 100},
        "ShutdownDelay": 20000000000_i64,
        "KillSignal": "SIGUSR1",
        "Identities": [
            {
                "@": "WorkloadIdentity",
                "Name": "fooident",
                "Audience": ["foo.bar"],
                "ChangeMode": "signal",
                "ChangeSignal": "SIGHUP2"
            }
        ]
    }));
    let new = super::go(serde_json::json!({
        "@": "SidecarTask",
        "Name": "new",
        "Driver": "podman",
        "User": "proxy",
        "Config": {"eggs": "spam"},
        "Env": {"EGGS": "SPAM"},
        "Resources": {"@": "Resources", "Cores": 4, "NUMA": {"@": "NUMA", "Affinity": "prefer"}},
        "Meta": {"meta": "val"},
        "KillTimeout": 10000000000_i64,
        "LogConfig": {"@": "LogConfig", "MaxFiles": 3, "MaxFileSizeMB": 100},
        "ShutdownDelay": 20000000000_i64,
        "KillSignal": "SIGUSR1",
        "Identities": [
            {
                "@": "WorkloadIdentity",
                "Name": "fooident",
                "Audience": ["foo.bar", "new.foo.bar"],
                "ChangeMode": "signal",
                "ChangeSignal": "SIGHUP3"
            },
            {
                "@": "WorkloadIdentity",
                "Name": "barident",
                "Audience": ["bar.foo"],
                "ChangeMode": "signal",
                "ChangeSignal": "SIGHUP"
            }
        ]
    }));
    let diff = super::super::connect_diff::sidecar_task(
        Some(&old),
        Some(&new),
        true,
        super::rules_of(v(2, 0, 5)),
    )
    .unwrap();
    let mut got = Vec::new();
    super::lines(&[], &[diff], 0, &mut got);
    assert_eq!(
        got,
        super::expect(
            r#"
            Edited SidecarTask {
              Edited Driver: "docker" => "podman"
              Added Env[EGGS]: "" => "SPAM"
              Deleted Env[FOO]: "BAR" => ""
              Edited Name: "old" => "new"
              Edited User: "sidecar" => "proxy"
              Edited Config {
                Added eggs: "" => "spam"
                Deleted foo: "bar" => ""
              }
              Edited Resources {
                None CPU: "0" => "0"
                Edited Cores: "2" => "4"
                None DiskMB: "0" => "0"
                None IOPS: "0" => "0"
                None MemoryMB: "0" => "0"
                None MemoryMaxMB: "0" => "0"
                None SecretsMB: "0" => "0"
                Edited NUMA {
                  Edited Affinity: "none" => "prefer"
                }
              }
              Edited Identity {
                None ChangeMode: "signal" => "signal"
                Edited ChangeSignal: "SIGHUP2" => "SIGHUP3"
                None Env: "false" => "false"
                None File: "false" => "false"
                None Filepath: "" => ""
                None Name: "fooident" => "fooident"
                None ServiceName: "" => ""
                None TTL: "0" => "0"
                Added Audience {
                  Added Audience: "" => "new.foo.bar"
                  None Audience: "foo.bar" => "foo.bar"
                }
              }
              Added Identity {
                Added ChangeMode: "" => "signal"
                Added ChangeSignal: "" => "SIGHUP"
                Added Env: "" => "false"
                Added File: "" => "false"
                None Filepath: "" => ""
                Added Name: "" => "barident"
                None ServiceName: "" => ""
                Added TTL: "" => "0"
                Added Audience {
                  Added Audience: "" => "bar.foo"
                }
              }
            }
            "#
        )
    );
}
