/**
 * The data-record duration of an EDF file must give every signal a whole number of
 * samples per record. For each rate the smallest whole number of seconds q with
 * rate * q whole is found (25 Hz → 1, 0.5 Hz → 2, 1/30 Hz → 30, 1/60 Hz → 60), and the
 * record lasts the least common multiple of those.
 */

/** Longest record we accept, seconds (an hour: EDF readers expect records of seconds to minutes). */
const MAX_RECORD_S = 3600;
const RATE_TOLERANCE = 1e-9;

/** The shortest whole-second record duration giving every rate whole samples per record. */
export function chooseRecordDuration(rates: readonly number[]): number {
  let duration = 1;
  for (const rate of rates) {
    if (!(rate > 0) || !Number.isFinite(rate)) throw new RangeError(`sample rate ${rate} Hz is not a positive number`);
    duration = lcm(duration, wholePeriod(rate));
    if (duration > MAX_RECORD_S) {
      throw new RangeError(`sample rates ${rates.join(', ')} Hz need records longer than ${MAX_RECORD_S} s`);
    }
  }
  return duration;
}

/** Samples a signal of `rate` Hz has in a record of `duration` s (exactly whole by construction). */
export function samplesPerRecord(rate: number, duration: number): number {
  return Math.round(rate * duration);
}

function wholePeriod(rate: number): number {
  for (let q = 1; q <= MAX_RECORD_S; q++) {
    const n = rate * q;
    if (Math.abs(n - Math.round(n)) <= RATE_TOLERANCE * Math.max(1, n) && Math.round(n) >= 1) return q;
  }
  throw new RangeError(`sample rate ${rate} Hz gives no whole number of samples in any record up to ${MAX_RECORD_S} s`);
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

function lcm(a: number, b: number): number {
  return (a / gcd(a, b)) * b;
}
