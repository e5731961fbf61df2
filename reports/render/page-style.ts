// The look every self-contained report page shares (index.html, a run's page): one stylesheet,
// inlined, and the legend of the lease timeline (charts/timeline-svg.ts).

export const STYLE = `
:root { --pass: #1e8449; --partial: #2471a3; --fail: #c0392b; --untested: #7f8c8d; --ink: #1c2833; --muted: #5d6d7e; --rule: #d5d8dc; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); margin: 0; background: #f7f9fa; }
header { background: #1c2833; color: #fff; padding: 18px 28px; }
header h1 { margin: 0 0 4px; font-size: 22px; }
header .meta { color: #cfd8dc; }
header nav { margin-top: 10px; } header nav a { color: #aed6f1; margin-right: 18px; }
main { padding: 8px 28px 40px; max-width: 1400px; }
h2 { margin: 28px 0 8px; font-size: 18px; border-bottom: 2px solid var(--rule); padding-bottom: 4px; }
h3 { margin: 18px 0 6px; font-size: 15px; }
table { border-collapse: collapse; width: 100%; background: #fff; margin-bottom: 10px; }
th, td { border: 1px solid var(--rule); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #eaeded; font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
code, pre { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 12px; }
.badge { display: inline-block; min-width: 64px; text-align: center; padding: 1px 8px; border-radius: 10px; color: #fff; font-weight: 600; font-size: 12px; }
.badge.pass { background: var(--pass); } .badge.fail { background: var(--fail); } .badge.untested { background: var(--untested); } .badge.partial { background: var(--partial); }
.badge.zero { background: transparent; color: #cfd8dc; box-shadow: inset 0 0 0 1px #5d6d7e; }
.verdict { margin-top: 8px; font-weight: 600; } .verdict ul { font-weight: 400; margin: 4px 0 0; }
.counts { margin-top: 8px; } .counts .badge { margin-right: 6px; }
.counts-label { display: inline-block; width: 170px; color: #cfd8dc; }
table.gate-table { table-layout: fixed; }
.none-shown { color: var(--muted); margin: 0 0 10px; }
.filters { margin: 12px 0 0; }
.filters button { font: inherit; margin-right: 6px; padding: 2px 10px; border: 1px solid var(--rule); background: #fff; border-radius: 4px; cursor: pointer; }
.filters button.active { background: var(--ink); color: #fff; }
tr.status-fail td:first-child { border-left: 4px solid var(--fail); }
details summary { cursor: pointer; color: var(--muted); }
.evidence-list { margin: 4px 0 0; padding-left: 18px; }
pre.replay { background: #fdecea; border-left: 4px solid var(--fail); padding: 6px 10px; margin: 6px 0; white-space: pre-wrap; }
pre.replay.ok { background: #eef6f0; border-left-color: var(--pass); }
.sample { background: #fff; border: 1px solid var(--rule); padding: 10px 14px; margin: 14px 0; }
.sample .charts { display: flex; flex-wrap: wrap; gap: 18px; align-items: flex-start; }
.scroll { overflow-x: auto; max-width: 100%; }
.legend span { display: inline-block; margin-right: 14px; color: var(--muted); font-size: 12px; }
.legend i { display: inline-block; width: 14px; height: 10px; margin-right: 4px; vertical-align: middle; }
svg text { font: 11px system-ui, sans-serif; }
svg .tick { fill: var(--muted); }
svg .scope-label { font-weight: 700; fill: var(--ink); font-size: 12px; }
svg .row-label { fill: var(--ink); }
svg .grid { stroke: #eceff1; }
svg .row-rule { stroke: #f2f3f4; }
svg .fault-band .shade { opacity: 0.2; } svg .fault-band .shade.global { opacity: 0.13; }
svg .fault-label { font-weight: 600; }
svg .lease-bar rect { stroke: rgba(0,0,0,0.35); }
svg .lease-bar rect.expired { stroke: #000; stroke-width: 1.5; }
svg .bar-label { fill: #fff; font-weight: 600; } svg .bar-label.outside { fill: var(--ink); }
svg .op-accepted { fill: #fff; stroke: #1c2833; stroke-width: 1.5; }
svg .op-rejected { fill: #bdc3c7; stroke: #7f8c8d; }
svg .op-effect { fill: #f39c12; stroke: #935116; }
svg .violation-marker path { stroke: var(--fail); stroke-width: 3.5; stroke-linecap: round; }
svg .violation-link line { stroke: var(--fail); stroke-width: 1.5; stroke-dasharray: 5 3; }
svg .violation-link circle { fill: none; stroke: var(--fail); stroke-width: 1.5; }
svg .fault-band[data-kind="lost-writes"] .shade { opacity: 0.16; }
svg .axis { stroke: var(--muted); }
svg .percentile { stroke: var(--muted); stroke-dasharray: 4 3; }
`;

export const LEGEND =
  '<div class="legend"><span><i style="background:hsl(67 55% 48%)"></i>lease bar (label: fencing token)</span>' +
  '<span><i style="border:1.5px dashed #000"></i>ended by expiry</span><span><i style="background:#f2b134;opacity:.4"></i>fault band</span>' +
  '<span>○ protected write landed</span><span style="color:#e67e22">● external effect</span><span style="color:#c0392b">✕ violation, on the event that broke the rule; - - ○ the event it conflicts with</span>' +
  '<span><i style="background:#7b241c;opacity:.3"></i>lost-writes: the window a failover or restore did not keep</span></div>';
