#!/bin/sh
# Plan a job file against a cluster snapshot in CI, as `nomad job plan` would
# on the live cluster, and compare the reviewable part of the answer (the job
# diff and each group's desired changes) with a golden file committed next
# to the job.
#
#   contrib/ci-job-plan.sh SNAPSHOT JOB_JSON GOLDEN
#
# JOB_JSON is the job as Nomad's API JSON (`nomad job run -output
# web.nomad.hcl > web.json`). With UPDATE_GOLDEN=1 the golden file is
# written instead of compared. PLAN_INSPECT names the binary (default:
# plan-inspect on the PATH). Needs jq.
#
# Exit status: 0 the plan changes no allocation and matches the golden file;
# 2 it changes allocations (a gate can ask for an approval) and matches;
# 1 an error, or the plan differs from the golden file (the difference is
# printed: commit the new golden file with the job change).
set -u

if [ $# -ne 3 ]; then
    echo "usage: $0 SNAPSHOT JOB_JSON GOLDEN" >&2
    exit 1
fi
snapshot=$1
job=$2
golden=$3
plan_inspect=${PLAN_INSPECT:-plan-inspect}

plan=$(mktemp)
summary=$(mktemp)
trap 'rm -f "$plan" "$summary"' EXIT

"$plan_inspect" "$snapshot" --job-file "$job" --format json --detailed-exitcode >"$plan"
code=$?
if [ "$code" -ne 0 ] && [ "$code" -ne 2 ]; then
    exit 1
fi

# The parts that change only when the job or the cluster's version of it
# does: not the evaluation time, nor allocation or deployment IDs.
jq -S '{
    job_modify_index: .job_plan.job_modify_index,
    diff: .job_plan.diff,
    desired_changes: (.jobs[0].groups | map({(.name): .desired_changes}) | add)
}' "$plan" >"$summary" || exit 1

if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
    cp "$summary" "$golden" || exit 1
    exit "$code"
fi
if ! diff -u "$golden" "$summary"; then
    echo "$0: the plan of $job differs from $golden; if the change is meant, run with UPDATE_GOLDEN=1 and commit $golden" >&2
    exit 1
fi
exit "$code"
