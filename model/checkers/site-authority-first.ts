// site-authority-first (seed 000 §163–§169, §266–§268, §296; §315 "Federation authority fences
// site-local ownership", §317 "site authority precedes local concurrency"): in a federated domain
// every lease the store grants and every write it accepts stands under the domain's authority,
// and under the authority in force:
// 1. it carries the guard of the domain's authority role (`authority:<domain>`): a site-local
//    lock never stands in for the authority (§167, §169);
// 2. its authority epoch is not older than one the store had certainly taken for that domain
//    before the call was sent, by a failover's AdvanceRoleEpoch or a guard it let pass (§168,
//    §296: after a failover the old site takes no lease and makes no write);
// 3. its epoch is one the federation gave the caller's own site, and no two sites hold accepted
//    ownership under one epoch of a domain: a site that lacked the authority has no ownership to
//    merge (§268).
// The federation's picture is the `federation` record (sites, domains and their scopes) and each
// `site-failover`; rule 2 needs neither, so it judges any history whose guards name an authority
// role. Order is judged in real time only (a call sent after the epoch was established), so a
// delayed reply never makes a false violation.

import type { History } from '../history.ts';
import { authorityRole, domainOfRole } from '../federation-authority.ts';
import { incarnationOfProcess } from '../node-incarnation.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { establishedBefore, establishedEpochs, guardOf } from './leader-changes.ts';
import { leaseCreations } from './lease-creations.ts';
import { asFields, faultsBetween, faultsOf, indicesOf, pairOperations, storeOps, type Operation } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'site-authority-first';

/** What the history says of the federation: who is in which site, which scope is in which domain, and who got which epoch. */
interface Picture {
  readonly siteOfNode: ReadonlyMap<string, number>;
  readonly domainOfScope: ReadonlyMap<string, string>;
  /** Per authority role, the site the federation gave each epoch to. */
  readonly siteOfEpoch: ReadonlyMap<string, ReadonlyMap<number, number>>;
}

/** An accepted lease or write. */
interface Owned {
  readonly op: Operation;
  readonly what: string;
  readonly scope: string;
  readonly command: unknown;
}

function pictureOf(history: History): Picture | null {
  const start = faultsOf(history, ['federation'])[0];
  if (start === undefined) return null;
  const siteOfNode = new Map<string, number>();
  const sites = (start.value['sites'] as ReadonlyArray<ReadonlyArray<string>> | undefined) ?? [];
  sites.forEach((nodes, i) => nodes.forEach((node) => siteOfNode.set(node, i + 1)));
  const domainOfScope = new Map<string, string>();
  const siteOfEpoch = new Map<string, Map<number, number>>();
  const give = (role: string, epoch: unknown, site: unknown) => {
    if (typeof epoch !== 'number' || typeof site !== 'number') return;
    if (!siteOfEpoch.has(role)) siteOfEpoch.set(role, new Map());
    siteOfEpoch.get(role)!.set(epoch, site);
  };
  for (const entry of (start.value['domains'] as ReadonlyArray<unknown> | undefined) ?? []) {
    const d = asFields(entry);
    if (typeof d?.['domain'] !== 'string') continue;
    for (const scope of (d['scopes'] as ReadonlyArray<string> | undefined) ?? []) domainOfScope.set(scope, d['domain']);
    give(authorityRole(d['domain']), d['epoch'], d['site']);
  }
  for (const moved of faultsOf(history, ['site-failover'])) if (typeof moved.value['role'] === 'string') give(moved.value['role'], moved.value['epoch'], moved.value['to']);
  return { siteOfNode, domainOfScope, siteOfEpoch };
}

function ownedOps(operations: ReadonlyArray<Operation>): ReadonlyArray<Owned> {
  const found: Owned[] = [];
  for (const { op, granted } of leaseCreations(operations)) if (granted !== null) found.push({ op, what: 'lease', scope: granted.scope, command: op.invoke.value });
  for (const { op, command, outcome } of storeOps(operations, 'Mutate')) if (outcome?.kind === 'Accepted') found.push({ op, what: 'write', scope: command.scope, command });
  return found.sort((a, b) => a.op.invoke.index - b.op.invoke.index);
}

/** The site of the controller whose process made `op`, or null for a process of no site. */
function siteOf(picture: Picture, op: Operation): number | null {
  const node = incarnationOfProcess(op.process).split('#')[0]!;
  return picture.siteOfNode.get(node) ?? null;
}

export function siteAuthorityFirst(history: History): Verdict {
  const operations = pairOperations(history);
  const picture = pictureOf(history);
  const established = establishedEpochs(operations);
  const violations: Violation[] = [];
  /** Per role and epoch, the first accepted lease or write of each site (rule 3). */
  const owners = new Map<string, Map<number, Owned>>();
  for (const owned of ownedOps(operations)) {
    const { op, what, scope } = owned;
    const guard = guardOf(owned.command);
    const domain = picture?.domainOfScope.get(scope) ?? (guard === undefined ? null : domainOfRole(guard.role));
    if (domain === null || domain === undefined) continue;
    const role = authorityRole(domain);
    const by = incarnationOfProcess(op.process);
    if (guard === undefined || guard.role !== role) {
      violations.push(violation(INVARIANT, `${what} on ${scope} of domain ${domain} by ${by} accepted without the guard of ${role} (#${op.invoke.index}): a local lock stood in for the site's authority`, indicesOf(op), scope));
      continue;
    }
    const inForce = establishedBefore(established, op.invoke.index).get(role);
    if (inForce !== undefined && guard.epoch < inForce.epoch) {
      violations.push(violation(INVARIANT, `${what} on ${scope} by ${by} accepted under ${role} epoch ${guard.epoch} (#${op.invoke.index}) after epoch ${inForce.epoch} was in force (#${inForce.at} by ${inForce.by})${faultsBetween(history, inForce.at, op.invoke.index)}`, [inForce.at, ...indicesOf(op)], scope));
    }
    if (picture !== null) violations.push(...siteViolations(picture, owned, role, guard.epoch, owners));
  }
  return verdictOf(violations);
}

/** Rule 3: the epoch is the caller's site's, and one site only holds accepted ownership under it. */
function siteViolations(picture: Picture, owned: Owned, role: string, epoch: number, owners: Map<string, Map<number, Owned>>): Violation[] {
  const { op, what, scope } = owned;
  const site = siteOf(picture, op);
  const given = picture.siteOfEpoch.get(role)?.get(epoch);
  const found: Violation[] = [];
  if (given === undefined || site !== given) {
    const whose = given === undefined ? 'which the federation gave no site' : `which the federation gave site ${given}`;
    found.push(violation(INVARIANT, `${what} on ${scope} by ${incarnationOfProcess(op.process)} of ${site === null ? 'no site' : `site ${site}`} accepted under ${role} epoch ${epoch}, ${whose} (#${op.invoke.index})`, indicesOf(op), scope));
  }
  if (!owners.has(role)) owners.set(role, new Map());
  const first = owners.get(role)!.get(epoch);
  if (first === undefined) owners.get(role)!.set(epoch, owned);
  else if (siteOf(picture, first.op) !== site) {
    found.push(violation(INVARIANT, `two sites hold accepted ownership under ${role} epoch ${epoch}: ${first.what} on ${first.scope} by ${incarnationOfProcess(first.op.process)} (#${first.op.invoke.index}) and ${what} on ${scope} by ${incarnationOfProcess(op.process)} (#${op.invoke.index})`, [...indicesOf(first.op), ...indicesOf(op)], scope));
  }
  return found;
}
