// A store in another language: a command speaking JSON lines (adapters/exec-store.ts). Its
// determinism is what the store declares.
import { UsageError } from '../../adapters/errors.ts';
import type { Backend } from '../backend.ts';
import { userStore } from '../module/user-store.ts';

const PREFIX = 'exec:';

export const exec: Backend = {
  kind: 'exec',
  syntax: `${PREFIX}<command>`,
  matches: (spec) => spec.startsWith(PREFIX),
  replays: 'declared',
  interleavable: false,
  realFaults: false,
  databaseClock: false,
  gateStage: null,
  userCode: { kind: 'command', what: (spec) => spec.slice(PREFIX.length).trim() },
  open: async (spec) => {
    const command = spec.slice(PREFIX.length).trim();
    if (command === '') throw new UsageError('exec: needs a command, for example exec:"python3 examples/exec-store/lease_store.py"');
    const { createExecStore } = await import('../../adapters/exec-store.ts');
    return userStore(spec, (options) => createExecStore({ ...options, command, name: spec }));
  },
};
