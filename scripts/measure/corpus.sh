#!/usr/bin/env bash
# Runs a side-by-side measurement over every page of ../shared/corpus and
# prints the median ratio. Not a test: figures for notes, machine-dependent.
#   scripts/measure/corpus.sh sidebyside BIN OUT.jsonl   # whole process (../shared/peers/sidebyside.js)
#   scripts/measure/corpus.sh warm BIN OUT.jsonl         # warm MCP call (scripts/measure/warm.js)
#   scripts/measure/corpus.sh floor BIN OUT.jsonl        # BIN beside the floor of any one-shot process (scripts/measure/floor.js)
# Needs: PEERS (default /tmp/peers) = a copy of ../shared/peers after
# `npm install`; the corpus served on 127.0.0.1:8765
# (cd ../shared/corpus && python3 -m http.server 8765 --bind 127.0.0.1).
set -euo pipefail
kind=$1 bin=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
corpus=${CORPUS:-$here/../../../shared/corpus}
peers=${PEERS:-/tmp/peers}
: > "$out"
if [ "$kind" = floor ]; then
  floorbin=$(mktemp -d)/floor
  (cd "$here/../.." && go build -o "$floorbin" ./scripts/measure/floor)
fi
for p in $(python3 -c "import json,sys; [print(x['path']) for x in json.load(open(sys.argv[1]))]" "$corpus/pages.json"); do
  url="http://127.0.0.1:8765/$p"
  case $kind in
    sidebyside) RUNS=${RUNS:-3} timeout 300 node "$peers/sidebyside.js" "$url" "$bin" 2>/dev/null |
      python3 -c "import json,sys; d=json.loads(sys.stdin.read()); d['ax'].pop('json',None); print(json.dumps({'url':d['url'],'pw_ms':d['pw']['ms'],'ax_ms':d['ax']['ms'],'ratio':d['ratio']['time'],'coverage':d['coverage']}))" >> "$out" ||
      echo "{\"url\":\"$url\",\"error\":true}" >> "$out" ;;
    warm) PEERS=$peers RUNS=${RUNS:-5} timeout 300 node "$here/warm.js" "$url" "$bin" 2>/dev/null >> "$out" ||
      echo "{\"url\":\"$url\",\"error\":true}" >> "$out" ;;
    floor) PEERS=$peers RUNS=${RUNS:-5} timeout 300 node "$here/floor.js" "$url" "$floorbin" "$bin" 2>/dev/null >> "$out" ||
      echo "{\"url\":\"$url\",\"error\":true}" >> "$out" ;;
    *) echo "kind: sidebyside, warm or floor" >&2; exit 2 ;;
  esac
done
python3 - "$out" "$bin" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
def report(what, rs):
    print(f"{what}: median ratio {statistics.median(rs):.3f}, pages at or under 1.0: {sum(x <= 1 for x in rs)} of {len(rs)}")
if any('ms' in r for r in rows):
    ok = [r for r in rows if 'ms' in r]
    for k in ok[0]['ms']:
        report(k if k != sys.argv[2] else 'axfuse snapshot', [r['ms'][k] / r['pw_ms'] for r in ok])
else:
    ok = [r for r in rows if 'ratio' in r and not r.get('err')]
    report(f"pages {len(rows)}, measured {len(ok)}", [r['ratio'] for r in ok])
PY
