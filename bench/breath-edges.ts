// `node --import tsx bench/breath-edges.ts`: the validation (bench/validate.ts, same nights
// and seeds) with respiratory event edges read on whole breaths (eventEdges 'breaths',
// engine/detect/breaths.ts) beside the default edges on the signal, in the same run.
// Writes bench/results/breath-edges.json.
import { mkdir, writeFile } from 'node:fs/promises';
import { realNights, simulatedNights } from './validate';

const out: Record<string, unknown> = { generated: new Date().toISOString() };
for (const eventEdges of ['signal', 'breaths'] as const) {
  const real = realNights(eventEdges).map((r) => ({ night: r.night, device_events: r.device_events, found: r.found, extra: r.extra }));
  const sim = simulatedNights(undefined, eventEdges);
  out[eventEdges] = { real, with_oximetry: sim.with_oximetry, without_oximetry: sim.without_oximetry, nights: sim.nights };
  console.log(eventEdges, JSON.stringify(real), JSON.stringify({ with: sim.with_oximetry, without: sim.without_oximetry }));
}
await mkdir(new URL('./results/', import.meta.url), { recursive: true });
await writeFile(new URL('./results/breath-edges.json', import.meta.url), JSON.stringify(out, null, 2) + '\n');
