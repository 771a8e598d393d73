/**
 * The unit Nocturne prints beside a vital channel's figures, whatever its source called it: a
 * ResMed writes its breathing rate in "bpm" (which reads as beats), our device in "br/min", a
 * PSG in "/min" or "rpm". Breathing and pulse rates are per minute, SpO2 in %. One table for
 * the charts, the trend, the Summary and the PDF (decision 1044); other channels keep their
 * recording's unit, and the live protocol's wire units are its own (contract/live-protocol.ts).
 */
export const VITAL_UNITS: Readonly<Record<string, string>> = {
  BR: '/min',
  BRV: '/min',
  HR: '/min',
  PR: '/min',
  SPO2: '%',
  SPO2_PSG: '%',
};

/** The printed unit of channel `code`: Nocturne's for a vital, else `recorded` (the file's or device's own). */
export const displayUnit = (code: string, recorded: string): string => VITAL_UNITS[code] ?? recorded;
