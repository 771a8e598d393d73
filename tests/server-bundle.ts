import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

/**
 * server/main.ts compiled once per test run into one ES module (decision 1000), for the runs
 * that start many real server processes: `node --import tsx server/main.ts` spent about 3 of
 * its 7.5 CPU-seconds of a start resolving and transforming some 400 modules through tsx's
 * loader, on a machine every e2e file already keeps busy. The bundle is the same code: the
 * packages stay in node_modules (external), and every `import.meta.url` keeps the address of
 * the source file it was written in, so the migrations, the engine's WebAssembly, the default
 * avatar and the worker threads' entry points (engine-worker.ts, parse-worker.ts, run through
 * tsx as from source) are found where they are.
 */
export async function buildServerBundle(): Promise<{ file: string; dispose(): Promise<void> }> {
  // Inside the project (node_modules/.cache), where Node finds the external packages from it;
  // a directory of its own, as the server stage's two runs build side by side.
  const parent = path.resolve('node_modules/.cache/nocturne-server-bundle');
  await mkdir(parent, { recursive: true });
  const dir = await mkdtemp(path.join(parent, 'run-'));
  const outfile = path.join(dir, 'server-main.mjs');
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
    entryPoints: [path.resolve('server/main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'inline',
    plugins: [sourceUrls],
    logLevel: 'error',
  });
  return { file: outfile, dispose: () => rm(dir, { recursive: true, force: true }) };
}
