/**
 * Node's arguments for a worker thread of ours: it loads TypeScript the way the server does
 * (tsx), also when a test runner or the compiled test server (decision 1000) started us.
 */
export function workerExecArgv(): string[] {
  return process.execArgv.some((a) => a.includes('tsx')) ? process.execArgv : [...process.execArgv, '--import', 'tsx'];
}
