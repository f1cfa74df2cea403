import { DEFAULT_BASE_URLS } from '../../core/judge/endpoint.ts';
import { JudgeKeyStore } from '../../core/judge/key-storage.ts';
import { DEFAULT_JUDGE_CONCURRENCY } from '../../core/judge/runner.ts';
import type { JudgeProviderKind } from '../../core/judge/types.ts';

function browserStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/**
 * The judge endpoint settings and the user's API key. The key lives in this object (memory)
 * and is written to localStorage only while "remember" is ticked.
 */
class JudgeSettingsState {
  private readonly keys = new JudgeKeyStore(browserStorage());
  provider = $state<JudgeProviderKind>('openai');
  baseUrl = $state(DEFAULT_BASE_URLS.openai!);
  apiKey = $state('');
  remember = $state(false);
  concurrency = $state(DEFAULT_JUDGE_CONCURRENCY);

  constructor() {
    const saved = this.keys.settings();
    if (saved) {
      this.provider = saved.provider;
      this.baseUrl = saved.baseUrl;
    }
    const key = this.keys.rememberedKey();
    if (key !== undefined) {
      this.apiKey = key;
      this.remember = true;
    }
  }

  setProvider(provider: JudgeProviderKind): void {
    const wasDefault = Object.values(DEFAULT_BASE_URLS).includes(this.baseUrl) || this.baseUrl === '';
    this.provider = provider;
    if (wasDefault) this.baseUrl = DEFAULT_BASE_URLS[provider]!;
    this.saveSettings();
  }

  saveSettings(): void {
    this.keys.saveSettings({ provider: this.provider, baseUrl: this.baseUrl, model: '' });
  }

  /** Called when the key or the tick changes: stores or removes the key accordingly. */
  applyRemember(): void {
    this.keys.applyRemember(this.apiKey, this.remember);
  }

  forget(): void {
    this.apiKey = '';
    this.remember = false;
    this.keys.forget();
  }
}

export const judgeSettings = new JudgeSettingsState();
