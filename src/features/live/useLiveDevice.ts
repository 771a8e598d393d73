// One live device on screen: its channels' series (frames as they come, the session so far
// and any skipped range from storage), its state and the socket's.
import { useEffect, useRef, useState } from 'react';
import { decodeWire } from '../../../engine/wire';
import { LIVE_CHANNELS, type DeviceLiveState, type LiveErrorCode, type ViewerSubscribed } from '../../../contract/live-protocol';
import { download } from '../../api/client';
import { session } from '../../state/session';
import { paintProbe } from './paintProbe';
import { LiveSeries } from './series';
import { LiveStream, type ConnectionState, type LiveFrame } from './stream';

let shared: { stream: LiveStream; token: string | null } | null = null;

/** The page's one stream socket, opened on first use and again for a new session. */
function liveStream(): LiveStream {
  if (shared && shared.token !== session.token) {
    shared.stream.close();
    shared = null;
  }
  shared ??= { stream: new LiveStream(() => session.token), token: session.token };
  return shared.stream;
}

export interface LiveDevice {
  deviceId: string;
  recordingId: number | null;
  patientId: number | null;
  state: DeviceLiveState;
  series: Map<string, LiveSeries>;
  /** Newest frame's device send time (ms), for latency figures. */
  lastSentMs: number | null;
  lastSeq: number;
  /** Each channel's newest sample as sent (missing codes kept: -2 says no one is there). */
  latestRaw: Map<string, number>;
  error: LiveErrorCode | null;
}

const isMissingCoded = (code: string) => (LIVE_CHANNELS as Record<string, { missing: boolean }>)[code]?.missing ?? false;

/**
 * What a view reads from storage besides the stream: which of the device's channels (all by
 * default) and how far back (the whole night by default; a tile's strip, its last minute).
 */
export interface LiveStorage {
  codes?: (channels: readonly string[]) => readonly string[];
  tailMs?: number;
}

/** Reads the stored samples of a live recording's channels into their series (no cache: the night grows). */
async function fillFromStorage(device: LiveDevice, codes: readonly string[], tailMs: number | undefined): Promise<void> {
  const { patientId, recordingId } = device;
  if (patientId === null || recordingId === null) return;
  await Promise.all(
    codes.map(async (code) => {
      const query = { patient_id: patientId, recording_id: recordingId, code, ...(tailMs === undefined ? {} : { tail_ms: tailMs }) };
      const response = await download('GET /analytics/patient/channel-data', 'application/octet-stream', { query });
      const wire = decodeWire(new Uint8Array(await response.arrayBuffer()));
      if (device.recordingId === recordingId) device.series.get(code)?.putWire(wire);
    }),
  );
}

function applySubscribed(device: LiveDevice, msg: ViewerSubscribed): boolean {
  const fresh = device.recordingId !== msg.recordingId;
  device.state = msg.state;
  device.patientId = msg.patientId;
  device.lastSeq = Math.max(device.lastSeq, msg.lastSeq);
  if (fresh || device.series.size === 0) {
    device.recordingId = msg.recordingId;
    device.series = new Map(msg.channels.map((c) => [c.code, new LiveSeries(c.code, c.rate, c.t0Ms, isMissingCoded(c.code))]));
  }
  return true;
}

function applyFrame(device: LiveDevice, frame: LiveFrame): boolean {
  if (frame.header.recordingId !== device.recordingId) return false;
  const probe = paintProbe();
  for (const c of frame.channels) {
    const series = device.series.get(c.code);
    series?.put(c.at, c.samples);
    if (c.samples.length > 0) {
      device.latestRaw.set(c.code, c.samples[c.samples.length - 1]!);
      if (series && probe) probe.applied(series, frame.header.sentMs);
    }
  }
  device.lastSeq = Math.max(device.lastSeq, frame.header.seq);
  device.lastSentMs = frame.header.sentMs;
  device.state = 'streaming';
  return true;
}

/**
 * Subscribes to a device while mounted. The returned object is mutated in place as frames
 * arrive (plots read it every animation frame); `tick` changes when React should re-render
 * (state, recording, about once a second for readouts).
 */
export function useLiveDevice(deviceId: string | null, storage?: LiveStorage): { device: LiveDevice | null; connection: ConnectionState; tick: number } {
  const [tick, setTick] = useState(0);
  const [connection, setConnection] = useState<ConnectionState>('connecting');
  const ref = useRef<LiveDevice | null>(null);
  useEffect(() => {
    if (!deviceId) return;
    const device: LiveDevice = { deviceId, recordingId: null, patientId: null, state: 'offline', series: new Map(), lastSentMs: null, lastSeq: -1, latestRaw: new Map(), error: null };
    ref.current = device;
    const stream = liveStream();
    const rerender = () => setTick((n) => n + 1);
    const fill = () => {
      const channels = [...device.series.keys()];
      fillFromStorage(device, storage?.codes ? storage.codes(channels) : channels, storage?.tailMs).then(rerender, () => rerender());
    };
    let pending = 0;
    const offWatch = stream.watch(deviceId, {
      subscribed: (msg) => {
        applySubscribed(device, msg);
        device.error = null;
        fill();
        rerender();
      },
      frame: (frame) => {
        if (!applyFrame(device, frame)) return stream.resubscribe(deviceId);
        if (++pending >= 5) {
          pending = 0;
          rerender();
        }
      },
      state: (_id, state) => {
        device.state = state;
        rerender();
      },
      skipped: () => fill(),
      error: (msg) => {
        device.error = msg.code;
        rerender();
      },
    });
    const offConnection = stream.onConnection(setConnection);
    return () => {
      offWatch();
      offConnection();
      ref.current = null;
    };
  }, [deviceId, storage]);
  return { device: ref.current, connection, tick };
}
