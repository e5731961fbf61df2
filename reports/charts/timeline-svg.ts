// A lease timeline as inline SVG, in the manner of Jepsen's timeline.html: time runs left to
// right, one row per scope and holder, a bar per lease labelled with its fencing token, faults
// shaded across all rows, protected writes as dots and violations as red crosses.

import type { LeaseTimeline } from '../lease-timeline.ts';
import { escapeMarkup as esc } from '../markup-escape.ts';
import { FAULT_RECORDS } from '../../faults/records.ts';

const WIDTH = 1100;
const LABEL_WIDTH = 210;
const RIGHT = 40;
const AXIS = 34;
/** A lane under the time axis for fault names, so no label sits on a lease bar. */
const FAULT_LANE = 16;
const ROW = 24;
const SCOPE_GAP = 20;

/** Each fault record's colour, as its kind declares it (faults/); the lost-writes window is the chart's own. */
const FAULT_COLOURS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(Object.entries(FAULT_RECORDS).flatMap(([kind, record]) => (record.colour === undefined ? [] : [[kind, record.colour]]))),
  'lost-writes': '#7b241c',
};

function tokenColour(token: number): string {
  return `hsl(${(token * 67) % 360} 55% 48%)`;
}

function ticks(start: number, end: number): number[] {
  const raw = Math.max(end - start, 1) / 8;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? raw;
  const out: number[] = [];
  for (let t = Math.ceil(start / step) * step; t <= end; t += step) out.push(t);
  return out;
}

/** How a scope is labelled: by its readable name where one is known (sim/scope-names.ts), else its id. */
export type ScopeLabel = (scope: string) => string;

/** One lease bar at `bx`, `width` wide, on the row at `by`, its token always written: inside a bar wide enough for it, else beside it. */
function leaseBarSvg(bar: LeaseTimeline['bars'][number], bx: number, width: number, by: number, label: ScopeLabel): string {
  const token = `token ${bar.token}`;
  const tokenLabel =
    width > 44
      ? `<text class="bar-label" x="${bx + 5}" y="${by + 13}">${token}</text>`
      : bx + width + 48 < WIDTH
        ? `<text class="bar-label outside" x="${bx + width + 3}" y="${by + 13}">${token}</text>`
        : `<text class="bar-label outside" x="${bx - 3}" y="${by + 13}" text-anchor="end">${token}</text>`;
  return (
    `<g class="lease-bar" data-token="${bar.token}" data-holder="${esc(bar.holder)}" data-scope="${esc(bar.scope)}" data-ended-by="${bar.endedBy}"><rect x="${bx}" y="${by}" width="${width}" height="${ROW - 7}" rx="3" fill="${tokenColour(bar.token)}"${bar.endedBy === 'expired' ? ' stroke-dasharray="4 3" class="expired"' : ''}/>` +
    tokenLabel +
    `<title>${esc(`${label(bar.scope)} held by ${bar.holder} with ${token}, ${bar.start}–${bar.end} ms, ended: ${bar.endedBy}`)}</title></g>`
  );
}

/**
 * One cross per violation, on the offending event, with a dashed link to each event it conflicts
 * with (a ring there): the first holder of a reused token, for example. `y` is a row's middle.
 */
function violationSvg(violation: LeaseTimeline['violations'][number], x: (t: number) => number, y: (scope: string | undefined, holder: string | undefined) => number): string {
  const vx = x(violation.time);
  const vy = y(violation.scope, violation.holder);
  const links = violation.conflicts.map((c) => {
    const cx = x(c.time);
    const cy = y(c.scope, c.holder);
    return `<g class="violation-link" data-holder="${esc(c.holder ?? '')}"><line x1="${vx}" y1="${vy}" x2="${cx}" y2="${cy}"/><circle cx="${cx}" cy="${cy}" r="5"/></g>`;
  });
  return (
    `<g class="violation-marker" data-holder="${esc(violation.holder ?? '')}" data-scope="${esc(violation.scope ?? '')}" data-invariant="${esc(violation.invariant)}">${links.join('')}` +
    `<path d="M${vx - 7} ${vy - 7} L${vx + 7} ${vy + 7} M${vx - 7} ${vy + 7} L${vx + 7} ${vy - 7}"/>` +
    `<title>${esc(`${violation.time} ms ${violation.holder ?? ''} ${violation.invariant}: ${violation.message}`)}</title></g>`
  );
}

