import type { WebSocket } from 'ws';
import type { Db } from '../db/adapter';
import type { Logger } from '../log';
import { currentConfig, recordConfigAck } from './device-config';
import type { ServerToDevice } from '../../contract/live-protocol';

/** NOTIFY channel that says "device m has a new configuration" to every server process. */
const CONFIG_CHANNEL = 'nocturne_device_config';

/**
 * Delivers configurations over the devices' live connections: a new version is announced
 * on CONFIG_CHANNEL (LISTEN/NOTIFY on PostgreSQL, in-process on PGlite) and the process
 * holding the device's socket sends it; a device that connects later gets its newest
 * pending version right after its welcome. The device's config-ack is recorded as
 * applied or refused.
 */
export class ConfigPush {
  private readonly sockets = new Map<number, WebSocket>();
  private stopListening: (() => Promise<void>) | null = null;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    this.stopListening = await this.db.listen(CONFIG_CHANNEL, (payload) => {
      const m = Number(payload);
      if (this.sockets.has(m)) void this.sendPending(m).catch((err: Error) => this.log.error(`config push to device ${m} failed: ${err.message}`));
    });
  }

  async close(): Promise<void> {
    await this.stopListening?.();
    this.stopListening = null;
  }

  /** A device's session began on this process: it gets its pending configuration now. */
  async attach(deviceMasterId: number, socket: WebSocket): Promise<void> {
    this.sockets.set(deviceMasterId, socket);
    socket.once('close', () => {
      if (this.sockets.get(deviceMasterId) === socket) this.sockets.delete(deviceMasterId);
    });
    await this.sendPending(deviceMasterId);
  }

  /** A new version was saved: whichever process holds the device sends it. */
  announce(deviceMasterId: number): Promise<void> {
    return this.db.notify(CONFIG_CHANNEL, String(deviceMasterId));
  }

  /** The device's answer; false when it named no pending version. */
  acknowledged(deviceMasterId: number, msg: { version?: unknown; applied?: unknown; reason?: unknown }): Promise<boolean> {
    if (!Number.isInteger(msg.version) || typeof msg.applied !== 'boolean') return Promise.resolve(false);
    return recordConfigAck(this.db, deviceMasterId, msg.version as number, msg.applied, typeof msg.reason === 'string' ? msg.reason : null);
  }

  /**
   * Sends the device the configuration it should run: the newest version unless the device
   * refused it, then the one before (a device that restarted without memory runs its applied
   * configuration again; acknowledging an applied version again changes nothing).
   */
  private async sendPending(deviceMasterId: number): Promise<void> {
    const latest = await currentConfig(this.db, deviceMasterId);
    const socket = this.sockets.get(deviceMasterId);
    if (!latest || !socket) return;
    const msg: ServerToDevice = { type: 'config', version: latest.version, config: latest.config as unknown as Record<string, unknown> };
    socket.send(JSON.stringify(msg));
  }
}
