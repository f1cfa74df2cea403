/** The Entities page's SQL against duckdb-wasm in Node. */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  entityList,
  entityTasks,
  type EntityRow,
  type EntityTask,
} from '../../../../src/core/explorer/entity-queries.ts';
import type { Sql } from '../../../../src/core/explorer/sql.ts';
import type { Question, Task } from '../../../../src/core/release/types.ts';
import { cmp, handTables, keyed, type SampleFiles, sampleTables, SETUP_TIMEOUT, task } from './explorer-db.ts';

interface ListedTask {
  task_id: string;
  split: string;
  type: string;
  question: string;
  target_entity: string | null;
}

/** A task is about an entity when provenance names it or the question holds a name or alias of 4+ letters. */
function about(entity: { name: string; aliases: string[] }, t: ListedTask): boolean {
  const needles = [entity.name, ...entity.aliases].map((a) => a.toLowerCase()).filter((a) => a.length >= 4);
  return t.target_entity === entity.name || needles.some((n) => t.question.toLowerCase().includes(n));
}

describe('entity queries on the sample release', () => {
  let sql: Sql;
  let files: SampleFiles;
  let listed: ListedTask[];

  beforeAll(async () => {
    ({ sql, files } = await sampleTables());
    const split = (name: string, questions: Question[], tasks: Task[]) => {
      const byId = new Map(tasks.map((t) => [t.task_id, t]));
      return questions.map((q) => {
        const p = byId.get(q.task_id)!.provenance;
        return {
          task_id: q.task_id,
          split: name,
          type: q.type,
          question: q.question,
          target_entity: p.target_entity ?? p.bounding_entity ?? null,
        };
      });
    };
    // In the list's order: split, then row.
    listed = [...split('dev', files.devQuestions, files.dev), ...split('full', files.fullQuestions, files.full)];
  }, SETUP_TIMEOUT);

  /** Targets win over the alias index for a name in both (the sample's targets all are). */
  function expectedList(all: boolean): EntityRow[] {
    const named = new Map<string, { kind: 'target' | 'entity'; aliases: string[]; n_docs: number }>();
    if (all)
      for (const [name, e] of Object.entries(files.entities))
        named.set(name, { kind: 'entity', aliases: e.aliases, n_docs: e.doc_ids.length });
    for (const [name, e] of Object.entries(files.targets))
      named.set(name, { kind: 'target', aliases: e.aliases, n_docs: e.doc_ids.length });
    const distinct = [...new Map(listed.map((t) => [`${t.task_id}|${t.target_entity}|${t.question}`, t])).values()];
    const rows: EntityRow[] = [...named]
      .sort((a, b) => b[1].n_docs - a[1].n_docs || cmp(a[0], b[0]))
      .map(([name, e]) => ({
        name,
        ...e,
        n_tasks: distinct.filter((t) => about({ name, aliases: e.aliases }, t)).length,
      }));
    const taskOnly = [...new Set(listed.map((t) => t.target_entity))]
      .filter((n): n is string => n !== null && !named.has(n))
      .sort(cmp);
    for (const name of taskOnly)
      rows.push({
        name,
        kind: 'task',
        aliases: [],
        n_docs: null,
        n_tasks: distinct.filter((t) => t.target_entity === name).length,
      });
    return rows;
  }

  it('lists the targets with their aliases, documents and tasks, most documents first', async () => {
    const list = await entityList(sql, false);
    expect(list).toEqual(expectedList(false));
    expect(list.every((e) => e.kind === 'target')).toBe(true);
    expect(list.some((e) => e.n_tasks > 0)).toBe(true);
  });

  it('with the alias index, still marks every target as a target with its own aliases', async () => {
    const list = await entityList(sql, true);
    expect(list).toEqual(expectedList(true));
    expect(list.filter((e) => e.kind === 'target')).toHaveLength(Object.keys(files.targets).length);
  });

  it("gives an entity's tasks, saying whether provenance or the question names it", async () => {
    const [name, target] = Object.entries(files.targets).find(([n]) => listed.some((t) => t.target_entity === n))!;
    const expected: EntityTask[] = listed
      .filter((t) => about({ name, aliases: target.aliases }, t))
      .map((t) => ({
        task_id: t.task_id,
        split: t.split,
        type: t.type,
        question: t.question,
        via: t.target_entity === name ? 'provenance' : 'question',
      }));
    const result = await entityTasks(sql, name);
    expect(result.tasks).toEqual(expected);
    expect(result.entity).toEqual({
      name,
      kind: 'target',
      aliases: target.aliases,
      n_docs: target.doc_ids.length,
      n_tasks: new Set(expected.map((t) => t.task_id)).size,
    });
    expect(await entityTasks(sql, 'nobody at all')).toEqual({ tasks: [] });
  });
});

describe('entity queries without an entity index', () => {
  let sql: Sql;

  beforeAll(async () => {
    sql = await handTables({
      splits: {
        full: keyed([
          task({
            task_id: 't1',
            question: 'Where did Ada Quill sail?',
            provenance: { generator_model: 'g', pipeline_version: 'p', target_entity: 'Ada Quill' },
          }),
          task({ task_id: 't2', question: 'Who met ada quill in May?' }),
          task({ task_id: 't3', question: 'Who is Bo?' }),
        ]),
      },
    });
  }, SETUP_TIMEOUT);

  it('lists the entities the tasks name, matching questions case-insensitively', async () => {
    expect(await entityList(sql, true)).toEqual([
      { name: 'Ada Quill', kind: 'task', aliases: [], n_docs: null, n_tasks: 2 },
    ]);
    expect(await entityTasks(sql, 'Ada Quill')).toEqual({
      entity: { name: 'Ada Quill', kind: 'task', aliases: [], n_docs: null, n_tasks: 2 },
      tasks: [
        { task_id: 't1', split: 'full', type: 'single_hop', question: 'Where did Ada Quill sail?', via: 'provenance' },
        { task_id: 't2', split: 'full', type: 'single_hop', question: 'Who met ada quill in May?', via: 'question' },
      ],
    });
  });
});
