import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, startTestServer, TEST_DB, type TestServer } from './helpers';
import { Collector, demoDeviceWithKey, shortSource, tokenOf, until } from './live-helpers';
import { DeviceClient, liveSource } from '../../server/live/device-client';
import { simulateNight } from '../../server/simulator';
import { decodeFrame, encodeFrame, LIVE_PROTOCOL, MAX_FRAME_BYTES } from '../../contract/live-protocol';
import { findRecording, listChannels, loadSamples } from '../../server/recordings/store';
import type { ChannelData } from '../../server/recordings/model';

/** Live devices (issue 15) through real sockets on a listening server, on PGlite and PostgreSQL. */
describe(`live devices on ${TEST_DB}`, () => {
  let server: TestServer;
  let base: string;
  let device: { deviceMasterId: number; key: string; token: string };

  beforeAll(async () => {
    server = await startTestServer();
    base = await server.app.listen({ port: 0, host: '127.0.0.1' });
    device = await demoDeviceWithKey(server);
  }, 60_000);
  afterAll(async () => server?.close());

  const ws = (path: string) => new Collector(`${base.replace('http', 'ws')}/api/v1${path}`);

  async function expectStoredExactly(recordingId: number, source: ChannelData[]): Promise<void> {
    const channels = await listChannels(server.db, [recordingId]);
    for (const c of source) {
      const stored = channels.find((s) => s.code === c.code)!;
      expect(stored.sample_count, c.code).toBe(c.samples.length);
      expect(Array.from(await loadSamples(server.db, stored)), c.code).toEqual(Array.from(c.samples));
    }
  }

  it('streams a night through drops: every sample stored once, acked after commit, seen by a viewer', async () => {
    const viewer = ws('/stream');
    await viewer.opened;
    viewer.send({ type: 'auth', token: device.token });
    await viewer.next((m) => m.type === 'ready');
    viewer.send({ type: 'subscribe', deviceId: 'NCT0001' });
    await viewer.next((m) => m.type === 'subscribed');

    const source = shortSource();
    const client = new DeviceClient({ server: base, deviceId: 'NCT0001', key: device.key, source, speed: 200 });
    client.start();
    await until(() => client.ackMs.length >= 3, 20_000, 'first acks');
    client.dropConnection();
    await until(() => client.connects >= 2, 20_000, 'reconnect');
    await until(() => client.ackMs.length >= 6, 20_000, 'acks after reconnect');
    // While it records, the night is listed and its samples read (never cached).
    const [{ patient_id: livePatient }] = await server.db.query<{ patient_id: number }>('select patient_id from recordings where id = $1', [client.recordingId]);
    const listed = await server.call('GET', `/patient/available-nights?patient_id=${livePatient}`, { token: device.token });
    const live = listed.json().data.nights.find((n: { recording_id: number }) => n.recording_id === client.recordingId);
    expect(live.channels.find((c: { code: string }) => c.code === 'Y_DIST').count).toBeGreaterThan(0);
    const growing = await server.call('GET', `/analytics/patient/channel-data?patient_id=${livePatient}&recording_id=${client.recordingId}&code=Y_DIST`, { token: device.token });
    expect(growing.statusCode).toBe(200);
    expect(growing.headers['cache-control']).toBe('no-cache');
    // Even at the version the list gave: the next frame makes it another (decision 1019).
    const liveVersion = live.channels.find((c: { code: string }) => c.code === 'Y_DIST').version as string;
    const atVersion = await server.call('GET', `/analytics/patient/channel-data?patient_id=${livePatient}&recording_id=${client.recordingId}&code=Y_DIST&v=${liveVersion}`, { token: device.token });
    expect(atVersion.headers['cache-control']).toBe('no-cache');
    client.dropConnection();
    await client.done;

    expect(client.errors).toEqual([]);
    // Ended and compacted: its frames pruned into the night's totals, every seq once.
    expect(await server.db.query('select 1 from live_frames where recording_id = $1', [client.recordingId])).toEqual([]);
    const [totals] = await server.db.query<{ frames: number; first_seq: number; last_seq: number }>('select frames, first_seq, last_seq from live_frame_totals where recording_id = $1', [client.recordingId]);
    expect(totals).toEqual({ frames: client.framesMade, first_seq: 0, last_seq: client.framesMade - 1 });
    const frames = { length: totals!.frames };
    const recording = await findRecording(server.db, (await server.db.query<{ patient_id: number }>('select patient_id from recordings where id = $1', [client.recordingId]))[0].patient_id, client.recordingId!);
    expect(recording?.source).toBe('device');
    // Ended: compacted into whole chunks with its binary form, like any stored night.
    expect(recording?.recording_meta.live).toBe(false);
    const wires = await server.db.query('select w.channel_id from recording_channel_wire w join recording_channels c on c.id = w.channel_id where c.recording_id = $1', [client.recordingId]);
    expect(wires).toHaveLength(source.length);
    await expectStoredExactly(client.recordingId!, source);
    // Ended, it is another version, kept by the browser for a day under it.
    const ended = (await server.call('GET', `/patient/available-nights?patient_id=${livePatient}`, { token: device.token })).json().data.nights.find((n: { recording_id: number }) => n.recording_id === client.recordingId);
    const endedVersion = ended.channels.find((c: { code: string }) => c.code === 'Y_DIST').version as string;
    expect(endedVersion).not.toBe(liveVersion);
    const kept = await server.call('GET', `/analytics/patient/channel-data?patient_id=${livePatient}&recording_id=${client.recordingId}&code=Y_DIST&v=${endedVersion}`, { token: device.token });
    expect(kept.headers['cache-control']).toBe('private, max-age=86400');

    // The viewer got frames decoded as the device sent them (physical values, sample indices).
    await until(() => viewer.binary.length >= client.framesMade, 10_000, 'every frame at the viewer');
    // Each committed frame exactly once and in order, though it was sent to this process's
    // viewers from the batch and its NOTIFY came back here too; a resend stored nothing and sent nothing.
    const seqs = viewer.binary.map((b) => (decodeFrame(new Uint8Array(b)).header as { seq: number }).seq);
    expect(seqs).toEqual(Array.from({ length: client.framesMade }, (_, i) => i));
    const first = decodeFrame(new Uint8Array(viewer.binary[0]!));
    const header = first.header as { deviceId: string; channels: { code: string; n: number; at: number }[] };
    expect(header.deviceId).toBe('NCT0001');
    const br = source.find((c) => c.code === 'Y_DIST')!;
    let offset = 0;
    for (const ch of header.channels) {
      if (ch.code === 'Y_DIST') expect(first.samples[offset]).toBeCloseTo(br.samples[ch.at]! * br.scale, 4);
      offset += ch.n;
    }
    viewer.close();

    // The night reads like any other through the HTTP API while and after it records.
    const patientId = recording!.patient_id;
    const nights = await server.call('GET', `/patient/available-nights?patient_id=${patientId}`, { token: device.token });
    expect(nights.json().data.nights.some((n: { recording_id: number }) => n.recording_id === client.recordingId)).toBe(true);
    const hr = await server.call('GET', `/analytics/patient/channel-data?patient_id=${patientId}&recording_id=${client.recordingId}&code=HR`, { token: device.token });
    expect(hr.statusCode).toBe(200);
    const state = await server.call('GET', '/device/real-time/did=NCT0001', { token: device.token });
    const [patient] = await server.db.query<{ patient_code: string }>('select patient_code from patients where id = $1', [patientId]);
    // The patient's code comes with the device, so lists never show a raw id while it loads.
    expect(state.json().data[0]).toMatchObject({ device_id: 'NCT0001', state: 'streaming', last_seq: frames.length - 1, patient_id: patientId, patient_code: patient!.patient_code });
    const validation = await server.call('GET', '/device/real-time-validation/did=NCT0001', { token: device.token });
    expect(validation.json().data[0]).toMatchObject({ frames: frames.length, missing_frames: 0 });
  }, 90_000);

  async function helloed(sessionStartMs = Date.now()): Promise<{ socket: Collector; lastSeq: number }> {
    const socket = ws('/device/live');
    await socket.opened;
    socket.send({ type: 'hello', protocol: LIVE_PROTOCOL, deviceId: 'NCT0001', key: device.key, sessionStartMs, channels: ['HR', 'Y_DIST'] });
    const welcome = await socket.next((m) => m.type === 'welcome');
    return { socket, lastSeq: welcome.lastSeq as number };
  }

  const frame = (seq: number, channels: { code: string; values: number[] }[]) =>
    encodeFrame({ seq, sentMs: Date.now(), channels: channels.map((c) => ({ code: c.code, n: c.values.length })) }, channels.map((c) => c.values));

  it("a device whose 'ended' was lost, saying hello for the session it ended, is told again that it ended: no new recording", async () => {
    const start = Date.now() - 60_000;
    const { socket, lastSeq } = await helloed(start);
    socket.send(frame(lastSeq + 1, [{ code: 'HR', values: [62] }, { code: 'Y_DIST', values: [0.5] }]));
    await socket.next((m) => m.type === 'ack' && m.seq === lastSeq + 1);
    socket.send({ type: 'end' });
    const ended = await socket.next((m) => m.type === 'ended');
    socket.close();
    const recordings = async () => (await server.db.query<{ n: number }>('select count(*)::int as n from recordings'))[0]!.n;
    const before = await recordings();
    // The same hello again (as a device that never heard "ended" reconnects): "ended" again, closed.
    const again = ws('/device/live');
    await again.opened;
    again.send({ type: 'hello', protocol: LIVE_PROTOCOL, deviceId: 'NCT0001', key: device.key, sessionStartMs: start, channels: ['HR', 'Y_DIST'] });
    expect(await again.next((m) => m.type === 'ended' || m.type === 'welcome')).toEqual({ type: 'ended', recordingId: ended.recordingId });
    expect(await again.closed()).toBe(1000);
    expect(await recordings()).toBe(before);
    // A new session (another start) records as usual.
    const next = await helloed(Date.now());
    expect(await recordings()).toBe(before + 1);
    next.socket.close();
  });

  it('acks a frame only once it is committed, and a resend as a duplicate that stores nothing', async () => {
    const { socket, lastSeq } = await helloed();
    const bytes = frame(lastSeq + 1, [{ code: 'HR', values: [61] }, { code: 'Y_DIST', values: [0.5, 0.6] }]);
    socket.send(bytes);
    const ack = await socket.next((m) => m.type === 'ack' && m.seq === lastSeq + 1);
    expect(ack.duplicate).toBeUndefined();
    const [row] = await server.db.query<{ layout: Record<string, number[]> }>('select layout from live_frames where device_master_id = $1 and seq = $2', [device.deviceMasterId, lastSeq + 1]);
    expect(row.layout.Y_DIST![1]).toBe(2);
    const before = await server.db.query<{ n: number }>('select count(*)::int as n from recording_chunks');
    socket.send(bytes);
    await socket.next((m) => m.type === 'ack' && m.seq === lastSeq + 1 && m.duplicate === true);
    expect(await server.db.query<{ n: number }>('select count(*)::int as n from recording_chunks')).toEqual(before);
    socket.close();
  });

  it('refuses bad frames with an error naming what was wrong, and stores nothing of them', async () => {
    const { socket, lastSeq } = await helloed();
    const next = lastSeq + 1;
    const counts = () => server.db.query('select (select count(*)::int from live_frames) as f, (select count(*)::int from recording_chunks) as c');
    const before = await counts();
    const cases: [Uint8Array, string, RegExp][] = [
      [frame(next + 5, [{ code: 'HR', values: [60] }]), 'sequence_gap', /next expected is/],
      [frame(-1, [{ code: 'HR', values: [60] }]), 'bad_sequence', /seq must be/],
      [frame(next, [{ code: 'XX', values: [1] }]), 'unknown_channel', /"XX"/],
      [frame(next, [{ code: 'BR', values: [1] }]), 'channel_not_announced', /BR/],
      [frame(next, [{ code: 'HR', values: [Number.NaN] }]), 'non_finite_sample', /HR sample 0/],
      [frame(next, [{ code: 'HR', values: [500] }]), 'out_of_range_sample', /HR sample 0 is 500/],
      [frame(next, [{ code: 'Y_DIST', values: new Array(MAX_FRAME_BYTES / 4).fill(0) }]), 'frame_too_large', /over the limit/],
      [new Uint8Array([1, 2]), 'bad_frame', /shorter/],
    ];
    for (const [bytes, code, message] of cases) {
      const seen = socket.json.length;
      socket.send(bytes);
      await until(() => socket.json.length > seen, 10_000, code);
      expect(socket.json[seen]).toMatchObject({ type: 'error', code });
      expect(socket.json[seen]!.message).toMatch(message);
    }
    // A seq already used for other content is refused, not taken for a resend.
    if (lastSeq >= 0) {
      const seen = socket.json.length;
      socket.send(frame(lastSeq, [{ code: 'HR', values: [99] }]));
      await until(() => socket.json.length > seen, 10_000, 'reused');
      expect(socket.json[seen]).toMatchObject({ type: 'error', code: 'sequence_reused' });
    }
    expect(await counts()).toEqual(before);
    socket.close();
  });

  it('refuses an unknown or revoked key at connect, and a frame in place of the hello', async () => {
    const early = ws('/device/live');
    await early.opened;
    early.send(frame(0, [{ code: 'HR', values: [60] }]));
    expect(await early.next((m) => m.type === 'error')).toMatchObject({ code: 'bad_hello', message: 'the first message must be a JSON hello, not a frame' });
    expect(await early.closed()).toBe(4400);

    const unknown = ws('/device/live');
    await unknown.opened;
    unknown.send({ type: 'hello', protocol: LIVE_PROTOCOL, deviceId: 'NCT0001', key: 'ndk_notakeyatall_xxxxxxxxxxxx', sessionStartMs: Date.now(), channels: ['HR'] });
    expect(await unknown.next((m) => m.type === 'error')).toMatchObject({ code: 'unknown_key' });
    expect(await unknown.closed()).toBe(4401);

    const revoked = await demoDeviceWithKey(server, 'NCT0002');
    const res = await server.call('POST', '/device/keys/revoke', { token: revoked.token, body: { device_master_id: revoked.deviceMasterId } });
    expect(res.json().data.revoked).toBe(1);
    const old = ws('/device/live');
    await old.opened;
    old.send({ type: 'hello', protocol: LIVE_PROTOCOL, deviceId: 'NCT0002', key: revoked.key, sessionStartMs: Date.now(), channels: ['HR'] });
    expect(await old.next((m) => m.type === 'error')).toMatchObject({ code: 'revoked_key' });
    expect(await old.closed()).toBe(4401);
  });

  it('lets viewers of the practice only: no token, annotators and other practices get errors, never data', async () => {
    const anonymous = ws('/stream');
    await anonymous.opened;
    anonymous.send({ type: 'auth', token: 'nope' });
    expect(await anonymous.next((m) => m.type === 'error')).toMatchObject({ code: 'unauthorized' });
    expect(await anonymous.closed()).toBe(4401);

    const annotator = ws('/stream');
    await annotator.opened;
    annotator.send({ type: 'auth', token: await tokenOf(server, DEMO_ACCOUNTS.annotator) });
    expect(await annotator.next((m) => m.type === 'error')).toMatchObject({ code: 'forbidden' });
    expect(await annotator.closed()).toBe(4403);

    const [other] = await server.db.query<{ id: number }>(`insert into users (email, password_hash, first_name, last_name, country, role, status) values ('other.live@test.nocturne.test', 'x', 'O', 'P', 'Switzerland', 'physician', 'active') returning id`);
    const { issueToken } = await import('../../server/auth/tokens');
    const stranger = ws('/stream');
    await stranger.opened;
    stranger.send({ type: 'auth', token: await issueToken(server.db, other.id, 'session') });
    await stranger.next((m) => m.type === 'ready');
    stranger.send({ type: 'subscribe', deviceId: 'NCT0001' });
    expect(await stranger.next((m) => m.type === 'error')).toMatchObject({ code: 'not_found', deviceId: 'NCT0001' });
    // A viewer of the practice beside it: once the frame reached that one, it was fanned out.
    const own = ws('/stream');
    await own.opened;
    own.send({ type: 'auth', token: device.token });
    await own.next((m) => m.type === 'ready');
    own.send({ type: 'subscribe', deviceId: 'NCT0001' });
    await own.next((m) => m.type === 'subscribed');
    const { socket, lastSeq } = await helloed();
    socket.send(frame(lastSeq + 1, [{ code: 'HR', values: [62] }]));
    await socket.next((m) => m.type === 'ack');
    await own.nextBinary((b) => (decodeFrame(new Uint8Array(b)).header as { seq: number }).seq === lastSeq + 1);
    expect(stranger.binary).toEqual([]);
    stranger.close();
    own.close();
    socket.close();
  });

  it('tells viewers a device is stalled after 10 s and reports offline after 60 s without frames', async () => {
    const [d] = await server.db.query<{ device_master_id: number }>("select device_master_id from devices where device_id = 'NCT0003'");
    // The device's last frame committed 9.5 s ago: streaming now, stalled within the next ticks.
    await server.db.query('insert into device_live (device_master_id, last_seq, last_frame_ms) values ($1, 7, $2)', [d.device_master_id, Date.now() - 9_500]);
    const viewer = ws('/stream');
    await viewer.opened;
    viewer.send({ type: 'auth', token: device.token });
    await viewer.next((m) => m.type === 'ready');
    viewer.send({ type: 'subscribe', deviceId: 'NCT0003' });
    expect(await viewer.next((m) => m.type === 'subscribed')).toMatchObject({ state: 'streaming', lastSeq: 7 });
    expect(await viewer.next((m) => m.type === 'state', 5_000)).toMatchObject({ deviceId: 'NCT0003', state: 'stalled' });
    viewer.close();

    await server.db.query('update device_live set last_frame_ms = $2 where device_master_id = $1', [d.device_master_id, Date.now() - 61_000]);
    const all = await server.call('GET', '/device/real-time/did=0', { token: device.token });
    expect(all.json().data.find((x: { device_id: string }) => x.device_id === 'NCT0003')).toMatchObject({ state: 'offline', last_seq: 7 });
    const annotator = await server.call('GET', '/device/real-time/did=0', { token: await tokenOf(server, DEMO_ACCOUNTS.annotator) });
    expect(annotator.statusCode).toBe(403);
  });

  it('a slow viewer is sent the newest data, never an unbounded queue', async () => {
    // A viewer that stops reading: once the kernel's socket buffers (a few MB on loopback) and
    // VIEWER_BUFFER_LIMIT_BYTES are full, frames are dropped for it and it is told which.
    const devices = ['NCT0003', 'NCT0004'];
    const slow = ws('/stream');
    await slow.opened;
    slow.send({ type: 'auth', token: device.token });
    await slow.next((m) => m.type === 'ready');
    for (const deviceId of devices) {
      slow.send({ type: 'subscribe', deviceId });
      await slow.next((m) => m.type === 'subscribed' && m.deviceId === deviceId);
    }
    slow.socket.pause();
    const source = liveSource(simulateNight({ seed: 'slow', startMs: Math.floor(Date.now() / 1000) * 1000, durationMs: 4 * 3_600_000 }).channels);
    const clients = await Promise.all(
      devices.map(async (deviceId) => new DeviceClient({ server: base, deviceId, key: (await demoDeviceWithKey(server, deviceId)).key, source, speed: 1000 })),
    );
    for (const c of clients) c.start();
    await Promise.all(clients.map((c) => c.done));
    const [{ n: sent }] = await server.db.query<{ n: number }>(
      `select ((select count(*) from live_frames f join devices d using (device_master_id) where d.device_id = any($1::text[]))
        + (select coalesce(sum(t.frames), 0) from live_frame_totals t join devices d using (device_master_id) where d.device_id = any($1::text[])))::int as n`,
      [devices],
    );
    slow.socket.resume();
    const skipped = await slow.next((m) => m.type === 'skipped', 10_000);
    // The newest frame of the skipping device still arrives after its skipped range.
    const header = (b: Buffer) => decodeFrame(new Uint8Array(b)).header as { seq: number; deviceId: string };
    await slow.nextBinary((b) => header(b).deviceId === skipped.deviceId && header(b).seq > (skipped.toSeq as number));
    expect(slow.binary.length).toBeLessThan(sent);
    const seqs = slow.binary
      .map(header)
      .filter((h) => h.deviceId === skipped.deviceId)
      .map((h) => h.seq);
    expect(Math.max(...seqs)).toBeGreaterThan(skipped.toSeq as number);
    slow.close();
  }, 90_000);

  it('disconnects a streaming device when its key is revoked', async () => {
    const fourth = await demoDeviceWithKey(server, 'NCT0004');
    const socket = ws('/device/live');
    await socket.opened;
    socket.send({ type: 'hello', protocol: LIVE_PROTOCOL, deviceId: 'NCT0004', key: fourth.key, sessionStartMs: Date.now(), channels: ['HR'] });
    await socket.next((m) => m.type === 'welcome');
    const res = await server.call('POST', '/device/keys/revoke', { token: fourth.token, body: { device_master_id: fourth.deviceMasterId } });
    expect(res.statusCode).toBe(200);
    expect(await socket.next((m) => m.type === 'error')).toMatchObject({ code: 'revoked_key' });
    expect(await socket.closed()).toBe(4401);
  });
});
