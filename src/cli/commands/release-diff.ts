/**
 * `release-diff <release A> <release B> [--json] [--split S --shared-tasks FILE
 * [--predictions P --shared-predictions FILE]]`: what changed between two releases (either layout),
 * and the files to score a submission on only the tasks both share.
 * Exit 0 ok (whatever the differences), 1 a release is refused, 2 usage.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FolderSource } from '../../adapters/node/folder-source.ts';
import { errorMessage } from '../../core/error-message.ts';
import { diffReleases, type ReleaseDiff, type SplitDiff } from '../../core/release-diff/diff.ts';
import { filterPredictions, sharedTasks } from '../../core/release-diff/shared-tasks.ts';
import { diffSide } from '../../core/release-diff/side.ts';
import { SPLITS, type SplitName } from '../../core/release/types.ts';
import { exitIfRefused } from '../refused.ts';
import { parseArgs, refuseUnknownSwitches, UsageError } from '../args.ts';

async function writeOut(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  await writeFile(file, text, 'utf8');
}

const USAGE = `usage: npm run cli -- release-diff <release A> <release B> [--json] [--list N]
         [--split full|dev] [--shared-tasks FILE] [--predictions FILE --shared-predictions FILE]

Per split: tasks added (in B only), removed (in A only), kept; kept tasks whose question, type,
answer, items or gold set changed (answers and gold sets where both releases publish an answer
key); re-identified tasks (a removed id and an added id with the same question text); near matches
(similar questions) to review. Version labels and pins side by side, with a warning when both
releases carry the same version label and different contents.

  --json                 the whole diff as JSON on stdout
  --list N               list up to N ids per category in the text report (default 10)
  --split S              the split of --shared-tasks / --shared-predictions (default full)
  --shared-tasks FILE    write the answer key (tasks.jsonl) of the tasks both releases share
                         unchanged (lines as written, from B's key, else A's)
  --predictions FILE     a predictions.jsonl to cut to the shared tasks, written to
  --shared-predictions FILE   (score then takes --tasks <shared tasks> --predictions <this>)

Example (the second build labelled v1.0 against today's v1.0):
  npm run cli -- release-diff ../shared/epstein-bench-history/e21acec3/dataset/v1.0 ../shared/epstein-bench-v1.0

exit codes: 0 ok (differences are not failures), 1 a release is refused, 2 usage
`;

interface Options {
  a: string;
  b: string;
  json: boolean;
  list: number;
  split: SplitName;
  sharedTasksOut?: string;
  predictions?: string;
  sharedPredictionsOut?: string;
}

function parse(args: string[]): Options | 'help' {
  const { positional, flags, switches } = parseArgs(args, [
    'list',
    'split',
    'shared-tasks',
    'predictions',
    'shared-predictions',
  ]);
  if (switches.has('help')) return 'help';
  refuseUnknownSwitches(switches, ['json']);
  if (positional.length !== 2) throw new UsageError('expected two release folders');
  for (const folder of positional)
    if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new UsageError(`${folder} is not a folder`);
  const list = Number(flags.get('list') ?? '10');
  if (!Number.isInteger(list) || list < 0) throw new UsageError('--list needs a whole number >= 0');
  const split = flags.get('split') ?? 'full';
  if (!(SPLITS as readonly string[]).includes(split)) throw new UsageError('--split must be full or dev');
  if (flags.has('predictions') !== flags.has('shared-predictions'))
    throw new UsageError('--predictions and --shared-predictions go together');
  if (flags.has('predictions') && !flags.has('shared-tasks'))
    throw new UsageError('--shared-predictions needs --shared-tasks (the scorer reads both)');
  const options: Options = {
    a: positional[0]!,
    b: positional[1]!,
    json: switches.has('json'),
    list,
    split: split as SplitName,
  };
  if (flags.has('shared-tasks')) options.sharedTasksOut = flags.get('shared-tasks')!;
  if (flags.has('predictions')) options.predictions = flags.get('predictions')!;
  if (flags.has('shared-predictions')) options.sharedPredictionsOut = flags.get('shared-predictions')!;
  return options;
}

function ids(label: string, list: readonly string[], max: number): string {
  if (list.length === 0 || max === 0) return '';
  const shown = list.slice(0, max).join(', ');
  return `\n    ${label}: ${shown}${list.length > max ? `, ... (${list.length - max} more)` : ''}`;
}

function splitReport(s: SplitDiff, max: number): string {
  const lines = [
    `${s.split}: A ${s.n_a} tasks, B ${s.n_b} tasks${s.same_questions ? ' (same questions file)' : ''}`,
    `  questions pin  A ${s.pin_a ?? '(none)'}`,
    `                 B ${s.pin_b ?? '(none)'}`,
  ];
  if (s.comparable) {
    const byChange = new Map<string, number>();
    for (const c of s.changed) for (const k of c.changes) byChange.set(k, (byChange.get(k) ?? 0) + 1);
    const changes = [...byChange].map(([k, n]) => `${k} ${n}`).join(', ');
    lines.push(
      `  added ${s.added.length}, removed ${s.removed.length}, kept ${s.kept.length} ` +
        `(unchanged ${s.unchanged.length}, changed ${s.changed.length}${changes ? `: ${changes}` : ''}; ` +
        `answer keys compared on ${s.key_compared})` +
        ids('added', s.added, max) +
        ids('removed', s.removed, max) +
        ids(
          'changed',
          s.changed.map((c) => `${c.task_id} (${c.changes.join(', ')})`),
          max,
        ),
      `  re-identified ${s.reidentified.length} (removed id -> added id, same question)` +
        ids(
          'pairs',
          s.reidentified.map((r) => `${r.removed_id} -> ${r.added_id}${r.type_changed ? ' (type changed)' : ''}`),
          max,
        ),
      `  near matches to review ${s.near_matches.length}` +
        ids(
          'pairs',
          s.near_matches.map((m) => `${m.removed_id} -> ${m.added_id} (${m.similarity})`),
          max,
        ),
    );
  }
  for (const note of s.notes) lines.push(`  note: ${note}`);
  return lines.join('\n');
}

function textReport(diff: ReleaseDiff, max: number): string {
  const out = [
    `A: ${diff.a.label}  version ${diff.a.version ?? '(none)'}`,
    `B: ${diff.b.label}  version ${diff.b.version ?? '(none)'}`,
  ];
  if (diff.same_label_warning) out.push(`WARNING: ${diff.same_label_warning}`);
  for (const s of diff.splits) out.push('', splitReport(s, max));
  return `${out.join('\n')}\n`;
}

export async function run(args: string[]): Promise<number> {
  let options: Options;
  try {
    const parsed = parse(args);
    if (parsed === 'help') {
      process.stdout.write(USAGE);
      return 0;
    }
    options = parsed;
  } catch (error) {
    process.stderr.write(`${errorMessage(error)}\n\n${USAGE}`);
    return 2;
  }
  try {
    const a = await diffSide(new FolderSource(options.a));
    const b = await diffSide(new FolderSource(options.b));
    const diff = diffReleases(a, b);
    process.stdout.write(options.json ? `${JSON.stringify(diff, null, 2)}\n` : textReport(diff, options.list));
    if (options.sharedTasksOut) {
      const shared = sharedTasks(diff, a, b, options.split);
      if (shared.tasksJsonl === undefined) {
        process.stderr.write(`neither release publishes a ${options.split} answer key: no shared tasks file written\n`);
        return 1;
      }
      await writeOut(options.sharedTasksOut, shared.tasksJsonl);
      process.stderr.write(
        `wrote ${options.sharedTasksOut}: ${shared.ids.length} ${options.split} tasks both releases share unchanged ` +
          `(answer key of release ${shared.keyFrom})\n`,
      );
      if (options.predictions && options.sharedPredictionsOut) {
        const filtered = filterPredictions(readFileSync(options.predictions, 'utf8'), new Set(shared.ids));
        await writeOut(options.sharedPredictionsOut, filtered.text);
        process.stderr.write(
          `wrote ${options.sharedPredictionsOut}: ${filtered.kept} predictions kept, ${filtered.dropped} left out` +
            (filtered.unreadable.length > 0
              ? `, ${filtered.unreadable.length} line(s) without a readable task_id kept for the scorer to report (line ${filtered.unreadable[0]})`
              : '') +
            '\n',
        );
      }
    }
    return 0;
  } catch (error) {
    return exitIfRefused(error);
  }
}
