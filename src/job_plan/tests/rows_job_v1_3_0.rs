//! nomad/structs/diff_test.go `TestJobDiff` at v1.3.0: the case later tags
//! dropped (a group as v1.3.0's struct has it, its nil pointers left out as
//! Go's flattening leaves them out).

use crate::model::v;

diff_cases! {
    job_rows at v(1, 3, 0);

    /// `Task groups edited`
    diff_test_go_v1_3_0_job_diff_task_groups_edited:
        {
            "TaskGroups": [
                {"Name": "foo", "Count": 1},
                {"Name": "bar", "Count": 1},
                {"Name": "baz", "Count": 1}
            ]
        },
        {
            "TaskGroups": [
                {"Name": "bar", "Count": 1},
                {"Name": "baz", "Count": 2},
                {"Name": "bam", "Count": 1}
            ]
        },
        false,
        r#"
        Edited job
          Added group "bam"
            Added Count: "" => "1"
          None group "bar"
          Edited group "baz"
            Edited Count: "1" => "2"
          Deleted group "foo"
            Deleted Count: "1" => ""
        "#;
}
