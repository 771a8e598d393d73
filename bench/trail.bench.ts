// `npm run bench:trail`: the access trail's part of bench:load alone (bench/load-trail.ts).
import { loadavg } from 'node:os';
import { trailPart } from './load-trail';

const before = loadavg().map((l) => l.toFixed(2)).join(' ');
await trailPart();
console.log(`load average before → after: ${before} → ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
