// Contention as inline SVG: each point is one waiter, placed at the time it got the lease and
// as high as it waited; dashed lines mark the median and the 95th percentile.

import { escapeMarkup as esc } from '../markup-escape.ts';
import { waitStats, type Wait } from '../wait-times.ts';

const WIDTH = 520;
const HEIGHT = 220;
const LEFT = 56;
const BOTTOM = 30;
const TOP = 14;
const RIGHT = 12;

export function waitPlotSvg(waits: ReadonlyArray<Wait>, endTime: number): string {
  if (waits.length === 0) {
    return `<svg class="wait-plot" viewBox="0 0 ${WIDTH} 40" width="${WIDTH}" height="40"><text class="tick" x="8" y="24">no waiter in this history</text></svg>`;
  }
  const stats = waitStats(waits);
  const yMax = Math.max(stats.maxMs, 1) * 1.1;
  const x = (t: number): number => LEFT + (t / Math.max(endTime, 1)) * (WIDTH - LEFT - RIGHT);
  const y = (ms: number): number => HEIGHT - BOTTOM - (ms / yMax) * (HEIGHT - BOTTOM - TOP);
  const scopes = [...new Set(waits.map((w) => w.scope))];
  const parts: string[] = [
    `<line class="axis" x1="${LEFT}" x2="${LEFT}" y1="${TOP}" y2="${HEIGHT - BOTTOM}"/>`,
    `<line class="axis" x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${HEIGHT - BOTTOM}" y2="${HEIGHT - BOTTOM}"/>`,
    `<text class="tick" x="${LEFT - 6}" y="${y(0) + 4}" text-anchor="end">0</text>`,
    `<text class="tick" x="${LEFT - 6}" y="${y(stats.maxMs) + 4}" text-anchor="end">${stats.maxMs}</text>`,
    `<text class="tick" x="${LEFT}" y="${HEIGHT - 10}">0 ms</text>`,
    `<text class="tick" x="${WIDTH - RIGHT}" y="${HEIGHT - 10}" text-anchor="end">${endTime} ms (acquired at)</text>`,
    `<text class="tick" x="4" y="${TOP + 2}">wait ms</text>`,
  ];
  // Labels sit above their lines; when the two lines are close, the p50 label drops below its own.
  const close = y(stats.p50Ms) - y(stats.p95Ms) < 14;
  const percentiles = stats.p50Ms === stats.p95Ms
    ? [{ label: `p50 = p95 = ${stats.p50Ms} ms`, value: stats.p50Ms, dy: -3 }]
    : [{ label: `p95 ${stats.p95Ms} ms`, value: stats.p95Ms, dy: -3 }, { label: `p50 ${stats.p50Ms} ms`, value: stats.p50Ms, dy: close ? 11 : -3 }];
  for (const { label, value, dy } of percentiles) {
    parts.push(`<line class="percentile" x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${y(value)}" y2="${y(value)}"/>`);
    parts.push(`<text class="tick" x="${WIDTH - RIGHT - 4}" y="${y(value) + dy}" text-anchor="end">${label}</text>`);
  }
  for (const wait of waits) {
    const hue = (210 + scopes.indexOf(wait.scope) * 97) % 360;
    parts.push(
      `<circle class="wait-point" cx="${x(wait.acquiredAt)}" cy="${y(wait.waitMs)}" r="4" fill="hsl(${hue} 60% 45%)">` +
        `<title>${esc(`${wait.scope} waiter ${wait.waiterId}: enqueued ${wait.enqueuedAt} ms, acquired ${wait.acquiredAt} ms, waited ${wait.waitMs} ms`)}</title></circle>`,
    );
  }
  return `<svg class="wait-plot" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="wait times">${parts.join('')}</svg>`;
}
