/** The SQL console's limits and example queries (no engine code, so the page can import them). */

export const CONSOLE_ROW_CAP = 10_000;
export const CONSOLE_MAX_ROW_CAP = 100_000;
export const QUERY_MAX_CHARS = 20_000;

/** Queries to start from, over the explorer's tables (src/core/explorer/tables.ts). */
export const EXAMPLE_QUERIES: readonly { title: string; sql: string }[] = [
  {
    title: 'Tasks per split and type',
    sql: 'SELECT split, type, count(*) AS tasks\nFROM tasks\nGROUP BY ALL\nORDER BY split, tasks DESC',
  },
  {
    title: 'Tasks with the most gold documents',
    sql: 'SELECT task_id, split, count(*) AS gold_docs\nFROM gold\nGROUP BY ALL\nORDER BY gold_docs DESC\nLIMIT 20',
  },
  {
    title: 'Rejections by reason',
    sql: 'SELECT reason, count(*) AS candidates\nFROM rejected\nGROUP BY reason\nORDER BY candidates DESC',
  },
  {
    title: 'Documents cited as gold most often',
    sql: 'SELECT doc_id, count(DISTINCT task_id) AS tasks\nFROM gold\nGROUP BY doc_id\nORDER BY tasks DESC\nLIMIT 20',
  },
];
