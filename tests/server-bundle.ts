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
const ENTRIES = { main: 'server/main.ts', 'cli/device': 'server/cli/device.ts', 'cli/import': 'server/cli/import.ts', 'cli/reports': 'server/cli/reports.ts', 'cli/simulate': 'server/cli/simulate.ts' } as const;

type EntryName = keyof typeof ENTRIES;

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
 * address of the source file it was written in, so the migrations, the engine's WebAssembly,
 * the default avatar and the worker threads' entry points (engine-worker.ts, parse-worker.ts,
 * run through tsx as from source) are found where they are.
 */
export async function buildServerBundle(): Promise<ServerBundle> {
  // Inside the project (node_modules/.cache), where Node finds the external packages from it;
  // a directory of its own, as the server stage's two runs build side by side.
  const parent = path.resolve('node_modules/.cache/nocturne-server-bundle');
  await mkdir(parent, { recursive: true });
  const dir = await mkdtemp(path.join(parent, 'run-'));
  const sourceUrls: Plugin = {
    name: 'source-import-meta-url',
    setup(b) {
      b.onLoad({ filter: /\.tsx?$/ }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        const contents = text.includes('import.meta.url') ? text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)) : text;
        return { contents, loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts' };
      });
    },
  };
  await build({
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, path.resolve(file)])),
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
  const entries = Object.fromEntries(Object.keys(ENTRIES).map((name) => [name, path.join(dir, `${name}.mjs`)])) as Record<EntryName, string>;
  return { entries, dispose: () => rm(dir, { recursive: true, force: true }) };
}
