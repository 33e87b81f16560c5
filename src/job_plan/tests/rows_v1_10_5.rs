//! nomad/structs/diff_test.go `TestTaskDiff` at v1.10.5: the cases
//! whose answer differs from the next tag's (the fields that release's
//! structs have, written as Go's encoder writes them).
//! Left out: a driver config holding a Go struct, which a job from JSON
//! cannot carry.

use crate::model::v;

diff_cases! {
    task_rows at v(1, 10, 5);

    /// `Template edited`
    diff_test_go_v1_10_5_task_diff_template_edited:
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
                    "Once": false,
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
                    "Once": false,
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
                    "Once": false,
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
                    "Once": false,
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
              Deleted Timeout: "6" => ""
              Deleted Args {
                Deleted Args: "-debugs" => ""
              }
            }
          }
        "#;

}
