/**
 * Bounds on a judge profile's numbers. A release's profile is untrusted: 3·10^7 bootstrap
 * iterations kept the Score page busy for minutes with no result. The benchmark's own profile
 * uses 1,000 iterations and a 3-citation gate; these limits leave room for any real profile.
 */
export const MAX_BOOTSTRAP_ITERATIONS = 100_000;
export const MAX_GATE_CITATIONS = 100;

/** The wording of each bound in validation errors: which limit a value broke. */
export const PROFILE_LIMIT_NOTES = {
  iterations: `the limit on bootstrap iterations is ${MAX_BOOTSTRAP_ITERATIONS.toLocaleString('en')}; the benchmark uses 1,000`,
  gate: `the limit on the citation gate is ${MAX_GATE_CITATIONS}; the benchmark uses 3`,
} as const;
