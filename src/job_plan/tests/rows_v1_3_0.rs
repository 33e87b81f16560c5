//! nomad/structs/diff_test.go `TestTaskGroupDiff` and `TestTaskDiff` at v1.3.0: the cases
//! whose answer differs from the next tag's (the fields that release's
//! structs have, written as Go's encoder writes them).
//! Left out: a driver config holding a Go struct, which a job from JSON
//! cannot carry.

use crate::model::v;

diff_cases! {
    group_rows at v(1, 3, 0);

    /// `TaskGroup Services edited`
    diff_test_go_v1_3_0_task_group_diff_taskgroup_services_edited:
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
                                "TLS": {"Enabled": false},
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
                                "TLS": {"Enabled": true},
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
    task_rows at v(1, 3, 0);

    /// `LogConfig added`
    diff_test_go_v1_3_0_task_diff_logconfig_added:
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
            "LogConfig": {"MaxFiles": 1, "MaxFileSizeMB": 10},
            "Leader": false,
            "ShutdownDelay": 0,
            "KillSignal": "",
            "Kind": ""
        },
        false,
        r#"
        Edited task ""
          Added LogConfig {
            Added MaxFileSizeMB: "" => "10"
            Added MaxFiles: "" => "1"
          }
        "#;

    /// `LogConfig deleted`
    diff_test_go_v1_3_0_task_diff_logconfig_deleted:
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "KillTimeout": 0,
            "LogConfig": {"MaxFiles": 1, "MaxFileSizeMB": 10},
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
          Deleted LogConfig {
            Deleted MaxFileSizeMB: "10" => ""
            Deleted MaxFiles: "1" => ""
          }
        "#;

    /// `LogConfig edited`
    diff_test_go_v1_3_0_task_diff_logconfig_edited:
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "KillTimeout": 0,
            "LogConfig": {"MaxFiles": 1, "MaxFileSizeMB": 10},
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
            "LogConfig": {"MaxFiles": 2, "MaxFileSizeMB": 20},
            "Leader": false,
            "ShutdownDelay": 0,
            "KillSignal": "",
            "Kind": ""
        },
        false,
        r#"
        Edited task ""
          Edited LogConfig {
            Edited MaxFileSizeMB: "10" => "20"
            Edited MaxFiles: "1" => "2"
          }
        "#;

    /// `LogConfig edited with context`
    diff_test_go_v1_3_0_task_diff_logconfig_edited_with_context:
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "KillTimeout": 0,
            "LogConfig": {"MaxFiles": 1, "MaxFileSizeMB": 10},
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
            "LogConfig": {"MaxFiles": 1, "MaxFileSizeMB": 20},
            "Leader": false,
            "ShutdownDelay": 0,
            "KillSignal": "",
            "Kind": ""
        },
        true,
        r#"
        Edited task ""
          Edited LogConfig {
            Edited MaxFileSizeMB: "10" => "20"
            None MaxFiles: "1" => "1"
          }
        "#;

    /// `Service Checks edited with context`
    diff_test_go_v1_3_0_task_diff_service_checks_edited_with_context:
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
    diff_test_go_v1_3_0_task_diff_vault_added:
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
            Added Env: "" => "true"
            Added Policies {
              Added Policies: "" => "bar"
              Added Policies: "" => "foo"
            }
          }
        "#;

    /// `Vault deleted`
    diff_test_go_v1_3_0_task_diff_vault_deleted:
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "Vault": {
                "Policies": ["foo", "bar"],
                "Namespace": "",
                "Env": true,
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
            Deleted Env: "true" => ""
            Deleted Policies {
              Deleted Policies: "bar" => ""
              Deleted Policies: "foo" => ""
            }
          }
        "#;

    /// `Vault edited`
    diff_test_go_v1_3_0_task_diff_vault_edited:
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "Vault": {
                "Policies": ["foo", "bar"],
                "Namespace": "ns1",
                "Env": true,
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
            Edited Env: "true" => "false"
            Edited Namespace: "ns1" => "ns2"
            Edited Policies {
              Added Policies: "" => "baz"
              Deleted Policies: "foo" => ""
            }
          }
        "#;

    /// `Vault edited with context`
    diff_test_go_v1_3_0_task_diff_vault_edited_with_context:
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "Vault": {
                "Policies": ["foo", "bar"],
                "Namespace": "ns1",
                "Env": true,
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
            None Env: "true" => "true"
            None Namespace: "ns1" => "ns1"
            Edited Policies {
              Added Policies: "" => "baz"
              None Policies: "bar" => "bar"
              Deleted Policies: "foo" => ""
            }
          }
        "#;

    /// `Template edited`
    diff_test_go_v1_3_0_task_diff_template_edited:
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "Templates": [
                {
                    "SourcePath": "foo",
                    "DestPath": "bar",
                    "EmbeddedTmpl": "baz",
                    "ChangeMode": "bam",
                    "ChangeSignal": "SIGHUP",
                    "Splay": 1,
                    "Perms": "0644",
                    "LeftDelim": "",
                    "RightDelim": "",
                    "Envvars": false,
                    "VaultGrace": 0,
                    "Wait": {"Min": 5000000000_i64, "Max": 5000000000_i64}
                },
                {
                    "SourcePath": "foo2",
                    "DestPath": "bar2",
                    "EmbeddedTmpl": "baz2",
                    "ChangeMode": "bam2",
                    "ChangeSignal": "SIGHUP2",
                    "Splay": 2,
                    "Perms": "0666",
                    "LeftDelim": "",
                    "RightDelim": "",
                    "Envvars": true,
                    "VaultGrace": 0
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
            "Templates": [
                {
                    "SourcePath": "foo",
                    "DestPath": "bar",
                    "EmbeddedTmpl": "baz new",
                    "ChangeMode": "bam",
                    "ChangeSignal": "SIGHUP",
                    "Splay": 1,
                    "Perms": "0644",
                    "LeftDelim": "",
                    "RightDelim": "",
                    "Envvars": false,
                    "VaultGrace": 0,
                    "Wait": {"Min": 5000000000_i64, "Max": 10000000000_i64}
                },
                {
                    "SourcePath": "foo3",
                    "DestPath": "bar3",
                    "EmbeddedTmpl": "baz3",
                    "ChangeMode": "bam3",
                    "ChangeSignal": "SIGHUP3",
                    "Splay": 3,
                    "Perms": "0776",
                    "LeftDelim": "",
                    "RightDelim": "",
                    "Envvars": false,
                    "VaultGrace": 0,
                    "Wait": {"Min": 5000000000_i64, "Max": 10000000000_i64}
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
          Edited Template {
            Edited EmbeddedTmpl: "baz" => "baz new"
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
            Added Perms: "" => "0776"
            Added SourcePath: "" => "foo3"
            Added Splay: "" => "3"
            Added VaultGrace: "" => "0"
            Added Template {
              Added Max: "" => "10000000000"
              Added Min: "" => "5000000000"
            }
          }
          Deleted Template {
            Deleted ChangeMode: "bam2" => ""
            Deleted ChangeSignal: "SIGHUP2" => ""
            Deleted DestPath: "bar2" => ""
            Deleted EmbeddedTmpl: "baz2" => ""
            Deleted Envvars: "true" => ""
            Deleted Perms: "0666" => ""
            Deleted SourcePath: "foo2" => ""
            Deleted Splay: "2" => ""
            Deleted VaultGrace: "0" => ""
          }
        "#;

}
