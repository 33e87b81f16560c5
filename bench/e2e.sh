#!/usr/bin/env bash
# End-to-end benchmark: wall time, throughput and peak RSS of plan-inspect on
# generated snapshots, against a floor that only parses the same bytes.
#
#   bench/e2e.sh                   # 100k and 1M allocations, varied and uniform shapes
#   SIZES="100000" bench/e2e.sh    # only 100k
#   SHAPES="varied" bench/e2e.sh   # only the varied shape (as real dumps are)
#   SHAPES="lean" bench/e2e.sh     # the varied shape with one task per group (smaller allocations)
#   SHAPES="small" bench/e2e.sh    # lean, one scored node, bare jobs (about 6 KB per allocation)
#   SHAPES="fat" bench/e2e.sh      # small, with nodes of a hundred attributes (about 6 KB a node)
#   SHAPES="churned" bench/e2e.sh  # small, each allocation's job text with a modify index of its own
#   SHAPES="manyjobs" bench/e2e.sh # small, 20,000 jobs of a few allocations each (more versions than allocations)
#   SHAPES="go" bench/e2e.sh       # fat, written as Go writes it: every top-level key, nodes with every field (about 9 KB)
#   SHAPES="go" SIZES=1000000 bench/e2e.sh
#                                  # the large dump of issue 34 (6.2 GB, Nodes past 4 GiB, read from a
#                                  # file on every core), which made the reader panic
#   SHAPES="big many" SIZES=cluster bench/e2e.sh
#                                  # the two clusters of issue 32 at their own sizes: 1M allocations in
#                                  # 20 jobs on 10,000 nodes, 200k in 10,000 jobs on 2,000 nodes
#                                  # (SIZES=N scales either: big keeps 20 jobs, many 20 allocations a job)
#   RUNS=3 bench/e2e.sh            # best of 3 per measurement
#
# Needs GNU time at /usr/bin/time (Debian: apt-get install time); installs
# nothing. Snapshots are generated once into $DIR (default /tmp, several GB
# for 1M allocations) and reused; delete them by hand.
set -euo pipefail

cd "$(dirname "$0")/.."
DIR=${DIR:-/tmp}
SIZES=${SIZES:-"100000 1000000"}
SHAPES=${SHAPES:-"varied uniform"}
RUNS=${RUNS:-1}
[ -x /usr/bin/time ] || { echo "bench/e2e.sh: needs GNU time at /usr/bin/time" >&2; exit 1; }

# Two builds: built together with the examples, the binary would get the
# dev-dependency features (serde_json's preserve_order) and measure slower.
cargo build --release --quiet --bin plan-inspect
cargo build --release --quiet --example gen-snapshot --example floor
BIN=${CARGO_TARGET_DIR:-target}/release
PI=$BIN/plan-inspect

# best wall seconds and peak RSS (KB) of RUNS runs of a shell command
measure() {
    local best_wall="" best_rss=""
    for _ in $(seq "$RUNS"); do
        local out
        out=$( { /usr/bin/time -f "%e %M" bash -c "$1" >/dev/null; } 2>&1 | tail -1)
        read -r wall rss <<<"$out"
        if [ -z "$best_wall" ] || awk "BEGIN{exit !($wall < $best_wall)}"; then best_wall=$wall; fi
        if [ -z "$best_rss" ] || [ "$rss" -lt "$best_rss" ]; then best_rss=$rss; fi
    done
    echo "$best_wall $best_rss"
}

echo "machine: $(nproc) cores, $(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
printf '%-8s %-9s %-34s %9s %9s %11s %8s %8s\n' shape allocs command wall_s MB/s peak_RSS_MB rss/in vs_floor
for shape in $SHAPES; do
for n in $SIZES; do
    case $shape in
        uniform) snap=$DIR/plan-inspect-bench-$n.json
                 gen=(--shape uniform --nodes 10000 --allocs "$n" --jobs 50 --seed 1) ;;
        varied)  snap=$DIR/plan-inspect-bench-varied-v2-$n.json
                 gen=(--shape varied --allocs "$n" --seed 1) ;;
        lean)    snap=$DIR/plan-inspect-bench-lean-$n.json
                 gen=(--shape varied --tasks 1 --allocs "$n" --seed 1) ;;
        small)   snap=$DIR/plan-inspect-bench-small-$n.json
                 gen=(--shape varied --tasks 1 --scores 1 --bare-jobs 1 --allocs "$n" --seed 1) ;;
        fat)     snap=$DIR/plan-inspect-bench-fat-$n.json
                 gen=(--shape varied --tasks 1 --scores 1 --bare-jobs 1 --node-attrs 90 --allocs "$n" --seed 1) ;;
        churned) snap=$DIR/plan-inspect-bench-churned-$n.json
                 gen=(--shape varied --tasks 1 --scores 1 --bare-jobs 1 --own-indexes 1 --allocs "$n" --seed 1) ;;
        manyjobs) snap=$DIR/plan-inspect-bench-manyjobs-$n.json
                 gen=(--shape varied --tasks 1 --scores 1 --bare-jobs 1 --jobs 20000 --allocs "$n" --seed 1) ;;
        big)     snap=$DIR/plan-inspect-bench-big-$n.json
                 gen=(--cluster big); [ "$n" = cluster ] || gen+=(--allocs "$n") ;;
        many)    snap=$DIR/plan-inspect-bench-many-$n.json
                 gen=(--cluster many); [ "$n" = cluster ] || gen+=(--allocs "$n" --jobs $((n / 20)) --nodes $((n / 100))) ;;
        go)      snap=$DIR/plan-inspect-bench-go-$n.json
                 gen=(--shape varied --tasks 1 --scores 1 --bare-jobs 1 --node-attrs 90 --go-dump 1 --allocs "$n" --seed 1) ;;
        *) echo "bench/e2e.sh: unknown shape $shape" >&2; exit 1 ;;
    esac
    if [ ! -s "$snap" ]; then
        echo "generating $snap" >&2
        "$BIN/examples/gen-snapshot" "${gen[@]}" >"$snap.tmp"
        mv "$snap.tmp" "$snap"
    fi
    size=$(stat -L -c %s "$snap")
    mb=$(awk "BEGIN{print $size/1e6}")
    read -r floor_wall floor_rss < <(measure "$BIN/examples/floor $snap")
    row() {
        local wall=$2 rss=$3
        printf '%-8s %-9s %-34s %9.2f %9.0f %11.0f %7.1f%% %7.2fx\n' "$shape" "$n" "$1" "$wall" \
            "$(awk "BEGIN{print $mb/$wall}")" "$(awk "BEGIN{print $rss/1024}")" \
            "$(awk "BEGIN{print 100*$rss*1024/$size}")" "$(awk "BEGIN{print $wall/$floor_wall}")"
    }
    row "floor (from_slice IgnoredAny)" "$floor_wall" "$floor_rss"
    read -r w r < <(measure "$PI $snap --format json")
    row "plan-inspect FILE --format json" "$w" "$r"
    read -r w r < <(measure "cat $snap | $PI - --format json")
    row "cat FILE | plan-inspect -" "$w" "$r"
    job=$(case $shape in uniform) echo svc-000 ;; *) echo checkout-svc-00 ;; esac)
    read -r w r < <(measure "$PI $snap --format json --job $job")
    row "plan-inspect FILE --job $job" "$w" "$r"
done
done
