// The self-contained index.html, opened in headless Chromium: the gate tables list every gate of seed 000 §316 and seed 001 §339 (and the §315/§338 acceptance tests), and the timeline draws lease bars, fault bands and violation markers from the kept histories.

import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeGates, GATE_CATALOGUE, writeReports } from '../../reports/index.ts';
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
const input = { ...staleHolderFailingInput(), samples: [...staleHolderFailingInput().samples, CONTENTION_RUN] };

beforeAll(async () => {
  if (NO_BROWSER) return;
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
    expect(await svg.locator('.violation-marker').count()).toBe(2);
    const firstLease = (await svg.locator('.lease-bar[data-token="1"] rect').boundingBox())!;
    const marker = (await svg.locator('.violation-marker').first().boundingBox())!;
    expect(firstLease.width).toBeGreaterThan(50);
    expect(marker.x).toBeGreaterThan(firstLease.x + firstLease.width);
    expect(marker.y).toBeGreaterThanOrEqual(firstLease.y - 8);
    expect(marker.y).toBeLessThanOrEqual(firstLease.y + firstLease.height);
    expect(await page.locator(`${staleSection} pre.replay`).textContent()).toBe('replay: npx testbed run --scenario stale-holder --seed 8812 --adapter memory');
    expect(await page.locator('body').textContent()).toContain(STALE_REPLAY);
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
