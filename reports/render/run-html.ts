// A run's page (`testbed run --report`): one self-contained HTML file (inline CSS, SVG, no
// script, nothing fetched) with the verdict, what the timeline holds, the violations with their
// rule, the replay lines, the lease timeline (charts/timeline-svg.ts) and the steps: one row per
// step of the counterexample, each with the time it was made, the store time its call ran at and
// its fencing token, the failing step marked. Scopes are written by name (scope-label.ts).

import type { StepRow } from '../../campaign/counterexample-rows.ts';
import { storeTimeText } from '../../campaign/counterexample-rows.ts';
import { timelineSvg } from '../charts/timeline-svg.ts';
import { escapeMarkup as esc } from '../markup-escape.ts';
import type { RunReport } from '../run-report.ts';
import { readableScope, scopeIdsIn, withScopeNames } from '../scope-label.ts';
import { LEGEND, STYLE } from './page-style.ts';

const RUN_STYLE = `
table.steps td { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 12px; }
table.steps td.what, table.steps td.answer { word-break: break-word; }
table.steps tr.fault td { background: #fdf2e9; } table.steps tr.truth td { color: var(--muted); }
table.steps tr.failing td { background: #fdecea; border-top: 2px solid var(--fail); border-bottom: 2px solid var(--fail); }
table.steps tr.failing td:first-child { border-left: 6px solid var(--fail); }
.token { display: inline-block; padding: 0 6px; border-radius: 8px; background: #eaf2f8; color: #1b4f72; font-weight: 600; white-space: nowrap; }
.failing-mark { display: inline-block; margin-top: 3px; color: #fff; background: var(--fail); border-radius: 8px; padding: 0 8px; font-weight: 600; white-space: nowrap; }
.shows { margin: 10px 0; font-size: 15px; } .unreached { color: var(--fail); }
`;

const BADGE: Readonly<Record<RunReport['verdict'], string>> = { failed: 'fail', passed: 'pass', undecided: 'untested', untested: 'untested' };

/** Text from the run, escaped, scope ids written as names (each name's id on hover). */
function named(text: string): string {
  const ids = scopeIdsIn(text);
  const title = ids.filter((id) => readableScope(id) !== id).map((id) => `${readableScope(id)} = ${id}`);
  return title.length === 0 ? esc(text) : `<span title="${esc(title.join('; '))}">${esc(withScopeNames(text))}</span>`;
}

function stepRow(step: StepRow, report: RunReport): string {
  const failing = step === report.failing;
  const store = storeTimeText(step.storeTime);
  const rule = failing ? report.violations[0]!.invariant : '';
  const mark = failing ? `<br><span class="failing-mark">✗ failing step: ${esc(rule)}</span>` : '';
  return (
    `<tr class="step ${step.kind}${failing ? ' failing' : ''}" data-kind="${step.kind}" data-number="${esc(step.number)}" data-events="${step.events.join(' ')}"${failing ? ` data-failing="${esc(rule)}"` : ''}>` +
    `<td class="num">${esc(step.number)}</td><td class="num time">${step.time} ms</td>` +
    `<td class="num store-time${store === '-' ? ' unreached' : ''}"${store === '-' ? ' title="the call never reached the store"' : ''}>${esc(store === '-' ? 'not reached' : store.replace('ms', ' ms'))}</td>` +
    `<td>${esc(step.process)}</td><td class="what">${named(step.what)}</td>` +
    `<td class="token-cell">${step.token === undefined ? '' : `<span class="token">token ${step.token}</span>`}</td>` +
    `<td class="answer">${named(step.result)}${mark}</td></tr>`
  );
}

function stepsTable(report: RunReport): string {
  const omitted = report.omittedEvents === 0 ? '' : `<p class="meta">${report.omittedEvents} later events of the run are left out: they come after the violation.</p>`;
  return (
    '<table class="steps"><thead><tr><th>Step</th><th>Made at</th><th>Store time</th><th>Process</th><th>Call or event</th><th>Token</th><th>Answer</th></tr></thead>' +
    `<tbody>${report.steps.map((step) => stepRow(step, report)).join('')}</tbody></table>${omitted}`
  );
}

function violationList(report: RunReport): string {
  if (report.violations.length === 0) return '';
  const items = report.violations.map((v) => `<li class="violation" data-invariant="${esc(v.invariant)}"><strong>${esc(v.invariant)}</strong>: ${named(v.message)}</li>`);
  return `<h2>Violations</h2><ul class="violations">${items.join('')}</ul>`;
}

function scopeTable(report: RunReport): string {
  const ids = [...new Set(report.steps.flatMap((step) => scopeIdsIn(`${step.what} ${step.result}`)))];
  if (ids.length === 0) return '';
  const rows = ids.map((id) => `<tr><td>${esc(readableScope(id))}</td><td><code>${esc(id)}</code></td></tr>`);
  return `<h2>Scopes</h2><table class="scopes" style="width:auto"><thead><tr><th>Name</th><th>Scope id</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

export function renderRunHtml(report: RunReport): string {
  const { run } = report;
  const title = `${run.scenario} · seed ${run.seed} · ${run.adapter}`;
  const failed = report.verdict === 'failed';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(`${title}: ${report.verdict}`)}</title><style>${STYLE}${RUN_STYLE}</style></head>
<body><header><h1>${esc(title)}</h1>
<div class="verdict" data-verdict="${report.verdict}"><span class="badge ${BADGE[report.verdict]}">${report.verdict}</span> ${run.faults} faults, trace <code>${esc(run.traceHash)}</code></div></header>
<main>
<p class="shows" data-shrunk="${String(report.shrunk)}">${named(report.shows)}</p>
<pre class="replay${failed ? '' : ' ok'}">${report.replays.map(esc).join('\n')}</pre>
${violationList(report)}
<h2>Lease timeline</h2>${LEGEND}<div class="scroll">${timelineSvg(report.timeline, readableScope)}</div>
<h2>Steps</h2><p class="meta">Made at: when the process made the call (or the fault or record happened). Store time: when the store ran the call, on its own clock.</p>
${stepsTable(report)}
${scopeTable(report)}
</main></body></html>
`;
}