export function timelineSvg(timeline: LeaseTimeline, label: ScopeLabel = (scope) => scope): string {
  const span = Math.max(1, timeline.endTime - timeline.startTime);
  const x = (t: number): number => LABEL_WIDTH + ((Math.max(timeline.startTime, t) - timeline.startTime) / span) * (WIDTH - LABEL_WIDTH - RIGHT);
  const rowY = new Map<string, number>();
  const scopeHeaders: string[] = [];
  let y = AXIS + FAULT_LANE;
  let previousScope: string | undefined;
  for (const row of timeline.rows) {
    if (row.scope !== previousScope) {
      y += SCOPE_GAP;
      scopeHeaders.push(`<text class="scope-label" x="6" y="${y - 6}" data-scope="${esc(row.scope)}">${esc(label(row.scope))}<title>${esc(row.scope)}</title></text>`);
      previousScope = row.scope;
    }
    rowY.set(`${row.scope}\u0000${row.holder}`, y);
    y += ROW;
  }
  const height = Math.max(y, AXIS + FAULT_LANE + SCOPE_GAP + ROW) + 10;
  const yOf = (scope: string | undefined, holder: string | undefined): number => {
    const exact = rowY.get(`${scope}\u0000${holder}`);
    if (exact !== undefined) return exact;
    const first = timeline.rows.find((r) => r.scope === scope);
    return first === undefined ? AXIS + 4 : (rowY.get(`${first.scope}\u0000${first.holder}`) ?? AXIS + 4);
  };

  const parts: string[] = [];
  for (const t of ticks(timeline.startTime, timeline.endTime)) {
    parts.push(`<line class="grid" x1="${x(t)}" x2="${x(t)}" y1="${AXIS - 6}" y2="${height - 8}"/>`);
    parts.push(`<text class="tick" x="${x(t)}" y="${AXIS - 12}" text-anchor="middle">${t} ms</text>`);
  }
  // A fault that hit particular nodes shades only their rows; one that hit everything shades the
  // whole chart. Each also gets a tick in the fault lane, named when the name fits.
  let labelEnd = -Infinity;
  for (const fault of timeline.faults) {
    const fx = x(fault.start);
    const width = Math.max(3, x(fault.end) - fx);
    const colour = FAULT_COLOURS[fault.kind] ?? '#7f8c8d';
    const hit = fault.nodes.length === 0 ? [] : timeline.rows.filter((r) => fault.nodes.some((n) => r.holder === n || r.holder.split('#')[0] === n));
    const shades =
      fault.nodes.length === 0
        ? [`<rect class="shade global" x="${fx}" y="${AXIS + FAULT_LANE}" width="${width}" height="${height - AXIS - FAULT_LANE - 4}" fill="${colour}"/>`]
        : hit.map((r) => `<rect class="shade" x="${fx}" y="${rowY.get(`${r.scope}\u0000${r.holder}`)!}" width="${width}" height="${ROW - 1}" fill="${colour}"/>`);
    const labelWidth = fault.kind.length * 6.2 + 6;
    // A name that would run off the right edge ends at the edge instead.
    const overflows = fx + labelWidth > WIDTH;
    const label =
      fx >= labelEnd
        ? `<text class="fault-label" x="${overflows ? WIDTH - 2 : fx + 2}" y="${AXIS + FAULT_LANE - 6}" fill="${colour}"${overflows ? ' text-anchor="end"' : ''}>${esc(fault.kind)}</text>`
        : '';
    if (label !== '') labelEnd = fx + labelWidth;
    parts.push(
      `<g class="fault-band" data-kind="${esc(fault.kind)}"><rect class="lane" x="${fx}" y="${AXIS + FAULT_LANE - 4}" width="${width}" height="4" fill="${colour}"/>` +
        `${shades.join('')}${label}<title>${esc(`${fault.kind} ${fault.start}–${fault.end} ms ${fault.detail}`)}</title></g>`,
    );
  }
  for (const row of timeline.rows) {
    const ry = rowY.get(`${row.scope}\u0000${row.holder}`)!;
    parts.push(`<text class="row-label" x="18" y="${ry + 16}">${esc(row.holder)}</text>`);
    parts.push(`<line class="row-rule" x1="${LABEL_WIDTH}" x2="${WIDTH - RIGHT}" y1="${ry + ROW - 1}" y2="${ry + ROW - 1}"/>`);
  }
  for (const bar of timeline.bars) parts.push(leaseBarSvg(bar, x(bar.start), Math.max(2, x(bar.end) - x(bar.start)), yOf(bar.scope, bar.holder) + 3, label));
  for (const mark of timeline.marks) {
    // On the lower edge of the row's bar, clear of the token label.
    const my = yOf(mark.scope, mark.holder) + ROW - 4;
    parts.push(`<circle class="op-mark op-${mark.kind}" cx="${x(mark.time)}" cy="${my}" r="3.5"><title>${esc(`${mark.time} ms ${mark.holder}: ${mark.label}`)}</title></circle>`);
  }
  for (const violation of timeline.violations) parts.push(violationSvg(violation, x, (scope, holder) => yOf(scope, holder) + ROW / 2));
  const empty = timeline.rows.length === 0 ? `<text class="tick" x="${LABEL_WIDTH}" y="${AXIS + FAULT_LANE + 30}">no leases in this history</text>` : '';
  return (
    `<svg class="timeline" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-label="lease timeline">` +
    `${scopeHeaders.join('')}${parts.join('')}${empty}</svg>`
  );
}
