// The package's version, for `testbed --version`: read from the package's own package.json, the
// first one above this file (cli/ in a checkout, dist/cli/ in the installed package).

import { readFileSync } from 'node:fs';
import path from 'node:path';

export function packageVersion(): string {
  for (let dir = import.meta.dirname; ; dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === 'concurrency-testbed' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // No package.json here: look one directory up.
    }
    if (path.dirname(dir) === dir) return 'unknown';
  }
}
