// `testbed run --report` on a failing seed, the page opened in headless Chromium: its steps are the printed counterexample's (the shrunk run's, far fewer than the run's), exactly one is marked failing and it is the one the violation names, every fencing token is text on the page, scopes are named, and it fetches nothing; a passing seed's page says passed.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAsync, type CliResult } from '../cli/run-cli.ts';
import { scratchDirs } from '../scratch-dirs.ts';

const scratch = scratchDirs('run-report-html-');

const CHROMIUM = '/usr/bin/chromium';
// A machine without Chromium skips these tests and says what to install; CI (.ci/run installs
// Chromium, CI=true) runs them, so there a missing browser fails.
const NO_BROWSER = !existsSync(CHROMIUM) && process.env.CI !== 'true';
if (NO_BROWSER) console.warn(`run report browser tests skipped: no Chromium at ${CHROMIUM}; install it (apt-get install chromium) to run them`);
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
// advisory-lock-only hands token 1 out again once its holder released it: stale-holder seed 1 shows it.
const FAILING = ['run', '--scenario', 'stale-holder', '--seed', '1', '--adapter', 'mutant:advisory-lock-only'];
const SCOPE_ID = /\b[a-z]+:[0-9a-f]{20}\b/;

let browser: Browser;
let page: Page;
let failing: CliResult;
const foreignRequests: string[] = [];

/** The printed counterexample: its header, its step lines, and the violation lines after them. */
function printed(stdout: string): { operations: number; steps: string[]; violations: string[] } {
  const lines = stdout.slice(stdout.indexOf('counterexample: ')).split('\n');
  const operations = Number(/\((\d+) operations,/.exec(lines[0]!)![1]);
  const steps = lines.slice(1).filter((line) => /^ *(\d+|!|=) {2}t=/.test(line));
  return { operations, steps, violations: lines.filter((line) => line.startsWith('violation [')) };
}

beforeAll(async () => {
  if (NO_BROWSER) return;
  const dir = scratch();
  failing = await runCliAsync([...FAILING, '--report', 'page.html'], { cwd: dir, timeoutMs: 120_000 });
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  } catch (error) {
    throw new Error(`Chromium could not be launched from ${CHROMIUM} (install it with \`apt-get install -y chromium\`): ${(error as Error).message}`);
  }
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('request', (request) => {
    if (!request.url().startsWith('file://')) foreignRequests.push(request.url());
  });
  await page.goto(pathToFileURL(path.join(dir, 'page.html')).href);
}, 180_000);

afterAll(async () => {
  await browser?.close();
});

describe.skipIf(NO_BROWSER)('the page of a failing run, in Chromium', () => {
  it('is written, says failed, and fetches nothing', async () => {
    expect(failing.code, failing.stderr).toBe(1);
    expect(failing.stdout).toContain('report written to page.html');
    expect(foreignRequests).toEqual([]);
    expect(await page.locator('.verdict').getAttribute('data-verdict')).toBe('failed');
  });

  it('has one timeline row per step of the shrunk counterexample, far fewer than the run as it ran', async () => {
    const { operations, steps } = printed(failing.stdout);
    const ran = Number(/(\d+) operations, \d+ events/.exec(failing.stdout)![1]);
    expect(await page.locator('table.steps tr.step').count()).toBe(steps.length);
    expect(await page.locator('table.steps tr.step[data-kind="operation"]').count()).toBe(operations);
    expect(operations).toBeLessThan(ran / 10);
    expect(await page.locator('p.shows').textContent()).toContain(`The shrunk counterexample: ${operations} operations`);
    // Row by row, the same steps as printed: number, time made, store time.
    const rows = await page.locator('table.steps tr.step').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 3).map((td) => (td as HTMLElement).innerText.trim())));
    const fromText = steps.map((line) => {
      const [, number, time, store] = /^ *(\d+|!|=) {2}t= *(\d+)ms {2}(?:store +(\S+ms|-))?/.exec(line)!;
      return [number!, `${time} ms`, store === undefined ? '' : store === '-' ? 'not reached' : store.replace('ms', ' ms')];
    });
    expect(rows).toEqual(fromText);
  });

  it('marks exactly one step failing, visibly, and it is the step holding the last event the violation names', async () => {
    const marked = page.locator('table.steps tr.step.failing');
    expect(await marked.count()).toBe(1);
    await expect.poll(() => marked.isVisible()).toBe(true);
    const { steps, violations } = printed(failing.stdout);
    const [, invariant, events] = /^violation \[([^\]]+)\]: .* \(events ([\d, ]+)\)$/.exec(violations[0]!)!;
    const last = Math.max(...events!.split(', ').map(Number));
    expect((await marked.getAttribute('data-events'))!.split(' ').map(Number)).toContain(last);
    expect(await marked.getAttribute('data-failing')).toBe(invariant);
    expect(await marked.innerText()).toContain(`failing step: ${invariant}`);
    // The same step the printed counterexample marks.
    const printedMark = steps.filter((line) => line.includes('◀ failing step'));
    expect(printedMark).toHaveLength(1);
    expect(await marked.getAttribute('data-number')).toBe(/^ *(\d+)/.exec(printedMark[0]!)![1]);
  });

  it('writes every fencing token as text: on each lease bar and on the rows', async () => {
    const bars = await page.locator('svg.timeline .lease-bar').evaluateAll((gs) => gs.map((g) => [g.getAttribute('data-token'), g.querySelector('text.bar-label')?.textContent ?? null]));
    expect(bars.length).toBeGreaterThan(1);
    for (const [token, label] of bars) expect(label).toBe(`token ${token}`);
    for (const label of await page.locator('svg.timeline .lease-bar text.bar-label').all()) expect(await label.isVisible()).toBe(true);
    expect(await page.locator('table.steps td.token-cell .token').first().isVisible()).toBe(true);
  });

  it('names scopes readably: on the chart, in the steps and in the violations, never by their ids', async () => {
    const labels = await page.locator('svg.timeline text.scope-label').evaluateAll((ts) => ts.map((t) => t.firstChild?.textContent ?? ''));
    expect(labels.length).toBeGreaterThan(0);
    for (const label of labels) expect(label).toMatch(/^t\d+\/[a-z-]+-\d+$/);
    expect(await page.locator('table.steps').innerText()).not.toMatch(SCOPE_ID);
    expect(await page.locator('ul.violations').innerText()).not.toMatch(SCOPE_ID);
    expect(await page.locator('ul.violations').innerText()).toContain(labels[0]);
  });

  it('shows the replay lines', async () => {
    expect(await page.locator('pre.replay').innerText()).toContain('replay: npx testbed run --scenario stale-holder --seed 1 --adapter mutant:advisory-lock-only');
  });
});

describe.skipIf(NO_BROWSER)('the page of a passing run, in Chromium', () => {
  it('shows the whole run, passed, no step marked', async () => {
    const dir = scratch();
    const passing = await runCliAsync(['run', '--scenario', 'stale-holder', '--seed', '1', '--adapter', 'memory', '--report', 'ok.html'], { cwd: dir });
    expect(passing.code, passing.stderr).toBe(0);
    const own = await browser.newPage();
    await own.goto(pathToFileURL(path.join(dir, 'ok.html')).href);
    expect(await own.locator('.verdict').getAttribute('data-verdict')).toBe('passed');
    expect(await own.locator('.verdict .badge').innerText()).toBe('passed');
    expect(await own.locator('table.steps tr.step[data-kind="operation"]').count()).toBeGreaterThan(100);
    expect(await own.locator('table.steps tr.step.failing').count()).toBe(0);
    await own.close();
  }, 120_000);
});
