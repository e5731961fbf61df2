// Provider timeouts (seed 000 §64, §288): the external provider's reply is lost, and the effect may
// have been applied all the same. From the profile, any provider call may time out; a scripted step
// makes the next `count` calls time out. Simulated only: the provider is simulated.

import { z } from 'zod';
import { defineFault, faultKnob, ms, pct, simulatedOnly } from './package.ts';

const schema = z.object({ f: z.literal('provider-timeout'), at: ms, count: z.number().int().min(1).max(1000), appliedPct: pct }).strict();

export const providerTimeout = defineFault({
  schema,
  knobs: {
    providerTimeoutPct: faultKnob(pct, 'Chance (percent) that a provider call times out (reply lost) at the provider.'),
    providerTimeoutAppliedPct: faultKnob(pct, 'Of the provider timeouts, the chance (percent) that the effect was nevertheless applied.'),
  },
  randomWhen: ['providerTimeoutPct'],
  async apply(world, fault) {
    world.scriptProviderTimeouts(fault.count, fault.appliedPct);
  },
  records: {
    'provider-timeout': { real: simulatedOnly('the external provider is simulated'), colour: '#16a085' },
  },
});
