//! nomad/structs/diff_test.go `TestTaskDiff` at v2.0.5: the cases the other test files do not port (an empty or unnamed
//! task, which `Job.Diff` never diffs, is left out).

use crate::model::v;

diff_cases! {
    task_rows at v(2, 0, 5);

    /// `Constraints edited`
    diff_test_go_v2_0_5_task_diff_constraints_edited:
        {
            "@": "Task",
            "Constraints": [
                {"@": "Constraint", "LTarget": "foo", "RTarget": "foo", "Operand": "foo"},
                {"@": "Constraint", "LTarget": "bar", "RTarget": "bar", "Operand": "bar"}
            ]
        },
        {
            "@": "Task",
            "Constraints": [
                {"@": "Constraint", "LTarget": "foo", "RTarget": "foo", "Operand": "foo"},
                {"@": "Constraint", "LTarget": "baz", "RTarget": "baz", "Operand": "baz"}
            ]
        },
        false,
        r#"
        Edited task ""
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

    /// `Affinities edited`
    diff_test_go_v2_0_5_task_diff_affinities_edited:
        {
            "@": "Task",
            "Affinities": [
                {
                    "@": "Affinity",
                    "LTarget": "foo",
                    "RTarget": "foo",
                    "Operand": "foo",
                    "Weight": 20
                },
                {
                    "@": "Affinity",
                    "LTarget": "bar",
                    "RTarget": "bar",
                    "Operand": "bar",
                    "Weight": 20
                }
            ]
        },
        {
            "@": "Task",
            "Affinities": [
                {
                    "@": "Affinity",
                    "LTarget": "foo",
                    "RTarget": "foo",
                    "Operand": "foo",
                    "Weight": 20
                },
                {
                    "@": "Affinity",
                    "LTarget": "baz",
                    "RTarget": "baz",
                    "Operand": "baz",
                    "Weight": 20
                }
            ]
        },
        false,
        r#"
        Edited task ""
          Added Affinity {
            Added LTarget: "" => "baz"
            Added Operand: "" => "baz"
            Added RTarget: "" => "baz"
            Added Weight: "" => "20"
          }
          Deleted Affinity {
            Deleted LTarget: "bar" => ""
            Deleted Operand: "bar" => ""
            Deleted RTarget: "bar" => ""
            Deleted Weight: "20" => ""
          }
        "#;

    /// `LogConfig added`
    diff_test_go_v2_0_5_task_diff_logconfig_added:
        {"@": "Task"},
        {
            "@": "Task",
            "LogConfig": {"@": "LogConfig", "MaxFiles": 1, "MaxFileSizeMB": 10, "Disabled": true}
        },
        false,
        r#"
        Edited task ""
          Added LogConfig {
            Added Disabled: "" => "true"
            Added MaxFileSizeMB: "" => "10"
            Added MaxFiles: "" => "1"
          }
        "#;

    /// `LogConfig deleted`
    diff_test_go_v2_0_5_task_diff_logconfig_deleted:
        {
            "@": "Task",
            "LogConfig": {"@": "LogConfig", "MaxFiles": 1, "MaxFileSizeMB": 10, "Disabled": true}
        },
        {"@": "Task"},
        false,
        r#"
        Edited task ""
          Deleted LogConfig {
            Deleted Disabled: "true" => ""
            Deleted MaxFileSizeMB: "10" => ""
            Deleted MaxFiles: "1" => ""
          }
        "#;

    /// `LogConfig edited`
    diff_test_go_v2_0_5_task_diff_logconfig_edited:
        {
            "@": "Task",
            "LogConfig": {"@": "LogConfig", "MaxFiles": 1, "MaxFileSizeMB": 10, "Disabled": false}
        },
        {
            "@": "Task",
            "LogConfig": {"@": "LogConfig", "MaxFiles": 2, "MaxFileSizeMB": 20, "Disabled": true}
        },
        false,
        r#"
        Edited task ""
          Edited LogConfig {
            Edited Disabled: "false" => "true"
            Edited MaxFileSizeMB: "10" => "20"
            Edited MaxFiles: "1" => "2"
          }
        "#;

    /// `Resources edited (no networks)`
    diff_test_go_v2_0_5_task_diff_resources_edited_no_networks:
        {
            "@": "Task",
            "Resources": {"@": "Resources", "CPU": 100, "MemoryMB": 100, "DiskMB": 100}
        },
        {
            "@": "Task",
            "Resources": {"@": "Resources", "CPU": 200, "MemoryMB": 200, "DiskMB": 200, "SecretsMB": 10}
        },
        false,
        r#"
        Edited task ""
          Edited Resources {
            Edited CPU: "100" => "200"
            Edited DiskMB: "100" => "200"
            Edited MemoryMB: "100" => "200"
            Edited SecretsMB: "0" => "10"
          }
        "#;

    /// `Resources edited (no networks) with context`
    diff_test_go_v2_0_5_task_diff_resources_edited_no_networks_with_context:
        {
            "@": "Task",
            "Resources": {"@": "Resources", "CPU": 100, "MemoryMB": 100, "DiskMB": 100}
        },
        {
            "@": "Task",
            "Resources": {"@": "Resources", "CPU": 200, "MemoryMB": 100, "DiskMB": 200}
        },
        true,
        r#"
        Edited task ""
          Edited Resources {
            Edited CPU: "100" => "200"
            None Cores: "0" => "0"
            Edited DiskMB: "100" => "200"
            None IOPS: "0" => "0"
            None MemoryMB: "100" => "100"
            None MemoryMaxMB: "0" => "0"
            None SecretsMB: "0" => "0"
          }
        "#;

    /// `Network Resources edited`
    diff_test_go_v2_0_5_task_diff_network_resources_edited:
        {
            "@": "Task",
            "Resources": {
                "@": "Resources",
                "Networks": [
                    {
                        "@": "NetworkResource",
                        "Device": "foo",
                        "CIDR": "foo",
                        "IP": "foo",
                        "MBits": 100,
                        "ReservedPorts": [{"@": "Port", "Label": "foo", "Value": 80}],
                        "DynamicPorts": [{"@": "Port", "Label": "bar", "To": 8080}]
                    }
                ]
            }
        },
        {
            "@": "Task",
            "Resources": {
                "@": "Resources",
                "Networks": [
                    {
                        "@": "NetworkResource",
                        "Device": "bar",
                        "CIDR": "bar",
                        "IP": "bar",
                        "MBits": 200,
                        "ReservedPorts": [{"@": "Port", "Label": "foo", "Value": 81}],
                        "DynamicPorts": [{"@": "Port", "Label": "baz", "To": 8081}]
                    }
                ]
            }
        },
        false,
        r#"
        Edited task ""
          Edited Resources {
            Added Network {
              Added Static Port {
                Added IgnoreCollision: "" => "false"
                Added Label: "" => "foo"
                Added To: "" => "0"
                Added Value: "" => "81"
              }
              Added Dynamic Port {
                Added Label: "" => "baz"
                Added To: "" => "8081"
              }
            }
            Deleted Network {
              Deleted Static Port {
                Deleted IgnoreCollision: "false" => ""
                Deleted Label: "foo" => ""
                Deleted To: "0" => ""
                Deleted Value: "80" => ""
              }
              Deleted Dynamic Port {
                Deleted Label: "bar" => ""
                Deleted To: "8080" => ""
              }
            }
          }
        "#;

    /// `Device Resources edited`
    diff_test_go_v2_0_5_task_diff_device_resources_edited:
        {
            "@": "Task",
            "Resources": {
                "@": "Resources",
                "Devices": [
                    {"@": "RequestedDevice", "Name": "foo", "Count": 2},
                    {"@": "RequestedDevice", "Name": "bar", "Count": 2},
                    {"@": "RequestedDevice", "Name": "baz", "Count": 2}
                ]
            }
        },
        {
            "@": "Task",
            "Resources": {
                "@": "Resources",
                "Devices": [
                    {"@": "RequestedDevice", "Name": "foo", "Count": 2},
                    {"@": "RequestedDevice", "Name": "bar", "Count": 3},
                    {"@": "RequestedDevice", "Name": "bam", "Count": 2}
                ]
            }
        },
        false,
        r#"
        Edited task ""
          Edited Resources {
            Edited Device {
              Edited Count: "2" => "3"
            }
            Added Device {
              Added Count: "" => "2"
              Added Name: "" => "bam"
            }
            Deleted Device {
              Deleted Count: "2" => ""
              Deleted Name: "baz" => ""
            }
          }
        "#;

    /// `Device Resources edited with context`
    diff_test_go_v2_0_5_task_diff_device_resources_edited_with_context:
        {
            "@": "Task",
            "Resources": {
                "@": "Resources",
                "CPU": 100,
                "MemoryMB": 100,
                "DiskMB": 100,
                "Devices": [
                    {"@": "RequestedDevice", "Name": "foo", "Count": 2},
                    {"@": "RequestedDevice", "Name": "bar", "Count": 2},
                    {"@": "RequestedDevice", "Name": "baz", "Count": 2}
                ]
            }
        },
        {
            "@": "Task",
            "Resources": {
                "@": "Resources",
                "CPU": 100,
                "MemoryMB": 100,
                "DiskMB": 100,
                "Devices": [
                    {"@": "RequestedDevice", "Name": "foo", "Count": 2},
                    {"@": "RequestedDevice", "Name": "bar", "Count": 3},
                    {"@": "RequestedDevice", "Name": "bam", "Count": 2}
                ]
            }
        },
        true,
        r#"
        Edited task ""
          Edited Resources {
            None CPU: "100" => "100"
            None Cores: "0" => "0"
            None DiskMB: "100" => "100"
            None IOPS: "0" => "0"
            None MemoryMB: "100" => "100"
            None MemoryMaxMB: "0" => "0"
            None SecretsMB: "0" => "0"
            Edited Device {
              Edited Count: "2" => "3"
              None Name: "bar" => "bar"
            }
            Added Device {
              Added Count: "" => "2"
              Added Name: "" => "bam"
            }
            Deleted Device {
              Deleted Count: "2" => ""
              Deleted Name: "baz" => ""
            }
          }
        "#;

    /// `Config same`
    diff_test_go_v2_0_5_task_diff_config_same:
        {
            "@": "Task",
            "Config": {
                "foo": 1,
                "bar": "bar",
                "bam": ["a", "b"],
                "baz": {"a": 1, "b": 2},
                "boom": ["boom_port"]
            }
        },
        {
            "@": "Task",
            "Config": {
                "foo": 1,
                "bar": "bar",
                "bam": ["a", "b"],
                "baz": {"a": 1, "b": 2},
                "boom": ["boom_port"]
            }
        },
        false,
        r#"
        None task ""
        "#;

    /// `Services edited (no checks)`
    diff_test_go_v2_0_5_task_diff_services_edited_no_checks:
        {
            "@": "Task",
            "Services": [
                {"@": "Service", "Name": "foo", "PortLabel": "foo"},
                {"@": "Service", "Name": "bar", "PortLabel": "bar"},
                {"@": "Service", "Name": "baz", "PortLabel": "baz"}
            ]
        },
        {
            "@": "Task",
            "Services": [
                {"@": "Service", "Name": "bar", "PortLabel": "bar"},
                {"@": "Service", "Name": "baz", "PortLabel": "baz2"},
                {"@": "Service", "Name": "bam", "PortLabel": "bam"}
            ]
        },
        false,
        r#"
        Edited task ""
          Edited Service {
            Edited PortLabel: "baz" => "baz2"
          }
          Added Service {
            Added EnableTagOverride: "" => "false"
            Added Name: "" => "bam"
            Added PortLabel: "" => "bam"
          }
          Deleted Service {
            Deleted EnableTagOverride: "false" => ""
            Deleted Name: "foo" => ""
            Deleted PortLabel: "foo" => ""
          }
        "#;

    /// `Services edited (no checks) with context`
    diff_test_go_v2_0_5_task_diff_services_edited_no_checks_with_context:
        {"@": "Task", "Services": [{"@": "Service", "Name": "foo", "PortLabel": "foo"}]},
        {
            "@": "Task",
            "Services": [
                {
                    "@": "Service",
                    "Name": "foo",
                    "PortLabel": "bar",
                    "AddressMode": "driver",
                    "Address": "a.example.com",
                    "TaskName": "task1"
                }
            ]
        },
        true,
        r#"
        Edited task ""
          Edited Service {
            Added Address: "" => "a.example.com"
            Added AddressMode: "" => "driver"
            None Cluster: "" => ""
            None EnableTagOverride: "false" => "false"
            None Kind: "" => ""
            None Name: "foo" => "foo"
            None Namespace: "" => ""
            None OnUpdate: "" => ""
            Edited PortLabel: "foo" => "bar"
            None Provider: "" => ""
            Added TaskName: "" => "task1"
          }
        "#;

    /// `Service EnableTagOverride edited no context`
    diff_test_go_v2_0_5_task_diff_service_enabletagoverride_edited_no_context:
        {"@": "Task", "Services": [{"@": "Service", "EnableTagOverride": false}]},
        {"@": "Task", "Services": [{"@": "Service", "EnableTagOverride": true}]},
        false,
        r#"
        Edited task ""
          Edited Service {
            Edited EnableTagOverride: "false" => "true"
          }
        "#;

    /// `Services tags edited (no checks) with context`
    diff_test_go_v2_0_5_task_diff_services_tags_edited_no_checks_with_context:
        {
            "@": "Task",
            "Services": [{"@": "Service", "Tags": ["foo", "bar"], "CanaryTags": ["foo", "bar"]}]
        },
        {
            "@": "Task",
            "Services": [{"@": "Service", "Tags": ["bar", "bam"], "CanaryTags": ["bar", "bam"]}]
        },
        true,
        r#"
        Edited task ""
          Edited Service {
            None Address: "" => ""
            None AddressMode: "" => ""
            None Cluster: "" => ""
            None EnableTagOverride: "false" => "false"
            None Kind: "" => ""
            None Name: "" => ""
            None Namespace: "" => ""
            None OnUpdate: "" => ""
            None PortLabel: "" => ""
            None Provider: "" => ""
            None TaskName: "" => ""
            Edited CanaryTags {
              Added CanaryTags: "" => "bam"
              None CanaryTags: "bar" => "bar"
              Deleted CanaryTags: "foo" => ""
            }
            Edited Tags {
              Added Tags: "" => "bam"
              None Tags: "bar" => "bar"
              Deleted Tags: "foo" => ""
            }
          }
        "#;

    /// `Service with Connect Native`
    diff_test_go_v2_0_5_task_diff_service_with_connect_native:
        {"@": "Task", "Services": [{"@": "Service", "Name": "foo"}]},
        {
            "@": "Task",
            "Services": [
                {
                    "@": "Service",
                    "Name": "foo",
                    "TaskName": "task1",
                    "Connect": {"@": "ConsulConnect", "Native": true}
                }
            ]
        },
        false,
        r#"
        Edited task ""
          Edited Service {
            Added TaskName: "" => "task1"
            Added ConsulConnect {
              Added Native: "" => "true"
            }
          }
        "#;

    /// `Service Checks edited`
    diff_test_go_v2_0_5_task_diff_service_checks_edited:
        {
            "@": "Task",
            "Services": [
                {
                    "@": "Service",
                    "Name": "foo",
                    "Checks": [
                        {
                            "@": "ServiceCheck",
                            "Name": "foo",
                            "Type": "http",
                            "Command": "foo",
                            "Args": ["foo"],
                            "Path": "foo",
                            "Protocol": "http",
                            "Interval": 1000000000_i64,
                            "Timeout": 1000000000_i64,
                            "Header": {"Foo": ["bar"]},
                            "SuccessBeforePassing": 1,
                            "FailuresBeforeCritical": 1,
                            "FailuresBeforeWarning": 1
                        },
                        {
                            "@": "ServiceCheck",
                            "Name": "bar",
                            "Type": "http",
                            "Command": "foo",
                            "Args": ["foo"],
                            "Path": "foo",
                            "Protocol": "http",
                            "Interval": 1000000000_i64,
                            "Timeout": 1000000000_i64,
                            "SuccessBeforePassing": 7,
                            "FailuresBeforeCritical": 7,
                            "FailuresBeforeWarning": 5
                        },
                        {
                            "@": "ServiceCheck",
                            "Name": "baz",
                            "Type": "http",
                            "Command": "foo",
                            "Args": ["foo"],
                            "Path": "foo",
                            "Protocol": "http",
                            "Interval": 1000000000_i64,
                            "Timeout": 1000000000_i64
                        }
                    ]
                }
            ]
        },
        {
            "@": "Task",
            "Services": [
                {
                    "@": "Service",
                    "Name": "foo",
                    "Checks": [
                        {
                            "@": "ServiceCheck",
                            "Name": "bar",
                            "Type": "http",
                            "Command": "foo",
                            "Args": ["foo"],
                            "Path": "foo",
                            "Protocol": "http",
                            "Interval": 1000000000_i64,
                            "Timeout": 1000000000_i64,
                            "SuccessBeforePassing": 7,
                            "FailuresBeforeCritical": 7,
                            "FailuresBeforeWarning": 5
                        },
                        {
                            "@": "ServiceCheck",
                            "Name": "baz",
                            "Type": "tcp",
                            "Command": "foo",
                            "Args": ["foo"],
                            "Path": "foo",
                            "Protocol": "http",
                            "Interval": 1000000000_i64,
                            "Timeout": 1000000000_i64,
                            "Header": {"Eggs": ["spam"]}
                        },
                        {
                            "@": "ServiceCheck",
                            "Name": "bam",
                            "Type": "http",
                            "Command": "foo",
                            "Args": ["foo"],
                            "Path": "foo",
                            "Protocol": "http",
                            "Interval": 1000000000_i64,
                            "Timeout": 1000000000_i64,
                            "SuccessBeforePassing": 2,
                            "FailuresBeforeCritical": 2,
                            "FailuresBeforeWarning": 1
                        }
                    ]
                }
            ]
        },
        false,
        r#"
        Edited task ""
          Edited Service {
            Edited Check {
              Edited Type: "http" => "tcp"
              Added Header {
                Added Eggs[0]: "" => "spam"
              }
            }
            Added Check {
              Added Command: "" => "foo"
              Added Expose: "" => "false"
              Added FailuresBeforeCritical: "" => "2"
              Added FailuresBeforeWarning: "" => "1"
              Added GRPCUseTLS: "" => "false"
              Added Interval: "" => "1000000000"
              Added Name: "" => "bam"
              Added Path: "" => "foo"
              Added Protocol: "" => "http"
              Added SuccessBeforePassing: "" => "2"
              Added TLSSkipVerify: "" => "false"
              Added Timeout: "" => "1000000000"
              Added Type: "" => "http"
            }
            Deleted Check {
              Deleted Command: "foo" => ""
              Deleted Expose: "false" => ""
              Deleted FailuresBeforeCritical: "1" => ""
              Deleted FailuresBeforeWarning: "1" => ""
              Deleted GRPCUseTLS: "false" => ""
              Deleted Interval: "1000000000" => ""
              Deleted Name: "foo" => ""
              Deleted Path: "foo" => ""
              Deleted Protocol: "http" => ""
              Deleted SuccessBeforePassing: "1" => ""
              Deleted TLSSkipVerify: "false" => ""
              Deleted Timeout: "1000000000" => ""
              Deleted Type: "http" => ""
              Deleted Header {
                Deleted Foo[0]: "bar" => ""
              }
            }
          }
        "#;

    /// `Service Checks edited with context`
    diff_test_go_v2_0_5_task_diff_service_checks_edited_with_context:
        {
            "@": "Task",
            "Services": [
                {
                    "@": "Service",
                    "Name": "foo",
                    "Cluster": "default",
                    "Checks": [
                        {
                            "@": "ServiceCheck",
                            "Name": "foo",
                            "Type": "http",
                            "Command": "foo",
                            "Args": ["foo"],
                            "Path": "foo",
                            "Protocol": "http",
                            "Interval": 1000000000_i64,
                            "Timeout": 1000000000_i64,
                            "InitialStatus": "critical",
                            "Notes": "a note",
                            "Header": {"Foo": ["bar"]},
                            "SuccessBeforePassing": 4,
                            "FailuresBeforeCritical": 5,
                            "FailuresBeforeWarning": 4,
                            "OnUpdate": "require_healthy"
                        }
                    ]
                }
            ]
        },
        {
            "@": "Task",
            "Services": [
                {
                    "@": "Service",
                    "Name": "foo",
                    "Cluster": "default",
                    "Checks": [
                        {
                            "@": "ServiceCheck",
                            "Name": "foo",
                            "Type": "tcp",
                            "Command": "foo",
                            "Args": ["foo"],
                            "Path": "foo",
                            "Protocol": "http",
                            "Interval": 1000000000_i64,
                            "Timeout": 1000000000_i64,
                            "InitialStatus": "passing",
                            "Notes": "another note",
                            "Method": "POST",
                            "Header": {"Foo": ["bar", "baz"], "Eggs": ["spam"]},
                            "SuccessBeforePassing": 4,
                            "OnUpdate": "ignore_warnings"
                        }
                    ]
                }
            ]
        },
        true,
        r#"
        Edited task ""
          Edited Service {
            None Address: "" => ""
            None AddressMode: "" => ""
            None Cluster: "default" => "default"
            None EnableTagOverride: "false" => "false"
            None Kind: "" => ""
            None Name: "foo" => "foo"
            None Namespace: "" => ""
            None OnUpdate: "" => ""
            None PortLabel: "" => ""
            None Provider: "" => ""
            None TaskName: "" => ""
            Edited Check {
              None AddressMode: "" => ""
              None Body: "" => ""
              None Command: "foo" => "foo"
              None Expose: "false" => "false"
              Edited FailuresBeforeCritical: "5" => "0"
              Edited FailuresBeforeWarning: "4" => "0"
              None GRPCService: "" => ""
              None GRPCUseTLS: "false" => "false"
              Edited InitialStatus: "critical" => "passing"
              None Interval: "1000000000" => "1000000000"
              Added Method: "" => "POST"
              None Name: "foo" => "foo"
              Edited Notes: "a note" => "another note"
              Edited OnUpdate: "require_healthy" => "ignore_warnings"
              None Path: "foo" => "foo"
              None PortLabel: "" => ""
              None Protocol: "http" => "http"
              None SuccessBeforePassing: "4" => "4"
              None TLSServerName: "" => ""
              None TLSSkipVerify: "false" => "false"
              None TaskName: "" => ""
              None Timeout: "1000000000" => "1000000000"
              Edited Type: "http" => "tcp"
              Edited Header {
                Added Eggs[0]: "" => "spam"
                None Foo[0]: "bar" => "bar"
                Added Foo[1]: "" => "baz"
              }
            }
          }
        "#;

    /// `CheckRestart edited`
    diff_test_go_v2_0_5_task_diff_checkrestart_edited:
        {
            "@": "Task",
            "Services": [
                {
                    "@": "Service",
                    "Name": "foo",
                    "Checks": [
                        {
                            "@": "ServiceCheck",
                            "Name": "foo",
                            "Type": "http",
                            "Command": "foo",
                            "Args": ["foo"],
                            "Path": "foo",
                            "Protocol": "http",
                            "Interval": 1000000000_i64,
                            "Timeout": 1000000000_i64
                        },
                        {
                            "@": "ServiceCheck",
                            "Name": "bar",
                            "Type": "http",
                            "Command": "foo",
                            "Args": ["foo"],
                            "Path": "foo",
                            "Protocol": "http",
                            "Interval": 1000000000_i64,
                            "Timeout": 1000000000_i64,
                            "CheckRestart": {"@": "CheckRestart", "Limit": 2, "Grace": 2000000000_i64}
                        },
                        {
                            "@": "ServiceCheck",
                            "Name": "baz",
                            "Type": "http",
                            "Command": "foo",
                            "Args": ["foo"],
                            "Path": "foo",
                            "Protocol": "http",
                            "Interval": 1000000000_i64,
                            "Timeout": 1000000000_i64,
                            "CheckRestart": {"@": "CheckRestart", "Limit": 3, "Grace": 3000000000_i64}
                        }
                    ]
                }
            ]
        },
        {
            "@": "Task",
            "Services": [
                {
                    "@": "Service",
                    "Name": "foo",
                    "Checks": [
                        {
                            "@": "ServiceCheck",
                            "Name": "foo",
                            "Type": "http",
                            "Command": "foo",
                            "Args": ["foo"],
                            "Path": "foo",
                            "Protocol": "http",
                            "Interval": 1000000000_i64,
                            "Timeout": 1000000000_i64,
                            "CheckRestart": {"@": "CheckRestart", "Limit": 1, "Grace": 1000000000_i64}
                        },
                        {
                            "@": "ServiceCheck",
                            "Name": "bar",
                            "Type": "http",
                            "Command": "foo",
                            "Args": ["foo"],
                            "Path": "foo",
                            "Protocol": "http",
                            "Interval": 1000000000_i64,
                            "Timeout": 1000000000_i64
                        },
                        {
                            "@": "ServiceCheck",
                            "Name": "baz",
                            "Type": "http",
                            "Command": "foo",
                            "Args": ["foo"],
                            "Path": "foo",
                            "Protocol": "http",
                            "Interval": 1000000000_i64,
                            "Timeout": 1000000000_i64,
                            "CheckRestart": {"@": "CheckRestart", "Limit": 4, "Grace": 4000000000_i64}
                        }
                    ]
                }
            ]
        },
        false,
        r#"
        Edited task ""
          Edited Service {
            Edited Check {
              Edited CheckRestart {
                Edited Grace: "3000000000" => "4000000000"
                Edited Limit: "3" => "4"
              }
            }
            Edited Check {
              Added CheckRestart {
                Added Grace: "" => "1000000000"
                Added IgnoreWarnings: "" => "false"
                Added Limit: "" => "1"
              }
            }
            Edited Check {
              Deleted CheckRestart {
                Deleted Grace: "2000000000" => ""
                Deleted IgnoreWarnings: "false" => ""
                Deleted Limit: "2" => ""
              }
            }
          }
        "#;

    /// `VolumeMounts added`
    diff_test_go_v2_0_5_task_diff_volumemounts_added:
        {"@": "Task"},
        {
            "@": "Task",
            "VolumeMounts": [
                {
                    "@": "VolumeMount",
                    "Volume": "vol0",
                    "Destination": "/path",
                    "ReadOnly": true,
                    "PropagationMode": "private",
                    "SELinuxLabel": "Z"
                }
            ]
        },
        false,
        r#"
        Edited task ""
          Added VolumeMount {
            Added Destination: "" => "/path"
            Added PropagationMode: "" => "private"
            Added ReadOnly: "" => "true"
            Added SELinuxLabel: "" => "Z"
            Added Volume: "" => "vol0"
          }
        "#;

    /// `VolumeMounts edited`
    diff_test_go_v2_0_5_task_diff_volumemounts_edited:
        {
            "@": "Task",
            "VolumeMounts": [
                {
                    "@": "VolumeMount",
                    "Volume": "vol0",
                    "Destination": "/path",
                    "ReadOnly": false,
                    "PropagationMode": "bidirectional",
                    "SELinuxLabel": "z"
                }
            ]
        },
        {
            "@": "Task",
            "VolumeMounts": [
                {
                    "@": "VolumeMount",
                    "Volume": "vol1",
                    "Destination": "/local",
                    "ReadOnly": true,
                    "PropagationMode": "private",
                    "SELinuxLabel": "Z"
                }
            ]
        },
        false,
        r#"
        Edited task ""
          Edited VolumeMount {
            Edited Destination: "/path" => "/local"
            Edited PropagationMode: "bidirectional" => "private"
            Edited ReadOnly: "false" => "true"
            Edited SELinuxLabel: "z" => "Z"
            Edited Volume: "vol0" => "vol1"
          }
        "#;

    /// `Vault edited`
    diff_test_go_v2_0_5_task_diff_vault_edited:
        {
            "@": "Task",
            "Vault": {
                "@": "Vault",
                "Role": "nomad-task",
                "Namespace": "ns1",
                "Env": true,
                "DisableFile": true,
                "ChangeMode": "signal",
                "ChangeSignal": "SIGUSR1",
                "AllowTokenExpiration": false
            }
        },
        {
            "@": "Task",
            "Vault": {
                "@": "Vault",
                "Role": "nomad-task-2",
                "Namespace": "ns2",
                "Env": false,
                "DisableFile": false,
                "ChangeMode": "restart",
                "ChangeSignal": "foo",
                "AllowTokenExpiration": true
            }
        },
        false,
        r#"
        Edited task ""
          Edited Vault {
            Edited AllowTokenExpiration: "false" => "true"
            Edited ChangeMode: "signal" => "restart"
            Edited ChangeSignal: "SIGUSR1" => "foo"
            Edited DisableFile: "true" => "false"
            Edited Env: "true" => "false"
            Edited Namespace: "ns1" => "ns2"
            Edited Role: "nomad-task" => "nomad-task-2"
          }
        "#;

    /// `Template edited`
    diff_test_go_v2_0_5_task_diff_template_edited:
        {
            "@": "Task",
            "Templates": [
                {
                    "@": "Template",
                    "SourcePath": "foo",
                    "DestPath": "bar",
                    "EmbeddedTmpl": "baz",
                    "ChangeMode": "bam",
                    "ChangeSignal": "SIGHUP",
                    "ChangeScript": {
                        "@": "ChangeScript",
                        "Command": "/bin/foo",
                        "Args": ["-debug"],
                        "Timeout": 5,
                        "FailOnError": false
                    },
                    "Splay": 1,
                    "Perms": "0644",
                    "Uid": 1001,
                    "Gid": 21,
                    "Wait": {"@": "WaitConfig", "Min": 5000000000_i64, "Max": 5000000000_i64},
                    "ErrMissingKey": false
                },
                {
                    "@": "Template",
                    "SourcePath": "foo2",
                    "DestPath": "bar2",
                    "EmbeddedTmpl": "baz2",
                    "ChangeMode": "bam2",
                    "ChangeSignal": "SIGHUP2",
                    "ChangeScript": {
                        "@": "ChangeScript",
                        "Command": "/bin/foo2",
                        "Args": ["-debugs"],
                        "Timeout": 6,
                        "FailOnError": false
                    },
                    "Splay": 2,
                    "Perms": "0666",
                    "Uid": 1000,
                    "Gid": 20,
                    "Envvars": true
                }
            ]
        },
        {
            "@": "Task",
            "Templates": [
                {
                    "@": "Template",
                    "SourcePath": "foo",
                    "DestPath": "bar",
                    "EmbeddedTmpl": "baz new",
                    "ChangeMode": "bam",
                    "ChangeSignal": "SIGHUP",
                    "ChangeScript": {
                        "@": "ChangeScript",
                        "Command": "/bin/foo",
                        "Args": ["-debug"],
                        "Timeout": 5,
                        "FailOnError": false
                    },
                    "Splay": 1,
                    "Perms": "0644",
                    "Uid": 1001,
                    "Gid": 21,
                    "Wait": {"@": "WaitConfig", "Min": 5000000000_i64, "Max": 10000000000_i64},
                    "ErrMissingKey": true
                },
                {
                    "@": "Template",
                    "SourcePath": "foo3",
                    "DestPath": "bar3",
                    "EmbeddedTmpl": "baz3",
                    "ChangeMode": "bam3",
                    "ChangeSignal": "SIGHUP3",
                    "ChangeScript": {
                        "@": "ChangeScript",
                        "Command": "/bin/foo3",
                        "Args": ["-debugss"],
                        "Timeout": 7,
                        "FailOnError": false
                    },
                    "Splay": 3,
                    "Perms": "0776",
                    "Uid": 1002,
                    "Gid": 22,
                    "Wait": {"@": "WaitConfig", "Min": 5000000000_i64, "Max": 10000000000_i64},
                    "ErrMissingKey": true
                }
            ]
        },
        false,
        r#"
        Edited task ""
          Edited Template {
            Edited EmbeddedTmpl: "baz" => "baz new"
            Edited ErrMissingKey: "false" => "true"
            Edited Template {
              Edited Max: "5000000000" => "10000000000"
            }
          }
          Added Template {
            Added ChangeMode: "" => "bam3"
            Added ChangeSignal: "" => "SIGHUP3"
            Added DestPath: "" => "bar3"
            Added EmbeddedTmpl: "" => "baz3"
            Added Envvars: "" => "false"
            Added ErrMissingKey: "" => "true"
            Added Gid: "" => "22"
            Added Once: "" => "false"
            Added Perms: "" => "0776"
            Added SourcePath: "" => "foo3"
            Added Splay: "" => "3"
            Added Uid: "" => "1002"
            Added VaultGrace: "" => "0"
            Added Template {
              Added Max: "" => "10000000000"
              Added Min: "" => "5000000000"
            }
            Added ChangeScript {
              Added Command: "" => "/bin/foo3"
              Added FailOnError: "" => "false"
              Added RunOnFirstRender: "" => "false"
              Added Timeout: "" => "7"
              Added Args {
                Added Args: "" => "-debugss"
              }
            }
          }
          Deleted Template {
            Deleted ChangeMode: "bam2" => ""
            Deleted ChangeSignal: "SIGHUP2" => ""
            Deleted DestPath: "bar2" => ""
            Deleted EmbeddedTmpl: "baz2" => ""
            Deleted Envvars: "true" => ""
            Deleted ErrMissingKey: "false" => ""
            Deleted Gid: "20" => ""
            Deleted Once: "false" => ""
            Deleted Perms: "0666" => ""
            Deleted SourcePath: "foo2" => ""
            Deleted Splay: "2" => ""
            Deleted Uid: "1000" => ""
            Deleted VaultGrace: "0" => ""
            Deleted ChangeScript {
              Deleted Command: "/bin/foo2" => ""
              Deleted FailOnError: "false" => ""
              Deleted RunOnFirstRender: "false" => ""
              Deleted Timeout: "6" => ""
              Deleted Args {
                Deleted Args: "-debugs" => ""
              }
            }
          }
        "#;

    /// `DispatchPayload added`
    diff_test_go_v2_0_5_task_diff_dispatchpayload_added:
        {"@": "Task"},
        {"@": "Task", "DispatchPayload": {"@": "DispatchPayloadConfig", "File": "foo"}},
        false,
        r#"
        Edited task ""
          Added DispatchPayload {
            Added File: "" => "foo"
          }
        "#;

    /// `DispatchPayload deleted`
    diff_test_go_v2_0_5_task_diff_dispatchpayload_deleted:
        {"@": "Task", "DispatchPayload": {"@": "DispatchPayloadConfig", "File": "foo"}},
        {"@": "Task"},
        false,
        r#"
        Edited task ""
          Deleted DispatchPayload {
            Deleted File: "foo" => ""
          }
        "#;

    /// `Dispatch payload edited`
    diff_test_go_v2_0_5_task_diff_dispatch_payload_edited:
        {"@": "Task", "DispatchPayload": {"@": "DispatchPayloadConfig", "File": "foo"}},
        {"@": "Task", "DispatchPayload": {"@": "DispatchPayloadConfig", "File": "bar"}},
        false,
        r#"
        Edited task ""
          Edited DispatchPayload {
            Edited File: "foo" => "bar"
          }
        "#;

    /// `DispatchPayload edited with context`
    diff_test_go_v2_0_5_task_diff_dispatchpayload_edited_with_context:
        {"@": "Task", "DispatchPayload": {"@": "DispatchPayloadConfig", "File": "foo"}},
        {"@": "Task", "DispatchPayload": {"@": "DispatchPayloadConfig", "File": "bar"}},
        true,
        r#"
        Edited task ""
          Edited DispatchPayload {
            Edited File: "foo" => "bar"
          }
        "#;

    /// `Alternate identities added`
    diff_test_go_v2_0_5_task_diff_alternate_identities_added:
        {
            "@": "Task",
            "Identities": [
                {
                    "@": "WorkloadIdentity",
                    "Name": "consul",
                    "Audience": ["consul.io"],
                    "Env": true
                }
            ]
        },
        {
            "@": "Task",
            "Identities": [
                {
                    "@": "WorkloadIdentity",
                    "Name": "consul",
                    "Audience": ["consul.io"],
                    "Env": true
                },
                {
                    "@": "WorkloadIdentity",
                    "Name": "vault",
                    "Audience": ["vault.io"],
                    "File": true,
                    "TTL": 3600000000000_i64
                }
            ]
        },
        false,
        r#"
        Edited task ""
          Added Identity {
            Added Env: "" => "false"
            Added File: "" => "true"
            Added Name: "" => "vault"
            Added TTL: "" => "3600000000000"
            Added Audience {
              Added Audience: "" => "vault.io"
            }
          }
        "#;

    /// `Alternate identities edited`
    diff_test_go_v2_0_5_task_diff_alternate_identities_edited:
        {
            "@": "Task",
            "Identities": [
                {
                    "@": "WorkloadIdentity",
                    "Name": "consul",
                    "Audience": ["consul.io"],
                    "Env": true,
                    "File": false,
                    "TTL": 3600000000000_i64
                },
                {
                    "@": "WorkloadIdentity",
                    "Name": "vault",
                    "Audience": ["vault.io"],
                    "File": true
                }
            ]
        },
        {
            "@": "Task",
            "Identities": [
                {
                    "@": "WorkloadIdentity",
                    "Name": "consul",
                    "Audience": ["consul-prod.io"],
                    "Env": false,
                    "File": true,
                    "TTL": 7200000000000_i64
                },
                {
                    "@": "WorkloadIdentity",
                    "Name": "vault-dev",
                    "Audience": ["vault.io"],
                    "File": true,
                    "TTL": 3600000000000_i64
                }
            ]
        },
        false,
        r#"
        Edited task ""
          Edited Identity {
            Edited Env: "true" => "false"
            Edited File: "false" => "true"
            Edited TTL: "3600000000000" => "7200000000000"
            Edited Audience {
              Added Audience: "" => "consul-prod.io"
              Deleted Audience: "consul.io" => ""
            }
          }
          Added Identity {
            Added Env: "" => "false"
            Added File: "" => "true"
            Added Name: "" => "vault-dev"
            Added TTL: "" => "3600000000000"
            Added Audience {
              Added Audience: "" => "vault.io"
            }
          }
          Deleted Identity {
            Deleted Env: "false" => ""
            Deleted File: "true" => ""
            Deleted Name: "vault" => ""
            Deleted TTL: "0" => ""
            Deleted Audience {
              Deleted Audience: "vault.io" => ""
            }
          }
        "#;

    /// `Action Args edited`
    diff_test_go_v2_0_5_task_diff_action_args_edited:
        {
            "@": "Task",
            "Actions": [{"@": "Action", "Name": "foo", "Command": "echo", "Args": ["bar"]}]
        },
        {
            "@": "Task",
            "Actions": [{"@": "Action", "Name": "foo", "Command": "echo", "Args": ["baz"]}]
        },
        false,
        r#"
        Edited task ""
          Edited Action {
            Edited Args {
              Added Args: "" => "baz"
              Deleted Args: "bar" => ""
            }
          }
        "#;

}
