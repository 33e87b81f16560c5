//! nomad/structs/diff_test.go `TestTaskGroupDiff` and `TestTaskDiff` at v1.8.0: the cases
//! whose answer differs from the next tag's (the fields that release's
//! structs have, written as Go's encoder writes them).
//! Left out: a driver config holding a Go struct, which a job from JSON
//! cannot carry.

use crate::model::v;

diff_cases! {
    group_rows at v(1, 8, 0);

    /// `Reschedule on lost diff`
    diff_test_go_v1_8_0_task_group_diff_reschedule_on_lost_diff:
        {"Name": "foo", "Count": 100, "PreventRescheduleOnLost": true},
        {"Name": "foo", "Count": 100, "PreventRescheduleOnLost": false},
        false,
        r#"
        Edited group "foo"
          Edited PreventRescheduleOnLost: "true" => "false"
        "#;

    /// `TaskGroup Services edited`
    diff_test_go_v1_8_0_task_group_diff_taskgroup_services_edited:
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
                            "FailuresBeforeWarning": 2,
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
                            "KillSignal": "",
                            "VolumeMounts": [
                                {
                                    "Volume": "vol0",
                                    "Destination": "/path",
                                    "ReadOnly": false,
                                    "PropagationMode": "private",
                                    "SELinuxLabel": "Z"
                                }
                            ]
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
                    "Provider": "",
                    "Cluster": "default"
                }
            ],
            "PreventRescheduleOnLost": false
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
                            "FailuresBeforeWarning": 4,
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
                                        "DestinationPartition": "",
                                        "DestinationPeer": "",
                                        "DestinationType": "",
                                        "LocalBindPort": 8000,
                                        "Datacenter": "dc2",
                                        "LocalBindAddress": "127.0.0.2",
                                        "LocalBindSocketPath": "",
                                        "LocalBindSocketMode": "",
                                        "MeshGateway": {"Mode": "remote"}
                                    }
                                ],
                                "Expose": {
                                    "Paths": [
                                        {
                                            "Path": "/health",
                                            "Protocol": "http",
                                            "LocalPathPort": 9001,
                                            "ListenerPort": "api_expose_healthcheck"
                                        }
                                    ]
                                },
                                "TransparentProxy": {
                                    "UID": "101",
                                    "OutboundPort": 15001,
                                    "ExcludeInboundPorts": ["www", "9000"],
                                    "ExcludeOutboundPorts": [4443],
                                    "ExcludeOutboundCIDRs": ["10.0.0.0/8"],
                                    "ExcludeUIDs": ["1", "10"],
                                    "NoDNS": true
                                },
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
                    "Provider": "",
                    "Cluster": "default"
                }
            ],
            "PreventRescheduleOnLost": false
        },
        true,
        r#"
        Edited group ""
          Edited Service {
            None Address: "" => ""
            None AddressMode: "" => ""
            None Cluster: "default" => "default"
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
              Edited FailuresBeforeWarning: "2" => "4"
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
    diff_test_go_v1_8_0_task_group_diff_taskgroup_networks_edited:
        {
            "Name": "",
            "Count": 0,
            "Networks": [
                {
                    "Mode": "",
                    "Device": "foo",
                    "CIDR": "foo",
                    "IP": "foo",
                    "Hostname": "foo",
                    "MBits": 100,
                    "ReservedPorts": [{"Label": "foo", "Value": 80, "To": 0, "HostNetwork": ""}]
                }
            ],
            "PreventRescheduleOnLost": false
        },
        {
            "Name": "",
            "Count": 0,
            "Networks": [
                {
                    "Mode": "",
                    "Device": "bar",
                    "CIDR": "bar",
                    "IP": "bar",
                    "Hostname": "bar",
                    "MBits": 200,
                    "DNS": {"Servers": ["1.1.1.1"]},
                    "DynamicPorts": [{"Label": "bar", "Value": 0, "To": 8081, "HostNetwork": "public"}]
                }
            ],
            "PreventRescheduleOnLost": false
        },
        true,
        r#"
        Edited group ""
          Added Network {
            Added Hostname: "" => "bar"
            Added MBits: "" => "200"
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
            Deleted MBits: "100" => ""
            None Mode: "" => ""
            Deleted Static Port {
              None HostNetwork: "" => ""
              Deleted Label: "foo" => ""
              Deleted To: "0" => ""
              Deleted Value: "80" => ""
            }
          }
        "#;

    /// `TaskGroup volumes added`
    diff_test_go_v1_8_0_task_group_diff_taskgroup_volumes_added:
        {"Name": "", "Count": 0, "PreventRescheduleOnLost": false},
        {
            "Name": "",
            "Count": 0,
            "Volumes": {
                "foo": {
                    "Name": "foo",
                    "Type": "host",
                    "Source": "foo-src",
                    "ReadOnly": true,
                    "AccessMode": "",
                    "AttachmentMode": "",
                    "PerAlloc": true
                }
            },
            "PreventRescheduleOnLost": false
        },
        false,
        r#"
        Edited group ""
          Added Volume {
            Added Name: "" => "foo"
            Added PerAlloc: "" => "true"
            Added ReadOnly: "" => "true"
            Added Source: "" => "foo-src"
            Added Type: "" => "host"
          }
        "#;

    /// `MaxClientDisconnect added`
    diff_test_go_v1_8_0_task_group_diff_maxclientdisconnect_added:
        {
            "Name": "foo",
            "Count": 0,
            "MaxClientDisconnect": null,
            "PreventRescheduleOnLost": false
        },
        {
            "Name": "foo",
            "Count": 0,
            "MaxClientDisconnect": 20000000000_i64,
            "PreventRescheduleOnLost": false
        },
        false,
        r#"
        Edited group "foo"
          Added MaxClientDisconnect: "" => "20000000000"
        "#;

    /// `MaxClientDisconnect updated`
    diff_test_go_v1_8_0_task_group_diff_maxclientdisconnect_updated:
        {
            "Name": "foo",
            "Count": 0,
            "MaxClientDisconnect": 10000000000_i64,
            "PreventRescheduleOnLost": false
        },
        {
            "Name": "foo",
            "Count": 0,
            "MaxClientDisconnect": 20000000000_i64,
            "PreventRescheduleOnLost": false
        },
        false,
        r#"
        Edited group "foo"
          Edited MaxClientDisconnect: "10000000000" => "20000000000"
        "#;

    /// `MaxClientDisconnect deleted`
    diff_test_go_v1_8_0_task_group_diff_maxclientdisconnect_deleted:
        {
            "Name": "foo",
            "Count": 0,
            "MaxClientDisconnect": 10000000000_i64,
            "PreventRescheduleOnLost": false
        },
        {
            "Name": "foo",
            "Count": 0,
            "MaxClientDisconnect": null,
            "PreventRescheduleOnLost": false
        },
        false,
        r#"
        Edited group "foo"
          Deleted MaxClientDisconnect: "10000000000" => ""
        "#;

}

