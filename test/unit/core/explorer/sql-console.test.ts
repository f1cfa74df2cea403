/**
 * The SQL console against real DuckDB (duckdb-wasm's Node build, the engine the data worker
 * runs): through the explorer service on the sample release, every way a query could change the
 * release's tables, read a file or reach the network is tried and refused, and the release is
 * the same afterwards. Plus the parts that need no engine: error positions, cells, the wrapper.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FolderSource } from '../../../../src/adapters/node/folder-source.ts';
import { createExplorerData } from '../../../../src/core/explorer/service.ts';
import {
  consoleError,
  refusalOf,
  wrapQuery,
  type ConsoleFailure,
  type ConsoleOutcome,
  type ConsoleResult,
} from '../../../../src/core/explorer/sql-console.ts';
import { startNodeDuckDb } from '../../../support/node-duckdb.ts';
import { startNodeSql } from '../../../support/node-sql.ts';
import { sampleDir, SETUP_TIMEOUT } from './explorer-db.ts';

function result(outcome: ConsoleOutcome): ConsoleResult {
  if (!outcome.ok) throw new Error(`expected rows, got ${outcome.kind}: ${outcome.message}`);
  return outcome;
}
function failure(outcome: ConsoleOutcome): ConsoleFailure {
  if (outcome.ok) throw new Error(`expected a failure, got ${outcome.rows.length} rows`);
  return outcome;
}

// The browser gives the console a database of its own (so that Cancel can end it); both ways hold.
describe.each([
  ['on a connection of the release database', false],
  ['on a database of its own, filled with copies', true],
])('the SQL console over the sample release (real DuckDB), %s', (_, ownConsole) => {
  let explorer: ReturnType<typeof createExplorerData>;
  let server: Server;
  let requests = 0;
  let url = '';
  const secretDir = mkdtempSync(path.join(tmpdir(), 'sql-console-'));
  const secret = path.join(secretDir, 'secret.csv');
  writeFileSync(secret, 'a,b\n1,2\n');

  beforeAll(async () => {
    server = createServer((_req, res) => {
      requests++;
      res.end('a,b\n1,2\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/data.csv`;
    explorer = createExplorerData(() => startNodeDuckDb({ ownConsole }), 'http://localhost/');
    const files = new FolderSource(sampleDir).list().map((file) => ({
      path: `sample/${file}`,
      file: new Blob([new Uint8Array(readFileSync(path.join(sampleDir, file)))]),
    }));
    let completed!: () => void;
    const done = new Promise<void>((resolve) => (completed = resolve));
    const outcome = await explorer.load({ kind: 'files', label: 'sample', files }, { completed });
    if (!outcome.ok) throw new Error(`the sample did not load: ${outcome.error}`);
    if (!outcome.summary.complete) {
      void explorer.completeLoad();
      await done;
    }
  }, SETUP_TIMEOUT);

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('lists the release tables with their columns and row counts', async () => {
    const tables = await explorer.sqlTables();
    const tasks = tables.find((t) => t.name === 'tasks')!;
    expect(tasks.rows).toBe(175);
    expect(tasks.columns.map((c) => c.name)).toEqual(expect.arrayContaining(['task_id', 'split', 'type', 'question']));
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['gold', 'rejected', 'docs']));
  });

  it('answers a query, with typed columns and plain cells', async () => {
    const r = result(await explorer.sqlQuery('SELECT split, count(*) AS n FROM tasks GROUP BY split ORDER BY split;'));
    expect(r.columns.map((c) => c.name)).toEqual(['split', 'n']);
    expect(r.rows).toEqual([
      ['dev', 25],
      ['full', 150],
    ]);
    expect(r.truncated).toBe(false);
  });

  it('keeps at most the row cap and says so', async () => {
    const r = result(await explorer.sqlQuery('SELECT * FROM range(50)', 10));
    expect(r.rows.length).toBe(10);
    expect(r.truncated).toBe(true);
  });

  it('shows lists, structs, timestamps, decimals and bytes as text', async () => {
    const r = result(
      await explorer.sqlQuery(
        "SELECT [1, 2] AS l, {'a': 1} AS s, TIMESTAMP '2024-01-02 03:04:05' AS ts, 1.50::DECIMAL(4,2) AS d, 'x'::BLOB AS b, 9007199254740993::BIGINT AS big",
      ),
    );
    expect(r.rows[0]).toEqual(['[1,2]', '{"a":1}', '2024-01-02T03:04:05.000Z', '1.50', '\\x78', '9007199254740993']);
  });

  const writes = [
    'DROP TABLE tasks',
    'DELETE FROM tasks',
    "INSERT INTO tasks (task_id) VALUES ('x')",
    "UPDATE tasks SET question = 'x'",
    'CREATE TABLE t AS SELECT 1',
    'ALTER TABLE tasks RENAME TO t2',
    "COPY tasks TO 'out.csv'",
    'SET enable_external_access = true',
    "ATTACH ':memory:' AS other",
    'LOAD httpfs',
    '  /* a comment first */ drop table tasks',
  ];
  for (const query of writes)
    it(`refuses ${query.trim()} before it reaches DuckDB, saying why`, async () => {
      const f = failure(await explorer.sqlQuery(query));
      expect(f.kind).toBe('refused');
      expect(f.message).toMatch(/read only/);
    });

  // Past the first-word check: only DuckDB's parser and settings stop these.
  const smuggled = [
    ['a second statement after ";"', 'SELECT 1; DROP TABLE tasks', /one statement at a time/],
    [
      'a statement closing the wrapper',
      'SELECT 1) AS x; DROP TABLE tasks; SELECT * FROM (SELECT 1',
      /one statement at a time/,
    ],
    ['a write inside a CTE', 'WITH x AS (DELETE FROM tasks RETURNING *) SELECT * FROM x', /.+/],
    ['a write through query()', "SELECT * FROM query('DROP TABLE tasks')", /single SELECT/],
    ['a write in parentheses', '(DROP TABLE tasks)', /.+/],
  ] as const;
  for (const [what, query, message] of smuggled)
    it(`refuses ${what}`, async () => {
      const f = failure(await explorer.sqlQuery(query));
      expect(f.message).toMatch(message);
    });

  it('cannot read a file', async () => {
    for (const query of [
      `SELECT * FROM read_csv('${secret}')`,
      `SELECT * FROM read_text('${secret}')`,
      `SELECT * FROM '${secret}'`,
      `SELECT * FROM glob('${secretDir}/*')`,
    ]) {
      const f = failure(await explorer.sqlQuery(query));
      expect(f.kind, query).toBe('refused');
      expect(f.message).toMatch(/cannot read files or reach the network/);
    }
  });

  it('cannot reach the network', async () => {
    for (const query of [
      `SELECT * FROM read_csv('${url}')`,
      `SELECT * FROM read_parquet('${url}')`,
      `SELECT * FROM read_json('${url}')`,
    ]) {
      const f = failure(await explorer.sqlQuery(query));
      expect(f.kind, query).toBe('refused');
      expect(f.message).toMatch(/cannot read files or reach the network/);
    }
    expect(requests).toBe(0);
  });

  it('leaves every table as it was', async () => {
    const r = result(await explorer.sqlQuery('SELECT count(*) FROM tasks'));
    expect(r.rows).toEqual([[175]]);
    expect((await explorer.sqlTables()).map((t) => t.name)).not.toContain('t');
  });

  it("gives DuckDB's error with its line and column in the user's text", async () => {
    const f = failure(await explorer.sqlQuery('SELECT task_id,\n  nope\nFROM tasks'));
    expect(f.kind).toBe('error');
    expect(f.message).toMatch(/Referenced column "nope" not found/);
    expect([f.line, f.column]).toEqual([2, 3]);
    expect(f.message).toContain('LINE 2:   nope\n          ^');
  });
});

