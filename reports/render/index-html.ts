// index.html: the whole report in one self-contained page (inline CSS, JS and SVG, nothing
// fetched): the gate tables, the scenario and mutant tables, and for every kept run a lease
// timeline with its faults, violations and replay line, and a plot of how long waiters waited.

import { mutantCaught, type GateRunInput } from '../../campaign/gates/evidence.ts';
import { countsLine, gateGroups, statusCounts, type StatusCounts } from '../gate-groups.ts';
import { mutantShrunk, proofCatch, scenarioProof, type GateResult } from '../gate-status.ts';
import { leaseTimeline } from '../lease-timeline.ts';
import { escapeMarkup as esc } from '../markup-escape.ts';
import { replayLine } from '../replay-line.ts';
import { verdictLine, type RunVerdict } from '../run-verdict.ts';
import { timelineSvg } from '../charts/timeline-svg.ts';
import { waitPlotSvg } from '../charts/wait-plot-svg.ts';
import { LEGEND, STYLE } from './page-style.ts';
import { waitStats, waitTimes } from '../wait-times.ts';
import type { RunResult } from '../../sim/run-result.ts';
import { readableScope } from '../scope-label.ts';

const SCRIPT = `
document.querySelectorAll('.filters button').forEach(function (button) {
  button.addEventListener('click', function () {
    var want = button.getAttribute('data-filter');
    document.querySelectorAll('.filters button').forEach(function (b) { b.classList.toggle('active', b === button); });
    document.querySelectorAll('tr.gate-row').forEach(function (row) {
      row.hidden = want !== 'all' && row.getAttribute('data-status') !== want;
    });
    document.querySelectorAll('.gate-group').forEach(function (group) {
      var shown = group.querySelectorAll('tr.gate-row:not([hidden])').length;
      group.querySelector('table').hidden = shown === 0;
      group.querySelector('.none-shown').hidden = shown !== 0;
    });
  });
});
`;

function gateRows(gate: GateResult): string {
  const e = gate.evidence;
  const items = [
    ...e.scenarios.map((p) => `<li>${esc(p.finding)}${p.firstFailure === undefined ? '' : ` <code>${esc(replayLine(p.firstFailure.replay))}</code>`}</li>`),
    ...e.mutants.map((p) => `<li>mutant <code>${esc(p.name)}</code>: ${p.holds ? esc(proofCatch(p)) : `<strong>${esc(proofCatch(p))}</strong>`}${proofReplay(p)}</li>`),
    ...e.suites.map((p) => `<li>suite <code>${esc(p.name)}</code>: ${p.passed} passed, ${p.failed} failed</li>`),
  ];
  const details = items.length === 0 ? '' : `<details><summary>${items.length} proofs</summary><ul class="evidence-list">${items.join('')}</ul></details>`;
  return (
    `<tr class="gate-row status-${gate.status}" data-status="${gate.status}" data-id="${esc(gate.id)}">` +
    `<td><span class="badge ${gate.status}">${gate.status}</span></td><td><code>${esc(gate.id)}</code></td><td>${esc(gate.title)}</td>` +
    `<td>${esc(e.summary)}${details}</td></tr>`
  );
}

/** A count badge in its status colour, or plain when the count is zero: "0 fail" is good news, not an alarm. */
function countBadge(status: 'pass' | 'partial' | 'fail' | 'untested', n: number): string {
  return `<span class="badge ${n === 0 ? 'zero' : status}" data-status="${status}">${n} ${status}</span>`;
}

function countsBlock(label: string, counts: StatusCounts): string {
  return (
    `<div class="counts" title="${esc(countsLine(counts))}"><span class="counts-label">${label} (${counts.total})</span>` +
    `${countBadge('pass', counts.pass)}${countBadge('partial', counts.partial)}${countBadge('fail', counts.fail)}${countBadge('untested', counts.untested)}</div>`
  );
}

function gateTables(gates: ReadonlyArray<GateResult>): string {
  return gateGroups(gates)
    .map(
      (group) =>
        `<div class="gate-group"><h3>${esc(group.heading)}</h3><table class="gate-table" data-source="${esc(group.source)}">` +
        '<colgroup><col style="width:96px"><col style="width:260px"><col style="width:28%"><col></colgroup>' +
        `<thead><tr><th>Status</th><th>Id</th><th>Gate</th><th>Evidence</th></tr></thead><tbody>${group.gates.map(gateRows).join('')}</tbody></table>` +
        '<p class="none-shown" hidden>No row with this status.</p></div>',
    )
    .join('');
}

