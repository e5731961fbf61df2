// `testbed scenarios`: the named scenarios, the seed sections they prove and their faults.

import pc from 'picocolors';
import { listScenarios, type Scenario } from '../../scenarios/index.ts';
import { printJson } from '../format.ts';

/** The fault kinds a scenario can inject: scripted ones and those its profile turns on. */
export function faultKinds(scenario: Scenario): string[] {
  const kinds = new Set<string>(scenario.faults.scripted.map((fault) => fault.f));
  const profile = scenario.faults.profile;
  const on = (value: number | undefined) => value !== undefined && value > 0;
  if (on(profile.partitionProbabilityPct)) kinds.add('partition');
  if (on(profile.clockSkewMsMax) || on(profile.clockDriftPpmMax)) kinds.add('clock-skew');
  if (on(profile.pauseProbabilityPct)) kinds.add('pause');
  if (on(profile.crashProbabilityPct)) kinds.add('crash');
  if (on(profile.messageLossPct)) kinds.add('message-loss');
  if (on(profile.holdProbabilityPct)) kinds.add('hold');
  if (on(profile.dbCrashProbabilityPct)) kinds.add('db-crash');
  if (on(profile.dbFailoverProbabilityPct)) kinds.add('db-failover');
  if (on(profile.providerTimeoutPct)) kinds.add('provider-timeout');
  const coordination = scenario.coordination?.faults;
  if (on(coordination?.leaderCrashPct)) kinds.add('leader-crash');
  if (on(coordination?.leaderPausePct)) kinds.add('leader-pause');
  if (on(coordination?.leaderIsolatePct)) kinds.add('leader-isolate');
  if (on(coordination?.quorumSplitPct)) kinds.add('quorum-split');
  return [...kinds].sort();
}

export async function scenariosCommand(options: { readonly json?: boolean }): Promise<void> {
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
