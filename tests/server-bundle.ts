import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The server's entries compiled for this run (buildServerBundle, in the server and e2e global setups). */
    serverEntries: Record<EntryName, string>;
  }
}

/** The entry points compiled: `npm start`'s server and the command-line tools the tests run. */
const ENTRIES = { main: 'server/main.ts', 'cli/beds': 'server/cli/beds.ts', 'cli/device': 'server/cli/device.ts', 'cli/import': 'server/cli/import.ts', 'cli/reports': 'server/cli/reports.ts', 'cli/simulate': 'server/cli/simulate.ts' } as const;

type EntryName = keyof typeof ENTRIES;

/**
 * The worker threads' entries, compiled beside the server's: each source file that starts one
 * (`new URL('./engine-worker.ts', import.meta.url)`) is given the compiled module's address
 * instead, so a thread of the compiled server loads plain JavaScript and not, through tsx,
 * the TypeScript of some hundred modules (0.5–0.9 CPU-s a thread against ≈ 0.1).
 */
const WORKERS: Record<string, { name: string; source: string }> = {
  'server/services/engine-worker.ts': { name: 'workers/engine-worker', source: 'server/services/engine-worker.ts' },
  'server/recordings/parse-worker.ts': { name: 'workers/parse-worker', source: 'server/recordings/parse-worker.ts' },
  'server/db/sample-reader-worker.ts': { name: 'workers/sample-reader-worker', source: 'server/db/sample-reader-worker.ts' },
  // Started from the source through a CommonJS file (pglite-thread.cjs, for tsx's require hook).
  'server/db/pglite-thread.cjs': { name: 'workers/pglite-thread', source: 'server/db/pglite-thread.ts' },
};

/** The compiled server's entries by name ('main' is server/main.ts, 'cli/simulate' server/cli/simulate.ts). */
export interface ServerBundle {
  entries: Record<EntryName, string>;
  dispose(): Promise<void>;
}

/**
 * Node's arguments that run an entry: its compiled module in a test run whose global setup
 * built the bundle, else the source through tsx (the benchmarks, which use the e2e harness).
 */
export function nodeEntry(name: EntryName): string[] {
  return process.env.VITEST ? [inject('serverEntries')[name]] : ['--import', 'tsx', ENTRIES[name]];
}

/**
 * server/main.ts and the CLIs compiled once per test run, each into one ES module (decision
 * 1000), for the runs that start many real server processes: `node --import tsx server/main.ts`
 * spent about 3 of its 7.5 CPU-seconds of a start resolving and transforming some 400 modules
 * through tsx's loader, on a machine every e2e file already keeps busy. The bundle is the same
 * code: the packages stay in node_modules (external), and every `import.meta.url` keeps the
 * address of the source file it was written in, so the migrations, the engine's WebAssembly and
 * the default avatar are found where they are; the worker threads' entries are compiled too
 * (WORKERS) and started from there.
 */
export async function buildServerBundle(): Promise<ServerBundle> {
  // Inside the project (node_modules/.cache), where Node finds the external packages from it;
  // a directory of its own, as the server stage's two runs build side by side.
  const parent = path.resolve('node_modules/.cache/nocturne-server-bundle');
  await mkdir(parent, { recursive: true });
  const dir = await mkdtemp(path.join(parent, 'run-'));
  const compiledWorker = (file: string) => pathToFileURL(path.join(dir, `${WORKERS[file].name}.mjs`)).href;
  const sourceUrls: Plugin = {
    name: 'source-import-meta-url',
    setup(b) {
      b.onLoad({ filter: /\.tsx?$/ }, async (args) => {
        let text = await readFile(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return { contents: text, loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts' };
        // A worker's entry: the compiled module's address.
        text = text.replace(/new URL\('(\.\.?\/[^']+)', import\.meta\.url\)/g, (whole, rel: string) => {
          const file = path.relative(process.cwd(), path.resolve(path.dirname(args.path), rel)).split(path.sep).join('/');
          return WORKERS[file] ? `new URL(${JSON.stringify(compiledWorker(file))})` : whole;
        });
        const contents = text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href));
        return { contents, loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts' };
      });
    },
  };
  await build({
    entryPoints: Object.fromEntries([...Object.entries(ENTRIES), ...Object.values(WORKERS).map((w) => [w.name, w.source])].map(([name, file]) => [name, path.resolve(file)])),
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    // No source map: Node reads one only with --enable-source-maps, which would cost every Error's stack.
    sourcemap: false,
    plugins: [sourceUrls],
    logLevel: 'error',
  });
  const main = readFileSync(path.join(dir, 'main.mjs'), 'utf8');
  const missing = Object.keys(WORKERS).filter((file) => !main.includes(compiledWorker(file)));
  if (missing.length) throw new Error(`the compiled server does not start these workers from their compiled modules: ${missing.join(', ')}`);
  const entries = Object.fromEntries(Object.keys(ENTRIES).map((name) => [name, path.join(dir, `${name}.mjs`)])) as Record<EntryName, string>;
  return { entries, dispose: () => rm(dir, { recursive: true, force: true }) };
}
