#!/usr/bin/env bash
# Assembles a snapshot plan-inspect reads from a running Nomad's HTTP API,
# for when `nomad operator snapshot save` is not an option (it needs a
# management token).
#
#   contrib/snapshot-from-api.sh > state.json && plan-inspect state.json
#
# List endpoints return stubs, so every job, allocation and node is fetched
# in full: GET /v1/jobs, then /v1/job/:id and /v1/job/:id/versions per job;
# /v1/allocations, then /v1/allocation/:id; /v1/nodes, then /v1/node/:id;
# /v1/deployments and /v1/evaluations as listed. One request per object:
# on a large cluster this takes a while and loads the servers accordingly.
#
# Environment, as the nomad CLI reads it:
#   NOMAD_ADDR       the agent's address (default http://127.0.0.1:4646)
#   NOMAD_TOKEN      an ACL token, sent as X-Nomad-Token; it needs read
#                    access to the jobs and nodes (a management token is not needed)
#   NOMAD_NAMESPACE  the namespace to read (default "default"; "*" for all)
#   NOMAD_CACERT     a CA certificate to verify the agent's TLS certificate
#   NOMAD_CLIENT_CERT, NOMAD_CLIENT_KEY  a client certificate for mutual TLS
#
# The snapshot's "Now" is the time of the dump, so that replaying it later
# evaluates the cluster as it was.
set -euo pipefail

fail() {
  echo "snapshot-from-api: $*" >&2
  exit 1
}

for tool in curl jq; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool is required but not installed"
done

addr="${NOMAD_ADDR:-http://127.0.0.1:4646}"
addr="${addr%/}"
namespace="${NOMAD_NAMESPACE:-default}"

curl_args=(--silent --show-error --location)
[[ -n "${NOMAD_TOKEN:-}" ]] && curl_args+=(--header "X-Nomad-Token: ${NOMAD_TOKEN}")
[[ -n "${NOMAD_CACERT:-}" ]] && curl_args+=(--cacert "${NOMAD_CACERT}")
[[ -n "${NOMAD_CLIENT_CERT:-}" ]] && curl_args+=(--cert "${NOMAD_CLIENT_CERT}")
[[ -n "${NOMAD_CLIENT_KEY:-}" ]] && curl_args+=(--key "${NOMAD_CLIENT_KEY}")

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# get PATH [NAMESPACE [GONE_OK]]: the JSON body of GET PATH in NAMESPACE
# (default: the chosen one). A connection error or a status other than 2xx
# ends the script with the agent's message ("Permission denied", ...), except
# that with GONE_OK a 404 (an object collected since it was listed) prints a
# note on stderr and nothing on stdout.
get() {
  local ns="${2:-$namespace}" gone_ok="${3:-}" out status
  local url="${addr}$1"
  [[ "$url" == *\?* ]] && url+="&" || url+="?"
  url+="namespace=$(uri "$ns")"
  if ! out="$(curl "${curl_args[@]}" --write-out '\n%{http_code}' "$url" 2>"$tmp/error")"; then
    fail "GET $1 (namespace $ns): $(cat "$tmp/error")"
  fi
  status="${out##*$'\n'}"
  out="${out%$'\n'*}"
  if [[ "$status" == 404 && -n "$gone_ok" ]]; then
    echo "snapshot-from-api: GET $1 (namespace $ns): gone since listed, left out" >&2
    return 0
  fi
  [[ "$status" == 2?? ]] || fail "GET $1 (namespace $ns): HTTP $status: $out"
  printf '%s\n' "$out"
}

uri() { jq -rn --arg v "$1" '$v | @uri'; }

now="$(date -u +%Y-%m-%dT%H:%M:%SZ)"

# Jobs in full, and every version each server still holds.
get /v1/jobs | jq -r '.[] | [.Namespace, .ID] | @tsv' >"$tmp/jobs.tsv"
: >"$tmp/jobs.json"
: >"$tmp/versions.json"
while IFS=$'\t' read -r ns id; do
  get "/v1/job/$(uri "$id")" "$ns" gone >>"$tmp/jobs.json"
  get "/v1/job/$(uri "$id")/versions" "$ns" gone | jq -c '.Versions[]' >>"$tmp/versions.json"
done <"$tmp/jobs.tsv"

# Allocations in full: the list holds stubs without the job or transitions.
get /v1/allocations | jq -r '.[] | [.Namespace, .ID] | @tsv' >"$tmp/allocs.tsv"
: >"$tmp/allocs.json"
while IFS=$'\t' read -r ns id; do
  get "/v1/allocation/$(uri "$id")" "$ns" gone >>"$tmp/allocs.json"
done <"$tmp/allocs.tsv"

# Nodes in full: the list leaves out attributes, drivers and resources.
get /v1/nodes | jq -r '.[].ID' >"$tmp/nodes.txt"
: >"$tmp/nodes.json"
while read -r id; do
  get "/v1/node/$(uri "$id")" "$namespace" gone >>"$tmp/nodes.json"
done <"$tmp/nodes.txt"

get /v1/deployments >"$tmp/deployments.json"
get /v1/evaluations >"$tmp/evals.json"

jq -n --arg now "$now" \
  --slurpfile jobs "$tmp/jobs.json" \
  --slurpfile versions "$tmp/versions.json" \
  --slurpfile allocs "$tmp/allocs.json" \
  --slurpfile nodes "$tmp/nodes.json" \
  --slurpfile deployments "$tmp/deployments.json" \
  --slurpfile evals "$tmp/evals.json" \
  '{Now: $now, Jobs: $jobs, JobVersions: $versions, Allocs: $allocs,
    Nodes: $nodes, Deployments: $deployments[0], Evals: $evals[0]}'
