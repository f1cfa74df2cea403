/**
 * The CLI as a function: `runCli(argv)` runs one command and returns its exit code (0 ok, 1
 * failed check, 2 usage; commands may define more and say so in their help). main.ts is the
 * process around it; tests call this in process.
 */
import { errorMessage } from '../core/error-message.ts';
import { fsProblem } from './files.ts';

const COMMANDS: Record<string, string> = {
  'release-check': 'check a release folder (either layout): schemas, sha256 pins, counts',
  sample: 'generate the embedded sample release from its seed',
  'build-index': 'build BM25 + dense indexes for a release folder',
  run: 'run a retriever over every task and write a TREC run or predictions',
  score: 'score predictions offline from a judge cache, or live with a key',
  validate: 'validate a submission folder (metadata, pins, predictions, rescoring)',
  compare: "compare two scores.json with the benchmark's CI tolerances",
  'check-leaderboard': 'check macro = mean(per type) and micro = count-weighted mean',
  recompute: "recompute a committed scores.json's judge-free numbers from its predictions",
  paired: 'is A really better than B? paired bootstrap difference, interval, p, per type (Holm over pairs)',
  'release-diff': 'what changed between two releases; the shared tasks to score on',
  map: "write a split's map: every task placed by its question, with labelled regions (JSON lines)",
  'task-ids': "write a release's task-id index (for static-data/releases.json)",
  'source-doc': 'print one document of the Hugging Face source by doc_id (range reads)',
  'source-check': 'check that the product can read a Hugging Face source: schema, codecs, order, costs',
  'source-locate': 'write a locator file: where each document a release refers to is in the Hugging Face source',
  audit: 'audit a release: grounding, excerpt cut-offs, pool bias per submission, spot-check labels',
  bench: 'benchmarks that print figures',
};

export interface CliCommand {
  run(args: string[]): Promise<number>;
}

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  const lines = Object.entries(COMMANDS).map(([c, d]) => `  ${c.padEnd(width)}  ${d}`);
  return `usage: npm run cli -- <command> [args]\n\ncommands:\n${lines.join('\n')}\n`;
}

async function dispatch(argv: readonly string[]): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage());
    return name ? 0 : 2;
  }
  if (!(name in COMMANDS)) {
    process.stderr.write(`unknown command: ${name}\n\n${usage()}`);
    return 2;
  }
  const mod = (await import(`./commands/${name}.ts`)) as CliCommand;
  return mod.run(args);
}

/** An error no command handled: one clear line (the stack only with EBX_DEBUG=1). */
function reportUnexpected(error: unknown): void {
  const err = error as (Error & { code?: string; path?: string }) | undefined;
  let text = errorMessage(error);
  if (err instanceof Error && typeof err.code === 'string' && typeof err.path === 'string')
    text = `${err.path} is ${fsProblem(err)} (${err.code})`;
  process.stderr.write(`error: ${text}\n`);
  if (process.env['EBX_DEBUG'] === '1' && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
  else process.stderr.write('(set EBX_DEBUG=1 to see where it happened)\n');
}

/** Runs one command; an error no command handled is reported on stderr and exits 1. */
export async function runCli(argv: readonly string[]): Promise<number> {
  try {
    return await dispatch(argv);
  } catch (error) {
    reportUnexpected(error);
    return 1;
  }
}
