import { expect } from 'vitest';
import { JudgeError } from '../../../../src/core/judge/errors.ts';
import { sha256Hex } from '../../../../src/core/release/sha256.ts';
import type { Sleep } from '../../../../src/core/judge/retry.ts';
import type { JudgeCall, JudgeEndpoint } from '../../../../src/core/judge/types.ts';

export const TEST_KEY = 'sk-test-SECRET-0123456789abcdefghijklmnop';
export const MODEL = 'gpt-5.5-2026-04-23';
export const SYSTEM = 'You are a precise assistant. Respond with JSON only.';

export async function cacheKey(model: string, system: string, prompt: string): Promise<string> {
  return sha256Hex(`${model}\0${system}\0${prompt}`);
}

export async function makeCall(prompt: string, taskId = 't1', model = MODEL): Promise<JudgeCall> {
  return {
    key: await cacheKey(model, SYSTEM, prompt),
    model,
    system: SYSTEM,
    prompt,
    tag: 'SCOREJUDGE',
    task_id: taskId,
  };
}

export async function makeCalls(count: number, model = MODEL): Promise<JudgeCall[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) => makeCall(`[SCOREJUDGE] prompt number ${i}`, `task-${i}`, model)),
  );
}

export function openAIEndpoint(serverUrl: string, model = MODEL): JudgeEndpoint {
  return { provider: 'openai', baseUrl: `${serverUrl}/v1`, model, apiKey: TEST_KEY };
}

export function anthropicEndpoint(serverUrl: string, model = 'claude-sonnet-4-5'): JudgeEndpoint {
  return { provider: 'anthropic', baseUrl: serverUrl, model, apiKey: TEST_KEY };
}

/** A sleep that returns at once and remembers what it was asked to wait. */
export function recordingSleep(): { sleep: Sleep; waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    sleep: async (ms, signal) => {
      waits.push(ms);
      if (signal.aborted) throw new Error('aborted');
    },
  };
}

/** The JudgeError a call fails with (fails the test when it succeeds or throws something else). */
export async function failureOf(promise: Promise<unknown>): Promise<JudgeError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(JudgeError);
    return error as JudgeError;
  }
  throw new Error('expected the call to fail');
}
