// The scenario catalogue: `listScenarios()` gives every built-in scenario (validated), and
// `loadScenario(nameOrPath)` finds one by name or loads and validates a `.json` file.

import { readFileSync } from 'node:fs';
import { CATALOG } from './catalog.ts';
import { scenarioSchema, type Scenario, type ScenarioInput } from './schema.ts';

export type { Scenario, ScenarioInput } from './schema.ts';

/** A scenario that cannot be loaded: unknown name, unreadable file or invalid data (one line). */
export class ScenarioError extends Error {
  constructor(
    message: string,
    readonly source: string,
  ) {
    super(message);
    this.name = 'ScenarioError';
  }
}

/** Validates scenario data; the error message is one line naming the first problems. */
export function parseScenario(data: unknown, source: string): Scenario {
  const result = scenarioSchema.safeParse(data);
  if (result.success) return Object.freeze(result.data) as Scenario;
  const problems = result.error.issues.slice(0, 3).map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`);
  throw new ScenarioError(`invalid scenario ${source}: ${problems.join('; ')}`.replace(/\s*\n\s*/g, ' '), source);
}

/** A scenario written in code, validated like a scenario file (defaults filled in; ScenarioError if invalid). */
export function defineScenario(input: ScenarioInput): Scenario {
  return parseScenario(input, typeof input.name === 'string' ? input.name : '(unnamed)');
}

let validated: ReadonlyArray<Scenario> | null = null;

export function listScenarios(): ReadonlyArray<Scenario> {
  if (validated === null) {
    const seen = new Set<string>();
    validated = Object.freeze(
      CATALOG.map((data, i) => {
        const scenario = parseScenario(data, `catalog[${i}]`);
        if (seen.has(scenario.name)) throw new ScenarioError(`duplicate scenario name ${scenario.name}`, `catalog[${i}]`);
        seen.add(scenario.name);
        return scenario;
      }),
    );
  }
  return validated;
}

export function loadScenario(nameOrPath: string): Scenario {
  if (nameOrPath.endsWith('.json')) {
    let text: string;
    try {
      text = readFileSync(nameOrPath, 'utf8');
    } catch (error) {
      throw new ScenarioError(`cannot read scenario file ${nameOrPath}: ${error instanceof Error ? error.message : String(error)}`, nameOrPath);
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new ScenarioError(`scenario file ${nameOrPath} is not JSON: ${error instanceof Error ? error.message : String(error)}`, nameOrPath);
    }
    return parseScenario(data, nameOrPath);
  }
  const found = listScenarios().find((s) => s.name === nameOrPath);
  if (found === undefined) throw new ScenarioError(`unknown scenario '${nameOrPath}' (see: npx testbed scenarios)`, nameOrPath);
  return found;
}
