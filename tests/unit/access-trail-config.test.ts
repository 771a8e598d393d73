import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../../server/config';

describe('ACCESS_TRAIL', () => {
  it('is on unless turned off, and a production server refuses to run without it', () => {
    expect(readConfig({}).accessTrail).toBe(true);
    expect(readConfig({ ACCESS_TRAIL: 'on' }).accessTrail).toBe(true);
    expect(readConfig({ ACCESS_TRAIL: 'off' }).accessTrail).toBe(false);
    expect(() => readConfig({ ACCESS_TRAIL: 'off', NODE_ENV: 'production', SMTP_URL: 'smtp://127.0.0.1:2525' })).toThrow(ConfigError);
    expect(() => readConfig({ ACCESS_TRAIL: 'no' })).toThrow(/"on" or "off"/);
  });
});
