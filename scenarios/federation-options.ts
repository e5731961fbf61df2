// The federation knobs of a run (seed 000 §163–§169, §266–§268): how many sites the controllers
// are spread over, and the federation faults drawn at random (TigerBeetle style: every knob a
// named integer field, unit last, fault knobs default zero). The domains are the workload's
// tenants: tenant t<k> is a domain whose authority starts at site ((k - 1) mod sites) + 1.
// Declared once, as the zod schema below, with the fault knobs declared by the fault kinds that
// use them (faults/federation-knobs.ts); the scenario format, plan files and the option types
// are derived from it.

import { z } from 'zod';
import { federationFaultsSchema, type FederationFaultOptions } from '../faults/federation-knobs.ts';

/** The federation block of a scenario or a plan; every field has its default. */
export const federationSchema = z
  .object({
    /** Sites the controllers are spread over, round robin: c1 in site 1, c2 in site 2, ... (§163). */
    sites: z.number().int().min(2).max(8).default(3),
    faults: federationFaultsSchema.prefault({}),
  })
  .strict();

export type FederationOptions = Readonly<Omit<z.output<typeof federationSchema>, 'faults'>> & { readonly faults: FederationFaultOptions };
/** What a scenario writes: any subset of the knobs. */
export type FederationInput = z.input<typeof federationSchema>;

/** Validates once: an impossible setting is refused with a clear message (RangeError). */
export function federationOptions(input: FederationInput): FederationOptions {
  const parsed = federationSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new RangeError(`${issue.path.length === 0 ? 'federation' : `federation option ${issue.path.join('.')}`}: ${issue.message}`);
  }
  return Object.freeze({ ...parsed.data, faults: Object.freeze(parsed.data.faults) });
}

/** The site of controller c<n> (1-based) among `sites`. */
export function siteOfController(n: number, sites: number): number {
  return ((n - 1) % sites) + 1;
}

/** The site whose authority domain t<k> starts under (epoch 1). */
export function homeSiteOfDomain(k: number, sites: number): number {
  return ((k - 1) % sites) + 1;
}
