/**
 * Node's arguments for a worker thread of ours starting at `entry`: one written in TypeScript
 * (or pglite-thread.cjs, which requires it) loads it the way the server does (tsx), also when a
 * test runner started us; a compiled one (the test runs' compiled server, decision 1000) needs
 * no loader.
 */
export function workerExecArgv(entry: string | URL): string[] {
  const file = entry instanceof URL ? entry.pathname : new URL(entry).pathname;
  const typescript = file.endsWith('.ts') || file.endsWith('.cjs');
  if (!typescript || process.execArgv.some((a) => a.includes('tsx'))) return process.execArgv;
  return [...process.execArgv, '--import', 'tsx'];
}
