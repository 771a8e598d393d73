import { describe, expect, it } from 'vitest';
import { liveSuite } from './live-suite';
import { DEMO_ACCOUNTS, TEST_DB } from './helpers';
import { shortSource, tokenOf, until } from './live-helpers';
import { DeviceClient } from '../../server/live/device-client';
import { DEFAULT_CONFIG, type DeviceConfig } from '../../server/live/device-config';

/** Device Config (issue 15 point 6): validated, versioned, pushed over the live connection and acknowledged. */
describe(`device config on ${TEST_DB}`, () => {
  const live = liveSuite();

  const update = (config: unknown, token = live.device.token) => live.server.call('POST', '/datahub/update_device_config', { token, body: { device_master_id: live.device.deviceMasterId, config } });
  const mine = async () => {
    const res = await live.server.call('GET', '/datahub/get_physician_devices_config', { token: live.device.token });
    expect(res.statusCode).toBe(200);
    return res.json().data.devices.find((d: { device_master_id: number }) => d.device_master_id === live.device.deviceMasterId);
  };
  /** The demo practice's window (19:00–11:00 in Switzerland's zone): the devices' defaults, not the factory 21:00–07:00 UTC. */
  const practiceWindow = { start: '19:00', stop: '11:00', timezone: 'Europe/Zurich' };
  const practiceDefault: DeviceConfig = { ...DEFAULT_CONFIG, recording_window: practiceWindow };
  const withChanges = (over: Partial<DeviceConfig>): DeviceConfig => ({ ...practiceDefault, ...over });

  it('refuses a bad configuration with a message naming the field, and stores nothing', async () => {
    const cases: [unknown, RegExp][] = [
      [withChanges({ radar: { range_m: 12, sensitivity: 5 } }), /range_m must be <= 6/],
      [withChanges({ radar: { range_m: 2, sensitivity: 2.5 } }), /sensitivity must be integer/],
      [withChanges({ recording_window: { start: '25:00', stop: '07:00', timezone: 'UTC' } }), /recording_window\/start must match pattern/],
      [withChanges({ recording_window: { start: '21:00', stop: '07:00', timezone: 'Mars/Olympus' } }), /"Mars\/Olympus" is not a time zone/],
      [withChanges({ recording_window: { start: '21:00', stop: '21:00', timezone: 'UTC' } }), /the window would be empty/],
      [withChanges({ channels: { BR: 5 } }), /channels\.BR must be one of 1 Hz, got 5/],
      [withChanges({ channels: { EEG: 256 } as Record<string, number> }), /must NOT have additional properties/],
      [withChanges({ channels: {} }), /must NOT have fewer than 1 properties/],
      [{ ...DEFAULT_CONFIG, live_streaming: 'yes' }, /live_streaming must be boolean/],
    ];
    for (const [config, message] of cases) {
      const res = await update(config);
      expect(res.statusCode, JSON.stringify(config)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    // The value's path and the bound, and the rules beyond the schema, for the screen to say in the user's words.
    expect((await update(withChanges({ radar: { range_m: 12, sensitivity: 5 } }))).json().data).toEqual({ field: 'config', rule: 'maximum', path: '/config/radar/range_m', limit: 6 });
    expect((await update(withChanges({ radar: { range_m: 0.1, sensitivity: 5 } }))).json().data).toMatchObject({ rule: 'minimum', path: '/config/radar/range_m', limit: 0.3 });
    expect((await update(withChanges({ recording_window: { start: '21:00', stop: '07:00', timezone: 'Mars/Olympus' } }))).json()).toMatchObject({ code: 'invalid_config', data: { field: 'config', rule: 'timezone', path: '/config/recording_window/timezone' } });
    expect(await live.server.db.query('select id from device_configs')).toEqual([]);
    // Before it ever streamed, the device is listed with the patient it is allocated to and the practice's defaults.
    expect(await mine()).toMatchObject({ patient_code: 'NCT1001', version: 0, status: null, config: practiceDefault, state: 'offline' });
    // Its allocation's window and zone come first; a device not deployed has the practice's.
    const allocation = { start: '22:30', stop: '06:15', timezone: 'America/New_York' };
    await live.server.db.query(`update device_allocations set window_start_time = '22:30:00', window_end_time = '06:15:00', timezone = $2 where device_master_id = $1`, [live.device.deviceMasterId, allocation.timezone]);
    expect((await mine()).config.recording_window).toEqual(allocation);
    expect((await update(withChanges({ recording_window: allocation }))).json().code).toBe('no_changes');
    await live.server.db.query(`update device_allocations set window_start_time = '19:00:00', window_end_time = '11:00:00', timezone = 'Europe/Zurich' where device_master_id = $1`, [live.device.deviceMasterId]);
    const all = (await live.server.call('GET', '/datahub/get_physician_devices_config', { token: live.device.token })).json().data.devices as { device_id: string; config: DeviceConfig }[];
    expect(all.find((d) => d.device_id === 'NCT0005')!.config.recording_window).toEqual(practiceWindow);
    // So does the real-time list (the Real Time picker): the patient wearing the device, before it ever streamed; none for a device not deployed.
    const listed = (await live.server.call('GET', '/device/real-time/did=0', { token: live.device.token })).json().data as { device_id: string; patient_code: string | null; state: string }[];
    expect(listed.find((d) => d.device_id === 'NCT0001')).toMatchObject({ patient_code: 'NCT1001', state: 'offline' });
    expect(listed.find((d) => d.device_id === 'NCT0005')).toMatchObject({ patient_code: null });
    expect((await update(practiceDefault)).json().code).toBe('no_changes');
  });

  it('gives annotators and another practice nothing', async () => {
    const annotator = await tokenOf(live.server, DEMO_ACCOUNTS.annotator);
    expect((await live.server.call('GET', '/datahub/get_physician_devices_config', { token: annotator })).statusCode).toBe(403);
    expect((await update(withChanges({ live_streaming: false }), annotator)).statusCode).toBe(403);
    expect((await live.server.call('GET', '/physician/realtime-layout', { token: annotator })).statusCode).toBe(403);
  });

  it('pushes a new version to the connected device, which applies or refuses it; an offline device gets it on reconnect', async () => {
    const client = new DeviceClient({ server: live.base, deviceId: 'NCT0001', key: live.device.key, source: shortSource('config'), speed: 1 });
    client.start();
    try {
      await until(() => client.connects >= 1, 20_000, 'welcome');
      const saved = await update(withChanges({ radar: { range_m: 3, sensitivity: 7 } }));
      expect(saved.statusCode).toBe(200);
      expect(saved.json().data).toMatchObject({ version: 1, status: 'pending', changes: [{ field: 'radar.range_m', from: 2.5, to: 3 }, { field: 'radar.sensitivity', from: 5, to: 7 }] });
      await until(async () => (await mine()).status === 'applied', 20_000, 'applied');
      expect(client.config).toEqual({ version: 1, config: withChanges({ radar: { range_m: 3, sensitivity: 7 } }) });

      // A rate the device cannot sample at: refused with its reason, the device keeps version 1.
      expect((await update(withChanges({ radar: { range_m: 3, sensitivity: 7 }, channels: { ...DEFAULT_CONFIG.channels, Y_DIST: 50 } }))).statusCode).toBe(200);
      await until(async () => (await mine()).status === 'refused', 20_000, 'refused');
      const refused = await mine();
      expect(refused.status_reason).toBe('this device samples Y_DIST at 20 Hz only');
      expect(client.config?.version).toBe(1);

      // Offline: saved as pending, delivered when the device comes back.
      client.stop();
      await until(async () => (await live.server.db.query('select 1 from device_live')).length > 0, 5_000, 'live row');
      expect((await update(withChanges({ radar: { range_m: 4, sensitivity: 7 } }))).statusCode).toBe(200);
      expect((await mine()).status).toBe('pending');
      const again = new DeviceClient({ server: live.base, deviceId: 'NCT0001', key: live.device.key, source: shortSource('config'), speed: 1 });
      again.start();
      try {
        await until(async () => (await mine()).status === 'applied', 20_000, 'applied after reconnect');
        expect(again.config?.version).toBe(3);
      } finally {
        again.stop();
      }
      const history = (await mine()).history;
      expect(history.map((h: { version: number; status: string }) => [h.version, h.status])).toEqual([[3, 'applied'], [2, 'refused'], [1, 'applied']]);
      expect(history[2].created_by_name).toBeTruthy();
      expect(history[0].changes).toEqual([{ field: 'channels.Y_DIST', from: 50, to: 20 }, { field: 'radar.range_m', from: 3, to: 4 }]);
    } finally {
      client.stop();
    }
  }, 90_000);

  it('saves the real-time dashboard layout per user, validated', async () => {
    const layout = [{ i: 'NCT0001', x: 0, y: 0, w: 4, h: 3 }, { i: 'NCT0002', x: 4, y: 0, w: 4, h: 3 }];
    expect((await live.server.call('POST', '/physician/realtime-layout', { token: live.device.token, body: { layout } })).statusCode).toBe(200);
    expect((await live.server.call('GET', '/physician/realtime-layout', { token: live.device.token })).json().data.layout).toEqual(layout);
    const other = await tokenOf(live.server, DEMO_ACCOUNTS.secondary);
    expect((await live.server.call('GET', '/physician/realtime-layout', { token: other })).json().data.layout).toBeNull();
    const bad = await live.server.call('POST', '/physician/realtime-layout', { token: live.device.token, body: { layout: [{ i: 'x', x: -1, y: 0, w: 1, h: 1 }] } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/x must be >= 0/);
  });
});
