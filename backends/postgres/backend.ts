// The PostgreSQL store on an embedded server (or DATABASE_URL): interleavable, the one real
// faults act on, expiry on the server's clock.
import type { Backend } from '../backend.ts';
import { openPostgres } from './open.ts';

export const postgres: Backend = {
  kind: 'postgres',
  syntax: 'postgres',
  matches: (spec) => spec === 'postgres',
  replays: 'interleaved',
  interleavable: true,
  realFaults: true,
  databaseClock: true,
  gateStage: 'database',
  open: (spec, interleave) => openPostgres(spec, { name: spec }, interleave),
};
