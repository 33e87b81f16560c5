//! nomad/structs/diff_test.go `TestTaskGroupDiff` at v2.0.5: the cases the other test files do not port (an empty or unnamed
//! group or task, which `Job.Diff` never diffs, is left out).

use crate::model::v;

diff_cases! {
    group_rows at v(2, 0, 5);

    /// `Constraints edited`
    diff_test_go_v2_0_5_task_group_diff_constraints_edited:
        {
            "@": "TaskGroup",
            "Constraints": [
                {"@": "Constraint", "LTarget": "foo", "RTarget": "foo", "Operand": "foo"},
                {"@": "Constraint", "LTarget": "bar", "RTarget": "bar", "Operand": "bar"}
            ]
        },
        {
            "@": "TaskGroup",
            "Constraints": [
                {"@": "Constraint", "LTarget": "foo", "RTarget": "foo", "Operand": "foo"},
                {"@": "Constraint", "LTarget": "baz", "RTarget": "baz", "Operand": "baz"}
            ]
        },
        false,
        r#"
        Edited group ""
          Added Constraint {
            Added LTarget: "" => "baz"
            Added Operand: "" => "baz"
            Added RTarget: "" => "baz"
          }
          Deleted Constraint {
            Deleted LTarget: "bar" => ""
            Deleted Operand: "bar" => ""
            Deleted RTarget: "bar" => ""
          }
        "#;

    /// `RestartPolicy added`
    diff_test_go_v2_0_5_task_group_diff_restartpolicy_added:
        {"@": "TaskGroup"},
        {
            "@": "TaskGroup",
            "RestartPolicy": {
                "@": "RestartPolicy",
                "Attempts": 1,
                "Interval": 1000000000_i64,
                "Delay": 1000000000_i64,
                "Mode": "fail"
            }
        },
        false,
        r#"
        Edited group ""
          Added RestartPolicy {
            Added Attempts: "" => "1"
            Added Delay: "" => "1000000000"
            Added Interval: "" => "1000000000"
            Added Mode: "" => "fail"
            Added RenderTemplates: "" => "false"
          }
        "#;

    /// `RestartPolicy deleted`
    diff_test_go_v2_0_5_task_group_diff_restartpolicy_deleted:
        {
            "@": "TaskGroup",
            "RestartPolicy": {
                "@": "RestartPolicy",
                "Attempts": 1,
                "Interval": 1000000000_i64,
                "Delay": 1000000000_i64,
                "Mode": "fail"
            }
        },
        {"@": "TaskGroup"},
        false,
        r#"
        Edited group ""
          Deleted RestartPolicy {
            Deleted Attempts: "1" => ""
            Deleted Delay: "1000000000" => ""
            Deleted Interval: "1000000000" => ""
            Deleted Mode: "fail" => ""
            Deleted RenderTemplates: "false" => ""
          }
        "#;

    /// `ReschedulePolicy added`
    diff_test_go_v2_0_5_task_group_diff_reschedulepolicy_added:
        {"@": "TaskGroup"},
        {
            "@": "TaskGroup",
            "ReschedulePolicy": {
                "@": "ReschedulePolicy",
                "Attempts": 1,
                "Interval": 15000000000_i64,
                "Delay": 5000000000_i64,
                "MaxDelay": 20000000000_i64,
                "DelayFunction": "exponential",
                "Unlimited": false
            }
        },
        false,
        r#"
        Edited group ""
          Added ReschedulePolicy {
            Added Attempts: "" => "1"
            Added Delay: "" => "5000000000"
            Added DelayFunction: "" => "exponential"
            Added Interval: "" => "15000000000"
            Added MaxDelay: "" => "20000000000"
            Added Unlimited: "" => "false"
          }
        "#;

    /// `ReschedulePolicy deleted`
    diff_test_go_v2_0_5_task_group_diff_reschedulepolicy_deleted:
        {
            "@": "TaskGroup",
            "ReschedulePolicy": {
                "@": "ReschedulePolicy",
                "Attempts": 1,
                "Interval": 15000000000_i64,
                "Delay": 5000000000_i64,
                "MaxDelay": 20000000000_i64,
                "DelayFunction": "exponential",
                "Unlimited": false
            }
        },
        {"@": "TaskGroup"},
        false,
        r#"
        Edited group ""
          Deleted ReschedulePolicy {
            Deleted Attempts: "1" => ""
            Deleted Delay: "5000000000" => ""
            Deleted DelayFunction: "exponential" => ""
            Deleted Interval: "15000000000" => ""
            Deleted MaxDelay: "20000000000" => ""
            Deleted Unlimited: "false" => ""
          }
        "#;

    /// `ReschedulePolicy edited`
    diff_test_go_v2_0_5_task_group_diff_reschedulepolicy_edited:
        {
            "@": "TaskGroup",
            "ReschedulePolicy": {
                "@": "ReschedulePolicy",
                "Attempts": 1,
                "Interval": 1000000000_i64,
                "DelayFunction": "exponential",
                "Delay": 20000000000_i64,
                "MaxDelay": 60000000000_i64,
                "Unlimited": false
            }
        },
        {
            "@": "TaskGroup",
            "ReschedulePolicy": {
                "@": "ReschedulePolicy",
                "Attempts": 2,
                "Interval": 2000000000_i64,
                "DelayFunction": "constant",
                "Delay": 30000000000_i64,
                "MaxDelay": 60000000000_i64,
                "Unlimited": true
            }
        },
        false,
        r#"
        Edited group ""
          Edited ReschedulePolicy {
            Edited Attempts: "1" => "2"
            Edited Delay: "20000000000" => "30000000000"
            Edited DelayFunction: "exponential" => "constant"
            Edited Interval: "1000000000" => "2000000000"
            Edited Unlimited: "false" => "true"
          }
        "#;

    /// `ReschedulePolicy edited with context`
    diff_test_go_v2_0_5_task_group_diff_reschedulepolicy_edited_with_context:
        {
            "@": "TaskGroup",
            "ReschedulePolicy": {"@": "ReschedulePolicy", "Attempts": 1, "Interval": 1000000000_i64}
        },
        {
            "@": "TaskGroup",
            "ReschedulePolicy": {"@": "ReschedulePolicy", "Attempts": 1, "Interval": 2000000000_i64}
        },
        true,
        r#"
        Edited group ""
          Edited ReschedulePolicy {
            None Attempts: "1" => "1"
            None Delay: "0" => "0"
            None DelayFunction: "" => ""
            Edited Interval: "1000000000" => "2000000000"
            None MaxDelay: "0" => "0"
            None Unlimited: "false" => "false"
          }
        "#;

    /// `Update strategy deleted`
    diff_test_go_v2_0_5_task_group_diff_update_strategy_deleted:
        {"@": "TaskGroup", "Update": {"@": "UpdateStrategy", "AutoRevert": true}},
        {"@": "TaskGroup"},
        false,
        r#"
        Edited group ""
          Deleted Update {
            Deleted AutoPromote: "false" => ""
            Deleted AutoRevert: "true" => ""
            Deleted Canary: "0" => ""
            Deleted HealthyDeadline: "0" => ""
            Deleted MaxParallel: "0" => ""
            Deleted MinHealthyTime: "0" => ""
            Deleted ProgressDeadline: "0" => ""
          }
        "#;

    /// `Update strategy added`
    diff_test_go_v2_0_5_task_group_diff_update_strategy_added:
        {"@": "TaskGroup"},
        {"@": "TaskGroup", "Update": {"@": "UpdateStrategy", "AutoRevert": true}},
        false,
        r#"
        Edited group ""
          Added Update {
            Added AutoPromote: "" => "false"
            Added AutoRevert: "" => "true"
            Added Canary: "" => "0"
            Added HealthyDeadline: "" => "0"
            Added MaxParallel: "" => "0"
            Added MinHealthyTime: "" => "0"
            Added ProgressDeadline: "" => "0"
          }
        "#;

    /// `Update strategy edited`
    diff_test_go_v2_0_5_task_group_diff_update_strategy_edited:
        {
            "@": "TaskGroup",
            "Update": {
                "@": "UpdateStrategy",
                "MaxParallel": 5,
                "HealthCheck": "foo",
                "MinHealthyTime": 1000000000_i64,
                "HealthyDeadline": 30000000000_i64,
                "ProgressDeadline": 29000000000_i64,
                "AutoRevert": true,
                "AutoPromote": true,
                "Canary": 2
            }
        },
        {
            "@": "TaskGroup",
            "Update": {
                "@": "UpdateStrategy",
                "MaxParallel": 7,
                "HealthCheck": "bar",
                "MinHealthyTime": 2000000000_i64,
                "HealthyDeadline": 31000000000_i64,
                "ProgressDeadline": 32000000000_i64,
                "AutoRevert": false,
                "AutoPromote": false,
                "Canary": 1
            }
        },
        false,
        r#"
        Edited group ""
          Edited Update {
            Edited AutoPromote: "true" => "false"
            Edited AutoRevert: "true" => "false"
            Edited Canary: "2" => "1"
            Edited HealthCheck: "foo" => "bar"
            Edited HealthyDeadline: "30000000000" => "31000000000"
            Edited MaxParallel: "5" => "7"
            Edited MinHealthyTime: "1000000000" => "2000000000"
            Edited ProgressDeadline: "29000000000" => "32000000000"
          }
        "#;

    /// `Disconnect strategy deleted`
    diff_test_go_v2_0_5_task_group_diff_disconnect_strategy_deleted:
        {
            "@": "TaskGroup",
            "Disconnect": {
                "@": "DisconnectStrategy",
                "LostAfter": 1000000000_i64,
                "Replace": true,
                "Reconcile": "longest_running",
                "StopOnClientAfter": 1000000000_i64
            }
        },
        {"@": "TaskGroup"},
        false,
        r#"
        Edited group ""
          Deleted Disconnect {
            Deleted LostAfter: "1000000000" => ""
            Deleted Reconcile: "longest_running" => ""
            Deleted Replace: "true" => ""
            Deleted StopOnClientAfter: "1000000000" => ""
          }
        "#;

    /// `Disconnect strategy added`
    diff_test_go_v2_0_5_task_group_diff_disconnect_strategy_added:
        {"@": "TaskGroup"},
        {
            "@": "TaskGroup",
            "Disconnect": {
                "@": "DisconnectStrategy",
                "LostAfter": 1000000000_i64,
                "Replace": true,
                "Reconcile": "longest_running",
                "StopOnClientAfter": 1000000000_i64
            }
        },
        false,
        r#"
        Edited group ""
          Added Disconnect {
            Added LostAfter: "" => "1000000000"
            Added Reconcile: "" => "longest_running"
            Added Replace: "" => "true"
            Added StopOnClientAfter: "" => "1000000000"
          }
        "#;

    /// `Disconnect strategy edited`
    diff_test_go_v2_0_5_task_group_diff_disconnect_strategy_edited:
        {
            "@": "TaskGroup",
            "Disconnect": {
                "@": "DisconnectStrategy",
                "LostAfter": 1000000000_i64,
                "Replace": false,
                "Reconcile": "longest_running",
                "StopOnClientAfter": 1000000000_i64
            }
        },
        {
            "@": "TaskGroup",
            "Disconnect": {
                "@": "DisconnectStrategy",
                "LostAfter": 60000000000_i64,
                "Replace": true,
                "Reconcile": "best_score",
                "StopOnClientAfter": 60000000000_i64
            }
        },
        false,
        r#"
        Edited group ""
          Edited Disconnect {
            Edited LostAfter: "1000000000" => "60000000000"
            Edited Reconcile: "longest_running" => "best_score"
            Edited Replace: "false" => "true"
            Edited StopOnClientAfter: "1000000000" => "60000000000"
          }
        "#;

    /// `Disconnect strategy edited with context`
    diff_test_go_v2_0_5_task_group_diff_disconnect_strategy_edited_with_context:
        {
            "@": "TaskGroup",
            "Disconnect": {
                "@": "DisconnectStrategy",
                "LostAfter": 1000000000_i64,
                "Replace": false,
                "Reconcile": "longest_running",
                "StopOnClientAfter": 1000000000_i64
            }
        },
        {
            "@": "TaskGroup",
            "Disconnect": {
                "@": "DisconnectStrategy",
                "LostAfter": 60000000000_i64,
                "Replace": true,
                "Reconcile": "best_score",
                "StopOnClientAfter": 1000000000_i64
            }
        },
        true,
        r#"
        Edited group ""
          Edited Disconnect {
            Edited LostAfter: "1000000000" => "60000000000"
            Edited Reconcile: "longest_running" => "best_score"
            Edited Replace: "false" => "true"
            None StopOnClientAfter: "1000000000" => "1000000000"
          }
        "#;

    /// `EphemeralDisk added`
    diff_test_go_v2_0_5_task_group_diff_ephemeraldisk_added:
        {"@": "TaskGroup"},
        {
            "@": "TaskGroup",
            "EphemeralDisk": {"@": "EphemeralDisk", "Migrate": true, "Sticky": true, "SizeMB": 100}
        },
        false,
        r#"
        Edited group ""
          Added EphemeralDisk {
            Added Migrate: "" => "true"
            Added SizeMB: "" => "100"
            Added Sticky: "" => "true"
          }
        "#;

    /// `EphemeralDisk deleted`
    diff_test_go_v2_0_5_task_group_diff_ephemeraldisk_deleted:
        {
            "@": "TaskGroup",
            "EphemeralDisk": {"@": "EphemeralDisk", "Migrate": true, "Sticky": true, "SizeMB": 100}
        },
        {"@": "TaskGroup"},
        false,
        r#"
        Edited group ""
          Deleted EphemeralDisk {
            Deleted Migrate: "true" => ""
            Deleted SizeMB: "100" => ""
            Deleted Sticky: "true" => ""
          }
        "#;

    /// `EphemeralDisk edited`
    diff_test_go_v2_0_5_task_group_diff_ephemeraldisk_edited:
        {
            "@": "TaskGroup",
            "EphemeralDisk": {"@": "EphemeralDisk", "Migrate": true, "Sticky": true, "SizeMB": 150}
        },
        {
            "@": "TaskGroup",
            "EphemeralDisk": {"@": "EphemeralDisk", "Migrate": false, "Sticky": false, "SizeMB": 90}
        },
        false,
        r#"
        Edited group ""
          Edited EphemeralDisk {
            Edited Migrate: "true" => "false"
            Edited SizeMB: "150" => "90"
            Edited Sticky: "true" => "false"
          }
        "#;

    /// `TaskGroup Services edited`
    diff_test_go_v2_0_5_task_group_diff_taskgroup_services_edited:
        {
            "@": "TaskGroup",
            "Services": [
                {
                    "@": "Service",
                    "Name": "foo",
                    "Namespace": "team1",
                    "Cluster": "default",
                    "TaskName": "task1",
                    "EnableTagOverride": false,
                    "Checks": [
                        {
                            "@": "ServiceCheck",
                            "Name": "foo",
                            "Type": "http",
                            "Command": "foo",
                            "Args": ["foo"],
                            "Path": "foo",
                            "Protocol": "http",
                            "Method": "POST",
                            "Body": "{\"key\": \"value\"}",
                            "Expose": true,
                            "Interval": 1000000000_i64,
                            "Timeout": 1000000000_i64,
                            "SuccessBeforePassing": 3,
                            "FailuresBeforeCritical": 4,
                            "FailuresBeforeWarning": 2
                        }
                    ],
                    "Connect": {
                        "@": "ConsulConnect",
                        "Native": false,
                        "SidecarTask": {
                            "@": "SidecarTask",
                            "Name": "sidecar",
                            "Driver": "docker",
                            "Env": {"FOO": "BAR"},
                            "Config": {"foo": "baz"},
                            "VolumeMounts": [
                                {
                                    "@": "VolumeMount",
                                    "Volume": "vol0",
                                    "Destination": "/path",
                                    "ReadOnly": false,
                                    "PropagationMode": "private",
                                    "SELinuxLabel": "Z"
                                }
                            ]
                        },
                        "Gateway": {
                            "@": "ConsulGateway",
                            "Proxy": {
                                "@": "ConsulGatewayProxy",
                                "ConnectTimeout": 1000000000_i64,
                                "EnvoyGatewayBindTaggedAddresses": false,
                                "EnvoyGatewayBindAddresses": {
                                    "service1": {
                                        "@": "ConsulGatewayBindAddress",
                                        "Address": "10.0.0.1",
                                        "Port": 2001
                                    }
                                },
                                "EnvoyDNSDiscoveryType": "STRICT_DNS",
                                "EnvoyGatewayNoDefaultBind": false,
                                "Config": {"foo": 1}
                            },
                            "Ingress": {
                                "@": "ConsulIngressConfigEntry",
                                "TLS": {"@": "ConsulGatewayTLSConfig", "Enabled": false},
                                "Listeners": [
                                    {
                                        "@": "ConsulIngressListener",
                                        "Port": 3001,
                                        "Protocol": "tcp",
                                        "Services": [{"@": "ConsulIngressService", "Name": "listener1"}]
                                    }
                                ]
                            },
                            "Terminating": {
                                "@": "ConsulTerminatingConfigEntry",
                                "Services": [
                                    {
                                        "@": "ConsulLinkedService",
                                        "Name": "linked1",
                                        "CAFile": "ca1.pem",
                                        "CertFile": "cert1.pem",
                                        "KeyFile": "key1.pem",
                                        "SNI": "linked1.consul"
                                    }
                                ]
                            },
                            "Mesh": {"@": "ConsulMeshConfigEntry"}
                        }
                    }
                }
            ]
        },
        {
            "@": "TaskGroup",
            "Services": [
                {
                    "@": "Service",
                    "Name": "foo",
                    "Namespace": "team1",
                    "Cluster": "default",
                    "TaskName": "task2",
                    "EnableTagOverride": true,
                    "Checks": [
                        {
                            "@": "ServiceCheck",
                            "Name": "foo",
                            "Type": "tcp",
                            "Command": "bar",
                            "Path": "bar",
                            "Protocol": "tcp",
                            "Expose": false,
                            "Interval": 2000000000_i64,
                            "Timeout": 2000000000_i64,
                            "Header": {"Foo": ["baz"]},
                            "SuccessBeforePassing": 5,
                            "FailuresBeforeCritical": 6,
                            "FailuresBeforeWarning": 4
                        }
                    ],
                    "Connect": {
                        "@": "ConsulConnect",
                        "Native": true,
                        "SidecarService": {
                            "@": "ConsulSidecarService",
                            "Port": "http",
                            "Proxy": {
                                "@": "ConsulProxy",
                                "LocalServiceAddress": "127.0.0.1",
                                "LocalServicePort": 8080,
                                "Upstreams": [
                                    {
                                        "@": "ConsulUpstream",
                                        "DestinationName": "foo",
                                        "DestinationNamespace": "ns2",
                                        "LocalBindPort": 8000,
                                        "Datacenter": "dc2",
                                        "LocalBindAddress": "127.0.0.2",
                                        "MeshGateway": {"@": "ConsulMeshGateway", "Mode": "remote"}
                                    }
                                ],
                                "Expose": {
                                    "@": "ConsulExposeConfig",
                                    "Paths": [
                                        {
                                            "@": "ConsulExposePath",
                                            "Path": "/health",
                                            "Protocol": "http",
                                            "LocalPathPort": 9001,
                                            "ListenerPort": "api_expose_healthcheck"
                                        }
                                    ]
                                },
                                "Config": {"foo": "qux"},
                                "TransparentProxy": {
                                    "@": "ConsulTransparentProxy",
                                    "UID": "101",
                                    "OutboundPort": 15001,
                                    "ExcludeInboundPorts": ["www", "9000"],
                                    "ExcludeOutboundPorts": [4443],
                                    "ExcludeOutboundCIDRs": ["10.0.0.0/8"],
                                    "ExcludeUIDs": ["1", "10"],
                                    "NoDNS": true
                                }
                            }
                        },
                        "Gateway": {
                            "@": "ConsulGateway",
                            "Proxy": {
                                "@": "ConsulGatewayProxy",
                                "ConnectTimeout": 2000000000_i64,
                                "EnvoyGatewayBindTaggedAddresses": true,
                                "EnvoyGatewayBindAddresses": {
                                    "service1": {
                                        "@": "ConsulGatewayBindAddress",
                                        "Address": "10.0.0.2",
                                        "Port": 2002
                                    }
                                },
                                "EnvoyDNSDiscoveryType": "LOGICAL_DNS",
                                "EnvoyGatewayNoDefaultBind": true,
                                "Config": {"foo": 2}
                            },
                            "Ingress": {
                                "@": "ConsulIngressConfigEntry",
                                "TLS": {"@": "ConsulGatewayTLSConfig", "Enabled": true},
                                "Listeners": [
                                    {
                                        "@": "ConsulIngressListener",
                                        "Port": 3002,
                                        "Protocol": "http",
                                        "Services": [
                                            {
                                                "@": "ConsulIngressService",
                                                "Name": "listener2",
                                                "Hosts": ["127.0.0.1", "127.0.0.1:3002"]
                                            }
                                        ]
                                    }
                                ]
                            },
                            "Terminating": {
                                "@": "ConsulTerminatingConfigEntry",
                                "Services": [
                                    {
                                        "@": "ConsulLinkedService",
                                        "Name": "linked2",
                                        "CAFile": "ca2.pem",
                                        "CertFile": "cert2.pem",
                                        "KeyFile": "key2.pem",
                                        "SNI": "linked2.consul"
                                    }
                                ]
                            },
                            "Mesh": {"@": "ConsulMeshConfigEntry"}
                        }
                    }
                }
            ]
        },
        true,
        r#"
        Edited group ""
          Edited Service {
            None Address: "" => ""
            None AddressMode: "" => ""
            None Cluster: "default" => "default"
            Edited EnableTagOverride: "false" => "true"
            None Kind: "" => ""
            None Name: "foo" => "foo"
            None Namespace: "team1" => "team1"
            None OnUpdate: "" => ""
            None PortLabel: "" => ""
            None Provider: "" => ""
            Edited TaskName: "task1" => "task2"
            Edited Check {
              None AddressMode: "" => ""
              Deleted Body: "{\"key\": \"value\"}" => ""
              Edited Command: "foo" => "bar"
              Edited Expose: "true" => "false"
              Edited FailuresBeforeCritical: "4" => "6"
              Edited FailuresBeforeWarning: "2" => "4"
              None GRPCService: "" => ""
              None GRPCUseTLS: "false" => "false"
              None InitialStatus: "" => ""
              Edited Interval: "1000000000" => "2000000000"
              Deleted Method: "POST" => ""
              None Name: "foo" => "foo"
              None Notes: "" => ""
              None OnUpdate: "" => ""
              Edited Path: "foo" => "bar"
              None PortLabel: "" => ""
              Edited Protocol: "http" => "tcp"
              Edited SuccessBeforePassing: "3" => "5"
              None TLSServerName: "" => ""
              None TLSSkipVerify: "false" => "false"
              None TaskName: "" => ""
              Edited Timeout: "1000000000" => "2000000000"
              Edited Type: "http" => "tcp"
              Added Header {
                Added Foo[0]: "" => "baz"
              }
            }
            Edited ConsulConnect {
              Edited Native: "false" => "true"
              Added SidecarService {
                Added DisableDefaultTCPCheck: "" => "false"
                Added Port: "" => "http"
                Added ConsulProxy {
                  Added LocalServiceAddress: "" => "127.0.0.1"
                  Added LocalServicePort: "" => "8080"
                  Added ConsulUpstreams {
                    Added Datacenter: "" => "dc2"
                    Added DestinationName: "" => "foo"
                    Added DestinationNamespace: "" => "ns2"
                    None DestinationPartition: "" => ""
                    None DestinationPeer: "" => ""
                    None DestinationType: "" => ""
                    Added LocalBindAddress: "" => "127.0.0.2"
                    Added LocalBindPort: "" => "8000"
                    None LocalBindSocketMode: "" => ""
                    None LocalBindSocketPath: "" => ""
                    Added MeshGateway {
                      Added Mode: "" => "remote"
                    }
                  }
                  Added Expose {
                    Added Paths {
                      Added ListenerPort: "" => "api_expose_healthcheck"
                      Added LocalPathPort: "" => "9001"
                      Added Path: "" => "/health"
                      Added Protocol: "" => "http"
                    }
                  }
                  Added TransparentProxy {
                    Added NoDNS: "" => "true"
                    Added OutboundPort: "" => "15001"
                    Added UID: "" => "101"
                    Added ExcludeInboundPorts {
                      Added ExcludeInboundPorts: "" => "9000"
                      Added ExcludeInboundPorts: "" => "www"
                    }
                    Added ExcludeOutboundPorts {
                      Added ExcludeOutboundPorts: "" => "4443"
                    }
                    Added ExcludeOutboundCIDRs {
                      Added ExcludeOutboundCIDRs: "" => "10.0.0.0/8"
                    }
                    Added ExcludeUIDs {
                      Added ExcludeUIDs: "" => "1"
                      Added ExcludeUIDs: "" => "10"
                    }
                  }
                  Added Config {
                    Added foo: "" => "qux"
                  }
                }
              }
              Deleted SidecarTask {
                Deleted Driver: "docker" => ""
                Deleted Env[FOO]: "BAR" => ""
                Deleted Name: "sidecar" => ""
                Deleted Config {
                  Deleted foo: "baz" => ""
                }
                Deleted VolumeMount {
                  Deleted Destination: "/path" => ""
                  Deleted PropagationMode: "private" => ""
                  Deleted ReadOnly: "false" => ""
                  Deleted SELinuxLabel: "Z" => ""
                  Deleted Volume: "vol0" => ""
                }
              }
              Edited Gateway {
                Edited Proxy {
                  Edited ConnectTimeout: "1s" => "2s"
                  Edited EnvoyDNSDiscoveryType: "STRICT_DNS" => "LOGICAL_DNS"
                  Edited EnvoyGatewayBindTaggedAddresses: "false" => "true"
                  Edited EnvoyGatewayNoDefaultBind: "false" => "true"
                  Edited EnvoyGatewayBindAddresses {
                    Edited service1: "10.0.0.1:2001" => "10.0.0.2:2002"
                  }
                  Edited Config {
                    Edited foo: "1" => "2"
                  }
                }
                Edited Ingress {
                  Edited TLS {
                    Edited Enabled: "false" => "true"
                    None TLSMaxVersion: "" => ""
                    None TLSMinVersion: "" => ""
                  }
                  Added Listener {
                    Added Port: "" => "3002"
                    Added Protocol: "" => "http"
                    Added ConsulIngressService {
                      Added Name: "" => "listener2"
                      Added Hosts {
                        Added Hosts: "" => "127.0.0.1"
                        Added Hosts: "" => "127.0.0.1:3002"
                      }
                    }
                  }
                  Deleted Listener {
                    Deleted Port: "3001" => ""
                    Deleted Protocol: "tcp" => ""
                    Deleted ConsulIngressService {
                      Deleted Name: "listener1" => ""
                    }
                  }
                }
                Edited Terminating {
                  Added Service {
                    Added CAFile: "" => "ca2.pem"
                    Added CertFile: "" => "cert2.pem"
                    Added KeyFile: "" => "key2.pem"
                    Added Name: "" => "linked2"
                    Added SNI: "" => "linked2.consul"
                  }
                  Deleted Service {
                    Deleted CAFile: "ca1.pem" => ""
                    Deleted CertFile: "cert1.pem" => ""
                    Deleted KeyFile: "key1.pem" => ""
                    Deleted Name: "linked1" => ""
                    Deleted SNI: "linked1.consul" => ""
                  }
                }
              }
            }
          }
        "#;

    /// `TaskGroup Networks edited`
    diff_test_go_v2_0_5_task_group_diff_taskgroup_networks_edited:
        {
            "@": "TaskGroup",
            "Networks": [
                {
                    "@": "NetworkResource",
                    "Device": "foo",
                    "CIDR": "foo",
                    "IP": "foo",
                    "MBits": 100,
                    "Hostname": "foo",
                    "ReservedPorts": [{"@": "Port", "Label": "foo", "Value": 80}]
                }
            ]
        },
        {
            "@": "TaskGroup",
            "Networks": [
                {
                    "@": "NetworkResource",
                    "Device": "bar",
                    "CIDR": "bar",
                    "IP": "bar",
                    "MBits": 200,
                    "Hostname": "bar",
                    "DynamicPorts": [{"@": "Port", "Label": "bar", "To": 8081, "HostNetwork": "public"}],
                    "DNS": {"@": "DNSConfig", "Servers": ["1.1.1.1"]}
                }
            ]
        },
        true,
        r#"
        Edited group ""
          Added Network {
            Added Hostname: "" => "bar"
            None Mode: "" => ""
            Added Dynamic Port {
              Added HostNetwork: "" => "public"
              Added Label: "" => "bar"
              Added To: "" => "8081"
            }
            Added DNS {
              Added Servers: "" => "1.1.1.1"
            }
          }
          Deleted Network {
            Deleted Hostname: "foo" => ""
            None Mode: "" => ""
            Deleted Static Port {
              None HostNetwork: "" => ""
              Deleted IgnoreCollision: "false" => ""
              Deleted Label: "foo" => ""
              Deleted To: "0" => ""
              Deleted Value: "80" => ""
            }
          }
        "#;

    /// `TaskGroup volumes added`
    diff_test_go_v2_0_5_task_group_diff_taskgroup_volumes_added:
        {"@": "TaskGroup"},
        {
            "@": "TaskGroup",
            "Volumes": {
                "foo": {
                    "@": "VolumeRequest",
                    "Name": "foo",
                    "Type": "host",
                    "Source": "foo-src",
                    "ReadOnly": true,
                    "PerAlloc": true
                }
            }
        },
        false,
        r#"
        Edited group ""
          Added Volume {
            Added Name: "" => "foo"
            Added PerAlloc: "" => "true"
            Added ReadOnly: "" => "true"
            Added Source: "" => "foo-src"
            Added Sticky: "" => "false"
            Added Type: "" => "host"
          }
        "#;

    /// `TaskGroup volumes edited`
    diff_test_go_v2_0_5_task_group_diff_taskgroup_volumes_edited:
        {
            "@": "TaskGroup",
            "Volumes": {
                "foo": {
                    "@": "VolumeRequest",
                    "Name": "foo",
                    "Type": "csi",
                    "Source": "foo-src1",
                    "ReadOnly": false,
                    "MountOptions": {
                        "@": "CSIMountOptions",
                        "FSType": "ext4",
                        "MountFlags": ["relatime", "rw"]
                    }
                },
                "bar": {
                    "@": "VolumeRequest",
                    "Name": "bar",
                    "Type": "host",
                    "Source": "bar-src",
                    "ReadOnly": true
                }
            }
        },
        {
            "@": "TaskGroup",
            "Volumes": {
                "foo": {
                    "@": "VolumeRequest",
                    "Name": "foo",
                    "Type": "csi",
                    "Source": "foo-src2",
                    "ReadOnly": true,
                    "MountOptions": {
                        "@": "CSIMountOptions",
                        "FSType": "ext4",
                        "MountFlags": ["relatime", "rw", "nosuid"]
                    }
                },
                "bar": {
                    "@": "VolumeRequest",
                    "Name": "bar",
                    "Type": "host",
                    "Source": "bar-src",
                    "ReadOnly": true
                }
            }
        },
        false,
        r#"
        Edited group ""
          Edited Volume {
            Edited ReadOnly: "false" => "true"
            Edited Source: "foo-src1" => "foo-src2"
            Edited MountOptions {
              Added MountFlags {
                Added MountFlags: "" => "nosuid"
              }
            }
          }
        "#;

    /// `Scaling added`
    diff_test_go_v2_0_5_task_group_diff_scaling_added:
        {"@": "TaskGroup"},
        {
            "@": "TaskGroup",
            "Scaling": {
                "@": "ScalingPolicy",
                "Enabled": true,
                "Max": 10,
                "Min": 1,
                "Policy": {"cooldown": "1m", "evaluation_interval": "5s"}
            }
        },
        false,
        r#"
        Edited group ""
          Added Scaling {
            Added Enabled: "" => "true"
            Added Max: "" => "10"
            Added Min: "" => "1"
            Added Policy {
              Added cooldown: "" => "1m"
              Added evaluation_interval: "" => "5s"
            }
          }
        "#;

    /// `Scaling deleted`
    diff_test_go_v2_0_5_task_group_diff_scaling_deleted:
        {
            "@": "TaskGroup",
            "Scaling": {
                "@": "ScalingPolicy",
                "Enabled": true,
                "Max": 10,
                "Min": 1,
                "Policy": {"cooldown": "1m", "evaluation_interval": "5s"}
            }
        },
        {"@": "TaskGroup"},
        false,
        r#"
        Edited group ""
          Deleted Scaling {
            Deleted Enabled: "true" => ""
            Deleted Max: "10" => ""
            Deleted Min: "1" => ""
            Deleted Policy {
              Deleted cooldown: "1m" => ""
              Deleted evaluation_interval: "5s" => ""
            }
          }
        "#;

    /// `Scaling edited`
    diff_test_go_v2_0_5_task_group_diff_scaling_edited:
        {
            "@": "TaskGroup",
            "Scaling": {
                "@": "ScalingPolicy",
                "Enabled": true,
                "Max": 10,
                "Min": 1,
                "Policy": {"cooldown": "1m", "evaluation_interval": "5s"}
            }
        },
        {
            "@": "TaskGroup",
            "Scaling": {
                "@": "ScalingPolicy",
                "Enabled": true,
                "Max": 15,
                "Min": 5,
                "Policy": {"cooldown": "2m", "evaluation_interval": "10s"}
            }
        },
        false,
        r#"
        Edited group ""
          Edited Scaling {
            Edited Max: "10" => "15"
            Edited Min: "1" => "5"
            Edited Policy {
              Edited cooldown: "1m" => "2m"
              Edited evaluation_interval: "5s" => "10s"
            }
          }
        "#;

}
