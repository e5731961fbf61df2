// The vitest recipes of the README and of docs/YOUR-STORE.md are tests of examples/consumer, word for word, so that what a user
// copies is what CI runs against the packed package (examples/consumer/run.sh): each ```ts block
// that opens with `// test/<file>` must appear, but for that line, in examples/consumer/test/<file>.
// The consumer leaves vitest's default time limit as it is, so a recipe that needs more time must
// say so itself, as a project that copies it would need it to.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const CONSUMER = path.join(ROOT, 'examples/consumer');

interface Recipe {
  /** The path the block names, relative to the consumer project. */
  readonly file: string;
  /** The block without its first line (the path). */
  readonly body: string;
}

/** The ```ts blocks of `markdown` that open with `// test/…`. */
function recipesOf(markdown: string): Recipe[] {
  const recipes: Recipe[] = [];
  for (const [, block] of markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)) {
    const [first, ...rest] = block!.split('\n');
    const named = /^\/\/ (test\/\S+\.test\.ts)$/.exec(first ?? '');
    if (named !== null) recipes.push({ file: named[1]!, body: rest.join('\n').trim() });
  }
  return recipes;
}

describe("the recipes of the README and of docs/YOUR-STORE.md", () => {
  const readme = recipesOf(readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
  const guide = recipesOf(readFileSync(path.join(ROOT, 'docs/YOUR-STORE.md'), 'utf8'));
  const recipes = [...readme, ...guide];

  test('there are the three of them: the check and the conformance suite in the README, the scenarios in the guide', () => {
    expect(readme.map((r) => r.file)).toEqual(['test/check.test.ts', 'test/conformance.test.ts']);
    expect(guide.map((r) => r.file)).toEqual(['test/scenarios.test.ts']);
  });

  test.each(recipes.map((r) => [r.file, r] as const))('%s is in examples/consumer word for word', (file, recipe) => {
    const target = path.join(CONSUMER, file);
    expect(existsSync(target), `examples/consumer/${file} is missing`).toBe(true);
    const text = readFileSync(target, 'utf8');
    expect(text.includes(recipe.body), `examples/consumer/${file} differs from the recipe: copy the block into it`).toBe(true);
  });

  test("the consumer runs them with vitest's default time limit", () => {
    expect(readFileSync(path.join(CONSUMER, 'vitest.config.ts'), 'utf8')).not.toMatch(/^\s*testTimeout\s*:/m);
  });

  test('a block that differs is found', () => {
    const [recipe] = recipesOf('```ts\n// test/x.test.ts\nconst a = 1;\n```\n');
    expect(recipe).toEqual({ file: 'test/x.test.ts', body: 'const a = 1;' });
    expect('const a = 2;'.includes(recipe!.body)).toBe(false);
  });
});
