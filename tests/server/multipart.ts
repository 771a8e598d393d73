import { randomBytes } from 'node:crypto';
import type { TestServer } from './helpers';

/** A multipart/form-data body as a browser's FormData would send it. */
export function multipartBody(fields: Record<string, string>, files: Array<{ field: string; name: string; bytes: Uint8Array; type?: string }>) {
  const boundary = `----nocturne${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const f of files) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.name}"\r\nContent-Type: ${f.type ?? 'application/octet-stream'}\r\n\r\n`));
    chunks.push(Buffer.from(f.bytes));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** POSTs files (and form fields) to the upload route as `token`'s user, as the browser's import form does. */
export function uploadFiles(server: TestServer, token: string, fields: Record<string, string>, files: Array<{ name: string; bytes: Uint8Array }>) {
  const { payload, contentType } = multipartBody(fields, files.map((f) => ({ field: 'files', ...f })));
  return server.app.inject({ method: 'POST', url: '/api/v1/patient/upload-recording', payload, headers: { authorization: `Bearer ${token}`, 'content-type': contentType } });
}
