/**
 * Minimal readers for the two release files scoring needs, tasks.jsonl and judge-profile.json,
 * checking only the fields the scorer reads (the full release schemas live in core/release).
 */
import { TASK_TYPES } from '../release/types.ts';
import { MAX_BOOTSTRAP_ITERATIONS, MAX_GATE_CITATIONS, PROFILE_LIMIT_NOTES } from '../release/profile-limits.ts';
import type { GoldItem, JudgeProfile, Task, TaskType } from '../release/types.ts';
import { JsonlLineSplitter } from '../python/text-lines.ts';

export class ScoringInputError extends Error {
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(
      `${file}: ${problems.length} problem(s)\n${problems
        .slice(0, 20)
        .map((p) => `  ${p}`)
        .join('\n')}`,
    );
  }
}

const TYPE_SET: ReadonlySet<string> = new Set(TASK_TYPES);

function isStringList(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

function checkTask(v: unknown, where: string, problems: string[]): Task | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    problems.push(`${where}: expected a JSON object`);
    return null;
  }
  const r = v as Record<string, unknown>;
  const before = problems.length;
  if (typeof r.task_id !== 'string') problems.push(`${where}, field task_id: expected a string`);
  if (typeof r.type !== 'string' || !TYPE_SET.has(r.type))
    problems.push(`${where}, field type: expected one of ${TASK_TYPES.join(', ')}, found ${JSON.stringify(r.type)}`);
  if (typeof r.question !== 'string') problems.push(`${where}, field question: expected a string`);
  if (r.answer !== undefined && r.answer !== null && typeof r.answer !== 'string')
    problems.push(`${where}, field answer: expected a string or null`);
  if (r.false_element !== undefined && r.false_element !== null && typeof r.false_element !== 'string')
    problems.push(`${where}, field false_element: expected a string`);
  if (r.gold_docs !== undefined && r.gold_docs !== null && !isStringList(r.gold_docs))
    problems.push(`${where}, field gold_docs: expected a list of strings`);
  const listType = r.type === 'aggregation' || r.type === 'dossier';
  if (r.items !== undefined && r.items !== null) {
    const ok =
      Array.isArray(r.items) &&
      r.items.every(
        (i: unknown) =>
          typeof i === 'object' &&
          i !== null &&
          typeof (i as GoldItem).item === 'string' &&
          ((i as GoldItem).doc_ids == null || isStringList((i as GoldItem).doc_ids)),
      );
    if (!ok) problems.push(`${where}, field items: expected a list of {item: string, doc_ids: [string]}`);
  } else if (listType) {
    problems.push(`${where}, field items: expected the gold items of a ${String(r.type)} task, found none`);
  }
  if (problems.length > before) return null;
  return {
    ...(r as unknown as Task),
    type: r.type as TaskType,
    answer: (r.answer as string | null | undefined) ?? null,
    items: (r.items as GoldItem[] | null | undefined) ?? null,
    gold_docs: (r.gold_docs as string[] | null | undefined) ?? [],
  };
}

/** tasks.jsonl text -> tasks in file order; throws ScoringInputError listing the problems. */
export function parseTasksJsonl(text: string, file = 'tasks.jsonl'): Task[] {
  const tasks: Task[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  const splitter = new JsonlLineSplitter(64 * 1024 * 1024, (e) => {
    if (e.overlong !== undefined) {
      problems.push(`line ${e.line}: line too long (${e.overlong} characters)`);
      return;
    }
    // a release file may carry an editor's BOM (the release loader accepts it too)
    const text = e.line === 1 && e.text.charCodeAt(0) === 0xfeff ? e.text.slice(1) : e.text;
    if (text.trim() === '') return;
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch (error) {
      problems.push(`line ${e.line}: invalid JSON (${(error as Error).message})`);
      return;
    }
    const task = checkTask(v, `line ${e.line}`, problems);
    if (!task) return;
    if (seen.has(task.task_id))
      problems.push(`line ${e.line}, field task_id: duplicate ${JSON.stringify(task.task_id)}`);
    seen.add(task.task_id);
    tasks.push(task);
  });
  splitter.push(text);
  splitter.end();
  if (problems.length) throw new ScoringInputError(file, problems);
  return tasks;
}

/** judge-profile.json value -> JudgeProfile; throws ScoringInputError naming each bad field. */
export function parseJudgeProfile(value: unknown, file = 'judge-profile.json'): JudgeProfile {
  const problems: string[] = [];
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ScoringInputError(file, ['expected a JSON object']);
  const r = value as Record<string, unknown>;
  for (const key of ['judge_model', 'judge_prompt_version', 'system'] as const) {
    if (typeof r[key] !== 'string') problems.push(`field ${key}: expected a string`);
  }
  if (!Number.isInteger(r.gate_max_citations) || (r.gate_max_citations as number) < 0)
    problems.push('field gate_max_citations: expected a non-negative integer');
  else if ((r.gate_max_citations as number) > MAX_GATE_CITATIONS)
    problems.push(
      `field gate_max_citations: ${String(r.gate_max_citations)} is too large (${PROFILE_LIMIT_NOTES.gate})`,
    );
  if (typeof r.judge_error_abort_ratio !== 'number') problems.push('field judge_error_abort_ratio: expected a number');
  const prompts = r.prompts as Record<string, unknown> | undefined;
  for (const key of ['answer', 'aggregation', 'premise_id']) {
    if (typeof prompts?.[key] !== 'string') problems.push(`field prompts.${key}: expected a string template`);
  }
  const b = r.bootstrap as Record<string, unknown> | undefined;
  if (!Number.isInteger(b?.iterations) || (b!.iterations as number) < 1)
    problems.push('field bootstrap.iterations: expected a positive integer');
  else if ((b!.iterations as number) > MAX_BOOTSTRAP_ITERATIONS)
    problems.push(
      `field bootstrap.iterations: ${String(b!.iterations)} is too many (${PROFILE_LIMIT_NOTES.iterations})`,
    );
  if (!Number.isInteger(b?.seed) || (b!.seed as number) < 0)
    problems.push('field bootstrap.seed: expected a non-negative integer');
  const p = b?.percentiles;
  if (!Array.isArray(p) || p.length !== 2 || !p.every((x) => typeof x === 'number' && x >= 0 && x <= 100)) {
    problems.push('field bootstrap.percentiles: expected two numbers in [0, 100]');
  }
  if (problems.length) throw new ScoringInputError(file, problems);
  return value as JudgeProfile;
}
