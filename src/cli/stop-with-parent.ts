/**
 * Ends a long-running command (npm start's server) when it is told to stop or when the process
 * that started it goes away: `kill <pid of npm start>` ends npm and its shell, and a server left
 * behind would keep the port and keep serving an old build.
 */
export function stopWithParent(stop: () => Promise<void>, pollMs = 1000): void {
  const parent = process.ppid;
  let stopping = false;
  const end = (code: number) => {
    if (stopping) return;
    stopping = true;
    void stop().finally(() => process.exit(code));
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => end(0));
  // An orphan is adopted by init or a subreaper: its parent id changes.
  setInterval(() => {
    if (process.ppid !== parent) end(0);
  }, pollMs);
}
