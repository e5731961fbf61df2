// `--out <dir>` is checked before any work: a directory that cannot hold the report is bad input,
// said in one line at once rather than after a suite that ran for minutes. The check leaves no
// trace: directories it had to make to try are removed again.

import { randomBytes } from 'node:crypto';
import { statfsSync, statSync } from 'node:fs';
import { mkdir, rmdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { bounded, firstLine, UndecidedError, UsageError } from './errors.ts';

/** Kernel filesystems that only look like directories (statfs f_type); writing there hangs or means something else. */
const PSEUDO_FILESYSTEMS: ReadonlyMap<number, string> = new Map([
  [0x9fa0, 'proc'],
  [0x62656572, 'sysfs'],
  [0x27e0eb, 'cgroup'],
  [0x63677270, 'cgroup2'],
  [0x64626720, 'debugfs'],
  [0x74726163, 'tracefs'],
  [0x73636673, 'securityfs'],
  [0x1cd1, 'devpts'],
  [0xcafe4a11, 'bpf'],
  [0x6165676c, 'pstore'],
  [0x62656570, 'configfs'],
  [0x65735543, 'fusectl'],
  [0x19800202, 'mqueue'],
  [0x42494e4d, 'binfmt_misc'],
]);

const PROBE_TIMEOUT_MS = 5_000;

function codeOf(error: unknown): string {
  return (error as { code?: string }).code ?? firstLine(error);
}

/** Throws a UsageError naming the problem unless the report can be written to `dir`. */
export async function checkOutDir(dir: string, flag = '--out'): Promise<void> {
  const target = path.resolve(dir);
  // The nearest part of the path that exists must be a directory on a real filesystem.
  let existing = target;
  const missing: string[] = [];
  for (;;) {
    let isDirectory: boolean;
    try {
      isDirectory = statSync(existing).isDirectory();
    } catch (error) {
      if (codeOf(error) !== 'ENOENT' && codeOf(error) !== 'ENOTDIR') throw new UsageError(`${flag} ${dir}: cannot use ${existing}: ${codeOf(error)}`);
      missing.unshift(existing);
      existing = path.dirname(existing);
      continue;
    }
    if (!isDirectory) throw new UsageError(`${flag} ${dir}: ${existing === target ? 'it' : existing} is not a directory`);
    break;
  }
  try {
    const pseudo = PSEUDO_FILESYSTEMS.get(statfsSync(existing).type);
    if (pseudo !== undefined) throw new UsageError(`${flag} ${dir}: ${existing} is on the ${pseudo} filesystem, which holds no files of ours; choose a directory on a disk`);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    // statfs is not everywhere; the write probe below still decides.
  }
  const made: string[] = [];
  try {
    for (const part of missing) {
      await mkdir(part);
      made.push(part);
    }
    // Shards on other machines may probe one shared directory at once, with the same pid.
    const probe = path.join(target, `.testbed-out-probe-${process.pid}-${randomBytes(6).toString('hex')}`);
    await bounded(`a test write to ${flag} ${dir}`, writeFile(probe, '', { flag: 'wx' }), PROBE_TIMEOUT_MS);
    await unlink(probe);
  } catch (error) {
    if (error instanceof UndecidedError) throw new UsageError(`${flag} ${dir}: ${error.message}`);
    throw new UsageError(`${flag} ${dir}: cannot write there: ${codeOf(error)}`);
  } finally {
    for (const part of made.reverse()) await rmdir(part).catch(() => undefined);
  }
}
