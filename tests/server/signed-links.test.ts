import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulateForPatient } from '../../server/simulator/simulated';
import { LINK_TTL_MS, linkSecret, signLink, verifyLink } from '../../server/services/signed-links';
import { startTestServer, type TestServer } from './helpers';

/** Issue 13 point 7: a night link's lifetime is capped by the server, whatever the signature covers. */

let server: TestServer;
let recordingId = 0;
beforeAll(async () => {
  server = await startTestServer();
  const [patient] = await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1003'`);
  [recordingId] = await simulateForPatient(server.db, { patientId: patient.id, patientCode: 'NCT1003', deviceId: 'NCT0004', timezone: 'Europe/Zurich', nights: 1, profile: 'healthy', lastEvening: '2026-03-09', seed: 'links' });
}, 120_000);
afterAll(() => server.close());

const fetchLink = (query: string) => server.call('GET', `/s3/analytics/night-file/${recordingId}?${query}`);

describe('signed night links', () => {
  it('a link signed now works until it expires', async () => {
    const secret = await linkSecret(server.db);
    expect((await fetchLink(signLink(secret, `night:${recordingId}`))).statusCode).toBe(200);
    const expired = signLink(secret, `night:${recordingId}`, Date.now() - LINK_TTL_MS - 1000);
    expect((await fetchLink(expired)).statusCode).toBe(403);
  });

  it('a correctly signed link that claims a longer life is refused', async () => {
    const secret = await linkSecret(server.db);
    // Signed as if issued a year from now: the signature is valid, the lifetime is not.
    const longLived = signLink(secret, `night:${recordingId}`, Date.now() + 365 * 86_400_000);
    expect((await fetchLink(longLived)).statusCode).toBe(403);
    const exp = Date.now() + LINK_TTL_MS + 10 * 60_000;
    expect(verifyLink(secret, `night:${recordingId}`, exp, new URLSearchParams(signLink(secret, `night:${recordingId}`, exp - LINK_TTL_MS)).get('sig')!)).toBe(false);
    // A link at the full lifetime (issued just now) is accepted.
    const now = Date.now();
    expect(verifyLink(secret, `night:${recordingId}`, now + LINK_TTL_MS, new URLSearchParams(signLink(secret, `night:${recordingId}`, now)).get('sig')!, now)).toBe(true);
  });
});
