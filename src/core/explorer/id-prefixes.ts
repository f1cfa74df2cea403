/**
 * A test for task ids starting with one of the prefixes (of any lengths): a selection on the Map
 * page (`sel=`), wherever a list of tasks honours it. Absent prefixes keep every id; an empty list keeps none.
 */
export function idPrefixTest(prefixes: readonly string[] | undefined): (taskId: string) => boolean {
  if (!prefixes) return () => true;
  const set = new Set(prefixes);
  const lengths = [...new Set(prefixes.map((p) => p.length))];
  return (taskId) => lengths.some((n) => set.has(taskId.slice(0, n)));
}
