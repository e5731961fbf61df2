// The self-contained index.html, opened in headless Chromium: the gate tables list every gate of seed 000 §316 and seed 001 §339 (and the §315/§338 acceptance tests), and the timeline draws lease bars, fault bands and violation markers from the kept histories.

import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeGates, GATE_CATALOGUE, writeReports } from '../../reports/index.ts';
import createMemoryStore from '../../adapters/memory.ts';
import { loadScenario } from '../../scenarios/index.ts';
import { runScenario } from '../../sim/run.ts';
import type { RunResult } from '../../sim/run-result.ts';
import { CONTENTION_RUN, STALE_REPLAY, staleHolderFailingInput } from './fixtures.ts';
import { scratchDirs } from '../scratch-dirs.ts';

const scratch = scratchDirs('gate-html-');

const CHROMIUM = '/usr/bin/chromium';
// A machine without Chromium skips these tests and says what to install; CI (.ci/run installs
// Chromium, CI=true) runs them, so there a missing browser fails.
const NO_BROWSER = !existsSync(CHROMIUM) && process.env.CI !== 'true';
if (NO_BROWSER) console.warn(`index.html browser tests skipped: no Chromium at ${CHROMIUM}; install it (apt-get install chromium) to run them`);
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const OUT = resolve(import.meta.dirname, '../../out');

let browser: Browser;
let page: Page;
const foreignRequests: string[] = [];
let failover: RunResult;
let input: ReturnType<typeof staleHolderFailingInput>;

beforeAll(async () => {
  if (NO_BROWSER) return;
  // seed 000 §273: a failover to a lagging replica without the recovery epoch hands a token out twice.
  failover = await runScenario({ scenario: loadScenario('db-failover-unmitigated'), seed: 1, store: { name: 'memory', factory: createMemoryStore } });
  input = { ...staleHolderFailingInput(), samples: [...staleHolderFailingInput().samples, CONTENTION_RUN, failover] };
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  } catch (error) {
    throw new Error(`Chromium could not be launched from ${CHROMIUM} (install it with \`apt-get install -y chromium\`): ${(error as Error).message}`);
  }
  const out = scratch();
  await writeReports(input, out);
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('request', (request) => {
    if (!request.url().startsWith('file://')) foreignRequests.push(request.url());
  });
  await page.goto(pathToFileURL(join(out, 'index.html')).href);
});

afterAll(async () => {
  await browser?.close();
});

const staleSection = 'section.sample[data-scenario="stale-holder"]';

