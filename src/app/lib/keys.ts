/**
 * Page-wide key shortcuts (j/k, /, Esc…) must not fire while the user types: a key typed into a
 * text box, a list box or an editable region belongs to that field.
 */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || typeof target !== 'object' || !('tagName' in target)) return false;
  const el = target as { tagName: unknown; isContentEditable?: unknown };
  if (el.isContentEditable === true) return true;
  return el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT';
}

/** A shortcut key held with Ctrl, Cmd or Alt is the browser's or the system's, not the page's. */
export function hasCommandModifier(e: Pick<KeyboardEvent, 'metaKey' | 'ctrlKey' | 'altKey'>): boolean {
  return e.metaKey || e.ctrlKey || e.altKey;
}

/** A key the page may take as its own shortcut: not typed into a field, not a modified key. */
export function isPageShortcut(e: Pick<KeyboardEvent, 'target' | 'metaKey' | 'ctrlKey' | 'altKey'>): boolean {
  return !isTypingTarget(e.target) && !hasCommandModifier(e);
}
