/** The pipeline self-check: sum 1..n in the engine and compare with n(n+1)/2. */
const SELF_CHECK_N = 1000;
const SELF_CHECK_EXPECTED = (SELF_CHECK_N * (SELF_CHECK_N + 1)) / 2;

function selfCheckInput(): Float32Array {
  const data = new Float32Array(SELF_CHECK_N);
  for (let i = 0; i < SELF_CHECK_N; i++) data[i] = i + 1;
  return data;
}

export type EngineStatus =
  | { state: 'checking' }
  | { state: 'ready'; mode: 'worker' | 'main-thread'; simd: boolean; version: string }
  | { state: 'failed'; mode?: 'worker' | 'main-thread'; reason: string; got?: number };

/**
 * Starts the engine (loaded on demand, so the WebAssembly stays out of the first
 * page load), asks for its info and checks the sum. Never throws.
 */
export async function checkEngine(): Promise<EngineStatus> {
  let mode: 'worker' | 'main-thread' | undefined;
  try {
    const { getSignalEngine } = await import('../../../workers/client');
    const engine = await getSignalEngine();
    mode = engine.mode;
    const info = await engine.api.info();
    const got = await engine.api.sum(selfCheckInput());
    if (got !== SELF_CHECK_EXPECTED) return { state: 'failed', mode, reason: 'mismatch', got };
    return { state: 'ready', mode, simd: info.simd, version: info.version };
  } catch (error) {
    return { state: 'failed', mode, reason: error instanceof Error ? error.message : String(error) };
  }
}
