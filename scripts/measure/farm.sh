#!/usr/bin/env bash
# Figures of issue 42, side by side in one run (not a test: machine-
# dependent; run nothing else with a browser meanwhile):
#  1. batch over ../shared/corpus with --parallel 1, 2 and 4, through the
#     local Browserless farm (scripts/browserless) and on a browser axfuse
#     launches itself: pages a minute and the median ms a page;
#  2. eight MCP sessions over HTTP through the farm, each navigate →
#     snapshot → click on a corpus page, all at once against one after
#     another (scripts/measure/farmmcp);
#  3. a batch through the farm stopped halfway (SIGTERM) and resumed:
#     lines against pages, each page once.
#   scripts/measure/farm.sh BIN
set -euo pipefail
bin=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
root=$here/../..
corpus=${CORPUS:-$root/../shared/corpus}
port=${PORT:-8781}
work=$(mktemp -d)
(cd "$corpus" && exec python3 -m http.server "$port" --bind 127.0.0.1 >/dev/null 2>&1) & server=$!
trap 'kill $server 2>/dev/null; "$root/scripts/browserless" stop >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
sleep 1
python3 -c "import json,sys; [print('http://127.0.0.1:$port/' + x['path']) for x in json.load(open(sys.argv[1]))]" "$corpus/pages.json" > "$work/pages.txt"
n=$(wc -l < "$work/pages.txt")
farm=$("$root/scripts/browserless" start --concurrent 8 --queued 8 | tail -1)

# batch RUN-NAME ARGS...: one batch over the corpus, its figures.
batch() {
  local name=$1; shift
  local start end
  start=$(date +%s.%N)
  "$bin" batch --timeout 60s "$@" "$work/pages.txt" > "$work/$name.jsonl" 2> "$work/$name.err" || true
  end=$(date +%s.%N)
  python3 - "$work/$name.jsonl" "$start" "$end" "$name" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
wall = float(sys.argv[3]) - float(sys.argv[2])
ms = sorted(l["ms"] for l in lines if not l.get("error"))
failed = sum(1 for l in lines if l.get("error"))
print(f"{sys.argv[4]:24s} {len(lines)} lines, {failed} failed, {wall:6.1f} s, {60*len(lines)/wall:5.1f} pages/min, median {ms[len(ms)//2]:.0f} ms a page")
PY
}

echo "== 1. batch over $n corpus pages"
for p in 1 2 4; do
  batch "launched-p$p" --parallel "$p"
  batch "farm-p$p" --parallel "$p" --cdp "$farm"
done

echo "== 2. eight MCP sessions through the farm"
"$bin" mcp --port 0 --cdp "$farm" --max-sessions 8 2> "$work/mcp.err" & mcp=$!
for _ in $(seq 100); do grep -q 'at http' "$work/mcp.err" && break; sleep 0.1; done
endpoint=$(grep -o 'at http[^ ]*' "$work/mcp.err" | head -1 | cut -c4-)
pages=$(head -8 "$work/pages.txt" | paste -sd,)
(cd "$root" && go run ./scripts/measure/farmmcp -endpoint "$endpoint" -pages "$pages")
kill -INT $mcp; wait $mcp 2>/dev/null || true

echo "== 3. a batch through the farm stopped halfway and resumed"
"$bin" batch --parallel 4 --cdp "$farm" --timeout 60s "$work/pages.txt" > "$work/resume.jsonl" 2>/dev/null & b=$!
while [ "$(wc -l < "$work/resume.jsonl")" -lt $((n / 2)) ]; do sleep 0.2; done
kill -TERM $b; wait $b 2>/dev/null || true
before=$(wc -l < "$work/resume.jsonl")
"$bin" batch --parallel 4 --cdp "$farm" --timeout 60s --resume "$work/resume.jsonl" "$work/pages.txt" 2>/dev/null || true
python3 - "$work/resume.jsonl" "$n" "$before" <<'PY'
import json, sys, collections
idx = collections.Counter(json.loads(l)["index"] for l in open(sys.argv[1]) if l.strip())
print(f"stopped with {sys.argv[3]} lines; after --resume {sum(idx.values())} lines for {sys.argv[2]} pages, {len(idx)} pages, each once: {all(v == 1 for v in idx.values())}")
PY
