// The load balancer of bench/scale.bench.ts, in a process of its own (so its CPU time is measured
// apart): a TCP proxy on loopback that hands each new connection to the next API process in turn
// (round robin per connection, as a layer-4 balancer does). HTTP keep-alive connections and
// WebSockets (an upgraded HTTP connection) pass through it byte for byte, unparsed. It also
// listens on one "pinned" port per API process: connections there always go to that process,
// so the bench can place a device or a viewer on a chosen process (a sticky route), through the
// same proxy hop as everything else. argv: the API processes' ports. Prints one JSON line
// {"rr": port, "pinned": [port, …]} when listening; exits on SIGTERM.
import net from 'node:net';

const backends = process.argv.slice(2).map(Number);
if (backends.length === 0 || backends.some((p) => !Number.isInteger(p) || p <= 0)) {
  console.error('usage: scale-proxy.ts <api port> [<api port> …]');
  process.exit(2);
}

function pipeTo(client: net.Socket, port: number): void {
  const upstream = net.connect({ host: '127.0.0.1', port });
  client.setNoDelay(true);
  upstream.setNoDelay(true);
  client.pipe(upstream);
  upstream.pipe(client);
  // Either side gone: the other is closed too (a reset stays a reset, never a hung socket).
  const close = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', close);
  upstream.on('error', close);
  client.on('close', close);
  upstream.on('close', close);
}

function listen(server: net.Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
  });
}

let next = 0;
const rr = net.createServer((client) => pipeTo(client, backends[next++ % backends.length]!));
const pinned = backends.map((port) => net.createServer((client) => pipeTo(client, port)));
const ports = { rr: await listen(rr), pinned: await Promise.all(pinned.map(listen)) };
console.log(JSON.stringify(ports));
process.on('SIGTERM', () => process.exit(0));
