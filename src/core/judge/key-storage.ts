import { RememberedSecret, type KeyValueStorage } from '../remembered-secret.ts';
import type { JudgeProviderKind } from './types.ts';

export type { KeyValueStorage } from '../remembered-secret.ts';

/** Non-secret judge settings, kept apart from the key (they may always be remembered). */
export interface JudgeSettings {
  provider: JudgeProviderKind;
  baseUrl: string;
  model: string;
}

const KEY_ITEM = 'ebx.judge.apiKey';
const SETTINGS_ITEM = 'ebx.judge.settings';

/**
 * Where the judge API key may live: in memory by default; in storage only while the user has
 * ticked "remember", and removed as soon as they untick it or forget the key.
 */
export class JudgeKeyStore {
  private readonly key: RememberedSecret;

  constructor(private readonly storage: KeyValueStorage | undefined) {
    this.key = new RememberedSecret(storage, KEY_ITEM);
  }

  /** The remembered key, if the user chose to remember one. */
  rememberedKey(): string | undefined {
    return this.key.remembered();
  }

  /** Stores the key when `remember` is true, removes any stored key otherwise. */
  applyRemember(key: string, remember: boolean): void {
    this.key.apply(key, remember);
  }

  forget(): void {
    this.key.forget();
  }

  settings(): JudgeSettings | undefined {
    const text = this.storage?.getItem(SETTINGS_ITEM);
    if (!text) return undefined;
    try {
      const value = JSON.parse(text) as Partial<JudgeSettings>;
      if ((value.provider === 'openai' || value.provider === 'anthropic') && typeof value.baseUrl === 'string') {
        return {
          provider: value.provider,
          baseUrl: value.baseUrl,
          model: typeof value.model === 'string' ? value.model : '',
        };
      }
    } catch {
      // a damaged entry is ignored
    }
    return undefined;
  }

  saveSettings(settings: JudgeSettings): void {
    this.storage?.setItem(
      SETTINGS_ITEM,
      JSON.stringify({ provider: settings.provider, baseUrl: settings.baseUrl, model: settings.model }),
    );
  }
}
