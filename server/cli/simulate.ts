// `npm run simulate -- --patient CODE --nights N [--profile NAME] [--psg] [--long] [--seed S]`
// A command for a person at a terminal: it prints with console (only the running server logs through pino, server/log.ts).
import { patientByCode } from '../patients/access';
import { simulateForPatient } from '../simulator/simulated';
import { PROFILES } from '../simulator';
import type { ProfileName } from '../simulator/types';
import { findCountry } from '../countries';
import { parseArgs, UsageError } from './args';
import { runCommand } from './run';

const USAGE = `usage: npm run simulate -- --patient CODE --nights N [--profile ${Object.keys(PROFILES).join('|')}] [--psg] [--long] [--seed S] [--device ID]`;

/** The command line, checked before the database is opened. */
function readArgs(argv: string[]) {
  const { options } = parseArgs(argv, ['psg', 'long']);
  if (!options.patient) throw new UsageError('--patient is required');
  const nights = Number(options.nights ?? '1');
  if (!Number.isInteger(nights) || nights < 1 || nights > 60) throw new UsageError(`--nights must be a whole number from 1 to 60, got "${options.nights}"`);
  const profile = (options.profile ?? 'moderate_osa') as ProfileName;
  if (!(profile in PROFILES)) throw new UsageError(`unknown --profile "${profile}"`);
  return { options: options as Record<string, string> & { patient: string }, nights, profile };
}

await runCommand(USAGE, readArgs, async (db, { options, nights, profile }) => {
  const patient = await patientByCode(db, options.patient);
  if (!patient) {
    const known = (await db.query<{ patient_code: string }>('select patient_code from patients order by patient_code limit 20')).map((r) => r.patient_code);
    throw new UsageError(`no patient with code "${options.patient}"; ${known.length ? `known: ${known.join(', ')}` : 'there are no patients yet (npm start seeds the demo clinic)'}`);
  }
  const timezone = (patient.country && findCountry(patient.country)?.timezone) || 'UTC';
  const ids = await simulateForPatient(db, {
    patientId: patient.id,
    patientCode: patient.patient_code,
    deviceId: options.device ?? null,
    timezone,
    nights,
    profile,
    seed: options.seed,
    longNight: options.long === 'true',
    psgEvery: options.psg === 'true' ? 1 : 0,
  });
  console.log(`Added ${ids.length} simulated night${ids.length === 1 ? '' : 's'} for ${patient.patient_code} (recordings ${ids.join(', ') || 'none: every evening in the window already had one'}).`);
});
