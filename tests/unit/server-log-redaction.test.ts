import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { ApiError, loggableUrl } from '../../server/errors';
import { signLink } from '../../server/services/signed-links';

describe('what the server error log may say about a request', () => {
  it("withholds a signed link's signature and expiry but keeps the path and parameter names", () => {
    const query = signLink(randomBytes(32), 'night:12:1700000000');
    const sig = new URLSearchParams(query).get('sig')!;
    expect(sig.length).toBeGreaterThan(20);
    const logged = loggableUrl(`/api/v1/analytics/patient/night-data/12?${query}&channel=SPO2`);
    expect(logged).toBe('/api/v1/analytics/patient/night-data/12?exp=…&sig=…&channel=…');
    expect(logged).not.toContain(sig);
  });

  it('leaves a URL without a query as it is', () => {
    expect(loggableUrl('/api/v1/patients')).toBe('/api/v1/patients');
    expect(loggableUrl('/api/v1/patients?')).toBe('/api/v1/patients?');
  });
});

describe('ApiError', () => {
  it('carries every message of a multi-part refusal as a typed field', () => {
    const err = new ApiError(409, 'device_occupied', 'Device is occupied', { errors: ['first', 'second'], params: { patient: 'NCT1', from: '2026-03-01', to: '2026-03-08' } });
    expect(err.errors).toEqual(['first', 'second']);
    expect(new ApiError(404, 'not_found', 'x', { params: { thing: 'patient' } }).errors).toBeUndefined();
  });
});
