// What the kinds that put an older durable image in place (failover to a lagging replica, restore
// from a backup) declare alike: the image's age is a field of their step, applying one replaces
// the store's durable state with that image, and their record's real action is prepared ahead of
// time (the `prepare` phase) and moves the primary. Each kind names its own field, phase and action.

import type { FaultRecord, FaultWorld, RealFaultOutcome, RealTarget } from './package.ts';

interface ImageKind<F extends 'db-failover' | 'db-restore', A extends string> {
  readonly f: F;
  /** The field of the step that holds the image's age, in ms. */
  readonly age: A;
  /** The `phase` of the record value that only prepares the image (cut the link, take the backup). */
  readonly phase: string;
  /** The real action: `prepareOnly` for the prepare phase. */
  readonly act: (target: RealTarget, prepareOnly: boolean) => Promise<RealFaultOutcome>;
  readonly colour: string;
  /** The fault in words, for a skipped one: 'failover', 'restore'. */
  readonly what: string;
}

/** The `image`, `apply` and `records` of a kind that puts an older durable image in place. */
export function imageReplacement<const F extends 'db-failover' | 'db-restore', const A extends string>(kind: ImageKind<F, A>) {
  const record: FaultRecord = {
    real: (target, value) => (value['skipped'] === true ? Promise.resolve({ kind: 'simulated-only', reason: `the simulator skipped this ${kind.what}` }) : kind.act(target, value['phase'] === kind.phase)),
    colour: kind.colour,
    movesPrimary: true,
  };
  return {
    image: { ageMs: (fault: Readonly<Record<A, number>>) => fault[kind.age], prepare: { phase: kind.phase } },
    async apply(world: FaultWorld, fault: Readonly<Record<A, number>>): Promise<void> {
      await world.replaceImage(kind.f, fault[kind.age], { [kind.age]: fault[kind.age] });
    },
    records: { [kind.f]: record } as Readonly<Record<F, FaultRecord>>,
  };
}
