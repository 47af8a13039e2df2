#!/usr/bin/env bash
# The 5,000-row table figure of issue 23: an incremental viewport capture
# after one row changed, against a whole viewport capture of the same page
# (BenchmarkIncrementalCapture, both in one run), in ROUNDS rounds. With a
# git ref, that commit's benchmark runs too, its rounds interleaved with
# this tree's, so both meet the same machine. Not a test: figures for
# notes, machine-dependent. Run nothing else with the browser meanwhile.
#   scripts/measure/incremental.sh [ROUNDS] [BASE_REF]
# Prints one line per run (whole and incremental median ms, their ratio)
# and each side's median ratio.
set -euo pipefail
rounds=${1:-5} base=${2:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"; [ -z "$base" ] || git -C "$root" worktree remove --force "$work/base" 2>/dev/null || true' EXIT
(cd "$root" && go test -c -o "$work/this.test" ./browser/chrome)
sides=(this)
if [ -n "$base" ]; then
  git -C "$root" worktree add -q --detach "$work/base" "$base"
  (cd "$work/base" && go test -c -o "$work/base.test" ./browser/chrome)
  sides=(base this)
fi
for _ in $(seq "$rounds"); do
  for side in "${sides[@]}"; do
    # The benchmark reads the test pages relative to its package.
    out=$(cd "$root/browser/chrome" && "$work/$side.test" -test.run '^$' -test.bench IncrementalCapture -test.benchtime 30x 2>&1)
    whole=$(awk '/whole-[0-9]/ {print $5}' <<<"$out")
    inc=$(awk '/incremental-[0-9]/ {print $5}' <<<"$out")
    if [ -z "$whole" ] || [ -z "$inc" ]; then
      echo "$side: the benchmark failed:" >&2; echo "$out" | tail -5 >&2; exit 1
    fi
    echo "$side whole=$whole inc=$inc ratio=$(awk -v i="$inc" -v w="$whole" 'BEGIN {printf "%.3f", i / w}')"
  done
done | tee "$work/runs"
for side in "${sides[@]}"; do
  sed -n "s/^$side .*ratio=//p" "$work/runs" | sort -n |
    awk -v s="$side" '{r[NR] = $1} END {m = NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2; printf "%s: median ratio %.3f over %d rounds (%.3f-%.3f)\n", s, m, NR, r[1], r[NR]}'
done
