//! nomad/structs/diff_test.go `TestJobDiff` at v2.0.5 (the same text as
//! v1.10.5's): the periodic, affinity and parameterized cases the other
//! test files do not port.

use crate::model::v;

diff_cases! {
    job_rows at v(2, 0, 5);

    /// `Periodic multiple times added`
    diff_test_go_v2_0_5_job_diff_periodic_multiple_times_added:
        {"@": "Job"},
        {
            "@": "Job",
            "Periodic": {
                "@": "PeriodicConfig",
                "Enabled": false,
                "Specs": ["*/15 * * * * *", "*/16 * * * * *"],
                "SpecType": "foo",
                "ProhibitOverlap": false,
                "TimeZone": "Europe/Minsk"
            }
        },
        false,
        r#"
        Edited job
          Added Periodic {
            Added Enabled: "" => "false"
            Added ProhibitOverlap: "" => "false"
            Added SpecType: "" => "foo"
            Added TimeZone: "" => "Europe/Minsk"
            Added Specs {
              Added Specs: "" => "*/15 * * * * *"
              Added Specs: "" => "*/16 * * * * *"
            }
          }
        "#;

    /// `Periodic deleted`
    diff_test_go_v2_0_5_job_diff_periodic_deleted:
        {
            "@": "Job",
            "Periodic": {
                "@": "PeriodicConfig",
                "Enabled": false,
                "Spec": "*/15 * * * * *",
                "SpecType": "foo",
                "ProhibitOverlap": false,
                "TimeZone": "Europe/Minsk"
            }
        },
        {"@": "Job"},
        false,
        r#"
        Edited job
          Deleted Periodic {
            Deleted Enabled: "false" => ""
            Deleted ProhibitOverlap: "false" => ""
            Deleted Spec: "*/15 * * * * *" => ""
            Deleted SpecType: "foo" => ""
            Deleted TimeZone: "Europe/Minsk" => ""
          }
        "#;

    /// `Periodic edited`
    diff_test_go_v2_0_5_job_diff_periodic_edited:
        {
            "@": "Job",
            "Periodic": {
                "@": "PeriodicConfig",
                "Enabled": false,
                "Spec": "*/15 * * * * *",
                "SpecType": "foo",
                "ProhibitOverlap": false,
                "TimeZone": "Europe/Minsk"
            }
        },
        {
            "@": "Job",
            "Periodic": {
                "@": "PeriodicConfig",
                "Enabled": true,
                "Spec": "* * * * * *",
                "SpecType": "cron",
                "ProhibitOverlap": true,
                "TimeZone": "America/Los_Angeles"
            }
        },
        false,
        r#"
        Edited job
          Edited Periodic {
            Edited Enabled: "false" => "true"
            Edited ProhibitOverlap: "false" => "true"
            Edited Spec: "*/15 * * * * *" => "* * * * * *"
            Edited SpecType: "foo" => "cron"
            Edited TimeZone: "Europe/Minsk" => "America/Los_Angeles"
          }
        "#;

    /// `Periodic single to multiple times`
    diff_test_go_v2_0_5_job_diff_periodic_single_to_multiple_times:
        {
            "@": "Job",
            "Periodic": {
                "@": "PeriodicConfig",
                "Enabled": false,
                "Spec": "*/15 * * * * *",
                "SpecType": "foo",
                "ProhibitOverlap": false,
                "TimeZone": "Europe/Minsk"
            }
        },
        {
            "@": "Job",
            "Periodic": {
                "@": "PeriodicConfig",
                "Enabled": true,
                "Specs": ["* * * * * *", "*/5 * * * * *"],
                "SpecType": "cron",
                "ProhibitOverlap": true,
                "TimeZone": "America/Los_Angeles"
            }
        },
        false,
        r#"
        Edited job
          Edited Periodic {
            Edited Enabled: "false" => "true"
            Edited ProhibitOverlap: "false" => "true"
            Deleted Spec: "*/15 * * * * *" => ""
            Edited SpecType: "foo" => "cron"
            Edited TimeZone: "Europe/Minsk" => "America/Los_Angeles"
            Added Specs {
              Added Specs: "" => "* * * * * *"
              Added Specs: "" => "*/5 * * * * *"
            }
          }
        "#;

    /// `Periodic multiple times to single`
    diff_test_go_v2_0_5_job_diff_periodic_multiple_times_to_single:
        {
            "@": "Job",
            "Periodic": {
                "@": "PeriodicConfig",
                "Enabled": false,
                "Specs": ["* * * * * *", "*/5 * * * * *"],
                "SpecType": "foo",
                "ProhibitOverlap": false,
                "TimeZone": "Europe/Minsk"
            }
        },
        {
            "@": "Job",
            "Periodic": {
                "@": "PeriodicConfig",
                "Enabled": true,
                "Spec": "*/15 * * * * *",
                "SpecType": "cron",
                "ProhibitOverlap": true,
                "TimeZone": "America/Los_Angeles"
            }
        },
        false,
        r#"
        Edited job
          Edited Periodic {
            Edited Enabled: "false" => "true"
            Edited ProhibitOverlap: "false" => "true"
            Added Spec: "" => "*/15 * * * * *"
            Edited SpecType: "foo" => "cron"
            Edited TimeZone: "Europe/Minsk" => "America/Los_Angeles"
            Deleted Specs {
              Deleted Specs: "* * * * * *" => ""
              Deleted Specs: "*/5 * * * * *" => ""
            }
          }
        "#;

    /// `Periodic edit multiple times`
    diff_test_go_v2_0_5_job_diff_periodic_edit_multiple_times:
        {
            "@": "Job",
            "Periodic": {
                "@": "PeriodicConfig",
                "Enabled": false,
                "Specs": ["*/4 * * * * *", "*/6 * * * * *"],
                "SpecType": "foo",
                "ProhibitOverlap": false,
                "TimeZone": "Europe/Minsk"
            }
        },
        {
            "@": "Job",
            "Periodic": {
                "@": "PeriodicConfig",
                "Enabled": true,
                "Specs": ["*/5 * * * * *", "*/7 * * * * *"],
                "SpecType": "cron",
                "ProhibitOverlap": true,
                "TimeZone": "America/Los_Angeles"
            }
        },
        false,
        r#"
        Edited job
          Edited Periodic {
            Edited Enabled: "false" => "true"
            Edited ProhibitOverlap: "false" => "true"
            Edited SpecType: "foo" => "cron"
            Edited TimeZone: "Europe/Minsk" => "America/Los_Angeles"
            Edited Specs {
              Added Specs: "" => "*/5 * * * * *"
              Added Specs: "" => "*/7 * * * * *"
              Deleted Specs: "*/4 * * * * *" => ""
              Deleted Specs: "*/6 * * * * *" => ""
            }
          }
        "#;

    /// `Periodic edited with context`
    diff_test_go_v2_0_5_job_diff_periodic_edited_with_context:
        {
            "@": "Job",
            "Periodic": {
                "@": "PeriodicConfig",
                "Enabled": false,
                "Spec": "*/15 * * * * *",
                "SpecType": "foo",
                "ProhibitOverlap": false,
                "TimeZone": "Europe/Minsk"
            }
        },
        {
            "@": "Job",
            "Periodic": {
                "@": "PeriodicConfig",
                "Enabled": true,
                "Spec": "* * * * * *",
                "SpecType": "foo",
                "ProhibitOverlap": false,
                "TimeZone": "Europe/Minsk"
            }
        },
        true,
        r#"
        Edited job
          Edited Periodic {
            Edited Enabled: "false" => "true"
            None ProhibitOverlap: "false" => "false"
            Edited Spec: "*/15 * * * * *" => "* * * * * *"
            None SpecType: "foo" => "foo"
            None TimeZone: "Europe/Minsk" => "Europe/Minsk"
          }
        "#;

    /// `Affinities edited`
    diff_test_go_v2_0_5_job_diff_affinities_edited:
        {
            "@": "Job",
            "Affinities": [
                {"@": "Affinity", "LTarget": "foo", "RTarget": "foo", "Operand": "foo", "Weight": 20},
                {"@": "Affinity", "LTarget": "bar", "RTarget": "bar", "Operand": "bar", "Weight": 20}
            ]
        },
        {
            "@": "Job",
            "Affinities": [
                {"@": "Affinity", "LTarget": "foo", "RTarget": "foo", "Operand": "foo", "Weight": 20},
                {"@": "Affinity", "LTarget": "baz", "RTarget": "baz", "Operand": "baz", "Weight": 20}
            ]
        },
        false,
        r#"
        Edited job
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

    /// `Parameterized Job added`
    diff_test_go_v2_0_5_job_diff_parameterized_job_added:
        {"@": "Job"},
        {
            "@": "Job",
            "ParameterizedJob": {
                "@": "ParameterizedJobConfig",
                "Payload": "required",
                "MetaOptional": ["foo"],
                "MetaRequired": ["bar"]
            }
        },
        false,
        r#"
        Edited job
          Added ParameterizedJob {
            Added Payload: "" => "required"
            Added MetaOptional {
              Added MetaOptional: "" => "foo"
            }
            Added MetaRequired {
              Added MetaRequired: "" => "bar"
            }
          }
        "#;

    /// `Parameterized Job deleted`
    diff_test_go_v2_0_5_job_diff_parameterized_job_deleted:
        {
            "@": "Job",
            "ParameterizedJob": {
                "@": "ParameterizedJobConfig",
                "Payload": "required",
                "MetaOptional": ["foo"],
                "MetaRequired": ["bar"]
            }
        },
        {"@": "Job"},
        false,
        r#"
        Edited job
          Deleted ParameterizedJob {
            Deleted Payload: "required" => ""
            Deleted MetaOptional {
              Deleted MetaOptional: "foo" => ""
            }
            Deleted MetaRequired {
              Deleted MetaRequired: "bar" => ""
            }
          }
        "#;

    /// `Parameterized Job edited`
    diff_test_go_v2_0_5_job_diff_parameterized_job_edited:
        {
            "@": "Job",
            "ParameterizedJob": {
                "@": "ParameterizedJobConfig",
                "Payload": "required",
                "MetaOptional": ["foo"],
                "MetaRequired": ["bar"]
            }
        },
        {
            "@": "Job",
            "ParameterizedJob": {
                "@": "ParameterizedJobConfig",
                "Payload": "optional",
                "MetaOptional": ["bam"],
                "MetaRequired": ["bang"]
            }
        },
        false,
        r#"
        Edited job
          Edited ParameterizedJob {
            Edited Payload: "required" => "optional"
            Edited MetaOptional {
              Added MetaOptional: "" => "bam"
              Deleted MetaOptional: "foo" => ""
            }
            Edited MetaRequired {
              Added MetaRequired: "" => "bang"
              Deleted MetaRequired: "bar" => ""
            }
          }
        "#;

    /// `Parameterized Job edited with context`
    diff_test_go_v2_0_5_job_diff_parameterized_job_edited_with_context:
        {
            "@": "Job",
            "ParameterizedJob": {
                "@": "ParameterizedJobConfig",
                "Payload": "required",
                "MetaOptional": ["foo"],
                "MetaRequired": ["bar"]
            }
        },
        {
            "@": "Job",
            "ParameterizedJob": {
                "@": "ParameterizedJobConfig",
                "Payload": "optional",
                "MetaOptional": ["foo"],
                "MetaRequired": ["bar"]
            }
        },
        true,
        r#"
        Edited job
          Edited ParameterizedJob {
            Edited Payload: "required" => "optional"
            None MetaOptional {
              None MetaOptional: "foo" => "foo"
            }
            None MetaRequired {
              None MetaRequired: "bar" => "bar"
            }
          }
        "#;
}
