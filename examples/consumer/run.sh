#!/usr/bin/env bash
# Packs the package, installs the tarball into a copy of this example outside the checkout (so that
# nothing resolves from the checkout's own node_modules), and runs what a user's project would:
# `testbed --version`, `testbed run` and `sweep`, a type check against the shipped declarations,
# vitest (the README's recipes, scenarios as properties of its stores, the conformance suite), and
# `testbed check`, `sweep` and `stress` on its own store modules in TypeScript (through tsx): the
# lease-only store with opaque fences and the lock library driven by the clock kit.
# Dependencies come from the npm registry (or the npm cache) only. Exits non-zero on any failure.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/testbed-consumer.XXXXXX")
[ -n "${KEEP_CONSUMER:-}" ] && echo "consumer: keeping $work" || trap 'rm -rf "$work"' EXIT

step() { printf '\nconsumer: %s\n' "$*"; }

step "npm pack (builds dist/)"
(cd "$root" && npm pack --pack-destination "$work" --loglevel=warn >/dev/null)
tarball=$(ls "$work"/concurrency-testbed-*.tgz)
echo "$(basename "$tarball"): $(du -k "$tarball" | cut -f1) kB, $(tar -tzf "$tarball" | wc -l) files"
if tar -tzf "$tarball" | grep -E '^package/(test|bench|\.ci|examples)/' >/dev/null; then
  echo "consumer: the tarball ships test/, bench/, .ci/ or examples/" >&2
  exit 1
fi

step "install into a fresh project"
mkdir "$work/app"
(cd "$here" && tar -cf - --exclude=node_modules --exclude=run.sh --exclude='*.tgz' --exclude=package-lock.json .) | (cd "$work/app" && tar -xf -)
cp "$tarball" "$work/app/concurrency-testbed.tgz"
cd "$work/app"
npm install --no-audit --no-fund --prefer-offline --loglevel=error

step "npx testbed --version"
version=$(npx --no-install testbed --version)
expected=$(node -p 'require("concurrency-testbed/package.json").version')
echo "$version"
[ "$version" = "$expected" ] || { echo "consumer: testbed --version printed '$version', expected '$expected'" >&2; exit 1; }

step "npx testbed run --scenario stale-holder --seed 1"
npx --no-install testbed run --scenario stale-holder --seed 1

step "npx testbed sweep on two worker threads (compiled workers, no TypeScript loader)"
npx --no-install testbed sweep --scenario stale-holder --seeds 1..64 --workers 2

step "tsc --noEmit (the shipped declarations, skipLibCheck off)"
npx --no-install tsc --noEmit

step "vitest run (vitest's default time limit: each test that needs more says so)"
npx --no-install vitest run

# The project's store modules are TypeScript: the testbed command registers the project's tsx
# itself, so its commands and the replay lines it prints run as they are written, with no loader flag.
tb() { npx --no-install testbed "$@"; }

step "the README's command: npx testbed sweep --scenario all --seeds 1..20 --adapter ./src/store.ts"
npx testbed sweep --scenario all --seeds 1..20 --adapter ./src/store.ts

step "a replay line as printed, pasted: npx testbed run on a TypeScript store module"
npx testbed run --scenario stale-holder --seed 1 --adapter ./src/store.ts

step "the same in a CommonJS project (no \"type\": \"module\"), where tsx runs the module as CommonJS"
mkdir "$work/cjs"
cp -R src "$work/cjs/src"
node -e 'const p = require("./package.json"); delete p.type; require("fs").writeFileSync(process.argv[1], JSON.stringify(p, null, 2))' "$work/cjs/package.json"
ln -s "$work/app/node_modules" "$work/cjs/node_modules"
(cd "$work/cjs" && npx --no-install testbed run --scenario stale-holder --seed 1 --adapter ./src/store.ts)

step "a TypeScript store module with no tsx in reach: one line, exit 3"
mkdir "$work/bare"
printf 'export default async () => ({ name: "bare", execute: async () => ({}), close: async () => {} });\n' >"$work/bare/store.ts"
set +e
bare=$(cd "$work/bare" && node "$work/app/node_modules/concurrency-testbed/cli/bin.mjs" run --scenario stale-holder --seed 1 --adapter ./store.ts 2>&1)
rc=$?
set -e
echo "$bare"
[ "$rc" -eq 3 ] && [ "$(printf '%s\n' "$bare" | wc -l)" -eq 1 ] || { echo "consumer: a TypeScript module with no loader gave exit $rc, expected one line and exit 3" >&2; exit 1; }

step "npx testbed check --runs 20000 on the lease-only store with opaque fences, stderr piped: progress lines"
tb check --adapter ./src/lease-store.ts --runs 20000 --seed 1 2>"$work/check-progress.txt"
cat "$work/check-progress.txt"
lines=$(grep -c '^check: [0-9]*/20000 sequences' "$work/check-progress.txt" || true)
[ "$lines" -ge 10 ] || { echo "consumer: a piped check --runs 20000 printed $lines progress lines, expected at least 10" >&2; exit 1; }

step "npx testbed check on the lock library driven by the clock kit"
tb check --adapter ./src/timer-lock-store.ts --runs 2000 --seed 1

for store in lease-store timer-lock-store; do
  for scenario in stale-holder renewal-race split-brain-partition; do
    step "npx testbed sweep --scenario $scenario --seeds 1..100 --adapter ./src/$store.ts"
    tb sweep --scenario "$scenario" --seeds 1..100 --adapter "./src/$store.ts"
  done
  step "npx testbed stress --adapter ./src/$store.ts (8 clients at once on the wall clock)"
  tb stress --adapter "./src/$store.ts" --clients 8 --duration 5s --seed 1
done

step "passed"
