// bench:annotations' servers: the peer build in a temporary git worktree, one seeded data
// directory (the demo clinic and its simulated nights) copied for each side, and a server per side.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface Running {
  url: string;
  close(): Promise<void>;
}

/**
 * The peer commit checked out and built (web bundle) in a temporary worktree. It shares this
 * tree's node_modules and engine build: the engine has not changed since the peer (checked).
 */
export async function peerTree(commit: string): Promise<{ dir: string; remove(): Promise<void> }> {
  const repo = process.cwd();
  const engineChanged = execFileSync('git', ['diff', '--name-only', commit, '--', 'engine/assembly', 'asconfig.json']).toString().trim();
  if (engineChanged) throw new Error(`the engine changed since ${commit}; build the peer's engine too:\n${engineChanged}`);
  const dir = path.join(os.tmpdir(), `nocturne-peer-${commit}-${process.pid}`);
  execFileSync('git', ['worktree', 'add', '--detach', dir, commit], { stdio: 'ignore' });
  await symlink(path.join(repo, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  await mkdir(path.join(dir, 'engine/build'), { recursive: true });
  await cp(path.join(repo, 'engine/build'), path.join(dir, 'engine/build'), { recursive: true });
  execFileSync(process.execPath, [path.join(repo, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { cwd: dir, stdio: 'inherit' });
  return {
    dir,
    async remove() {
      execFileSync('git', ['worktree', 'remove', '--force', dir], { stdio: 'ignore' });
    },
  };
}

/** Starts `server/main.ts` of the tree at `cwd` on `dataDir` (PGlite), serving that tree's dist/. */
export async function startServer(cwd: string, dataDir: string, env: Record<string, string> = {}, startMs = 120_000): Promise<Running> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, WEB_ROOT: path.join(cwd, 'dist'), DATABASE_URL: '', SMTP_URL: '', SEED_NIGHTS: '0', REPORT_WORKER: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), startMs);
    child.stdout!.on('data', (c: Buffer) => {
      output += c.toString();
      const m = /running at (http:\/\/localhost:\d+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1].replace('localhost', '127.0.0.1'));
      }
    });
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  return {
    url,
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A data directory with the demo clinic and its simulated nights, seeded by the peer's server (then stopped). */
export async function seededDataDir(peerDir: string): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'nocturne-annotations-'));
  const seeding = await startServer(peerDir, dir, { SEED_NIGHTS: '1' }, 900_000);
  await seeding.close();
  return {
    dir,
    async remove() {
      for (const d of [dir, `${dir}-current`]) if (existsSync(d)) await rm(d, { recursive: true, force: true });
    },
  };
}
