// `testbed scenarios`: the named scenarios, the seed sections they prove and their faults.

import pc from 'picocolors';
import { listScenarios, type Scenario } from '../../scenarios/index.ts';
import { FAULT_PACKAGES } from '../../faults/index.ts';
import { printJson } from '../format.ts';
import type { ScenariosOptions } from './output-flags.ts';

/** The fault kinds a scenario can inject: scripted ones and those its profile turns on. */
export function faultKinds(scenario: Scenario): string[] {
  const kinds = new Set<string>(scenario.faults.scripted.map((fault) => fault.f));
  const knobs: Readonly<Record<string, number | undefined>> = { ...scenario.faults.profile, ...scenario.coordination?.faults };
  const on = (knob: string) => (knobs[knob] ?? 0) > 0;
  for (const [kind, fault] of Object.entries(FAULT_PACKAGES)) if ((fault.randomWhen ?? []).some(on)) kinds.add(kind);
  // Held messages are the network's, not a fault kind's.
  if (on('holdProbabilityPct')) kinds.add('hold');
  return [...kinds].sort();
}

export async function scenariosCommand(options: ScenariosOptions): Promise<void> {
  const scenarios = listScenarios();
  if (options.json) {
    printJson({
      scenarios: scenarios.map((s) => ({ name: s.name, title: s.title, sources: s.sources, faults: faultKinds(s), expect: s.expect })),
    });
    return;
  }
  const width = Math.max(...scenarios.map((s) => s.name.length));
  for (const s of scenarios) {
    const name = s.expect === 'violation' ? pc.yellow(s.name.padEnd(width)) : s.name.padEnd(width);
    process.stdout.write(`${name}  ${s.title} ${pc.dim(`[${s.sources.join(', ')}]`)}\n`);
  }
  process.stdout.write(pc.dim(`${scenarios.length} scenarios; yellow ones demonstrate a violation and must be caught\n`));
}
