// `npm run import -- --patient CODE [--timezone ZONE] [--device ID] [--map Label=CODE …] FILE_OR_FOLDER...`
// A command for a person at a terminal: it prints with console (only the running server logs through pino, server/log.ts).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { isImportableFile } from '../../contract/night-rules';
import path from 'node:path';
import { findCountry } from '../countries';
import { ApiError } from '../errors';
import { patientByCode } from '../patients/access';
import { savedLabelMap } from '../recordings/import';
import { importUpload } from '../recordings/upload-import';
import { skippedReason } from '../recordings/night-files';
import { isTimeZone } from '../recordings/night-key';
import { UsageError } from './args';
import { runCommand } from './run';

const USAGE = 'usage: npm run import -- --patient CODE [--timezone ZONE] [--device ID] [--channel CODE] [--map Label=CODE]... FILE_OR_FOLDER...';

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

/**
 * A named file, or a folder's files the import reads (a card's DATALOG night folder, or the
 * whole card: EDF, BDF and CSV in it and its subfolders, by name, without macOS's "._" files),
 * as the web folder picker sends them.
 */
function filesOf(p: string): string[] {
  if (!statSync(p).isDirectory()) return [p];
  const found = (readdirSync(p, { recursive: true, encoding: 'utf8' }) as string[]).filter((rel) => isImportableFile(rel) && statSync(path.join(p, rel)).isFile()).sort();
  if (found.length === 0) throw new UsageError(`no EDF, BDF or CSV file in the folder ${p}`);
  return found.map((rel) => path.join(p, rel));
}

await runCommand(USAGE, readArgs, async (db, { options, map, files }) => {
  const patient = await patientByCode(db, options.patient);
  if (!patient) throw new UsageError(`no patient with code "${options.patient}"`);
  const timezone = options.timezone ?? ((patient.country && findCountry(patient.country)?.timezone) || 'UTC');
  if (!isTimeZone(timezone)) throw new UsageError(`unknown time zone "${timezone}"`);
  // `npm run` starts in the project's folder: a relative name is the user's, from where npm was run.
  const from = process.env.INIT_CWD ?? process.cwd();
  const paths = files.map((f) => path.resolve(from, f));
  const missing = paths.filter((p) => !existsSync(p));
  if (missing.length > 0) throw new UsageError(`no such file: ${missing.join(', ')}`);
  const picked = paths.flatMap(filesOf);
  try {
    const { nights, deviceSummary } = await importUpload(db, {
      patientId: patient.id,
      deviceId: options.device ?? null,
      createdBy: null,
      timezone,
      files: picked.map((p) => ({ name: path.basename(p), path: p })),
      labelMap: { ...(await savedLabelMap(db, patient.physician_id)), ...map },
      csvCode: options.channel,
    });
    // A device's daily summary (ResMed STR.edf) is stored per day, not as a night.
    if (deviceSummary) console.log(`Read ${deviceSummary.days_read} days of the device's summary (${deviceSummary.files.join(', ')}) for ${patient.patient_code}; ${deviceSummary.days_stored} with therapy stored${deviceSummary.first_day ? `, ${deviceSummary.first_day} to ${deviceSummary.last_day}` : ''}.`);
    // Each night of the files (a card's DATALOG folder holds several), earliest first.
    for (const { recordingId, night, merged, deviceEvents, skipped } of nights ? [nights, ...nights.others] : []) {
      const hours = ((night.stopMs - night.startMs) / 3_600_000).toFixed(2);
      const into = merged ? ' (added to the night it belongs to)' : '';
      console.log(`Imported recording ${recordingId}${into} for ${patient.patient_code}: ${new Date(night.startMs).toISOString()}, ${hours} h, channels ${night.channels.map((c) => c.code).join(', ') || 'none'}, ${night.events.length} events, ${deviceEvents} device-scored.`);
      for (const s of skipped) console.log(`  left out ${s.name}: ${skippedReason(s)}`);
    }
  } catch (err) {
    // A later night refused after earlier ones were stored says which stay (decision 1028).
    if (err instanceof ApiError) throw new Error(err.code === 'import_partly_stored' ? err.message : `Nothing was imported: ${err.message}`);
    throw err;
  }
});
