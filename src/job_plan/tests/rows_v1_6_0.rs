//! nomad/structs/diff_test.go `TestTaskGroupDiff` and `TestTaskDiff` at v1.6.0: the cases
//! whose answer differs from the next tag's (the fields that release's
//! structs have, written as Go's encoder writes them).
//! Left out: a driver config holding a Go struct, which a job from JSON
//! cannot carry.

use crate::model::v;

diff_cases! {
    group_rows at v(1, 6, 0);

    /// `Consul updated`
    diff_test_go_v1_6_0_task_group_diff_consul_updated:
        {"Name": "", "Count": 0, "Consul": {"Namespace": "team1"}},
        {"Name": "", "Count": 0, "Consul": {"Namespace": "team2"}},
        false,
        r#"
        Edited group ""
          Edited Consul {
            Edited Namespace: "team1" => "team2"
          }
        "#;

    /// `RestartPolicy added`
    diff_test_go_v1_6_0_task_group_diff_restartpolicy_added:
        {"Name": "", "Count": 0},
        {
            "Name": "",
            "Count": 0,
            "RestartPolicy": {
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
          }
        "#;

    /// `RestartPolicy deleted`
    diff_test_go_v1_6_0_task_group_diff_restartpolicy_deleted:
        {
            "Name": "",
            "Count": 0,
            "RestartPolicy": {
                "Attempts": 1,
                "Interval": 1000000000_i64,
                "Delay": 1000000000_i64,
                "Mode": "fail"
            }
        },
        {"Name": "", "Count": 0},
        false,
        r#"
        Edited group ""
          Deleted RestartPolicy {
            Deleted Attempts: "1" => ""
            Deleted Delay: "1000000000" => ""
            Deleted Interval: "1000000000" => ""
            Deleted Mode: "fail" => ""
          }
        "#;

    /// `RestartPolicy edited`
    diff_test_go_v1_6_0_task_group_diff_restartpolicy_edited:
        {
            "Name": "",
            "Count": 0,
            "RestartPolicy": {
                "Attempts": 1,
                "Interval": 1000000000_i64,
                "Delay": 1000000000_i64,
                "Mode": "fail"
            }
        },
        {
            "Name": "",
            "Count": 0,
            "RestartPolicy": {
                "Attempts": 2,
                "Interval": 2000000000_i64,
                "Delay": 2000000000_i64,
                "Mode": "delay"
            }
        },
        false,
        r#"
        Edited group ""
          Edited RestartPolicy {
            Edited Attempts: "1" => "2"
            Edited Delay: "1000000000" => "2000000000"
            Edited Interval: "1000000000" => "2000000000"
            Edited Mode: "fail" => "delay"
          }
        "#;

    /// `RestartPolicy edited with context`
    diff_test_go_v1_6_0_task_group_diff_restartpolicy_edited_with_context:
        {
            "Name": "",
            "Count": 0,
            "RestartPolicy": {
                "Attempts": 1,
                "Interval": 1000000000_i64,
                "Delay": 1000000000_i64,
                "Mode": "fail"
            }
        },
        {
            "Name": "",
            "Count": 0,
            "RestartPolicy": {
                "Attempts": 2,
                "Interval": 2000000000_i64,
                "Delay": 1000000000_i64,
                "Mode": "fail"
            }
        },
        true,
        r#"
        Edited group ""
          Edited RestartPolicy {
            Edited Attempts: "1" => "2"
            None Delay: "1000000000" => "1000000000"
            Edited Interval: "1000000000" => "2000000000"
            None Mode: "fail" => "fail"
          }
        "#;

    /// `TaskGroup Services edited`
    diff_test_go_v1_6_0_task_group_diff_taskgroup_services_edited:
        {
            "Name": "",
            "Count": 0,
            "Services": [
                {
                    "Name": "foo",
                    "TaskName": "task1",
                    "PortLabel": "",
                    "AddressMode": "",
                    "Address": "",
                    "EnableTagOverride": false,
                    "Checks": [
                        {
                            "Name": "foo",
                            "Type": "http",
                            "Command": "foo",
                            "Args": ["foo"],
                            "Path": "foo",
                            "Protocol": "http",
                            "PortLabel": "",
                            "Expose": true,
                            "AddressMode": "",
                            "Interval": 1000000000_i64,
                            "Timeout": 1000000000_i64,
                            "InitialStatus": "",
                            "TLSServerName": "",
                            "TLSSkipVerify": false,
                            "Method": "POST",
                            "GRPCService": "",
                            "GRPCUseTLS": false,
                            "TaskName": "",
                            "SuccessBeforePassing": 3,
                            "FailuresBeforeCritical": 4,
                            "Body": "{\"key\": \"value\"}",
                            "OnUpdate": ""
                        }
                    ],
                    "Connect": {
                        "Native": false,
                        "SidecarTask": {
                            "Name": "sidecar",
                            "Driver": "docker",
                            "User": "",
                            "Config": {"foo": "baz"},
                            "Env": {"FOO": "BAR"},
                            "KillSignal": ""
                        },
                        "Gateway": {
                            "Proxy": {
                                "ConnectTimeout": 1000000000_i64,
                                "EnvoyGatewayBindTaggedAddresses": false,
                                "EnvoyGatewayBindAddresses": {"service1": {"Address": "10.0.0.1", "Port": 2001}},
                                "EnvoyGatewayNoDefaultBind": false,
                                "EnvoyDNSDiscoveryType": "STRICT_DNS",
                                "Config": {"foo": 1}
                            },
                            "Ingress": {
                                "TLS": {"Enabled": false, "TLSMinVersion": "", "TLSMaxVersion": ""},
                                "Listeners": [
                                    {
                                        "Port": 3001,
                                        "Protocol": "tcp",
                                        "Services": [{"Name": "listener1"}]
                                    }
                                ]
                            },
                            "Terminating": {
                                "Services": [
                                    {
                                        "Name": "linked1",
                                        "CAFile": "ca1.pem",
                                        "CertFile": "cert1.pem",
                                        "KeyFile": "key1.pem",
                                        "SNI": "linked1.consul"
                                    }
                                ]
                            },
                            "Mesh": {}
                        }
                    },
                    "Namespace": "team1",
                    "OnUpdate": "",
                    "Provider": ""
                }
            ]
        },
        {
            "Name": "",
            "Count": 0,
            "Services": [
                {
                    "Name": "foo",
                    "TaskName": "task2",
                    "PortLabel": "",
                    "AddressMode": "",
                    "Address": "",
                    "EnableTagOverride": true,
                    "Checks": [
                        {
                            "Name": "foo",
                            "Type": "tcp",
                            "Command": "bar",
                            "Path": "bar",
                            "Protocol": "tcp",
                            "PortLabel": "",
                            "Expose": false,
                            "AddressMode": "",
                            "Interval": 2000000000_i64,
                            "Timeout": 2000000000_i64,
                            "InitialStatus": "",
                            "TLSServerName": "",
                            "TLSSkipVerify": false,
                            "Method": "",
                            "Header": {"Foo": ["baz"]},
                            "GRPCService": "",
                            "GRPCUseTLS": false,
                            "TaskName": "",
                            "SuccessBeforePassing": 5,
                            "FailuresBeforeCritical": 6,
                            "Body": "",
                            "OnUpdate": ""
                        }
                    ],
                    "Connect": {
                        "Native": true,
                        "SidecarService": {
                            "Port": "http",
                            "Proxy": {
                                "LocalServiceAddress": "127.0.0.1",
                                "LocalServicePort": 8080,
                                "Upstreams": [
                                    {
                                        "DestinationName": "foo",
                                        "DestinationNamespace": "ns2",
                                        "LocalBindPort": 8000,
                                        "Datacenter": "dc2",
                                        "LocalBindAddress": "127.0.0.2",
                                        "MeshGateway": {"Mode": "remote"}
                                    }
                                ],
                                "Config": {"foo": "qux"}
                            },
                            "DisableDefaultTCPCheck": false
                        },
                        "Gateway": {
                            "Proxy": {
                                "ConnectTimeout": 2000000000_i64,
                                "EnvoyGatewayBindTaggedAddresses": true,
                                "EnvoyGatewayBindAddresses": {"service1": {"Address": "10.0.0.2", "Port": 2002}},
                                "EnvoyGatewayNoDefaultBind": true,
                                "EnvoyDNSDiscoveryType": "LOGICAL_DNS",
                                "Config": {"foo": 2}
                            },
                            "Ingress": {
                                "TLS": {"Enabled": true, "TLSMinVersion": "", "TLSMaxVersion": ""},
                                "Listeners": [
                                    {
                                        "Port": 3002,
                                        "Protocol": "http",
                                        "Services": [
                                            {
                                                "Name": "listener2",
                                                "Hosts": ["127.0.0.1", "127.0.0.1:3002"]
                                            }
                                        ]
                                    }
                                ]
                            },
                            "Terminating": {
                                "Services": [
                                    {
                                        "Name": "linked2",
                                        "CAFile": "ca2.pem",
                                        "CertFile": "cert2.pem",
                                        "KeyFile": "key2.pem",
                                        "SNI": "linked2.consul"
                                    }
                                ]
                            },
                            "Mesh": {}
                        }
                    },
                    "Namespace": "team1",
                    "OnUpdate": "",
                    "Provider": ""
                }
            ]
        },
        true,
        r#"
        Edited group ""
          Edited Service {
            None Address: "" => ""
            None AddressMode: "" => ""
            Edited EnableTagOverride: "false" => "true"
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
              None GRPCService: "" => ""
              None GRPCUseTLS: "false" => "false"
              None InitialStatus: "" => ""
              Edited Interval: "1000000000" => "2000000000"
              Deleted Method: "POST" => ""
              None Name: "foo" => "foo"
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
                    Added LocalBindAddress: "" => "127.0.0.2"
                    Added LocalBindPort: "" => "8000"
                    Added MeshGateway {
                      Added Mode: "" => "remote"
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

}

diff_cases! {
    task_rows at v(1, 6, 0);

    /// `Artifacts edited`
    diff_test_go_v1_6_0_task_diff_artifacts_edited:
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "KillTimeout": 0,
            "Artifacts": [
                {
                    "GetterSource": "foo",
                    "GetterOptions": {"foo": "bar"},
                    "GetterMode": "",
                    "RelativeDest": "foo"
                },
                {
                    "GetterSource": "bar",
                    "GetterOptions": {"bar": "baz"},
                    "GetterHeaders": {"User": "user1"},
                    "GetterMode": "dir",
                    "RelativeDest": "bar"
                }
            ],
            "Leader": false,
            "ShutdownDelay": 0,
            "KillSignal": "",
            "Kind": ""
        },
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "KillTimeout": 0,
            "Artifacts": [
                {
                    "GetterSource": "foo/bar",
                    "GetterOptions": {"foo": "bar"},
                    "GetterMode": "",
                    "RelativeDest": "foo"
                },
                {
                    "GetterSource": "bam",
                    "GetterOptions": {"bam": "baz"},
                    "GetterHeaders": {"User": "user2", "User-Agent": "nomad"},
                    "GetterMode": "file",
                    "RelativeDest": "bam"
                }
            ],
            "Leader": false,
            "ShutdownDelay": 0,
            "KillSignal": "",
            "Kind": ""
        },
        false,
        r#"
        Edited task ""
          Edited Artifact {
            Edited GetterSource: "foo" => "foo/bar"
          }
          Added Artifact {
            Added GetterHeaders[User-Agent]: "" => "nomad"
            Added GetterHeaders[User]: "" => "user2"
            Added GetterMode: "" => "file"
            Added GetterOptions[bam]: "" => "baz"
            Added GetterSource: "" => "bam"
            Added RelativeDest: "" => "bam"
          }
          Deleted Artifact {
            Deleted GetterHeaders[User]: "user1" => ""
            Deleted GetterMode: "dir" => ""
            Deleted GetterOptions[bar]: "baz" => ""
            Deleted GetterSource: "bar" => ""
            Deleted RelativeDest: "bar" => ""
          }
        "#;

    /// `Services edited (no checks) with context`
    diff_test_go_v1_6_0_task_diff_services_edited_no_checks_with_context:
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "Services": [
                {
                    "Name": "foo",
                    "TaskName": "",
                    "PortLabel": "foo",
                    "AddressMode": "",
                    "Address": "",
                    "EnableTagOverride": false,
                    "Namespace": "",
                    "OnUpdate": "",
                    "Provider": ""
                }
            ],
            "KillTimeout": 0,
            "Leader": false,
            "ShutdownDelay": 0,
            "KillSignal": "",
            "Kind": ""
        },
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "Services": [
                {
                    "Name": "foo",
                    "TaskName": "task1",
                    "PortLabel": "bar",
                    "AddressMode": "driver",
                    "Address": "a.example.com",
                    "EnableTagOverride": false,
                    "Namespace": "",
                    "OnUpdate": "",
                    "Provider": ""
                }
            ],
            "KillTimeout": 0,
            "Leader": false,
            "ShutdownDelay": 0,
            "KillSignal": "",
            "Kind": ""
        },
        true,
        r#"
        Edited task ""
          Edited Service {
            Added Address: "" => "a.example.com"
            Added AddressMode: "" => "driver"
            None EnableTagOverride: "false" => "false"
            None Name: "foo" => "foo"
            None Namespace: "" => ""
            None OnUpdate: "" => ""
            Edited PortLabel: "foo" => "bar"
            None Provider: "" => ""
            Added TaskName: "" => "task1"
          }
        "#;

    /// `Services tags edited (no checks) with context`
    diff_test_go_v1_6_0_task_diff_services_tags_edited_no_checks_with_context:
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "Services": [
                {
                    "Name": "",
                    "TaskName": "",
                    "PortLabel": "",
                    "AddressMode": "",
                    "Address": "",
                    "EnableTagOverride": false,
                    "Tags": ["foo", "bar"],
                    "CanaryTags": ["foo", "bar"],
                    "Namespace": "",
                    "OnUpdate": "",
                    "Provider": ""
                }
            ],
            "KillTimeout": 0,
            "Leader": false,
            "ShutdownDelay": 0,
            "KillSignal": "",
            "Kind": ""
        },
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "Services": [
                {
                    "Name": "",
                    "TaskName": "",
                    "PortLabel": "",
                    "AddressMode": "",
                    "Address": "",
                    "EnableTagOverride": false,
                    "Tags": ["bar", "bam"],
                    "CanaryTags": ["bar", "bam"],
                    "Namespace": "",
                    "OnUpdate": "",
                    "Provider": ""
                }
            ],
            "KillTimeout": 0,
            "Leader": false,
            "ShutdownDelay": 0,
            "KillSignal": "",
            "Kind": ""
        },
        true,
        r#"
        Edited task ""
          Edited Service {
            None Address: "" => ""
            None AddressMode: "" => ""
            None EnableTagOverride: "false" => "false"
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

    /// `Service Checks edited`
    diff_test_go_v1_6_0_task_diff_service_checks_edited:
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "Services": [
                {
                    "Name": "foo",
                    "TaskName": "",
                    "PortLabel": "",
                    "AddressMode": "",
                    "Address": "",
                    "EnableTagOverride": false,
                    "Checks": [
                        {
                            "Name": "foo",
                            "Type": "http",
                            "Command": "foo",
                            "Args": ["foo"],
                            "Path": "foo",
                            "Protocol": "http",
                            "PortLabel": "",
                            "Expose": false,
                            "AddressMode": "",
                            "Interval": 1000000000_i64,
                            "Timeout": 1000000000_i64,
                            "InitialStatus": "",
                            "TLSServerName": "",
                            "TLSSkipVerify": false,
                            "Method": "",
                            "Header": {"Foo": ["bar"]},
                            "GRPCService": "",
                            "GRPCUseTLS": false,
                            "TaskName": "",
                            "SuccessBeforePassing": 1,
                            "FailuresBeforeCritical": 1,
                            "Body": "",
                            "OnUpdate": ""
                        },
                        {
                            "Name": "bar",
                            "Type": "http",
                            "Command": "foo",
                            "Args": ["foo"],
                            "Path": "foo",
                            "Protocol": "http",
                            "PortLabel": "",
                            "Expose": false,
                            "AddressMode": "",
                            "Interval": 1000000000_i64,
                            "Timeout": 1000000000_i64,
                            "InitialStatus": "",
                            "TLSServerName": "",
                            "TLSSkipVerify": false,
                            "Method": "",
                            "GRPCService": "",
                            "GRPCUseTLS": false,
                            "TaskName": "",
                            "SuccessBeforePassing": 7,
                            "FailuresBeforeCritical": 7,
                            "Body": "",
                            "OnUpdate": ""
                        },
                        {
                            "Name": "baz",
                            "Type": "http",
                            "Command": "foo",
                            "Args": ["foo"],
                            "Path": "foo",
                            "Protocol": "http",
                            "PortLabel": "",
                            "Expose": false,
                            "AddressMode": "",
                            "Interval": 1000000000_i64,
                            "Timeout": 1000000000_i64,
                            "InitialStatus": "",
                            "TLSServerName": "",
                            "TLSSkipVerify": false,
                            "Method": "",
                            "GRPCService": "",
                            "GRPCUseTLS": false,
                            "TaskName": "",
                            "SuccessBeforePassing": 0,
                            "FailuresBeforeCritical": 0,
                            "Body": "",
                            "OnUpdate": ""
                        }
                    ],
                    "Namespace": "",
                    "OnUpdate": "",
                    "Provider": ""
                }
            ],
            "KillTimeout": 0,
            "Leader": false,
            "ShutdownDelay": 0,
            "KillSignal": "",
            "Kind": ""
        },
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "Services": [
                {
                    "Name": "foo",
                    "TaskName": "",
                    "PortLabel": "",
                    "AddressMode": "",
                    "Address": "",
                    "EnableTagOverride": false,
                    "Checks": [
                        {
                            "Name": "bar",
                            "Type": "http",
                            "Command": "foo",
                            "Args": ["foo"],
                            "Path": "foo",
                            "Protocol": "http",
                            "PortLabel": "",
                            "Expose": false,
                            "AddressMode": "",
                            "Interval": 1000000000_i64,
                            "Timeout": 1000000000_i64,
                            "InitialStatus": "",
                            "TLSServerName": "",
                            "TLSSkipVerify": false,
                            "Method": "",
                            "GRPCService": "",
                            "GRPCUseTLS": false,
                            "TaskName": "",
                            "SuccessBeforePassing": 7,
                            "FailuresBeforeCritical": 7,
                            "Body": "",
                            "OnUpdate": ""
                        },
                        {
                            "Name": "baz",
                            "Type": "tcp",
                            "Command": "foo",
                            "Args": ["foo"],
                            "Path": "foo",
                            "Protocol": "http",
                            "PortLabel": "",
                            "Expose": false,
                            "AddressMode": "",
                            "Interval": 1000000000_i64,
                            "Timeout": 1000000000_i64,
                            "InitialStatus": "",
                            "TLSServerName": "",
                            "TLSSkipVerify": false,
                            "Method": "",
                            "Header": {"Eggs": ["spam"]},
                            "GRPCService": "",
                            "GRPCUseTLS": false,
                            "TaskName": "",
                            "SuccessBeforePassing": 0,
                            "FailuresBeforeCritical": 0,
                            "Body": "",
                            "OnUpdate": ""
                        },
                        {
                            "Name": "bam",
                            "Type": "http",
                            "Command": "foo",
                            "Args": ["foo"],
                            "Path": "foo",
                            "Protocol": "http",
                            "PortLabel": "",
                            "Expose": false,
                            "AddressMode": "",
                            "Interval": 1000000000_i64,
                            "Timeout": 1000000000_i64,
                            "InitialStatus": "",
                            "TLSServerName": "",
                            "TLSSkipVerify": false,
                            "Method": "",
                            "GRPCService": "",
                            "GRPCUseTLS": false,
                            "TaskName": "",
                            "SuccessBeforePassing": 2,
                            "FailuresBeforeCritical": 2,
                            "Body": "",
                            "OnUpdate": ""
                        }
                    ],
                    "Namespace": "",
                    "OnUpdate": "",
                    "Provider": ""
                }
            ],
            "KillTimeout": 0,
            "Leader": false,
            "ShutdownDelay": 0,
            "KillSignal": "",
            "Kind": ""
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
    diff_test_go_v1_6_0_task_diff_service_checks_edited_with_context:
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "Services": [
                {
                    "Name": "foo",
                    "TaskName": "",
                    "PortLabel": "",
                    "AddressMode": "",
                    "Address": "",
                    "EnableTagOverride": false,
                    "Checks": [
                        {
                            "Name": "foo",
                            "Type": "http",
                            "Command": "foo",
                            "Args": ["foo"],
                            "Path": "foo",
                            "Protocol": "http",
                            "PortLabel": "",
                            "Expose": false,
                            "AddressMode": "",
                            "Interval": 1000000000_i64,
                            "Timeout": 1000000000_i64,
                            "InitialStatus": "critical",
                            "TLSServerName": "",
                            "TLSSkipVerify": false,
                            "Method": "",
                            "Header": {"Foo": ["bar"]},
                            "GRPCService": "",
                            "GRPCUseTLS": false,
                            "TaskName": "",
                            "SuccessBeforePassing": 4,
                            "FailuresBeforeCritical": 5,
                            "Body": "",
                            "OnUpdate": "require_healthy"
                        }
                    ],
                    "Namespace": "",
                    "OnUpdate": "",
                    "Provider": ""
                }
            ],
            "KillTimeout": 0,
            "Leader": false,
            "ShutdownDelay": 0,
            "KillSignal": "",
            "Kind": ""
        },
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "Services": [
                {
                    "Name": "foo",
                    "TaskName": "",
                    "PortLabel": "",
                    "AddressMode": "",
                    "Address": "",
                    "EnableTagOverride": false,
                    "Checks": [
                        {
                            "Name": "foo",
                            "Type": "tcp",
                            "Command": "foo",
                            "Args": ["foo"],
                            "Path": "foo",
                            "Protocol": "http",
                            "PortLabel": "",
                            "Expose": false,
                            "AddressMode": "",
                            "Interval": 1000000000_i64,
                            "Timeout": 1000000000_i64,
                            "InitialStatus": "passing",
                            "TLSServerName": "",
                            "TLSSkipVerify": false,
                            "Method": "POST",
                            "Header": {"Foo": ["bar", "baz"], "Eggs": ["spam"]},
                            "GRPCService": "",
                            "GRPCUseTLS": false,
                            "TaskName": "",
                            "SuccessBeforePassing": 4,
                            "FailuresBeforeCritical": 0,
                            "Body": "",
                            "OnUpdate": "ignore_warnings"
                        }
                    ],
                    "Namespace": "",
                    "OnUpdate": "",
                    "Provider": ""
                }
            ],
            "KillTimeout": 0,
            "Leader": false,
            "ShutdownDelay": 0,
            "KillSignal": "",
            "Kind": ""
        },
        true,
        r#"
        Edited task ""
          Edited Service {
            None Address: "" => ""
            None AddressMode: "" => ""
            None EnableTagOverride: "false" => "false"
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
              None GRPCService: "" => ""
              None GRPCUseTLS: "false" => "false"
              Edited InitialStatus: "critical" => "passing"
              None Interval: "1000000000" => "1000000000"
              Added Method: "" => "POST"
              None Name: "foo" => "foo"
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

    /// `Vault added`
    diff_test_go_v1_6_0_task_diff_vault_added:
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "KillTimeout": 0,
            "Leader": false,
            "ShutdownDelay": 0,
            "KillSignal": "",
            "Kind": ""
        },
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "Vault": {
                "Policies": ["foo", "bar"],
                "Namespace": "",
                "Env": true,
                "DisableFile": true,
                "ChangeMode": "signal",
                "ChangeSignal": "SIGUSR1"
            },
            "KillTimeout": 0,
            "Leader": false,
            "ShutdownDelay": 0,
            "KillSignal": "",
            "Kind": ""
        },
        false,
        r#"
        Edited task ""
          Added Vault {
            Added ChangeMode: "" => "signal"
            Added ChangeSignal: "" => "SIGUSR1"
            Added DisableFile: "" => "true"
            Added Env: "" => "true"
            Added Policies {
              Added Policies: "" => "bar"
              Added Policies: "" => "foo"
            }
          }
        "#;

    /// `Vault deleted`
    diff_test_go_v1_6_0_task_diff_vault_deleted:
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "Vault": {
                "Policies": ["foo", "bar"],
                "Namespace": "",
                "Env": true,
                "DisableFile": true,
                "ChangeMode": "signal",
                "ChangeSignal": "SIGUSR1"
            },
            "KillTimeout": 0,
            "Leader": false,
            "ShutdownDelay": 0,
            "KillSignal": "",
            "Kind": ""
        },
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "KillTimeout": 0,
            "Leader": false,
            "ShutdownDelay": 0,
            "KillSignal": "",
            "Kind": ""
        },
        false,
        r#"
        Edited task ""
          Deleted Vault {
            Deleted ChangeMode: "signal" => ""
            Deleted ChangeSignal: "SIGUSR1" => ""
            Deleted DisableFile: "true" => ""
            Deleted Env: "true" => ""
            Deleted Policies {
              Deleted Policies: "bar" => ""
              Deleted Policies: "foo" => ""
            }
          }
        "#;

    /// `Vault edited`
    diff_test_go_v1_6_0_task_diff_vault_edited:
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "Vault": {
                "Policies": ["foo", "bar"],
                "Namespace": "ns1",
                "Env": true,
                "DisableFile": true,
                "ChangeMode": "signal",
                "ChangeSignal": "SIGUSR1"
            },
            "KillTimeout": 0,
            "Leader": false,
            "ShutdownDelay": 0,
            "KillSignal": "",
            "Kind": ""
        },
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "Vault": {
                "Policies": ["bar", "baz"],
                "Namespace": "ns2",
                "Env": false,
                "DisableFile": false,
                "ChangeMode": "restart",
                "ChangeSignal": "foo"
            },
            "KillTimeout": 0,
            "Leader": false,
            "ShutdownDelay": 0,
            "KillSignal": "",
            "Kind": ""
        },
        false,
        r#"
        Edited task ""
          Edited Vault {
            Edited ChangeMode: "signal" => "restart"
            Edited ChangeSignal: "SIGUSR1" => "foo"
            Edited DisableFile: "true" => "false"
            Edited Env: "true" => "false"
            Edited Namespace: "ns1" => "ns2"
            Edited Policies {
              Added Policies: "" => "baz"
              Deleted Policies: "foo" => ""
            }
          }
        "#;

    /// `Vault edited with context`
    diff_test_go_v1_6_0_task_diff_vault_edited_with_context:
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "Vault": {
                "Policies": ["foo", "bar"],
                "Namespace": "ns1",
                "Env": true,
                "DisableFile": true,
                "ChangeMode": "signal",
                "ChangeSignal": "SIGUSR1"
            },
            "KillTimeout": 0,
            "Leader": false,
            "ShutdownDelay": 0,
            "KillSignal": "",
            "Kind": ""
        },
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "Vault": {
                "Policies": ["bar", "baz"],
                "Namespace": "ns1",
                "Env": true,
                "DisableFile": true,
                "ChangeMode": "signal",
                "ChangeSignal": "SIGUSR1"
            },
            "KillTimeout": 0,
            "Leader": false,
            "ShutdownDelay": 0,
            "KillSignal": "",
            "Kind": ""
        },
        true,
        r#"
        Edited task ""
          Edited Vault {
            None ChangeMode: "signal" => "signal"
            None ChangeSignal: "SIGUSR1" => "SIGUSR1"
            None DisableFile: "true" => "true"
            None Env: "true" => "true"
            None Namespace: "ns1" => "ns1"
            Edited Policies {
              Added Policies: "" => "baz"
              None Policies: "bar" => "bar"
              Deleted Policies: "foo" => ""
            }
          }
        "#;

    /// `Identity added`
    diff_test_go_v1_6_0_task_diff_identity_added:
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "KillTimeout": 0,
            "Leader": false,
            "ShutdownDelay": 0,
            "KillSignal": "",
            "Kind": ""
        },
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "KillTimeout": 0,
            "Leader": false,
            "ShutdownDelay": 0,
            "KillSignal": "",
            "Kind": "",
            "Identity": {"Env": true, "File": false}
        },
        false,
        r#"
        Edited task ""
          Added Identity {
            Added Env: "" => "true"
            Added File: "" => "false"
          }
        "#;

    /// `Identity removed`
    diff_test_go_v1_6_0_task_diff_identity_removed:
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "KillTimeout": 0,
            "Leader": false,
            "ShutdownDelay": 0,
            "KillSignal": "",
            "Kind": "",
            "Identity": {"Env": true, "File": false}
        },
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "KillTimeout": 0,
            "Leader": false,
            "ShutdownDelay": 0,
            "KillSignal": "",
            "Kind": ""
        },
        false,
        r#"
        Edited task ""
          Deleted Identity {
            Deleted Env: "true" => ""
            Deleted File: "false" => ""
          }
        "#;

}
