#!/usr/bin/env bash
# Runs a side-by-side measurement over every page of ../shared/corpus and
# prints the median ratio. Not a test: figures for notes, machine-dependent.
#   scripts/measure/corpus.sh sidebyside BIN OUT.jsonl   # whole process (../shared/peers/sidebyside.js)
#   scripts/measure/corpus.sh warm BIN OUT.jsonl         # warm MCP call (scripts/measure/warm.js; PEER=playwright-mcp: against Playwright MCP's browser_snapshot)
#   scripts/measure/corpus.sh floor BIN OUT.jsonl        # BIN beside the floor of any one-shot process (scripts/measure/floor.js)
#   BEFORE=BIN0 scripts/measure/corpus.sh clicks BIN OUT.jsonl  # browser_click of BIN0 and BIN side by side (scripts/measure/clicks.js; CLICKS per page, default 5; BEFORE=playwright-mcp: Playwright MCP)
# TodoMVC's add, complete and filter steps: node scripts/measure/todomvc.js URL BIN.
# The 5,000-row table's incremental capture: scripts/measure/incremental.sh [ROUNDS] [BASE_REF].
# Needs: PEERS (default /tmp/peers) = a copy of ../shared/peers after
# `npm install`; the corpus served on 127.0.0.1:8765
# (cd ../shared/corpus && python3 -m http.server 8765 --bind 127.0.0.1).
set -euo pipefail
kind=$1 bin=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
corpus=${CORPUS:-$here/../../../shared/corpus}
peers=${PEERS:-/tmp/peers}
if [ "$kind" = clicks ] && [ "${BEFORE:-}" != playwright-mcp ] && [ ! -x "${BEFORE:-}" ]; then
  echo "clicks: set BEFORE to the baseline axfuse binary" >&2; exit 2
fi
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
    clicks) why=$(mktemp)
      line=$(PEERS=$peers CLICKS=${CLICKS:-5} timeout 600 node "$here/clicks.js" "$url" "$BEFORE" "$bin" 2>"$why") || true
      if [ -n "$line" ]; then echo "$line" >> "$out"; else
        python3 -c "import json,sys; print(json.dumps({'url':sys.argv[1],'error':True,'why':open(sys.argv[2]).read().strip()[:300]}))" "$url" "$why" >> "$out"
      fi
      rm -f "$why" ;;
    *) echo "kind: sidebyside, warm, floor or clicks" >&2; exit 2 ;;
  esac
done
if [ "$kind" = clicks ]; then
  python3 - "$out" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
ok = [r for r in rows if r.get('ratio') is not None]
print(f"pages {len(rows)}, failed {sum(1 for r in rows if r.get('error'))}, measured {len(ok)}")
if ok:
    med = lambda k: statistics.median(r[k] for r in ok)
    print(f"median over pages: before {med('before_ms'):.1f} ms, after {med('after_ms'):.1f} ms, per-page ratio after/before {med('ratio'):.3f}")
    print(f"clicks {sum(r['clicks'] for r in ok)}, errors before {sum(r['errors_before'] for r in ok)}, after {sum(r['errors_after'] for r in ok)}, targets one side could not find {sum(r.get('missing', 0) for r in rows)}")
PY
  exit 0
fi
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
