// A run's page as text (reports/run-report.ts, reports/render/run-html.ts): one step row per step of the shown counterexample, the step the first violation names marked and no other, the store time each call ran at, tokens written on the chart and the rows, scopes by name, and the reason when the run is shown unshrunk.

import { describe, expect, it } from 'vitest';
import type { HistoryEvent } from '../../model/history.ts';
import { renderRunHtml } from '../../reports/render/run-html.ts';
import { runReport } from '../../reports/run-report.ts';
import type { RunResult } from '../../sim/run-result.ts';
import { plannedScope } from '../../sim/scope-names.ts';
import { HOSTILE_MESSAGE } from './fixtures.ts';

const SCOPE = plannedScope({ tenant: 't7', kind: 'DeploymentEnvironment', name: 'env-deploy-9' });
const acquire = (holder: string) => ({ kind: 'Acquire', scope: SCOPE, holder, ttlMs: 1000 });
const granted = (holder: string, at: number) => ({ kind: 'Acquired', lease: { scope: SCOPE, holder, token: 1, acquiredAt: at, expiresAt: at + 1000 } });

const HISTORY: ReadonlyArray<HistoryEvent> = [
  { index: 0, time: 100, process: 'c1', type: 'invoke', f: 'Acquire', value: acquire('c1') },
  { index: 1, time: 104, process: 'c1', type: 'ok', f: 'Acquire', value: granted('c1', 102) },
  { index: 2, time: 150, process: 'nemesis', type: 'fault', f: 'pause', value: { node: 'c1' } },
  { index: 3, time: 200, process: 'c3', type: 'invoke', f: 'Release', value: { kind: 'Release', scope: SCOPE, holder: 'c3', token: 7 } },
  { index: 4, time: 300, process: 'c2', type: 'invoke', f: 'Acquire', value: acquire('c2') },
  { index: 5, time: 305, process: 'c2', type: 'ok', f: 'Acquire', value: granted('c2', 303) },
  { index: 6, time: 400, process: 'c2', type: 'invoke', f: 'Acquire', value: acquire('c2') },
  { index: 7, time: 405, process: 'c2', type: 'ok', f: 'Acquire', value: granted('c2', 403) },
];

function runOf(history: ReadonlyArray<HistoryEvent>, violations: RunResult['violations'], extra: Partial<RunResult> = {}): RunResult {
  return {
    scenario: 'stale-holder',
    seed: 3,
    adapter: './my-store.ts',
    faults: 'sim',
    traceHash: 'abc',
    events: history.length,
    operations: history.filter((e) => e.type === 'ok').length,
    valid: violations.length === 0,
    violations,
    replay: 'npx testbed run --scenario stale-holder --seed 3 --adapter ./my-store.ts',
    simulatedMs: 1000,
    history,
    ...extra,
  };
}

// A rule no checker knows: the counterexample keeps the violation as the run reported it.
const VIOLATION = { invariant: 'synthetic-rule', message: `scope ${SCOPE} token 1 has two holders ${HOSTILE_MESSAGE}`, events: [1, 5] };
const SHRUNK = runOf(HISTORY, [VIOLATION], { storeTimes: { 0: 102, 4: 303, 6: 403 } });
const ORIGINAL = runOf([...HISTORY, ...HISTORY.map((e) => ({ ...e, index: e.index + HISTORY.length, time: e.time + 1000 }))], [VIOLATION, VIOLATION, VIOLATION]);

const stepRowsIn = (html: string): string[] => [...html.matchAll(/<tr class="step [^"]*"[^>]*>/g)].map((m) => m[0]);

describe('a failing run’s page', () => {
  const report = runReport({ run: ORIGINAL, failure: { kind: 'shrunk', run: SHRUNK, originalSteps: 40 }, replays: ['npx testbed replay out/failures/x.json'] });
  const html = renderRunHtml(report);

  it('has one step row per step of the shrunk run, not of the run as it ran', () => {
    // Acquire, pause, Release (never answered), Acquire, Acquire again (a rule no checker knows is not cut short).
    expect(stepRowsIn(html).map((row) => /data-number="([^"]*)"/.exec(row)![1])).toEqual(['1', '!', '2', '3', '4']);
    expect(html).toContain('The shrunk counterexample: 4 operations up to the violation of synthetic-rule, shrunk from 40 plan steps (the run as it ran had 6 operations and 3 violations).');
  });

  it('marks exactly one step failing: the one holding the latest event the first violation names', () => {
    const failing = stepRowsIn(html).filter((row) => row.includes('data-failing'));
    expect(failing).toEqual([expect.stringContaining('data-events="4 5"')]);
    expect(failing[0]).toContain('data-failing="synthetic-rule"');
    expect(html.match(/failing step: synthetic-rule/g)).toHaveLength(1);
  });

  it('shows the store time each store call ran at, and a call that never reached the store as such', () => {
    expect(html).toMatch(/data-number="1"[^>]*><td class="num">1<\/td><td class="num time">100 ms<\/td><td class="num store-time">102 ms<\/td>/);
    expect(html).toMatch(/data-number="2"[^>]*>.*?<td class="num store-time unreached"[^>]*>not reached<\/td>/);
  });

  it('writes the fencing tokens on the rows and on every lease bar, and the scope by its name', () => {
    expect(html).toContain('<span class="token">token 7</span>');
    const bars = [...html.matchAll(/<g class="lease-bar"[^>]*>(.*?)<\/g>/g)].map((m) => m[1]!);
    expect(bars).toHaveLength(3);
    for (const bar of bars) expect(bar).toMatch(/<text class="bar-label[^"]*"[^>]*>token 1<\/text>/);
    expect(html).toContain('>t7/env-deploy-9<');
    expect(html).toContain('Acquire scope=t7/env-deploy-9 holder=c1');
    // The id stays on hover and in the table of scopes, never as the text of a step.
    const steps = html.slice(html.indexOf('<table class="steps">'), html.indexOf('</table>', html.indexOf('<table class="steps">')));
    expect(steps).not.toMatch(/>[^<]*\benv:[0-9a-f]{20}/);
    expect(html).toContain(`<td><code>${SCOPE}</code></td>`);
  });

  it('lists the violation with its rule, its text escaped, and every replay line', () => {
    expect(html).toContain('<li class="violation" data-invariant="synthetic-rule"><strong>synthetic-rule</strong>');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('replay: npx testbed run --scenario stale-holder --seed 3 --adapter ./my-store.ts\nreplay: npx testbed replay out/failures/x.json');
  });
});

describe('a failing run shown as it ran', () => {
  it('says so, and why', () => {
    const html = renderRunHtml(runReport({ run: ORIGINAL, failure: { kind: 'as-ran', why: 'shrinking was turned off (--no-shrink)' } }));
    expect(html).toContain('data-shrunk="false">Not shrunk: shrinking was turned off (--no-shrink). This is the run as it ran, up to the violation of synthetic-rule');
    expect(stepRowsIn(html).filter((row) => row.includes('data-failing'))).toHaveLength(1);
  });
});

describe('a passing run’s page', () => {
  it('shows the whole run, passed, with no step marked', () => {
    const html = renderRunHtml(runReport({ run: runOf(HISTORY, []) }));
    expect(html).toContain('<div class="verdict" data-verdict="passed"><span class="badge pass">passed</span>');
    expect(stepRowsIn(html)).toHaveLength(5);
    expect(html).not.toContain('data-failing');
    expect(html).not.toMatch(/<(script|link|img)\b/);
  });
});
