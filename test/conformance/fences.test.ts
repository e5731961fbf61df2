// The conformance suite on stores whose fences are not integers (conformance/fenced-store.ts): a
// store whose fences are opaque strings (UUID-like, over the memory store) fails no test, with
// only what needs integer fences reported as not judged (a ForceReleased nextToken); a store
// without fences fails none either and has every test that reads a fence reported as not judged;
// and the same suite fails an opaque store that accepts a stale fence (000 §25–§30) or gives a new
// lease a fence an earlier lease had (000 §24).

import { describe, expect, test } from 'vitest';
import type { StoreFactory } from '../../adapters/port.ts';
import { withStore, type Group, type Harness, type It } from '../../conformance/harness.ts';
import { jobSections } from '../../conformance/jobs.ts';
import { leaseSections } from '../../conformance/leases.ts';
import { resourceSections } from '../../conformance/resources.ts';
import { describeStoreConformance } from '../../conformance/suite.ts';
import fencelessMemory from '../fences/fixtures/fenceless-memory.ts';
import opaqueMemory from '../fences/fixtures/opaque-memory.ts';
import opaqueReusedFence from '../fences/fixtures/opaque-reused-fence.ts';
import opaqueStaleWrite from '../fences/fixtures/opaque-stale-write.ts';

describeStoreConformance('opaque fences (UUID-like strings)', (time) => opaqueMemory({ time }));
describeStoreConformance('no fences', (time) => fencelessMemory({ time }));

/** Every test of the suite, collected instead of declared, to be run here against stores that must fail some. */
const SUITE: Array<{ readonly title: string; readonly body: (h: Harness) => Promise<void> }> = [];
{
  const it: It = (title, body) => void SUITE.push({ title, body });
  const group: Group = (_title, body) => body();
  leaseSections(it, group);
  resourceSections(it, group);
  jobSections(it, group);
}

class Skipped extends Error {}

/** Each test's result on the store `factory` opens: 'pass', 'skip: <note>' or 'fail'. */
async function resultsOn(factory: StoreFactory): Promise<Map<string, string>> {
  const results = new Map<string, string>();
  for (const { title, body } of SUITE) {
    try {
      await withStore((time) => factory({ time }), body)({ skip: (note) => { throw new Skipped(note); } });
      results.set(title, 'pass');
    } catch (error) {
      results.set(title, error instanceof Skipped ? `skip: ${error.message}` : 'fail');
    }
  }
  return results;
}

const withResult = (results: Map<string, string>, match: (result: string) => boolean): string[] => [...results].filter(([, r]) => match(r)).map(([title]) => title);
const FORCE_RELEASE = /^force release/;

describe('fences that are not integers in the conformance suite', () => {
  test('an opaque store fails nothing; the force release test alone is not judged, on its nextToken', async () => {
    const results = await resultsOn(opaqueMemory);
    expect(SUITE.length).toBeGreaterThan(30);
    expect(withResult(results, (r) => r === 'fail')).toEqual([]);
    const notJudged = withResult(results, (r) => r.startsWith('skip: not judged'));
    expect(notJudged).toHaveLength(1);
    expect(notJudged[0]).toMatch(FORCE_RELEASE);
    expect(results.get(notJudged[0]!)).toContain('nextToken');
    // Everything else it has the commands for passes, reuse of fences across a restore included.
    expect(withResult(results, (r) => r === 'pass').length).toBeGreaterThan(20);
  });

  test('a store without fences fails nothing; tests that read a fence, or whose answer turns on one, are not judged', async () => {
    const results = await resultsOn(fencelessMemory);
    expect(withResult(results, (r) => r === 'fail')).toEqual([]);
    expect([...results].find(([title]) => title.startsWith('renew:'))?.[1]).toBe("skip: not judged: Renew's answer turned on the fence it carried, and the store has none");
    expect(withResult(results, (r) => r.includes('fence values (the store has none)')).length).toBeGreaterThan(3);
    expect(withResult(results, (r) => r === 'pass')).toEqual([]);
  });

  test('an opaque store that accepts a write under a stale fence fails the protected-mutation test', async () => {
    const failing = withResult(await resultsOn(opaqueStaleWrite), (r) => r === 'fail');
    expect(failing).toContain('needs the live token and the expected version; both are checked');
  });

  test('an opaque store that gives every lease of a scope one fence fails the tests of a second lease', async () => {
    const failing = withResult(await resultsOn(opaqueReusedFence), (r) => r === 'fail');
    expect(failing).toContain('expiry is decided by store time: live iff now < expiresAt, and expiry does not reset the token');
    expect(failing).toContain('handoff (§110–§114) issues a new token to the new holder and tombstones the old lease');
  });
});
