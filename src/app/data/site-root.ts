/**
 * The folder the site is served from. The build writes relative asset URLs so that one build
 * runs at a host's root or under any subpath; every built script sits in <root>/assets/, so the
 * root is the folder above this script. The dev server serves from its base.
 */
export const siteRoot = (): URL =>
  import.meta.env.DEV
    ? new URL(import.meta.env.BASE_URL, location.href)
    : new URL(/* @vite-ignore */ '../', import.meta.url);
