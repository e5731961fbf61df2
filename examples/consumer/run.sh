#!/usr/bin/env bash
# Packs the package, installs the tarball into a copy of this example outside the checkout (so that
# nothing resolves from the checkout's own node_modules), and runs what a user's project would:
# `testbed --version`, `testbed run` and `sweep`, a type check against the shipped declarations,
# and vitest (scenarios as properties of its store, the conformance suite).
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

step "vitest run"
npx --no-install vitest run

step "passed"
