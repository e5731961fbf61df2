// What a toxic is, as the Toxiproxy HTTP API describes it: its JSON shape, its defaults and the
// validation that turns a request body into a spec or an API error. No sockets here.

import { ApiError } from './api-error.ts';

type ToxicType = 'latency' | 'timeout' | 'reset_peer' | 'limit_data' | 'slicer' | 'bandwidth' | 'slow_close';
export type ToxicStream = 'upstream' | 'downstream';

/** Attribute names per type, with Toxiproxy's units: milliseconds, except slicer `delay` in microseconds. */
const ATTRIBUTE_NAMES: Readonly<Record<ToxicType, ReadonlyArray<string>>> = Object.freeze({
  latency: ['latency', 'jitter'],
  timeout: ['timeout'],
  reset_peer: ['timeout'],
  limit_data: ['bytes'],
  slicer: ['average_size', 'size_variation', 'delay'],
  bandwidth: ['rate'],
  slow_close: ['delay'],
});

export interface ToxicSpec {
  readonly name: string;
  readonly type: ToxicType;
  readonly stream: ToxicStream;
  /** Probability in [0, 1] that a given connection is affected. */
  readonly toxicity: number;
  readonly attributes: Readonly<Record<string, number>>;
}

function isToxicType(value: unknown): value is ToxicType {
  return typeof value === 'string' && Object.hasOwn(ATTRIBUTE_NAMES, value);
}

function parseAttributes(type: ToxicType, raw: unknown, base: Readonly<Record<string, number>>): Record<string, number> {
  if (raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw))) {
    throw ApiError.badRequest('attributes must be an object');
  }
  const given = (raw ?? {}) as Record<string, unknown>;
  const attributes: Record<string, number> = {};
  for (const key of ATTRIBUTE_NAMES[type]) {
    const value = given[key] ?? base[key] ?? 0;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw ApiError.badRequest(`attribute ${key} must be a non-negative number`);
    }
    attributes[key] = Math.trunc(value);
  }
  return attributes;
}

function parseToxicity(raw: unknown, fallback: number): number {
  const toxicity = raw ?? fallback;
  if (typeof toxicity !== 'number' || !(toxicity >= 0 && toxicity <= 1)) {
    throw ApiError.badRequest('toxicity must be a number between 0 and 1');
  }
  return toxicity;
}

/** Parses a create body. Defaults as in Toxiproxy: stream downstream, toxicity 1, name `<type>_<stream>`. */
export function parseToxicCreate(body: unknown): ToxicSpec {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw ApiError.badRequest('expected a JSON object');
  }
  const input = body as Record<string, unknown>;
  const stream = input['stream'] ?? 'downstream';
  if (stream !== 'upstream' && stream !== 'downstream') throw ApiError.invalidStream();
  const type = input['type'];
  if (!isToxicType(type)) throw ApiError.invalidToxicType();
  const rawName = input['name'];
  if (rawName !== undefined && rawName !== '' && typeof rawName !== 'string') {
    throw ApiError.badRequest('name must be a string');
  }
  const name = typeof rawName === 'string' && rawName !== '' ? rawName : `${type}_${stream}`;
  return Object.freeze({
    name,
    type,
    stream,
    toxicity: parseToxicity(input['toxicity'], 1),
    attributes: Object.freeze(parseAttributes(type, input['attributes'], {})),
  });
}

/** Parses an update body: only attributes and toxicity change; missing ones keep their value. */
export function parseToxicUpdate(current: ToxicSpec, body: unknown): ToxicSpec {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw ApiError.badRequest('expected a JSON object');
  }
  const input = body as Record<string, unknown>;
  return Object.freeze({
    ...current,
    toxicity: parseToxicity(input['toxicity'], current.toxicity),
    attributes: Object.freeze(parseAttributes(current.type, input['attributes'], current.attributes)),
  });
}