describe.skipIf(NO_BROWSER)('index.html in Chromium', () => {
  it('fetches nothing: every style, script and chart is inline', () => {
    expect(foreignRequests).toEqual([]);
  });

  it('has one gate row per catalogue entry, 10 under 000 §316 and 11 under 001 §339', async () => {
    expect(await page.locator('table.gate-table tr.gate-row').count()).toBe(GATE_CATALOGUE.length);
    expect(await page.locator('table.gate-table[data-source="000 §316"] tr.gate-row').count()).toBe(10);
    expect(await page.locator('table.gate-table[data-source="001 §339"] tr.gate-row').count()).toBe(11);
    const ids = await page.locator('tr.gate-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));
    expect(ids).toEqual(GATE_CATALOGUE.map((g) => g.id));
    const row = page.locator('tr.gate-row[data-id="000-316-stale-owner-mutation"]');
    expect(await row.getAttribute('data-status')).toBe('fail');
    expect(await row.locator('.badge').textContent()).toBe('fail');
  });

  it('filters the gate rows to the failing ones', async () => {
    await page.click('.filters button[data-filter="fail"]');
    const visible = await page.locator('tr.gate-row:visible').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status')));
    expect(visible).toEqual(computeGates(input).filter((g) => g.status === 'fail').map(() => 'fail'));
    await page.click('.filters button[data-filter="all"]');
    expect(await page.locator('tr.gate-row:visible').count()).toBe(GATE_CATALOGUE.length);
  });

  it('draws the stale holder timeline: two lease bars, a pause and a partition band, violation markers after the first lease expired', async () => {
    const svg = page.locator(`${staleSection} svg.timeline`);
    expect(await svg.locator('.lease-bar').evaluateAll((bars) => bars.map((b) => [b.getAttribute('data-token'), b.getAttribute('data-ended-by')]))).toEqual([
      ['1', 'expired'],
      ['2', 'released'],
    ]);
    expect(await svg.locator('.fault-band').evaluateAll((bands) => bands.map((b) => b.getAttribute('data-kind')))).toEqual(['pause', 'partition']);
    expect(await svg.locator('.violation-marker').count()).toBe(1);
    const firstLease = (await svg.locator('.lease-bar[data-token="1"] rect').boundingBox())!;
    const marker = (await svg.locator('.violation-marker').first().boundingBox())!;
    expect(firstLease.width).toBeGreaterThan(50);
    expect(marker.x).toBeGreaterThan(firstLease.x + firstLease.width);
    expect(marker.y).toBeGreaterThanOrEqual(firstLease.y - 8);
    expect(marker.y).toBeLessThanOrEqual(firstLease.y + firstLease.height);
    expect(await page.locator(`${staleSection} pre.replay`).textContent()).toBe('replay: npx testbed run --scenario stale-holder --seed 8812 --adapter memory');
    expect(await page.locator('body').textContent()).toContain(STALE_REPLAY);
  });

  it('draws a reused token as a cross on the second holder, linked to the first, whose acquire lies in the shaded window the failover lost', async () => {
    const svg = page.locator('section.sample[data-scenario="db-failover-unmitigated"] svg.timeline');
    const violation = failover.violations.find((v) => v.invariant === 'one-owner-per-epoch')!;
    const holderOf = (index: number) => {
      const event = failover.history.find((e) => e.index === index)!;
      return (event.value as { lease: { holder: string; token: number } }).lease;
    };
    const [first, second] = [holderOf(violation.events![0]!), holderOf(violation.events![1]!)];
    expect(first.token).toBe(second.token);
    const box = async (selector: string, attrs: Record<string, string>) => {
      const boxes = await svg.locator(selector).evaluateAll(
        (nodes, wanted) =>
          nodes
            .filter((n) => Object.entries(wanted).every(([k, v]) => (n.closest('g') ?? n).getAttribute(`data-${k}`) === v))
            .map((n) => {
              const r = n.getBoundingClientRect();
              return { x: r.x, y: r.y, width: r.width, height: r.height };
            }),
        attrs,
      );
      expect(boxes.length, `${selector} ${JSON.stringify(attrs)}`).toBeGreaterThan(0);
      return boxes[0]!;
    };
    const scope = violation.scope!;
    const cross = await box('.violation-marker > path', { holder: second.holder, scope });
    const ring = await box('.violation-marker .violation-link circle', { holder: first.holder });
    const secondBar = await box('.lease-bar rect', { holder: second.holder, scope, token: String(second.token) });
    const firstBar = await box('.lease-bar rect', { holder: first.holder, scope, token: String(first.token) });
    const lost = await box('.fault-band .shade', { kind: 'lost-writes' });
    const centre = (b: { x: number; y: number; width: number; height: number }) => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 });
    // The cross sits on the second holder's bar, where it begins (its acquire); the ring on the first holder's.
    expect(centre(cross).y).toBeGreaterThanOrEqual(secondBar.y);
    expect(centre(cross).y).toBeLessThanOrEqual(secondBar.y + secondBar.height);
    expect(Math.abs(centre(cross).x - secondBar.x)).toBeLessThan(8);
    expect(centre(ring).y).toBeGreaterThanOrEqual(firstBar.y);
    expect(centre(ring).y).toBeLessThanOrEqual(firstBar.y + firstBar.height);
    expect(Math.abs(centre(ring).x - firstBar.x)).toBeLessThan(8);
    // The first acquire is inside the lost window; the second comes after the failover.
    expect(centre(ring).x).toBeGreaterThan(lost.x);
    expect(centre(ring).x).toBeLessThan(lost.x + lost.width);
    expect(centre(cross).x).toBeGreaterThan(lost.x + lost.width);
    // One cross per violation, never one per event it names.
    expect(await svg.locator('.violation-marker').count()).toBe(failover.violations.length);
  });

  it('plots one point per waiter in the contention chart', async () => {
    expect(await page.locator(`${staleSection} svg.wait-plot .wait-point`).count()).toBe(1);
    expect(await page.locator('section.sample[data-scenario="fairness-starvation"] svg.wait-plot .wait-point').count()).toBe(5);
  });

  it('shows run text as text, never as markup', async () => {
    expect(await page.evaluate(() => (window as unknown as { __injected?: number }).__injected)).toBeUndefined();
    expect(await page.locator(`${staleSection} ul.violations`).textContent()).toContain('<img src=x onerror="window.__injected=1">');
  });

  it('shows the mutant table', async () => {
    expect(await page.locator('table.mutant-table tr.mutant-row').count()).toBe(input.mutants.length);
  });

  it('renders to a screenshot', async () => {
    await mkdir(OUT, { recursive: true });
    await page.screenshot({ path: join(OUT, 'report-screenshot.png'), fullPage: true });
    await page.locator(staleSection).screenshot({ path: join(OUT, 'report-timeline-screenshot.png') });
    await page.locator('section.sample[data-scenario="fairness-starvation"]').screenshot({ path: join(OUT, 'report-contention-screenshot.png') });
  });
});
