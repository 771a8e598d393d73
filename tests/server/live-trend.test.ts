// A live night and the trend's kept answers (issue 18 point 4): frame batches note no revision
// (migration 028: they would serialise 1,000 devices on it), so the trend must never keep an
// answer made while a night records, and the night's end must show in the next trend, which is
// then kept again.
import { describe, expect, it } from 'vitest';
import { DeviceClient } from '../../server/live/device-client';
import { queriesOf, TEST_DB } from './helpers';
import { shortSource, until } from './live-helpers';
import { liveSuite } from './live-suite';

const DAY_S = 86_400;

describe(`a live night in the trend on ${TEST_DB}`, () => {
  const live = liveSuite();

  it('is in the trend while it records, never from a kept answer, and its end is in the next one', async () => {
    const { server, base, device } = live;
    const nowS = Math.floor(Date.now() / 1000);
    const trendUrl = (patientId: number) => `/analytics/patient-trendview/type=HR,MOV?patient_id=${patientId}&device_start_time=${nowS - 2 * DAY_S}&device_stop_time=${nowS + DAY_S}`;
    type Point = { recording_id: number; [k: string]: unknown };
    const trend = async (patientId: number) => {
      const res = await server.call('GET', trendUrl(patientId), { token: device.token });
      expect(res.statusCode).toBe(200);
      return res.json().data as { HR: Point[]; MOV: Point[] };
    };
    const readsNights = (sql: string[]) => sql.some((q) => /from recordings|recording_channels/.test(q));

    // 10× real time: the 10-min source lasts a minute, so the night still records when the test
    // waits for more frames on a loaded machine (at 200× it was all sent, and the night ended, in 3 s).
    const client = new DeviceClient({ server: base, deviceId: 'NCT0001', key: device.key, source: shortSource('live-trend'), speed: 10 });
    client.start();
    await until(() => client.ackMs.length >= 3, 20_000, 'first acks');
    const [{ patient_id: patientId }] = await server.db.query<{ patient_id: number }>('select patient_id from recordings where id = $1', [client.recordingId]);

    // While it records: in the trend, and each call reads the nights again (nothing kept).
    const during = await trend(patientId);
    const liveHr = during.HR.find((p) => p.recording_id === client.recordingId);
    expect(liveHr).toBeDefined();
    const acksBefore = client.ackMs.length;
    await until(() => client.ackMs.length > acksBefore + 2, 20_000, 'more frames');
    expect(readsNights(await queriesOf(server, () => trend(patientId)))).toBe(true);

    // Ended (the device ends the night; it is compacted and analysed): the next trend holds the
    // ended night's figures, made from every sample, and is then kept. (Not a dropped
    // connection: one that drops after the server ended the session but before the device
    // heard "ended" starts a new recording on reconnect, and the night is then the longer one.)
    client.finish();
    await client.done;
    expect(client.errors).toEqual([]);
    await server.app.nightStats.idle();
    const after = await trend(patientId);
    const endedHr = after.HR.find((p) => p.recording_id === client.recordingId);
    expect(endedHr).toBeDefined();
    const [stats] = await server.db.query<{ n: number }>(
      `select count(*)::int as n from night_channel_stats where recording_id = $1 and code = 'HR'`,
      [client.recordingId],
    );
    expect(stats.n).toBe(1);
    // The first answer after the end may analyse what was not yet (and store it); from the
    // stored rows the answer is kept, and the call after that reads no night.
    expect(await trend(patientId)).toEqual(after);
    const again = await queriesOf(server, async () => expect(await trend(patientId)).toEqual(after));
    expect(readsNights(again)).toBe(false);
  }, 120_000);
});
