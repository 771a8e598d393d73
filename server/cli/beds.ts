// `npm run beds -- [--count 32]`: live beds for trying the real-time wall display (issue 34.5)
// on a development server's demo clinic — each a device deployed to a patient of its own, with
// its key in DATA_DIR/device-keys.json for `npm run device`. Stop the server first (PGlite
// allows one process). A demo convenience: refused in production.
// A command for a person at a terminal: it prints with console (only the running server logs through pino, server/log.ts).
import { addDemoBeds } from '../live/demo-beds';
import { demoKeysFile, ensureDemoDeviceKeys } from '../live/demo-keys';
import { parseArgs, UsageError } from './args';
import { runCommand } from './run';

const USAGE = 'usage: npm run beds -- [--count 32]';
const MAX_BEDS = 200;

await runCommand(
  USAGE,
  (argv, config) => {
    const { options, positional } = parseArgs(argv);
    if (positional.length) throw new UsageError(`unexpected "${positional[0]}"`);
    const unknown = Object.keys(options).find((k) => k !== 'count');
    if (unknown) throw new UsageError(`unknown option --${unknown}`);
    const count = Number(options.count ?? '32');
    if (!Number.isInteger(count) || count < 1 || count > MAX_BEDS) throw new UsageError(`--count must be a whole number from 1 to ${MAX_BEDS}, got "${options.count}"`);
    if (config.production) throw new UsageError('npm run beds adds demo beds for trying the wall display; it does not run in production (NODE_ENV=production)');
    return { count };
  },
  async (db, { count }, config) => {
    const beds = await addDemoBeds(db, count);
    await ensureDemoDeviceKeys(db, demoKeysFile(config.dataDir));
    const first = beds[0]!.deviceId;
    console.log(`Added ${beds.length} live bed${beds.length === 1 ? '' : 's'} for the demo physician: devices ${first}–${beds.at(-1)!.deviceId}, each deployed to a patient of its own (${beds[0]!.patientCode}–${beds.at(-1)!.patientCode}); their keys are in ${demoKeysFile(config.dataDir)}.`);
    console.log(`Start the server (npm start), then stream them all: npm run device -- --device ${first} --devices ${beds.length} --speed 1`);
  },
);
