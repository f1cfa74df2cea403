/**
 * `task-ids <release-folder> [--out FILE]`: the task-id index of a release (static-data/task-ids/,
 * named by an entry of static-data/releases.json), so that the site can say which release a task
 * permalink belongs to without loading it. Exit 0 ok, 1 the release is refused, 2 usage.
 */
import { errorMessage } from '../../core/error-message.ts';
import { existsSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { FolderSource } from '../../adapters/node/folder-source.ts';
import { loadRelease } from '../../core/release/load.ts';
import { taskIdIndex } from '../../core/release/task-index.ts';
import { exitIfRefused } from '../refused.ts';
import { parseArgs, UsageError, refuseUnknownSwitches } from '../args.ts';

const USAGE = `usage: npm run cli -- task-ids <release-folder> [--out FILE]

Writes the first 8 characters of every task id of every split (sorted, one per line) to FILE,
or to stdout. Example, for the official entry of static-data/releases.json:
  npm run cli -- task-ids ../shared/epstein-bench-v1.0 --out static-data/task-ids/epstein-bench-v1.0.txt

exit codes: 0 ok, 1 the release is refused, 2 usage
`;

export async function run(args: string[]): Promise<number> {
  let folder: string;
  let out: string | undefined;
  try {
    const { positional, flags, switches } = parseArgs(args, ['out']);
    if (switches.has('help')) {
      process.stdout.write(USAGE);
      return 0;
    }
    refuseUnknownSwitches(switches);
    if (positional.length !== 1) throw new UsageError('expected one release folder');
    folder = positional[0]!;
    out = flags.get('out');
    if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new UsageError(`${folder} is not a folder`);
  } catch (error) {
    process.stderr.write(`${errorMessage(error)}\n\n${USAGE}`);
    return 2;
  }
  try {
    const release = await loadRelease(new FolderSource(folder));
    const ids = Object.values(release.splits).flatMap((s) => s?.questions.map((q) => q.task_id) ?? []);
    const index = taskIdIndex(ids);
    if (out) {
      await writeFile(out, index, 'utf8');
      process.stderr.write(
        `wrote ${out}: ${index.split('\n').length - 1} task-id prefixes from ${ids.length} questions\n`,
      );
    } else {
      process.stdout.write(index);
    }
    return 0;
  } catch (error) {
    return exitIfRefused(error);
  }
}
