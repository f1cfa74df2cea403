import { url } from '../state/url.svelte.ts';

/** Adds or removes one value of a repeated URL parameter (a facet: OR within it). */
export function toggleParam(name: string, value: string): void {
  const current = url.getAll(name);
  url.update({ [name]: current.includes(value) ? current.filter((v) => v !== value) : [...current, value] });
}