function scenarioTable(input: GateRunInput): string {
  if (input.scenarios.length === 0) return '<p>No scenario sweep in this run.</p>';
  const rows = input.scenarios.map((s) => {
    const proof = scenarioProof(s);
    return (
      `<tr><td><code>${esc(s.scenario)}</code><br>${esc(s.title)}</td><td>${esc(s.sources.join(', '))}</td><td>${esc(s.adapter)}</td><td>${s.faults}</td>` +
      `<td>${s.expect === 'pass' ? 'no violation' : 'violation caught'}</td><td class="num">${s.seedsRun}</td><td class="num">${s.failures}</td>` +
      `<td><span class="badge ${proof.holds ? 'pass' : 'fail'}">${proof.holds ? 'as expected' : 'not as expected'}</span></td>` +
      `<td>${s.firstFailure === undefined ? '' : `<code>${esc(replayLine(s.firstFailure.replay))}</code>`}</td></tr>`
    );
  });
  return (
    '<table class="scenario-table"><thead><tr><th>Scenario</th><th>Proves</th><th>Adapter</th><th>Faults</th><th>Must show</th>' +
    `<th>Seeds</th><th>Failing seeds</th><th>Result</th><th>First failure</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
  );
}

/** The replay line of a mutant proof's catch: the hunt's run, or the check's counterexample. */
function proofReplay(p: GateResult['evidence']['mutants'][number]): string {
  const line = p.provedByCheck?.replay ?? (p.caught && p.replay !== undefined ? replayLine(p.replay) : undefined);
  return line === undefined ? '' : ` <code>${esc(line)}</code>`;
}

/** The command-level check's result on a mutant: caught how fast and in how few steps. */
function checkCell(m: GateRunInput['mutants'][number]): string {
  const check = m.check;
  if (check === undefined) return 'not a store bug';
  if (!check.caught) return `<span class="badge fail">survived</span> <code>${esc(check.replay)}</code>`;
  return `caught in ${esc(check.firstFailureMs ?? '?')} ms, ${esc(check.steps ?? '?')} steps <code>${esc(check.replay)}</code>`;
}

function mutantTable(input: GateRunInput): string {
  if (input.mutants.length === 0) return '<p>No mutant hunt in this run.</p>';
  const caught = input.mutants.filter(mutantCaught).length;
  // "Caught at" and the replay line name the same run: the first catch.
  const rows = input.mutants.map(
    (m) =>
      `<tr class="mutant-row" data-mutant="${esc(m.name)}"><td><code>${esc(m.name)}</code></td><td>${esc(m.bug)}</td><td><span class="badge ${mutantCaught(m) ? 'pass' : 'fail'}">${mutantCaught(m) ? 'caught' : 'survived'}</span></td>` +
      `<td class="caught-at">${m.caught ? esc(m.firstFailingScenario === undefined ? `seed ${m.firstFailingSeed ?? '?'}` : `${m.firstFailingScenario} seed ${m.firstFailingSeed ?? '?'}`) : m.checkOnly === undefined ? '—' : 'command-level check only'}</td><td class="num">${m.seedsTried}</td><td class="num">${m.caught ? esc(mutantShrunk(m) || '—') : '—'}</td>` +
      `<td class="replay">${m.replay === undefined ? '' : `<code>${esc(replayLine(m.replay))}</code>`}</td><td>${checkCell(m)}</td></tr>`,
  );
  return (
    `<p>Mutation score: ${caught} of ${input.mutants.length} mutants caught. Each replay line replays the run in "Caught at".</p>` +
    '<table class="mutant-table"><thead><tr><th>Mutant</th><th>Bug</th><th>Result</th><th>Caught at</th><th>Seeds tried</th><th>Shrunk operations</th><th>Replay</th><th>Command-level check</th></tr></thead>' +
    `<tbody>${rows.join('')}</tbody></table>`
  );
}

const VIOLATIONS_SHOWN = 5;

/** The first few violations in full; the rest folded, with a count per invariant so the shape of a large failure shows at a glance. */
function violationList(run: RunResult): string {
  if (run.violations.length === 0) return '';
  const item = (v: RunResult['violations'][number]): string =>
    `<li><strong>${esc(v.invariant)}</strong>${v.scope === undefined ? '' : ` on <code>${esc(v.scope)}</code>`}: ${esc(v.message)}</li>`;
  const shown = run.violations.slice(0, VIOLATIONS_SHOWN);
  const rest = run.violations.slice(VIOLATIONS_SHOWN);
  const perInvariant = new Map<string, number>();
  for (const v of run.violations) perInvariant.set(v.invariant, (perInvariant.get(v.invariant) ?? 0) + 1);
  const tally = [...perInvariant].map(([name, n]) => `${esc(name)} ×${n}`).join(', ');
  return (
    `<ul class="violations">${shown.map(item).join('')}</ul>` +
    (rest.length === 0 ? '' : `<details><summary>${rest.length} more violations (all ${run.violations.length}: ${tally})</summary><ul class="violations">${rest.map(item).join('')}</ul></details>`)
  );
}

/**
 * One kept run. A control run (a scenario that must show a violation: the mitigation is off) that
 * shows one is labelled as expected, not drawn as a failure.
 */
function sampleSection(run: RunResult, position: number, controlFailures: number | undefined): string {
  const timeline = leaseTimeline(run);
  const waits = waitTimes(run.history);
  const stats = waitStats(waits);
  const control = controlFailures !== undefined;
  const expected = control && run.valid === false;
  const failed = run.valid !== true && !expected;
  // A clean seed of a control run is neutral when other seeds of its sweep showed the violation.
  const cleanControl = control && run.valid === true;
  const verdict = expected ? 'pass' : cleanControl ? (controlFailures > 0 ? 'untested' : 'fail') : run.valid === true ? 'pass' : run.valid === false ? 'fail' : 'untested';
  const count = `${run.violations.length} ${run.violations.length === 1 ? 'violation' : 'violations'}`;
  const verdictText = expected
    ? `${count}, as expected (control run: the mitigation is off)`
    : cleanControl
      ? controlFailures > 0
        ? `no violation on this seed (control run: ${controlFailures} other seeds of its sweep showed one)`
        : 'no violation, where the control run must show one'
      : run.valid === true
        ? 'no violation'
        : run.valid === false
          ? count
          : 'undecided';
  const violations = violationList(run);
  return (
    `<section class="sample" id="sample-${position}" data-scenario="${esc(run.scenario)}" data-valid="${String(run.valid)}"${control ? ' data-control="true"' : ''}>` +
    `<h3><code>${esc(run.scenario)}</code> · seed ${run.seed} · ${esc(run.adapter)} (${run.faults} faults) <span class="badge ${verdict}">${verdictText}</span></h3>` +
    `<pre class="replay${failed ? '' : ' ok'}">${esc(replayLine(run.replay))}</pre>${violations}` +
    `<div class="meta">${run.events} events, ${run.operations} operations, ${run.simulatedMs} simulated ms, trace <code>${esc(run.traceHash)}</code></div>` +
    `${LEGEND}<div class="scroll">${timelineSvg(timeline, readableScope)}</div>` +
    `<h4>Contention: wait from Enqueue to Acquired</h4><div class="charts">${waitPlotSvg(waits, timeline.endTime)}` +
    `<table class="wait-stats" style="width:auto"><tr><th>waiters</th><td class="num">${stats.count}</td></tr><tr><th>p50</th><td class="num">${stats.p50Ms} ms</td></tr>` +
    `<tr><th>p95</th><td class="num">${stats.p95Ms} ms</td></tr><tr><th>max</th><td class="num">${stats.maxMs} ms</td></tr></table></div></section>`
  );
}

/** The run's one verdict, as the console, the exit code and the other reports state it. */
function verdictBlock(verdict: RunVerdict): string {
  const badge = verdict.status === 'pass' ? 'pass' : verdict.status === 'fail' ? 'fail' : 'untested';
  const items = [...verdict.failures, ...verdict.undecided].map((i) => `<li>${esc(i.kind)} <code>${esc(i.name)}</code>: ${esc(i.why)}${i.replay === undefined ? '' : ` <code>${esc(replayLine(i.replay))}</code>`}</li>`);
  return `<div class="verdict" data-verdict="${verdict.status}"><span class="badge ${badge}">${verdict.status}</span> ${esc(verdictLine(verdict))}${items.length === 0 ? '' : `<ul>${items.join('')}</ul>`}</div>`;
}

export function renderIndexHtml(input: GateRunInput, gates: ReadonlyArray<GateResult>, verdict: RunVerdict): string {
  const counts = statusCounts(gates);
  // Unexpected failures first: they are what a reader opens the page for; control runs after them.
  const controls = new Map<string, number>();
  for (const e of input.scenarios) if (e.expect === 'violation') controls.set(e.scenario, (controls.get(e.scenario) ?? 0) + e.failures);
  const rank = (run: RunResult) => (run.valid === true ? 2 : controls.has(run.scenario) ? 1 : 0);
  const samples = [...input.samples].sort((a, b) => rank(a) - rank(b));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Production-readiness gate report</title><style>${STYLE}</style></head>
<body><header><h1>Production-readiness gate report</h1>
<div class="meta">Run ${esc(input.startedAt)} → ${esc(input.finishedAt)} · ${input.scenarios.length} scenario sweeps · ${input.mutants.length} mutants · ${input.samples.length} kept histories</div>
${verdictBlock(verdict)}
${countsBlock('Release gates', counts.gates)}${countsBlock('Acceptance tests', counts.acceptance)}
<nav><a href="#gates">Gates</a><a href="#scenarios">Scenarios</a><a href="#mutants">Mutants</a><a href="#timelines">Timelines (${samples.length}, failing first)</a></nav></header>
<main>
<h2 id="gates">Gates</h2>
<div class="filters"><button data-filter="all" class="active">all</button><button data-filter="fail">fail</button><button data-filter="partial">partial</button><button data-filter="untested">untested</button><button data-filter="pass">pass</button></div>
${gateTables(gates)}
<h2 id="scenarios">Scenarios</h2>${scenarioTable(input)}
<h2 id="mutants">Mutants</h2>${mutantTable(input)}
<h2 id="timelines">Timelines</h2>
${samples.length === 0 ? '<p>No history kept in this run.</p>' : samples.map((run, i) => sampleSection(run, i, controls.get(run.scenario))).join('\n')}
</main><script>${SCRIPT}</script></body></html>
`;
}