diff_cases! {
    task_rows at v(1, 8, 0);

    /// `Artifacts edited`
    diff_test_go_v1_8_0_task_diff_artifacts_edited:
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
                    "GetterInsecure": false,
                    "RelativeDest": "foo"
                },
                {
                    "GetterSource": "bar",
                    "GetterOptions": {"bar": "baz"},
                    "GetterHeaders": {"User": "user1"},
                    "GetterMode": "dir",
                    "GetterInsecure": false,
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
                    "GetterInsecure": false,
                    "RelativeDest": "foo"
                },
                {
                    "GetterSource": "bam",
                    "GetterOptions": {"bam": "baz"},
                    "GetterHeaders": {"User": "user2", "User-Agent": "nomad"},
                    "GetterMode": "file",
                    "GetterInsecure": false,
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
            Added GetterInsecure: "" => "false"
            Added GetterMode: "" => "file"
            Added GetterOptions[bam]: "" => "baz"
            Added GetterSource: "" => "bam"
            Added RelativeDest: "" => "bam"
          }
          Deleted Artifact {
            Deleted GetterHeaders[User]: "user1" => ""
            Deleted GetterInsecure: "false" => ""
            Deleted GetterMode: "dir" => ""
            Deleted GetterOptions[bar]: "baz" => ""
            Deleted GetterSource: "bar" => ""
            Deleted RelativeDest: "bar" => ""
          }
        "#;

    /// `Resources edited (no networks)`
    diff_test_go_v1_8_0_task_diff_resources_edited_no_networks:
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "Resources": {
                "CPU": 100,
                "Cores": 0,
                "MemoryMB": 100,
                "MemoryMaxMB": 0,
                "DiskMB": 100,
                "IOPS": 0
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
            "Resources": {
                "CPU": 200,
                "Cores": 0,
                "MemoryMB": 200,
                "MemoryMaxMB": 0,
                "DiskMB": 200,
                "IOPS": 0
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
          Edited Resources {
            Edited CPU: "100" => "200"
            Edited DiskMB: "100" => "200"
            Edited MemoryMB: "100" => "200"
          }
        "#;

    /// `Resources edited (no networks) with context`
    diff_test_go_v1_8_0_task_diff_resources_edited_no_networks_with_context:
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "Resources": {
                "CPU": 100,
                "Cores": 0,
                "MemoryMB": 100,
                "MemoryMaxMB": 0,
                "DiskMB": 100,
                "IOPS": 0
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
            "Resources": {
                "CPU": 200,
                "Cores": 0,
                "MemoryMB": 100,
                "MemoryMaxMB": 0,
                "DiskMB": 200,
                "IOPS": 0
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
          Edited Resources {
            Edited CPU: "100" => "200"
            None Cores: "0" => "0"
            Edited DiskMB: "100" => "200"
            None IOPS: "0" => "0"
            None MemoryMB: "100" => "100"
            None MemoryMaxMB: "0" => "0"
          }
        "#;

    /// `Resources edited memory_max with context`
    diff_test_go_v1_8_0_task_diff_resources_edited_memory_max_with_context:
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "Resources": {
                "CPU": 100,
                "Cores": 0,
                "MemoryMB": 100,
                "MemoryMaxMB": 200,
                "DiskMB": 100,
                "IOPS": 0
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
            "Resources": {
                "CPU": 100,
                "Cores": 0,
                "MemoryMB": 100,
                "MemoryMaxMB": 300,
                "DiskMB": 100,
                "IOPS": 0
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
          Edited Resources {
            None CPU: "100" => "100"
            None Cores: "0" => "0"
            None DiskMB: "100" => "100"
            None IOPS: "0" => "0"
            None MemoryMB: "100" => "100"
            Edited MemoryMaxMB: "200" => "300"
          }
        "#;

    /// `Network Resources edited`
    diff_test_go_v1_8_0_task_diff_network_resources_edited:
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "Resources": {
                "CPU": 0,
                "Cores": 0,
                "MemoryMB": 0,
                "MemoryMaxMB": 0,
                "DiskMB": 0,
                "IOPS": 0,
                "Networks": [
                    {
                        "Mode": "",
                        "Device": "foo",
                        "CIDR": "foo",
                        "IP": "foo",
                        "Hostname": "",
                        "MBits": 100,
                        "ReservedPorts": [{"Label": "foo", "Value": 80, "To": 0, "HostNetwork": ""}],
                        "DynamicPorts": [{"Label": "bar", "Value": 0, "To": 8080, "HostNetwork": ""}]
                    }
                ]
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
            "Resources": {
                "CPU": 0,
                "Cores": 0,
                "MemoryMB": 0,
                "MemoryMaxMB": 0,
                "DiskMB": 0,
                "IOPS": 0,
                "Networks": [
                    {
                        "Mode": "",
                        "Device": "bar",
                        "CIDR": "bar",
                        "IP": "bar",
                        "Hostname": "",
                        "MBits": 200,
                        "ReservedPorts": [{"Label": "foo", "Value": 81, "To": 0, "HostNetwork": ""}],
                        "DynamicPorts": [{"Label": "baz", "Value": 0, "To": 8081, "HostNetwork": ""}]
                    }
                ]
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
          Edited Resources {
            Added Network {
              Added MBits: "" => "200"
              Added Static Port {
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
              Deleted MBits: "100" => ""
              Deleted Static Port {
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

    /// `Device Resources edited with context`
    diff_test_go_v1_8_0_task_diff_device_resources_edited_with_context:
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "Resources": {
                "CPU": 100,
                "Cores": 0,
                "MemoryMB": 100,
                "MemoryMaxMB": 0,
                "DiskMB": 100,
                "IOPS": 0,
                "Devices": [
                    {"Name": "foo", "Count": 2},
                    {"Name": "bar", "Count": 2},
                    {"Name": "baz", "Count": 2}
                ]
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
            "Resources": {
                "CPU": 100,
                "Cores": 0,
                "MemoryMB": 100,
                "MemoryMaxMB": 0,
                "DiskMB": 100,
                "IOPS": 0,
                "Devices": [
                    {"Name": "foo", "Count": 2},
                    {"Name": "bar", "Count": 3},
                    {"Name": "bam", "Count": 2}
                ]
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
          Edited Resources {
            None CPU: "100" => "100"
            None Cores: "0" => "0"
            None DiskMB: "100" => "100"
            None IOPS: "0" => "0"
            None MemoryMB: "100" => "100"
            None MemoryMaxMB: "0" => "0"
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

    /// `Services edited (no checks) with context`
    diff_test_go_v1_8_0_task_diff_services_edited_no_checks_with_context:
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
                    "Provider": "",
                    "Cluster": ""
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
                    "Provider": "",
                    "Cluster": ""
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
            None Cluster: "" => ""
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
    diff_test_go_v1_8_0_task_diff_services_tags_edited_no_checks_with_context:
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
                    "Provider": "",
                    "Cluster": ""
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
                    "Provider": "",
                    "Cluster": ""
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
            None Cluster: "" => ""
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

    /// `Service Checks edited with context`
    diff_test_go_v1_8_0_task_diff_service_checks_edited_with_context:
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
                            "FailuresBeforeWarning": 4,
                            "Body": "",
                            "OnUpdate": "require_healthy"
                        }
                    ],
                    "Namespace": "",
                    "OnUpdate": "",
                    "Provider": "",
                    "Cluster": "default"
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
                            "FailuresBeforeWarning": 0,
                            "Body": "",
                            "OnUpdate": "ignore_warnings"
                        }
                    ],
                    "Namespace": "",
                    "OnUpdate": "",
                    "Provider": "",
                    "Cluster": "default"
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
            None Cluster: "default" => "default"
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
              Edited FailuresBeforeWarning: "4" => "0"
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
    diff_test_go_v1_8_0_task_diff_vault_added:
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
                "Role": "nomad-task",
                "Policies": ["foo", "bar"],
                "Namespace": "",
                "Cluster": "",
                "Env": true,
                "DisableFile": true,
                "ChangeMode": "signal",
                "ChangeSignal": "SIGUSR1",
                "AllowTokenExpiration": false
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
            Added AllowTokenExpiration: "" => "false"
            Added ChangeMode: "" => "signal"
            Added ChangeSignal: "" => "SIGUSR1"
            Added DisableFile: "" => "true"
            Added Env: "" => "true"
            Added Role: "" => "nomad-task"
            Added Policies {
              Added Policies: "" => "bar"
              Added Policies: "" => "foo"
            }
          }
        "#;

    /// `Vault deleted`
    diff_test_go_v1_8_0_task_diff_vault_deleted:
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "Vault": {
                "Role": "",
                "Policies": ["foo", "bar"],
                "Namespace": "",
                "Cluster": "",
                "Env": true,
                "DisableFile": true,
                "ChangeMode": "signal",
                "ChangeSignal": "SIGUSR1",
                "AllowTokenExpiration": false
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
            Deleted AllowTokenExpiration: "false" => ""
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
    diff_test_go_v1_8_0_task_diff_vault_edited:
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "Vault": {
                "Role": "nomad-task",
                "Policies": ["foo", "bar"],
                "Namespace": "ns1",
                "Cluster": "",
                "Env": true,
                "DisableFile": true,
                "ChangeMode": "signal",
                "ChangeSignal": "SIGUSR1",
                "AllowTokenExpiration": false
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
                "Role": "nomad-task-2",
                "Policies": ["bar", "baz"],
                "Namespace": "ns2",
                "Cluster": "",
                "Env": false,
                "DisableFile": false,
                "ChangeMode": "restart",
                "ChangeSignal": "foo",
                "AllowTokenExpiration": true
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
            Edited AllowTokenExpiration: "false" => "true"
            Edited ChangeMode: "signal" => "restart"
            Edited ChangeSignal: "SIGUSR1" => "foo"
            Edited DisableFile: "true" => "false"
            Edited Env: "true" => "false"
            Edited Namespace: "ns1" => "ns2"
            Edited Role: "nomad-task" => "nomad-task-2"
            Edited Policies {
              Added Policies: "" => "baz"
              Deleted Policies: "foo" => ""
            }
          }
        "#;

    /// `Vault edited with context`
    diff_test_go_v1_8_0_task_diff_vault_edited_with_context:
        {
            "Name": "",
            "Driver": "",
            "User": "",
            "Vault": {
                "Role": "nomad-task",
                "Policies": ["foo", "bar"],
                "Namespace": "ns1",
                "Cluster": "$VaultDefaultCluster",
                "Env": true,
                "DisableFile": true,
                "ChangeMode": "signal",
                "ChangeSignal": "SIGUSR1",
                "AllowTokenExpiration": true
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
                "Role": "nomad-task",
                "Policies": ["bar", "baz"],
                "Namespace": "ns1",
                "Cluster": "$VaultDefaultCluster",
                "Env": true,
                "DisableFile": true,
                "ChangeMode": "signal",
                "ChangeSignal": "SIGUSR1",
                "AllowTokenExpiration": true
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
            None AllowTokenExpiration: "true" => "true"
            None ChangeMode: "signal" => "signal"
            None ChangeSignal: "SIGUSR1" => "SIGUSR1"
            None Cluster: "$VaultDefaultCluster" => "$VaultDefaultCluster"
            None DisableFile: "true" => "true"
            None Env: "true" => "true"
            None Namespace: "ns1" => "ns1"
            None Role: "nomad-task" => "nomad-task"
            Edited Policies {
              Added Policies: "" => "baz"
              None Policies: "bar" => "bar"
              Deleted Policies: "foo" => ""
            }
          }
        "#;

    /// `Template edited`
    diff_test_go_v1_8_0_task_diff_template_edited:
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
                    "ChangeScript": {
                        "Command": "/bin/foo",
                        "Args": ["-debug"],
                        "Timeout": 5,
                        "FailOnError": false
                    },
                    "Splay": 1,
                    "Perms": "0644",
                    "Uid": 1001,
                    "Gid": 21,
                    "LeftDelim": "",
                    "RightDelim": "",
                    "Envvars": false,
                    "VaultGrace": 0,
                    "Wait": {"Min": 5000000000_i64, "Max": 5000000000_i64},
                    "ErrMissingKey": false
                },
                {
                    "SourcePath": "foo2",
                    "DestPath": "bar2",
                    "EmbeddedTmpl": "baz2",
                    "ChangeMode": "bam2",
                    "ChangeSignal": "SIGHUP2",
                    "ChangeScript": {
                        "Command": "/bin/foo2",
                        "Args": ["-debugs"],
                        "Timeout": 6,
                        "FailOnError": false
                    },
                    "Splay": 2,
                    "Perms": "0666",
                    "Uid": 1000,
                    "Gid": 20,
                    "LeftDelim": "",
                    "RightDelim": "",
                    "Envvars": true,
                    "VaultGrace": 0,
                    "ErrMissingKey": false
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
                    "ChangeScript": {
                        "Command": "/bin/foo",
                        "Args": ["-debug"],
                        "Timeout": 5,
                        "FailOnError": false
                    },
                    "Splay": 1,
                    "Perms": "0644",
                    "Uid": 1001,
                    "Gid": 21,
                    "LeftDelim": "",
                    "RightDelim": "",
                    "Envvars": false,
                    "VaultGrace": 0,
                    "Wait": {"Min": 5000000000_i64, "Max": 10000000000_i64},
                    "ErrMissingKey": true
                },
                {
                    "SourcePath": "foo3",
                    "DestPath": "bar3",
                    "EmbeddedTmpl": "baz3",
                    "ChangeMode": "bam3",
                    "ChangeSignal": "SIGHUP3",
                    "ChangeScript": {
                        "Command": "/bin/foo3",
                        "Args": ["-debugss"],
                        "Timeout": 7,
                        "FailOnError": false
                    },
                    "Splay": 3,
                    "Perms": "0776",
                    "Uid": 1002,
                    "Gid": 22,
                    "LeftDelim": "",
                    "RightDelim": "",
                    "Envvars": false,
                    "VaultGrace": 0,
                    "Wait": {"Min": 5000000000_i64, "Max": 10000000000_i64},
                    "ErrMissingKey": true
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
            Deleted Perms: "0666" => ""
            Deleted SourcePath: "foo2" => ""
            Deleted Splay: "2" => ""
            Deleted Uid: "1000" => ""
            Deleted VaultGrace: "0" => ""
            Deleted ChangeScript {
              Deleted Command: "/bin/foo2" => ""
              Deleted FailOnError: "false" => ""
              Deleted Timeout: "6" => ""
              Deleted Args {
                Deleted Args: "-debugs" => ""
              }
            }
          }
        "#;

}