describe("DuckDB's own layers, without the first-word check", () => {
  it('refuses writes and settings in the wrapper, and a second statement, leaving the table', async () => {
    const session = await startNodeSql();
    await session.exec('CREATE TABLE tasks AS SELECT 1 AS id');
    const engine = await session.console();
    for (const query of [
      'DROP TABLE tasks',
      'INSERT INTO tasks VALUES (2)',
      'SET enable_external_access = true',
      'PRAGMA enable_profiling',
      "ATTACH ':memory:' AS other",
    ])
      await expect(engine.query(wrapQuery(query, 10)), query).rejects.toThrow(/Parser Error/);
    await expect(engine.query('SELECT 1; DROP TABLE tasks')).rejects.toThrow(/multiple statements/);
    await expect(engine.query('SET enable_external_access = true')).rejects.toThrow(
      /Cannot change enable_external_access/,
    );
    expect((await engine.query('SELECT count(*)::INT AS n FROM tasks')).toArray()[0]!.toJSON()).toEqual({ n: 1 });
  });
});

describe('the SQL console without an engine', () => {
  it('names the statement it refuses', () => {
    expect(refusalOf('drop table tasks')).toMatch(/cannot drop the release's tables \(the query starts with DROP\)/);
    expect(refusalOf('-- note\nSELECT 1')).toBeUndefined();
    expect(refusalOf('   ')).toMatch(/Write a query first/);
    expect(refusalOf('x'.repeat(20_001))).toMatch(/up to 20000/);
  });

  it('wraps one statement with the row limit, the query on its own lines', () => {
    expect(wrapQuery('SELECT 1 -- c\n;  ', 5)).toBe('SELECT * FROM (\nSELECT 1 -- c\n) AS query_result LIMIT 6');
  });

  it("maps a parser error to the user's line, once", () => {
    const f = consoleError(
      new Error(
        'Parser Error: syntax error at or near "1"\n\nLINE 2: selec 1\n              ^\n\nLINE 2: selec 1\n              ^',
      ),
      'selec 1',
    );
    expect(f.message).toBe('Parser Error: syntax error at or near "1"\n\nLINE 1: selec 1\n              ^');
    expect([f.line, f.column]).toEqual([1, 7]);
  });
});
