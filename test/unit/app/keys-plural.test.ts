import { describe, expect, it } from 'vitest';
import { hasCommandModifier, isPageShortcut, isTypingTarget } from '../../../src/app/lib/keys.ts';
import { countOf, plural } from '../../../src/app/lib/plural.ts';

describe('page shortcuts', () => {
  const el = (tagName: string, isContentEditable = false) => ({ tagName, isContentEditable }) as unknown as EventTarget;
  const key = (target: EventTarget | null, mods: Partial<Record<'metaKey' | 'ctrlKey' | 'altKey', boolean>> = {}) => ({
    target,
    metaKey: false,
    ctrlKey: false,
    altKey: false,
    ...mods,
  });
  it('leaves keys typed into a text box, a text area, a list box or an editable region to the field', () => {
    for (const tag of ['INPUT', 'TEXTAREA', 'SELECT']) expect(isTypingTarget(el(tag)), tag).toBe(true);
    expect(isTypingTarget(el('DIV', true))).toBe(true);
    expect(isPageShortcut(key(el('INPUT')))).toBe(false);
    expect(isPageShortcut(key(el('DIV', true)))).toBe(false);
  });
  it('takes keys on the page, a link or a button', () => {
    for (const tag of ['BODY', 'A', 'BUTTON', 'DIV']) expect(isPageShortcut(key(el(tag))), tag).toBe(true);
    expect(isPageShortcut(key(null))).toBe(true);
    expect(isTypingTarget(el('div'))).toBe(false);
  });
  it('leaves keys held with Ctrl, Cmd or Alt to the browser', () => {
    for (const mod of ['metaKey', 'ctrlKey', 'altKey'] as const) {
      expect(hasCommandModifier(key(null, { [mod]: true })), mod).toBe(true);
      expect(isPageShortcut(key(el('BODY'), { [mod]: true })), mod).toBe(false);
    }
  });
});

describe('counts with their noun', () => {
  it('says one in the singular and every other count in the plural', () => {
    expect(countOf(1, 'task')).toBe('1 task');
    expect(countOf(0, 'task')).toBe('0 tasks');
    expect(countOf(2, 'task')).toBe('2 tasks');
    expect(countOf(1204, 'task')).toBe('1,204 tasks');
    expect(countOf(1, 'query', 'queries')).toBe('1 query');
    expect(countOf(3, 'query', 'queries')).toBe('3 queries');
    expect(plural(1, 'premise check')).toBe('premise check');
    expect(plural(5, 'premise check')).toBe('premise checks');
  });
});
