// Contention as inline SVG: each point is one waiter, placed at the time it got the lease and
// as high as it waited; dashed lines mark the median and the 95th percentile.

import { escapeMarkup as esc } from '../markup-escape.ts';
import { waitStats, type Wait } from '../wait-times.ts';

const WIDTH = 520;
const HEIGHT = 220;
/** Space between the plot and the edges of the chart, for the axes and their labels. */
const MARGIN = { left: 56, right: 12, top: 14, bottom: 30 } as const;

export function waitPlotSvg(waits: ReadonlyArray<Wait>, endTime: number): string {
  if (waits.length === 0) {
    return `<svg class="wait-plot" viewBox="0 0 ${WIDTH} 40" width="${WIDTH}" height="40"><text class="tick" x="8" y="24">no waiter in this history</text></svg>`;
  }
  const stats = waitStats(waits);
  const yMax = Math.max(stats.maxMs, 1) * 1.1;
  const x = (t: number): number => MARGIN.left + (t / Math.max(endTime, 1)) * (WIDTH - MARGIN.left - MARGIN.right);
  const y = (ms: number): number => HEIGHT - MARGIN.bottom - (ms / yMax) * (HEIGHT - MARGIN.bottom - MARGIN.top);
  const scopes = [...new Set(waits.map((w) => w.scope))];
  const parts: string[] = [
    `<line class="axis" x1="${MARGIN.left}" x2="${MARGIN.left}" y1="${MARGIN.top}" y2="${HEIGHT - MARGIN.bottom}"/>`,
    `<line class="axis" x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${HEIGHT - MARGIN.bottom}" y2="${HEIGHT - MARGIN.bottom}"/>`,
    `<text class="tick" x="${MARGIN.left - 6}" y="${y(0) + 4}" text-anchor="end">0</text>`,
    `<text class="tick" x="${MARGIN.left - 6}" y="${y(stats.maxMs) + 4}" text-anchor="end">${stats.maxMs}</text>`,
    `<text class="tick" x="${MARGIN.left}" y="${HEIGHT - 10}">0 ms</text>`,
    `<text class="tick" x="${WIDTH - MARGIN.right}" y="${HEIGHT - 10}" text-anchor="end">${endTime} ms (acquired at)</text>`,
    `<text class="tick" x="4" y="${MARGIN.top + 2}">wait ms</text>`,
  ];
  // Labels sit above their lines; when the two lines are close, the p50 label drops below its own.
  const close = y(stats.p50Ms) - y(stats.p95Ms) < 14;
  const percentiles = stats.p50Ms === stats.p95Ms
    ? [{ label: `p50 = p95 = ${stats.p50Ms} ms`, value: stats.p50Ms, dy: -3 }]
    : [{ label: `p95 ${stats.p95Ms} ms`, value: stats.p95Ms, dy: -3 }, { label: `p50 ${stats.p50Ms} ms`, value: stats.p50Ms, dy: close ? 11 : -3 }];
  for (const { label, value, dy } of percentiles) {
    parts.push(`<line class="percentile" x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${y(value)}" y2="${y(value)}"/>`);
    parts.push(`<text class="tick" x="${WIDTH - MARGIN.right - 4}" y="${y(value) + dy}" text-anchor="end">${label}</text>`);
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
