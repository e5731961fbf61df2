// How long each stage of a gate run took, in wall-clock time: printed after the table, never part of a verdict.

/** Wall-clock time of each stage of the gate run, printed after the table. */
export class Phases {
  private readonly spent: Array<readonly [string, number]> = [];

  async time<T>(name: string, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.add(name, performance.now() - started);
    }
  }

  /** Records `ms` for `name`; returns it rounded. */
  add(name: string, ms: number): number {
    this.spent.push([name, ms]);
    return Math.round(ms);
  }

  line(): string {
    return `time: ${this.spent.map(([name, ms]) => `${name} ${(ms / 1000).toFixed(1)} s`).join(', ')}`;
  }
}
