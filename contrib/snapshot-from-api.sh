#!/usr/bin/env bash
# Assembles a snapshot plan-inspect reads from a running Nomad's HTTP API,
# for when `nomad operator snapshot save` is not an option (it needs a
# management token).
#
# Usage: contrib/snapshot-from-api.sh [-h|--help] > state.json && plan-inspect state.json
#
# List endpoints return stubs, so every job, allocation and node is fetched
# in full: GET /v1/jobs, then /v1/job/:id and /v1/job/:id/versions per job;
# /v1/allocations, then /v1/allocation/:id; /v1/nodes, then /v1/node/:id;
# /v1/deployments and /v1/evaluations as listed. One request per object:
# on a large cluster this takes a while and loads the servers accordingly.
# Progress goes to stderr, one line per kind of object; the snapshot to stdout.
#
# Environment, as the nomad CLI reads it:
#   NOMAD_ADDR             the agent's address (default http://127.0.0.1:4646)
#   NOMAD_REGION           the region to read (default: the agent's own)
#   NOMAD_NAMESPACE        the namespace to read (default "default"; "*" for all)
#   NOMAD_TOKEN            an ACL token, sent as X-Nomad-Token; it needs read
#                          access to the jobs and nodes (not a management token)
#   NOMAD_CACERT           a CA certificate to verify the agent's TLS certificate
#   NOMAD_CAPATH           a directory of CA certificates, for the same
#   NOMAD_CLIENT_CERT, NOMAD_CLIENT_KEY  a client certificate for mutual TLS
#   NOMAD_TLS_SERVER_NAME  the name to verify the agent's certificate against
#                          (and to send as SNI) instead of NOMAD_ADDR's host
#   NOMAD_SKIP_VERIFY      true (or 1, t, T, TRUE, True) to skip TLS verification
#
# The snapshot's "Now" is the time of the dump, so that replaying it later
# evaluates the cluster as it was.
set -euo pipefail

fail() {
  echo "snapshot-from-api: $*" >&2
  exit 1
}

if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
  sed -n '2,/^$/{s/^# \{0,1\}//;p}' "$0"
  exit 0
fi
[[ $# -eq 0 ]] || fail "unexpected argument ${1}; see --help"

progress() {
  echo "snapshot-from-api: $*" >&2
}

for tool in curl jq; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool is required but not installed"
done

addr="${NOMAD_ADDR:-http://127.0.0.1:4646}"
addr="${addr%/}"
[[ "$addr" == *://* ]] || addr="http://${addr}"
namespace="${NOMAD_NAMESPACE:-default}"
region="${NOMAD_REGION:-}"

curl_args=(--silent --show-error --location)
[[ -n "${NOMAD_TOKEN:-}" ]] && curl_args+=(--header "X-Nomad-Token: ${NOMAD_TOKEN}")
[[ -n "${NOMAD_CACERT:-}" ]] && curl_args+=(--cacert "${NOMAD_CACERT}")
[[ -n "${NOMAD_CAPATH:-}" ]] && curl_args+=(--capath "${NOMAD_CAPATH}")
[[ -n "${NOMAD_CLIENT_CERT:-}" ]] && curl_args+=(--cert "${NOMAD_CLIENT_CERT}")
[[ -n "${NOMAD_CLIENT_KEY:-}" ]] && curl_args+=(--key "${NOMAD_CLIENT_KEY}")
case "${NOMAD_SKIP_VERIFY:-}" in
  1 | t | T | true | TRUE | True) curl_args+=(--insecure) ;;
  "" | 0 | f | F | false | FALSE | False) ;;
  *) fail "NOMAD_SKIP_VERIFY=${NOMAD_SKIP_VERIFY} is not a boolean (true, false, 1, 0)" ;;
esac
# curl verifies the certificate against the URL's host: ask for the server
# name and connect to NOMAD_ADDR's host and port, as the nomad CLI does.
if [[ -n "${NOMAD_TLS_SERVER_NAME:-}" && "$addr" == https://* ]]; then
  hostport="${addr#https://}"
  hostport="${hostport%%/*}"
  host="${hostport%:*}"
  port="${hostport##*:}"
  [[ "$hostport" == *:* ]] || port=443
  curl_args+=(--connect-to "${NOMAD_TLS_SERVER_NAME}:${port}:${host}:${port}")
  addr="https://${NOMAD_TLS_SERVER_NAME}:${port}"
fi

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
  [[ -z "$region" ]] || url+="&region=$(uri "$region")"
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
progress "reading $(wc -l <"$tmp/jobs.tsv") jobs${region:+ in region $region} (namespace $namespace)"
: >"$tmp/jobs.json"
: >"$tmp/versions.json"
while IFS=$'\t' read -r ns id; do
  get "/v1/job/$(uri "$id")" "$ns" gone >>"$tmp/jobs.json"
  get "/v1/job/$(uri "$id")/versions" "$ns" gone | jq -c '.Versions[]' >>"$tmp/versions.json"
done <"$tmp/jobs.tsv"

# Allocations in full: the list holds stubs without the job or transitions.
get /v1/allocations | jq -r '.[] | [.Namespace, .ID] | @tsv' >"$tmp/allocs.tsv"
progress "reading $(wc -l <"$tmp/allocs.tsv") allocations"
: >"$tmp/allocs.json"
while IFS=$'\t' read -r ns id; do
  get "/v1/allocation/$(uri "$id")" "$ns" gone >>"$tmp/allocs.json"
done <"$tmp/allocs.tsv"

# Nodes in full: the list leaves out attributes, drivers and resources.
get /v1/nodes | jq -r '.[].ID' >"$tmp/nodes.txt"
progress "reading $(wc -l <"$tmp/nodes.txt") nodes"
: >"$tmp/nodes.json"
while read -r id; do
  get "/v1/node/$(uri "$id")" "$namespace" gone >>"$tmp/nodes.json"
done <"$tmp/nodes.txt"

get /v1/deployments >"$tmp/deployments.json"
get /v1/evaluations >"$tmp/evals.json"
progress "$(wc -l <"$tmp/allocs.json") allocations and $(wc -l <"$tmp/nodes.json") nodes read; writing the snapshot"

jq -n --arg now "$now" \
  --slurpfile jobs "$tmp/jobs.json" \
  --slurpfile versions "$tmp/versions.json" \
  --slurpfile allocs "$tmp/allocs.json" \
  --slurpfile nodes "$tmp/nodes.json" \
  --slurpfile deployments "$tmp/deployments.json" \
  --slurpfile evals "$tmp/evals.json" \
  '{Now: $now, Jobs: $jobs, JobVersions: $versions, Allocs: $allocs,
    Nodes: $nodes, Deployments: $deployments[0], Evals: $evals[0]}'
