import { describe, expect, it } from 'vitest';
import { JudgeKeyStore } from '../../../../src/core/judge/key-storage.ts';
import { memoryStorage } from '../../../support/memory-storage.ts';

describe('JudgeKeyStore', () => {
  it('stores the key only while "remember" is ticked, and keeps settings apart from it', () => {
    const storage = memoryStorage();
    const store = new JudgeKeyStore(storage);
    store.applyRemember('sk-secret', false);
    expect([...storage.items.values()].join()).not.toContain('sk-secret');
    store.applyRemember('sk-secret', true);
    expect(store.rememberedKey()).toBe('sk-secret');
    store.saveSettings({ provider: 'anthropic', baseUrl: 'https://api.anthropic.com', model: 'm' });
    expect(store.settings()).toEqual({ provider: 'anthropic', baseUrl: 'https://api.anthropic.com', model: 'm' });
    expect(storage.items.get('ebx.judge.settings')).not.toContain('sk-secret');
    store.applyRemember('sk-secret', false);
    expect(store.rememberedKey()).toBeUndefined();
    store.applyRemember('sk-other', true);
    store.forget();
    expect([...storage.items.values()].join()).not.toContain('sk-');
  });

  it('ignores damaged settings and works without storage', () => {
    const storage = memoryStorage();
    storage.setItem('ebx.judge.settings', '{not json');
    expect(new JudgeKeyStore(storage).settings()).toBeUndefined();
    const none = new JudgeKeyStore(undefined);
    none.applyRemember('k', true);
    expect(none.rememberedKey()).toBeUndefined();
  });
});
