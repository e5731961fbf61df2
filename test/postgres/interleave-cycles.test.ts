// Lock cycles under controlled interleaving (adapters/postgres/interleave/statement-gate.ts): the
// session connections run with a deadlock_timeout beyond any batch, so the server's detector,
// whose victim depends on whose timer fires first, never acts; the gate breaks the cycle itself by
// cancelling the statement of the cycle that it released first, and that session's store gets
// the deadlock error (40P01). The victim is a function of the schedule alone.

import pg from 'pg';
import { expect, test } from 'vitest';
import type { Command } from '../../model/commands.ts';
import type { Store } from '../../adapters/port.ts';
import { freshSchemaUrl, openInterleaved } from '../../adapters/postgres/interleave/index.ts';
import { usePostgres } from './fixture.ts';

const server = usePostgres();

/** A store whose one command updates row `first` then row `second` in one transaction; its answer names the error it met. */
function crossingStore(url: string, first: number, second: number): Store {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  const connected = client.connect();
  return {
    name: 'crossing',
    execute: (async () => {
      await connected;
      try {
        await client.query('BEGIN');
        await client.query(`UPDATE cells SET v = v + 1 WHERE id = ${first}`);
        await client.query(`UPDATE cells SET v = v + 1 WHERE id = ${second}`);
        await client.query('COMMIT');
        return { kind: 'Done' };
      } catch (error) {
        await client.query('ROLLBACK');
        const { code, detail } = error as { code?: string; detail?: string };
        return { kind: 'Failed', code, detail };
      }
    }) as unknown as Store['execute'],
    close: () => client.end(),
  };
}

test('a lock cycle is broken by the gate: the statement of the cycle released first gets the deadlock error, on every run, without the server deadlock timer', async () => {
  const verdicts: unknown[] = [];
  for (let run = 0; run < 3; run++) {
    const url = await freshSchemaUrl(server.server().connectionString, server.freshSchema());
    const setup = new pg.Client({ connectionString: url });
    await setup.connect();
    await setup.query('CREATE TABLE cells (id int PRIMARY KEY, v int NOT NULL); INSERT INTO cells VALUES (1, 0), (2, 0)');
    await setup.end();
    // Opened in this order: the main store, then s1 (row 1, then 2), then s2 (row 2, then 1).
    const rows: Array<[number, number]> = [[1, 2], [1, 2], [2, 1]];
    const stores = await openInterleaved(url, ['s1', 's2'], async (session) => crossingStore(session, ...rows.shift()!), { warmUp: false });
    try {
      // s1 and s2 alternate: BEGIN, BEGIN, s1 locks 1, s2 locks 2, s1 waits for 2, s2 waits for 1.
      const order = ['s1', 's2', 's1', 's2', 's1', 's2'];
      let step = 0;
      const command = { kind: 'Inspect' } as Command;
      const result = await stores.runBatch(
        [
          { session: 's1', command, arrivedAt: 0 },
          { session: 's2', command, arrivedAt: 0 },
        ],
        (names) => {
          const wanted = order[step++];
          const at = wanted === undefined ? -1 : names.indexOf(wanted);
          return at >= 0 ? at : 0;
        },
        0,
      );
      const answers = result.settled.map((s) => ({ call: s.call, value: s.result.status === 'fulfilled' ? s.result.value : s.result.reason }));
      verdicts.push(answers);
      const s1 = answers.find((a) => a.call === 0)!.value as { kind: string; code?: string; detail?: string };
      const s2 = answers.find((a) => a.call === 1)!.value as { kind: string };
      expect(s1.kind).toBe('Failed');
      expect(s1.code).toBe('40P01');
      expect(s1.detail).toMatch(/on a lock cycle, the first of it released/);
      expect(s2.kind).toBe('Done');
    } finally {
      await stores.close();
    }
  }
  expect(verdicts[1]).toEqual(verdicts[0]);
  expect(verdicts[2]).toEqual(verdicts[0]);
}, 120_000);
