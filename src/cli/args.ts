/** Minimal `--flag value` / `--switch` / positional parser shared by the CLI commands. */
export interface ParsedArgs {
  positional: string[];
  flags: Map<string, string>;
  switches: Set<string>;
}

export class UsageError extends Error {}

/** `valued` names the flags that take a value; any other `--x` is a switch. */
export function parseArgs(args: readonly string[], valued: readonly string[]): ParsedArgs {
  const positional: string[] = [];
  const flags = new Map<string, string>();
  const switches = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
    if (valued.includes(name)) {
      const value = eq > 0 ? arg.slice(eq + 1) : args[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      flags.set(name, value);
    } else if (eq > 0) {
      throw new UsageError(`--${name} takes no value`);
    } else {
      switches.add(name);
    }
  }
  return { positional, flags, switches };
}

/** Refuses the first switch not in `allowed`: a mistyped option must not pass as a no-op. */
export function refuseUnknownSwitches(switches: ReadonlySet<string>, allowed: readonly string[] = []): void {
  const unknown = [...switches].find((s) => !allowed.includes(s));
  if (unknown !== undefined) throw new UsageError(`unknown option --${unknown}`);
}

/** A command's failure to start: a UsageError prints its message and the usage (exit 2); anything else is rethrown. */
export function usageExit(error: unknown, usage: string): number {
  if (error instanceof UsageError) {
    process.stderr.write(`${error.message}\n\n${usage}`);
    return 2;
  }
  throw error;
}
