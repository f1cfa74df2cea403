import { describe, expect, it } from 'vitest';
import { RememberedSecret, type KeyValueStorage } from '../../../src/core/remembered-secret.ts';
import { memoryStorage } from '../../support/memory-storage.ts';

describe('RememberedSecret', () => {
  it('is stored under its item only while "remember" is ticked, and removed on untick and forget', () => {
    const storage = memoryStorage();
    const token = new RememberedSecret(storage, 'ebx.source-docs.hfToken');
    token.apply('hf_secret', false);
    expect(storage.items.size).toBe(0);
    token.apply('hf_secret', true);
    expect(storage.items.get('ebx.source-docs.hfToken')).toBe('hf_secret');
    expect(token.remembered()).toBe('hf_secret');
    token.apply('hf_secret', false);
    expect(token.remembered()).toBeUndefined();
    token.apply('', true);
    expect(storage.items.size).toBe(0);
    token.apply('hf_other', true);
    token.forget();
    expect(storage.items.size).toBe(0);
  });

  it('works in memory only when storage is missing or refuses', () => {
    const refusing: KeyValueStorage = {
      getItem: () => {
        throw new Error('blocked');
      },
      setItem: () => {
        throw new Error('quota');
      },
      removeItem: () => {
        throw new Error('blocked');
      },
    };
    for (const storage of [undefined, refusing]) {
      const token = new RememberedSecret(storage, 'x');
      expect(() => token.apply('hf_a', true)).not.toThrow();
      expect(token.remembered()).toBeUndefined();
      expect(() => token.forget()).not.toThrow();
    }
  });
});
