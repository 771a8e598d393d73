// The bench server of bench/load-server.ts in a child process of its own (the demo clinic and a
// 10-h night, on PGlite or PostgreSQL), started the same way by every load benchmark: its stdout
// kept as lines (it answers commands on stdin with JSON lines), its first JSON line
// (port, token, patient, night) parsed.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('./', import.meta.url));

export interface LoadChild<Info> {
  child: ChildProcess;
  lines: string[];
  info: Info;
}

/** Starts load-server.ts with `env` added to ours; resolves once it printed `{"port":…}`. */
export async function startLoadServer<Info>(kind: 'pglite' | 'postgres', env: NodeJS.ProcessEnv = {}): Promise<LoadChild<Info>> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(dir, 'load-server.ts'), kind], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  const lines: string[] = [];
  let rest = '';
  const info = await new Promise<Info>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const parts = (rest + chunk.toString()).split('\n');
      rest = parts.pop()!;
      lines.push(...parts);
      const line = parts.find((l) => l.startsWith('{"port"'));
      if (line) resolve(JSON.parse(line) as Info);
    });
    child.on('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { child, lines, info };
}

/** Stops the child with SIGTERM (it closes its server and database) and waits for it to exit. */
export async function stopLoadServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
