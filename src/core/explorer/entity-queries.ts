import type { Sql } from './sql.ts';

/**
 * A name in both targets.json and the alias index is a target, with the target's aliases and
 * documents ('target' > 'entity', so the target row is the arg_max).
 */
const TARGET_WINS = 'max(kind) AS kind, arg_max(aliases_json, kind) AS aliases_json, arg_max(n_docs, kind) AS n_docs';

export interface EntityRow {
  name: string;
  kind: 'target' | 'entity' | 'task';
  aliases: string[];
  n_docs: number | null;
  n_tasks: number;
}

/**
 * Targets (and the alias index when `all`), with the tasks about each: provenance names them
 * (target_entity / bounding_entity, kept in tasks.target_entity) or the question mentions an alias.
 * Releases without targets.json still list the entities their tasks name.
 */
export async function entityList(sql: Sql, all: boolean): Promise<EntityRow[]> {
  const rows = await sql.all<{ name: string; kind: 'target' | 'entity'; aliases_json: string; n_docs: number }>(
    `SELECT name, ${TARGET_WINS} FROM entities ${all ? '' : "WHERE kind = 'target'"}
     GROUP BY name ORDER BY n_docs DESC, name`,
  );
  const named = await sql.all<{ name: string }>(
    `SELECT DISTINCT target_entity AS name FROM tasks WHERE target_entity IS NOT NULL ORDER BY 1`,
  );
  const out: EntityRow[] = rows.map((r) => ({
    name: r.name,
    kind: r.kind === 'entity' ? 'entity' : 'target',
    aliases: JSON.parse(r.aliases_json) as string[],
    n_docs: r.n_docs,
    n_tasks: 0,
  }));
  const known = new Set(out.map((e) => e.name));
  for (const n of named)
    if (!known.has(n.name)) out.push({ name: n.name, kind: 'task', aliases: [], n_docs: null, n_tasks: 0 });
  const questions = await sql.all<{ task_id: string; target_entity: string | null; question: string }>(
    `SELECT DISTINCT task_id, target_entity, question FROM tasks`,
  );
  for (const e of out) e.n_tasks = tasksAbout(e, questions).length;
  return out;
}

function tasksAbout<T extends { target_entity: string | null; question: string }>(
  e: Pick<EntityRow, 'name' | 'aliases'>,
  tasks: readonly T[],
): T[] {
  const needles = [e.name, ...e.aliases].map((a) => a.toLowerCase()).filter((a) => a.length >= 4);
  return tasks.filter((t) => t.target_entity === e.name || needles.some((n) => t.question.toLowerCase().includes(n)));
}

export interface EntityTask {
  task_id: string;
  split: string;
  type: string;
  question: string;
  via: 'provenance' | 'question';
}

export async function entityTasks(sql: Sql, name: string): Promise<{ entity?: EntityRow; tasks: EntityTask[] }> {
  const [row] = await sql.all<{ name: string; kind: string; aliases_json: string; n_docs: number }>(
    `SELECT name, ${TARGET_WINS} FROM entities WHERE name = ? GROUP BY name`,
    [name],
  );
  const entity: EntityRow = row
    ? {
        name,
        kind: row.kind === 'entity' ? 'entity' : 'target',
        aliases: JSON.parse(row.aliases_json) as string[],
        n_docs: row.n_docs,
        n_tasks: 0,
      }
    : { name, kind: 'task', aliases: [], n_docs: null, n_tasks: 0 };
  const all = await sql.all<{
    task_id: string;
    split: string;
    type: string;
    question: string;
    target_entity: string | null;
  }>(`SELECT task_id, split, type, question, target_entity FROM tasks ORDER BY split, row_no`);
  const tasks = tasksAbout(entity, all).map((t) => ({
    task_id: t.task_id,
    split: t.split,
    type: t.type,
    question: t.question,
    via: t.target_entity === name ? ('provenance' as const) : ('question' as const),
  }));
  entity.n_tasks = new Set(tasks.map((t) => t.task_id)).size;
  if (!row && tasks.length === 0) return { tasks };
  return { entity, tasks };
}
