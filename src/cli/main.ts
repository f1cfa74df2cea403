/**
 * `npm run cli -- <command> [args]`: one Node entry over src/core. Each command lives in
 * ./commands/<name>.ts and exports `run(args): Promise<number>` returning the exit code.
 * Everything written to the terminal is neutralised first (terminal.ts).
 */
import { runCli } from './cli.ts';
import { installTerminalGuard } from './terminal.ts';

installTerminalGuard();
void runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
