/**
 * Issue 25.13: the README gives the judge's reply format. Each row of its "Reply format" table must
 * name a prompt of the official v1.0 judge profile the site ships and list exactly the keys that
 * prompt asks the judge for; the provider lines must name where each provider's reply text is read.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../support/shared.ts';

const readme = readFileSync(path.join(projectRoot, 'README.md'), 'utf8');
const profile = JSON.parse(
  readFileSync(path.join(projectRoot, 'static-data/judge-profiles/epstein-bench-v1.0.json'), 'utf8'),
) as { prompts: Record<string, string> };

const keysOf = (json: string): string[] => [...json.matchAll(/"(\w+)":/g)].map((m) => m[1]!).sort();

/** The rows of the table after "**Reply format.**": prompt name and the reply asked for. */
function replyRows(text: string): Array<{ prompt: string; reply: string }> {
  const section = text.slice(text.indexOf('**Reply format.**'));
  const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| prompt')));
  return [...table.matchAll(/^\| `(\w+)` \|[^|]*\| `(\{.*\})` \|$/gm)].map((m) => ({ prompt: m[1]!, reply: m[2]! }));
}

describe('README: the judge reply format', () => {
  const rows = replyRows(readme);

  it('has a row for every prompt of the v1.0 profile', () => {
    expect(rows.map((r) => r.prompt).sort()).toEqual(Object.keys(profile.prompts).sort());
  });

  it.each(rows)('the $prompt row lists the keys its prompt asks for', ({ prompt, reply }) => {
    const asked = /Respond with JSON (\{.*\})\./.exec(profile.prompts[prompt]!)?.[1];
    expect(asked, `the ${prompt} template asks for JSON`).toBeDefined();
    expect(keysOf(reply)).toEqual(keysOf(asked!));
  });

  it('says where each provider’s reply text is read from', () => {
    expect(readme).toContain('`choices[0].message.content`');
    expect(readme).toMatch(/`text` of every `\{"type": "text"\}` block of `content`/);
  });
});
