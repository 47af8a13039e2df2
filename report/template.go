package report

// pageTemplate is the report. Figures carry their raw value in data-v (the
// sort key, and what tests compare with the JSON); marks carry the index
// of the missed target they outline in data-target.
const pageTemplate = `{{define "style"}}<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 16px; color: #222 }
h1 { font-size: 20px } h2 { font-size: 16px; margin: 28px 0 6px; word-break: break-all }
table { border-collapse: collapse } td, th { border: 1px solid #ccc; padding: 2px 6px; text-align: right }
td:first-child, th:first-child, td.url { text-align: left } td.url { word-break: break-all; max-width: 420px }
#pages th { cursor: pointer; background: #eee; user-select: none } #pages th:hover { background: #ddd }
.err { color: #a00 } .plots { display: flex; gap: 16px; flex-wrap: wrap } .plot { width: 600px; max-width: 100% }
.views { display: flex; gap: 16px; flex-wrap: wrap; align-items: flex-start }
.view { flex: 1 1 560px; max-width: 820px; margin: 0 }
.shot { position: relative; border: 1px solid #999; background: #eee }
.shot img, .shot svg { display: block; width: 100%; height: auto }
.shot svg.marks { position: absolute; left: 0; top: 0; height: 100% }
.marks rect { vector-effect: non-scaling-stroke }
.ref { fill: none; stroke: #1a6ed8; stroke-width: 1.5 } .ref.unreachable { stroke: #e80; stroke-dasharray: 4 3 }
.ref-label { fill: #1a6ed8; font: bold 15px monospace; paint-order: stroke; stroke: #fff; stroke-width: 3px }
.missed { fill: rgba(220,0,0,.12); stroke: #e00; stroke-width: 3 }
ol.missed-list li { color: #a00 }
pre { background: #f6f6f6; padding: 8px; overflow: auto; max-height: 480px; font-size: 12px }
</style>{{end}}{{define "section"}}<section class="page" id="page-{{.Index}}" data-index="{{.Index}}">
<h2>{{.Index}}. {{if .Title}}{{.Title}} — {{end}}{{.URL}}</h2>
{{if .Error}}<p class="err">{{.Error}}</p>{{else if .Truth}}{{$p := .}}
<p>{{.Truth.Targets}} targets ({{.Truth.ListenerOnly}} listener-only), {{.Truth.Covered}} covered, {{.Truth.Delegating}} delegating containers left out{{if .Truth.Unjudged}}, {{.Truth.Unjudged}} not hit-tested{{end}}; {{f1 .MS}} ms.
{{with .Truth.Peer}}{{if .Error}}<span class="err">The peer {{.Name}} failed: {{.Error}}</span>{{end}}{{end}}
{{if .ShotErr}}<span class="err">{{.ShotErr}}</span>{{else if not .Shot}}No screenshot: a recorded capture; the marks are drawn on a blank viewport.{{end}}</p>
<div class="views">
{{range .Views}}<figure class="view" data-view="{{.Key}}">
<figcaption><b>{{.Name}}</b>: {{.Measure.Found}}/{{.Measure.Targets}} targets ({{pct .Measure.Recall}}), {{.Measure.ListenerOnlyFound}}/{{.Measure.ListenerOnly}} listener-only, {{if eq .Key "peer"}}{{.Measure.RefsInView}} refs in view (reach not judged: known by box only){{else}}{{.Measure.Unreachable}}/{{.Measure.RefsInView}} refs unreachable ({{pct .Measure.Precision}} precision){{end}}, {{.Measure.Tokens}} tokens</figcaption>
<div class="shot">{{if $p.Shot}}<img alt="viewport of {{$p.URL}}" src="{{$p.Shot}}">{{else}}<svg class="blank" viewBox="0 0 {{$p.W}} {{$p.H}}"></svg>{{end}}
<svg class="marks" viewBox="0 0 {{$p.W}} {{$p.H}}" preserveAspectRatio="none">
{{range .Refs}}<rect class="ref{{if .Unreachable}} unreachable{{end}}" x="{{.X}}" y="{{.Y}}" width="{{.W}}" height="{{.H}}"/><text class="ref-label" x="{{.X}}" y="{{.Y}}" dy="13">{{.Label}}</text>
{{end}}{{range .Missed}}<rect class="missed" data-target="{{.I}}" x="{{.X}}" y="{{.Y}}" width="{{.W}}" height="{{.H}}"><title>{{.Label}}</title></rect>
{{end}}</svg></div>
{{if .Measure.UnreachableRefs}}<p>Refs a click at their centre cannot reach (dashed orange): {{range $i, $r := .Measure.UnreachableRefs}}{{if $i}}, {{end}}{{$r}}{{end}}</p>{{end}}
{{if .Missed}}<p>Targets the {{.Name}} view has no ref for ({{len .Missed}}), outlined in red:</p>
<ol class="missed-list" start="0">{{range .Missed}}<li data-target="{{.I}}">{{.Label}}</li>{{end}}</ol>{{end}}
<details><summary>{{.Name}} YAML ({{.Measure.Tokens}} tokens)</summary><pre>{{.YAML}}</pre></details>
</figure>
{{end}}</div>{{end}}
</section>
{{end}}<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width">
<title>axfuse compare: {{len .Pages}} page{{if ne (len .Pages) 1}}s{{end}}</title>
{{template "style"}}</head><body>
<h1>axfuse compare: AX-only and fused views against the browser's ground truth</h1>
<p>Ground truth: the elements in the viewport with a click listener or native activation, visible, whose clickable point the browser's hit test reaches. Recall: targets a view gives a ref to. Precision: a view's refs in view that a click reaches.</p>
{{with .Summary}}<table id="summary">
<tr><th>pages</th><td data-v="{{.Pages}}">{{.Pages}}</td></tr>
<tr><th>failed</th><td data-v="{{.Failures}}">{{.Failures}}</td></tr>
<tr><th>median time per page</th><td data-v="{{.MedianMS}}">{{f1 .MedianMS}} ms</td></tr>
<tr><th>targets (listener-only)</th><td data-v="{{.Targets}}">{{.Targets}} ({{.ListenerOnly}})</td></tr>
<tr><th>found by AX-only / fused</th><td>{{.AXFound}} / {{.FusedFound}}</td></tr>
<tr><th>median recall AX-only / fused</th><td data-v="{{.MedianAXRecall}} {{.MedianFusedRecall}}">{{pct .MedianAXRecall}} / {{pct .MedianFusedRecall}}</td></tr>
<tr><th>median precision AX-only / fused</th><td data-v="{{.MedianAXPrecision}} {{.MedianFusedPrecision}}">{{pct .MedianAXPrecision}} / {{pct .MedianFusedPrecision}}</td></tr>
<tr><th>tokens AX-only / fused (median ratio)</th><td data-v="{{.MedianTokenRatio}}">{{.AXTokens}} / {{.FusedTokens}} ({{f2 .MedianTokenRatio}})</td></tr>
{{if .PeerPages}}<tr><th>{{$.Peer}}: found, median recall, tokens ({{.PeerPages}} pages)</th><td data-v="{{.MedianPeerRecall}}">{{.PeerFound}}/{{.PeerTargets}}, {{pct .MedianPeerRecall}}, {{.PeerTokens}}</td></tr>{{end}}
</table>{{end}}
{{if .RecallPlot}}<div class="plots">{{.RecallPlot}}{{.RatioPlot}}</div>{{end}}
<h2>Pages</h2>
<table id="pages"><thead><tr>
<th data-type="n">#</th><th data-type="s">page</th><th data-type="n">ms</th><th data-type="n">targets</th><th data-type="n">listener-only</th>
<th data-type="n">AX recall</th><th data-type="n">fused recall</th><th data-type="n">AX precision</th><th data-type="n">fused precision</th>
<th data-type="n">AX tokens</th><th data-type="n">fused tokens</th><th data-type="n">token ratio</th>
{{if .Peer}}<th data-type="n">{{.Peer}} recall</th><th data-type="n">{{.Peer}} tokens</th>{{end}}
</tr></thead><tbody>
{{range .Pages}}<tr data-index="{{.Index}}">
<td data-v="{{.Index}}"><a href="{{if $.Split}}{{$.Split}}/page-{{.Index}}.html{{else}}#page-{{.Index}}{{end}}">{{.Index}}</a></td><td class="url" data-v="{{.URL}}">{{.URL}}</td><td data-field="ms" data-v="{{.MS}}">{{f1 .MS}}</td>
{{if .Truth}}{{with .Truth}}<td data-field="targets" data-v="{{.Targets}}">{{.Targets}}</td><td data-field="listenerOnly" data-v="{{.ListenerOnly}}">{{.ListenerOnly}}</td>
<td data-field="ax.recall" data-v="{{.AX.Recall}}">{{pct .AX.Recall}}</td><td data-field="fused.recall" data-v="{{.Fused.Recall}}">{{pct .Fused.Recall}}</td>
<td data-field="ax.precision" data-v="{{.AX.Precision}}">{{pct .AX.Precision}}</td><td data-field="fused.precision" data-v="{{.Fused.Precision}}">{{pct .Fused.Precision}}</td>
<td data-field="ax.tokens" data-v="{{.AX.Tokens}}">{{.AX.Tokens}}</td><td data-field="fused.tokens" data-v="{{.Fused.Tokens}}">{{.Fused.Tokens}}</td>{{end}}
<td data-field="ratio" data-v="{{.Ratio}}">{{f2 .Ratio}}</td>{{if $.Peer}}{{with .Truth.Peer}}{{if .Measure}}<td data-field="peer.recall" data-v="{{.Measure.Recall}}">{{pct .Measure.Recall}}</td><td data-field="peer.tokens" data-v="{{.Measure.Tokens}}">{{.Measure.Tokens}}</td>{{else}}<td class="err" colspan="2" data-v="-1">{{.Error}}</td>{{end}}{{else}}<td data-v="-1"></td><td data-v="-1"></td>{{end}}{{end}}{{else}}<td class="err" colspan="{{if $.Peer}}11{{else}}9{{end}}" data-v="-1">{{.Error}}</td>{{end}}
</tr>
{{end}}</tbody></table>
{{if not .Split}}{{range .Pages}}{{template "section" .}}{{end}}{{end}}
<script>
// Sort the pages table by the clicked column; again to reverse.
document.querySelectorAll('#pages th').forEach((th, col) => th.addEventListener('click', () => {
  const body = th.closest('table').tBodies[0], num = th.dataset.type === 'n';
  const dir = th.dataset.dir === 'asc' ? -1 : 1;
  th.dataset.dir = dir === 1 ? 'asc' : 'desc';
  const key = tr => { const td = tr.cells[Math.min(col, tr.cells.length - 1)]; return num ? parseFloat(td.dataset.v) : td.dataset.v; };
  [...body.rows].sort((a, b) => { const x = key(a), y = key(b); return dir * (x < y ? -1 : x > y ? 1 : 0); }).forEach(r => body.appendChild(r));
}));
</script>
</body></html>
`

// detailTemplate is one page's detail in a split report: the page's
// section alone, with a link back to the index.
const detailTemplate = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width">
<title>axfuse compare: page {{.Page.Index}}</title>
{{template "style"}}</head><body>
<p><a href="../{{.Index}}">all pages</a></p>
{{template "section" .Page}}
</body></html>
`
