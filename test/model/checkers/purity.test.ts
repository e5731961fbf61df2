// docs/ARCHITECTURE.md "House rules": the checkers are pure functions, importing no I/O, clock, randomness or simulator code.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const FOLDER = join(import.meta.dirname, '../../../model/checkers');
const FORBIDDEN = [/from ['"]node:/, /from ['"]pg['"]/, /from ['"]\.\.\/\.\.\/(sim|adapters)\//, /Date\.now/, /Math\.random/, /setTimeout|setInterval/, /\basync\b|\bawait\b/];

describe('model/checkers purity', () => {
  const files = readdirSync(FOLDER).filter((name) => name.endsWith('.ts'));

  it('finds the checker sources', () => {
    expect(files).toContain('index.ts');
  });

  for (const file of files) {
    it(`${file} uses nothing impure`, () => {
      const source = readFileSync(join(FOLDER, file), 'utf8');
      expect(FORBIDDEN.filter((pattern) => pattern.test(source)).map(String)).toEqual([]);
    });
  }
});
