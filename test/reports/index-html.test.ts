// index.html as text: a control run (a scenario that must show a violation, its mitigation off)
// is labelled as expected and listed after the unexpected failures, never drawn as a failure.

import { describe, expect, it } from 'vitest';
import { computeGates, runVerdict } from '../../reports/index.ts';
import { renderIndexHtml } from '../../reports/render/index-html.ts';
import { cleanInput, CLEAN_RUN, STALE_RUN } from './fixtures.ts';

describe('index.html timelines', () => {
  const control = { ...STALE_RUN, scenario: 'restore-unmitigated' };
  const failing = { ...STALE_RUN, scenario: 'stale-holder' };
  const base = cleanInput();
  const input = { ...base, samples: [CLEAN_RUN, control, failing] };
  const gates = computeGates(input);
  const html = renderIndexHtml(input, gates, runVerdict(input, gates));
  const section = (scenario: string) => /<section class="sample"[^>]*>.*?<\/h3>/s.exec(html.slice(html.indexOf(`data-scenario="${scenario}"`) - 40))![0];

  it('labels a control run that shows its violation as expected', () => {
    expect(base.scenarios.find((e) => e.scenario === 'restore-unmitigated')?.expect).toBe('violation');
    expect(section('restore-unmitigated')).toContain('data-control="true"');
    expect(section('restore-unmitigated')).toContain('<span class="badge pass">1 violation, as expected (control run: the mitigation is off)</span>');
    expect(section('stale-holder')).toContain('<span class="badge fail">1 violation</span>');
  });

  it('lists unexpected failures first, then control runs, then clean runs', () => {
    const order = [...html.matchAll(/<section class="sample"[^>]*data-scenario="([^"]+)"/g)].map((m) => m[1]);
    expect(order).toEqual(['stale-holder', 'restore-unmitigated', 'standard-mix']);
  });
});
