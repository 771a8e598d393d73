declare module 'md5-wasm' {
  /** MD5 of the bytes as 32 lowercase hex characters. */
  export default function md5(data: Uint8Array): Promise<string>;
}
