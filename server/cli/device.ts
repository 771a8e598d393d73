// `npm run device -- --device NCT0001 [--speed 1] [--profile moderate_osa] [--server URL] [--devices N] [--minutes 480] [--key KEY]`
// A command for a person at a terminal: it prints with console (only the running server logs through pino, server/log.ts).
import { readConfig } from '../config';
import { demoKeysFile, readDemoKey } from '../live/demo-keys';
import { DeviceClient, liveSource } from '../live/device-client';
import { FRAME_INTERVAL_MS } from '../../contract/live-protocol';
import { PROFILES, simulateNight } from '../simulator';
import type { ProfileName } from '../simulator/types';
import { parseArgs, UsageError } from './args';

const USAGE = `usage: npm run device -- (--device NCT0001 [--devices N] | --devices N) [--speed 1] [--profile ${Object.keys(PROFILES).join('|')}] [--server http://localhost:8080] [--minutes 480] [--key KEY]`;

function positiveNumber(value: string | undefined, name: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > max) throw new UsageError(`--${name} must be a number above 0 and at most ${max}, got "${value}"`);
  return n;
}

/** NCT0001 with N = 3 → NCT0001, NCT0002, NCT0003. */
function deviceIds(first: string, count: number): string[] {
  const m = /^(.*?)(\d+)$/.exec(first);
  if (count === 1 || !m) return [first];
  return Array.from({ length: count }, (_, i) => `${m[1]}${String(Number(m[2]) + i).padStart(m[2].length, '0')}`);
}

/** The server refused every device (a revoked or unknown key, a device not deployed): said in one line, exit 1. */
class RefusedError extends Error {}

/** Up to this many devices each stream a simulated night of their own; more share one. */
const OWN_NIGHTS_UP_TO = 8;

/** Where `--devices N` starts without `--device`: the demo clinic's first device. */
const FIRST_DEMO_DEVICE = 'NCT0001';

async function main(): Promise<void> {
  const { options } = parseArgs(process.argv.slice(2));
  // --devices N alone starts at the first demo device, as docs/live.md's load example reads.
  const first = options.device ?? (options.devices !== undefined ? FIRST_DEMO_DEVICE : undefined);
  if (!first) throw new UsageError('--device is required (or --devices N, which starts at NCT0001)');
  const speed = positiveNumber(options.speed, 'speed', 1, 3600);
  const count = positiveNumber(options.devices, 'devices', 1, 10_000);
  if (!Number.isInteger(count)) throw new UsageError('--devices must be a whole number');
  const minutes = positiveNumber(options.minutes, 'minutes', 480, 24 * 60);
  if (!Number.isInteger(minutes) || minutes < 10) throw new UsageError('--minutes must be a whole number of at least 10 (the simulator\'s shortest night)');
  const profile = (options.profile ?? 'moderate_osa') as ProfileName;
  if (!(profile in PROFILES)) throw new UsageError(`unknown --profile "${profile}"`);
  const config = readConfig();
  const server = options.server ?? `http://localhost:${config.port}`;
  // A night of its own for each of a few devices (their tiles show different people); beyond
  // that one night shared by all, for load (a night takes about a second to make).
  const ids = deviceIds(first, count);
  const startMs = Math.floor(Date.now() / 1000) * 1000;
  const nightOf = (seed: string) => liveSource(simulateNight({ seed: `${seed}-${profile}`, startMs, durationMs: minutes * 60_000, profile }).channels);
  const shared = ids.length > OWN_NIGHTS_UP_TO ? nightOf(first) : null;
  const clients: DeviceClient[] = [];
  let codes = '';
  // Spread over the frame interval, as devices at separate bedsides tick on their own clocks.
  for (const [i, deviceId] of ids.entries()) {
    const key = options.key ?? process.env.NOCTURNE_DEVICE_KEY ?? (await readDemoKey(config.dataDir, deviceId));
    if (!key) throw new UsageError(`no key for ${deviceId}: pass --key, or start the development server once so it writes ${demoKeysFile(config.dataDir)}`);
    const source = shared ?? nightOf(deviceId);
    codes ||= source.map((c) => c.code).join(', ');
    clients.push(new DeviceClient({ server, deviceId, key, source, speed, sessionStartMs: startMs, phaseMs: (i * FRAME_INTERVAL_MS) / count, log: (line) => console.log(line) }));
  }
  for (const c of clients) c.start();
  console.log(`Streaming ${clients.length} device${clients.length === 1 ? '' : 's'} (${codes}) to ${server} at ${speed}×. Ctrl+C stops.`);
  const report = setInterval(() => {
    const pending = clients.reduce((s, c) => s + c.pending.size, 0);
    const acked = clients.reduce((s, c) => s + c.ackMs.length, 0);
    console.log(`${acked} frames acknowledged, ${pending} waiting for their ack.`);
  }, 10_000);
  process.on('SIGINT', () => {
    for (const c of clients) c.stop();
    process.exit(0);
  });
  const results = await Promise.allSettled(clients.map((c) => c.done));
  const refused = results.filter((r) => r.status === 'rejected');
  if (refused.length === clients.length) throw new RefusedError(`every device was refused (${(refused[0] as PromiseRejectedResult).reason.message})`);
  clearInterval(report);
  console.log('The night is over: every frame was acknowledged.');
}

main().catch((err: Error) => {
  if (err instanceof UsageError) {
    console.error(`${err.message}\n${USAGE}`);
    process.exit(2);
  }
  console.error(`npm run device failed: ${err instanceof RefusedError ? err.message : (err.stack ?? err.message)}`);
  process.exit(1);
});
