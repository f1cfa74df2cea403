import { url } from '../state/url.svelte.ts';

/** Adds or removes one value of a repeated URL parameter (a facet: OR within it); `also` changes other parameters in the same step. */
export function toggleParam(name: string, value: string, also: Record<string, string | undefined> = {}): void {
  const current = url.getAll(name);
  url.update({ ...also, [name]: current.includes(value) ? current.filter((v) => v !== value) : [...current, value] });
}
