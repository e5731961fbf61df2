// The agents' checkers (001 §112–§118, §274–§275) on hand-made histories: stream-gapless wants each
// agent's events 1, 2, 3, ... across reconnects; agents-reconnect wants an agent that lost its
// daemon connected again within its delay and one poll, whenever some daemon was up throughout.

import { describe, expect, test } from 'vitest';
import { agentsReconnect } from '../../../model/checkers/agents-reconnect.ts';
import { streamGapless } from '../../../model/checkers/stream-gapless.ts';
import { HistoryBuilder } from './history-builder.ts';

const fleet = (): HistoryBuilder => {
  const h = new HistoryBuilder();
  h.fault('agent-fleet', { agents: 1, daemons: ['c1', 'c2'], pollMs: 100, reconnectMs: 200 });
  return h;
};
const received = (h: HistoryBuilder, seqs: number[], daemon = 'c1'): number => h.fault('agent-received', { agent: 'agent1', daemon, seqs });

describe('stream-gapless', () => {
  test('events delivered in order across a reconnect pass; a skipped range and a repeat are named', () => {
    const h = fleet();
    received(h, [1, 2]);
    h.fault('agent-connected', { agent: 'agent1', daemon: 'c2', process: 'c2#1', cursor: 2 });
    received(h, [3], 'c2');
    expect(streamGapless(h.build()).valid).toBe(true);
    const gap = fleet();
    received(gap, [1, 2]);
    received(gap, [5], 'c2');
    expect(streamGapless(gap.build()).violations[0]!.message).toMatch(/agent1 skipped events 3–4: c2 delivered 5 when 3 was next/);
    const repeat = fleet();
    received(repeat, [1, 2]);
    received(repeat, [2, 3]);
    expect(streamGapless(repeat.build()).violations[0]!.message).toMatch(/agent1 received event 2 again/);
  });
});

describe('stream-gapless at the end of a run', () => {
  test('once faults heal, an agent that ends without the events written early enough is named', () => {
    const run = (delivered: number[]) => {
      const h = fleet();
      h.at(0).fault('agent-connected', { agent: 'agent1', daemon: 'c1', process: 'c1#1', cursor: 0 });
      // Two events: the store accepted job op1, and op1 was done.
      h.at(100).event('job:op1', 'invoke', 'job', { jobId: 'op1' });
      h.at(100).event('c1#1:submit:op1', 'invoke', 'SubmitJob', { kind: 'SubmitJob', jobId: 'op1', scope: 'env' });
      h.at(110).event('c1#1:submit:op1', 'ok', 'SubmitJob', { kind: 'JobSubmitted', job: { jobId: 'op1', scope: 'env', status: 'eligible', attemptToken: 0, attempts: 0, seq: 1 } });
      h.at(200).event('job:op1', 'ok', 'job', { jobId: 'op1' });
      h.at(300).fault('liveness-phase', { boundMs: 5_000 });
      // Nothing is recorded after this: the run still lasts until the liveness bound ends it, at 5300.
      h.at(400).fault('agent-received', { agent: 'agent1', daemon: 'c1', seqs: delivered });
      return streamGapless(h.build());
    };
    expect(run([1, 2]).valid).toBe(true);
    expect(run([1]).violations[0]!.message).toMatch(/agent1 ends the run at event 1, though 2 events were written by 4800, after faults healed at 300/);
  });
});

describe('agents-reconnect', () => {
  /** Both daemons crash at 1000, the agent notices at 1050, and c2 is back at 2000. */
  const everyDaemonDown = (): HistoryBuilder => {
    const h = fleet();
    h.at(1_000).fault('crash', { node: 'c1', process: 'c1#1' });
    h.at(1_000).fault('crash', { node: 'c2', process: 'c2#1' });
    h.at(1_050).fault('agent-disconnected', { agent: 'agent1', daemon: 'c1', process: 'c1#1' });
    h.at(2_000).fault('restart', { node: 'c2', process: 'c2#2' });
    return h;
  };

  test('reconnecting to another daemon within the delay and one poll passes; waiting for the lost one while another is up is named', () => {
    const ok = fleet();
    ok.at(1_000).fault('crash', { node: 'c1', process: 'c1#1' });
    ok.at(1_050).fault('agent-disconnected', { agent: 'agent1', daemon: 'c1', process: 'c1#1' });
    ok.at(1_300).fault('agent-connected', { agent: 'agent1', daemon: 'c2', process: 'c2#1', cursor: 4 });
    ok.at(2_000).fault('restart', { node: 'c1', process: 'c1#2' });
    expect(agentsReconnect(ok.build()).valid).toBe(true);
    const stuck = fleet();
    stuck.at(1_000).fault('crash', { node: 'c1', process: 'c1#1' });
    stuck.at(1_050).fault('agent-disconnected', { agent: 'agent1', daemon: 'c1', process: 'c1#1' });
    stuck.at(2_000).fault('restart', { node: 'c1', process: 'c1#2' });
    stuck.at(2_050).fault('agent-connected', { agent: 'agent1', daemon: 'c1', process: 'c1#2', cursor: 4 });
    expect(agentsReconnect(stuck.build()).violations[0]!.message).toMatch(/agent1 lost its daemon .* connected only at 2050, though a daemon was up from 1250 to 1350/);
  });

  test('with every daemon down there is nothing to connect to: a late connection is not judged', () => {
    const h = everyDaemonDown();
    h.at(2_050).fault('agent-connected', { agent: 'agent1', daemon: 'c2', process: 'c2#2', cursor: 4 });
    expect(agentsReconnect(h.build()).valid).toBe(true);
  });

  test('an agent that gave up while every daemon was down is named once one is back', () => {
    const h = everyDaemonDown();
    h.at(3_000).fault('restart', { node: 'c1', process: 'c1#2' });
    expect(agentsReconnect(h.build()).violations[0]!.message).toMatch(/agent1 lost its daemon .* connected never again, though a daemon was up from 2050 to 2150/);
  });
});
