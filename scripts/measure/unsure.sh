#!/usr/bin/env bash
# The cost of settling unsure sight by pixels (issue 40): for every page
# of ../shared/corpus, and for a page of 100 unsure texts, one
# `BIN snapshot --capture full --format json` and the time of its
# "sight:" capture step (the pixel batch; absent when the page's styles
# use nothing sight does not model), and of its "tails:" step (texts cut
# by a box hiding its overflow, asked of the browser's layout). Not a test: figures for notes,
# machine-dependent. Run nothing else with the browser meanwhile.
#   scripts/measure/unsure.sh BIN [OUT.jsonl]
# Prints one line per page needing the batch and the median and worst
# added time over those pages.
set -euo pipefail
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
corpus=${CORPUS:-$here/../../../shared/corpus}
work=$(mktemp -d)
out=${2:-$work/out.jsonl}
port=${PORT:-8779}
cp -r "$corpus" "$work/c"
python3 - "$work/c/unsure-100.html" <<'PY'
import sys
# 100 texts in view, each its own element, in oklch (20 hidden, white).
rows = "\n".join(f'<span style="color: oklch({"1 0" if i % 5 == 0 else "0.3 0.1"} {i * 3})">text {i} in oklch</span>' for i in range(100))
open(sys.argv[1], "w").write(f"<!doctype html><title>100 unsure texts</title><body style='font:14px sans-serif'><p>{rows}</p></body>")
PY
(cd "$work/c" && exec python3 -m http.server "$port" --bind 127.0.0.1 >/dev/null 2>&1) & server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
sleep 1
: > "$out"
pages=$(python3 -c "import json,sys; [print(x['path']) for x in json.load(open(sys.argv[1]))]" "$corpus/pages.json")
for p in $pages unsure-100.html; do
  json=$(timeout 120 "$bin" snapshot --capture full --format json "http://127.0.0.1:$port/$p" 2>/dev/null) || { echo "{\"page\":\"$p\",\"error\":true}" >> "$out"; continue; }
  jq -c --arg p "$p" '{page: $p, steps: [.stats.timings[] | select(.step | startswith("sight:"))], tails: [.stats.timings[] | select(.step | startswith("tails:"))], withheld: .stats.counts.withheld, unsure: (.stats.counts.unsure // 0), cutOff: (.stats.counts.cutOff // 0)}' <<<"$json" | tee -a "$out" | jq -r 'select(.steps | length > 0) | "\(.page)\t\(.steps[0].ms) ms\t\(.steps[0].step)"'
done
jq -s -r '[.[] | select(.steps and (.steps | length > 0) and (.page != "unsure-100.html")) | .steps[0].ms] | sort | if length == 0 then "no corpus page needed the batch" else "corpus pages needing it: \(length); median \(.[length/2|floor]) ms, worst \(.[-1]) ms" end' "$out"
jq -s -r '[.[] | select(.tails and (.tails | length > 0) and (.page != "unsure-100.html")) | .tails[0].ms] | sort | if length == 0 then "no corpus page had a text cut by a box in view" else "corpus pages with texts cut by a box: \(length); tails step median \(.[length/2|floor]) ms, worst \(.[-1]) ms" end' "$out"
