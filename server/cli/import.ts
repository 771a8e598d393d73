// `npm run import -- --patient CODE [--timezone ZONE] [--device ID] [--map Label=CODE …] FILE...`
// A command for a person at a terminal: it prints with console (only the running server logs through pino, server/log.ts).
import { findCountry } from '../countries';
import { ApiError } from '../errors';
import { patientByCode } from '../patients/access';
import { importFiles, savedLabelMap } from '../recordings/import';
import { isTimeZone } from '../recordings/night-key';
import { UsageError } from './args';
import { runCommand } from './run';

const USAGE = 'usage: npm run import -- --patient CODE [--timezone ZONE] [--device ID] [--channel CODE] [--map Label=CODE]... FILE...';

/** The command line, checked before the database is opened; --map may repeat, so it is read apart from the other options. */
function readArgs(argv: string[]) {
  const options: Record<string, string> = {};
  const map: Record<string, string> = {};
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      files.push(arg);
      continue;
    }
    const name = arg.slice(2);
    const value = argv[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    if (name === 'map') {
      const at = value.lastIndexOf('=');
      if (at < 1) throw new UsageError(`--map takes Label=CODE, got "${value}"`);
      map[value.slice(0, at)] = value.slice(at + 1);
    } else options[name] = value;
  }
  if (!options.patient) throw new UsageError('--patient is required');
  if (files.length === 0) throw new UsageError('name at least one file');
  return { options: options as Record<string, string> & { patient: string }, map, files };
}

await runCommand(USAGE, readArgs, async (db, { options, map, files }) => {
  const patient = await patientByCode(db, options.patient);
  if (!patient) throw new UsageError(`no patient with code "${options.patient}"`);
  const timezone = options.timezone ?? ((patient.country && findCountry(patient.country)?.timezone) || 'UTC');
  if (!isTimeZone(timezone)) throw new UsageError(`unknown time zone "${timezone}"`);
  try {
    const result = await importFiles(db, {
      patientId: patient.id,
      deviceId: options.device ?? null,
      createdBy: null,
      timezone,
      paths: files,
      labelMap: { ...(await savedLabelMap(db, patient.physician_id)), ...map },
      csvCode: options.channel,
    });
    // Each night of the files (a card's DATALOG folder holds several), earliest first.
    for (const { recordingId, night, merged, deviceEvents } of [result, ...result.others]) {
      const hours = ((night.stopMs - night.startMs) / 3_600_000).toFixed(2);
      const into = merged ? ' (added to the night it belongs to)' : '';
      console.log(`Imported recording ${recordingId}${into} for ${patient.patient_code}: ${new Date(night.startMs).toISOString()}, ${hours} h, channels ${night.channels.map((c) => c.code).join(', ') || 'none'}, ${night.events.length} events, ${deviceEvents} device-scored.`);
    }
  } catch (err) {
    // A later night refused after earlier ones were stored says which stay (decision 1028).
    if (err instanceof ApiError) throw new Error(err.code === 'import_partly_stored' ? err.message : `Nothing was imported: ${err.message}`);
    throw err;
  }
});
